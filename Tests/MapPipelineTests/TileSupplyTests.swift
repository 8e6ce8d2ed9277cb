import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// One z0 tile of land (the source over-zooms it for every covering tile).
private let supplyTile = MVTWriter(layers: [
    ("shapes", [.init(geometry: .polygon([(0, 0), (4096, 0), (4096, 4096), (0, 4096)]))])
]).encode()

private let supplyLayers = """
    {"id": "land", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}}
    """

private func supplyRenderer(engine: MapEngine, asynchronous: Bool = false) throws -> MapRenderer {
    var options = MapRenderOptions(tileSize: 256, drawsAttribution: false, engine: engine)
    if asynchronous { options.asyncTiles = AsyncTileRendering(makeBackend: { RecordingBackend() }) }
    return try renderer(
        style: testStyle(layers: supplyLayers), tiles: [TileID(z: 0, x: 0, y: 0): supplyTile], options: options,
        backend: RecordingBackend())
}

/// The synchronous supply answers "this tile's image is missing" by making it now: with a budget smaller than one
/// frame's tile images, the tile stage's images are evicted before the frame composes them, and every tile is still
/// drawn from an image made again (none is left to a stand-in).
@Test func aSynchronousFrameWithABudgetSmallerThanItsImagesDrawsEveryTile() throws {
    // Room for about one 256×256 image (256 KiB): 16 covering tiles at z2 cannot all stay.
    let r = try supplyRenderer(engine: MapEngine(byteBudget: 300 << 10))
    let list = r.displayList(camera: camera(zoom: 2, size: 1000))
    let stats = r.lastFrameStatistics
    let images = list.commands.filter { if case .image = $0 { return true } else { return false } }
    #expect(stats.tiles == 16)
    #expect(images.count == stats.tiles)
    // Every tile made by the tile stage, and the evicted ones again while composing.
    #expect(stats.tileImagesRendered > stats.tiles)
    #expect(stats.standIns == 0)
}

/// The synchronous supply is the one every renderer without ``MapRenderOptions/asyncTiles`` gets, and the
/// asynchronous one holds the worker queue: the choice is made from the options alone, once.
@Test func theTileSupplyFollowsTheAsyncTilesOption() throws {
    let engine = MapEngine()
    #expect(try supplyRenderer(engine: engine).supply is InlineTileSupply)
    let asynchronous = try supplyRenderer(engine: engine, asynchronous: true)
    #expect(asynchronous.supply is WorkerTileSupply)
    // Its frames ask and wait: the first frame of an empty engine draws no tile image and leaves tiles pending.
    let list = asynchronous.displayList(camera: camera(zoom: 2, size: 1000))
    #expect(!list.commands.contains { if case .image = $0 { return true } else { return false } })
    #expect(asynchronous.pendingTileCount > 0)
}

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
    #expect(try supplyRenderer(engine: engine).tileSupply is InlineTileSupply)
    let asynchronous = try supplyRenderer(engine: engine, asynchronous: true)
    #expect(asynchronous.tileSupply is WorkerTileSupply)
    // Its frames ask and wait: the first frame of an empty engine draws no tile image and leaves tiles pending.
    let list = asynchronous.displayList(camera: camera(zoom: 2, size: 1000))
    #expect(!list.commands.contains { if case .image = $0 { return true } else { return false } })
    #expect(asynchronous.pendingTileCount > 0)
}

/// A supply decides and the renderer applies (MapRenderer+Supply.swift): the synchronous supply hands every job back
/// to be made now and builds every label, the asynchronous one keeps the jobs for its workers (handing back none and
/// counting them when the frame ends) and, once its frame's label budget is spent, puts labels off to a later frame
/// with the zoom step the slot last built.
@Test func aSupplyAnswersWithDecisionsTheRendererApplies() throws {
    let tile = TileID(z: 3, x: 2, y: 5)
    let job = TileJob(
        key: TileImageKey(revision: 0, z: tile.z, x: tile.x, y: tile.y, pixelScale: 1), images: [], tileSize: 256,
        spriteVersion: 0, sprite: nil, priority: 0)
    let slot = SymbolSlot(layer: 1, tile: tile)

    let inline = InlineTileSupply()
    #expect(inline.provide([job]).map(\.tile) == [tile])
    #expect(inline.endFrame() == 0)
    #expect(inline.labelPlan(for: slot) == .build)
    #expect(inline.reportedSourceData(SourceDataKey(source: "t", address: tile)) == nil)

    let queue = TileWorkQueue(limit: 8, onArrival: {})
    defer { queue.stop() }
    let worker = WorkerTileSupply(
        queue: queue,
        settings: AsyncTileRendering(labelBuildBudgetMilliseconds: 0, makeBackend: { RecordingBackend() }))
    worker.beginFrame()
    #expect(worker.provide([job]).isEmpty)
    // The first build of a frame is always allowed; past the (zero) budget the slot is put off.
    #expect(worker.labelPlan(for: slot) == .build)
    worker.builtLabels(for: slot, step: 7)
    Thread.sleep(forTimeInterval: 0.002)
    #expect(worker.labelPlan(for: slot) == .putOff(lastStep: 7))
    #expect(worker.labelPlan(for: SymbolSlot(layer: 2, tile: tile)) == .putOff(lastStep: nil))
    #expect(worker.labelWorkDeferred)
    #expect(worker.reportedSourceData(SourceDataKey(source: "t", address: tile)) == false)
    #expect(worker.endFrame() == 1)
}

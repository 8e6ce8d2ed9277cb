import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// An in-memory source that names its data (so renderers on it share what they decode).
private struct NamedTileSource: TileSource {
    var name: String
    var tiles: [TileID: [UInt8]]
    var maxZoom = 0
    var minZoom = 0
    var metadata = TileSourceMetadata()
    var sharingIdentity: String? { name }
    func tileData(at address: TileID) throws -> [UInt8]? { tiles[address] }
}

private let engineLayers = """
    {"id": "land", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}},
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-width": 4}},
    {"id": "names", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": "{name}"}}
    """

private let engineTile = MVTWriter(layers: [
    ("shapes", [.init(geometry: .polygon([(0, 0), (4096, 0), (4096, 4096), (0, 4096)]))]),
    ("roads", [.init(geometry: .line([(0, 100), (4096, 3000)]))]),
    ("pois", [.init(geometry: .point(2048, 2048), properties: ["name": "Kauppatori"])]),
]).encode()

private func engineRenderer(
    _ engine: MapEngine, backend: RecordingBackend, layers: String = engineLayers, data: String = "data-a"
) throws -> MapRenderer {
    try MapRenderer(
        style: testStyle(layers: layers, sourceMaxZoom: 0), backend: backend,
        options: MapRenderOptions(tileSize: 256, drawsAttribution: false, engine: engine)
    ) { _, _ in NamedTileSource(name: data, tiles: [TileID(z: 0, x: 0, y: 0): engineTile]) }
}

@Test func fourRenderersOfOneStyleCostAtMostAQuarterMoreThanOne() throws {
    let engine = MapEngine()
    let backend = RecordingBackend()
    let view = camera(zoom: 2.5, size: 512)
    let first = try engineRenderer(engine, backend: backend)
    _ = first.displayList(camera: view)
    let one = engine.cacheBytes
    #expect(one > 0)
    var others: [MapRenderer] = []
    for _ in 0..<3 {
        let r = try engineRenderer(engine, backend: backend)
        _ = r.displayList(camera: view)
        // The tile was decoded once, and the images and symbols made by the first view are reused.
        #expect(r.lastFrameStatistics.tilesDecoded == 0)
        #expect(r.lastFrameStatistics.tileImagesRendered == 0)
        #expect(r.lastFrameStatistics.labelsPlaced == first.lastFrameStatistics.labelsPlaced)
        others.append(r)
    }
    #expect(Double(engine.cacheBytes) <= 1.25 * Double(one))
    #expect(others.count == 3)
}

@Test func renderersOfDifferentStylesOrDataDoNotSeeEachOthersTiles() throws {
    let engine = MapEngine()
    let backend = RecordingBackend()
    let view = camera(zoom: 1, size: 512)
    let red = try engineRenderer(engine, backend: backend)
    let redFrame = red.displayList(camera: view)
    let blueLayers = engineLayers.replacingOccurrences(of: "#ff0000", with: "#0000ff")
    let blue = try engineRenderer(engine, backend: backend, layers: blueLayers)
    let blueFrame = blue.displayList(camera: view)
    // Same data: the decoded tile is shared; another style: its own tile images.
    #expect(blue.lastFrameStatistics.tilesDecoded == 0)
    #expect(blue.lastFrameStatistics.tileImagesRendered > 0)
    func images(_ list: DisplayList) -> Set<Int> {
        Set(list.commands.compactMap { if case .image(let i) = $0 { return i.image.id } else { return nil } })
    }
    #expect(!images(redFrame).isEmpty && images(redFrame).isDisjoint(with: images(blueFrame)))
    // The same style on other data: nothing shared.
    let other = try engineRenderer(engine, backend: backend, data: "data-b")
    _ = other.displayList(camera: view)
    #expect(other.lastFrameStatistics.tilesDecoded > 0 && other.lastFrameStatistics.tileImagesRendered > 0)
}

@Test func theEngineStaysWithinItsBudgetUnderLoad() throws {
    // Room for a handful of 256×256 images: every frame evicts the least recently used entries.
    let engine = MapEngine(byteBudget: 1 << 20)
    let backend = RecordingBackend()
    let renderers = try (0..<3).map { _ in try engineRenderer(engine, backend: backend) }
    var drawn = 0
    for step in 0..<24 {
        var view = camera(zoom: Double(step % 6) + 0.5, size: 600)
        view.center = LatLng(latitude: Double(step % 5) * 7 - 14, longitude: Double(step % 7) * 20 - 60)
        let r = renderers[step % 3]
        let list = r.displayList(camera: view)
        #expect(engine.cacheBytes <= 1 << 20)
        if list.commands.contains(where: { if case .image = $0 { return true } else { return false } }) {
            drawn += 1
        }
    }
    #expect(drawn == 24)
    // Evicted images were unregistered from the backend at the next frame start.
    #expect(backend.registered.count < 32)
    // Lowering the budget evicts at once.
    engine.byteBudget = 64 << 10
    #expect(engine.cacheBytes <= 64 << 10)
}

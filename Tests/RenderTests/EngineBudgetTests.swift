import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle
import MapTestSupport
import Testing

/// A raster source whose every tile is the same opaque PNG, counting its reads; it names its data, so renderers on
/// it share what the engine keeps of it.
private final class CountingRasterSource: TileSource, @unchecked Sendable {
    let png: [UInt8]
    let name = "counting-raster-\(UUID().uuidString)"
    private let lock = NSLock()
    private var count = 0
    var minZoom: Int { 0 }
    var maxZoom: Int { 6 }
    var metadata: TileSourceMetadata { TileSourceMetadata() }
    var sharingIdentity: String? { name }
    var reads: Int { lock.withLock { count } }

    init() throws { png = try RasterSourceTests.tilePNG() }

    func tileData(at address: TileID) throws -> [UInt8]? {
        lock.withLock { count += 1 }
        return png
    }
}

/// One vector tile (z0) with 60 labelled points spread over the world, over-zoomed at every zoom.
private struct LabelSource: TileSource {
    static let tile: [UInt8] = MVTWriter(layers: [
        (
            "pois",
            (0..<60).map { i in
                .init(
                    geometry: .point(100 + (i % 10) * 390, 100 + (i / 10) * 650),
                    properties: ["name": "Label number \(i)"])
            }
        )
    ]).encode()
    var minZoom: Int { 0 }
    var maxZoom: Int { 0 }
    var metadata: TileSourceMetadata { TileSourceMetadata() }
    var sharingIdentity: String? { "budget-labels" }
    func tileData(at address: TileID) throws -> [UInt8]? { address.z == 0 ? Self.tile : nil }
}

private func budgetStyle(rasterOpacity: Double = 1) throws -> Style {
    let json = """
        {"version": 8, "sources": {
           "r": {"type": "raster", "tiles": ["test://{z}/{x}/{y}.png"], "tileSize": 256, "maxzoom": 6},
           "v": {"type": "vector", "url": "mbtiles://labels.mbtiles", "maxzoom": 0}},
         "layers": [
           {"id": "r", "type": "raster", "source": "r", "paint": {"raster-opacity": \(rasterOpacity)}},
           {"id": "names", "type": "symbol", "source": "v", "source-layer": "pois",
            "layout": {"text-field": "{name}", "text-size": 14, "text-allow-overlap": true},
            "paint": {"text-halo-width": 2, "text-halo-color": "#ffffff"}}]}
        """
    return try Style.parse(bytes: Array(json.utf8))
}

private func budgetRenderer(
    _ engine: MapEngine, backend: CairoBackend, raster: CountingRasterSource, rasterOpacity: Double = 1
) throws -> MapRenderer {
    var options = MapRenderOptions(drawsAttribution: false, engine: engine)
    options.rasterDecoder = PixbufRasterDecoder()
    return try MapRenderer(style: budgetStyle(rasterOpacity: rasterOpacity), backend: backend, options: options) {
        id, _ in id == "r" ? raster as any TileSource : LabelSource()
    }
}

private func view(_ lng: Double, zoom: Double) -> CameraState {
    CameraState(center: LatLng(latitude: 20, longitude: lng), zoom: zoom, size: ScreenSize(width: 512, height: 512))
}

@Test func rasterTilesAndLabelSpritesStayUnderTheEnginesOneBudget() throws {
    Fixtures.pinFonts()
    let budget = 3 << 20
    let engine = MapEngine(byteBudget: budget)
    let backend = CairoBackend()
    let raster = try CountingRasterSource()
    let renderer = try budgetRenderer(engine, backend: backend, raster: raster)
    var most = (raster: 0, backendValues: 0)
    for (i, lng) in stride(from: -150.0, through: 150, by: 25).enumerated() {
        let frame = try renderer.render(camera: view(lng, zoom: 3 + Double(i % 3)))
        // The raster is drawn (the tile's west half is red, its east half blue) whatever the budget evicted.
        let p = frame.premultipliedRGBA(x: 5, y: 5)!
        #expect(p.a == 255 && (p.r == 200 || p.b == 200))
        #expect(engine.cacheBytes <= budget)
        let counts = engine.rasterAndBackendEntryCounts
        most = (max(most.raster, counts.raster), max(most.backendValues, counts.backendValues))
    }
    // Raster tiles and label sprites both live in the engine's store (none in the backend's own sprite cache), and
    // the budget evicted tiles: more were read than it ever held.
    #expect(most.raster > 0 && most.backendValues > 0)
    #expect(backend.labelSprites.store !== backend.labelSprites.ownStore)
    #expect(backend.labelSprites.ownStore.count == 0 && backend.labelSprites.ownStore.totalBytes == 0)
    #expect(backend.labelSprites.misses > 0)
    #expect(raster.reads > most.raster)
}

@Test func twoRenderersOverOneRasterSourceReadEachTileOnce() throws {
    Fixtures.pinFonts()
    let engine = MapEngine()
    let backend = CairoBackend()
    let raster = try CountingRasterSource()
    let camera = view(10, zoom: 3.5)
    let opaque = try budgetRenderer(engine, backend: backend, raster: raster)
    _ = try opaque.render(camera: camera)
    let reads = raster.reads
    #expect(reads > 0)
    // Another style (its own tile images) over the same raster data on the same backend: its tiles come from the
    // engine, none is read or decoded again; its label sprites are the first renderer's.
    let faded = try budgetRenderer(engine, backend: backend, raster: raster, rasterOpacity: 0.5)
    let misses = backend.labelSprites.misses
    _ = try faded.render(camera: camera)
    #expect(faded.lastFrameStatistics.tileImagesRendered > 0)
    #expect(raster.reads == reads)
    #expect(faded.lastFrameStatistics.tilesDecoded == 0)
    #expect(backend.labelSprites.misses == misses)
}

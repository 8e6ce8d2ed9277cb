import MapData
import MapDrawing
import MapGeometry
import MapPipeline
import MapStyle
import MapTestSupport

/// An in-memory tile source.
struct MemoryTileSource: TileSource {
    var tiles: [TileID: [UInt8]]
    var minZoom = 0
    var maxZoom = 0
    var metadata = TileSourceMetadata()

    func tileData(at address: TileID) throws -> [UInt8]? { tiles[address] }
}

/// A style with one vector source `t` and the given layers (JSON text).
func testStyle(layers: String, sourceMaxZoom: Int = 0) throws -> Style {
    let json = """
        {"version": 8, "sources": {"t": {"type": "vector", "url": "mbtiles://test.mbtiles", "maxzoom": \
        \(sourceMaxZoom), "attribution": "<a href=\\"x\\">Test source</a>"}},
         "layers": [\(layers)]}
        """
    return try Style.parse(bytes: Array(json.utf8))
}

func renderer(
    style: Style, tiles: [TileID: [UInt8]], maxZoom: Int = 0, options: MapRenderOptions, backend: RecordingBackend
) throws -> MapRenderer {
    try MapRenderer(style: style, backend: backend, options: options) { _, _ in
        MemoryTileSource(tiles: tiles, maxZoom: maxZoom)
    }
}

func camera(zoom: Double, size: Double = 256, bearing: Double = 0, pitch: Double = 0) -> CameraState {
    CameraState(
        center: LatLng(latitude: 0, longitude: 0), zoom: zoom, bearing: bearing, pitch: pitch,
        size: ScreenSize(width: size, height: size))
}

/// The vector path without attribution, in 256-point tiles (style zoom = camera zoom): most of these tests lay their
/// scenes out so that tile z is 256 points at camera zoom z. The default, MapLibre's 512-point tiles, is tested in
/// `theDefaultConventionIsMapLibresStyleZoomAndTiles`.
let vectorOnly = MapRenderOptions(tileSize: 256, usesTileImageCache: false, drawsAttribution: false)

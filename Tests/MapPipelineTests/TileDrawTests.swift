import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// One source tile 0/0/0: a building-like square with an outline, a second square beside it, a road.
private let tile: [UInt8] = MVTWriter(layers: [
    (
        "shapes",
        [
            .init(geometry: .polygon([(1024, 1024), (2048, 1024), (2048, 2048), (1024, 2048)]), properties: [:]),
            .init(geometry: .polygon([(2048, 1024), (3072, 1024), (3072, 2048), (2048, 2048)]), properties: [:]),
        ]
    ),
    ("roads", [.init(geometry: .line([(0, 3000), (2000, 2600), (4096, 3000)]), properties: [:])]),
]).encode()

private let layers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
    {"id": "b", "type": "fill", "source": "t", "source-layer": "shapes",
     "paint": {"fill-color": "#ff0000", "fill-outline-color": "#000000"}},
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads",
     "layout": {"line-join": "round"}, "paint": {"line-color": "#0000ff", "line-width": 6}}
    """

@Suite struct TileDrawTests {
    /// The projector's per-tile homography is the camera's own formula: every point lands where
    /// `CameraTransform.screenPoint(forUnwrapped:)` puts it.
    @Test func perspectiveProjectionMatchesTheCamera() {
        let state = CameraState(
            center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 16, bearing: 45, pitch: 50,
            size: ScreenSize(width: 1280, height: 720))
        let camera = CameraTransform(state)
        let centre = TileID.containing(WebMercator.worldPoint(state.center), zoom: 16)
        for tile in [
            centre, TileID(z: 16, x: centre.x + 1, y: centre.y - 2),
            TileID(z: 15, x: centre.x / 2, y: centre.y / 2 - 1),
        ] {
            let projector = TileProjector(tile: tile, extent: 4096, camera: camera)
            for (x, y) in [(0.0, 0.0), (4096.0, 0.0), (1234.5, 3000.25), (-300.0, 4400.0)] {
                let p = projector.project(x, y)
                let s = camera.screenPoint(forUnwrapped: TileProjector.world(x, y, tile: tile, extent: 4096))
                #expect(abs(p.x - s.x) < 1e-6 && abs(p.y - s.y) < 1e-6, "tile \(tile) point (\(x), \(y))")
            }
        }
    }

    /// Pitched frames prepare each layer's draws once per tile and zoom: the same camera again, tilting further and
    /// turning the map reuse them (only tiles new to the view are prepared), and the frames they draw are the ones
    /// freshly prepared draws give.
    @Test func tiltingAndTurningReuseThePreparedDraws() throws {
        let r = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
            backend: RecordingBackend())
        let first = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 10, pitch: 40))
        let prepared = r.tileDrawsPrepared
        #expect(prepared > 0)
        let again = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 10, pitch: 40))
        #expect(again.description == first.description)
        #expect(r.tileDrawsPrepared == prepared)
        _ = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 60, pitch: 55))
        // Tilting further shows more (and coarser, farther) tiles: those are prepared, the others are looked up.
        let afterTilt = r.tileDrawsPrepared
        #expect(afterTilt > prepared)
        #expect(r.tileDrawsReused > 0)
        // Back to both cameras: nothing is prepared twice.
        _ = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 10, pitch: 40))
        _ = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 60, pitch: 55))
        #expect(r.tileDrawsPrepared == afterTilt)
        // A renderer that never saw the first cameras draws the turned frame the same.
        let fresh = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
            backend: RecordingBackend())
        let turned = camera(zoom: 1, size: 512, bearing: 60, pitch: 55)
        #expect(fresh.displayList(camera: turned).description == r.displayList(camera: turned).description)
    }
}

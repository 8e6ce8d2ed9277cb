import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapStorage
import MapStyle
import MapTestSupport
import Testing

/// The same views drawn from `mbtiles://` and from `pmtiles://` (Helsinki converted by the pinned Python `pmtiles`
/// package, and by our converter) give the same picture: the tile bytes are identical, so the pixels must be too.
@Suite struct PMTilesRenderTests {
    static let styles = Fixtures.data.appendingPathComponent("styles")

    /// The default style with its city source (Helsinki and Monaco) replaced by Helsinki alone: the MBTiles file when
    /// `helsinkiURL` is nil, else that URL.
    static func snapshotter(helsinkiURL: String?) throws -> MapHost {
        Fixtures.pinFonts()
        var text = try String(contentsOfFile: styles.appendingPathComponent("default.json").path, encoding: .utf8)
        #expect(text.contains("\"mbtiles://../cities.mbtiles\""))
        text = text.replacingOccurrences(
            of: "\"mbtiles://../cities.mbtiles\"", with: "\"\(helsinkiURL ?? "mbtiles://../helsinki.mbtiles")\"")
        let style = try Style.parse(bytes: Array(text.utf8), fileName: "default.json", baseDirectory: styles.path)
        #expect(style.errors.isEmpty)
        let snapshotter = try MapHost(style: style)
        if let sprite = style.sprite, let sheet = MapHost.loadSprite(sprite, baseDirectory: styles.path) {
            snapshotter.renderer.setSprite(sheet)
        }
        return snapshotter
    }

    @Test func helsinkiFromPMTilesMatchesMBTiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pm-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("helsinki.pmtiles").path
        try TileArchiveConverter.convert(
            input: Fixtures.data.appendingPathComponent("helsinki.mbtiles").path, output: ours)
        let cameras = [
            MapHost.demoCamera,
            CameraState(
                center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 14, bearing: 30, pitch: 40,
                size: ScreenSize(width: 480, height: 320)),
        ]
        let reference = try Self.snapshotter(helsinkiURL: nil)
        let python = try Self.snapshotter(helsinkiURL: "pmtiles://../../Tests/Fixtures/pmtiles/helsinki.pmtiles")
        let converted = try Self.snapshotter(helsinkiURL: "pmtiles://file://\(ours)")
        for camera in cameras {
            let expected = try reference.render(camera: camera)
            // Something is drawn: more than one colour in the frame.
            #expect(Set(stride(from: 0, to: expected.pixels.count, by: 4 * 97).map { expected.pixels[$0] }).count > 3)
            for other in [python, converted] {
                let image = try other.render(camera: camera)
                #expect(image.width == expected.width && image.height == expected.height)
                #expect(image.pixels == expected.pixels, "camera \(camera.zoom)")
            }
        }
    }
}

import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps

/// The bundled Protomaps-schema style (`Data/styles/protomaps.json`, issue 13) chosen with
/// `MapLibreStyle.bundled(named:sourceURL:)` and drawn by a map view over the Monaco fixture
/// (`Tests/Fixtures/protomaps/monaco.mbtiles`, made by `scripts/make-protomaps-fixture.sh`): land, water, roads,
/// buildings and labels in the default style's palette.
@MainActor @Suite(.serialized) struct BundledStyleTests {
    static let fixture = Fixtures.local.appendingPathComponent("protomaps/monaco.mbtiles").path

    @Test func namesAndErrors() throws {
        #expect(try MapLibreStyle.bundled(named: "default") == .bundled)
        guard case .file(let path) = try MapLibreStyle.bundled(named: "protomaps") else {
            Issue.record("expected the bundled file")
            return
        }
        #expect(path.hasSuffix("Data/styles/protomaps.json"))
        guard case .json(let text) = try MapLibreStyle.bundled(named: "protomaps", sourceURL: "mbtiles:///x.mbtiles")
        else {
            Issue.record("expected JSON text")
            return
        }
        #expect(text.contains("mbtiles:///x.mbtiles") && !text.contains("protomaps.pmtiles"))
        #expect(throws: BundledStyleError.self) { try MapLibreStyle.bundled(named: "../default") }
        do {
            _ = try MapLibreStyle.bundled(named: "nosuchstyle")
            Issue.record("a missing style must throw")
        } catch let error as BundledStyleError {
            #expect(error.description.contains("nosuchstyle.json"), "\(error)")
        }
    }

    @Test func protomapsStyleDrawsMonaco() throws {
        _ = installMapClock()
        let saved = GMSMapView.makeDefaultBasemap
        defer { GMSMapView.makeDefaultBasemap = saved }
        GMSMapView.makeDefaultBasemap = { style in
            (try? VectorBasemapRenderer(style: style)) ?? PlainBasemapRenderer()
        }
        let options = GMSMapViewOptions()
        options.frame = CGRect(x: 0, y: 0, width: 480, height: 360)
        // Port Hercule and La Condamine, inside the fixture's z15 tiles.
        options.camera = GMSCameraPosition(latitude: 43.7335, longitude: 7.4200, zoom: 15.6)
        options.mapLibreStyle = try .bundled(named: "protomaps", sourceURL: "mbtiles://\(Self.fixture)")
        let map = GMSMapView(options: options)
        #expect(!(map.basemap is PlainBasemapRenderer), "the style and the fixture load")
        let image = map.renderFrame(scale: 1)
        if let out = ProcessInfo.processInfo.environment["WAYMARK_TEST_OUTPUT"] {
            try image.pngData()?.write(to: URL(fileURLWithPath: out + "/protomaps-monaco.png"))
        }
        var counts = [String: Int]()
        for y in 0..<360 {
            for x in 0..<480 {
                let p = pixelAt(image, x, y)
                if isColor(p, 0xf5, 0xf3, 0xef, tolerance: 2) { counts["earth", default: 0] += 1 }
                if isColor(p, 0xaa, 0xda, 0xff, tolerance: 3) { counts["water", default: 0] += 1 }
                if isColor(p, 0xff, 0xff, 0xff, tolerance: 1) { counts["white roads", default: 0] += 1 }
                if isColor(p, 0xfd, 0xe2, 0x93, tolerance: 4) || isColor(p, 0xfc, 0xd5, 0x81, tolerance: 4) {
                    counts["major roads", default: 0] += 1
                }
                if isColor(p, 0xe8, 0xe4, 0xde, tolerance: 2) { counts["buildings", default: 0] += 1 }
                if p.r < 130 && p.g < 130 && p.b < 140 { counts["dark label text", default: 0] += 1 }
                if isColor(p, 0xe4, 0xe2, 0xde, tolerance: 1) { counts["background", default: 0] += 1 }
            }
        }
        let total = 480 * 360
        // Measured: earth 32 %, water 17 %, white 15 %, major roads 1.5 %, buildings 6 %, label text 0.6 %, background
        // (east of the fixture's tiles) 5 %; the bounds leave room for font and antialiasing changes.
        #expect(counts["earth", default: 0] > total / 6, "\(counts)")
        #expect(counts["water", default: 0] > total / 12, "\(counts)")
        #expect(counts["white roads", default: 0] > total / 20, "\(counts)")
        #expect(counts["major roads", default: 0] > total / 400, "\(counts)")
        #expect(counts["buildings", default: 0] > total / 50, "\(counts)")
        #expect(counts["dark label text", default: 0] > total / 500, "\(counts)")
        // The harbour: the middle of Port Hercule is water, a block of La Condamine is not.
        #expect(isColor(pixelAt(image, 440, 150), 0xaa, 0xda, 0xff, tolerance: 3), "\(pixelAt(image, 440, 150))")
    }
}

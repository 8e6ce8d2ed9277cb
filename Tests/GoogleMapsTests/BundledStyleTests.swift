import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps

/// The bundled Protomaps-schema style (`Data/styles/protomaps.json`, issue 13) chosen with
/// `MapLibreStyle.bundled(named:sourceURL:)` and drawn by a map view over the Monaco fixture
/// (`Tests/Fixtures/protomaps/monaco.mbtiles`, made by `scripts/data/make-protomaps-fixture.sh`): land, water, roads,
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
        let restore = useVectorBasemap()
        defer { restore() }
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
                if isColor(p, 0xff, 0xf1, 0xb8, tolerance: 2) { counts["primary roads", default: 0] += 1 }
                if isColor(p, 0xc8, 0xe6, 0xc1, tolerance: 2) { counts["parks", default: 0] += 1 }
                // #e8e4de at 0.9 opacity (zoom 15.6) over the land.
                if isColor(p, 0xe9, 0xe6, 0xdf, tolerance: 1) { counts["buildings", default: 0] += 1 }
                if p.r < 130 && p.g < 130 && p.b < 140 { counts["dark label text", default: 0] += 1 }
                if isColor(p, 0xe4, 0xe2, 0xde, tolerance: 1) { counts["background", default: 0] += 1 }
            }
        }
        let total = 480 * 360
        // Measured (of 172,800 pixels): earth 17,003 (most land is under landuse), water 31,805, white roads 32,003,
        // primary roads 2,520, parks 4,237, buildings 15,587, dark label text 858; the bounds leave room for font
        // and antialiasing changes. The background colour (outside the tiles) does not show in this view.
        #expect(counts["earth", default: 0] > total / 20, "\(counts)")
        #expect(counts["water", default: 0] > total / 10, "\(counts)")
        #expect(counts["white roads", default: 0] > total / 10, "\(counts)")
        #expect(counts["primary roads", default: 0] > total / 200, "\(counts)")
        #expect(counts["parks", default: 0] > total / 100, "\(counts)")
        #expect(counts["buildings", default: 0] > total / 20, "\(counts)")
        #expect(counts["dark label text", default: 0] > total / 500, "\(counts)")
        #expect(counts["background", default: 0] < total / 100, "\(counts)")
        // The harbour: the middle of Port Hercule is water, a block of La Condamine is not.
        #expect(isColor(pixelAt(image, 440, 150), 0xaa, 0xda, 0xff, tolerance: 3), "\(pixelAt(image, 440, 150))")
    }
}

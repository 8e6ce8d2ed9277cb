import Foundation
import MapDrawing
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle
import MapTestSupport
import Testing

/// Goldens of Google styling rules over the bundled style (issue 32): three styles of Waymark's making (night, retro,
/// greyscale: `Tests/Fixtures/map-styles/`) and the dark default (`Data/styles/default-dark.json`), each at street
/// level in Helsinki and at zoom 3 over Europe.
@Suite(.serialized) struct GoogleStyleGoldenTests {
    static let styles = Fixtures.repositoryRoot.appendingPathComponent("Data/styles")
    static let cameras: [(String, CameraState)] = [
        (
            "helsinki-z16",
            CameraState(
                center: LatLng(latitude: 60.1680, longitude: 24.9470), zoom: 16,
                size: ScreenSize(width: 640, height: 400))
        ),
        (
            "europe-z3",
            CameraState(
                center: LatLng(latitude: 50, longitude: 15), zoom: 3, size: ScreenSize(width: 640, height: 400))
        ),
    ]

    static func host(_ style: Style) throws -> MapHost {
        Fixtures.pinFonts()
        return try MapHost(style: style)
    }

    static func expectGolden(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        GoldenImage.expect(
            width: image.width, height: image.height, pixels: image.pixels,
            matches: Fixtures.golden(name, testTarget: "RenderTests"),
            channelTolerance: 10, maxDifferingFraction: 0.002, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["night", "retro", "greyscale"]) func googleStyle(_ name: String) throws {
        let base = try Style.load(contentsOfFile: Self.styles.appendingPathComponent("default.json").path)
        let bytes = try Data(contentsOf: Fixtures.local.appendingPathComponent("map-styles/\(name).json"))
        let rules = try GoogleMapStyle(jsonBytes: [UInt8](bytes))
        let host = try Self.host(rules.apply(to: base))
        for (place, camera) in Self.cameras {
            Self.expectGolden(try host.render(camera: camera), "google-\(name)-\(place)")
        }
    }

    @Test func darkDefault() throws {
        let style = try Style.load(contentsOfFile: Self.styles.appendingPathComponent("default-dark.json").path)
        #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
        let host = try Self.host(style)
        for (place, camera) in Self.cameras {
            Self.expectGolden(try host.render(camera: camera), "dark-default-\(place)")
        }
    }
}

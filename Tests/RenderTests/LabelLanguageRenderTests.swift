import Foundation
import MapGeometry
import MapHosting
import MapStyle
import MapTestSupport
import Testing

/// The bundled default style localised (`Style.localizingLabels(to:)`, the static maps server's `language`), drawn over
/// the bundled data: the label texts the renderer placed (its placed-symbol list, not pixels).
@Suite(.serialized) struct LabelLanguageRenderTests {
    static let data = Fixtures.repositoryRoot.appendingPathComponent("Data")

    static func placedTexts(language: String?, center: LatLng, zoom: Double) throws -> [String] {
        Fixtures.pinFonts()
        var style = try Style.load(contentsOfFile: data.appendingPathComponent("styles/default.json").path)
        if let language { style = style.localizingLabels(to: try #require(LabelLanguage(language))) }
        let host = try MapHost(style: style)
        let camera = CameraState(center: center, zoom: zoom, size: ScreenSize(width: 800, height: 600))
        _ = host.renderer.displayList(camera: camera)
        return host.renderer.lastPlacedSymbols.map(\.text)
    }

    /// Central Helsinki at street level: the city data's `name:sv` (OpenStreetMap) names the streets in Swedish.
    @Test func swedishStreetNamesInHelsinki() throws {
        let center = LatLng(latitude: 60.1685, longitude: 24.9440)
        let finnish = try Self.placedTexts(language: nil, center: center, zoom: 16)
        let swedish = try Self.placedTexts(language: "sv", center: center, zoom: 16)
        #expect(finnish.contains("Aleksanterinkatu") && !finnish.contains("Alexandersgatan"), "\(finnish)")
        #expect(swedish.contains("Alexandersgatan") && !swedish.contains("Aleksanterinkatu"), "\(swedish)")
        // A language the data has no names in draws the data's names.
        let korean = try Self.placedTexts(language: "ko", center: center, zoom: 16)
        #expect(korean.contains("Aleksanterinkatu"), "\(korean)")
    }

    /// The world's country labels carry Natural Earth's names in 25 languages (`name:de`, …): Finland at Google's
    /// zoom 4 is FINNLAND in German, FINLANDIA in Spanish (the style upper-cases country names).
    @Test func countryNamesInTheWorldData() throws {
        let center = LatLng(latitude: 63, longitude: 26)
        #expect(try Self.placedTexts(language: nil, center: center, zoom: 4).contains("FINLAND"))
        let german = try Self.placedTexts(language: "de", center: center, zoom: 4)
        #expect(german.contains("FINNLAND") && german.contains("SCHWEDEN") && !german.contains("FINLAND"), "\(german)")
        #expect(try Self.placedTexts(language: "es", center: center, zoom: 4).contains("FINLANDIA"))
    }
}

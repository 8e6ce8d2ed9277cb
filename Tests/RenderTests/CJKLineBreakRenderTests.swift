import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapStyle
import MapTestSupport
import Testing

/// The bundled default style in Japanese over the bundled data: the country labels have no glyphs in the bundled
/// glyph PBFs (no kana), so Pango draws them; their lines are MapLibre's (balanced), not Pango's greedy wrapping.
@Suite(.serialized) struct CJKLineBreakRenderTests {
    /// The lines Pango draws for each country label of Northern Europe at Google's zoom 4, by the label's text.
    static func drawnLines(language: String) throws -> [String: [String]] {
        Fixtures.pinFonts()
        let data = Fixtures.repositoryRoot.appendingPathComponent("Data")
        var style = try Style.load(contentsOfFile: data.appendingPathComponent("styles/default.json").path)
        style = style.localizingLabels(to: try #require(LabelLanguage(language)))
        let host = try MapHost(style: style)
        let camera = CameraState(
            center: LatLng(latitude: 63, longitude: 26), zoom: 4, size: ScreenSize(width: 800, height: 600))
        let shaper = PangoTextShaper()
        var result: [String: [String]] = [:]
        for case .text(let t) in host.renderer.displayList(camera: camera).commands {
            let bytes = Array(t.text.utf8)
            let lines = shaper.measure(t.text, style: t.style).lines.map {
                String(decoding: bytes[$0.utf8Range.clamped(to: 0..<bytes.count)], as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            result[lines.joined()] = lines
        }
        return result
    }

    @Test func japaneseCountryNamesBreakIntoEvenLines() throws {
        let lines = try Self.drawnLines(language: "ja")
        // 6 kana with the style's 0.08 em letter spacing are 6.48 ems, over its 6-em `text-max-width`: MapLibre's two
        // lines of 3 (Pango's own wrapping gave フィンラン / ド).
        #expect(lines["フィンランド"] == ["フィン", "ランド"], "\(lines)")
        // MapLibre has no rule against a line starting with ー: the even split.
        #expect(lines["スウェーデン"] == ["スウェ", "ーデン"], "\(lines)")
        // 3 kana fit: one line.
        #expect(lines["ロシア"] == ["ロシア"], "\(lines)")
    }
}

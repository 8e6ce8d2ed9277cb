import Foundation
import MapData
import MapDrawing
import Testing

@testable import MapPipeline

/// Lines of text off the glyph path (no glyph PBF covers it: CJK with the bundled fonts) chosen by MapLibre's rule,
/// the glyph path's: balanced lines near `total / ceil(total / max width)`, breaks between CJK characters and at
/// spaces. The fallback here advances every character by one em, as CJK fonts do.
@Suite struct FallbackLineBreakTests {
    private static func store() -> GlyphStore {
        GlyphStore { fontstack, start in
            guard fontstack == "Test Sans", start == 0 else { return nil }
            let a = SDFGlyph(id: 0x61, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: 12)
            return testGlyphPBF(fontstack: "Test Sans", glyphs: [a])
        }
    }

    private let measurer: GlyphTextMeasurer = {
        let m = GlyphTextMeasurer(fallback: FixedAdvanceTextMeasurer(advance: 1))
        m.store = FallbackLineBreakTests.store()
        return m
    }()

    /// The label's lines (the measured lines' ranges read in the original text) at `maxWidth` ems, `spacing` ems
    /// of letter spacing, and the text the backend is given to draw.
    private func lines(_ text: String, maxWidth: Double?, spacing: Double = 0, size: Double = 16) -> [String] {
        let style = TextStyle(
            size: size, letterSpacing: spacing * size, maxWidth: maxWidth.map { $0 * size }, glyphFontstack: "Test Sans"
        )
        let bytes = Array(text.utf8)
        let fromMetrics = measurer.measure(text, style: style).lines.map {
            String(decoding: bytes[$0.utf8Range], as: UTF8.self)
        }
        // What is drawn: the same lines, and no wrap width left for the backend's own wrapping.
        let drawn = measurer.fallbackBreaking(text, style: style)
        if maxWidth != nil {
            #expect(drawn?.style.maxWidth == nil)
            #expect(
                drawn?.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    == fromMetrics.map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return fromMetrics.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func japaneseUnderTheWidthStaysOnOneLine() {
        #expect(lines("フィンランド", maxWidth: 10) == ["フィンランド"])
        #expect(lines("フィンランド", maxWidth: 6) == ["フィンランド"])
        #expect(lines("フィンランド", maxWidth: nil) == ["フィンランド"])
    }

    @Test func japaneseOverTheWidthBreaksIntoEvenLinesNotFivePlusOne() {
        // 6 ems at 5 ems: two lines of 3, never 5 + 1 (the backend's greedy wrapping).
        #expect(lines("フィンランド", maxWidth: 5) == ["フィン", "ランド"])
        // The default style's country labels: 6 ems wide with 0.08 em letter spacing is 6.48 ems, over 6.
        #expect(lines("フィンランド", maxWidth: 6, spacing: 0.08) == ["フィン", "ランド"])
        #expect(lines("フィンランド", maxWidth: 2) == ["フィ", "ンラ", "ンド"])
        // 7 ems at 6: 4 + 3 (a short last line is preferred to a long one).
        #expect(lines("グリーンランド", maxWidth: 6) == ["グリーン", "ランド"])
        // The size does not change where the lines break.
        #expect(lines("フィンランド", maxWidth: 5, size: 11) == ["フィン", "ランド"])
    }

    @Test func chineseBreaksBetweenAnyTwoIdeographs() {
        #expect(lines("中华人民共和国", maxWidth: 10) == ["中华人民共和国"])
        #expect(lines("中华人民共和国", maxWidth: 5) == ["中华人民", "共和国"])
        #expect(lines("中华人民共和国", maxWidth: 3) == ["中华人", "民共", "和国"])
        #expect(lines("中華民國", maxWidth: 3) == ["中華", "民國"])
    }

    @Test func mixedLatinAndCJKBreaksAtTheSpaceOrBetweenCJKButNotInsideAWord() {
        // "Helsinki" has no break inside: the space is the best break.
        #expect(lines("Helsinki ヘルシンキ", maxWidth: 10) == ["Helsinki", "ヘルシンキ"])
        #expect(lines("Helsinki ヘルシンキ", maxWidth: 20) == ["Helsinki ヘルシンキ"])
        // Narrower: the kana break too (3 + 2 about the target of 3.5 ems), the Latin word stays whole.
        #expect(lines("Helsinki ヘルシンキ", maxWidth: 4) == ["Helsinki", "ヘルシ", "ンキ"])
        #expect(lines("東京都 Tokyo", maxWidth: 5) == ["東京都", "Tokyo"])
        // A forced newline breaks whatever the width.
        #expect(lines("東京\nTokyo", maxWidth: 10) == ["東京", "Tokyo"])
    }

    @Test func latinTextOffTheGlyphPathBreaksBalancedLikeTheGlyphPath() {
        // "aaaa bb cc dddd" has no glyph for b, c, d here: the fallback's lines, balanced as the glyph path's test.
        #expect(lines("aaaa bb cc dddd", maxWidth: 10) == ["aaaa bb", "cc dddd"])
    }

    @Test func textOnTheGlyphPathOrWithoutGlyphsIsLeftAlone() {
        let style = TextStyle(size: 16, maxWidth: 32, glyphFontstack: "Test Sans")
        #expect(measurer.fallbackBreaking("aaaaa", style: style) == nil)
        var plain = style
        plain.glyphFontstack = nil
        #expect(measurer.fallbackBreaking("フィンランド", style: plain) == nil)
        // Right-to-left text keeps the backend's wrapping (its fonts' widths are far from MapLibre's glyphs').
        #expect(measurer.fallbackBreaking("\u{0645}\u{0643}\u{062A}\u{0628}\u{0629} abc", style: style) == nil)
    }

    @Test func mapLibresIdeographicBlocks() {
        for c in [0x30D5, 0x30FC, 0x30C3, 0x3041, 0x4E2D, 0x3002, 0xFF08, 0x2027, 0xA000, 0xFE10, 0x3105] {
            #expect(GlyphShaping.allowsIdeographicBreaking(c), "\(String(c, radix: 16))")
        }
        // Hangul syllables and compatibility jamo, kanbun, the Yijing symbols, Latin: no break between them.
        for c in [0xD55C, 0x3131, 0x3190, 0x4DC0, 0x41, 0x2FE0] {
            #expect(!GlyphShaping.allowsIdeographicBreaking(c), "\(String(c, radix: 16))")
        }
    }
}

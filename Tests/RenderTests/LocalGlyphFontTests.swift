import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapHosting
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// Whether Pango finds Noto Sans and its italic face is installed (Debian's fonts-noto-core, as `make demo`
/// installs it).
private let hasNotoSansItalic: Bool = {
    let style = TextStyle(fontFamilies: ["Noto Sans"], size: 24)
    return PangoTextShaper().resolvedFamily(of: "e", style: style) == "Noto Sans"
        && FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoSans-Italic.ttf")
}()

/// Glyphs the bundled ranges lack, made from Pango's fonts (LocalGlyphs.swift), beside the glyphs
/// `scripts/data/build-glyphs.py` made from the same font: the bundled "Noto Sans Italic" ranges hold only the
/// characters of the bundled labels, so an "è" of a user's data comes from the system's Noto Sans Italic.
@Suite(.enabled(if: hasNotoSansItalic, "Debian's fonts-noto-core (Noto Sans Italic) is not installed"))
struct LocalGlyphFontTests {
    static let stack = "Noto Sans Italic"

    private func store() throws -> GlyphStore {
        let style = try Style.load(contentsOfFile: Fixtures.data.appendingPathComponent("styles/protomaps.json").path)
        return try #require(MapHost.frameGlyphStore(for: style))
    }

    @Test func aGlyphMadeFromPangoMatchesTheBundledGlyphOfTheSameFont() throws {
        let bundled = try #require(try store().range(fontstack: Self.stack, containing: 0x65).glyphs[0x65])
        let local = try #require(LocalGlyphs(source: PangoTextShaper()).glyph(0x65, fontstack: Self.stack))
        // The same box to a pixel on each side (Pango's ink box is rounded out, the build script rounds the
        // outline's bounds) and the same advance.
        #expect(abs(local.width - bundled.width) <= 2, "\(local.width) \(bundled.width)")
        #expect(abs(local.height - bundled.height) <= 2, "\(local.height) \(bundled.height)")
        #expect(abs(local.left - bundled.left) <= 1, "\(local.left) \(bundled.left)")
        #expect(abs(local.top - bundled.top) <= 1, "\(local.top) \(bundled.top)")
        #expect(abs(local.advance - bundled.advance) <= 1, "\(local.advance) \(bundled.advance)")
        // The same shape: the pixels inside the outline (field ≥ 192), placed by each glyph's left and top, agree
        // but for a few at the edge.
        func inside(_ g: SDFGlyph) -> Set<[Int]> {
            var set: Set<[Int]> = []
            let cols = g.width + 6
            for (i, v) in g.bitmap.enumerated() where v >= 192 {
                set.insert([g.left + i % cols, -g.top + i / cols])
            }
            return set
        }
        let (a, b) = (inside(local), inside(bundled))
        let differing = a.symmetricDifference(b).count
        #expect(b.count > 60)
        #expect(Double(differing) / Double(a.union(b).count) < 0.08, "\(differing) of \(a.union(b).count)")
    }

    @Test func aLabelWithACharacterTheRangesLackStaysOneGlyphLabel() throws {
        let measurer = GlyphTextMeasurer(fallback: PangoTextShaper())
        measurer.store = try store()
        #expect(measurer.store?.range(fontstack: Self.stack, containing: 0xE8).glyphs[0xE8] == nil)
        var style = TextStyle(fontFamilies: ["Noto Sans"], size: 12)
        style.glyphFontstack = Self.stack
        let shaping = try #require(measurer.shaping("Piscine Prince Charlène", style: style))
        let glyphs = shaping.glyphs.map(\.glyph)
        let e = try #require(glyphs.first { $0.id == 0x65 })
        let grave = try #require(glyphs.first { $0.id == 0xE8 })
        #expect(glyphs.count == 23)
        // è is an e with an accent above: the same advance and bottom, a taller bitmap.
        #expect(abs(grave.advance - e.advance) <= 1)
        #expect(abs((grave.top - grave.height) - (e.top - e.height)) <= 1)
        #expect(grave.height >= e.height + 4)
    }

    @Test func anItalicStackIsSlantedInPangosLabelsToo() throws {
        // Text drawn by Pango whole (a style without glyphs, or text no range has) keeps the stack's slant.
        var upright = TextStyle(fontFamilies: ["Noto Sans"], size: 24)
        var italic = upright
        italic.italic = true
        let shaper = PangoTextShaper()
        // An "I" is one vertical stroke upright; slanted, its ink box is wider by the lean over its height.
        let uprightInk = shaper.measure("I", style: upright).inkBounds.size.width
        let italicInk = shaper.measure("I", style: italic).inkBounds.size.width
        #expect(italicInk > uprightInk * 1.5, "\(uprightInk) \(italicInk)")
        upright.italic = false
        #expect(upright != italic)
    }
}

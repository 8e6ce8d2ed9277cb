import MapData
import MapDrawing
import MapTestSupport
import Testing

@testable import MapPipeline

/// A coverage source drawing every character as a `size × size` square of full coverage, or nothing for those in
/// `missing`; it counts its calls.
private final class SquareGlyphs: TextMeasurer, GlyphCoverageSource {
    let size: Int
    let missing: Set<Unicode.Scalar>
    var calls = 0
    /// What the last call asked for.
    var asked: (families: [String], italic: Bool)?

    init(size: Int = 10, missing: Set<Unicode.Scalar> = []) {
        self.size = size
        self.missing = missing
    }

    func measure(_ text: String, style: TextStyle) -> TextMetrics {
        FixedAdvanceTextMeasurer().measure(text, style: style)
    }

    func glyphCoverage(
        of scalar: Unicode.Scalar, fontFamilies: [String], weight: TextStyle.Weight, italic: Bool, pixelSize: Double
    ) -> GlyphCoverage? {
        calls += 1
        asked = (fontFamilies, italic)
        guard !missing.contains(scalar) else { return nil }
        return GlyphCoverage(
            width: size, height: size, coverage: [UInt8](repeating: 255, count: size * size), left: 1, top: size,
            advance: Double(size) + 2.4, ascent: 25.6)
    }
}

/// A range PBF holding `glyphs` of the fontstack `name`.
private func pbf(_ name: String, _ glyphs: [SDFGlyph]) -> [UInt8] {
    GlyphPBFWriter.range(name: name, range: "0-255", glyphs: glyphs)
}

/// A glyph 8 × 12 pixels advancing 10.
private func rangeGlyph(_ c: Character) -> SDFGlyph {
    SDFGlyph(
        id: Int(c.unicodeScalars.first!.value), bitmap: [UInt8](repeating: 200, count: 14 * 18), width: 8,
        height: 12, left: 1, top: -5, advance: 10)
}

@Suite struct LocalGlyphFieldTests {
    /// The least of `grid[q] + |p − q|²` over every cell, by brute force.
    private func bruteForce(_ grid: [Double], width: Int, height: Int) -> [Double] {
        var out = grid
        for p in grid.indices {
            var best = Double.infinity
            for q in grid.indices {
                let dx = Double(p % width - q % width)
                let dy = Double(p / width - q / width)
                best = min(best, grid[q] + dx * dx + dy * dy)
            }
            out[p] = best
        }
        return out
    }

    @Test func theDistanceTransformIsTheBruteForceMinimum() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for (width, height) in [(1, 1), (1, 7), (9, 1), (7, 5), (12, 9)] {
            for _ in 0..<20 {
                // Zeros, huge values and fractions squared, as the glyph fields start.
                let grid = (0..<(width * height)).map { _ -> Double in
                    switch next() % 4 {
                    case 0: 0
                    case 1: Double(next() % 100) / 400
                    default: 1e20
                    }
                }
                var fast = grid
                LocalGlyphs.distanceTransform(&fast, width: width, height: height)
                let slow = bruteForce(grid, width: width, height: height)
                #expect(fast == slow, "\(width)×\(height)")
            }
        }
    }

    @Test func aSquaresFieldHasItsOutlineAtTheCoverageEdgeAndThePBFMetrics() {
        let square = GlyphCoverage(
            width: 10, height: 10, coverage: [UInt8](repeating: 255, count: 100), left: 2, top: 14, advance: 12.6,
            ascent: 25.2)
        let g = LocalGlyphs.glyph(0x41, from: square)
        #expect(g.id == 0x41)
        #expect(g.width == 10 && g.height == 10)
        #expect(g.bitmap.count == 16 * 16)
        #expect(g.left == 2)
        #expect(g.top == 14 - 26)  // less the ascent rounded up, as the PBFs give `top`
        #expect(g.advance == 13)
        func at(_ x: Int, _ y: Int) -> Int { Int(g.bitmap[y * 16 + x]) }
        // Across the left edge, in the middle row: the last ink pixel inside the outline (above 192), the first
        // border pixel outside, the outline (192) halfway between their centres, at the coverage's edge.
        let (inside, outside) = (at(3, 8), at(2, 8))
        #expect(inside > 192 && outside < 192)
        #expect(abs((inside + outside) / 2 - 192) <= 1)
        // Deep inside: clamped to 255; farther out: lower.
        #expect(at(8, 8) == 255)
        #expect(at(0, 8) < at(1, 8) && at(1, 8) < at(2, 8))
        // Symmetric.
        for y in 0..<16 {
            for x in 0..<16 {
                #expect(at(x, y) == at(15 - x, y) && at(x, y) == at(x, 15 - y) && at(x, y) == at(y, x))
            }
        }
    }

    @Test func halfCoverageIsOnTheOutline() {
        // One pixel half covered, alone: its own centre lies on the outline.
        let g = LocalGlyphs.glyph(
            0x2E, from: GlyphCoverage(width: 1, height: 1, coverage: [128], left: 0, top: 1, advance: 3, ascent: 0))
        #expect(abs(Int(g.bitmap[3 * 7 + 3]) - 192) <= 1)
    }

    @Test func aCharacterWithoutInkHasNoBitmapButItsAdvance() {
        let g = LocalGlyphs.glyph(
            0x20, from: GlyphCoverage(width: 0, height: 0, coverage: [], left: 0, top: 0, advance: 6.2, ascent: 25))
        #expect(g.bitmap.isEmpty && g.width == 0 && g.height == 0)
        #expect(g.advance == 6)
        // A coverage of the wrong size is an empty bitmap.
        let bad = GlyphCoverage(width: 4, height: 4, coverage: [1, 2, 3], left: 0, top: 0, advance: 5, ascent: 25)
        #expect(bad.width == 0 && bad.coverage.isEmpty && bad.advance == 5)
    }
}

@Suite struct LocalGlyphLabelTests {
    private let stack = "Test Sans Italic"

    private func measurer(_ fallback: any TextMeasurer) -> GlyphTextMeasurer {
        let measurer = GlyphTextMeasurer(fallback: fallback)
        let stack = stack
        measurer.store = GlyphStore { name, start in
            guard name == stack, start == 0 else { return nil }
            let space = SDFGlyph(id: 0x20, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: 6)
            return pbf(name, "abcde".map(rangeGlyph) + [space])
        }
        return measurer
    }

    private func style() -> TextStyle {
        var s = TextStyle(size: 24)
        s.glyphFontstack = stack
        return s
    }

    @Test func aCharacterTheRangesLackComesFromTheBackendsFontsInTheSameLabel() throws {
        let squares = SquareGlyphs()
        let m = measurer(squares)
        let shaping = try #require(m.shaping("abé d", style: style()))
        // a, b from the range; é (U+00E9, not in it) made from the square, its field 16 × 16 pixels.
        let glyphs = shaping.glyphs.map(\.glyph)
        #expect(glyphs.map(\.id) == [0x61, 0x62, 0xE9, 0x20, 0x64])
        let local = glyphs[2]
        #expect(local.width == 10 && local.height == 10 && local.bitmap.count == 256)
        #expect(local.advance == 12)
        #expect(local.top == 10 - 26)
        #expect(shaping.glyphs.map(\.x) == [0, 10, 20, 32, 38])  // a, b 10 each, é 12, a space of 6
        // Made once, kept for the next label.
        _ = m.shaping("é", style: style())
        _ = m.shaping("eé", style: style())
        #expect(squares.calls == 1)
        #expect(m.localGlyphs?.count == 1)
        // The italic stack asks for the slanted face of its family.
        #expect(squares.asked?.families == ["Test Sans", "sans-serif"])
        #expect(squares.asked?.italic == true)
        #expect(m.measure("abé", style: style()).width == 32)
    }

    /// A measurer whose fallback cannot draw a character alone.
    private func plain() -> GlyphTextMeasurer { measurer(FixedAdvanceTextMeasurer()) }

    /// Whether `text` is on the glyph path (a plain value for the expectations).
    private func shaped(_ m: GlyphTextMeasurer, _ text: String) -> Bool { m.shaping(text, style: style()) != nil }

    @Test func textWithNoGlyphInTheRangesOrOneNoFontHasStaysWithTheBackend() {
        let m = measurer(SquareGlyphs(missing: ["\u{2603}"]))
        // Nothing from the ranges: the backend lays the whole text out.
        #expect(!shaped(m, "éé"))
        // Whitespace alone stays on the glyph path (a line's pieces are measured so), as before local glyphs.
        #expect(shaped(m, " "))
        #expect(shaped(plain(), "  "))
        // A character no font has: the whole label too.
        #expect(!shaped(m, "a\u{2603}"))
        // A measurer that cannot draw a character alone: as before, the whole label.
        let plain = plain()
        #expect((plain.localGlyphs == nil) == true)
        #expect(!shaped(plain, "abé"))
        #expect(shaped(plain, "abe"))
    }
}

@Suite struct FontStackFamiliesTests {
    @Test func theFirstNameGivesTheWeightAndSlant() {
        let italic = fontFamilies(["Noto Sans Italic"])
        #expect(italic.families == ["Noto Sans", "sans-serif"])
        #expect(italic.weight == .regular && italic.italic)
        let bold = fontFamilies(["Open Sans Bold Italic", "Arial Unicode MS Regular"])
        #expect(bold.families == ["Open Sans", "Arial Unicode MS", "sans-serif"])
        #expect(bold.weight == .bold && bold.italic)
        let upright = fontFamilies(["Open Sans Semibold", "Arial Unicode MS Italic"])
        #expect(upright.weight == .bold && !upright.italic)
        #expect(fontFamilies(["Metropolis Oblique"]).italic)
    }
}

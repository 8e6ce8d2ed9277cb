import MapData
import MapDrawing
import Testing

@testable import MapPipeline

/// A glyph `width` × 12 pixels whose SDF is `value` everywhere, advancing `advance`.
private func glyph(_ c: Character, advance: Int = 10, width: Int = 8, value: UInt8 = 255) -> SDFGlyph {
    SDFGlyph(
        id: Int(c.unicodeScalars.first!.value), bitmap: [UInt8](repeating: value, count: (width + 6) * 18),
        width: width, height: 12, left: 1, top: -5, advance: advance)
}

private func shape(
    _ text: String, maxWidth: Double? = nil, lineHeight: Double = 24, spacing: Double = 0, justify: Double = 0.5
) -> GlyphShaping {
    GlyphShaping(text, maxWidth: maxWidth, lineHeight: lineHeight, letterSpacing: spacing, justify: justify) { c in
        c == 0x20
            ? SDFGlyph(id: 0x20, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: 6)
            : glyph(Character(Unicode.Scalar(c)!))
    }
}

@Suite struct GlyphShapingTests {
    @Test func advancesAndLetterSpacingMakeTheLineWidth() {
        let s = shape("abc", spacing: 2)
        #expect(s.glyphs.map(\.x) == [0, 12, 24])
        #expect(s.width == 34)  // 3 × 10 + 2 × 2: no spacing after the last glyph
        #expect(s.height == 24)
        #expect(s.lines.count == 1)
        #expect(s.lines[0].baseline == 24 / 2 - 17)
    }

    @Test func aMissingGlyphTakesNoSpace() {
        let s = GlyphShaping("a?b", maxWidth: nil, lineHeight: 24, letterSpacing: 0, justify: 0.5) { c in
            c == 0x3F ? nil : glyph(Character(Unicode.Scalar(c)!))
        }
        #expect(s.glyphs.map(\.x) == [0, 10])
        #expect(s.width == 20)
    }

    @Test func linesBreakNearTheAverageWidthNotGreedily() {
        // "aaaa bb cc dddd": 4+2+2+4 letters at 10 + 3 spaces at 6 = 138; with 100 two lines of about 69.
        // Greedy filling up to 100 would give "aaaa bb cc" / "dddd"; balanced gives "aaaa bb" / "cc dddd".
        let s = shape("aaaa bb cc dddd", maxWidth: 100)
        #expect(s.lines.count == 2)
        #expect(s.lines.map(\.width) == [66, 66])
        #expect(s.lines.map(\.utf8Range) == [0..<7, 8..<15])
    }

    @Test func aNewlineBreaksWithoutAWrapWidthAndLinesAreJustified() {
        let s = shape("aaa\na", lineHeight: 30, justify: 1)
        #expect(s.lines.count == 2)
        #expect(s.height == 60)
        #expect(s.lines.map(\.baseline) == [15 - 17, 45 - 17])
        #expect(s.width == 30)
        // Right justified: the short line ends where the long one does.
        #expect(s.glyphs.last?.x == 20)
        let left = shape("aaa\na", lineHeight: 30, justify: 0)
        #expect(left.glyphs.last?.x == 0)
        let centre = shape("aaa\na", lineHeight: 30, justify: 0.5)
        #expect(centre.glyphs.last?.x == 10)
    }

    @Test func surroundingSpacesAreTrimmed() {
        let s = shape("  ab  ")
        #expect(s.width == 20)
        #expect(s.glyphs.map(\.x) == [0, 10])
    }
}

@Suite struct SDFTextTests {
    @Test func theFillEdgeIsAtThreeQuartersAndSharpensWithSize() {
        #expect(abs(SDFText.fillAlpha(distance: 0.75, fontScale: 1, pixelRatio: 1) - 0.5) < 1e-12)
        #expect(SDFText.fillAlpha(distance: 0.75 + 0.106, fontScale: 1, pixelRatio: 1) == 1)
        #expect(SDFText.fillAlpha(distance: 0.75 - 0.106, fontScale: 1, pixelRatio: 1) == 0)
        // At twice the size (or pixel ratio) the same distance past the edge is more opaque.
        let small = SDFText.fillAlpha(distance: 0.78, fontScale: 1, pixelRatio: 1)
        let large = SDFText.fillAlpha(distance: 0.78, fontScale: 2, pixelRatio: 1)
        let dense = SDFText.fillAlpha(distance: 0.78, fontScale: 1, pixelRatio: 2)
        #expect(small > 0.5 && small < large && large == dense)
    }

    @Test func theHaloIsARingOutsideTheGlyph() {
        // 2 px of halo at a 24 px size: outer edge (6 − 2) / 8 = 0.5.
        func halo(_ d: Double) -> Double {
            SDFText.haloAlpha(distance: d, fontScale: 1, pixelRatio: 1, haloWidth: 2, haloBlur: 0)
        }
        #expect(halo(0.3) == 0)
        #expect(halo(0.65) == 1)
        #expect(halo(1.0) == 0)
        #expect(abs(halo(0.5) - 0.5) < 1e-12)
        // Blur widens the edge.
        let blurred = SDFText.haloAlpha(distance: 0.45, fontScale: 1, pixelRatio: 1, haloWidth: 2, haloBlur: 2)
        #expect(halo(0.45) < blurred)
    }

    @Test func aQuadDrawsItsColourWhereTheFieldIsInside() throws {
        let g = glyph("a", width: 4)
        let quad = SDFText.Quad(
            glyph: g, transform: SDFText.quadTransform(glyph: g, pen: (10, 20), local: .identity))
        let style = TextStyle(color: RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))
        let drawn = try #require(SDFText.render([quad], style: style, fontScale: 1, pixelRatio: 1))
        // The quad starts at pen + left − 4 = 7 and pen − top − 4 = 21; it is 4 + 8 wide and 12 + 8 tall.
        #expect(drawn.x == 7 && drawn.y == 21)
        #expect(drawn.image.width == 12 && drawn.image.height == 20)
        // Inside the bitmap: opaque red (BGRA premultiplied); the padding ring stays clear.
        let mid = (10 * 12 + 6) * 4
        #expect(Array(drawn.image.pixels[mid..<(mid + 4)]) == [0, 0, 255, 255])
        #expect(Array(drawn.image.pixels[0..<4]) == [0, 0, 0, 0])
    }

    @Test func anIconFieldIsThresholdedWithItsHalo() throws {
        // A 4 × 4 field: inside (255) in the middle 2 × 2, outside (0) around; drawn 1:1 at (10, 10).
        var field = [UInt8](repeating: 0, count: 16)
        for i in [5, 6, 9, 10] { field[i] = 255 }
        let quad = SDFText.Quad(field: field, width: 4, height: 4, transform: .translation(x: 10, y: 10))
        let style = TextStyle(
            color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1),
            haloColor: RGBAColor(red: 0, green: 1, blue: 0, alpha: 1), haloWidth: 3)
        let drawn = try #require(SDFText.render([quad], style: style, fontScale: 1, pixelRatio: 1))
        #expect(drawn.x == 10 && drawn.y == 10 && drawn.image.width == 4)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            Array(drawn.image.pixels[((y * 4 + x) * 4)..<((y * 4 + x) * 4 + 4)])
        }
        // The middle texels are fill-blue; a field too short for its size draws nothing.
        #expect(pixel(1, 1) == [255, 0, 0, 255])
        #expect(
            SDFText.render(
                [SDFText.Quad(field: [0], width: 4, height: 4, transform: .identity)], style: style, fontScale: 1,
                pixelRatio: 1) == nil)
        // Between the middle and the corner the field is low: halo (green) or clear, never blue.
        #expect(pixel(0, 0)[0] == 0)
    }

    @Test func aHugeLabelIsNotDrawn() {
        let g = glyph("a")
        let quad = SDFText.Quad(glyph: g, transform: .scale(x: 1000, y: 1000))
        #expect(SDFText.render([quad], style: TextStyle(), fontScale: 1, pixelRatio: 1) == nil)
    }
}

@Suite struct GlyphTextMeasurerTests {
    private func store() -> GlyphStore {
        GlyphStore { fontstack, start in
            guard fontstack == "Test Sans", start == 0 else { return nil }
            return testGlyphPBF(fontstack: "Test Sans", glyphs: [glyph("a"), glyph("b")])
        }
    }

    @Test func coveredTextIsMeasuredFromTheGlyphsAndTheRestFallsBack() {
        let m = GlyphTextMeasurer(fallback: FixedAdvanceTextMeasurer(advance: 0.5))
        m.store = store()
        let style = TextStyle(size: 12, lineHeight: 1.2, glyphFontstack: "Test Sans")
        // 2 glyphs × 10 em pixels at 12 / 24.
        #expect(m.measure("ab", style: style).width == 10)
        #expect(m.measure("ab", style: style).height == 1.2 * 12)
        // "c" has no glyph: the fallback's 3 × 0.5 × 12.
        #expect(m.measure("abc", style: style).width == 18)
        // Another fontstack, no fontstack, no store: the fallback.
        var other = style
        other.glyphFontstack = "Other"
        #expect(m.measure("ab", style: other).width == 12)
        other.glyphFontstack = nil
        #expect(m.measure("ab", style: other).width == 12)
        m.store = nil
        #expect(m.measure("ab", style: style).width == 12)
        // Right-to-left text stays with the fallback.
        m.store = store()
        #expect(m.shaping("ab\u{05D0}", style: style) == nil)
    }
}

/// A glyph PBF (glyphs.proto) holding `glyphs` in one fontstack.
func testGlyphPBF(fontstack: String, glyphs: [SDFGlyph]) -> [UInt8] {
    func varint(_ v: UInt64) -> [UInt8] {
        var v = v
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(v & 0x7F)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            out.append(byte)
        } while v != 0
        return out
    }
    func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] {
        varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes
    }
    func number(_ number: Int, _ value: Int) -> [UInt8] { varint(UInt64(number << 3)) + varint(UInt64(value)) }
    func signed(_ number: Int, _ value: Int) -> [UInt8] {
        varint(UInt64(number << 3)) + varint(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63))))
    }
    var stack = field(1, Array(fontstack.utf8)) + field(2, Array("0-255".utf8))
    for g in glyphs {
        var message = number(1, g.id)
        if !g.bitmap.isEmpty { message += field(2, g.bitmap) }
        message +=
            number(3, g.width) + number(4, g.height) + signed(5, g.left) + signed(6, g.top) + number(7, g.advance)
        stack += field(3, message)
    }
    return field(1, stack)
}

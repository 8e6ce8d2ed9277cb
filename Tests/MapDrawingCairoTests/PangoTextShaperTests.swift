import MapDrawing
import MapDrawingCairo
import Testing

@Suite(.serialized) struct PangoTextShaperTests {
    @Test func wrapsAtTheMaximumWidth() {
        let shaper = makeBackend().shaper
        let text = "Helsinki Espoo Vantaa Kauniainen"
        let style = TextStyle(size: 12, maxWidth: 70)
        let m = shaper.measure(text, style: style)
        #expect(m.lines.count >= 3)
        for line in m.lines { #expect(line.width <= 70.5) }
        let bytes = Array(text.utf8)
        let joined = m.lines.map { String(decoding: bytes[$0.utf8Range], as: UTF8.self) }.joined()
        #expect(joined.replacingOccurrences(of: " ", with: "") == text.replacingOccurrences(of: " ", with: ""))
        let oneLine = shaper.measure(text, style: TextStyle(size: 12))
        #expect(oneLine.lines.count == 1 && oneLine.width > 70)
    }

    @Test func lineHeightSetsTheDistanceBetweenBaselines() {
        let shaper = makeBackend().shaper
        let m = shaper.measure("A\nB\nC", style: TextStyle(size: 10, lineHeight: 2))
        #expect(m.lines.count == 3)
        #expect(abs((m.lines[1].baseline - m.lines[0].baseline) - 20) < 0.5)
        #expect(abs(m.height - 60) < 1)
    }

    @Test func letterSpacingGoesBetweenCharacters() {
        let shaper = makeBackend().shaper
        let plain = shaper.measure("AAAA", style: TextStyle(size: 16))
        let spaced = shaper.measure("AAAA", style: TextStyle(size: 16, letterSpacing: 2))
        // Four characters, three gaps of 2 pt.
        #expect(abs((spaced.width - plain.width) - 6) <= 0.5)
    }

    @Test func metricsScaleLinearlyWithFontSizeAndWeightWidens() {
        let shaper = makeBackend().shaper
        let small = shaper.measure("Mannerheimintie", style: TextStyle(size: 10))
        let large = shaper.measure("Mannerheimintie", style: TextStyle(size: 30))
        #expect(abs(large.width / small.width - 3) < 0.02)
        let bold = shaper.measure("Mannerheimintie", style: TextStyle(size: 10, weight: .bold))
        #expect(bold.width > small.width)
    }

    @Test(arguments: ["Helsinki", "Хельсинки", "Ελσίνκι", "هلسنكي", "הלסינקי", "ヘルシンキ", "赫尔辛基", "헬싱키", "🗺️📍"])
    func everyScriptHasGlyphs(name: String) {
        let shaper = makeBackend().shaper
        let m = shaper.measure(name, style: TextStyle(size: 16))
        #expect(m.unknownGlyphCount == 0)
        #expect(m.width > 0)
    }

    @Test func fontsArePinnedByTheRepositoryConfiguration() {
        let shaper = makeBackend().shaper
        #expect(shaper.resolvedFamily(of: "Helsinki", style: TextStyle()) == "DejaVu Sans")
        #expect(shaper.resolvedFamily(of: "赫尔辛基", style: TextStyle())?.hasPrefix("Noto Sans CJK") == true)
        #expect(shaper.resolvedFamily(of: "📍", style: TextStyle()) == "Noto Color Emoji")
    }

    @Test func tofuIsCounted() {
        // U+10FFFD is a private-use code point no installed font covers.
        let shaper = makeBackend().shaper
        #expect(shaper.measure("a\u{10FFFD}b", style: TextStyle()).unknownGlyphCount == 1)
    }
}

@Suite struct PNGCodecTests {
    @Test func roundTripsOpaqueAndTransparentPixels() throws {
        var pixels: [UInt8] = []
        for i in 0..<(7 * 5) {
            pixels += i % 4 == 0 ? [0, 0, 0, 0] : [UInt8(i * 7 % 256), UInt8(i * 13 % 256), UInt8(i * 29 % 256), 255]
        }
        let image = RasterImage(width: 7, height: 5, pixels: pixels)
        let bytes = try PNGCodec.encode(image)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try PNGCodec.decode(bytes) == image)
    }

    @Test func garbageIsAnErrorNamingTheInput() {
        #expect(throws: PNGCodec.Error.self) { try PNGCodec.decode([1, 2, 3]) }
        do {
            _ = try PNGCodec.read(path: "/nonexistent/x.png")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("/nonexistent/x.png"))
        }
    }
}

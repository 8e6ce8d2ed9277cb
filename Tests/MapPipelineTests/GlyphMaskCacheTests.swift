import MapData
import MapDrawing
import Testing

@testable import MapPipeline

/// A round glyph 10 × 10 pixels: its SDF falls from 255 at the middle by 24 a pixel (the outline at 192 lies about
/// 2.6 pixels out from the middle).
private func roundGlyph(id: Int = 0x61) -> SDFGlyph {
    let side = 10 + 2 * GlyphPBF.border
    var bitmap = [UInt8](repeating: 0, count: side * side)
    for y in 0..<side {
        for x in 0..<side {
            let dx = Double(x) + 0.5 - Double(side) / 2
            let dy = Double(y) + 0.5 - Double(side) / 2
            bitmap[y * side + x] = UInt8(max(0, 255 - 24 * (dx * dx + dy * dy).squareRoot()))
        }
    }
    return SDFGlyph(id: id, bitmap: bitmap, width: 10, height: 10, left: 0, top: 10, advance: 12)
}

private let paint = TextStyle(
    color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1), haloColor: RGBAColor(red: 1, green: 1, blue: 1, alpha: 1),
    haloWidth: 2, haloBlur: 0)

/// Two glyphs side by side, the first's quad at `(x, y)` device pixels, each texel `scale` device pixels.
private func quads(x: Double, y: Double, scale: Double = 1.5) -> [SDFText.Quad] {
    [0.0, 13].map { pen in
        SDFText.Quad(
            unpadded: roundGlyph(),
            transform: .scale(x: scale, y: scale).concatenating(.translation(x: x + pen * scale, y: y)))!
    }
}

/// The premultiplied pixel at device pixel `(x, y)` of `image`, or zeros outside it.
private func pixel(_ image: SDFText.Image, _ x: Int, _ y: Int) -> [Int] {
    let (ix, iy) = (x - image.x, y - image.y)
    guard ix >= 0, iy >= 0, ix < image.image.width, iy < image.image.height else { return [0, 0, 0, 0] }
    let o = (iy * image.image.width + ix) * 4
    return (0..<4).map { Int(image.image.pixels[o + $0]) }
}

/// The glyph run of `quads` (``SDFText/glyphRun(_:style:fontScale:pixelRatio:passes:masks:)``) composited over
/// transparent pixels, as a backend composites it in place.
private func runImage(
    _ quads: [SDFText.Quad], style: TextStyle, fontScale: Double, pixelRatio: Double,
    passes: SDFText.Passes = .both, masks: GlyphMaskCache
) -> SDFText.Image? {
    guard
        let made = SDFText.glyphRun(
            quads, style: style, fontScale: fontScale, pixelRatio: pixelRatio, passes: passes, masks: masks)?.image()
    else { return nil }
    return SDFText.Image(image: made.image, x: made.x, y: made.y)
}

@Suite struct GlyphMaskCacheTests {
    @Test func aLabelFromMasksMatchesTheSampledLabelAtAPhaseStep() throws {
        // At a multiple of 1/8 pixel the masks are drawn at the quads' own places: the same pixels as sampling each
        // quad's field, up to the masks' rounding of coverage to bytes.
        let masks = GlyphMaskCache()
        let cached = try #require(
            runImage(quads(x: 10.25, y: 7.5), style: paint, fontScale: 1.5, pixelRatio: 1, masks: masks))
        let sampled = try #require(
            SDFText.render(
                quads(x: 10.25, y: 7.5).map { SDFText.Quad(glyph: $0.glyph!, transform: $0.transform) }, style: paint,
                fontScale: 1.5, pixelRatio: 1))
        var worst = 0
        var drawn = 0
        for y in (sampled.y - 2)..<(sampled.y + sampled.image.height + 2) {
            for x in (sampled.x - 2)..<(sampled.x + sampled.image.width + 2) {
                let a = pixel(cached, x, y)
                let b = pixel(sampled, x, y)
                if b[3] > 0 { drawn += 1 }
                worst = max(worst, zip(a, b).map { abs($0 - $1) }.max()!)
            }
        }
        #expect(drawn > 200)
        #expect(worst <= 2)
        // Two glyphs, halo and fill each: four masks in two entries (a glyph's halo and fill are kept together and
        // looked up once for both passes), none in the cache yet: two misses, no hit.
        #expect(masks.count == 2)
        #expect(masks.misses == 2)
        #expect(masks.hits == 0)
    }

    @Test func aLabelMovedByWholePixelsReusesItsMasksAndShifts() throws {
        let masks = GlyphMaskCache()
        let first = try #require(
            runImage(quads(x: 3.3, y: 4.6), style: paint, fontScale: 1.5, pixelRatio: 1, masks: masks))
        let moved = try #require(
            runImage(quads(x: 8.3, y: 1.6), style: paint, fontScale: 1.5, pixelRatio: 1, masks: masks))
        // Each glyph's entry drawn once (the first run's two misses), then found once a glyph by the moved run (its
        // halo and fill from one look-up).
        #expect(masks.misses == 2)
        #expect(masks.hits == 2)
        #expect(moved.x == first.x + 5)
        #expect(moved.y == first.y - 3)
        #expect(moved.image.pixels == first.image.pixels)
    }

    @Test func aFractionalMoveDrawsAtTheNewPhase() throws {
        let masks = GlyphMaskCache()
        let a = try #require(
            runImage(
                quads(x: 3.0, y: 4.0), style: paint, fontScale: 1.5, pixelRatio: 1, passes: .fill, masks: masks))
        let b = try #require(
            runImage(
                quads(x: 3.25, y: 4.0), style: paint, fontScale: 1.5, pixelRatio: 1, passes: .fill, masks: masks))
        // A quarter of a pixel apart: new masks (the glyphs at phases 0 and 4 eighths, then 2 and 6), and different
        // pixels.
        #expect(masks.misses == 4)
        #expect(a.image.pixels != b.image.pixels || a.x != b.x)
        // A quarter of a phase step away from a step reuses the step's masks.
        _ = runImage(
            quads(x: 3.28, y: 4.0), style: paint, fontScale: 1.5, pixelRatio: 1, passes: .fill, masks: masks)
        #expect(masks.misses == 4)
    }

    @Test func aHaloedGlyphKeepsBothMasksUnderOneEntryAndAFillOnlyPaintItsOwn() throws {
        let masks = GlyphMaskCache()
        let haloed = SDFText.glyphRuns(quads(x: 2.5, y: 3), style: paint, fontScale: 1.5, pixelRatio: 1, masks: masks)
        let haloedFill = try #require(haloed.fill)
        #expect(try #require(haloed.halo).masks.count == 2)
        #expect(haloedFill.masks.count == 2)
        // Two glyphs: one entry each, holding its halo and its fill; one look-up each.
        #expect(masks.count == 2 && masks.misses == 2 && masks.hits == 0)
        var plain = paint
        plain.haloWidth = 0
        let unhaloed = SDFText.glyphRuns(
            quads(x: 2.5, y: 3), style: plain, fontScale: 1.5, pixelRatio: 1, masks: masks)
        #expect(unhaloed.halo == nil)
        // A paint without a halo keeps its glyphs' fills under entries of their own, with the same coverage as the
        // fills drawn with the halos.
        #expect(masks.count == 4 && masks.misses == 4)
        #expect(try #require(unhaloed.fill).masks == haloedFill.masks)
    }

    @Test func theCacheStaysWithinItsBytes() {
        let masks = GlyphMaskCache(byteLimit: 4_000)
        for step in 0..<40 {
            _ = runImage(
                quads(x: Double(step) / 8, y: Double(step) / 5), style: paint, fontScale: 1.5, pixelRatio: 1,
                masks: masks)
            #expect(masks.byteCount <= 4_000)
        }
        #expect(masks.count > 0)
        #expect(masks.misses > 40)
        let none = GlyphMaskCache(byteLimit: -5)
        #expect(
            runImage(quads(x: 1, y: 1), style: paint, fontScale: 1.5, pixelRatio: 1, masks: none) != nil)
        #expect(none.count == 0)
        #expect(none.byteLimit == 0)
    }

    @Test func differentGlyphsWithTheSameMetricsDoNotShareMasks() throws {
        let masks = GlyphMaskCache()
        var other = roundGlyph()
        other.bitmap = other.bitmap.map { $0 / 2 }
        let q = SDFText.Quad(unpadded: other, transform: .translation(x: 2, y: 2))!
        let p = SDFText.Quad(unpadded: roundGlyph(), transform: .translation(x: 2, y: 2))!
        let a = try #require(
            runImage([p], style: paint, fontScale: 1, pixelRatio: 1, passes: .fill, masks: masks))
        let b = runImage([q], style: paint, fontScale: 1, pixelRatio: 1, passes: .fill, masks: masks)
        #expect(masks.misses == 2)
        #expect(b?.image.pixels != a.image.pixels)
    }

    @Test func glyphsAndPaintsAreInternedToSmallKeys() {
        let masks = GlyphMaskCache()
        var other = roundGlyph()
        other.bitmap = other.bitmap.map { $0 / 2 }
        let id = masks.glyphID(roundGlyph())
        #expect(masks.glyphID(roundGlyph()) == id)
        #expect(masks.glyphID(other) != id)
        #expect(masks.glyphID(roundGlyph(id: 0x62)) != id)
        let fill = masks.paintID(halo: false, fontScale: 1.5, pixelRatio: 1, haloWidth: 0, haloBlur: 0)
        #expect(masks.paintID(halo: true, fontScale: 1.5, pixelRatio: 1, haloWidth: 0, haloBlur: 0) != fill)
        #expect(masks.paintID(halo: false, fontScale: 1.5, pixelRatio: 2, haloWidth: 0, haloBlur: 0) != fill)
        #expect(masks.paintID(halo: false, fontScale: 1.5, pixelRatio: 1, haloWidth: 0, haloBlur: 0) == fill)
        // After everything is dropped, integers are not handed out again.
        masks.removeAll()
        #expect(masks.glyphID(roundGlyph()) != id)
        // A key holds no glyph: 48 bytes; an entry's overhead counts it with the mask's slot and index entry.
        #expect(MemoryLayout<GlyphMaskCache.Key>.stride == 48)
        #expect(GlyphMaskCache.entryOverhead >= 48 + MemoryLayout<GlyphMaskCache.Key>.stride * 2)
    }

    @Test func masksSampledOnlyWhereCoveredMatchSamplingEveryPixel() {
        // An "L": a tall stroke and a foot, so that texel rows hold spans of different widths.
        let side = (w: 9 + 2 * GlyphPBF.border, h: 14 + 2 * GlyphPBF.border)
        var bitmap = [UInt8](repeating: 0, count: side.w * side.h)
        for y in 0..<side.h {
            for x in 0..<side.w {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                // Distance to the L's strokes (x in 3…6, y in 3…17; y in 14…17, x in 3…12).
                func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
                    let dx = max(x0 - px, 0, px - x1)
                    let dy = max(y0 - py, 0, py - y1)
                    return (dx * dx + dy * dy).squareRoot()
                }
                let d = min(box(3, 3, 6, 17), box(3, 14, 12, 17))
                bitmap[y * side.w + x] = UInt8(max(0, min(255, 192 - 24 * d)))
            }
        }
        let glyphs = [
            roundGlyph(),
            SDFGlyph(id: 0x4C, bitmap: bitmap, width: 9, height: 14, left: 1, top: 14, advance: 10),
        ]
        var cases = 0
        var covered = 0
        for glyph in glyphs {
            for (fontScale, haloWidth, haloBlur) in [
                (0.5, 1.0, 0.0), (0.55, 2.0, 0.5), (1.5, 2.0, 0.0), (0.6, 9.0, 0.0),
            ] {
                let fill = SDFAlpha.fill(fontScale: fontScale, pixelRatio: 1)
                let halo = SDFAlpha.halo(
                    fontScale: fontScale, pixelRatio: 1, haloWidth: haloWidth, haloBlur: haloBlur)
                for degrees in [0.0, 7, 33, 90, 180, 251.5] {
                    for phase in [(0.0, 0.0), (0.375, 0.5), (0.875, 0.125)] {
                        let r = degrees * .pi / 180
                        let t = RenderTransform.scale(x: fontScale, y: fontScale).concatenating(.rotation(radians: r))
                            .concatenating(.translation(x: phase.0, y: phase.1))
                        for second in [fill, nil] as [SDFAlpha?] {
                            let first = second == nil ? fill : halo
                            let fast = SDFText.coverageMasks(glyph: glyph, transform: t, alpha: first, second: second)
                            let every = SDFText.coverageMasks(
                                glyph: glyph, transform: t, alpha: first, second: second, everyPixel: true)
                            for (a, b) in [(fast.first, every.first), (fast.second, every.second)] {
                                #expect(a.coverage == b.coverage)
                                #expect([a.x, a.y, a.width, a.height] == [b.x, b.y, b.width, b.height])
                                covered += b.coverage.filter { $0 > 0 }.count
                            }
                            cases += 1
                        }
                    }
                }
            }
        }
        #expect(cases == 2 * 4 * 6 * 3 * 2)
        #expect(covered > 10_000)
        // The widest halo leaves no byte of the field certainly uncovered (every pixel is sampled then); the others
        // have one.
        #expect(SDFText.coldTexel(SDFAlpha.halo(fontScale: 0.6, pixelRatio: 1, haloWidth: 9, haloBlur: 0), nil) == nil)
        #expect(SDFText.coldTexel(SDFAlpha.halo(fontScale: 0.5, pixelRatio: 1, haloWidth: 1, haloBlur: 0), nil) != nil)
    }
}

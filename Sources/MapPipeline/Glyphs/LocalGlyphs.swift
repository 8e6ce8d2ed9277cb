import MapData
import MapDrawing

// Glyphs a style's glyph ranges lack, made from the backend's fonts, so that a label with a few such characters stays
// one label of SDF glyphs (the "mixed in one label"; MapLibre GL JS makes local glyphs the same way, with its
// TinySDF, for CJK ideographs). The character's coverage comes from the backend (``GlyphCoverageSource``, Pango);
// its signed distance field is made here as the glyph PBFs' are (node-fontnik's conventions, which
// `scripts/data/build-glyphs.py` follows): a 24-pixel em, a 3-pixel border, distances clamped at 8 pixels and the
// outline at 192 of 255. The distances come from the coverage by two squared Euclidean distance transforms
// (Felzenszwalb and Huttenlocher's lower envelope of parabolas, row by row then column by column), one to the ink
// and one to the background, each edge pixel placed by its coverage (`½ − coverage` pixels from the outline), as
// TinySDF does.

/// The local glyphs of one measurer (``GlyphTextMeasurer/localGlyphs``): made on first use and kept, `nil` kept too
/// (the backend has no font for the character).
///
/// Thread rules: the measurer's (one thread at a time).
final class LocalGlyphs {
    /// Where the coverage comes from.
    let source: any GlyphCoverageSource
    private struct Key: Hashable {
        var fontstack: String
        var codepoint: Int
    }
    private var made: [Key: SDFGlyph?] = [:]
    /// Glyphs kept before all are dropped and made again (a map uses a few dozen; 1,024 of 24-pixel glyphs are at most
    /// about 1.5 MB).
    static let limit = 1024

    init(source: any GlyphCoverageSource) { self.source = source }

    /// How many glyphs (and characters without one) are kept.
    var count: Int { made.count }

    /// The glyph of `codepoint` for `fontstack` (its first font's family, weight and slant, ``fontFamilies(_:)``)
    /// from the backend's fonts, or `nil` when it has none or the codepoint is not a character.
    func glyph(_ codepoint: Int, fontstack: String) -> SDFGlyph? {
        let key = Key(fontstack: fontstack, codepoint: codepoint)
        if let hit = made[key] { return hit }
        var glyph: SDFGlyph? = nil
        if let scalar = Unicode.Scalar(UInt32(clamping: max(0, codepoint))) {
            // The stack's names as `text-font` gave them (joined by commas, as glyph URLs name the stack).
            let (families, weight, italic) = fontFamilies(fontstack.split(separator: ",").map(String.init))
            if let coverage = source.glyphCoverage(
                of: scalar, fontFamilies: families, weight: weight, italic: italic, pixelSize: GlyphShaping.emSize)
            {
                glyph = Self.glyph(codepoint, from: coverage)
            }
        }
        if made.count >= Self.limit { made.removeAll(keepingCapacity: true) }
        made[key] = glyph
        return glyph
    }

    /// The glyph PBF's border around a bitmap, its distance clamp and the distance the outline is offset by, pixels.
    static let border = 3
    static let radius = 8.0
    static let cutoff = 0.25

    /// The SDF glyph `codepoint` of a character's `coverage` at a 24-pixel em: its bitmap `(width + 6) × (height +
    /// 6)` bytes, `255 − clamp(⌊d · 32 + 64⌋, 0, 255)` for the signed distance `d` (pixels, positive outside,
    /// clamped at ±8) of each pixel centre from the outline; `top` less the font's ascent rounded up, as the PBFs
    /// give it; the advance rounded.
    static func glyph(_ codepoint: Int, from coverage: GlyphCoverage) -> SDFGlyph {
        let advance = Int(coverage.advance.rounded())
        let (w, h) = (coverage.width, coverage.height)
        guard w > 0, h > 0 else {
            return SDFGlyph(id: codepoint, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: advance)
        }
        let cols = w + 2 * border
        let rows = h + 2 * border
        // Squared distances to the ink (`outside`: 0 on ink) and to the background (`inside`: 0 off the ink).
        let far = 1e20
        var outside = [Double](repeating: far, count: cols * rows)
        var inside = [Double](repeating: 0, count: cols * rows)
        for y in 0..<h {
            for x in 0..<w {
                let a = Double(coverage.coverage[y * w + x]) / 255
                guard a > 0 else { continue }
                let j = (y + border) * cols + x + border
                if a >= 1 {
                    outside[j] = 0
                    inside[j] = far
                } else {
                    let d = 0.5 - a
                    outside[j] = d > 0 ? d * d : 0
                    inside[j] = d < 0 ? d * d : 0
                }
            }
        }
        distanceTransform(&outside, width: cols, height: rows)
        distanceTransform(&inside, width: cols, height: rows)
        var bitmap = [UInt8](repeating: 0, count: cols * rows)
        for i in bitmap.indices {
            let d = min(max(outside[i].squareRoot() - inside[i].squareRoot(), -radius), radius)
            let signed = d * (256 / radius) + cutoff * 256
            bitmap[i] = 255 - UInt8(min(max(signed.rounded(.towardZero), 0), 255))
        }
        return SDFGlyph(
            id: codepoint, bitmap: bitmap, width: w, height: h, left: coverage.left,
            top: coverage.top - Int(coverage.ascent.rounded(.up)), advance: advance)
    }

    /// Replaces each value of the `width × height` grid (row by row) by the least of `grid[q] + |p − q|²` over all
    /// cells `q`: the squared distance to the nearest cell holding 0 when the others hold a huge value.
    static func distanceTransform(_ grid: inout [Double], width: Int, height: Int) {
        let n = max(width, height)
        var f = [Double](repeating: 0, count: n)
        var v = [Int](repeating: 0, count: n)
        var z = [Double](repeating: 0, count: n + 1)
        for x in 0..<width { transform(&grid, start: x, step: width, count: height, &f, &v, &z) }
        for y in 0..<height { transform(&grid, start: y * width, step: 1, count: width, &f, &v, &z) }
    }

    /// One line of ``distanceTransform(_:width:height:)``: the lower envelope of the parabolas
    /// `f(q) + (p − q)²` (`v` their apexes in order, `z` where each starts to be the lowest), then read off.
    private static func transform(
        _ grid: inout [Double], start: Int, step: Int, count: Int, _ f: inout [Double], _ v: inout [Int],
        _ z: inout [Double]
    ) {
        guard count > 0 else { return }
        for q in 0..<count { f[q] = grid[start + q * step] }
        var k = 0
        v[0] = 0
        z[0] = -.infinity
        z[1] = .infinity
        for q in 1..<count {
            var s: Double
            repeat {
                let r = v[k]
                s = ((f[q] + Double(q * q)) - (f[r] + Double(r * r))) / Double(2 * (q - r))
                if s <= z[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = .infinity
        }
        k = 0
        for q in 0..<count {
            while z[k + 1] < Double(q) { k += 1 }
            let r = v[k]
            grid[start + q * step] = f[r] + Double((q - r) * (q - r))
        }
    }
}

import MapData
import MapDrawing
import MapGeometry

extension SDFText {
    /// The glyph run of ``render(_:style:fontScale:pixelRatio:passes:)``'s label, drawn from the glyphs' coverage
    /// masks in `masks`: each glyph quad's halo and fill coverage is drawn once per glyph, linear map, paint and
    /// sub-pixel phase (``GlyphMaskCache``) and placed at its device pixel, every halo first, then every fill (the
    /// order of MapLibre's two passes), at opacity 1. The frame composites the run in place
    /// (``DrawCommand/glyphRun(_:)``), so a label moved by a fraction of a pixel costs its masks' look-ups, not an
    /// image of its own. `nil` when nothing is drawn, or when a quad is not a glyph's (``Quad/glyph`` `nil`: such
    /// quads have no cached masks; the label stage makes none).
    static func glyphRun(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, passes: Passes = .both,
        masks: GlyphMaskCache
    ) -> GlyphRunCommand? {
        let hasHalo = style.haloWidth > 0 && style.haloColor.alpha > 0
        if passes == .halo && !hasHalo { return nil }
        guard pixelRatio > 0, pixelRatio.isFinite, quads.allSatisfy({ $0.glyph != nil }) else { return nil }
        let drawHalo = passes != .fill && hasHalo
        let drawFill = passes != .halo
        var halos: [GlyphRunCommand.Mask] = []
        var fills: [GlyphRunCommand.Mask] = []
        halos.reserveCapacity(drawHalo ? quads.count : 0)
        fills.reserveCapacity(drawFill ? quads.count : 0)
        let steps = GlyphMaskCache.phaseSteps
        let fillPaint = masks.paintID(
            halo: false, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: 0, haloBlur: 0)
        let haloPaint =
            drawHalo
            ? masks.paintID(
                halo: true, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth,
                haloBlur: style.haloBlur) : fillPaint
        for q in quads {
            guard let glyph = q.glyph, q.transform.isFinite else { continue }
            let t = q.transform
            guard let inverse = t.inverted, abs(t.tx) < 1e9, abs(t.ty) < 1e9 else { continue }
            var wholeX = t.tx.rounded(.down)
            var wholeY = t.ty.rounded(.down)
            var phaseX = Int(((t.tx - wholeX) * Double(steps)).rounded())
            var phaseY = Int(((t.ty - wholeY) * Double(steps)).rounded())
            if phaseX >= steps {
                phaseX -= steps
                wholeX += 1
            }
            if phaseY >= steps {
                phaseY -= steps
                wholeY += 1
            }
            var key = GlyphMaskCache.Key(
                a: t.a, b: t.b, c: t.c, d: t.d, glyph: masks.glyphID(glyph), paint: fillPaint, phaseX: UInt8(phaseX),
                phaseY: UInt8(phaseY))
            let local = RenderTransform(
                a: t.a, b: t.b, c: t.c, d: t.d, tx: Double(phaseX) / Double(steps), ty: Double(phaseY) / Double(steps))
            /// The mask at its device place, cut by the quad's exact edges where it is composited.
            func placed(_ mask: GlyphMaskCache.Mask, color: RGBAColor) -> GlyphRunCommand.Mask? {
                guard mask.width > 0, mask.height > 0 else { return nil }
                return GlyphRunCommand.Mask(
                    coverage: mask.coverage, x: Int(wholeX) + mask.x, y: Int(wholeY) + mask.y, width: mask.width,
                    height: mask.height, color: color, clip: inverse, clipWidth: Double(q.width),
                    clipHeight: Double(q.height))
            }
            if drawHalo {
                let fillKey = key
                key.paint = haloPaint
                let halo = { (distance: Double) in
                    haloAlpha(
                        distance: distance, fontScale: fontScale, pixelRatio: pixelRatio,
                        haloWidth: style.haloWidth, haloBlur: style.haloBlur)
                }
                let mask: GlyphMaskCache.Mask
                if let hit = masks.cached(key) {
                    mask = hit
                } else if !masks.contains(fillKey) {
                    // The fill pass draws this glyph at this phase too (a label's halo pass comes first): both
                    // masks from one sampling of the field.
                    let pair = coverageMasks(
                        glyph: glyph, transform: local, alpha: halo,
                        second: { fillAlpha(distance: $0, fontScale: fontScale, pixelRatio: pixelRatio) }, paired: true)
                    masks.insert(pair.second, for: fillKey)
                    masks.insert(pair.first, for: key)
                    mask = pair.first
                } else {
                    mask = coverageMask(glyph: glyph, transform: local, alpha: halo)
                    masks.insert(mask, for: key)
                }
                if let m = placed(mask, color: style.haloColor) { halos.append(m) }
            }
            if drawFill {
                key.paint = fillPaint
                let mask = masks.mask(key) {
                    coverageMask(glyph: glyph, transform: local) {
                        fillAlpha(distance: $0, fontScale: fontScale, pixelRatio: pixelRatio)
                    }
                }
                if let m = placed(mask, color: q.color ?? style.color) { fills.append(m) }
            }
        }
        guard !halos.isEmpty || !fills.isEmpty else { return nil }
        return GlyphRunCommand(masks: halos + fills, pixelRatio: pixelRatio)
    }

    /// The coverage of `glyph`'s quad under `transform` (texels of the glyph's padded field → device pixels) as
    /// ``render(_:style:fontScale:pixelRatio:passes:)`` draws it, `alpha` of the field sampled bilinearly at each
    /// device pixel's centre (0 outside the field), over the pixels whose centres the quad covers and one more all
    /// round: the quad's edges are left to the blending, which knows the quad's exact place.
    static func coverageMask(glyph: SDFGlyph, transform t: RenderTransform, alpha: (Double) -> Double)
        -> GlyphMaskCache.Mask
    {
        coverageMasks(glyph: glyph, transform: t, alpha: alpha, second: alpha, paired: false).first
    }

    /// ``coverageMask(glyph:transform:alpha:)`` for `alpha` and, when `paired`, for `second` too from the same samples
    /// of the field (a glyph's halo and fill masks at one phase: the field is sampled once for both); the second mask
    /// is empty when not `paired`.
    static func coverageMasks(
        glyph: SDFGlyph, transform t: RenderTransform, alpha: (Double) -> Double, second: (Double) -> Double,
        paired: Bool
    ) -> (first: GlyphMaskCache.Mask, second: GlyphMaskCache.Mask) {
        let empty = GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0)
        // The bitmap with MapLibre's one-texel atlas padding (``Quad/init(glyph:transform:)``), sampled in place.
        let bw = glyph.width + 2 * GlyphPBF.border
        let bh = glyph.height + 2 * GlyphPBF.border
        guard !glyph.bitmap.isEmpty, glyph.bitmap.count == bw * bh else { return (empty, empty) }
        guard let inverse = t.inverted else { return (empty, empty) }
        let (qMinX, qMinY, qMaxX, qMaxY) = t.bounds(ofWidth: Double(bw + 2), height: Double(bh + 2))
        // A pixel more all round than the pixels whose centres the quad covers: the label's quad lies up to half a
        // phase step from this one, and its edges are applied where the mask is blended.
        let px0 = Int((qMinX - 0.5).rounded(.up)) - 1
        let px1 = Int((qMaxX - 0.5).rounded(.down)) + 1
        let py0 = Int((qMinY - 0.5).rounded(.up)) - 1
        let py1 = Int((qMaxY - 0.5).rounded(.down)) + 1
        guard px0 <= px1, py0 <= py1 else { return (empty, empty) }
        let mw = px1 - px0 + 1
        let mh = py1 - py0 + 1
        guard mw <= maxImageSide, mh <= maxImageSide else { return (empty, empty) }
        var coverage = [UInt8](repeating: 0, count: mw * mh)
        var coverage2 = [UInt8](repeating: 0, count: paired ? mw * mh : 0)
        // Where all four texels are 0 (most of a halo's and a fill's box) the coverage is the same for every pixel.
        func byte(_ value: Double) -> UInt8 { value > 0 ? UInt8(min(255, roundedHalfUp(value * 255))) : 0 }
        let zeroByte = byte(alpha(0))
        let zeroByte2 = paired ? byte(second(0)) : 0
        glyph.bitmap.withUnsafeBufferPointer { bitmap in
            // Texel (i, j) of the padded field → its byte, 0 on the padding and outside.
            @inline(__always) func texel(_ i: Int, _ j: Int) -> Double {
                guard i >= 1, j >= 1, i <= bw, j <= bh else { return 0 }
                return Double(bitmap[(j - 1) * bw + i - 1])
            }
            coverage.withUnsafeMutableBufferPointer { coverage in
                coverage2.withUnsafeMutableBufferPointer { coverage2 in
                    for py in py0...py1 {
                        for px in px0...px1 {
                            let centre = inverse.apply(to: ScreenPoint(x: Double(px) + 0.5, y: Double(py) + 0.5))
                            let fx = centre.x - 0.5
                            let fy = centre.y - 0.5
                            let ix = floorInt(fx)
                            let iy = floorInt(fy)
                            let (t00, t10, t01, t11): (Double, Double, Double, Double)
                            if ix >= 1, iy >= 1, ix < bw, iy < bh {
                                // All four inside the bitmap: read without the edge tests.
                                let o = (iy - 1) * bw + ix - 1
                                (t00, t10) = (Double(bitmap[o]), Double(bitmap[o + 1]))
                                (t01, t11) = (Double(bitmap[o + bw]), Double(bitmap[o + bw + 1]))
                            } else {
                                (t00, t10) = (texel(ix, iy), texel(ix + 1, iy))
                                (t01, t11) = (texel(ix, iy + 1), texel(ix + 1, iy + 1))
                            }
                            let i = (py - py0) * mw + px - px0
                            if t00 == 0 && t10 == 0 && t01 == 0 && t11 == 0 {
                                coverage[i] = zeroByte
                                if paired { coverage2[i] = zeroByte2 }
                                continue
                            }
                            let tx = fx - Double(ix)
                            let ty = fy - Double(iy)
                            let top = t00 * (1 - tx) + t10 * tx
                            let bottom = t01 * (1 - tx) + t11 * tx
                            let distance = (top * (1 - ty) + bottom * ty) / 255
                            coverage[i] = byte(alpha(distance))
                            if paired { coverage2[i] = byte(second(distance)) }
                        }
                    }
                }
            }
        }
        return (
            cropped(coverage, width: mw, height: mh, x: px0, y: py0),
            paired ? cropped(coverage2, width: mw, height: mh, x: px0, y: py0) : empty
        )
    }

    /// `coverage` (`width × height` bytes, its top-left at device pixel `(x, y)`) cropped to its covered pixels (a
    /// mask without any is empty): smaller masks to keep and composite.
    private static func cropped(_ coverage: [UInt8], width mw: Int, height mh: Int, x px0: Int, y py0: Int)
        -> GlyphMaskCache.Mask
    {
        var (left, top, right, bottom) = (mw, mh, -1, -1)
        for row in 0..<mh {
            for column in 0..<mw where coverage[row * mw + column] > 0 {
                left = min(left, column)
                right = max(right, column)
                top = min(top, row)
                bottom = max(bottom, row)
            }
        }
        guard right >= left, bottom >= top else {
            return GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0)
        }
        if left == 0 && top == 0 && right == mw - 1 && bottom == mh - 1 {
            return GlyphMaskCache.Mask(coverage: coverage, x: px0, y: py0, width: mw, height: mh)
        }
        let cw = right - left + 1
        var cropped = [UInt8](repeating: 0, count: cw * (bottom - top + 1))
        for row in top...bottom {
            cropped.replaceSubrange(
                ((row - top) * cw)..<((row - top + 1) * cw), with: coverage[(row * mw + left)...(row * mw + right)])
        }
        return GlyphMaskCache.Mask(
            coverage: cropped, x: px0 + left, y: py0 + top, width: cw, height: bottom - top + 1)
    }
}

/// `v.rounded(.down)` as an integer, for finite `v` within ±2⁵² (the mask's texel coordinates): without a call to the
/// C library's `floor`.
@inline(__always) private func floorInt(_ v: Double) -> Int {
    let i = Int(v)
    return Double(i) > v ? i - 1 : i
}

/// `v.rounded()` (halves away from zero) for `v` in `0…2⁵²`, as an integer: without a call to the C library's `round`
/// (the fraction `v − ⌊v⌋` is exact there, so halves are found exactly).
@inline(__always) private func roundedHalfUp(_ v: Double) -> Int {
    let i = Int(v)
    return v - Double(i) >= 0.5 ? i + 1 : i
}

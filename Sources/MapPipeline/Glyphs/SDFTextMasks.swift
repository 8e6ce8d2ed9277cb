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
        guard
            let (halos, fills) = glyphMasks(
                quads, style: style, fontScale: fontScale, pixelRatio: pixelRatio, drawHalo: passes != .fill && hasHalo,
                drawFill: passes != .halo, masks: masks),
            !halos.isEmpty || !fills.isEmpty
        else { return nil }
        return GlyphRunCommand(masks: halos + fills, pixelRatio: pixelRatio)
    }

    /// The runs ``glyphRun(_:style:fontScale:pixelRatio:passes:masks:)`` makes for the halo pass and for the fill
    /// pass (`nil` for a pass that draws nothing), made together: each glyph's quad is looked at once for both
    /// passes (its halo and fill masks kept under one entry, drawn from one sampling of its field).
    static func glyphRuns(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, masks: GlyphMaskCache
    ) -> (halo: GlyphRunCommand?, fill: GlyphRunCommand?) {
        let hasHalo = style.haloWidth > 0 && style.haloColor.alpha > 0
        guard
            let (halos, fills) = glyphMasks(
                quads, style: style, fontScale: fontScale, pixelRatio: pixelRatio, drawHalo: hasHalo, drawFill: true,
                masks: masks)
        else { return (nil, nil) }
        return (
            halos.isEmpty ? nil : GlyphRunCommand(masks: halos, pixelRatio: pixelRatio),
            fills.isEmpty ? nil : GlyphRunCommand(masks: fills, pixelRatio: pixelRatio)
        )
    }

    /// The halo masks (when `drawHalo`) and the fill masks (when `drawFill`) of the glyph quads at their device
    /// places, in the quads' order; `nil` when the pixel ratio is not positive and finite or a quad is not a glyph's.
    private static func glyphMasks(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, drawHalo: Bool, drawFill: Bool,
        masks: GlyphMaskCache
    ) -> (halos: [GlyphRunCommand.Mask], fills: [GlyphRunCommand.Mask])? {
        guard pixelRatio > 0, pixelRatio.isFinite, quads.allSatisfy({ $0.glyph != nil }) else { return nil }
        var halos: [GlyphRunCommand.Mask] = []
        var fills: [GlyphRunCommand.Mask] = []
        halos.reserveCapacity(drawHalo ? quads.count : 0)
        fills.reserveCapacity(drawFill ? quads.count : 0)
        let steps = GlyphMaskCache.phaseSteps
        // One entry a glyph: its halo and fill masks together when the halo is drawn (drawn from one sampling of
        // the field), else its fill's alone.
        let paint =
            drawHalo
            ? masks.paintID(
                halo: true, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth,
                haloBlur: style.haloBlur)
            : masks.paintID(halo: false, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: 0, haloBlur: 0)
        let fillAlpha = SDFAlpha.fill(fontScale: fontScale, pixelRatio: pixelRatio)
        let haloAlpha = SDFAlpha.halo(
            fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth, haloBlur: style.haloBlur)
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
            let key = GlyphMaskCache.Key(
                a: t.a, b: t.b, c: t.c, d: t.d, glyph: masks.glyphID(glyph), paint: paint, phaseX: UInt8(phaseX),
                phaseY: UInt8(phaseY))
            let local = RenderTransform(
                a: t.a, b: t.b, c: t.c, d: t.d, tx: Double(phaseX) / Double(steps), ty: Double(phaseY) / Double(steps))
            let (x, y) = (Int(wholeX), Int(wholeY))
            let (clipWidth, clipHeight) = (Double(q.width), Double(q.height))
            /// The mask at its device place, cut by the quad's exact edges where it is composited.
            func place(_ mask: GlyphMaskCache.Mask, color: RGBAColor, into list: inout [GlyphRunCommand.Mask]) {
                guard mask.width > 0, mask.height > 0 else { return }
                list.append(
                    GlyphRunCommand.Mask(
                        coverage: mask.coverage, x: x + mask.x, y: y + mask.y, width: mask.width, height: mask.height,
                        color: color, clip: inverse, clipWidth: clipWidth, clipHeight: clipHeight))
            }
            let entry = masks.masks(key) {
                if drawHalo {
                    let pair = coverageMasks(glyph: glyph, transform: local, alpha: haloAlpha, second: fillAlpha)
                    return GlyphMaskCache.Masks(halo: pair.first, fill: pair.second)
                }
                let fill = coverageMasks(glyph: glyph, transform: local, alpha: fillAlpha, second: nil).first
                return GlyphMaskCache.Masks(
                    halo: GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0), fill: fill)
            }
            if drawHalo { place(entry.halo, color: style.haloColor, into: &halos) }
            if drawFill { place(entry.fill, color: q.color ?? style.color, into: &fills) }
        }
        return (halos, fills)
    }

    /// The coverage of `glyph`'s quad under `transform` (texels of the glyph's padded field → device pixels) as
    /// ``render(_:style:fontScale:pixelRatio:passes:)`` draws it, `alpha` of the field sampled bilinearly at each
    /// device pixel's centre (0 outside the field), over the pixels whose centres the quad covers and one more all
    /// round (the quad's edges are left to the blending, which knows the quad's exact place), cropped to its covered
    /// pixels; and, when `second` is given, `second`'s coverage from the same samples of the field (a glyph's halo
    /// and fill masks at one phase: the field is sampled once for both), else an empty second mask.
    static func coverageMasks(glyph: SDFGlyph, transform t: RenderTransform, alpha: SDFAlpha, second: SDFAlpha?)
        -> (first: GlyphMaskCache.Mask, second: GlyphMaskCache.Mask)
    {
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
        let paired = second != nil
        let second = second ?? alpha
        var coverage = [UInt8](repeating: 0, count: mw * mh)
        var coverage2 = [UInt8](repeating: 0, count: paired ? mw * mh : 0)
        // Where all four texels are 0 (most of a halo's and a fill's box) the coverage is the same for every pixel.
        let zeroByte = coverageByte(alpha(0))
        let zeroByte2 = paired ? coverageByte(second(0)) : 0
        // The covered pixels' box of each mask, found as it is drawn.
        var box = CoveredBox()
        var box2 = CoveredBox()
        glyph.bitmap.withUnsafeBufferPointer { bitmap in
            // Texel (i, j) of the padded field → its byte, 0 on the padding and outside.
            @inline(__always) func texel(_ i: Int, _ j: Int) -> Double {
                guard i >= 1, j >= 1, i <= bw, j <= bh else { return 0 }
                return Double(bitmap[(j - 1) * bw + i - 1])
            }
            // The pixel centres' products with the inverse's linear part, by column and by row: the centre's texel
            // position is their sums with the translation, added in the order `inverse.apply(to:)` adds them.
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * (mw + mh)) { products in
                let (columnA, columnB) = (products.baseAddress!, products.baseAddress! + mw)
                let (rowC, rowD) = (products.baseAddress! + 2 * mw, products.baseAddress! + 2 * mw + mh)
                for column in 0..<mw {
                    let cx = Double(px0 + column) + 0.5
                    columnA[column] = inverse.a * cx
                    columnB[column] = inverse.b * cx
                }
                for row in 0..<mh {
                    let cy = Double(py0 + row) + 0.5
                    rowC[row] = inverse.c * cy
                    rowD[row] = inverse.d * cy
                }
                // The coverage bytes at a centre whose texel position is `(ix + tx, iy + ty) + 0.5`.
                @inline(__always) func sample(_ ix: Int, _ iy: Int, _ tx: Double, _ ty: Double) -> (UInt8, UInt8) {
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
                    if t00 == 0 && t10 == 0 && t01 == 0 && t11 == 0 { return (zeroByte, zeroByte2) }
                    let top = t00 * (1 - tx) + t10 * tx
                    let bottom = t01 * (1 - tx) + t11 * tx
                    let distance = (top * (1 - ty) + bottom * ty) / 255
                    return (coverageByte(alpha(distance)), paired ? coverageByte(second(distance)) : 0)
                }
                // Without rotation or skew (`b` and `c` 0, their products ±0, which add nothing) a column's texel
                // column and a row's texel row are the same for every pixel in it: worked out once.
                let axisAligned = inverse.b == 0 && inverse.c == 0
                withUnsafeTemporaryAllocation(of: Int.self, capacity: axisAligned ? mw : 0) { columnIX in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: axisAligned ? mw : 0) { columnTX in
                        if axisAligned {
                            for column in 0..<mw {
                                let fx = columnA[column] + rowC[0] + inverse.tx - 0.5
                                let ix = floorInt(fx)
                                columnIX[column] = ix
                                columnTX[column] = fx - Double(ix)
                            }
                        }
                        coverage.withUnsafeMutableBufferPointer { coverage in
                            coverage2.withUnsafeMutableBufferPointer { coverage2 in
                                for row in 0..<mh {
                                    let (c, d) = (rowC[row], rowD[row])
                                    var line = CoveredLine()
                                    var line2 = CoveredLine()
                                    @inline(__always) func put(_ column: Int, _ values: (UInt8, UInt8)) {
                                        let i = row * mw + column
                                        coverage[i] = values.0
                                        if values.0 != 0 { line.add(column) }
                                        if paired {
                                            coverage2[i] = values.1
                                            if values.1 != 0 { line2.add(column) }
                                        }
                                    }
                                    if axisAligned {
                                        let fy = columnB[0] + d + inverse.ty - 0.5
                                        let iy = floorInt(fy)
                                        let ty = fy - Double(iy)
                                        for column in 0..<mw {
                                            put(column, sample(columnIX[column], iy, columnTX[column], ty))
                                        }
                                    } else {
                                        for column in 0..<mw {
                                            let fx = columnA[column] + c + inverse.tx - 0.5
                                            let fy = columnB[column] + d + inverse.ty - 0.5
                                            let ix = floorInt(fx)
                                            let iy = floorInt(fy)
                                            put(column, sample(ix, iy, fx - Double(ix), fy - Double(iy)))
                                        }
                                    }
                                    box.add(line, row: row)
                                    box2.add(line2, row: row)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (
            cropped(coverage, width: mw, height: mh, x: px0, y: py0, to: box),
            paired ? cropped(coverage2, width: mw, height: mh, x: px0, y: py0, to: box2) : empty
        )
    }

    /// `coverage` (`width × height` bytes, its top-left at device pixel `(x, y)`) cropped to `box`, the box of its
    /// covered pixels (a mask without any is empty): smaller masks to keep and composite.
    private static func cropped(
        _ coverage: [UInt8], width mw: Int, height mh: Int, x px0: Int, y py0: Int, to box: CoveredBox
    ) -> GlyphMaskCache.Mask {
        let (left, top, right, bottom) = (box.left, box.top, box.right, box.bottom)
        guard right >= left, bottom >= top else {
            return GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0)
        }
        if left == 0 && top == 0 && right == mw - 1 && bottom == mh - 1 {
            return GlyphMaskCache.Mask(coverage: coverage, x: px0, y: py0, width: mw, height: mh)
        }
        let cw = right - left + 1
        let ch = bottom - top + 1
        let cropped = [UInt8](unsafeUninitializedCapacity: cw * ch) { out, count in
            coverage.withUnsafeBufferPointer { source in
                for row in top...bottom {
                    (out.baseAddress! + (row - top) * cw).initialize(
                        from: source.baseAddress! + row * mw + left, count: cw)
                }
            }
            count = cw * ch
        }
        return GlyphMaskCache.Mask(coverage: cropped, x: px0 + left, y: py0 + top, width: cw, height: ch)
    }
}

/// The columns of one mask row holding a covered (non-zero) byte: the first and the last, columns added left to
/// right.
private struct CoveredLine {
    var left = Int.max
    var right = -1
    @inline(__always) mutating func add(_ column: Int) {
        if right < 0 { left = column }
        right = column
    }
}

/// The box of a mask's covered bytes: least and greatest column and row (empty while `right < left`).
private struct CoveredBox {
    var left = Int.max
    var top = Int.max
    var right = -1
    var bottom = -1
    @inline(__always) mutating func add(_ line: CoveredLine, row: Int) {
        guard line.right >= 0 else { return }
        left = min(left, line.left)
        right = max(right, line.right)
        if bottom < 0 { top = row }
        bottom = row
    }
}

/// A coverage `0…1` as a byte (rounded, halves up; 0 and below give 0).
@inline(__always) private func coverageByte(_ value: Double) -> UInt8 {
    guard value > 0 else { return 0 }
    let v = value * 255
    return UInt8(min(255, v <= 255 ? roundedHalfUpByte(v) : roundedHalfUp(v)))
}

/// ``SDFText/fillAlpha(distance:fontScale:pixelRatio:gammaScale:)`` or
/// ``SDFText/haloAlpha(distance:fontScale:pixelRatio:haloWidth:haloBlur:gammaScale:)`` (at a gamma scale of 1) with its
/// edges worked out once for a whole mask: the same value for every distance (the same operations in the same order),
/// with the smoothstep's division skipped where the distance lies outside its edges (the result is 0 or 1 there
/// exactly).
struct SDFAlpha {
    /// `SDFText.smoothstep(edge0, edge1, x)` with its edges fixed.
    struct Ramp {
        var edge0: Double
        var edge1: Double
        var span: Double
        var isStep: Bool
        init(_ edge0: Double, _ edge1: Double) {
            self.edge0 = edge0
            self.edge1 = edge1
            span = edge1 - edge0
            isStep = !(edge1 > edge0)
        }
        @inline(__always) func callAsFunction(_ x: Double) -> Double {
            if isStep { return x < edge0 ? 0 : 1 }
            // x ≤ edge0 gives (x − edge0) / span ≤ 0 and x ≥ edge1 gives ≥ 1 (rounding is monotonic): t is clamped to 0
            // or 1 and the cubic is 0 or 1.
            if x <= edge0 { return 0 }
            if x >= edge1 { return 1 }
            let t = min(1, max(0, (x - edge0) / span))
            return t * t * (3 - 2 * t)
        }
    }

    /// The fill's ramp, or the halo's outer ramp.
    var ramp: Ramp
    /// The halo's inner ramp (the glyph itself left clear); unused for a fill.
    var inner: Ramp
    /// Whether this is the halo's alpha.
    var isHalo: Bool

    /// The fill's alpha (``SDFText/fillAlpha(distance:fontScale:pixelRatio:gammaScale:)``).
    static func fill(fontScale: Double, pixelRatio: Double) -> SDFAlpha {
        let gamma = SDFText.edgeGamma / max(pixelRatio, 1e-6) / max(fontScale, 1e-6)
        let ramp = Ramp(SDFText.edge - gamma, SDFText.edge + gamma)
        return SDFAlpha(ramp: ramp, inner: ramp, isHalo: false)
    }

    /// The halo's alpha (``SDFText/haloAlpha(distance:fontScale:pixelRatio:haloWidth:haloBlur:gammaScale:)``).
    static func halo(fontScale: Double, pixelRatio: Double, haloWidth: Double, haloBlur: Double) -> SDFAlpha {
        let scale = max(fontScale, 1e-6)
        let gamma =
            (max(0, haloBlur) * 1.19 / SDFText.sdfPixels + SDFText.edgeGamma / max(pixelRatio, 1e-6)) / scale
        let edge = SDFText.edge
        let outerEdge = (6 - max(0, haloWidth) / scale) / SDFText.sdfPixels
        return SDFAlpha(
            ramp: Ramp(outerEdge - gamma, outerEdge + gamma), inner: Ramp(edge + gamma - gamma, edge + gamma + gamma),
            isHalo: true)
    }

    /// The alpha at SDF value `distance`, `0…1`.
    @inline(__always) func callAsFunction(_ distance: Double) -> Double {
        let outer = ramp(distance)
        guard isHalo else { return outer }
        return min(outer, 1 - inner(distance))
    }
}

/// `v.rounded(.down)` as an integer, for finite `v` within ±2⁵² (the mask's texel coordinates): without a call to the
/// C library's `floor`, and (within ±2⁵⁰) without a checked conversion: adding 1.5 × 2⁵² rounds `v` to the nearest
/// integer `n`, held exactly in the sum's low bits, and `n − 1` is the floor when `n > v`.
@inline(__always) private func floorInt(_ v: Double) -> Int {
    let magic = 6_755_399_441_055_744.0
    guard abs(v) < 1_125_899_906_842_624 else {
        let i = Int(v)
        return Double(i) > v ? i - 1 : i
    }
    let sum = v + magic
    let nearest = Int(truncatingIfNeeded: sum.bitPattern &- magic.bitPattern)
    return sum - magic > v ? nearest - 1 : nearest
}

/// `v.rounded()` (halves away from zero) for `v` in `0…2⁵²`, as an integer: without a call to the C library's `round`
/// (the fraction `v − ⌊v⌋` is exact there, so halves are found exactly).
@inline(__always) private func roundedHalfUp(_ v: Double) -> Int {
    let i = Int(v)
    return v - Double(i) >= 0.5 ? i + 1 : i
}

/// `roundedHalfUp(v)` for `v` in `0…255` (a coverage × 255) without a checked conversion: adding 2⁵² rounds `v` to
/// the nearest integer `n` (halves to even), held exactly in the sum's low bits; a half below it (`v − n` is exact
/// there) goes up to `n + 1`.
@inline(__always) private func roundedHalfUpByte(_ v: Double) -> Int {
    let magic = 4_503_599_627_370_496.0
    let sum = v + magic
    let nearest = Int(truncatingIfNeeded: sum.bitPattern &- magic.bitPattern)
    return v - (sum - magic) == 0.5 ? nearest + 1 : nearest
}

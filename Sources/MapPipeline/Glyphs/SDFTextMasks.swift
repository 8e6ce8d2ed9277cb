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
    /// Each quad's glyph is interned and its masks looked up (drawn on a miss) before the next quad's.
    private static func glyphMasks(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, drawHalo: Bool, drawFill: Bool,
        masks: GlyphMaskCache
    ) -> (halos: [GlyphRunCommand.Mask], fills: [GlyphRunCommand.Mask])? {
        guard
            let paint = MaskPaint(
                quads, style: style, fontScale: fontScale, pixelRatio: pixelRatio, drawHalo: drawHalo,
                drawFill: drawFill, masks: masks)
        else { return nil }
        var halos: [GlyphRunCommand.Mask] = []
        var fills: [GlyphRunCommand.Mask] = []
        halos.reserveCapacity(drawHalo ? quads.count : 0)
        fills.reserveCapacity(drawFill ? quads.count : 0)
        for q in quads {
            guard let glyph = q.glyph, let place = MaskPlace(q, glyph: glyph, paint: paint.id, masks: masks) else {
                continue
            }
            let entry = masks.masks(place.key) { paint.entry(glyph, at: place) }
            paint.append(entry, at: place, halos: &halos, fills: &fills)
        }
        return (halos, fills)
    }

    /// A label's glyph paint as its masks are kept and placed: the paint's interned integer (one entry a glyph: its
    /// halo and fill masks together when the halo is drawn, drawn from one sampling of the field, else its fill's
    /// alone), the two alphas and the colours.
    struct MaskPaint {
        var id: UInt32
        var color: RGBAColor
        var haloColor: RGBAColor
        var pixelRatio: Double
        var drawHalo: Bool
        var drawFill: Bool
        var fillAlpha: SDFAlpha
        var haloAlpha: SDFAlpha

        /// The paint of `quads` (its integer interned in `masks`); `nil` when the pixel ratio is not positive and
        /// finite or a quad is not a glyph's.
        init?(
            _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, drawHalo: Bool, drawFill: Bool,
            masks: GlyphMaskCache
        ) {
            guard pixelRatio > 0, pixelRatio.isFinite, !quads.contains(where: { $0.glyph == nil }) else { return nil }
            id =
                drawHalo
                ? masks.paintID(
                    halo: true, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth,
                    haloBlur: style.haloBlur)
                : masks.paintID(halo: false, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: 0, haloBlur: 0)
            color = style.color
            haloColor = style.haloColor
            self.pixelRatio = pixelRatio
            self.drawHalo = drawHalo
            self.drawFill = drawFill
            fillAlpha = SDFAlpha.fill(fontScale: fontScale, pixelRatio: pixelRatio)
            haloAlpha = SDFAlpha.halo(
                fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth, haloBlur: style.haloBlur)
        }

        /// The masks of `glyph` at `place`'s key's map and phase
        /// (``maskEntry(glyph:local:halo:haloAlpha:fillAlpha:)``).
        func entry(_ glyph: SDFGlyph, at place: MaskPlace) -> GlyphMaskCache.Masks {
            SDFText.maskEntry(
                glyph: glyph, local: place.local, halo: drawHalo, haloAlpha: haloAlpha, fillAlpha: fillAlpha)
        }

        /// Appends `entry`'s halo (when drawn) and fill (when drawn) at `place`'s device pixel, cut by the quad's exact
        /// edges where they are composited.
        func append(
            _ entry: GlyphMaskCache.Masks, at place: MaskPlace, halos: inout [GlyphRunCommand.Mask],
            fills: inout [GlyphRunCommand.Mask]
        ) {
            func placed(_ mask: GlyphMaskCache.Mask, color: RGBAColor, into list: inout [GlyphRunCommand.Mask]) {
                guard mask.width > 0, mask.height > 0 else { return }
                list.append(
                    GlyphRunCommand.Mask(
                        coverage: mask.coverage, x: place.x + mask.x, y: place.y + mask.y, width: mask.width,
                        height: mask.height, color: color, clip: place.clip, clipWidth: place.clipWidth,
                        clipHeight: place.clipHeight))
            }
            if drawHalo { placed(entry.halo, color: haloColor, into: &halos) }
            if drawFill { placed(entry.fill, color: place.color ?? color, into: &fills) }
        }
    }

    /// A glyph quad's masks' key and device place: its translation split into a whole device pixel `(x, y)` and a
    /// phase rounded to 1 / ``GlyphMaskCache/phaseSteps`` pixel (the key's), the key's map with that phase as its
    /// translation (`local`), and the quad's exact edges (`clip`, from device pixels, and its size there).
    struct MaskPlace {
        var key: GlyphMaskCache.Key
        var local: RenderTransform
        var x: Int
        var y: Int
        var clip: RenderTransform
        var clipWidth: Double
        var clipHeight: Double
        /// The quad's own fill colour, if any.
        var color: RGBAColor?

        /// The place of `q`, a quad of `glyph`, under paint `paint` (the glyph interned in `masks`); `nil` for a quad
        /// that draws nothing (a map not finite or not invertible, a translation beyond ±10⁹ pixels).
        init?(_ q: Quad, glyph: SDFGlyph, paint: UInt32, masks: GlyphMaskCache) {
            guard q.transform.isFinite else { return nil }
            let t = q.transform
            guard let inverse = t.inverted, abs(t.tx) < 1e9, abs(t.ty) < 1e9 else { return nil }
            let steps = GlyphMaskCache.phaseSteps
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
            key = GlyphMaskCache.Key(
                a: t.a, b: t.b, c: t.c, d: t.d, glyph: masks.glyphID(glyph), paint: paint, phaseX: UInt8(phaseX),
                phaseY: UInt8(phaseY))
            local = RenderTransform(
                a: t.a, b: t.b, c: t.c, d: t.d, tx: Double(phaseX) / Double(steps), ty: Double(phaseY) / Double(steps))
            (x, y) = (Int(wholeX), Int(wholeY))
            clip = inverse
            (clipWidth, clipHeight) = (Double(q.width), Double(q.height))
            color = q.color
        }
    }

    /// The masks a ``GlyphMaskCache`` entry holds for `glyph` at `local` (its key's map, with the phase as the
    /// translation): its halo's under `haloAlpha` and its fill's under `fillAlpha` from one sampling of the field when
    /// `halo`, else its fill's alone (an empty halo). Pure: the same masks for the same arguments, on any thread.
    static func maskEntry(
        glyph: SDFGlyph, local: RenderTransform, halo: Bool, haloAlpha: SDFAlpha, fillAlpha: SDFAlpha
    ) -> GlyphMaskCache.Masks {
        if halo {
            let pair = coverageMasks(glyph: glyph, transform: local, alpha: haloAlpha, second: fillAlpha)
            return GlyphMaskCache.Masks(halo: pair.first, fill: pair.second)
        }
        let fill = coverageMasks(glyph: glyph, transform: local, alpha: fillAlpha, second: nil).first
        return GlyphMaskCache.Masks(
            halo: GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0), fill: fill)
    }

    /// The coverage of `glyph`'s quad under `transform` (texels of the glyph's padded field → device pixels) as
    /// ``render(_:style:fontScale:pixelRatio:passes:)`` draws it, `alpha` of the field sampled bilinearly at each
    /// device pixel's centre (0 outside the field), over the pixels whose centres the quad covers and one more all
    /// round (the quad's edges are left to the blending, which knows the quad's exact place), cropped to its covered
    /// pixels; and, when `second` is given, `second`'s coverage from the same samples of the field (a glyph's halo
    /// and fill masks at one phase: the field is sampled once for both), else an empty second mask.
    ///
    /// Only the pixels that can be covered are sampled: a pixel whose four texels all lie at or below the field's
    /// "cold" byte (``coldTexel(_:_:)``, where both alphas are 0 for certain) is 0 in both masks without being
    /// sampled, and the covered pixels' coverage is worked out a row at a time without branches. `everyPixel` samples
    /// every pixel of the box one by one instead (the reference the tests compare with; the same bytes).
    static func coverageMasks(
        glyph: SDFGlyph, transform t: RenderTransform, alpha: SDFAlpha, second: SDFAlpha?, everyPixel: Bool = false
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
        if !everyPixel, let cold = coldTexel(alpha, second) {
            return skippingCoverageMasks(
                glyph: glyph, inverse: inverse, box: (px0, py0, mw, mh), alpha: alpha, second: second, cold: cold)
        }
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
                centreProducts(inverse, box: (px0, py0, mw, mh), columnA, columnB, rowC, rowD)
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

    /// The greatest field byte `m ≥ 0` such that a bilinear sample of four texels none above `m` gives coverage 0
    /// under `alpha` and `second` for certain: the sample is at most `m / 255` (times `1 + 10⁻⁹`, far beyond the
    /// rounding of its products and sums), below the ramp's lower edge, where the fill's alpha and the halo's outer
    /// ramp (so the halo) are 0. `nil` when there is none (an alpha not 0 at distance 0, or an edge not finite).
    static func coldTexel(_ alpha: SDFAlpha, _ second: SDFAlpha?) -> UInt8? {
        let edge = min(alpha.ramp.edge0, second?.ramp.edge0 ?? alpha.ramp.edge0)
        guard edge.isFinite, edge > 0 else { return nil }
        var m = Int(min(255, (edge * 255).rounded(.down)))
        while m >= 0 && !(Double(m) / 255 * (1 + 1e-9) < edge) { m -= 1 }
        return m >= 0 ? UInt8(m) : nil
    }

    /// ``coverageMasks(glyph:transform:alpha:second:everyPixel:)`` over the device pixels `box` (left, top, width,
    /// height), `inverse` mapping device pixels to the padded field's texels, with `cold` from ``coldTexel(_:_:)``:
    /// each texel row's span of bytes above `cold` is found first, and only the pixels that sample a texel in a span
    /// are sampled (the others are 0 in both masks); each row's samples are then turned into coverage bytes in one
    /// loop without branches (the same operations as ``SDFAlpha`` and the byte rounding).
    private static func skippingCoverageMasks(
        glyph: SDFGlyph, inverse: RenderTransform, box area: (x: Int, y: Int, width: Int, height: Int),
        alpha: SDFAlpha, second: SDFAlpha?, cold: UInt8
    ) -> (first: GlyphMaskCache.Mask, second: GlyphMaskCache.Mask) {
        let (px0, py0, mw, mh) = area
        let bw = glyph.width + 2 * GlyphPBF.border
        let bh = glyph.height + 2 * GlyphPBF.border
        // The field with its padding ring (texel (i, j) at j × pw + i), so that a sample needs no edge tests.
        let pw = bw + 2
        let ph = bh + 2
        let paired = second != nil
        var coverage = [UInt8](repeating: 0, count: mw * mh)
        var coverage2 = [UInt8](repeating: 0, count: paired ? mw * mh : 0)
        var box = CoveredBox()
        var box2 = CoveredBox()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pw * ph) { fieldBuffer in
            let field = fieldBuffer.baseAddress!
            field.initialize(repeating: 0, count: pw * ph)
            glyph.bitmap.withUnsafeBufferPointer { bitmap in
                for j in 0..<bh { (field + (j + 1) * pw + 1).update(from: bitmap.baseAddress! + j * bw, count: bw) }
            }
            // By texel row: the first and last texel above `cold` (an empty span `lo > hi` for a row without one).
            let (emptyLo, emptyHi) = (Int.max / 4, Int.min / 4)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * ph + mw) { integers in
                let (lo, hi) = (integers.baseAddress!, integers.baseAddress! + ph)
                let columnIX = integers.baseAddress! + 2 * ph
                for j in 0..<ph {
                    let row = field + j * pw
                    var l = 1
                    while l <= bw && row[l] <= cold { l += 1 }
                    var h = bw
                    while h >= l && row[h] <= cold { h -= 1 }
                    (lo[j], hi[j]) = l <= h ? (l, h) : (emptyLo, emptyHi)
                }
                @inline(__always) func span(_ j: Int) -> (lo: Int, hi: Int) {
                    j >= 0 && j < ph ? (lo[j], hi[j]) : (emptyLo, emptyHi)
                }
                // The box of the texels above `cold`: a sample whose texel position lies half a texel or more outside
                // it by one more texel (its four texels all outside) is 0 for certain.
                var hot = (minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min)
                for j in 0..<ph where lo[j] <= hi[j] {
                    hot = (min(hot.minX, lo[j]), max(hot.maxX, hi[j]), min(hot.minY, j), max(hot.maxY, j))
                }
                let hotX = (Double(hot.minX) - 1.5, Double(hot.maxX) + 1.5)
                let hotY = (Double(hot.minY) - 1.5, Double(hot.maxY) + 1.5)
                guard hot.minX <= hot.maxX else { return }
                withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * mw + 2 * mh) { doublesBuffer in
                    let doubles = doublesBuffer.baseAddress!
                    // As in the every-pixel sampling: the centres' products with the inverse's linear part.
                    let (columnA, columnB) = (doubles, doubles + mw)
                    let (rowC, rowD) = (doubles + 2 * mw, doubles + 2 * mw + mh)
                    let (columnTX, distances) = (doubles + 2 * mw + 2 * mh, doubles + 3 * mw + 2 * mh)
                    centreProducts(inverse, box: (px0, py0, mw, mh), columnA, columnB, rowC, rowD)
                    let axisAligned = inverse.b == 0 && inverse.c == 0
                    do {
                        if axisAligned {
                            for column in 0..<mw {
                                let fx = columnA[column] + rowC[0] + inverse.tx - 0.5
                                let ix = floorInt(fx)
                                columnIX[column] = ix
                                columnTX[column] = fx - Double(ix)
                            }
                        }
                        // The sample at texel `(ix + tx, iy + ty) + 0.5`, its four texels inside the padded field.
                        @inline(__always) func sample(_ ix: Int, _ iy: Int, _ tx: Double, _ ty: Double) -> Double {
                            let o = iy * pw + ix
                            let (t00, t10) = (Double(field[o]), Double(field[o + 1]))
                            let (t01, t11) = (Double(field[o + pw]), Double(field[o + pw + 1]))
                            let top = t00 * (1 - tx) + t10 * tx
                            let bottom = t01 * (1 - tx) + t11 * tx
                            return (top * (1 - ty) + bottom * ty) / 255
                        }
                        coverage.withUnsafeMutableBufferPointer { coverage in
                            coverage2.withUnsafeMutableBufferPointer { coverage2 in
                                for row in 0..<mh {
                                    // The row's sampled columns `first...last`; columns between them not sampled are 0.
                                    var first = mw
                                    var last = -1
                                    if axisAligned {
                                        let fy = columnB[0] + rowD[row] + inverse.ty - 0.5
                                        let iy = floorInt(fy)
                                        let ty = fy - Double(iy)
                                        let (s0, s1) = (span(iy), span(iy + 1))
                                        let (l, h) = (min(s0.lo, s1.lo), max(s0.hi, s1.hi))
                                        guard l <= h else { continue }
                                        let fx0 = columnA[0] + rowC[0] + inverse.tx - 0.5
                                        let (from, to) = sampledColumns(
                                            inverse.a, fx0, Double(l) - 1.5, Double(h) + 1.5, mw)
                                        guard from <= to else { continue }
                                        for column in from...to {
                                            let ix = columnIX[column]
                                            guard ix + 1 >= l && ix <= h else {
                                                distances[column] = 0
                                                continue
                                            }
                                            distances[column] = sample(ix, iy, columnTX[column], ty)
                                            first = min(first, column)
                                            last = column
                                        }
                                    } else {
                                        let (c, d) = (rowC[row], rowD[row])
                                        // Columns outside these sample outside the hot box.
                                        let x0 = inverse.a * (Double(px0) + 0.5) + c + inverse.tx - 0.5
                                        let y0 = inverse.b * (Double(px0) + 0.5) + d + inverse.ty - 0.5
                                        let byX = sampledColumns(inverse.a, x0, hotX.0, hotX.1, mw)
                                        let byY = sampledColumns(inverse.b, y0, hotY.0, hotY.1, mw)
                                        let (from, to) = (max(byX.from, byY.from), min(byX.to, byY.to))
                                        guard from <= to else { continue }
                                        for column in from...to {
                                            let fx = columnA[column] + c + inverse.tx - 0.5
                                            let fy = columnB[column] + d + inverse.ty - 0.5
                                            let ix = floorInt(fx)
                                            let iy = floorInt(fy)
                                            let (s0, s1) = (span(iy), span(iy + 1))
                                            guard (ix + 1 >= s0.lo && ix <= s0.hi) || (ix + 1 >= s1.lo && ix <= s1.hi)
                                            else {
                                                distances[column] = 0
                                                continue
                                            }
                                            distances[column] = sample(ix, iy, fx - Double(ix), fy - Double(iy))
                                            first = min(first, column)
                                            last = column
                                        }
                                    }
                                    guard first <= last else { continue }
                                    let count = last - first + 1
                                    let out = coverage.baseAddress! + row * mw
                                    coverageBytes(alpha, distances + first, out + first, count)
                                    box.add(CoveredLine(out, first...last), row: row)
                                    if let second {
                                        let out2 = coverage2.baseAddress! + row * mw
                                        coverageBytes(second, distances + first, out2 + first, count)
                                        box2.add(CoveredLine(out2, first...last), row: row)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let empty = GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0)
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

extension CoveredLine {
    /// The line of the bytes `row[columns]`: its first and last byte not 0.
    @inline(__always) init(_ row: UnsafeMutablePointer<UInt8>, _ columns: ClosedRange<Int>) {
        var l = columns.lowerBound
        while l <= columns.upperBound && row[l] == 0 { l += 1 }
        guard l <= columns.upperBound else { return }
        var r = columns.upperBound
        while row[r] == 0 { r -= 1 }
        (left, right) = (l, r)
    }
}

/// The products of the pixel centres of `box` (device pixels: its first column and row, its width and height) with
/// `inverse`'s linear part: `a·x` and `b·x` by column into `columnA`/`columnB`, `c·y` and `d·y` by row into
/// `rowC`/`rowD` (a centre's texel position is their sums with the translation, added in the order
/// `RenderTransform.apply(to:)` adds them).
@inline(__always) private func centreProducts(
    _ inverse: RenderTransform, box: (x: Int, y: Int, width: Int, height: Int),
    _ columnA: UnsafeMutablePointer<Double>, _ columnB: UnsafeMutablePointer<Double>,
    _ rowC: UnsafeMutablePointer<Double>, _ rowD: UnsafeMutablePointer<Double>
) {
    for column in 0..<box.width {
        let cx = Double(box.x + column) + 0.5
        columnA[column] = inverse.a * cx
        columnB[column] = inverse.b * cx
    }
    for row in 0..<box.height {
        let cy = Double(box.y + row) + 0.5
        rowC[row] = inverse.c * cy
        rowD[row] = inverse.d * cy
    }
}

/// `count` coverage bytes of `alpha` at the samples `distances`: `coverageByte(alpha(distance))` each (the same
/// operations), four samples at a time with their cases chosen by selection instead of branches.
@inline(__always) private func coverageBytes(
    _ alpha: SDFAlpha, _ distances: UnsafePointer<Double>, _ out: UnsafeMutablePointer<UInt8>, _ count: Int
) {
    if alpha.ramp.isStep || (alpha.isHalo && alpha.inner.isStep) {
        for k in 0..<count { out[k] = coverageByte(alpha(distances[k])) }
        return
    }
    let outer = alpha.ramp
    let inner = alpha.inner
    let raw = UnsafeRawPointer(distances)
    var k = 0
    if alpha.isHalo {
        while k &+ 4 <= count {
            let x = raw.loadUnaligned(fromByteOffset: k &* 8, as: SIMD4<Double>.self)
            let o = smooth4(outer, x)
            let i = 1 - smooth4(inner, x)
            var value = o
            value.replace(with: i, where: i .< o)
            storeCoverageBytes4(value, out + k)
            k &+= 4
        }
        while k < count {
            let x = distances[k]
            out[k] = selectedCoverageByte(min(smooth(outer, x), 1 - smooth(inner, x)))
            k &+= 1
        }
    } else {
        while k &+ 4 <= count {
            storeCoverageBytes4(
                smooth4(outer, raw.loadUnaligned(fromByteOffset: k &* 8, as: SIMD4<Double>.self)), out + k)
            k &+= 4
        }
        while k < count {
            out[k] = selectedCoverageByte(smooth(outer, distances[k]))
            k &+= 1
        }
    }
}

/// ``smooth(_:_:)`` for four samples: each lane the same operations and choices.
@inline(__always) private func smooth4(_ ramp: SDFAlpha.Ramp, _ x: SIMD4<Double>) -> SIMD4<Double> {
    // `min(1, max(0, v))` as Swift's `max` and `min` choose (`v >= 0 ? v : 0`, then `t < 1 ? t : 1`).
    let v = (x - ramp.edge0) / ramp.span
    var t = v
    t.replace(with: 0, where: .!(v .>= 0))
    let clamped = t
    t.replace(with: 1, where: .!(clamped .< 1))
    var result = t * t * (3 - 2 * t)
    result.replace(with: 1, where: x .>= ramp.edge1)
    result.replace(with: 0, where: x .<= ramp.edge0)
    return result
}

/// ``selectedCoverageByte(_:)`` of four values, stored at `out`.
@inline(__always) private func storeCoverageBytes4(_ value: SIMD4<Double>, _ out: UnsafeMutablePointer<UInt8>) {
    let v = value * 255
    let magic = 4_503_599_627_370_496.0
    let sum = v + magic
    let nearest =
        unsafeBitCast(sum, to: SIMD4<Int64>.self) &- Int64(bitPattern: magic.bitPattern)
    var rounded = nearest
    rounded.replace(with: nearest &+ 1, where: v - (sum - magic) .== 0.5)
    rounded.replace(with: 255, where: rounded .> 255)
    rounded.replace(with: 0, where: .!(value .> 0))
    let bytes = SIMD4<UInt8>(truncatingIfNeeded: rounded)
    UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
}

/// `ramp(x)` for a ramp that is not a step, its cases chosen by selection instead of branches.
@inline(__always) private func smooth(_ ramp: SDFAlpha.Ramp, _ x: Double) -> Double {
    let t = min(1, max(0, (x - ramp.edge0) / ramp.span))
    let cubic = t * t * (3 - 2 * t)
    return x <= ramp.edge0 ? 0 : (x >= ramp.edge1 ? 1 : cubic)
}

/// `coverageByte(value)` with its cases chosen by selection instead of branches (the same result for every value:
/// above 1 the rounding is at least 255 and clamped, below the byte range the value is not above 0).
@inline(__always) private func selectedCoverageByte(_ value: Double) -> UInt8 {
    let v = value * 255
    let magic = 4_503_599_627_370_496.0
    let sum = v + magic
    let nearest = Int64(bitPattern: sum.bitPattern &- magic.bitPattern)
    let rounded = v - (sum - magic) == 0.5 ? nearest &+ 1 : nearest
    let byte = UInt8(truncatingIfNeeded: min(255, rounded))
    return value > 0 ? byte : 0
}

/// The mask columns `u` in `0..<width` where `k × u + base` (a sample's texel coordinate along a mask row, worked out
/// without the rounding of the per-column products) may lie in `[low, high]`, widened by a column each way (far beyond
/// rounding error); `from > to` when none.
@inline(__always) private func sampledColumns(_ k: Double, _ base: Double, _ low: Double, _ high: Double, _ width: Int)
    -> (from: Int, to: Int)
{
    guard k != 0 else { return base >= low - 1e-6 && base <= high + 1e-6 ? (0, width - 1) : (1, 0) }
    var (u0, u1) = ((low - base) / k, (high - base) / k)
    if k < 0 { (u0, u1) = (u1, u0) }
    // NaN keeps the whole row (`max` and `min` return their first argument then).
    u0 = max(0, (u0 - 1).rounded(.down))
    u1 = min(Double(width - 1), (u1 + 1).rounded(.up))
    guard u0 <= u1 else { return (1, 0) }
    return (Int(u0), Int(u1))
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

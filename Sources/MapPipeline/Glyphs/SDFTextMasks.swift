import MapData
import MapDrawing
import MapGeometry

extension SDFText {
    /// ``render(_:style:fontScale:pixelRatio:passes:)`` from the glyphs' coverage masks in `masks`: each glyph quad's
    /// halo and fill coverage is drawn once per glyph, linear map, paint and sub-pixel phase (``GlyphMaskCache``),
    /// then blended into the label's image in the same order (every halo, then every fill, premultiplied
    /// source-over). Quads that are not a glyph's (``Quad/glyph`` `nil`) send the whole label to the uncached path.
    static func render(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, passes: Passes = .both,
        masks: GlyphMaskCache
    ) -> Image? {
        let hasHalo = style.haloWidth > 0 && style.haloColor.alpha > 0
        if passes == .halo && !hasHalo { return nil }
        guard quads.allSatisfy({ $0.glyph != nil }) else {
            return render(quads, style: style, fontScale: fontScale, pixelRatio: pixelRatio, passes: passes)
        }
        let drawHalo = passes != .fill && hasHalo
        let drawFill = passes != .halo
        struct Placed {
            var mask: GlyphMaskCache.Mask
            var x: Int
            var y: Int
            var color: RGBAColor
            /// Device pixels → the quad's texels (exact), and the quad's size in texels: a pixel is drawn when its
            /// centre lies inside the quad at its exact place.
            var inverse: RenderTransform
            var width: Double
            var height: Double
        }
        var halos: [Placed] = []
        var fills: [Placed] = []
        var box = PixelBox()
        for q in quads {
            guard let glyph = q.glyph, q.transform.isFinite else { continue }
            let t = q.transform
            guard let inverse = t.inverted, abs(t.tx) < 1e9, abs(t.ty) < 1e9 else { continue }
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
            var key = GlyphMaskCache.Key(
                glyph: glyph, a: t.a, b: t.b, c: t.c, d: t.d, phaseX: phaseX, phaseY: phaseY, halo: false,
                fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: 0, haloBlur: 0)
            let local = RenderTransform(
                a: t.a, b: t.b, c: t.c, d: t.d, tx: Double(phaseX) / Double(steps), ty: Double(phaseY) / Double(steps))
            func place(_ mask: GlyphMaskCache.Mask, color: RGBAColor, into list: inout [Placed]) {
                guard mask.width > 0, mask.height > 0 else { return }
                let x = Int(wholeX) + mask.x
                let y = Int(wholeY) + mask.y
                box.include(x: x, y: y, width: mask.width, height: mask.height)
                list.append(
                    Placed(
                        mask: mask, x: x, y: y, color: color, inverse: inverse, width: Double(q.width),
                        height: Double(q.height)))
            }
            if drawHalo {
                key.halo = true
                key.haloWidth = style.haloWidth
                key.haloBlur = style.haloBlur
                let mask = masks.mask(key) {
                    coverageMask(glyph: glyph, transform: local) {
                        haloAlpha(
                            distance: $0, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth,
                            haloBlur: style.haloBlur)
                    }
                }
                place(mask, color: style.haloColor, into: &halos)
            }
            if drawFill {
                key.halo = false
                key.haloWidth = 0
                key.haloBlur = 0
                let mask = masks.mask(key) {
                    coverageMask(glyph: glyph, transform: local) {
                        fillAlpha(distance: $0, fontScale: fontScale, pixelRatio: pixelRatio)
                    }
                }
                place(mask, color: q.color ?? style.color, into: &fills)
            }
        }
        guard let (minX, minY, width, height) = box.extent else { return nil }
        guard width <= maxImageSide, height <= maxImageSide else { return nil }
        var buffer = [Float](repeating: 0, count: width * height * 4)
        buffer.withUnsafeMutableBufferPointer { buffer in
            for p in [halos, fills].joined() {
                let color = p.color
                let r = Float(color.red * color.alpha)
                let g = Float(color.green * color.alpha)
                let b = Float(color.blue * color.alpha)
                let a = Float(color.alpha)
                guard a > 0 else { continue }
                let mw = p.mask.width
                let inverse = p.inverse
                let (qw, qh) = (p.width, p.height)
                p.mask.coverage.withUnsafeBufferPointer { coverage in
                    for row in 0..<p.mask.height {
                        var o = ((p.y - minY + row) * width + (p.x - minX)) * 4
                        let cy = Double(p.y + row) + 0.5
                        var cx = Double(p.x) + 0.5
                        for i in (row * mw)..<(row * mw + mw) {
                            defer {
                                o += 4
                                cx += 1
                            }
                            let byte = coverage[i]
                            guard byte > 0 else { continue }
                            // The quad's edges at their exact place (the mask is drawn a pixel wider all round).
                            let u = inverse.a * cx + inverse.c * cy + inverse.tx
                            let v = inverse.b * cx + inverse.d * cy + inverse.ty
                            guard u >= 0, v >= 0, u < qw, v < qh else { continue }
                            let cov = Float(byte) / 255
                            let keep = 1 - a * cov
                            buffer[o] = b * cov + buffer[o] * keep
                            buffer[o + 1] = g * cov + buffer[o + 1] * keep
                            buffer[o + 2] = r * cov + buffer[o + 2] * keep
                            buffer[o + 3] = a * cov + buffer[o + 3] * keep
                        }
                    }
                }
            }
        }
        // Bytes rounded to nearest (halves to even) without a branch: a value in 0…255 added to 1.5 · 2²³ is
        // rounded to a whole number held in the float's low mantissa bits (the blend keeps every channel in 0…1).
        let pixels = [UInt8](unsafeUninitializedCapacity: buffer.count) { out, initialized in
            buffer.withUnsafeBufferPointer { buffer in
                for i in 0..<buffer.count {
                    let v = min(max(buffer[i] * 255, 0), 255) + 12_582_912
                    out[i] = UInt8(truncatingIfNeeded: v.bitPattern)
                }
            }
            initialized = buffer.count
        }
        return Image(image: RasterImage(width: width, height: height, scale: 1, pixels: pixels), x: minX, y: minY)
    }

    /// The coverage of `glyph`'s quad under `transform` (texels of the glyph's padded field → device pixels) as
    /// ``render(_:style:fontScale:pixelRatio:passes:)`` draws it, `alpha` of the field sampled bilinearly at each
    /// device pixel's centre (0 outside the field), over the pixels whose centres the quad covers and one more all
    /// round: the quad's edges are left to the blending, which knows the quad's exact place.
    static func coverageMask(glyph: SDFGlyph, transform t: RenderTransform, alpha: (Double) -> Double)
        -> GlyphMaskCache.Mask
    {
        let empty = GlyphMaskCache.Mask(coverage: [], x: 0, y: 0, width: 0, height: 0)
        // The bitmap with MapLibre's one-texel atlas padding (``Quad/init(glyph:transform:)``), sampled in place.
        let bw = glyph.width + 2 * GlyphPBF.border
        let bh = glyph.height + 2 * GlyphPBF.border
        guard !glyph.bitmap.isEmpty, glyph.bitmap.count == bw * bh else { return empty }
        guard let inverse = t.inverted else { return empty }
        let (qMinX, qMinY, qMaxX, qMaxY) = t.bounds(ofWidth: Double(bw + 2), height: Double(bh + 2))
        // A pixel more all round than the pixels whose centres the quad covers: the label's quad lies up to half a
        // phase step from this one, and its edges are applied where the mask is blended.
        let px0 = Int((qMinX - 0.5).rounded(.up)) - 1
        let px1 = Int((qMaxX - 0.5).rounded(.down)) + 1
        let py0 = Int((qMinY - 0.5).rounded(.up)) - 1
        let py1 = Int((qMaxY - 0.5).rounded(.down)) + 1
        guard px0 <= px1, py0 <= py1 else { return empty }
        let mw = px1 - px0 + 1
        let mh = py1 - py0 + 1
        guard mw <= maxImageSide, mh <= maxImageSide else { return empty }
        var coverage = [UInt8](repeating: 0, count: mw * mh)
        glyph.bitmap.withUnsafeBufferPointer { bitmap in
            // Texel (i, j) of the padded field → its byte, 0 on the padding and outside.
            @inline(__always) func texel(_ i: Int, _ j: Int) -> Double {
                guard i >= 1, j >= 1, i <= bw, j <= bh else { return 0 }
                return Double(bitmap[(j - 1) * bw + i - 1])
            }
            for py in py0...py1 {
                for px in px0...px1 {
                    let centre = inverse.apply(to: ScreenPoint(x: Double(px) + 0.5, y: Double(py) + 0.5))
                    let fx = centre.x - 0.5
                    let fy = centre.y - 0.5
                    let ix = Int(fx.rounded(.down))
                    let iy = Int(fy.rounded(.down))
                    let tx = fx - Double(ix)
                    let ty = fy - Double(iy)
                    let top = texel(ix, iy) * (1 - tx) + texel(ix + 1, iy) * tx
                    let bottom = texel(ix, iy + 1) * (1 - tx) + texel(ix + 1, iy + 1) * tx
                    let value = alpha((top * (1 - ty) + bottom * ty) / 255)
                    guard value > 0 else { continue }
                    coverage[(py - py0) * mw + px - px0] = UInt8(min(255, (value * 255).rounded()))
                }
            }
        }
        // Cropped to the covered pixels (a mask without any is empty): smaller masks and label images.
        var (left, top, right, bottom) = (mw, mh, -1, -1)
        for row in 0..<mh {
            for column in 0..<mw where coverage[row * mw + column] > 0 {
                left = min(left, column)
                right = max(right, column)
                top = min(top, row)
                bottom = max(bottom, row)
            }
        }
        guard right >= left, bottom >= top else { return empty }
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

/// The device-pixel box the placed glyph masks of one label cover (grown by each mask; empty at first).
private struct PixelBox {
    private var minX = Int.max
    private var minY = Int.max
    private var maxX = Int.min
    private var maxY = Int.min

    /// Grows the box over the `width` × `height` pixels at (`x`, `y`).
    mutating func include(x: Int, y: Int, width: Int, height: Int) {
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x + width)
        maxY = max(maxY, y + height)
    }

    /// The box's origin and size in device pixels, or `nil` while it covers nothing.
    var extent: (x: Int, y: Int, width: Int, height: Int)? {
        guard minX < maxX, minY < maxY else { return nil }
        return (minX, minY, maxX - minX, maxY - minY)
    }
}

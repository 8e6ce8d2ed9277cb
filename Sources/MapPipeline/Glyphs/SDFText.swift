import MapData
import MapDrawing
import MapGeometry

/// MapLibre's SDF text shader (`symbol_sdf.fragment.glsl`) on the CPU: how opaque a pixel of a glyph's fill or halo
/// is, from the signed distance the glyph's bitmap holds there, and the drawing of a label's glyph quads into a
/// premultiplied image. Waymark's own.
///
/// A glyph PBF's SDF bytes put the glyph's outline at 192 (``edge`` = 0.75 of 255); each unit of 1/255 is
/// 1/``sdfPixels`` of a 24-pixel em pixel further in (larger) or out (smaller).
public enum SDFText {
    /// SDF distance units per em pixel (`SDF_PX`).
    public static let sdfPixels = 8.0
    /// The outline in the SDF's 0…1 scale (`(256 − 64) / 256`).
    public static let edge = 0.75
    /// Half the width of the anti-aliased edge at a device pixel ratio of 1 and the 24-pixel em (`EDGE_GAMMA`).
    public static let edgeGamma = 0.105

    /// GLSL's `smoothstep`: 0 below `edge0`, 1 above `edge1`, a cubic between (`edge0 < edge1`).
    public static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        guard edge1 > edge0 else { return x < edge0 ? 0 : 1 }
        let t = min(1, max(0, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }

    /// The fill's alpha at SDF value `distance` (0…1): `smoothstep(0.75 − γ, 0.75 + γ, distance)` with
    /// `γ = 0.105 / pixelRatio / fontScale × gammaScale`.
    /// - Parameters:
    ///   - distance: the sampled SDF value, `0…1`.
    ///   - fontScale: `text-size / 24`, `> 0`.
    ///   - pixelRatio: device pixels per point, `> 0`.
    ///   - gammaScale: MapLibre's perspective widening of the edge; 1 for flat frames.
    /// - Returns: the coverage, `0…1`.
    public static func fillAlpha(distance: Double, fontScale: Double, pixelRatio: Double, gammaScale: Double = 1)
        -> Double
    {
        let gamma = edgeGamma / max(pixelRatio, 1e-6) / max(fontScale, 1e-6) * gammaScale
        return smoothstep(edge - gamma, edge + gamma, distance)
    }

    /// The halo's alpha at SDF value `distance`: from the halo's outer edge `(6 − haloWidth / fontScale) / 8` to
    /// just inside the glyph's outline (the halo leaves the glyph itself clear), with the edge widened by
    /// `haloBlur × 1.19 / 8` (MapLibre's halo pass).
    /// - Parameters:
    ///   - distance: the sampled SDF value, `0…1`.
    ///   - fontScale: `text-size / 24`, `> 0`.
    ///   - pixelRatio: device pixels per point, `> 0`.
    ///   - haloWidth: `text-halo-width`, points.
    ///   - haloBlur: `text-halo-blur`, points.
    ///   - gammaScale: as for ``fillAlpha(distance:fontScale:pixelRatio:gammaScale:)``.
    /// - Returns: the halo's coverage, `0…1`.
    public static func haloAlpha(
        distance: Double, fontScale: Double, pixelRatio: Double, haloWidth: Double, haloBlur: Double,
        gammaScale: Double = 1
    ) -> Double {
        let scale = max(fontScale, 1e-6)
        let gamma = (max(0, haloBlur) * 1.19 / sdfPixels + edgeGamma / max(pixelRatio, 1e-6)) / scale * gammaScale
        let inner = smoothstep(edge + gamma - gamma, edge + gamma + gamma, distance)
        let outerEdge = (6 - max(0, haloWidth) / scale) / sdfPixels
        return min(smoothstep(outerEdge - gamma, outerEdge + gamma, distance), 1 - inner)
    }

    /// A quad drawn from a distance field: the field's bytes (one a texel, rows top to bottom, 255 = 1) and the map
    /// from texel space (x right, y down, texel `(0, 0)`'s top-left corner at the origin) to device pixels.
    public struct Quad: Sendable {
        /// The field, `width × height` bytes.
        public var field: [UInt8]
        /// Texels a row.
        public var width: Int
        /// Rows.
        public var height: Int
        /// Texel space → device pixels.
        public var transform: RenderTransform
        /// The fill colour of this quad (a formatted label's run colour), or `nil` for the style's. Default `nil`.
        public var color: RGBAColor? = nil
        /// The glyph of a glyph's quad (its field is the glyph's bitmap padded), else `nil`.
        public internal(set) var glyph: SDFGlyph? = nil

        /// A quad over `field` (`width × height` bytes; a shorter field draws nothing).
        public init(field: [UInt8], width: Int, height: Int, transform: RenderTransform) {
            let ok = width > 0 && height > 0 && field.count >= width * height
            self.field = ok ? field : []
            self.width = ok ? width : 0
            self.height = ok ? height : 0
            self.transform = transform
        }

        /// A glyph's quad: its SDF bitmap with MapLibre's one-pixel atlas padding around it (so
        /// `(width + 8) × (height + 8)` texels, the outer ring 0). A glyph without a bitmap draws nothing.
        public init(glyph: SDFGlyph, transform: RenderTransform) {
            let w = glyph.width + 2 * GlyphPBF.border
            let h = glyph.height + 2 * GlyphPBF.border
            guard !glyph.bitmap.isEmpty, glyph.bitmap.count == w * h else {
                self.init(field: [], width: 0, height: 0, transform: transform)
                return
            }
            var padded = [UInt8](repeating: 0, count: (w + 2) * (h + 2))
            for row in 0..<h {
                padded.replaceSubrange(
                    ((row + 1) * (w + 2) + 1)..<((row + 1) * (w + 2) + 1 + w),
                    with: glyph.bitmap[(row * w)..<(row * w + w)])
            }
            self.init(field: padded, width: w + 2, height: h + 2, transform: transform)
            self.glyph = glyph
        }

        /// A glyph's quad as ``init(glyph:transform:)`` makes it, without its padded field (``SDFText``'s cached
        /// drawing samples the glyph's bitmap itself): `nil` for a glyph without a bitmap.
        init?(unpadded glyph: SDFGlyph, transform: RenderTransform) {
            let w = glyph.width + 2 * GlyphPBF.border
            let h = glyph.height + 2 * GlyphPBF.border
            guard !glyph.bitmap.isEmpty, glyph.bitmap.count == w * h else { return nil }
            field = []
            width = w + 2
            height = h + 2
            self.transform = transform
            self.glyph = glyph
        }
    }

    /// The texel map of a glyph whose pen position (on the baseline) is at `pen` in a label's local space (em
    /// pixels, x right, y down), with `local` mapping em pixels to device pixels.
    public static func quadTransform(glyph: SDFGlyph, pen: (x: Double, y: Double), local: RenderTransform)
        -> RenderTransform
    {
        // MapLibre's quad: 3-px SDF border plus 1-px padding left of `left` and above `top`.
        let x0 = pen.x + Double(glyph.left) - Double(GlyphPBF.border) - 1
        let y0 = pen.y - Double(glyph.top) - Double(GlyphPBF.border) - 1
        return RenderTransform.translation(x: x0, y: y0).concatenating(local)
    }

    /// A label drawn from its quads: premultiplied BGRA pixels and where their top-left pixel sits on the device
    /// grid.
    public struct Image: Sendable {
        /// The pixels (scale 1: one pixel a device pixel).
        public var image: RasterImage
        /// Device pixel column of the image's left edge.
        public var x: Int
        /// Device pixel row of the image's top edge.
        public var y: Int
    }

    /// Largest side of a label image, device pixels; larger labels are not drawn (a bound on hostile sizes).
    public static let maxImageSide = 4096

    /// Which of MapLibre's two passes ``render(_:style:fontScale:pixelRatio:passes:)`` draws.
    public enum Passes: Int, Hashable, Sendable {
        /// The halo, then the fill over it.
        case both
        /// The halo only (MapLibre draws a layer's halos before its fills).
        case halo
        /// The fill only.
        case fill
    }

    /// Draws `quads` as MapLibre does: every quad's halo (when `style` has one), then every quad's fill, each
    /// blended over the ones before (premultiplied source-over). A device pixel is drawn by a quad when its centre
    /// lies inside it; the SDF is sampled bilinearly at the centre's texel position. Colours are ``TextStyle/color``
    /// and ``TextStyle/haloColor``; the command's opacity is applied when the image is drawn.
    /// - Parameters:
    ///   - quads: the glyphs or icon.
    ///   - style: the fill and halo paint.
    ///   - fontScale: `text-size / 24` (or `icon-size`).
    ///   - pixelRatio: device pixels per point.
    ///   - passes: the halo, the fill or both (the default).
    /// - Returns: `nil` when there is nothing to draw or the image would exceed ``maxImageSide``.
    public static func render(
        _ quads: [Quad], style: TextStyle, fontScale: Double, pixelRatio: Double, passes: Passes = .both
    ) -> Image? {
        if passes == .halo && !(style.haloWidth > 0 && style.haloColor.alpha > 0) { return nil }
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var usable: [(Quad, RenderTransform)] = []
        for q in quads where !q.field.isEmpty && q.transform.isFinite {
            guard let inverse = q.transform.inverted else { continue }
            let box = q.transform.bounds(ofWidth: Double(q.width), height: Double(q.height))
            minX = min(minX, box.minX)
            minY = min(minY, box.minY)
            maxX = max(maxX, box.maxX)
            maxY = max(maxY, box.maxY)
            usable.append((q, inverse))
        }
        guard !usable.isEmpty, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        let x0 = Int(minX.rounded(.down))
        let y0 = Int(minY.rounded(.down))
        let width = Int(maxX.rounded(.up)) - x0
        let height = Int(maxY.rounded(.up)) - y0
        guard width > 0, height > 0, width <= maxImageSide, height <= maxImageSide else { return nil }
        var buffer = [Float](repeating: 0, count: width * height * 4)
        func pass(color base: RGBAColor, fill: Bool, alpha: (Double) -> Double) {
            for (q, inverse) in usable {
                let color = fill ? q.color ?? base : base
                let r = Float(color.red * color.alpha)
                let g = Float(color.green * color.alpha)
                let b = Float(color.blue * color.alpha)
                let a = Float(color.alpha)
                guard a > 0 else { continue }
                let w = Double(q.width)
                let h = Double(q.height)
                let (qMinX, qMinY, qMaxX, qMaxY) = q.transform.bounds(ofWidth: w, height: h)
                let field = q.field
                let fieldWidth = q.width
                let fieldHeight = q.height
                // Texel (i, j) → its byte, 0 outside the field.
                func texel(_ i: Int, _ j: Int) -> Double {
                    guard i >= 0, j >= 0, i < fieldWidth, j < fieldHeight else { return 0 }
                    return Double(field[j * fieldWidth + i])
                }
                let px0 = max(0, Int((qMinX - 0.5).rounded(.up)) - x0)
                let px1 = min(width - 1, Int((qMaxX - 0.5).rounded(.down)) - x0)
                let py0 = max(0, Int((qMinY - 0.5).rounded(.up)) - y0)
                let py1 = min(height - 1, Int((qMaxY - 0.5).rounded(.down)) - y0)
                guard px0 <= px1, py0 <= py1 else { continue }
                for py in py0...py1 {
                    for px in px0...px1 {
                        let centre = inverse.apply(to: ScreenPoint(x: Double(px + x0) + 0.5, y: Double(py + y0) + 0.5))
                        guard centre.x >= 0, centre.y >= 0, centre.x < w, centre.y < h else { continue }
                        // Bilinear between texel centres.
                        let fx = centre.x - 0.5
                        let fy = centre.y - 0.5
                        let ix = Int(fx.rounded(.down))
                        let iy = Int(fy.rounded(.down))
                        let tx = fx - Double(ix)
                        let ty = fy - Double(iy)
                        let top = texel(ix, iy) * (1 - tx) + texel(ix + 1, iy) * tx
                        let bottom = texel(ix, iy + 1) * (1 - tx) + texel(ix + 1, iy + 1) * tx
                        let distance = (top * (1 - ty) + bottom * ty) / 255
                        let coverage = Float(alpha(distance))
                        guard coverage > 0 else { continue }
                        let o = (py * width + px) * 4
                        let sa = a * coverage
                        let keep = 1 - sa
                        buffer[o] = b * coverage + buffer[o] * keep
                        buffer[o + 1] = g * coverage + buffer[o + 1] * keep
                        buffer[o + 2] = r * coverage + buffer[o + 2] * keep
                        buffer[o + 3] = sa + buffer[o + 3] * keep
                    }
                }
            }
        }
        if passes != .fill && style.haloWidth > 0 && style.haloColor.alpha > 0 {
            pass(color: style.haloColor, fill: false) {
                haloAlpha(
                    distance: $0, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: style.haloWidth,
                    haloBlur: style.haloBlur)
            }
        }
        if passes != .halo {
            pass(color: style.color, fill: true) {
                fillAlpha(distance: $0, fontScale: fontScale, pixelRatio: pixelRatio)
            }
        }
        var pixels = [UInt8](repeating: 0, count: buffer.count)
        for i in 0..<buffer.count { pixels[i] = UInt8(min(255, max(0, (buffer[i] * 255).rounded()))) }
        return Image(image: RasterImage(width: width, height: height, scale: 1, pixels: pixels), x: x0, y: y0)
    }
}

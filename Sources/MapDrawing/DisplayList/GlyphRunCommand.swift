/// Glyph coverage masks composited straight into the frame at whole device pixels: a label's glyphs as MapLibre's
/// SDF shader draws them, each quad blended source-over in its colour, in the order given (a label's halos, then its
/// fills). Waymark's own command: the glyph path of the label stage draws its labels with it, so a label moved by a
/// fraction of a pixel is not composed into an image of its own and registered each frame.
///
/// Positions are device pixels of a frame whose points are scaled by ``pixelRatio`` (device pixel = point ×
/// `pixelRatio`), without the current transform's translation. A backend composites the masks pixel for pixel when
/// the current transform is that scale (plus a whole-device-pixel translation); under any other transform it draws
/// them as an image of their own through the transform (``image()``).
public struct GlyphRunCommand: Hashable, Sendable {
    /// One glyph quad's coverage at its device place.
    public struct Mask: Hashable, Sendable {
        /// Coverage, `width × height` bytes, rows top to bottom, 255 = fully covered. A shorter array draws nothing.
        public var coverage: [UInt8]
        /// The top-left byte's device pixel column, `|x| < 2³⁰` (a mask placed further, or larger than 2³⁰ either
        /// way, draws nothing and has no ``GlyphRunCommand/bounds``).
        public var x: Int
        /// The top-left byte's device pixel row, `|y| < 2³⁰` (see ``x``).
        public var y: Int
        /// Columns of ``coverage``, `≥ 0`.
        public var width: Int
        /// Rows of ``coverage``, `≥ 0`.
        public var height: Int
        /// Colour (straight alpha), multiplied by the coverage and the command's opacity.
        public var color: RGBAColor
        /// Device pixels → the quad's own space, and the quad's size there: a pixel is drawn only when its centre
        /// maps into `[0, clipWidth) × [0, clipHeight)` (the quad's exact edges; the mask may be drawn wider).
        public var clip: RenderTransform
        /// The quad's width in ``clip``'s space.
        public var clipWidth: Double
        /// The quad's height in ``clip``'s space.
        public var clipHeight: Double

        /// Creates a mask; see the properties.
        public init(
            coverage: [UInt8], x: Int, y: Int, width: Int, height: Int, color: RGBAColor, clip: RenderTransform,
            clipWidth: Double, clipHeight: Double
        ) {
            self.coverage = coverage
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.color = color
            self.clip = clip
            self.clipWidth = clipWidth
            self.clipHeight = clipHeight
        }

        /// Whether the mask draws: its place and size within 2³⁰ pixels (so no sum of them with a run's shift and a
        /// target's offset, each as bounded, can overflow), some rows and columns, and coverage for all of them.
        package var isDrawable: Bool {
            let limit = 1 << 30
            guard x > -limit, x < limit, y > -limit, y < limit, width > 0, width < limit, height > 0, height < limit
            else { return false }
            return coverage.count >= width * height
        }

        /// Hashes the mask's place, size and colour (not its bytes: equal masks hash alike, which is all hashing
        /// needs, and a frame's runs are hashed without reading every coverage byte).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(x)
            hasher.combine(y)
            hasher.combine(width)
            hasher.combine(height)
            hasher.combine(color)
        }
    }

    /// The masks in drawing order.
    public var masks: [Mask]
    /// Extra opacity multiplied into every mask's colour, `0…1` (each mask blended at it, as MapLibre draws each
    /// glyph quad at the label's opacity). Default 1.
    public var opacity: Double
    /// Device pixels a point for the masks' positions, `> 0`.
    public var pixelRatio: Double
    /// Whole device pixels the run is drawn moved by, right and down, `|shift| < 2³⁰` (default 0): every mask is
    /// drawn as if its ``Mask/x`` and ``Mask/y`` were that much larger and its ``Mask/clip`` took the moved pixels
    /// where it took the pixels. A run shifted further on either axis draws nothing (and has no ``bounds``).
    /// Waymark's own: a label moved by whole pixels reuses its run without a copy of its masks.
    public var shiftX: Int
    /// See ``shiftX``.
    public var shiftY: Int

    /// Whether both shifts lie within ±2³⁰ (see ``shiftX``): only such a run draws.
    package var isShiftInRange: Bool {
        let limit = 1 << 30
        return shiftX > -limit && shiftX < limit && shiftY > -limit && shiftY < limit
    }

    /// Creates a run; see the properties.
    public init(masks: [Mask], opacity: Double = 1, pixelRatio: Double, shiftX: Int = 0, shiftY: Int = 0) {
        self.masks = masks
        self.opacity = opacity
        self.pixelRatio = pixelRatio
        self.shiftX = shiftX
        self.shiftY = shiftY
    }

    /// The device pixels the masks cover (the union of their rectangles, moved by the run's shift), or `nil` when
    /// none covers any.
    public var bounds: PixelRect? {
        guard isShiftInRange else { return nil }
        var box: PixelRect? = nil
        for m in masks where m.isDrawable {
            let (x, y) = (m.x + shiftX, m.y + shiftY)
            let r = PixelRect(minX: x, minY: y, maxX: x + m.width, maxY: y + m.height)
            box = box?.union(r) ?? r
        }
        return box
    }

    /// Blends the masks, in order, source-over into premultiplied BGRA pixels (Cairo's ARGB32 on a little-endian
    /// machine): the run's device pixel `(x, y)` is `target`'s pixel `(x + offsetX, y + offsetY)`, and only the
    /// target's pixels inside `clip` are written. Each result is rounded to the nearest byte. An offset of 2³² or
    /// more either way draws nothing.
    public func composite(into target: LinePixelTarget, offsetX: Int, offsetY: Int, clip: PixelRect) {
        let opacity = Float(min(1, max(0, opacity.isNaN ? 0 : opacity)))
        guard opacity > 0, isShiftInRange, Self.isOffsetInRange(offsetX, offsetY) else { return }
        let area = clip.intersection(PixelRect(minX: 0, minY: 0, maxX: target.width, maxY: target.height))
        guard !area.isEmpty else { return }
        for m in masks {
            Self.composite(
                m, opacity: opacity, into: target, offsetX: offsetX + shiftX, offsetY: offsetY + shiftY, area: area)
        }
    }

    /// Blends the mask ``masks``[`index`] alone as ``composite(into:offsetX:offsetY:clip:)`` blends it (nothing for
    /// an index outside ``masks``). Waymark's own: a backend that shares a frame's rows out between threads
    /// composites each block of rows mask by mask, in order, with `clip` the block's rows; pixels of disjoint clips
    /// may be written from different threads at once.
    public func composite(maskAt index: Int, into target: LinePixelTarget, offsetX: Int, offsetY: Int, clip: PixelRect)
    {
        guard masks.indices.contains(index) else { return }
        let opacity = Float(min(1, max(0, opacity.isNaN ? 0 : opacity)))
        guard opacity > 0, isShiftInRange, Self.isOffsetInRange(offsetX, offsetY) else { return }
        let area = clip.intersection(PixelRect(minX: 0, minY: 0, maxX: target.width, maxY: target.height))
        guard !area.isEmpty else { return }
        Self.composite(
            masks[index], opacity: opacity, into: target, offsetX: offsetX + shiftX, offsetY: offsetY + shiftY,
            area: area)
    }

    /// Whether a target offset lies within ±2³² (see ``composite(into:offsetX:offsetY:clip:)``): with a mask's
    /// place and a run's shift, each within ±2³⁰, no sum overflows.
    package static func isOffsetInRange(_ x: Int, _ y: Int) -> Bool {
        let limit = 1 << 32
        return x > -limit && x < limit && y > -limit && y < limit
    }

    /// One mask of ``composite(into:offsetX:offsetY:clip:)`` at the run's `opacity` (`0…1`, not 0), into the
    /// target's pixels `area` (inside the target).
    private static func composite(
        _ m: Mask, opacity: Float, into target: LinePixelTarget, offsetX: Int, offsetY: Int, area: PixelRect
    ) {
        guard m.isDrawable else { return }
        let alpha = Float(min(1, max(0, m.color.alpha))) * opacity
        guard alpha > 0 else { return }
        // Premultiplied colour in bytes, and the alpha a coverage of 1 gives.
        let b = Float(min(1, max(0, m.color.blue))) * alpha * 255
        let g = Float(min(1, max(0, m.color.green))) * alpha * 255
        let r = Float(min(1, max(0, m.color.red))) * alpha * 255
        let a = alpha * 255
        // The mask's rows and columns that land inside the area.
        let column0 = max(0, area.minX - offsetX - m.x)
        let column1 = min(m.width, area.maxX - offsetX - m.x)
        let row0 = max(0, area.minY - offsetY - m.y)
        let row1 = min(m.height, area.maxY - offsetY - m.y)
        guard column0 < column1, row0 < row1 else { return }
        let inverse = m.clip
        let (qw, qh) = (m.clipWidth, m.clipHeight)
        // When the centres of the mask's four corner pixels lie inside the quad (with a margin far beyond
        // rounding error), every pixel centre between them does too (the quad is a parallelogram): no edge test
        // per pixel then (most fills, and halos that do not reach their quad's edge).
        func inside(_ px: Int, _ py: Int, margin: Double) -> Bool {
            let cx = Double(px) + 0.5
            let cy = Double(py) + 0.5
            let u = inverse.a * cx + inverse.c * cy + inverse.tx
            let v = inverse.b * cx + inverse.d * cy + inverse.ty
            return u >= margin && v >= margin && u < qw - margin && v < qh - margin
        }
        let (right, bottom) = (m.x + m.width - 1, m.y + m.height - 1)
        let interior =
            inside(m.x, m.y, margin: 1e-6) && inside(right, m.y, margin: 1e-6)
            && inside(m.x, bottom, margin: 1e-6) && inside(right, bottom, margin: 1e-6)
        // The colour's premultiplied bytes and alpha, blue to alpha as the pixel's bytes lie.
        let source = SIMD4<Float>(b, g, r, a)
        // At full coverage an opaque colour leaves nothing of the pixel under it (`keep` is 0, and a byte × 0 is
        // 0): the result is the same four bytes whatever the pixel held.
        let full = Float(UInt8(255)) * (1 / 255)
        let solid: UInt32? =
            1 - alpha * full == 0
            ? UInt32(roundedByte(b * full)) | UInt32(roundedByte(g * full)) << 8
                | UInt32(roundedByte(r * full)) << 16 | UInt32(roundedByte(a * full)) << 24
            : nil
        /// The columns `first..<end` of the mask's row at device row `py` whose pixel centres lie inside the quad
        /// by more than 1e-6 (no edge test for them): those between two columns found inside by that margin (the
        /// quad is convex, and rounding error is far below the margin). An empty range when none is found.
        func insideColumns(_ py: Int) -> (first: Int, end: Int) {
            let cy = Double(py) + 0.5
            var (low, high) = (-Double.infinity, Double.infinity)
            // The centre's `k × cx + base` within `[1e-3, size − 1e-3]`, as an interval of `cx`.
            func bound(_ k: Double, _ base: Double, _ size: Double) -> Bool {
                let (from, to) = (1e-3 - base, size - 1e-3 - base)
                if k > 0 {
                    (low, high) = (max(low, from / k), min(high, to / k))
                } else if k < 0 {
                    (low, high) = (max(low, to / k), min(high, from / k))
                } else {
                    return from <= 0 && to >= 0
                }
                return true
            }
            guard bound(inverse.a, inverse.c * cy + inverse.tx, qw),
                bound(inverse.b, inverse.d * cy + inverse.ty, qh), low <= high
            else { return (0, 0) }
            // Pixel columns whose centres `px + 0.5` lie in `[low, high]`, within the mask's columns drawn.
            let (minColumn, maxColumn) = (Double(m.x + column0), Double(m.x + column1 - 1))
            let first = Int(min(max((low - 0.5).rounded(.up), minColumn), maxColumn + 1)) - m.x
            let last = Int(max(min((high - 0.5).rounded(.down), maxColumn), minColumn - 1)) - m.x
            guard first <= last, inside(m.x + first, py, margin: 1e-6), inside(m.x + last, py, margin: 1e-6)
            else { return (0, 0) }
            return (first, last + 1)
        }
        m.coverage.withUnsafeBufferPointer { coverage in
            for row in row0..<row1 {
                let py = m.y + row
                let bytes = coverage.baseAddress! + row * m.width
                // The target's pixel of the mask's column 0 in this row.
                let line = target.base + (py + offsetY) * target.bytesPerRow + (m.x + offsetX) * 4
                let (first, end) = interior ? (column0, column1) : insideColumns(py)
                for column in column0..<column1 {
                    let byte = bytes[column]
                    guard byte > 0 else { continue }
                    // The quad's edges at their exact place.
                    if column < first || column >= end {
                        guard inside(m.x + column, py, margin: 0) else { continue }
                    }
                    if byte == 255, let solid {
                        UnsafeMutableRawPointer(line + column * 4).storeBytes(
                            of: solid.littleEndian, as: UInt32.self)
                    } else {
                        Self.blend(line + column * 4, source: source, alpha: alpha, coverage: byte)
                    }
                }
            }
        }
    }

    /// Blends `source` (a colour's premultiplied bytes and alpha × 255, BGRA) at coverage `coverage / 255` and alpha
    /// `alpha` source-over into the pixel at `p`, each channel `source × c + pixel × (1 − alpha × c)` rounded to the
    /// nearest byte (the products and sums of the four channels at once).
    @inline(__always) private static func blend(
        _ p: UnsafeMutablePointer<UInt8>, source: SIMD4<Float>, alpha: Float, coverage byte: UInt8
    ) {
        let cov = Float(byte) * (1 / 255)
        let keep = 1 - alpha * cov
        let pixel = SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
        let value = source * cov + pixel * keep
        p[0] = roundedByte(value[0])
        p[1] = roundedByte(value[1])
        p[2] = roundedByte(value[2])
        p[3] = roundedByte(value[3])
    }

    /// The run composited over transparent pixels covering ``bounds`` (premultiplied BGRA, scale 1) and the device
    /// pixel of its top-left pixel; `nil` when nothing is covered or the bounds are wider or taller than 4,096 pixels.
    /// For backends that cannot composite in place (a rotated or skewed transform).
    public func image() -> (image: RasterImage, x: Int, y: Int)? {
        guard let box = bounds, box.maxX - box.minX <= 4096, box.maxY - box.minY <= 4096 else { return nil }
        let w = box.maxX - box.minX
        let h = box.maxY - box.minY
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            composite(
                into: LinePixelTarget(base: buffer.baseAddress!, width: w, height: h, bytesPerRow: w * 4),
                offsetX: -box.minX, offsetY: -box.minY, clip: PixelRect(minX: 0, minY: 0, maxX: w, maxY: h))
        }
        return (RasterImage(width: w, height: h, scale: 1, pixels: pixels), box.minX, box.minY)
    }
}

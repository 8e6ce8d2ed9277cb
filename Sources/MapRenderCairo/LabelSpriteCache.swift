import CCairo
import CPangoCairo
import MapRender

/// A label (text + halo) rasterised once at a device scale, ready to blit.
///
/// The sprite covers the label's ink and logical boxes plus the halo. `boxOrigin` is where the top-left corner of
/// the logical text box (the box ``TextAnchor`` refers to) lies inside the sprite, in device pixels.
public final class LabelSprite {
    /// The ARGB32 `cairo_surface_t *` holding the sprite; owned by this object.
    let surface: OpaquePointer
    /// Sprite width in device pixels.
    public let width: Int
    /// Sprite height in device pixels.
    public let height: Int
    /// Top-left of the logical text box inside the sprite, in device pixels.
    public let boxOrigin: RenderPoint
    /// Logical text box size in device pixels.
    public let boxSize: RenderSize
    /// First baseline, in device pixels below the logical box's top.
    public let baseline: Double
    /// Characters no font could draw (tofu).
    public let unknownGlyphCount: Int

    init(
        surface: OpaquePointer, width: Int, height: Int, boxOrigin: RenderPoint, boxSize: RenderSize,
        baseline: Double, unknownGlyphCount: Int
    ) {
        self.surface = surface
        self.width = width
        self.height = height
        self.boxOrigin = boxOrigin
        self.boxSize = boxSize
        self.baseline = baseline
        self.unknownGlyphCount = unknownGlyphCount
    }

    deinit { cairo_surface_destroy(surface) }

    /// Bytes of pixel memory (4 per pixel).
    public var byteCount: Int { width * height * 4 }

    /// A copy of the sprite's pixels (for tests).
    public func rasterImage(scale: Double) -> RasterImage { surfaceToRaster(surface, scale: scale) }
}

/// The key of a cached label sprite: the exact text, the whole style, and the device scale.
public struct LabelSpriteKey: Hashable, Sendable {
    /// The label's text.
    public var text: String
    /// The label's style (every field affects the pixels).
    public var style: TextStyle
    /// Device pixels per point.
    public var scale: Double

    /// Creates a key.
    public init(text: String, style: TextStyle, scale: Double) {
        self.text = text
        self.style = style
        self.scale = scale
    }
}

/// Rasterises labels with halos once and keeps them in a byte-bounded LRU, so each frame only blits them.
///
/// The halo is built from the glyph coverage mask: the mask is painted, in an A8 surface, at offsets covering a
/// disc of the halo radius (rings one device pixel apart, a sample every pixel of circumference), which dilates the
/// glyphs by the halo width; a halo blur then box-blurs that dilated mask (three passes approximate a Gaussian).
/// The halo colour is painted through it and the text drawn on top with Pango (colour emoji keep their colours).
/// This replaces `pango_cairo_layout_path` + stroke per frame, measured at ≈0.3 ms per label (toolchain notes §3).
///
/// Thread rules: not thread-safe; owned by one ``CairoBackend``.
public final class LabelSpriteCache {
    private var lru: ByteBoundedLRU<LabelSpriteKey, LabelSprite>
    private let shaper: PangoTextShaper

    /// Creates a cache of at most `byteLimit` bytes of sprite pixels (default 32 MiB), drawing text with `shaper`.
    public init(shaper: PangoTextShaper, byteLimit: Int = 32 << 20) {
        self.shaper = shaper
        lru = ByteBoundedLRU(byteLimit: byteLimit)
    }

    /// Lookups that found a sprite.
    public var hits: Int { lru.hits }
    /// Lookups that had to rasterise.
    public var misses: Int { lru.misses }
    /// Sprites held.
    public var count: Int { lru.count }
    /// Bytes held.
    public var totalBytes: Int { lru.totalBytes }
    /// The byte limit.
    public var byteLimit: Int { lru.byteLimit }

    /// Empties the cache (after a font change, for example).
    public func removeAll() { _ = lru.removeAll() }

    /// The sprite for `text` in `style` at `scale`, rasterised on a miss.
    public func sprite(for text: String, style: TextStyle, scale: Double) -> LabelSprite {
        let key = LabelSpriteKey(text: text, style: style, scale: scale)
        if let sprite = lru.value(for: key) { return sprite }
        let sprite = rasterise(text: text, style: style, scale: scale)
        lru.insert(sprite, for: key, cost: sprite.byteCount)
        return sprite
    }

    private func rasterise(text: String, style: TextStyle, scale: Double) -> LabelSprite {
        let layout = shaper.layout
        shaper.configure(text: text, style: style, scale: scale)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let unknown = Int(pango_layout_get_unknown_glyphs_count(layout))
        let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE) - Double(logical.y)

        let halo = style.hasHalo ? style.effectiveHaloWidth * scale : 0
        let blur = style.hasHalo ? max(0, style.haloBlur) * scale : 0
        let pad = Int((halo + blur).rounded(.up)) + 1
        let minX = Int(min(ink.x, logical.x))
        let minY = Int(min(ink.y, logical.y))
        let maxX = Int(max(ink.x + ink.width, logical.x + logical.width))
        let maxY = Int(max(ink.y + ink.height, logical.y + logical.height))
        let width = max(1, maxX - minX + 2 * pad)
        let height = max(1, maxY - minY + 2 * pad)
        let textX = Double(pad - minX)
        let textY = Double(pad - minY)

        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(surface)!
        if halo > 0 {
            let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
            let mcr = cairo_create(mask)!
            cairo_move_to(mcr, textX, textY)
            pango_cairo_show_layout(mcr, layout)
            cairo_destroy(mcr)
            let haloMask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
            let hcr = cairo_create(haloMask)!
            cairo_set_source_rgba(hcr, 0, 0, 0, 1)
            for (dx, dy) in discOffsets(radius: halo) { cairo_mask_surface(hcr, mask, dx, dy) }
            cairo_destroy(hcr)
            if blur >= 0.5 { boxBlurA8(haloMask, radius: Int(blur.rounded())) }
            let c = style.haloColor
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            cairo_mask_surface(cr, haloMask, 0, 0)
            cairo_surface_destroy(haloMask)
            cairo_surface_destroy(mask)
        }
        let c = style.color
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        cairo_move_to(cr, textX, textY)
        pango_cairo_show_layout(cr, layout)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return LabelSprite(
            surface: surface, width: width, height: height,
            boxOrigin: RenderPoint(x: textX + Double(logical.x), y: textY + Double(logical.y)),
            boxSize: RenderSize(width: Double(logical.width), height: Double(logical.height)),
            baseline: baseline, unknownGlyphCount: unknown)
    }
}

/// Offsets covering a disc of `radius` device pixels: concentric rings one pixel apart, one sample per pixel of
/// circumference (at least 8 per ring), plus the centre.
func discOffsets(radius: Double) -> [(Double, Double)] {
    var out: [(Double, Double)] = [(0, 0)]
    var r = radius
    while r > 0.25 {
        let n = max(8, Int((2 * Double.pi * r).rounded(.up)))
        for i in 0..<n {
            let a = 2 * Double.pi * Double(i) / Double(n)
            out.append((r * cosine(a), r * sine(a)))
        }
        r -= 1
    }
    return out
}

/// Three passes of a separable box blur of `radius` pixels over an A8 surface, in place.
func boxBlurA8(_ surface: OpaquePointer, radius: Int) {
    guard radius > 0 else { return }
    cairo_surface_flush(surface)
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface), width > 0, height > 0 else { return }
    var line = [Int](repeating: 0, count: max(width, height))
    let window = 2 * radius + 1
    func pass(count: Int, lines: Int, at index: (Int, Int) -> Int) {
        for l in 0..<lines {
            for i in 0..<count { line[i] = Int(data[index(l, i)]) }
            var sum = 0
            for i in -radius...radius { sum += (i >= 0 && i < count) ? line[i] : 0 }
            for i in 0..<count {
                data[index(l, i)] = UInt8(min(255, (sum + window / 2) / window))
                let add = i + radius + 1
                let drop = i - radius
                if add < count { sum += line[add] }
                if drop >= 0 { sum -= line[drop] }
            }
        }
    }
    for _ in 0..<3 {
        pass(count: width, lines: height) { row, col in row * stride + col }
        pass(count: height, lines: width) { col, row in row * stride + col }
    }
    cairo_surface_mark_dirty(surface)
}

import CCairo
import CairoGraphics
import Foundation
import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#endif

/// A label (text + halo) rasterised once at a device scale and rotation, ready to blit at whole pixels.
///
/// The sprite covers the label's ink and logical boxes plus the halo, after rotation. The logical text box (the box
/// ``TextAnchor`` refers to) has its top-left corner at `boxOrigin` inside the sprite and its edges turned by
/// `rotationDegrees` clockwise; ``spritePoint(box:)`` maps a point of the unrotated box into the sprite.
public final class LabelSprite {
    /// The ARGB32 surface holding the sprite.
    let image: CairoSurface
    /// Its `cairo_surface_t *`, valid while the sprite lives.
    var surface: OpaquePointer { image.pointer }
    /// Sprite width in device pixels.
    public let width: Int
    /// Sprite height in device pixels.
    public let height: Int
    /// Top-left corner of the (rotated) logical text box inside the sprite, in device pixels.
    public let boxOrigin: ScreenPoint
    /// Logical text box size in device pixels (before rotation).
    public let boxSize: ScreenSize
    /// First baseline, in device pixels below the logical box's top.
    public let baseline: Double
    /// Whole degrees the text was rotated by, clockwise, `0..<360`.
    public let rotationDegrees: Int
    /// Characters no font could draw (tofu).
    public let unknownGlyphCount: Int
    private let cosine: Double
    private let sine: Double

    init(
        surface: OpaquePointer, width: Int, height: Int, boxOrigin: ScreenPoint, boxSize: ScreenSize,
        baseline: Double, rotationDegrees: Int, unknownGlyphCount: Int
    ) {
        image = CairoSurface(taking: surface)
        self.width = width
        self.height = height
        self.boxOrigin = boxOrigin
        self.boxSize = boxSize
        self.baseline = baseline
        self.rotationDegrees = rotationDegrees
        self.unknownGlyphCount = unknownGlyphCount
        let r = Double(rotationDegrees) * Double.pi / 180
        cosine = rotationDegrees == 0 ? 1 : cos(r)
        sine = rotationDegrees == 0 ? 0 : sin(r)
    }

    /// Bytes of pixel memory (4 per pixel).
    public var byteCount: Int { width * height * 4 }

    /// Where a point given in device pixels relative to the unrotated logical box's top-left lies in the sprite.
    public func spritePoint(box p: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: boxOrigin.x + cosine * p.x - sine * p.y, y: boxOrigin.y + sine * p.x + cosine * p.y)
    }

    /// A copy of the sprite's pixels (for tests).
    public func rasterImage(scale: Double) -> RasterImage { image.rasterImage(scale: scale) }
}

/// The key of a cached label sprite: the exact text, the whole style, the device scale and the whole-degree rotation.
public struct LabelSpriteKey: Hashable, Sendable {
    /// The label's text.
    public var text: String
    /// The label's style (every field affects the pixels).
    public var style: TextStyle
    /// Device pixels per point.
    public var scale: Double
    /// Clockwise rotation in whole degrees, `0..<360`.
    public var rotationDegrees: Int

    /// Creates a key.
    public init(text: String, style: TextStyle, scale: Double, rotationDegrees: Int = 0) {
        self.text = text
        self.style = style
        self.scale = scale
        self.rotationDegrees = rotationDegrees
    }
}

/// Rasterises labels with halos once and keeps them in a byte-bounded LRU, so each frame only blits them.
///
/// Rotated labels are rasterised already rotated, in whole degrees (the rotation is rounded; at 1° the far end of a
/// 150 px label moves by under 1.5 px), so every blit lands on whole device pixels and no frame resamples a sprite
/// (bilinear blits of rotated sprites measured ≈0.1–0.2 ms each). The halo is built from the glyph coverage mask
/// (an A8 surface): a grey-scale dilation by a disc of the halo radius grows the glyphs by the halo width; a halo
/// blur then box-blurs that dilated mask (three passes approximate a Gaussian). The halo colour is painted through
/// it and the text drawn on top with Pango (colour emoji keep their colours). This replaces
/// `pango_cairo_layout_path` + stroke per frame, measured at ≈0.3 ms per label (toolchain notes §3).
///
/// Where sprites are kept: always in one ``BackendCacheStore``, ``store``, through one lookup and one insertion.
/// That is the engine's store once a renderer hands the backend one (``CairoBackend/useCacheStore(_:)``): entries
/// under the engine's one byte budget, keyed by the backend, so every renderer of the backend shares them and the
/// engine drops them when its last renderer of the backend goes. Otherwise (a backend no renderer uses, such as a map
/// view's overlay stage, or one whose last renderer went) it is the cache's own ``ownStore``, a
/// ``ByteBoundedCacheStore`` under the byte limit the backend was made with. Sprites are plain surfaces, so a store
/// may evict them from any thread.
///
/// Thread rules: not thread-safe; owned by one ``CairoBackend``.
public final class LabelSpriteCache {
    private let shaper: PangoTextShaper
    /// The store sprites are kept in while no other is handed over (``useStore(_:)``), under the byte limit given
    /// at creation.
    public let ownStore: ByteBoundedCacheStore
    /// The store sprites are kept in now: the one handed over by ``useStore(_:)``, else ``ownStore``.
    public private(set) var store: any BackendCacheStore
    /// Lookups that found a sprite in ``store``.
    public private(set) var hits = 0
    /// Lookups that had to rasterise.
    public private(set) var misses = 0

    /// Creates a cache whose own store holds at most `byteLimit` bytes of sprite pixels (default 32 MiB), drawing
    /// text with `shaper`.
    public init(shaper: PangoTextShaper, byteLimit: Int = 32 << 20) {
        self.shaper = shaper
        ownStore = ByteBoundedCacheStore(byteLimit: byteLimit)
        store = ownStore
    }

    /// Keeps sprites in `store` from now on, or in ``ownStore`` with `nil`. Handing over another store empties the
    /// own one, so a sprite is never held twice.
    public func useStore(_ store: (any BackendCacheStore)?) {
        self.store = store ?? ownStore
        if self.store !== ownStore { ownStore.removeAllValues() }
    }

    /// Empties the cache (after a font change, for example): this backend's sprites in ``store``.
    public func removeAll() { store.removeAllValues() }

    /// The sprite for `text` in `style` at `scale`, rotated clockwise by `rotation` degrees rounded to a whole
    /// degree; rasterised on a miss and kept in ``store`` at its pixel bytes.
    public func sprite(for text: String, style: TextStyle, scale: Double, rotation: Double = 0) -> LabelSprite {
        let degrees = Self.wholeDegrees(rotation)
        let key = LabelSpriteKey(text: text, style: style, scale: scale, rotationDegrees: degrees)
        if let sprite = store.cachedValue(for: key) as? LabelSprite {
            hits += 1
            return sprite
        }
        misses += 1
        let sprite = rasterise(text: text, style: style, scale: scale, degrees: degrees)
        store.cache(sprite, for: key, cost: sprite.byteCount)
        return sprite
    }

    /// `rotation` rounded to whole degrees in `0..<360` (non-finite values give 0).
    static func wholeDegrees(_ rotation: Double) -> Int {
        guard rotation.isFinite else { return 0 }
        let d = Int(rotation.truncatingRemainder(dividingBy: 360).rounded())
        return ((d % 360) + 360) % 360
    }

    private func rasterise(text: String, style: TextStyle, scale: Double, degrees: Int) -> LabelSprite {
        let layout = shaper.configure(text: text, style: style, scale: scale)
        let (ink, logical) = layout.pixelExtents
        let unknown = layout.unknownGlyphCount
        let baseline = Double(layout.baseline) / Double(PangoTextLayout.unitsPerPoint) - Double(logical.y)

        // Halo width is capped by the spec at size / 4; the blur is capped at the font size (both finite).
        let halo = style.hasHalo && style.effectiveHaloWidth.isFinite ? style.effectiveHaloWidth * scale : 0
        let blur =
            style.hasHalo && style.haloBlur.isFinite ? min(max(0, style.haloBlur), style.size) * scale : 0
        let pad = Int((halo + blur).rounded(.up)) + 1
        // The union of the ink and logical boxes in layout coordinates, rotated about the layout origin.
        let minX = Double(min(ink.x, logical.x))
        let minY = Double(min(ink.y, logical.y))
        let maxX = Double(max(ink.x + ink.width, logical.x + logical.width))
        let maxY = Double(max(ink.y + ink.height, logical.y + logical.height))
        let radians = Double(degrees) * Double.pi / 180
        let c = degrees == 0 ? 1 : cos(radians)
        let s = degrees == 0 ? 0 : sin(radians)
        var lo = (x: Double.infinity, y: Double.infinity)
        var hi = (x: -Double.infinity, y: -Double.infinity)
        for (x, y) in [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)] {
            let rx = c * x - s * y
            let ry = s * x + c * y
            lo = (min(lo.x, rx), min(lo.y, ry))
            hi = (max(hi.x, rx), max(hi.y, ry))
        }
        let width = max(1, Int((hi.x - lo.x).rounded(.up)) + 2 * pad)
        let height = max(1, Int((hi.y - lo.y).rounded(.up)) + 2 * pad)
        // Where the layout origin lands in the sprite.
        let originX = Double(pad) - lo.x.rounded(.down)
        let originY = Double(pad) - lo.y.rounded(.down)

        func showLayout(_ canvas: CairoCanvas) {
            cairo_translate(canvas.context, originX, originY)
            if degrees != 0 { cairo_rotate(canvas.context, radians) }
            layout.draw(in: canvas, x: 0, y: 0)
        }

        // Cairo refuses images over 32767 pixels a side (an error surface would put the frame's context in an error
        // state and blank the rest of the frame): such text (or Pango's metrics with no fonts) draws nothing.
        guard width <= 32767, height <= 32767 else {
            return LabelSprite(
                surface: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)!, width: 1, height: 1,
                boxOrigin: ScreenPoint(x: 0, y: 0), boxSize: ScreenSize(width: 0, height: 0), baseline: 0,
                rotationDegrees: degrees, unknownGlyphCount: unknown)
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let canvas = CairoCanvas(creatingOn: surface)
        let cr = canvas.context
        if halo > 0 {
            let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
            do {
                let maskCanvas = CairoCanvas(creatingOn: mask)
                showLayout(maskCanvas)
            }
            let haloMask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
            dilateA8(mask, into: haloMask, radius: halo)
            if blur >= 0.5 { boxBlurA8(haloMask, radius: Int(blur.rounded())) }
            let h = style.haloColor
            cairo_set_source_rgba(cr, h.red, h.green, h.blue, h.alpha)
            cairo_mask_surface(cr, haloMask, 0, 0)
            cairo_surface_destroy(haloMask)
            cairo_surface_destroy(mask)
        }
        let t = style.color
        cairo_set_source_rgba(cr, t.red, t.green, t.blue, t.alpha)
        showLayout(canvas)
        withExtendedLifetime(canvas) {}
        cairo_surface_flush(surface)
        let lx = Double(logical.x)
        let ly = Double(logical.y)
        return LabelSprite(
            surface: surface, width: width, height: height,
            boxOrigin: ScreenPoint(x: originX + c * lx - s * ly, y: originY + s * lx + c * ly),
            boxSize: ScreenSize(width: Double(logical.width), height: Double(logical.height)),
            baseline: baseline, rotationDegrees: degrees, unknownGlyphCount: unknown)
    }
}

/// A ``BackendCacheStore`` of its own: one least-recently-used store under an explicit byte budget, for a backend that
/// no renderer hands an engine's store (a map view's overlay stage, tests, benchmarks) and for a backend whose last
/// renderer has gone (``LabelSpriteCache/ownStore``). Values leave least recently used first when the budget is
/// exceeded; a value larger than the whole budget is not kept. Waymark's own.
///
/// Thread rules: any thread (a lock guards the store; it is held only for a lookup or an insertion, and what leaves
/// is released after it is dropped).
public final class ByteBoundedCacheStore: BackendCacheStore, @unchecked Sendable {
    private let lock = NSLock()
    private var lru: ByteBoundedLRU<AnyHashable, AnyObject>

    /// Creates an empty store holding at most `byteLimit` bytes of values (negative counts as 0).
    public init(byteLimit: Int) { lru = ByteBoundedLRU(byteLimit: byteLimit) }

    /// The most bytes the store holds, `≥ 0`.
    public var byteLimit: Int { locked { lru.byteLimit } }
    /// The bytes held now (the sum of the stored values' costs), at most ``byteLimit``.
    public var totalBytes: Int { locked { lru.totalBytes } }
    /// The number of values held.
    public var count: Int { locked { lru.count } }

    /// See ``BackendCacheStore/cachedValue(for:)``; marks the value most recently used.
    public func cachedValue(for key: AnyHashable) -> AnyObject? { locked { lru.value(for: key) } }

    /// See ``BackendCacheStore/cache(_:for:cost:)``.
    public func cache(_ value: AnyObject, for key: AnyHashable, cost: Int) {
        let removed = locked { lru.insert(value, for: key, cost: cost) }
        withExtendedLifetime(removed) {}
    }

    /// See ``BackendCacheStore/removeAllValues()``.
    public func removeAllValues() {
        let removed = locked { lru.removeAll() }
        withExtendedLifetime(removed) {}
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Grey-scale dilation of an A8 surface by a disc of `radius` device pixels, written into `destination` (same size):
/// each output pixel is the maximum over integer offsets `o` with `|o| < radius + 1` of
/// `source[p + o] × min(1, radius + 1 − |o|)`: full weight within the radius (the anti-aliased glyph edge moves out
/// by the radius unchanged) and a linear fall-off over the next pixel, so fractional radii stay smooth.
func dilateA8(_ source: OpaquePointer, into destination: OpaquePointer, radius: Double) {
    cairo_surface_flush(source)
    cairo_surface_flush(destination)
    let width = Int(cairo_image_surface_get_width(source))
    let height = Int(cairo_image_surface_get_height(source))
    let stride = Int(cairo_image_surface_get_stride(source))
    guard width > 0, height > 0, Int(cairo_image_surface_get_stride(destination)) == stride,
        let src = cairo_image_surface_get_data(source), let dst = cairo_image_surface_get_data(destination)
    else { return }
    let reach = Int((radius + 1).rounded(.up))
    var offsets: [(dx: Int, dy: Int, weight: UInt16)] = []
    for dy in -reach...reach {
        for dx in -reach...reach {
            let d = (Double(dx * dx + dy * dy)).squareRoot()
            let w = min(1, radius + 1 - d)
            if w > 0 { offsets.append((dx, dy, UInt16((w * 256).rounded()))) }
        }
    }
    dst.update(repeating: 0, count: stride * height)
    for o in offsets {
        // Rows of the destination that read a source row inside the image.
        let y0 = max(0, -o.dy)
        let y1 = min(height, height - o.dy)
        let x0 = max(0, -o.dx)
        let x1 = min(width, width - o.dx)
        guard y0 < y1, x0 < x1 else { continue }
        for y in y0..<y1 {
            let out = dst + y * stride
            let input = src + (y + o.dy) * stride + o.dx
            // Branch-free loops so the compiler vectorises them (byte-wise max).
            if o.weight >= 256 {
                for x in x0..<x1 { out[x] = max(out[x], input[x]) }
            } else {
                let w = o.weight
                for x in x0..<x1 { out[x] = max(out[x], UInt8(truncatingIfNeeded: (UInt16(input[x]) &* w) &>> 8)) }
            }
        }
    }
    cairo_surface_mark_dirty(destination)
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

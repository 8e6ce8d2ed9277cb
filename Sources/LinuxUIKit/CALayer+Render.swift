import CCairo
import CairoGraphics
import Foundation

extension CALayer {
    /// Draws the layer and its sublayers into `ctx` in the layer's own coordinate space (its bounds origin at the
    /// context's origin), as Core Animation's `render(in:)`: the layer's opacity applies, its own position and
    /// transform do not; sublayers are placed by theirs. Presented (animated) values are drawn: this first calls
    /// ``UIAnimator/tick()`` and lays out the owning view (`layoutIfNeeded()`).
    public func render(in ctx: CGContext) {
        UIAnimator.shared.tick()
        owningView?.layoutIfNeeded()
        let cr = ctx.cairo
        let time = UIAnimator.shared.now
        let rect = presented("bounds", bounds)
        cairo_save(cr)
        cairo_translate(cr, Double(-rect.minX), Double(-rect.minY))
        renderBody(cr, rect: rect, opacity: presented("opacity", opacity), time: time)
        cairo_restore(cr)
        markDrawn()
    }

    private func markDrawn() {
        displayRequested = false
        for sub in sublayers ?? [] { sub.markDrawn() }
    }

    /// Draws this layer placed in its superlayer's space (position, anchor point, transform).
    func renderAsSublayer(_ cr: OpaquePointer, time: TimeInterval) {
        let opacity = presented("opacity", opacity)
        guard !isHidden, opacity > 0 else { return }
        var rect = presented("bounds", bounds)
        rect.size = presented("bounds.size", rect.size)
        let position = presented("position", position)
        let transform = presentedTransform()
        cairo_save(cr)
        cairo_translate(cr, Double(position.x), Double(position.y))
        var m = cairo_matrix_t(
            xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c), yy: Double(transform.d),
            x0: Double(transform.tx), y0: Double(transform.ty))
        cairo_transform(cr, &m)
        cairo_translate(
            cr, Double(-anchorPoint.x * rect.width - rect.minX), Double(-anchorPoint.y * rect.height - rect.minY))
        renderBody(cr, rect: rect, opacity: opacity, time: time)
        cairo_restore(cr)
    }

    /// Draws shadow, background, content, sublayers and border in bounds space, with `opacity` applied to the whole.
    private func renderBody(_ cr: OpaquePointer, rect: CGRect, opacity: Float, time: TimeInterval) {
        let alpha = Double(min(max(opacity, 0), 1))
        guard alpha > 0, !isHidden else { return }
        let grouped = alpha < 1
        if grouped { cairo_push_group(cr) }
        if !(shouldRasterize && drawRasterized(cr, rect: rect, time: time)) {
            drawShadowAndLayer(cr, rect: rect, time: time)
        }
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
    }

    /// The shadow (when one shows), then background, content, sublayers and border.
    private func drawShadowAndLayer(_ cr: OpaquePointer, rect: CGRect, time: TimeInterval) {
        let shadowAlpha = Double(presented("shadowOpacity", shadowOpacity))
        if !masksToBounds, shadowAlpha > 0,
            let color = presented("shadowColor", shadowColor ?? UIColor.clear.cgColor)
                as CGColor?, color.alpha > 0
        {
            drawShadow(cr, rect: rect, color: color, opacity: shadowAlpha, time: time)
        }
        drawLayer(cr, rect: rect, time: time)
    }

    /// Draws the layer from its ``rasterCache`` bitmap, made again first when the layer or its subtree changed (the
    /// shadow cache's test, plus this layer's shadow properties) or ``rasterizationScale`` did; false (nothing
    /// drawn) when it cannot be kept now: something in the subtree animates, a frame-driven view in it needs frames,
    /// or the bitmap would exceed 8192 pixels a side.
    private func drawRasterized(_ cr: OpaquePointer, rect: CGRect, time: TimeInterval) -> Bool {
        let scale = Double(rasterizationScale)
        guard scale > 0, scale.isFinite, let layers = shadowKey(rect: rect, deviceScale: scale, radius: 0, path: nil)
        else { return false }
        var own = ShadowCache.LayerState(self, isRoot: false)
        (own.position, own.anchorPoint, own.transform, own.opacity) = (.zero, .zero, .identity, 1)
        let key = RasterCache.Key(silhouette: layers, shadow: own, scale: scale)
        if rasterCache?.key != key {
            var area = rect
            if !masksToBounds, shadowOpacity > 0 {
                let reach = CGFloat(ceil(max(0, Double(shadowRadius)) * 2 + 2))
                let shape = shadowPath.map { pathExtents($0.elements) } ?? rect
                if !shape.isNull {
                    area = area.union(shape.offsetBy(dx: shadowOffset.width, dy: shadowOffset.height))
                        .insetBy(dx: -reach, dy: -reach)
                }
            }
            area = area.integral
            let width = Int(ceil(Double(area.width) * scale))
            let height = Int(ceil(Double(area.height) * scale))
            guard width > 0, height > 0, width <= 8192, height <= 8192 else { return false }
            let bitmap = CairoBitmap.blank(width: width, height: height)
            let off = cairo_create(bitmap.surface)!
            cairo_scale(off, scale, scale)
            cairo_translate(off, -Double(area.minX), -Double(area.minY))
            CALayer.offscreenDepth += 1
            drawShadowAndLayer(off, rect: rect, time: time)
            CALayer.offscreenDepth -= 1
            cairo_destroy(off)
            cairo_surface_flush(bitmap.surface)
            rasterCache = RasterCache(key: key, area: area, bitmap: bitmap)
            rasterBuilds += 1
        }
        guard let cache = rasterCache else { return false }
        cairo_save(cr)
        cairo_translate(cr, Double(cache.area.minX), Double(cache.area.minY))
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_set_source_surface(cr, cache.bitmap.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
        return true
    }

    /// Background, clipped content and sublayers, border.
    private func drawLayer(_ cr: OpaquePointer, rect: CGRect, time: TimeInterval) {
        let radius = min(max(presented("cornerRadius", cornerRadius), 0), min(rect.width, rect.height) / 2)
        if let background = presented("backgroundColor", backgroundColor ?? UIColor.clear.cgColor) as CGColor?,
            background.alpha > 0
        {
            roundedRect(cr, rect, radius, corners: maskedCorners)
            cairo_set_source_rgba(
                cr, Double(background.red), Double(background.green), Double(background.blue), Double(background.alpha))
            cairo_fill(cr)
        }
        cairo_save(cr)
        if masksToBounds {
            roundedRect(cr, rect, radius, corners: maskedCorners)
            cairo_clip(cr)
        }
        if let view = owningView { drawViewContent(view, cr, rect: rect) }
        for sub in sublayers ?? [] { sub.renderAsSublayer(cr, time: time) }
        cairo_restore(cr)
        let width = presented("borderWidth", borderWidth)
        if width > 0, let border = presented("borderColor", borderColor ?? UIColor.clear.cgColor) as CGColor?,
            border.alpha > 0
        {
            let half = width / 2
            roundedRect(cr, rect.insetBy(dx: half, dy: half), max(0, radius - half), corners: maskedCorners)
            cairo_set_line_width(cr, Double(width))
            cairo_set_source_rgba(
                cr, Double(border.red), Double(border.green), Double(border.blue), Double(border.alpha))
            cairo_stroke(cr)
        }
    }

    /// Draws the owning view's content (``UIView/draw(_:)``, an image view's image) with the view's traits current.
    ///
    /// The content is kept in ``contentCache`` (as Core Animation keeps a layer's backing store) and composited from
    /// there while its ``ContentCache/Key`` holds: the layer's ``displayVersion`` (``setNeedsDisplay()``, the one way
    /// views say their content changed; trait and tint changes call it too), the presented bounds, the view's traits,
    /// and the device scale and sub-pixel offset of the destination. The bitmap is drawn at the destination's scale
    /// and composited at whole device pixels, so it gives the pixels drawing directly gives. Drawn directly instead
    /// (nothing kept): frame-driven views (`UIFrameTicking`: the map, scroll views, activity indicators) and content
    /// that changes over time (``UIView/contentChangesOverTime``); while the layer animates a key other than the
    /// compositing ones (opacity, position, transform, bounds, background, border, corners, shadow) or an ancestor
    /// animates the tint colour; under a rotating or non-uniform scaling transform; inside a rasterized layer's or a
    /// shadow mask's own off-screen drawing; when the content reaches more than ``ContentCache/margin`` points
    /// outside the bounds; when the placement changed on the last two draws (a view moving by fractions of a pixel or
    /// resizing); and over the memory budget (``ContentCache/budgetBytes``). A content change (the display count,
    /// the traits) is always drawn into the kept bitmap, as on iOS.
    private func drawViewContent(_ view: UIView, _ cr: OpaquePointer, rect: CGRect) {
        let traits = view.traitCollection
        guard CALayer.offscreenDepth == 0, contentMayBeKept(view), let place = ContentCache.Placement(cr, rect: rect)
        else {
            contentCache = nil
            UITraitCollection.with(traits) { view.drawContent(in: cr, bounds: rect) }
            return
        }
        let key = ContentCache.Key(
            displayVersion: displayVersion, bounds: rect, scale: place.scale, fractionX: place.fractionX,
            fractionY: place.fractionY, traits: traits)
        if let kept = contentCache, kept.key == key {
            switch kept.content {
            case .bitmap(let bitmap, let x, let y):
                kept.reused = true
                ContentCache.composite(bitmap, cr, x: place.pixelX + x, y: place.pixelY + y)
                return
            case .empty:
                kept.reused = true
                return
            case .overflowing:
                UITraitCollection.with(traits) { view.drawContent(in: cr, bounds: rect) }
                return
            case .changing:
                break  // the key held for a second draw: keep the content now
            }
        }
        let moved = contentCache.map { !$0.key.hasPlacement(of: key) } ?? false
        if moved, let kept = contentCache, !kept.reused, kept.madeForMove {
            // Placed anew on the last two draws (a view moving by fractions of a pixel or resizing): draw directly
            // until the placement holds still.
            let placeholder = ContentCache(key: key, content: .changing)
            placeholder.madeForMove = true
            contentCache = placeholder
            UITraitCollection.with(traits) { view.drawContent(in: cr, bounds: rect) }
            return
        }
        contentCache = nil
        guard
            let made = ContentCache.make(
                key: key, place: place, rect: rect,
                draw: { off in
                    UITraitCollection.with(traits) { view.drawContent(in: off, bounds: rect) }
                })
        else {
            UITraitCollection.with(traits) { view.drawContent(in: cr, bounds: rect) }
            return
        }
        contentBuilds += 1
        made.madeForMove = moved
        contentCache = made
        switch made.content {
        case .bitmap(let bitmap, let x, let y):
            ContentCache.composite(bitmap, cr, x: place.pixelX + x, y: place.pixelY + y)
        case .overflowing:
            UITraitCollection.with(traits) { view.drawContent(in: cr, bounds: rect) }
        case .empty, .changing:
            break
        }
    }

    /// Whether the owning view's content may be kept now (see ``drawViewContent(_:_:rect:)``).
    private func contentMayBeKept(_ view: UIView) -> Bool {
        if contentCachePolicy == 0 { contentCachePolicy = view is any UIFrameTicking ? 2 : 1 }
        guard contentCachePolicy == 1, !view.contentChangesOverTime, !animatesContentKeys else { return false }
        var ancestor = superlayer
        while let layer = ancestor {
            if layer.hasAnimation(forKeyPath: "tintColor") { return false }
            ancestor = layer.superlayer
        }
        return true
    }

    /// Draws the layer's shadow: the blurred ``shadowPath`` when set, else the blurred silhouette (the composited
    /// alpha of background, content, sublayers and border), in the shadow colour, offset by `shadowOffset`. The
    /// blurred mask is kept in ``shadowCache`` and reused while its ``ShadowCache/Key`` is unchanged; colour, opacity
    /// and offset are applied when compositing, so changing them does not blur again.
    private func drawShadow(_ cr: OpaquePointer, rect: CGRect, color: CGColor, opacity: Double, time: TimeInterval) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let deviceScale = max(0.25, min(8, sqrt(abs(m.xx * m.yy - m.xy * m.yx))))
        let radius = max(0, Double(presented("shadowRadius", shadowRadius)))
        let offset = presented("shadowOffset", shadowOffset)
        let key = shadowKey(rect: rect, deviceScale: deviceScale, radius: radius)
        let cache: ShadowCache
        if let key, let kept = shadowCache, kept.key == key {
            cache = kept
        } else {
            guard let made = makeShadowMask(rect: rect, deviceScale: deviceScale, radius: radius, time: time) else {
                shadowCache = nil
                return
            }
            shadowMaskBuilds += 1
            cache = ShadowCache(key: key, area: made.area, pad: made.pad, mask: made.mask)
            shadowCache = key == nil ? nil : cache
        }
        cairo_save(cr)
        cairo_translate(
            cr, Double(cache.area.minX) - cache.pad + Double(offset.width),
            Double(cache.area.minY) - cache.pad + Double(offset.height))
        cairo_scale(cr, 1 / deviceScale, 1 / deviceScale)
        cairo_set_source_rgba(
            cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha) * opacity)
        cairo_mask_surface(cr, cache.mask.surface, 0, 0)
        cairo_restore(cr)
    }

    /// Draws the shadow's shape (``shadowPath`` filled, else the layer's silhouette) off screen at `deviceScale` and
    /// blurs its alpha; nil when there is nothing to draw or the mask would exceed 8192 pixels a side.
    private func makeShadowMask(
        rect: CGRect, deviceScale: Double, radius: Double, time: TimeInterval
    ) -> (area: CGRect, pad: Double, mask: CairoBitmap)? {
        let path = shadowPath
        let area = path.map { pathExtents($0.elements) } ?? rect
        guard !area.isNull, area.width > 0 || area.height > 0 else { return nil }
        let pad = ceil(radius * 2 + 2)
        let width = Int(ceil((Double(area.width) + 2 * pad) * deviceScale))
        let height = Int(ceil((Double(area.height) + 2 * pad) * deviceScale))
        guard width > 0, height > 0, width <= 8192, height <= 8192 else { return nil }
        let silhouette = CairoBitmap.blank(width: width, height: height)
        let off = cairo_create(silhouette.surface)!
        cairo_scale(off, deviceScale, deviceScale)
        cairo_translate(off, pad - Double(area.minX), pad - Double(area.minY))
        if let path {
            addPathElements(path.elements, to: off)
            cairo_set_source_rgba(off, 0, 0, 0, 1)
            cairo_fill(off)
        } else {
            CALayer.offscreenDepth += 1
            drawLayer(off, rect: rect, time: time)
            CALayer.offscreenDepth -= 1
        }
        cairo_destroy(off)
        cairo_surface_flush(silhouette.surface)
        guard let mask = blurredAlpha(of: silhouette, sigma: radius / 2 * deviceScale) else { return nil }
        return (area, pad, mask)
    }

    /// What the shadow mask drawn now would be made from, or nil when it must not be kept (something in the subtree
    /// animates, a frame-driven view such as a map is moving in it, or an ancestor animates the tint colour).
    ///
    /// With a ``shadowPath`` that is the path, the scale and the radius. Without one it is also the bounds and the
    /// silhouette's inputs: every layer of the subtree's ``displayVersion`` (bumped by ``setNeedsDisplay()``, the one
    /// way views say their drawn content changed) and the layer properties that shape what it draws. This layer's own
    /// position, transform, opacity and shadow are not among them (drawn outside the mask), so a panel that moves or
    /// fades keeps its mask, and layers outside the subtree (a map under the panel) never count.
    private func shadowKey(rect: CGRect, deviceScale: Double, radius: Double) -> ShadowCache.Key? {
        shadowKey(rect: rect, deviceScale: deviceScale, radius: radius, path: shadowPath)
    }

    private func shadowKey(rect: CGRect, deviceScale: Double, radius: Double, path: CGPath?) -> ShadowCache.Key? {
        var ancestor = superlayer
        while let layer = ancestor {
            if !layer.animationEntries(forKeyPath: "tintColor").isEmpty { return nil }
            ancestor = layer.superlayer
        }
        if let path {
            guard !hasAnimations else { return nil }
            return ShadowCache.Key(rect: .null, deviceScale: deviceScale, radius: radius, path: path, layers: [])
        }
        var layers: [ShadowCache.LayerState] = []
        guard silhouetteState(into: &layers, isRoot: true) else { return nil }
        return ShadowCache.Key(rect: rect, deviceScale: deviceScale, radius: radius, path: nil, layers: layers)
    }

    /// Appends the states of this layer and its sublayers (depth first); false when the subtree cannot be cached.
    private func silhouetteState(into out: inout [ShadowCache.LayerState], isRoot: Bool) -> Bool {
        if hasAnimations { return false }
        if let ticking = owningView as? any UIFrameTicking, ticking.needsFrames { return false }
        out.append(ShadowCache.LayerState(self, isRoot: isRoot))
        for sub in sublayers ?? [] {
            if !sub.silhouetteState(into: &out, isRoot: false) { return false }
        }
        return true
    }
}

/// A view's drawn content kept between frames (``CALayer/contentCache``), as Core Animation's backing store: the
/// content drawn off screen at the destination's device scale and sub-pixel offset, trimmed to the pixels it inked,
/// and composited at whole device pixels.
///
/// Memory: a bitmap is at most ``maxSide`` pixels a side, and all content bitmaps together at most ``budgetBytes``
/// (4 bytes a pixel); content that does not fit is drawn directly each frame. A bitmap is freed with its layer, when
/// its key changes, or when the content turns out to be empty.
final class ContentCache {
    /// The inputs of the content: equal keys give the same pixels.
    struct Key: Equatable {
        var displayVersion: Int
        var bounds: CGRect
        /// Device pixels per point.
        var scale: Double
        /// Where the bitmap's origin falls within a device pixel, `0..<1` each.
        var fractionX: Double
        var fractionY: Double
        var traits: UITraitCollection

        /// True when `other` puts the content in the same place: bounds, scale and sub-pixel offset.
        func hasPlacement(of other: Key) -> Bool {
            bounds == other.bounds && scale == other.scale && fractionX == other.fractionX
                && fractionY == other.fractionY
        }
    }

    /// What was kept.
    enum Content {
        /// The inked pixels, placed `x`, `y` device pixels from the placement's whole-pixel origin.
        case bitmap(CairoBitmap, x: Int, y: Int)
        /// The view drew nothing.
        case empty
        /// The content reached beyond ``margin``: drawn directly while the key holds.
        case overflowing
        /// The key changed on consecutive draws: drawn directly; kept once the key holds for a draw.
        case changing
    }

    /// How far outside its bounds a view's content may reach and still be kept, points.
    static let margin = 4.0
    /// The largest side of a content bitmap before trimming, device pixels.
    static let maxSide = 4096
    /// The most memory all content bitmaps may hold together, bytes (64 MiB: a full 1920 × 1080 window's worth of
    /// layers about eight times over).
    static let budgetBytes = 64 << 20

    let key: Key
    let content: Content
    /// Composited at least once since it was made.
    var reused = false
    /// Made because the placement changed (not the content): a second placement change before any reuse means the
    /// view is moving, and it is drawn directly until it stops.
    var madeForMove = false
    private let bytes: Int

    init(key: Key, content: Content) {
        self.key = key
        self.content = content
        if case .bitmap(let bitmap, _, _) = content {
            bytes = bitmap.width * bitmap.height * 4
            ContentCache.account(bytes)
        } else {
            bytes = 0
        }
    }

    deinit { ContentCache.account(-bytes) }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var heldBytes = 0

    /// Adds `delta` to the bytes held by all content bitmaps.
    private static func account(_ delta: Int) {
        guard delta != 0 else { return }
        lock.lock()
        heldBytes += delta
        lock.unlock()
    }

    /// The bytes all content bitmaps hold now.
    static var bytesHeld: Int {
        lock.lock()
        defer { lock.unlock() }
        return heldBytes
    }

    /// Where bounds-space content lands in the destination: the device scale, the whole device pixel of the bitmap's
    /// origin (the bounds' origin less ``margin``) and its fraction of a pixel. Nil when the destination's current
    /// transform is not a uniform scale plus a translation, or its surface has a device scale or a fractional device
    /// offset.
    struct Placement {
        var scale: Double
        var pixelX: Int
        var pixelY: Int
        var fractionX: Double
        var fractionY: Double

        init?(_ cr: OpaquePointer, rect: CGRect) {
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            guard m.xy == 0, m.yx == 0, m.xx == m.yy, m.xx > 0, m.xx.isFinite, m.x0.isFinite, m.y0.isFinite,
                let target = cairo_get_group_target(cr)
            else { return nil }
            var sx = 1.0
            var sy = 1.0
            cairo_surface_get_device_scale(target, &sx, &sy)
            var ox = 0.0
            var oy = 0.0
            cairo_surface_get_device_offset(target, &ox, &oy)
            guard sx == 1, sy == 1, ox == ox.rounded(), oy == oy.rounded() else { return nil }
            let x = m.xx * (Double(rect.minX) - ContentCache.margin) + m.x0
            let y = m.yy * (Double(rect.minY) - ContentCache.margin) + m.y0
            let wholeX = x.rounded(.down)
            let wholeY = y.rounded(.down)
            guard abs(wholeX) < 1e9, abs(wholeY) < 1e9 else { return nil }
            scale = m.xx
            pixelX = Int(wholeX)
            pixelY = Int(wholeY)
            fractionX = x - wholeX
            fractionY = y - wholeY
        }
    }

    /// Draws the content with `draw` (given a context whose user space is the bounds space) into a bitmap covering
    /// the bounds plus ``margin`` at `place`'s scale and fraction, then trims it to the inked pixels; nil when the
    /// bitmap would be too large or over the budget.
    static func make(key: Key, place: Placement, rect: CGRect, draw: (OpaquePointer) -> Void) -> ContentCache? {
        let s = place.scale
        let width = (Double(rect.width) + 2 * margin) * s + place.fractionX
        let height = (Double(rect.height) + 2 * margin) * s + place.fractionY
        guard width > 0, height > 0, width <= Double(maxSide), height <= Double(maxSide) else { return nil }
        let w = Int(width.rounded(.up))
        let h = Int(height.rounded(.up))
        guard bytesHeld + w * h * 4 <= budgetBytes else { return nil }
        let bitmap = CairoBitmap.blank(width: w, height: h)
        guard bitmap.width == w, bitmap.height == h, let off = cairo_create(bitmap.surface) else { return nil }
        cairo_translate(off, place.fractionX, place.fractionY)
        cairo_scale(off, s, s)
        cairo_translate(off, margin - Double(rect.minX), margin - Double(rect.minY))
        draw(off)
        cairo_destroy(off)
        cairo_surface_flush(bitmap.surface)
        guard let ink = inkedPixels(of: bitmap) else { return ContentCache(key: key, content: .empty) }
        if ink.minX == 0 || ink.minY == 0 || ink.maxX == w - 1 || ink.maxY == h - 1 {
            return ContentCache(key: key, content: .overflowing)
        }
        let trimmedWidth = ink.maxX - ink.minX + 1
        let trimmedHeight = ink.maxY - ink.minY + 1
        let trimmed = CairoBitmap.blank(width: trimmedWidth, height: trimmedHeight)
        guard trimmed.width == trimmedWidth, trimmed.height == trimmedHeight, let copy = cairo_create(trimmed.surface)
        else { return nil }
        cairo_set_operator(copy, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(copy, bitmap.surface, -Double(ink.minX), -Double(ink.minY))
        cairo_paint(copy)
        cairo_destroy(copy)
        cairo_surface_flush(trimmed.surface)
        return ContentCache(key: key, content: .bitmap(trimmed, x: ink.minX, y: ink.minY))
    }

    /// The smallest pixel rectangle holding every non-transparent pixel (inclusive bounds), or nil when none is.
    private static func inkedPixels(of bitmap: CairoBitmap) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        guard let data = cairo_image_surface_get_data(bitmap.surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(bitmap.surface))
        let w = bitmap.width
        var minX = w
        var maxX = -1
        var minY = -1
        var maxY = -1
        for y in 0..<bitmap.height {
            let row = UnsafeRawPointer(data.advanced(by: y * stride)).assumingMemoryBound(to: UInt32.self)
            var first = -1
            for x in 0..<w where row[x] != 0 {
                first = x
                break
            }
            guard first >= 0 else { continue }
            var last = w - 1
            while row[last] == 0 { last -= 1 }
            if minY < 0 { minY = y }
            maxY = y
            minX = min(minX, first)
            maxX = max(maxX, last)
        }
        return minY < 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// Paints `bitmap` with its top-left at device pixel (`x`, `y`) of `cr`'s target, under the current clip.
    static func composite(_ bitmap: CairoBitmap, _ cr: OpaquePointer, x: Int, y: Int) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, bitmap.surface, Double(x), Double(y))
        cairo_paint(cr)
        cairo_restore(cr)
    }
}

/// A rasterized layer's bitmap and what it was made from (``CALayer/rasterCache``).
final class RasterCache {
    /// The inputs of a bitmap: equal keys give the same bitmap.
    struct Key: Equatable {
        /// The subtree's state, as for a silhouette shadow.
        var silhouette: ShadowCache.Key
        /// The layer's own shadow properties (drawn into the bitmap); its position, transform and opacity are unused.
        var shadow: ShadowCache.LayerState
        var scale: Double
    }

    let key: Key
    /// The rectangle of the layer's bounds space the bitmap covers (bounds and shadow, whole points), points.
    let area: CGRect
    /// The layer drawn at ``Key/scale`` pixels per point.
    let bitmap: CairoBitmap

    init(key: Key, area: CGRect, bitmap: CairoBitmap) {
        self.key = key
        self.area = area
        self.bitmap = bitmap
    }
}

/// A layer's blurred shadow mask and what it was made from (``CALayer/shadowCache``).
final class ShadowCache {
    /// The inputs of a mask: equal keys give the same mask.
    struct Key: Equatable {
        var rect: CGRect
        var deviceScale: Double
        var radius: Double
        var path: CGPath?
        var layers: [LayerState]
    }

    /// One layer's properties that shape a silhouette. For the shadowed layer itself only what ``CALayer`` draws
    /// inside its own bounds space counts (bounds, background, corners, clipping, border, content).
    struct LayerState: Equatable {
        var layer: ObjectIdentifier
        var displayVersion: Int
        var sublayerCount: Int
        var bounds: CGRect
        var cornerRadius: CGFloat
        var maskedCorners: UInt = 15
        var backgroundColor: CGColor?
        var borderWidth: CGFloat
        var borderColor: CGColor?
        var masksToBounds: Bool
        var position = CGPoint.zero
        var anchorPoint = CGPoint.zero
        var transform = CGAffineTransform.identity
        var opacity: Float = 1
        var isHidden = false
        var shadowColor: CGColor?
        var shadowOpacity: Float = 0
        var shadowOffset = CGSize.zero
        var shadowRadius: CGFloat = 0
        var shadowPath: CGPath?

        @MainActor init(_ layer: CALayer, isRoot: Bool) {
            self.layer = ObjectIdentifier(layer)
            displayVersion = layer.displayVersion
            sublayerCount = layer.sublayers?.count ?? 0
            bounds = layer.bounds
            cornerRadius = layer.cornerRadius
            maskedCorners = layer.maskedCorners.rawValue
            backgroundColor = layer.backgroundColor
            borderWidth = layer.borderWidth
            borderColor = layer.borderColor
            masksToBounds = layer.masksToBounds
            guard !isRoot else { return }
            position = layer.position
            anchorPoint = layer.anchorPoint
            transform = layer.affineTransform()
            opacity = layer.opacity
            isHidden = layer.isHidden
            shadowColor = layer.shadowColor
            shadowOpacity = layer.shadowOpacity
            shadowOffset = layer.shadowOffset
            shadowRadius = layer.shadowRadius
            shadowPath = layer.shadowPath
        }
    }

    let key: Key?
    /// The rectangle of the layer's bounds space the mask covers (before padding), points.
    let area: CGRect
    /// The blur margin around ``area`` on each side, points.
    let pad: Double
    /// The blurred alpha (A8) at the device scale of ``key``.
    let mask: CairoBitmap

    init(key: Key?, area: CGRect, pad: Double, mask: CairoBitmap) {
        self.key = key
        self.area = area
        self.pad = pad
        self.mask = mask
    }
}

/// Adds a rounded rectangle path (`radius` already clamped by the caller), rounding only `corners`.
func roundedRect(
    _ cr: OpaquePointer, _ rect: CGRect, _ radius: CGFloat,
    corners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
) {
    cairo_new_path(cr)
    guard rect.width > 0, rect.height > 0 else { return }
    let r = Double(min(radius, min(rect.width, rect.height) / 2))
    let x0 = Double(rect.minX)
    let y0 = Double(rect.minY)
    let x1 = Double(rect.maxX)
    let y1 = Double(rect.maxY)
    if r <= 0 {
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        return
    }
    cairo_new_sub_path(cr)
    if corners.contains(.layerMaxXMinYCorner) {
        cairo_arc(cr, x1 - r, y0 + r, r, -Double.pi / 2, 0)
    } else {
        cairo_move_to(cr, x1, y0)
    }
    if corners.contains(.layerMaxXMaxYCorner) {
        cairo_arc(cr, x1 - r, y1 - r, r, 0, Double.pi / 2)
    } else {
        cairo_line_to(cr, x1, y1)
    }
    if corners.contains(.layerMinXMaxYCorner) {
        cairo_arc(cr, x0 + r, y1 - r, r, Double.pi / 2, Double.pi)
    } else {
        cairo_line_to(cr, x0, y1)
    }
    if corners.contains(.layerMinXMinYCorner) {
        cairo_arc(cr, x0 + r, y0 + r, r, Double.pi, 3 * Double.pi / 2)
    } else {
        cairo_line_to(cr, x0, y0)
    }
    cairo_close_path(cr)
}

/// An A8 surface holding the alpha of `bitmap` blurred by three box passes approximating a Gaussian of standard
/// deviation `sigma` pixels (box width `sqrt(4σ² + 1)`, W3C filter effects §"feGaussianBlur").
func blurredAlpha(of bitmap: CairoBitmap, sigma: Double) -> CairoBitmap? {
    let w = bitmap.width
    let h = bitmap.height
    guard let source = cairo_image_surface_get_data(bitmap.surface) else { return nil }
    let sourceStride = Int(cairo_image_surface_get_stride(bitmap.surface))
    var alpha = [Float](repeating: 0, count: w * h)
    for y in 0..<h {
        let row = UnsafeRawPointer(source.advanced(by: y * sourceStride)).assumingMemoryBound(to: UInt32.self)
        for x in 0..<w { alpha[y * w + x] = Float(row[x] >> 24) }
    }
    let boxWidth = (4 * sigma * sigma + 1).squareRoot()
    let r = Int((boxWidth - 1) / 2 + 0.5)
    if r > 0 {
        var scratch = [Float](repeating: 0, count: max(w, h))
        for _ in 0..<3 {
            boxBlur(&alpha, count: w, lines: h, step: 1, lineStep: w, radius: r, scratch: &scratch)
            boxBlur(&alpha, count: h, lines: w, step: w, lineStep: 1, radius: r, scratch: &scratch)
        }
    }
    let out = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h))!
    let result = CairoBitmap(taking: out)
    guard let target = cairo_image_surface_get_data(out) else { return nil }
    cairo_surface_flush(out)
    let targetStride = Int(cairo_image_surface_get_stride(out))
    for y in 0..<h {
        for x in 0..<w {
            target[y * targetStride + x] = UInt8(min(255, max(0, alpha[y * w + x].rounded())))
        }
    }
    cairo_surface_mark_dirty(out)
    return result
}

/// One box-blur pass along `lines` lines of `count` samples (`step` apart; lines `lineStep` apart), zero outside.
private func boxBlur(
    _ data: inout [Float], count: Int, lines: Int, step: Int, lineStep: Int, radius: Int, scratch: inout [Float]
) {
    let norm = 1 / Float(2 * radius + 1)
    for line in 0..<lines {
        let base = line * lineStep
        var sum: Float = 0
        for i in 0..<min(radius, count) { sum += data[base + i * step] }
        for i in 0..<count {
            let add = i + radius
            if add < count { sum += data[base + add * step] }
            scratch[i] = sum * norm
            let drop = i - radius
            if drop >= 0 { sum -= data[base + drop * step] }
        }
        for i in 0..<count { data[base + i * step] = scratch[i] }
    }
}

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
            drawShadowAndLayer(off, rect: rect, time: time)
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
            roundedRect(cr, rect, radius)
            cairo_set_source_rgba(
                cr, Double(background.red), Double(background.green), Double(background.blue), Double(background.alpha))
            cairo_fill(cr)
        }
        cairo_save(cr)
        if masksToBounds {
            roundedRect(cr, rect, radius)
            cairo_clip(cr)
        }
        if let view = owningView {
            UITraitCollection.with(view.traitCollection) { view.drawContent(in: cr, bounds: rect) }
        }
        for sub in sublayers ?? [] { sub.renderAsSublayer(cr, time: time) }
        cairo_restore(cr)
        let width = presented("borderWidth", borderWidth)
        if width > 0, let border = presented("borderColor", borderColor ?? UIColor.clear.cgColor) as CGColor?,
            border.alpha > 0
        {
            let half = width / 2
            roundedRect(cr, rect.insetBy(dx: half, dy: half), max(0, radius - half))
            cairo_set_line_width(cr, Double(width))
            cairo_set_source_rgba(
                cr, Double(border.red), Double(border.green), Double(border.blue), Double(border.alpha))
            cairo_stroke(cr)
        }
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
            drawLayer(off, rect: rect, time: time)
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

/// Adds a rounded rectangle path (`radius` already clamped by the caller).
func roundedRect(_ cr: OpaquePointer, _ rect: CGRect, _ radius: CGFloat) {
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
    cairo_arc(cr, x1 - r, y0 + r, r, -Double.pi / 2, 0)
    cairo_arc(cr, x1 - r, y1 - r, r, 0, Double.pi / 2)
    cairo_arc(cr, x0 + r, y1 - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cr, x0 + r, y0 + r, r, Double.pi, 3 * Double.pi / 2)
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

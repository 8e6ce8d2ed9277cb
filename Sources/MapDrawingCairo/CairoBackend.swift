import CCairo
import CPangoCairo
import CairoGraphics
import MapDrawing
import MapGeometry

/// Executes ``DisplayList``s with Cairo (vector drawing, image compositing) and Pango (text) into ARGB32 images.
///
/// Coordinates in the list are points; the backend scales by ``DisplayList/scale`` so output pixels are
/// `ceil(size × scale)`. Labels are blitted from a ``LabelSpriteCache`` at whole device pixels (rotated labels are
/// rasterised rotated, in whole degrees), and unrotated images drawn at their own pixel size are snapped to whole
/// device pixels too (sub-pixel blits cost ≈5× and blur, toolchain notes §3). Registered images live until ``unregister(_:)`` or the backend's end.
///
/// Thread rules: not thread-safe; create and use a backend on one thread.
public final class CairoBackend: RenderBackend {
    /// The text shaper used for drawing and measuring.
    public let shaper: PangoTextShaper
    /// Rendered label sprites.
    public let labelSprites: LabelSpriteCache
    var images: [Int: CairoSurface] = [:]
    /// Box-filtered levels of the images projected images read minified, by image id (``MipLevels``).
    var mipLevels: [Int: MipLevels] = [:]
    private var nextImageID = 1
    /// `false` on a machine with no fonts (``FontAvailability``): text and line-text commands are then skipped.
    public let drawsText: Bool

    /// Creates a backend with its own shaper and a label sprite cache whose own store (used while no renderer hands
    /// the backend its engine's, ``useCacheStore(_:)``) holds `labelCacheBytes` (default 32 MiB). On a
    /// machine with no fonts it prints ``FontAvailability/missingFontsWarning`` (once per process) and skips labels.
    public init(labelCacheBytes: Int = 32 << 20) {
        drawsText = FontAvailability.warnIfMissing()
        shaper = PangoTextShaper()
        labelSprites = LabelSpriteCache(shaper: shaper, byteLimit: labelCacheBytes)
    }

    /// The shaper, as a ``TextMeasurer``.
    public var textMeasurer: any TextMeasurer { shaper }

    /// Number of images currently registered.
    public var registeredImageCount: Int { images.count }

    /// See ``RenderBackend/render(_:)``. Draws straight into the returned image's bytes (no surface of its own, no
    /// copy).
    public func render(_ list: DisplayList) throws -> RasterImage {
        let width = list.pixelWidth
        let height = list.pixelHeight
        guard (1...32767).contains(width), (1...32767).contains(height) else {
            throw RenderError.invalidSize(width: width, height: height)
        }
        let count = width * height * 4
        // A list that starts by clearing the whole image sets every byte itself, so the array is not zeroed first
        // (a 1280×720 frame's 3.7 MB would be written twice).
        var pixels =
            Self.clearsEveryPixelFirst(list, width: width, height: height)
            ? [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
            : [UInt8](repeating: 0, count: count)
        do {
            try CairoSurface.drawing(into: &pixels, width: width, height: height) {
                draw(list, into: $0, clearFirst: false)
            }
        } catch {
            throw RenderError.invalidSize(width: width, height: height)
        }
        return RasterImage(width: width, height: height, scale: list.scale, pixels: pixels)
    }

    /// Whether the first command of `list` replaces every pixel of a `width` × `height` image: a ``DrawCommand/clear(_:)``
    /// of a finite colour (drawn with Cairo's `SOURCE` operator over the frame's rectangle) whose rectangle, scaled,
    /// is the image's size exactly, so no pixel is only partly covered.
    static func clearsEveryPixelFirst(_ list: DisplayList, width: Int, height: Int) -> Bool {
        guard case .clear(let color) = list.commands.first,
            [color.red, color.green, color.blue, color.alpha].allSatisfy(\.isFinite),
            list.scale > 0, list.scale.isFinite
        else { return false }
        // The rectangle ``draw(_:cr:isScaled:)`` clears, in device pixels.
        let scale = list.scale
        let w = (list.size.width * scale).rounded(.up) / scale * scale
        let h = (list.size.height * scale).rounded(.up) / scale * scale
        return w == Double(width) && h == Double(height)
    }

    /// See ``RenderBackend/renderForTransfer(_:)``: the Cairo image surface drawn into, handed over as it is
    /// (another Cairo backend adopts it without a copy; any other backend gets a copy of its pixels).
    public func renderForTransfer(_ list: DisplayList) throws -> RenderedImage {
        let (surface, levels) = try drawnImage(list)
        return RenderedImage(
            pixelWidth: surface.width, pixelHeight: surface.height, scale: list.scale,
            storage: TransferredSurface(surface: surface, mipLevels: levels))
    }

    /// See ``RenderBackend/adopt(_:)``: a Cairo surface from ``renderForTransfer(_:)`` becomes the image as it is;
    /// other pixels are copied into a new surface (``register(_:)``).
    public func adopt(_ image: RenderedImage) throws -> ImageHandle {
        guard let transferred = image.storage as? TransferredSurface else { return try register(image.rasterImage()) }
        return add(transferred.surface, scale: image.scale, mipLevels: transferred.mipLevels)
    }

    /// See ``RenderBackend/renderImage(_:)``.
    public func renderImage(_ list: DisplayList) throws -> ImageHandle {
        let (surface, levels) = try drawnImage(list)
        return add(surface, scale: list.scale, mipLevels: levels)
    }

    /// `list` drawn on a fresh surface, flushed, with its box-filtered levels when the list is drawn minified
    /// (``MapDrawing/DisplayList/drawnMinified``).
    private func drawnImage(_ list: DisplayList) throws -> (surface: CairoSurface, levels: MipLevels?) {
        let surface = try CairoSurface.forRendering(width: list.pixelWidth, height: list.pixelHeight)
        draw(list, into: surface, clearFirst: false)
        cairo_surface_flush(surface.pointer)
        return (surface, list.drawnMinified ? MipLevels.all(of: surface) : nil)
    }

    /// See ``RenderBackend/register(_:)``. Throws ``RenderError/invalidSize(width:height:)`` for an empty image.
    public func register(_ image: RasterImage) throws -> ImageHandle {
        add(try CairoSurface.copying(image), scale: image.scale)
    }

    /// See ``RenderBackend/unregister(_:)``.
    public func unregister(_ handle: ImageHandle) {
        images[handle.id] = nil
        mipLevels[handle.id] = nil
    }

    /// See ``RenderBackend/useCacheStore(_:)``: label sprites go to `store` (a renderer's engine, under its byte
    /// budget), or to ``labelSprites``' own store with `nil` (``LabelSpriteCache/useStore(_:)``).
    public func useCacheStore(_ store: (any BackendCacheStore)?) { labelSprites.useStore(store) }

    /// Executes `list` into an existing surface (reused frame buffer). With `clearFirst` the surface is first made
    /// transparent; otherwise the list draws over what is there. The list's scale applies; its size is not checked
    /// against the surface (drawing outside is clipped by Cairo).
    public func draw(_ list: DisplayList, into surface: CairoSurface, clearFirst: Bool = true) {
        let cr = cairo_create(surface.pointer)!
        defer { cairo_destroy(cr) }
        if clearFirst {
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        }
        draw(list, cr: cr, isScaled: false)
        cairo_surface_flush(surface.pointer)
    }

    /// See ``RenderBackend/draw(_:into:)``: executes `list` into a host's `CairoCanvas` (a view's `CGContext` holds
    /// one; hosts that draw into their own surfaces make one with `CairoCanvas(surface:)`). The canvas's current
    /// matrix (translation included) and clip apply, and its state is the same after the call. A canvas whose
    /// ``RenderTarget/userSpace`` is ``RenderTargetUserSpace/devicePixels`` is scaled by `list.scale` for the
    /// list; one in ``RenderTargetUserSpace/points`` is drawn as it is. Labels and images snap to whole device pixels
    /// either way.
    /// - Throws: ``RenderError/unsupportedTarget(_:)`` for any target that is not a `CairoCanvas` (nothing drawn).
    public func draw(_ list: DisplayList, into target: any RenderTarget) throws {
        guard let canvas = target as? CairoCanvas else {
            throw RenderError.unsupportedTarget(
                "CairoBackend draws into a CairoCanvas, not into a \(type(of: target)) target")
        }
        draw(list, cr: canvas.context, isScaled: canvas.userSpace == .points)
    }

    private func draw(_ list: DisplayList, cr: OpaquePointer, isScaled: Bool) {
        let scale = list.scale > 0 && list.scale.isFinite ? list.scale : 1
        cairo_save(cr)
        if !isScaled { cairo_scale(cr, scale, scale) }
        let antialiasingScale = list.antialiasingScale.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? scale
        var depth = 0
        let commands = list.commands
        var index = 0
        /// `first` and the commands right after it that `next` takes (consumed); consecutive commands of one kind
        /// are drawn in one pass.
        func batch<T>(_ first: T, _ next: (DrawCommand) -> T?) -> [T] {
            var batch = [first]
            while index < commands.count, let taken = next(commands[index]) {
                batch.append(taken)
                index += 1
            }
            return batch
        }
        while index < commands.count {
            let command = commands[index]
            index += 1
            switch command {
            case .lineMesh(let first):
                // Consecutive meshes are rasterised together (source-over is associative).
                let meshes = batch(first) { if case .lineMesh(let next) = $0 { next } else { nil } }
                lineMeshes(meshes, scale: antialiasingScale, cr)
            case .clear(let color):
                // Every pixel of the frame: its rectangle, within the target's clip (a view drawing into a window
                // replaces only its own pixels, never a sibling's).
                cairo_save(cr)
                cairo_rectangle(
                    cr, 0, 0, (list.size.width * scale).rounded(.up) / scale,
                    (list.size.height * scale).rounded(.up) / scale)
                cairo_clip(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo_paint(cr)
                cairo_restore(cr)
            case .fill(let first):
                // A run of opaque fills of one colour is drawn as one unit, so the anti-aliased coverages of
                // abutting edges (a polygon split into pieces, neighbouring tiles) add up instead of letting the
                // background show through as a faint seam.
                let unionable = isUnionable(first)
                let fills = batch(first) {
                    if unionable, case .fill(let next) = $0, isUnionable(next), next.color == first.color {
                        next
                    } else {
                        nil
                    }
                }
                if fills.count == 1 { fill(first, cr) } else { unionFill(fills, cr) }
            case .stroke(let s): stroke(s, scale: scale, cr)
            case .circle(let c): circle(c, cr)
            case .text(let t): text(t, scale: scale, cr)
            case .lineText(let l): lineText(l, scale: scale, cr)
            case .image(let i):
                // Exact draws (``ImageCommand/sourceRect``) are projected images; consecutive ones drawn in one pass.
                if i.sourceRect != nil {
                    // An exact draw without a projection draws nothing but still belongs to the run.
                    let exact = batch(i) { if case .image(let next) = $0, next.sourceRect != nil { next } else { nil } }
                    let projected = exact.compactMap(\.projected)
                    if !projected.isEmpty { projectedImages(projected, cr) }
                } else {
                    image(i, cr)
                }
            case .projectedImage(let first):
                // Consecutive projected images are drawn in one pass (see ``projectedImages(_:_:)``).
                projectedImages(batch(first) { if case .projectedImage(let next) = $0 { next } else { nil } }, cr)
            case .glyphRun(let first):
                // Consecutive runs are composited together, in order (source-over, pixel by pixel).
                glyphRuns(batch(first) { if case .glyphRun(let next) = $0 { next } else { nil } }, cr)
            case .save:
                cairo_save(cr)
                depth += 1
            case .restore:
                if depth > 0 {
                    cairo_restore(cr)
                    depth -= 1
                }
            case .clip(let r):
                guard [r.minX, r.minY, r.width, r.height].allSatisfy(\.isFinite) else { continue }
                cairo_new_path(cr)
                cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                // Pixel-centre ownership (``DrawCommand/clip(_:)``): neighbouring clips leave no seam.
                let antialias = cairo_get_antialias(cr)
                cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
                cairo_clip(cr)
                cairo_set_antialias(cr, antialias)
            case .transform(let t):
                // A singular or non-finite matrix would put the Cairo context in an error state for the rest of
                // the list: skip it instead.
                let determinant = t.a * t.d - t.b * t.c
                guard determinant != 0, determinant.isFinite, t.tx.isFinite, t.ty.isFinite else { continue }
                var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
                cairo_transform(cr, &m)
            }
        }
        while depth > 0 {
            cairo_restore(cr)
            depth -= 1
        }
        cairo_restore(cr)
    }

    // MARK: - Commands

    /// Keeps `surface` as a new image, with the box-filtered levels made with it (counted in its byte count).
    func add(_ surface: CairoSurface, scale: Double, mipLevels levels: MipLevels? = nil) -> ImageHandle {
        let id = nextImageID
        nextImageID += 1
        images[id] = surface
        mipLevels[id] = levels
        return ImageHandle(
            id: id, pixelWidth: surface.width, pixelHeight: surface.height, scale: scale,
            byteCount: surface.width * surface.height * 4 + (levels?.byteCount ?? 0))
    }

    private func setPath(_ path: RenderPath, _ cr: OpaquePointer) {
        cairo_new_path(cr)
        path.coordinates.withUnsafeBufferPointer { c in
            for sub in 0..<path.subpathCount {
                let range = path.subpathRange(sub)
                guard let first = range.first else { continue }
                cairo_move_to(cr, c[2 * first], c[2 * first + 1])
                for i in range.dropFirst() { cairo_line_to(cr, c[2 * i], c[2 * i + 1]) }
                if path.subpathClosed[sub] { cairo_close_path(cr) }
            }
        }
    }

    private func fill(_ f: FillCommand, _ cr: OpaquePointer) {
        if let pattern = f.pattern {
            patternFill(f, pattern, cr)
            return
        }
        let alpha = f.color.alpha * clamp01(f.opacity)
        guard alpha > 0, !f.path.isEmpty else { return }
        setPath(f.path, cr)
        cairo_set_fill_rule(cr, f.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_set_antialias(cr, f.antialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        cairo_set_source_rgba(cr, f.color.red, f.color.green, f.color.blue, alpha)
        cairo_fill(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
    }

    /// Whether `f` may join a run drawn by ``unionFill(_:_:)``: a solid, fully opaque, anti-aliased fill.
    private func isUnionable(_ f: FillCommand) -> Bool {
        f.pattern == nil && f.antialias && f.color.alpha >= 1 && f.opacity >= 1 && !f.path.isEmpty
    }

    /// Fills a run of opaque fills of one colour as one shape: each path's coverage (with its own fill rule) is
    /// added into an alpha-only group, saturating at full, and the colour is painted through that mask once. Two
    /// half-covered pixels along an edge the paths share become fully covered (drawn one after another with
    /// source-over they reach only 75 %); where paths overlap the result is still the colour, so the union looks as
    /// the fills drawn in order would, minus the seams. The group is limited to the run's device-pixel bounds.
    private func unionFill(_ batch: [FillCommand], _ cr: OpaquePointer) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for f in batch {
            guard let b = f.path.bounds else { continue }
            for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)] {
                var dx = x
                var dy = y
                cairo_user_to_device(cr, &dx, &dy)
                minX = min(minX, dx)
                minY = min(minY, dy)
                maxX = max(maxX, dx)
                maxY = max(maxY, dy)
            }
        }
        // Non-finite or absurd bounds (bad input): no clip beyond the current one.
        let limit = 1e7
        let bounded = [minX, minY, maxX, maxY].allSatisfy { $0.isFinite && abs($0) < limit }
        cairo_save(cr)
        if bounded {
            var user = cairo_matrix_t()
            cairo_get_matrix(cr, &user)
            cairo_identity_matrix(cr)
            cairo_new_path(cr)
            let x0 = (minX - 1).rounded(.down)
            let y0 = (minY - 1).rounded(.down)
            cairo_rectangle(cr, x0, y0, (maxX + 1).rounded(.up) - x0, (maxY + 1).rounded(.up) - y0)
            cairo_clip(cr)
            cairo_set_matrix(cr, &user)
        }
        cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        for f in batch {
            setPath(f.path, cr)
            cairo_set_fill_rule(cr, f.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        }
        if let mask = cairo_pop_group(cr) {
            let c = batch[0].color
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, 1)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        }
        cairo_restore(cr)
    }

    /// Fills the path with the registered image repeated (`CAIRO_EXTEND_REPEAT`, bilinear like MapLibre's pattern
    /// sampling) under the pattern transform, then applies the opacity.
    private func patternFill(_ f: FillCommand, _ p: FillPattern, _ cr: OpaquePointer) {
        let opacity = clamp01(f.opacity)
        let t = p.transform
        let determinant = t.a * t.d - t.b * t.c
        guard opacity > 0, !f.path.isEmpty, let surface = images[p.image.id], determinant != 0,
            determinant.isFinite, t.isFinite,
            p.image.scale > 0, p.image.scale.isFinite
        else { return }
        // Cairo's pattern matrix maps user space (the fill's points) to the surface's pixels: the inverse of the
        // pattern transform, then image points → pixels.
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        guard cairo_matrix_invert(&m) == CAIRO_STATUS_SUCCESS else { return }
        var toPixels = cairo_matrix_t()
        cairo_matrix_init_scale(&toPixels, p.image.scale, p.image.scale)
        var matrix = cairo_matrix_t()
        cairo_matrix_multiply(&matrix, &m, &toPixels)
        guard let source = cairo_pattern_create_for_surface(surface.pointer) else { return }
        defer { cairo_pattern_destroy(source) }
        cairo_pattern_set_extend(source, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(source, CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_matrix(source, &matrix)
        cairo_save(cr)
        setPath(f.path, cr)
        cairo_set_fill_rule(cr, f.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_set_antialias(cr, f.antialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        cairo_set_source(cr, source)
        fillPath(withOpacity: opacity, cr)
        cairo_restore(cr)
    }

    private func stroke(_ s: StrokeCommand, scale: Double, _ cr: OpaquePointer) {
        let alpha = s.color.alpha * clamp01(s.opacity)
        guard alpha > 0, s.width > 0, s.width.isFinite, !s.path.isEmpty else { return }
        cairo_set_line_cap(
            cr, s.cap == .round ? CAIRO_LINE_CAP_ROUND : s.cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(
            cr,
            s.join == .round ? CAIRO_LINE_JOIN_ROUND : s.join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cr, s.miterLimit.isFinite ? max(1, s.miterLimit) : 10)
        // Negative or non-finite dash lengths would put the context in an error state: they count as 0.
        let dashes = s.dashes.map { $0.isFinite && $0 > 0 ? $0 * s.width : 0 }
        if dashes.contains(where: { $0 > 0 }) {
            cairo_set_dash(cr, dashes, Int32(dashes.count), 0)
        } else {
            cairo_set_dash(cr, nil, 0, 0)
        }
        let blur = max(0, s.blur)
        if blur > 0 {
            // MapLibre's line shader: at distance d from the centre the alpha is (R − d) / B clamped to 0…1, with
            // R = width / 2 + ½ device pixel (the geometry's outset) and B = blur + 1 device pixel; a thin, much
            // blurred line never reaches full opacity. Layered strokes of half-width R − B (k + ½) / n, each adding 1/n.
            let px = 1 / scale
            let outset = s.width / 2 + px / 2
            let fade = blur + px
            let layers = max(6, min(24, Int((fade * scale).rounded(.up))))
            cairo_push_group(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
            cairo_set_source_rgba(cr, s.color.red, s.color.green, s.color.blue, 1 / Double(layers))
            for i in 0..<layers {
                let w = 2 * (outset - fade * (Double(i) + 0.5) / Double(layers))
                guard w > 0 else { continue }
                setPath(s.path, cr)
                cairo_set_line_width(cr, w)
                cairo_stroke(cr)
            }
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        } else {
            setPath(s.path, cr)
            cairo_set_line_width(cr, s.width)
            cairo_set_source_rgba(cr, s.color.red, s.color.green, s.color.blue, alpha)
            cairo_stroke(cr)
        }
        cairo_set_dash(cr, nil, 0, 0)
    }

    /// Rasterises line meshes with ``LineRasterizer`` under the context's current matrix and clip.
    ///
    /// When the target is an ARGB32 image surface and the clip is one device rectangle (an axis-aligned matrix), the
    /// triangles blend straight into the surface's pixels; otherwise they are drawn into a scratch image over their
    /// device bounds and painted through Cairo, which applies any clip.
    private func lineMeshes(_ batch: [LineMeshCommand], scale: Double, _ cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let toDevice = RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        var bounds: PixelRect? = nil
        for command in batch {
            guard let b = LineRasterizer.deviceBounds(of: command, transform: toDevice, pixelRatio: scale) else {
                continue
            }
            bounds = bounds?.union(b) ?? b
        }
        guard let bounds else { return }
        withDevicePixels(cr, matrix: m, bounds: bounds) { pixels, dx, dy, clip in
            var t = toDevice
            t.tx += dx
            t.ty += dy
            for command in batch {
                LineRasterizer.draw(command, into: pixels, transform: t, clip: clip, pixelRatio: scale)
            }
        }
    }

    /// Runs a Swift rasteriser over device pixels covering `bounds` (device pixels of the current matrix `m`).
    ///
    /// When the target is an ARGB32 image surface with unit device scale and a whole-pixel device offset, and the clip
    /// is one device rectangle (an axis-aligned matrix), `draw` writes straight into the surface's pixels; otherwise it
    /// writes into a transparent scratch image over `bounds` within the clip extents, which is then painted through
    /// Cairo (applying any clip). `draw` gets the pixels, the offset to add to device coordinates to reach them, and
    /// the rectangle of those pixels it may write; it runs at most once and not at all when nothing is visible.
    func withDevicePixels(
        _ cr: OpaquePointer, matrix m: cairo_matrix_t, bounds: PixelRect,
        _ draw: (_ pixels: LinePixelTarget, _ dx: Double, _ dy: Double, _ clip: PixelRect) -> Void
    ) {
        if let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32, let clip = deviceClip(cr, m)
        {
            var sx = 1.0
            var sy = 1.0
            cairo_surface_get_device_scale(target, &sx, &sy)
            var ox = 0.0
            var oy = 0.0
            cairo_surface_get_device_offset(target, &ox, &oy)
            if sx == 1, sy == 1, ox == ox.rounded(), oy == oy.rounded(), let data = cairo_image_surface_get_data(target)
            {
                let dx = Int(ox)
                let dy = Int(oy)
                let w = Int(cairo_image_surface_get_width(target))
                let h = Int(cairo_image_surface_get_height(target))
                let area = PixelRect(
                    minX: clip.minX + dx, minY: clip.minY + dy, maxX: clip.maxX + dx, maxY: clip.maxY + dy
                )
                .intersection(
                    PixelRect(
                        minX: bounds.minX + dx, minY: bounds.minY + dy, maxX: bounds.maxX + dx,
                        maxY: bounds.maxY + dy)
                )
                .intersection(PixelRect(minX: 0, minY: 0, maxX: w, maxY: h))
                guard !area.isEmpty else { return }
                cairo_surface_flush(target)
                draw(
                    LinePixelTarget(
                        base: data, width: w, height: h, bytesPerRow: Int(cairo_image_surface_get_stride(target))),
                    ox, oy, area)
                cairo_surface_mark_dirty_rectangle(
                    target, Int32(area.minX), Int32(area.minY), Int32(area.maxX - area.minX),
                    Int32(area.maxY - area.minY))
                return
            }
        }
        // Scratch image over the bounds within the clip extents.
        var x0 = 0.0
        var y0 = 0.0
        var x1 = 0.0
        var y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let toDevice = RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map {
            toDevice.apply(to: ScreenPoint(x: $0.0, y: $0.1))
        }
        guard let cx0 = corners.map(\.x).min(), let cx1 = corners.map(\.x).max(),
            let cy0 = corners.map(\.y).min(), let cy1 = corners.map(\.y).max(),
            [cx0, cx1, cy0, cy1].allSatisfy({ $0.isFinite && abs($0) < 1e7 })
        else { return }
        let area = bounds.intersection(
            PixelRect(
                minX: Int(cx0.rounded(.down)), minY: Int(cy0.rounded(.down)), maxX: Int(cx1.rounded(.up)),
                maxY: Int(cy1.rounded(.up))))
        guard !area.isEmpty, area.maxX - area.minX <= 32767, area.maxY - area.minY <= 32767 else { return }
        let w = area.maxX - area.minX
        let h = area.maxY - area.minY
        withScratchSource(area, cr) { data, stride in
            draw(
                LinePixelTarget(base: data, width: w, height: h, bytesPerRow: stride),
                -Double(area.minX), -Double(area.minY), PixelRect(minX: 0, minY: 0, maxX: w, maxY: h))
        } paint: {
            cairo_paint(cr)
        }
    }

    /// Draws through a scratch ARGB32 image over `area` (device pixels): `fill` writes its pixels (base address and
    /// bytes per row), then, with the identity matrix, the image is the source at the area's origin (nearest
    /// filtering) for `paint` to composite; the context's state is restored after. Does nothing when the image
    /// cannot be made.
    private func withScratchSource(
        _ area: PixelRect, _ cr: OpaquePointer, fill: (UnsafeMutablePointer<UInt8>, Int) -> Void, paint: () -> Void
    ) {
        let w = area.maxX - area.minX
        let h = area.maxY - area.minY
        guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)) else { return }
        defer { cairo_surface_destroy(scratch) }
        guard cairo_surface_status(scratch) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(scratch)
        else { return }
        cairo_surface_flush(scratch)
        fill(data, Int(cairo_image_surface_get_stride(scratch)))
        cairo_surface_mark_dirty(scratch)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, scratch, Double(area.minX), Double(area.minY))
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        paint()
        cairo_restore(cr)
    }

    /// Fills the current path with the current source at `opacity` (`< 1`: clip to the path and paint with alpha, as
    /// Cairo has no fill-with-alpha).
    private func fillPath(withOpacity opacity: Double, _ cr: OpaquePointer) {
        if opacity < 1 {
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, opacity)
        } else {
            cairo_fill(cr)
        }
    }

    /// The clip as one device rectangle when it is one (an axis-aligned matrix and a rectangular clip); `nil`
    /// otherwise. An empty clip gives an empty rectangle.
    func deviceClip(_ cr: OpaquePointer, _ m: cairo_matrix_t) -> PixelRect? {
        guard m.xy == 0, m.yx == 0, let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
        let n = Int(list.pointee.num_rectangles)
        if n == 0 { return PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
        guard n == 1, let r = list.pointee.rectangles?.pointee else { return nil }
        var ax = r.x
        var ay = r.y
        var bx = r.x + r.width
        var by = r.y + r.height
        cairo_user_to_device(cr, &ax, &ay)
        cairo_user_to_device(cr, &bx, &by)
        let v = [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)]
        guard v.allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else { return nil }
        return PixelRect(
            minX: Int(v[0].rounded()), minY: Int(v[1].rounded()), maxX: Int(v[2].rounded()), maxY: Int(v[3].rounded()))
    }

    /// A circle in MapLibre's shading (``CircleShader``): each device pixel within the disc's bounds (and the clip)
    /// takes the shader's colour at its centre, composited source-over from a scratch image.
    private func shadedCircle(_ c: CircleCommand, _ cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let det = m.xx * m.yy - m.xy * m.yx
        guard det.isFinite, det != 0, c.center.x.isFinite, c.center.y.isFinite,
            let shader = CircleShader(c, pixelRatio: abs(det).squareRoot())
        else { return }
        let outer = c.radius + c.strokeWidth
        let userToExtrude: RenderHomography
        let corners: [ScreenPoint]
        if let g = c.groundCorners {
            // The extrude square's corners on screen: the unit square → quad map, inverted, then (u, v) ↦ 2(u, v) − 1.
            guard g.count == 4, let toQuad = RenderHomography(unitSquareTo: g[0], g[1], g[2], g[3]),
                let fromQuad = toQuad.inverse
            else { return }
            userToExtrude = RenderHomography(2, 0, -1, 0, 2, -1, 0, 0, 1).concatenating(after: fromQuad)
            corners = g
        } else {
            let k = 1 / outer
            userToExtrude = RenderHomography(k, 0, -c.center.x * k, 0, k, -c.center.y * k, 0, 0, 1)
            corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map {
                ScreenPoint(x: c.center.x + $0.0 * outer, y: c.center.y + $0.1 * outer)
            }
        }
        var inverse = m
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return }
        let deviceToUser = RenderHomography(
            inverse.xx, inverse.xy, inverse.x0, inverse.yx, inverse.yy, inverse.y0, 0, 0, 1)
        let toDevice = RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        var x0 = 0.0
        var y0 = 0.0
        var x1 = 0.0
        var y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let clip = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map { toDevice.apply(to: ScreenPoint(x: $0.0, y: $0.1)) }
        let disc = corners.map { toDevice.apply(to: $0) }
        func box(_ p: [ScreenPoint]) -> PixelRect? {
            guard let a = p.map(\.x).min(), let b = p.map(\.x).max(), let c = p.map(\.y).min(),
                let d = p.map(\.y).max(), [a, b, c, d].allSatisfy({ $0.isFinite && abs($0) < 1e7 })
            else { return nil }
            return PixelRect(
                minX: Int(a.rounded(.down)), minY: Int(c.rounded(.down)), maxX: Int(b.rounded(.up)),
                maxY: Int(d.rounded(.up)))
        }
        guard let clipBox = box(clip), let discBox = box(disc) else { return }
        let area = clipBox.intersection(discBox)
        guard !area.isEmpty, area.maxX - area.minX <= 32767, area.maxY - area.minY <= 32767 else { return }
        let w = area.maxX - area.minX
        let h = area.maxY - area.minY
        withScratchSource(area, cr) { data, stride in
            data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * h) {
                shader.rasterize(
                    into: $0, width: w, height: h, stride: stride / 4, originX: area.minX, originY: area.minY,
                    toExtrude: userToExtrude.concatenating(after: deviceToUser))
            }
        } paint: {
            cairo_new_path(cr)
            cairo_rectangle(cr, Double(area.minX), Double(area.minY), Double(w), Double(h))
            cairo_fill(cr)
        }
    }

    private func circle(_ c: CircleCommand, _ cr: OpaquePointer) {
        if c.mapLibreShading {
            shadedCircle(c, cr)
            return
        }
        let opacity = clamp01(c.opacity)
        guard c.radius >= 0, c.radius.isFinite, opacity > 0 else { return }
        if c.strokeWidth > 0 && c.strokeColor.alpha > 0 {
            cairo_new_path(cr)
            cairo_arc(cr, c.center.x, c.center.y, c.radius + c.strokeWidth / 2, 0, 2 * Double.pi)
            cairo_set_line_width(cr, c.strokeWidth)
            let s = c.strokeColor
            cairo_set_source_rgba(cr, s.red, s.green, s.blue, s.alpha * opacity)
            cairo_stroke(cr)
        }
        let f = c.fillColor
        guard f.alpha > 0, c.radius > 0 else { return }
        let blur = clamp01(c.blur)
        if blur > 0 {
            // Fade linearly from radius × (1 − blur) to the radius: a radial gradient.
            let gradient = cairo_pattern_create_radial(
                c.center.x, c.center.y, c.radius * (1 - blur), c.center.x, c.center.y, c.radius)!
            cairo_pattern_add_color_stop_rgba(gradient, 0, f.red, f.green, f.blue, f.alpha * opacity)
            cairo_pattern_add_color_stop_rgba(gradient, 1, f.red, f.green, f.blue, 0)
            cairo_new_path(cr)
            cairo_arc(cr, c.center.x, c.center.y, c.radius, 0, 2 * Double.pi)
            cairo_set_source(cr, gradient)
            cairo_fill(cr)
            cairo_pattern_destroy(gradient)
        } else {
            cairo_new_path(cr)
            cairo_arc(cr, c.center.x, c.center.y, c.radius, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, f.red, f.green, f.blue, f.alpha * opacity)
            cairo_fill(cr)
        }
    }

    private func text(_ t: TextCommand, scale: Double, _ cr: OpaquePointer) {
        let opacity = clamp01(t.opacity)
        guard drawsText, opacity > 0, !t.text.isEmpty, t.style.size > 0, t.style.size.isFinite,
            t.position.x.isFinite, t.position.y.isFinite, t.offset.x.isFinite, t.offset.y.isFinite
        else { return }
        let unit = t.anchor.unitOffset
        blit(
            text: t.text, style: t.style, at: ScreenPoint(x: t.position.x + t.offset.x, y: t.position.y + t.offset.y),
            boxPoint: { ScreenPoint(x: unit.x * $0.boxSize.width, y: unit.y * $0.boxSize.height) },
            rotation: t.rotation, scale: scale, opacity: opacity, cr)
    }

    private func lineText(_ l: LineTextCommand, scale: Double, _ cr: OpaquePointer) {
        let opacity = clamp01(l.opacity)
        guard drawsText, opacity > 0, l.style.size > 0, l.style.size.isFinite else { return }
        var style = l.style
        style.maxWidth = nil
        for g in l.glyphs where !g.text.isEmpty && g.position.x.isFinite && g.position.y.isFinite {
            blit(
                text: g.text, style: style, at: g.position,
                boxPoint: { ScreenPoint(x: 0.5 * $0.boxSize.width, y: $0.baseline) }, rotation: g.rotation,
                linear: g.transform, scale: scale, opacity: opacity, cr)
        }
    }

    /// Draws the sprite of `text` so that the point `boxPoint(sprite)` of its unrotated logical box (device pixels
    /// from the box's top-left) lands on `anchor` (user space), rotated clockwise by `rotation` degrees about it.
    ///
    /// Under an axis-aligned, unscaled transform the sprite is rasterised already rotated (whole degrees) and blitted
    /// at whole device pixels. Under any other transform, or with a `linear` map (text on the ground: it replaces the
    /// rotation), the unrotated sprite is resampled (bilinear).
    private func blit(
        text: String, style: TextStyle, at anchor: ScreenPoint, boxPoint: (LabelSprite) -> ScreenPoint,
        rotation: Double, linear: RenderTransform? = nil, scale: Double, opacity: Double, _ cr: OpaquePointer
    ) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        if let l = linear {
            // A singular or non-finite map (a glyph seen edge-on) draws nothing rather than failing the context.
            let det = l.a * l.d - l.b * l.c
            guard det.isFinite, abs(det) > 1e-9 else { return }
        }
        let axisAligned =
            linear == nil && m.yx == 0 && m.xy == 0 && abs(m.xx - scale) < 1e-9 && abs(m.yy - scale) < 1e-9
        if axisAligned {
            let sprite = labelSprites.sprite(for: text, style: style, scale: scale, rotation: rotation)
            let inside = sprite.spritePoint(box: boxPoint(sprite))
            var x = anchor.x
            var y = anchor.y
            cairo_user_to_device(cr, &x, &y)
            cairo_save(cr)
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, sprite.surface, (x - inside.x).rounded(), (y - inside.y).rounded())
            if opacity < 1 { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
            cairo_restore(cr)
        } else {
            let sprite = labelSprites.sprite(for: text, style: style, scale: scale)
            let inside = sprite.spritePoint(box: boxPoint(sprite))
            cairo_save(cr)
            cairo_translate(cr, anchor.x, anchor.y)
            if let l = linear {
                var ground = cairo_matrix_t(xx: l.a, yx: l.b, xy: l.c, yy: l.d, x0: 0, y0: 0)
                cairo_transform(cr, &ground)
            } else {
                cairo_rotate(cr, rotation * Double.pi / 180)
            }
            cairo_scale(cr, 1 / scale, 1 / scale)
            cairo_set_source_surface(cr, sprite.surface, -inside.x, -inside.y)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            if opacity < 1 { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
            cairo_restore(cr)
        }
    }

    /// Composites glyph runs, in order. Under a transform that is the runs' pixel ratio and a whole-device-pixel
    /// translation (every frame a renderer draws) the masks blend straight into the target's pixels (or a scratch
    /// image painted through the clip, ``withDevicePixels(_:matrix:bounds:_:)``); under any other transform each run
    /// is drawn as an image of its own (``GlyphRunCommand/image()``) through the transform, nearest-sampled, as the
    /// label images it replaces were.
    private func glyphRuns(_ batch: [GlyphRunCommand], _ cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        var inPlace: [GlyphRunCommand] = []
        for run in batch where run.opacity > 0 && run.pixelRatio > 0 {
            if m.xy == 0, m.yx == 0, m.xx == run.pixelRatio, m.yy == run.pixelRatio, m.x0 == m.x0.rounded(),
                m.y0 == m.y0.rounded(), abs(m.x0) < 1e7, abs(m.y0) < 1e7
            {
                inPlace.append(run)
                continue
            }
            // Drawn in order: the runs gathered before this one first.
            compositeGlyphRuns(inPlace, matrix: m, cr)
            inPlace = []
            glyphRunImage(run, cr)
        }
        compositeGlyphRuns(inPlace, matrix: m, cr)
    }

    /// Blends runs whose pixel ratio is the matrix `m`'s scale (its translation whole device pixels) into the device
    /// pixels they cover.
    @inline(never)
    private func compositeGlyphRuns(_ runs: [GlyphRunCommand], matrix m: cairo_matrix_t, _ cr: OpaquePointer) {
        var bounds: PixelRect? = nil
        for run in runs {
            guard let box = run.bounds else { continue }
            bounds = bounds?.union(box) ?? box
        }
        guard let bounds else { return }
        let tx = Int(m.x0)
        let ty = Int(m.y0)
        let device = PixelRect(
            minX: bounds.minX + tx, minY: bounds.minY + ty, maxX: bounds.maxX + tx, maxY: bounds.maxY + ty)
        withDevicePixels(cr, matrix: m, bounds: device) { pixels, dx, dy, clip in
            // In blocks of rows shared out between threads when the runs cover many pixels; the same pixels.
            GlyphRunBlocks.composite(runs, into: pixels, offsetX: tx + Int(dx), offsetY: ty + Int(dy), clip: clip)
        }
    }

    /// One run drawn as an image through the current transform (run pixels are points × its pixel ratio).
    private func glyphRunImage(_ run: GlyphRunCommand, _ cr: OpaquePointer) {
        guard let made = run.image(), let surface = try? CairoSurface.copying(made.image) else { return }
        cairo_save(cr)
        cairo_scale(cr, 1 / run.pixelRatio, 1 / run.pixelRatio)
        cairo_set_source_surface(cr, surface.pointer, Double(made.x), Double(made.y))
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    private func image(_ i: ImageCommand, _ cr: OpaquePointer) {
        let opacity = clamp01(i.opacity)
        guard opacity > 0, let surface = images[i.image.id], i.rect.width > 0, i.rect.height > 0 else { return }
        let pw = Double(surface.width)
        let ph = Double(surface.height)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_save(cr)
        if i.rotation == 0 && m.yx == 0 && m.xy == 0 && m.xx > 0 && m.yy > 0 {
            // Snap the destination edges to device pixels.
            var x0 = i.rect.minX
            var y0 = i.rect.minY
            var x1 = i.rect.maxX
            var y1 = i.rect.maxY
            cairo_user_to_device(cr, &x0, &y0)
            cairo_user_to_device(cr, &x1, &y1)
            x0.round()
            y0.round()
            x1.round()
            y1.round()
            guard x1 > x0, y1 > y0 else {
                cairo_restore(cr)
                return
            }
            cairo_identity_matrix(cr)
            if x1 - x0 == pw && y1 - y0 == ph {
                cairo_set_source_surface(cr, surface.pointer, x0, y0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
                if opacity < 1 { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
                cairo_restore(cr)
                return
            }
            cairo_translate(cr, x0, y0)
            cairo_scale(cr, (x1 - x0) / pw, (y1 - y0) / ph)
        } else {
            cairo_translate(cr, i.rect.minX + i.rect.width / 2, i.rect.minY + i.rect.height / 2)
            cairo_rotate(cr, i.rotation * Double.pi / 180)
            cairo_translate(cr, -i.rect.width / 2, -i.rect.height / 2)
            cairo_scale(cr, i.rect.width / pw, i.rect.height / ph)
        }
        // Scaled: pad the edges so neighbouring tiles do not show a seam, and fill exactly the image rectangle.
        cairo_set_source_surface(cr, surface.pointer, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, i.nearestNeighbor ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        if i.rotation == 0 && (m.xy != 0 || m.yx != 0) {
            // Under a turned frame (tile images composed under bearing) neighbouring images share their edges
            // exactly: filled without edge antialiasing every pixel belongs to one image, so no background seam
            // shows between them, and no coverage mask is built (about 25 % less time, BENCHMARKS.md).
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        }
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, pw, ph)
        fillPath(withOpacity: opacity, cr)
        cairo_restore(cr)
    }
}

@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

/// A surface ``CairoBackend/renderForTransfer(_:)`` drew (and its levels), on its way to the backend that adopts it
/// (the maker never touches either again, so they cross threads safely).
struct TransferredSurface: RenderedImageStorage, @unchecked Sendable {
    let surface: CairoSurface
    /// Its box-filtered levels, made on the rendering thread when the list said it is drawn minified.
    let mipLevels: MipLevels?

    func rasterImage(scale: Double) -> RasterImage { surface.rasterImage(scale: scale) }
}

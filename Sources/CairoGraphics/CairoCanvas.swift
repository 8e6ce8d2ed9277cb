import CCairo

/// A Cairo drawing context (`cairo_t`): the drawing target LinuxUIKit's `CGContext` holds and the map renderer
/// executes display lists into (MapDrawingCairo makes it a `RenderTarget`, drawn by `CairoBackend.draw(_:into:)`
/// through the `RenderBackend` protocol), so a view's context reaches the map backend as this type and no C pointer
/// crosses into the map view's code.
///
/// The context keeps its current matrix, clip and state between calls (a view's drawing code and the map backend
/// share them). - Thread rules: use on one thread at a time.
public final class CairoCanvas {
    /// The `cairo_t *` (one reference, released with the object). For the adapter layer only.
    package let context: OpaquePointer
    /// The surface the canvas was created over (kept alive with it), or nil for a wrapped context.
    public let surface: CairoSurface?

    /// A new context drawing into `surface`, user space = device pixels.
    public init(surface: CairoSurface) {
        context = cairo_create(surface.pointer)!
        self.surface = surface
    }

    /// Wraps an existing `cairo_t` (takes a new reference).
    package init(retaining context: OpaquePointer) {
        self.context = cairo_reference(context)!
        surface = nil
    }

    /// A new context drawing into any Cairo surface (`cairo_surface_t *`, for example an A8 mask the adapter layer
    /// made); the context keeps the surface alive, ``surface`` is nil.
    package init(creatingOn surface: OpaquePointer) {
        context = cairo_create(surface)!
        self.surface = nil
    }

    deinit { cairo_destroy(context) }

    /// Whether user space is points already scaled to device pixels by the host (a view's `CGContext` sets this;
    /// the map backend then adds no scale of its own) rather than device pixels. Default `false` (device pixels).
    public var userSpaceIsPoints = false

    /// The target surface's size in device pixels; (0, 0) for a surface that is not an image in memory.
    public var pixelSize: (width: Int, height: Int) {
        guard let target = cairo_get_target(context), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE
        else { return (0, 0) }
        return (Int(cairo_image_surface_get_width(target)), Int(cairo_image_surface_get_height(target)))
    }

    /// The current transform from user space to device pixels, as Cairo's matrix `(xx, yx, xy, yy, x0, y0)`:
    /// `x' = xx·x + xy·y + x0`, `y' = yx·x + yy·y + y0`.
    public var currentMatrix: (xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double) {
        var m = cairo_matrix_t()
        cairo_get_matrix(context, &m)
        return (m.xx, m.yx, m.xy, m.yy, m.x0, m.y0)
    }

    /// The bounding box of the current clip in user space (Cairo's clip extents; the whole surface when unclipped,
    /// zero size when nothing can be drawn).
    public var clipExtents: (x: Double, y: Double, width: Double, height: Double) {
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        cairo_clip_extents(context, &x1, &y1, &x2, &y2)
        return (x1, y1, max(0, x2 - x1), max(0, y2 - y1))
    }

    /// Scales user space by `sx`, `sy` (for example to draw in points at a device scale).
    public func scale(by sx: Double, _ sy: Double) { cairo_scale(context, sx, sy) }
}

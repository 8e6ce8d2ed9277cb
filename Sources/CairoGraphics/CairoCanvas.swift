import CCairo

/// A Cairo drawing context (`cairo_t`): the drawing target LinuxUIKit's `CGContext` holds and the map renderer
/// (`CairoBackend.draw(_:into:isScaled:)`) executes display lists into, so a view's context reaches the map backend
/// as this type and no C pointer crosses into the map view's code.
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

    /// Scales user space by `sx`, `sy` (for example to draw in points at a device scale).
    public func scale(by sx: Double, _ sy: Double) { cairo_scale(context, sx, sy) }
}

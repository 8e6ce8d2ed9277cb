/// How a ``RenderTarget``'s user space relates to a display list's points.
public enum RenderTargetUserSpace: Hashable, Sendable {
    /// One user-space unit is one device pixel (a fresh image surface): the backend scales the list's points by
    /// ``DisplayList/scale`` itself.
    case devicePixels
    /// The host's current transform already maps points to device pixels at the list's scale (a view drawing into
    /// its graphics context): the backend adds no scale of its own.
    case points
}

/// A host's drawing surface that a ``RenderBackend`` executes display lists into with
/// ``RenderBackend/draw(_:into:)``: the surface, its size, and the current transform and clip the host has set up
/// (as a host's graphics context gives them; a map view's `CGContext` holds one).
///
/// The engine sees only this description; which concrete targets a backend can draw into is the backend's business
/// (`CairoBackend` draws into CairoGraphics' `CairoCanvas`, which MapDrawingCairo makes a target), and a backend
/// throws ``RenderError/unsupportedTarget(_:)`` for any other. Drawing keeps the target's transform, clip and state
/// as they were. Thread rules: a target is used from one thread at a time, the host's drawing thread.
public protocol RenderTarget: AnyObject {
    /// Width of the drawing surface in device pixels; 0 when the target cannot tell (a surface that is not an
    /// image in memory).
    var pixelWidth: Int { get }
    /// Height of the drawing surface in device pixels; 0 when the target cannot tell.
    var pixelHeight: Int { get }
    /// The current transform from the target's user space to device pixels (the host's translation of a subview
    /// included).
    var currentTransform: RenderTransform { get }
    /// The bounding box of the current clip, in user space (the whole surface when unclipped; empty when nothing
    /// can be drawn).
    var clipBounds: RenderRect { get }
    /// Whether user space is device pixels or already points at the list's scale (see ``RenderTargetUserSpace``).
    var userSpace: RenderTargetUserSpace { get }
}

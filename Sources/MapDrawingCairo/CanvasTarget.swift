import CairoGraphics
import MapDrawing

/// CairoGraphics' canvas as the engine's drawing target: what ``CairoBackend/draw(_:into:)`` draws into. The
/// conformance lives here, in the adapter that knows both sides, so CairoGraphics (and LinuxUIKit above it) never
/// import a map module and the map view hands its context to any ``RenderBackend`` without a C pointer.
extension CairoCanvas: RenderTarget {
    /// See ``RenderTarget/pixelWidth``: the image surface's width (0 for another kind of surface).
    public var pixelWidth: Int { pixelSize.width }

    /// See ``RenderTarget/pixelHeight``: the image surface's height (0 for another kind of surface).
    public var pixelHeight: Int { pixelSize.height }

    /// See ``RenderTarget/currentTransform``: Cairo's current matrix.
    public var currentTransform: RenderTransform {
        let m = currentMatrix
        return RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
    }

    /// See ``RenderTarget/clipBounds``: Cairo's clip extents in user space.
    public var clipBounds: RenderRect {
        let e = clipExtents
        return RenderRect(x: e.x, y: e.y, width: e.width, height: e.height)
    }

    /// See ``RenderTarget/userSpace``: ``RenderTargetUserSpace/points`` when the host set
    /// `CairoCanvas.userSpaceIsPoints` (a view's `CGContext` does), else ``RenderTargetUserSpace/devicePixels``.
    public var userSpace: RenderTargetUserSpace { userSpaceIsPoints ? .points : .devicePixels }
}

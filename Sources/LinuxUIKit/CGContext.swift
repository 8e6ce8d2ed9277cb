import CCairo
import CairoGraphics
import Foundation

/// A drawing context over a Cairo drawing target (CairoGraphics' `CairoCanvas`), with the subset of Core Graphics' `CGContext` that view
/// drawing code uses: colours, line width, rectangles, ellipses, paths, clipping and transforms.
///
/// Coordinates are UIKit's: points, origin top-left, y down. Angles are radians. `clockwise` in
/// ``addArc(center:radius:startAngle:endAngle:clockwise:)`` follows Core Graphics in UIKit's flipped space:
/// `false` sweeps with increasing angle, which appears clockwise on screen.
/// - Thread rules: use on one thread at a time (views draw on the main thread).
public final class CGContext {
    /// The drawing target (a `cairo_t` held by the adapter type), in points (``CairoCanvas/userSpaceIsPoints``: a
    /// context's matrix maps points to device pixels). The map renderer draws display lists into it through the
    /// `RenderBackend` protocol (MapDrawingCairo makes the canvas a `RenderTarget`), so the map view never handles a C
    /// pointer. Package access.
    package let canvas: CairoCanvas
    /// The `cairo_t *` this context draws with, for LinuxUIKit's own Cairo calls.
    var cairo: OpaquePointer { canvas.context }

    private struct State {
        var fill: CGColor = UIColor.black.cgColor
        var stroke: CGColor = UIColor.black.cgColor
        var alpha: CGFloat = 1
    }
    private var state = State()
    private var saved: [State] = []

    /// Wraps `cairo` (takes a new reference; released when the context goes).
    init(cairo: OpaquePointer) {
        canvas = CairoCanvas(retaining: cairo)
        canvas.userSpaceIsPoints = true
    }

    /// Draws into `canvas` (its current matrix, clip and state are the context's).
    init(canvas: CairoCanvas) {
        self.canvas = canvas
        canvas.userSpaceIsPoints = true
    }

    /// Pushes the graphics state (colours, alpha, line width, clip, transform).
    public func saveGState() {
        saved.append(state)
        cairo_save(cairo)
    }

    /// Pops the state pushed by the matching ``saveGState()``; ignored when none is pushed.
    public func restoreGState() {
        guard let top = saved.popLast() else { return }
        state = top
        cairo_restore(cairo)
    }

    /// Sets the fill colour.
    public func setFillColor(_ color: CGColor) { state.fill = color }
    /// Sets the fill colour from components (`0...1`).
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fill = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the stroke colour.
    public func setStrokeColor(_ color: CGColor) { state.stroke = color }
    /// Sets the stroke colour from components (`0...1`).
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.stroke = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the line width for strokes, in points (default 1; negative values become 0).
    public func setLineWidth(_ width: CGFloat) { cairo_set_line_width(cairo, Double(max(0, width))) }
    /// Sets a global alpha (`0...1`) multiplied into every fill and stroke.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = min(max(alpha, 0), 1) }

    private func useColor(_ c: CGColor) {
        cairo_set_source_rgba(cairo, Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha * state.alpha))
    }

    /// Fills `rect` with the fill colour (the current path is discarded).
    public func fill(_ rect: CGRect) {
        cairo_new_path(cairo)
        addRect(rect)
        fillPath()
    }

    /// Strokes the outline of `rect` with the stroke colour and line width.
    public func stroke(_ rect: CGRect) {
        cairo_new_path(cairo)
        addRect(rect)
        strokePath()
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        cairo_new_path(cairo)
        addEllipse(in: rect)
        fillPath()
    }

    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        cairo_new_path(cairo)
        addEllipse(in: rect)
        strokePath()
    }

    /// Makes `rect` fully transparent.
    public func clear(_ rect: CGRect) {
        cairo_save(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_new_path(cairo)
        addRect(rect)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// Starts a new, empty path.
    public func beginPath() { cairo_new_path(cairo) }
    /// Starts a subpath at `point`.
    public func move(to point: CGPoint) { cairo_move_to(cairo, Double(point.x), Double(point.y)) }
    /// Adds a straight segment to `point`.
    public func addLine(to point: CGPoint) { cairo_line_to(cairo, Double(point.x), Double(point.y)) }
    /// Adds a cubic Bézier segment to `end` with control points `control1` and `control2`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        cairo_curve_to(
            cairo, Double(control1.x), Double(control1.y), Double(control2.x), Double(control2.y), Double(end.x),
            Double(end.y))
    }
    /// Adds a quadratic Bézier segment to `end` with control point `control`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        var x0 = 0.0
        var y0 = 0.0
        cairo_get_current_point(cairo, &x0, &y0)
        let c1 = CGPoint(x: x0 + 2.0 / 3.0 * (Double(control.x) - x0), y: y0 + 2.0 / 3.0 * (Double(control.y) - y0))
        let c2 = CGPoint(x: end.x + 2.0 / 3.0 * (control.x - end.x), y: end.y + 2.0 / 3.0 * (control.y - end.y))
        addCurve(to: end, control1: c1, control2: c2)
    }
    /// Adds a closed rectangle subpath.
    public func addRect(_ rect: CGRect) {
        cairo_rectangle(cairo, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    }
    /// Adds a closed ellipse subpath inscribed in `rect`.
    public func addEllipse(in rect: CGRect) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, Double(rect.midX), Double(rect.midY))
        cairo_scale(cairo, Double(rect.width / 2), Double(rect.height / 2))
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * .pi)
        cairo_close_path(cairo)
        cairo_restore(cairo)
    }
    /// Adds a circular arc (radians) about `center`; see the type's note on `clockwise`.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        if clockwise {
            cairo_arc_negative(
                cairo, Double(center.x), Double(center.y), Double(radius), Double(startAngle), Double(endAngle))
        } else {
            cairo_arc(cairo, Double(center.x), Double(center.y), Double(radius), Double(startAngle), Double(endAngle))
        }
    }
    /// Closes the current subpath.
    public func closePath() { cairo_close_path(cairo) }

    /// Fills the current path (non-zero winding) with the fill colour and clears the path.
    public func fillPath() {
        useColor(state.fill)
        cairo_fill(cairo)
    }
    /// Strokes the current path with the stroke colour and clears the path.
    public func strokePath() {
        useColor(state.stroke)
        cairo_stroke(cairo)
    }
    /// Intersects the clip with the current path and clears the path.
    public func clip() { cairo_clip(cairo) }
    /// Intersects the clip with `rect`.
    public func clip(to rect: CGRect) {
        cairo_new_path(cairo)
        addRect(rect)
        cairo_clip(cairo)
    }

    /// Moves the origin by `(x, y)` points.
    public func translateBy(x: CGFloat, y: CGFloat) { cairo_translate(cairo, Double(x), Double(y)) }
    /// Scales the coordinate axes.
    public func scaleBy(x: CGFloat, y: CGFloat) { cairo_scale(cairo, Double(x), Double(y)) }
    /// Rotates the coordinate axes by `angle` radians (clockwise on screen for positive angles).
    public func rotate(by angle: CGFloat) { cairo_rotate(cairo, Double(angle)) }
    /// Applies `transform` before the current transform.
    public func concatenate(_ transform: CGAffineTransform) {
        var m = cairo_matrix_t(
            xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c), yy: Double(transform.d),
            x0: Double(transform.tx), y0: Double(transform.ty))
        cairo_transform(cairo, &m)
    }
    /// The current transform from user space to device pixels.
    public var ctm: CGAffineTransform {
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        return CGAffineTransform(
            a: CGFloat(m.xx), b: CGFloat(m.yx), c: CGFloat(m.xy), d: CGFloat(m.yy), tx: CGFloat(m.x0),
            ty: CGFloat(m.y0))
    }
}

/// The stack of current drawing contexts behind `UIGraphicsGetCurrentContext()`, one per thread as UIKit's (its
/// drawing functions and image renderers are thread-safe: a tile layer may draw its tiles on its own thread).
final class GraphicsContextStack {
    var contexts: [CGContext] = []
    /// Bitmaps being drawn by `UIGraphicsBeginImageContextWithOptions`, parallel to their contexts.
    var imageContexts: [(context: CGContext, bitmap: CairoBitmap, scale: CGFloat)] = []

    /// The main thread's stack (read only on the main thread).
    nonisolated(unsafe) private static let mainThread = GraphicsContextStack()
    private static let key = "org.waymark.LinuxUIKit.graphicsContextStack"

    /// The calling thread's stack.
    static var current: GraphicsContextStack {
        if Thread.isMainThread { return mainThread }
        let storage = Thread.current.threadDictionary
        if let stack = storage[key] as? GraphicsContextStack { return stack }
        let stack = GraphicsContextStack()
        storage[key] = stack
        return stack
    }
}

/// The calling thread's current drawing context: inside `UIView.draw(_:)`, an image renderer's block, or after
/// `UIGraphicsBeginImageContextWithOptions`; `nil` otherwise. Any thread: each has its own, as in UIKit.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    GraphicsContextStack.current.contexts.last
}

/// Makes `context` the calling thread's current context until the matching ``UIGraphicsPopContext()``.
public func UIGraphicsPushContext(_ context: CGContext) {
    GraphicsContextStack.current.contexts.append(context)
}

/// Restores the context that was current on the calling thread before the last ``UIGraphicsPushContext(_:)``; ignored
/// when none.
public func UIGraphicsPopContext() {
    _ = GraphicsContextStack.current.contexts.popLast()
}

/// Starts drawing into a new transparent bitmap of `size` points, as UIKit's function of the same name (any thread:
/// the context is the calling thread's).
/// - Parameters:
///   - size: in points; negative sizes become 0.
///   - opaque: ignored (the bitmap always has alpha).
///   - scale: pixels per point; `0` means ``UIScreen/scale``.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let s = scale > 0 && scale.isFinite ? scale : UIScreen.mainScale
    let bitmap = CairoBitmap.blank(width: pixelCount(size.width, s), height: pixelCount(size.height, s))
    let canvas = CairoCanvas(surface: bitmap)
    canvas.scale(by: Double(s), Double(s))
    let context = CGContext(canvas: canvas)
    GraphicsContextStack.current.imageContexts.append((context, bitmap, s))
    UIGraphicsPushContext(context)
}

/// ``UIGraphicsBeginImageContextWithOptions(_:_:_:)`` for a transparent bitmap at 1 pixel per point, as UIKit's
/// `UIGraphicsBeginImageContext(_:)`.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// An image of what was drawn since ``UIGraphicsBeginImageContextWithOptions(_:_:_:)`` on the calling thread; nil when
/// no image context is current there.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let top = GraphicsContextStack.current.imageContexts.last else { return nil }
    cairo_surface_flush(top.bitmap.surface)
    return UIImage(bitmaps: [CairoBitmap.copy(of: top.bitmap.surface)], scale: top.scale)
}

/// Ends the calling thread's image context started by ``UIGraphicsBeginImageContextWithOptions(_:_:_:)``; ignored
/// when none.
public func UIGraphicsEndImageContext() {
    let stack = GraphicsContextStack.current
    guard let top = stack.imageContexts.popLast() else { return }
    if let index = stack.contexts.lastIndex(where: { $0 === top.context }) {
        stack.contexts.remove(at: index)
    }
}

/// Pixels needed for `points` at `scale`, rounded up, clamped to `0...8192` (a 256 MiB bitmap at most).
func pixelCount(_ points: CGFloat, _ scale: CGFloat) -> Int {
    let v = (points * scale - 1e-9).rounded(.up)
    guard v.isFinite, v > 0 else { return 0 }
    return Int(min(v, 8192))
}

/// Options for ``UIGraphicsImageRenderer``, as UIKit's `UIGraphicsImageRendererFormat`. Any thread, one at a time.
public final class UIGraphicsImageRendererFormat {
    /// Pixels per point of the images produced. Defaults to ``UIScreen/scale`` (1 unless the host set it).
    public var scale: CGFloat
    /// Whether the image is opaque. Ignored: images always have alpha. Defaults to `false`.
    public var opaque: Bool = false

    /// A format with the defaults.
    public init() { scale = UIScreen.mainScale }

    /// A format with the defaults (UIKit's `preferred()`).
    public static func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }

    /// A format with the defaults (UIKit's `default()`).
    public static func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// The context handed to an image renderer's drawing block, as UIKit's `UIGraphicsImageRendererContext`. Used on the
/// thread running the block.
public final class UIGraphicsImageRendererContext {
    /// The Core Graphics–style context to draw with (also current for `UIGraphicsGetCurrentContext()`).
    public let cgContext: CGContext
    /// The renderer's format.
    public let format: UIGraphicsImageRendererFormat
    let bitmap: CairoBitmap

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat, bitmap: CairoBitmap) {
        self.cgContext = cgContext
        self.format = format
        self.bitmap = bitmap
    }

    /// An image of what has been drawn so far.
    public var currentImage: UIImage {
        cairo_surface_flush(bitmap.surface)
        return UIImage(bitmaps: [CairoBitmap.copy(of: bitmap.surface)], scale: format.scale)
    }

    /// Fills `rect` with the context's fill colour.
    public func fill(_ rect: CGRect) { cgContext.fill(rect) }
    /// Strokes `rect` with the context's stroke colour.
    public func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
}

/// Draws into a new bitmap and returns it as a ``UIImage``, as UIKit's `UIGraphicsImageRenderer`.
///
/// The usual snapshot of a view: `UIGraphicsImageRenderer(size: v.bounds.size).image { v.layer.render(in:
/// $0.cgContext) }`. The bitmap starts transparent, is `ceil(size × scale)` pixels (at most 8192 a side;
/// larger drawings are cut off), and
/// user space is in points with the origin top-left.
///
/// Thread rules: any thread, as UIKit's renderer is thread-safe (a `GMSSyncTileLayer` draws its tiles with one on the
/// layer's thread). The block's context is current on the calling thread only; what the block draws must be usable
/// there (views and layers stay on the main actor).
public final class UIGraphicsImageRenderer {
    /// The drawing size in points.
    public let size: CGSize
    /// The format (scale).
    public let format: UIGraphicsImageRendererFormat

    /// A renderer for `size` points with the default format.
    public convenience init(size: CGSize) { self.init(size: size, format: UIGraphicsImageRendererFormat()) }

    /// A renderer for `size` points with `format`.
    public init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.size = size
        self.format = format
    }

    /// A renderer for `bounds.size` points with the default format.
    public convenience init(bounds: CGRect) { self.init(size: bounds.size) }

    /// Runs `actions` with a fresh context and returns the image drawn.
    public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        image(reusing: nil, actions: actions)
    }

    /// ``image(actions:)`` drawn into `reused` (cleared to transparent first) when it has the image's pixel size
    /// and nothing else holds it, else into a new bitmap.
    func image(reusing reused: CairoBitmap?, actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        let scale = format.scale > 0 && format.scale.isFinite ? format.scale : 1
        let width = pixelCount(size.width, scale)
        let height = pixelCount(size.height, scale)
        let bitmap: CairoBitmap
        if let reused, reused.width == width, reused.height == height, reused.stride > 0 {
            reused.withMutablePixels { pixels in
                // One memset (a word-by-word loop costs about 4 instructions a pixel).
                if let base = pixels.baseAddress { memset(base, 0, pixels.count * 4) }
            }
            bitmap = reused
        } else {
            bitmap = CairoBitmap.blank(width: width, height: height)
        }
        let canvas = CairoCanvas(surface: bitmap)
        canvas.scale(by: Double(scale), Double(scale))
        let context = CGContext(canvas: canvas)
        let rendererContext = UIGraphicsImageRendererContext(cgContext: context, format: format, bitmap: bitmap)
        UIGraphicsPushContext(context)
        actions(rendererContext)
        UIGraphicsPopContext()
        cairo_surface_flush(bitmap.surface)
        return UIImage(bitmaps: [bitmap], scale: scale)
    }

    /// Runs `actions` and returns the image as PNG data.
    public func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        image(actions: actions).pngData() ?? Data()
    }
}

extension CGContext {
    /// Composites an image's pixels with an affine placement: the hot path the map uses for marker icons and info
    /// windows. Not API (underscored).
    ///
    /// - Parameters:
    ///   - image: the image; its current frame (``UIImage/surface(atTime:)`` for animated images) is drawn.
    ///   - time: seconds into an animated image's loop; ignored for still images.
    ///   - transform: maps the image's point space (origin top-left, `image.size` points) into this context's user
    ///     space (view points).
    ///   - snapToPixels: when `true`, `transform` has no rotation or scale, and the context's current matrix is a scale
    ///     by `deviceScale` plus any translation (a view drawn at any origin, for example a map placed as a subview),
    ///     the image's origin is rounded to whole device pixels through that matrix; when the image's scale also
    ///     equals `deviceScale`, the pixels are copied without resampling. Under any other matrix the image is
    ///     drawn through it, unsnapped.
    ///   - deviceScale: device pixels per point of this context (≥ 1).
    ///   - alpha: opacity in [0, 1]; values outside are clamped.
    package func drawImage(
        _ image: UIImage, time: Double = 0, transform: CGAffineTransform, snapToPixels: Bool, deviceScale: CGFloat,
        alpha: CGFloat
    ) {
        let bitmap = image.images == nil ? image.surface : image.surface(atTime: time)
        guard let surface = bitmap?.surface, image.scale > 0, deviceScale > 0 else { return }
        let pw = Double(cairo_image_surface_get_width(surface))
        let ph = Double(cairo_image_surface_get_height(surface))
        guard pw > 0, ph > 0 else { return }
        let opacity = Double(min(max(alpha, 0), 1))
        let cr = cairo
        cairo_save(cr)
        let m = transform
        // The context's own matrix: user space (view points) → device pixels, translation included.
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        let ds = Double(deviceScale)
        let pixelAligned =
            ctm.xy == 0 && ctm.yx == 0 && abs(ctm.xx - ds) < 1e-9 && abs(ctm.yy - ds) < 1e-9 && ctm.x0.isFinite
            && ctm.y0.isFinite
        let snaps = snapToPixels && pixelAligned
        if snaps && abs(image.scale - deviceScale) < 1e-9 {
            // Blit at whole device pixels: the origin converted through the context's matrix, then rounded.
            let x = (ctm.x0 + Double(m.tx) * ds).rounded()
            let y = (ctm.y0 + Double(m.ty) * ds).rounded()
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, surface, x, y)
            cairo_rectangle(cr, x, y, pw, ph)
        } else {
            var matrix = cairo_matrix_t(
                xx: Double(m.a), yx: Double(m.b), xy: Double(m.c), yy: Double(m.d), x0: Double(m.tx), y0: Double(m.ty))
            if snaps {
                // Different raster scale, still snapped: round the origin to device pixels (through the matrix).
                matrix.x0 = ((ctm.x0 + matrix.x0 * ds).rounded() - ctm.x0) / ds
                matrix.y0 = ((ctm.y0 + matrix.y0 * ds).rounded() - ctm.y0) / ds
            }
            cairo_transform(cr, &matrix)
            let k = 1 / Double(image.scale)
            cairo_scale(cr, k, k)
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, pw, ph)
        }
        if opacity >= 1 {
            cairo_fill(cr)
        } else {
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
        cairo_restore(cr)
    }
}

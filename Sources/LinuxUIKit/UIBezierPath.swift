import CCairo
import Foundation

/// A vector path of lines, arcs and curves that fills and strokes into the current graphics context, as UIKit's
/// `UIBezierPath`. Coordinates are points; angles radians; `clockwise` is as seen on screen (y down).
/// - Thread rules: any thread, one at a time; it fills and strokes into the calling thread's
///   `UIGraphicsGetCurrentContext()`, as UIKit's.
open class UIBezierPath {
    var elements: [PathElement] = []
    private var current: CGPoint?

    /// Stroke width, points. Defaults to 1.
    open var lineWidth: CGFloat = 1

    /// An empty path.
    public init() {}

    /// A path with the elements of `cgPath`, as UIKit's `init(cgPath:)`.
    public convenience init(cgPath: CGPath) {
        self.init()
        self.cgPath = cgPath
    }

    /// A closed rectangle.
    public convenience init(rect: CGRect) {
        self.init()
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        close()
    }

    /// A closed ellipse inscribed in `rect` (approximated by four cubic Béziers, error < 0.03 %).
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        let k: CGFloat = 0.552_284_749_8
        let rx = rect.width / 2
        let ry = rect.height / 2
        let c = CGPoint(x: rect.midX, y: rect.midY)
        move(to: CGPoint(x: c.x + rx, y: c.y))
        addCurve(
            to: CGPoint(x: c.x, y: c.y + ry), controlPoint1: CGPoint(x: c.x + rx, y: c.y + k * ry),
            controlPoint2: CGPoint(x: c.x + k * rx, y: c.y + ry))
        addCurve(
            to: CGPoint(x: c.x - rx, y: c.y), controlPoint1: CGPoint(x: c.x - k * rx, y: c.y + ry),
            controlPoint2: CGPoint(x: c.x - rx, y: c.y + k * ry))
        addCurve(
            to: CGPoint(x: c.x, y: c.y - ry), controlPoint1: CGPoint(x: c.x - rx, y: c.y - k * ry),
            controlPoint2: CGPoint(x: c.x - k * rx, y: c.y - ry))
        addCurve(
            to: CGPoint(x: c.x + rx, y: c.y), controlPoint1: CGPoint(x: c.x + k * rx, y: c.y - ry),
            controlPoint2: CGPoint(x: c.x + rx, y: c.y - k * ry))
        close()
    }

    /// A closed rectangle with circular corners of `cornerRadius` points (clamped to half the shorter side).
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = max(0, min(cornerRadius, min(rect.width, rect.height) / 2))
        move(to: CGPoint(x: rect.minX + r, y: rect.minY))
        addArc(
            withCenter: CGPoint(x: rect.maxX - r, y: rect.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0,
            clockwise: true)
        addArc(
            withCenter: CGPoint(x: rect.maxX - r, y: rect.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2,
            clockwise: true)
        addArc(
            withCenter: CGPoint(x: rect.minX + r, y: rect.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi,
            clockwise: true)
        addArc(
            withCenter: CGPoint(x: rect.minX + r, y: rect.minY + r), radius: r, startAngle: .pi,
            endAngle: 3 * .pi / 2, clockwise: true)
        close()
    }

    /// An open circular arc.
    public convenience init(
        arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// The end point of the last segment, or `.zero` for an empty path.
    public var currentPoint: CGPoint { current ?? .zero }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The path as an immutable ``CGPath`` (a copy: later changes to this path do not change it), as UIKit's
    /// `cgPath`; what ``CALayer/shadowPath`` takes. Setting it replaces this path's elements with the given path's.
    open var cgPath: CGPath {
        get { CGPath(elements: elements) }
        set {
            elements = newValue.elements
            current = nil
            for element in elements.reversed() {
                switch element {
                case .move(let p), .line(let p), .curve(_, _, let p): current = p
                case .arc(let c, let r, _, let end, _): current = CGPoint(x: c.x + r * cos(end), y: c.y + r * sin(end))
                case .close: continue
                }
                break
            }
        }
    }

    /// Starts a subpath at `point`.
    open func move(to point: CGPoint) {
        elements.append(.move(point))
        current = point
    }

    /// Adds a straight segment to `point`.
    open func addLine(to point: CGPoint) {
        elements.append(.line(point))
        current = point
    }

    /// Adds a cubic Bézier segment.
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        elements.append(.curve(controlPoint1, controlPoint2, endPoint))
        current = endPoint
    }

    /// Adds a quadratic Bézier segment (stored as the equivalent cubic).
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        let start = currentPoint
        let c1 = CGPoint(
            x: start.x + 2 / 3 * (controlPoint.x - start.x), y: start.y + 2 / 3 * (controlPoint.y - start.y))
        let c2 = CGPoint(
            x: endPoint.x + 2 / 3 * (controlPoint.x - endPoint.x), y: endPoint.y + 2 / 3 * (controlPoint.y - endPoint.y)
        )
        addCurve(to: endPoint, controlPoint1: c1, controlPoint2: c2)
    }

    /// Adds a circular arc, joined to the current point by a straight line; `clockwise` as seen on screen.
    open func addArc(
        withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        elements.append(.arc(center: center, radius: radius, start: startAngle, end: endAngle, clockwise: clockwise))
        current = CGPoint(x: center.x + radius * cos(endAngle), y: center.y + radius * sin(endAngle))
    }

    /// Closes the current subpath.
    open func close() { elements.append(.close) }

    /// Appends another path's elements.
    open func append(_ bezierPath: UIBezierPath) { elements += bezierPath.elements }

    /// Adds the path to `cr` (replacing its current path).
    func addPath(to cr: OpaquePointer) { addPathElements(elements, to: cr) }

    /// The bounding box of the path including control points, points; `.null` for an empty path.
    public var bounds: CGRect {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        addPath(to: cr!)
        guard !elements.isEmpty else { return .null }
        var x0 = 0.0
        var y0 = 0.0
        var x1 = 0.0
        var y1 = 0.0
        cairo_path_extents(cr, &x0, &y0, &x1, &y1)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when `point` is inside the path (non-zero winding).
    public func contains(_ point: CGPoint) -> Bool {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        addPath(to: cr!)
        return cairo_in_fill(cr, Double(point.x), Double(point.y)) != 0
    }

    /// Fills the path with the current context's fill colour (see ``UIColor/setFill()``); no-op without a context.
    open func fill() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        addPath(to: context.cairo)
        context.fillPath()
    }

    /// Strokes the path with ``lineWidth`` and the context's stroke colour; no-op without a context.
    open func stroke() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setLineWidth(lineWidth)
        addPath(to: context.cairo)
        context.strokePath()
        context.restoreGState()
    }

    /// Intersects the current context's clip with the path; no-op without a context.
    open func addClip() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        addPath(to: context.cairo)
        context.clip()
    }
}

extension UIColor {
    /// Makes this the fill and stroke colour of the calling thread's current graphics context (UIKit's `set()`).
    public func set() {
        setFill()
        setStroke()
    }

    /// Makes this the fill colour of the current graphics context; no-op without a context.
    public func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }

    /// Makes this the stroke colour of the current graphics context; no-op without a context.
    public func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }
}

/// Fills `rect` of the current graphics context with its fill colour (UIKit's `UIRectFill`).
public func UIRectFill(_ rect: CGRect) {
    UIGraphicsGetCurrentContext()?.fill(rect)
}

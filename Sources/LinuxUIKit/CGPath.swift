import CCairo
import Foundation

/// An immutable vector path, standing in for Core Graphics' `CGPath` (which Foundation on Linux lacks): what
/// ``CALayer/shadowPath`` takes and ``UIBezierPath/cgPath`` gives. Coordinates are points in the user space of
/// whoever draws it (a layer's bounds space for a shadow path). Two paths are equal when they have the same elements.
/// - Thread rules: immutable; safe to share between threads.
public final class CGPath: Equatable, Sendable {
    /// The path's elements, in the order they were added (a transform given at creation is already applied).
    let elements: [PathElement]

    init(elements: [PathElement]) { self.elements = elements }

    /// A closed rectangle, as Core Graphics' `CGPath(rect:transform:)`.
    /// - Parameters:
    ///   - rect: the rectangle, points.
    ///   - transform: applied to every point of the path, or nil for none.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let corners = [
            CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
            CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY),
        ]
        let elements: [PathElement] = [.move(corners[0])] + corners.dropFirst().map { .line($0) } + [.close]
        self.init(elements: PathElement.transform(elements, transform?.pointee))
    }

    /// A closed ellipse inscribed in `rect` (four cubic Béziers), as Core Graphics' `CGPath(ellipseIn:transform:)`.
    /// - Parameters:
    ///   - rect: the ellipse's bounding rectangle, points.
    ///   - transform: applied to every point of the path, or nil for none.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(
            roundedRect: rect, cornerWidth: rect.width / 2, cornerHeight: rect.height / 2, transform: transform)
    }

    /// A closed rectangle with elliptical corners (quarter ellipses of `cornerWidth` × `cornerHeight` points, as
    /// cubic Béziers), as Core Graphics' `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`. Corner sizes
    /// are clamped to `0...` half the rectangle's width and height (Core Graphics rejects larger ones).
    /// - Parameters:
    ///   - rect: the rectangle, points.
    ///   - cornerWidth: the corners' horizontal radius, points.
    ///   - cornerHeight: the corners' vertical radius, points.
    ///   - transform: applied to every point of the path, or nil for none.
    public init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>?
    ) {
        let rx = max(0, min(cornerWidth, rect.width / 2))
        let ry = max(0, min(cornerHeight, rect.height / 2))
        let k: CGFloat = 0.552_284_749_8
        let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        let elements: [PathElement] = [
            .move(p(x0 + rx, y0)),
            .line(p(x1 - rx, y0)),
            .curve(p(x1 - rx + k * rx, y0), p(x1, y0 + ry - k * ry), p(x1, y0 + ry)),
            .line(p(x1, y1 - ry)),
            .curve(p(x1, y1 - ry + k * ry), p(x1 - rx + k * rx, y1), p(x1 - rx, y1)),
            .line(p(x0 + rx, y1)),
            .curve(p(x0 + rx - k * rx, y1), p(x0, y1 - ry + k * ry), p(x0, y1 - ry)),
            .line(p(x0, y0 + ry)),
            .curve(p(x0, y0 + ry - k * ry), p(x0 + rx - k * rx, y0), p(x0 + rx, y0)),
            .close,
        ]
        self.elements = PathElement.transform(elements, transform?.pointee)
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The smallest rectangle containing every point of the path, control points excluded (Core Graphics'
    /// `boundingBoxOfPath`), points; `.null` for an empty path.
    public var boundingBoxOfPath: CGRect { pathExtents(elements) }

    /// Equal when both have the same elements.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs === rhs || lhs.elements == rhs.elements }
}

/// One element of a ``CGPath`` or ``UIBezierPath``.
enum PathElement: Equatable, Sendable {
    case move(CGPoint)
    case line(CGPoint)
    case curve(CGPoint, CGPoint, CGPoint)
    case arc(center: CGPoint, radius: CGFloat, start: CGFloat, end: CGFloat, clockwise: Bool)
    case close

    /// `elements` with every point mapped by `t` (nil: unchanged). Arcs are first turned into cubic Béziers.
    static func transform(_ elements: [PathElement], _ t: CGAffineTransform?) -> [PathElement] {
        guard let t, !t.isIdentity else { return elements }
        return elements.flatMap { element -> [PathElement] in
            switch element {
            case .move(let p): return [.move(p.applying(t))]
            case .line(let p): return [.line(p.applying(t))]
            case .curve(let c1, let c2, let p): return [.curve(c1.applying(t), c2.applying(t), p.applying(t))]
            case .arc(let c, let r, let a0, let a1, let cw):
                return arcAsCurves(center: c, radius: r, start: a0, end: a1, clockwise: cw).map {
                    switch $0 {
                    case .line(let p): return .line(p.applying(t))
                    case .curve(let c1, let c2, let p): return .curve(c1.applying(t), c2.applying(t), p.applying(t))
                    default: return $0
                    }
                }
            case .close: return [.close]
            }
        }
    }

    /// A circular arc as a line to its start and cubic Béziers of at most a quarter turn each (as cairo draws arcs:
    /// clockwise on screen goes from `start` up to `end`, the other way down).
    static func arcAsCurves(
        center c: CGPoint, radius r: CGFloat, start: CGFloat, end: CGFloat, clockwise: Bool
    ) -> [PathElement] {
        var a1 = end
        if clockwise {
            while a1 < start { a1 += 2 * .pi }
        } else {
            while a1 > start { a1 -= 2 * .pi }
        }
        let sweep = a1 - start
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / CGFloat(pieces)
        let k = 4 / 3 * tan(step / 4)
        func point(_ a: CGFloat) -> CGPoint { CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a)) }
        var out: [PathElement] = [.line(point(start))]
        for i in 0..<pieces {
            let a = start + CGFloat(i) * step
            let b = a + step
            out.append(
                .curve(
                    CGPoint(x: c.x + r * (cos(a) - k * sin(a)), y: c.y + r * (sin(a) + k * cos(a))),
                    CGPoint(x: c.x + r * (cos(b) + k * sin(b)), y: c.y + r * (sin(b) - k * cos(b))), point(b)))
        }
        return out
    }
}

/// Adds `elements` to `cr` as its new current path.
func addPathElements(_ elements: [PathElement], to cr: OpaquePointer) {
    cairo_new_path(cr)
    for element in elements {
        switch element {
        case .move(let p): cairo_move_to(cr, Double(p.x), Double(p.y))
        case .line(let p): cairo_line_to(cr, Double(p.x), Double(p.y))
        case .curve(let c1, let c2, let p):
            cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
        case .arc(let c, let r, let a0, let a1, let cw):
            if cw {
                cairo_arc(cr, Double(c.x), Double(c.y), Double(r), Double(a0), Double(a1))
            } else {
                cairo_arc_negative(cr, Double(c.x), Double(c.y), Double(r), Double(a0), Double(a1))
            }
        case .close: cairo_close_path(cr)
        }
    }
}

/// The extents of the filled path (cairo's `cairo_path_extents`), points; `.null` when empty.
func pathExtents(_ elements: [PathElement]) -> CGRect {
    guard !elements.isEmpty else { return .null }
    let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
    let cr = cairo_create(surface)
    defer {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }
    addPathElements(elements, to: cr!)
    var x0 = 0.0
    var y0 = 0.0
    var x1 = 0.0
    var y1 = 0.0
    cairo_path_extents(cr, &x0, &y0, &x1, &y1)
    return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
}

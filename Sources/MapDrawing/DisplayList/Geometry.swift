// Screen-space value types for drawing. Screen space: points, origin at the top-left of the frame, x to the right,
// y down. A display list carries a device scale factor; the backend multiplies points by it to get device pixels.
// Points and sizes are MapGeometry's `ScreenPoint` and `ScreenSize`.

import MapGeometry

/// An axis-aligned rectangle in screen space (points); `origin` is its top-left corner.
public struct RenderRect: Hashable, Sendable {
    /// Top-left corner in points.
    public var origin: ScreenPoint
    /// Width and height in points.
    public var size: ScreenSize

    /// Creates a rectangle from its top-left corner and size, in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = ScreenPoint(x: x, y: y)
        size = ScreenSize(width: width, height: height)
    }

    /// Left edge (x of the origin), in points.
    public var minX: Double { origin.x }
    /// Top edge (y of the origin), in points.
    public var minY: Double { origin.y }
    /// Right edge, in points.
    public var maxX: Double { origin.x + size.width }
    /// Bottom edge, in points.
    public var maxY: Double { origin.y + size.height }
    /// Width in points.
    public var width: Double { size.width }
    /// Height in points.
    public var height: Double { size.height }

    /// True when the two rectangles overlap with a positive area (touching edges do not intersect).
    public func intersects(_ other: RenderRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// A 2-D affine transform `(x', y') = (a·x + c·y + tx, b·x + d·y + ty)`, the same layout as Cairo's `cairo_matrix_t`
/// (`xx = a`, `yx = b`, `xy = c`, `yy = d`, `x0 = tx`, `y0 = ty`) and CoreGraphics' `CGAffineTransform`.
public struct RenderTransform: Hashable, Sendable {
    /// Scale/rotation coefficient multiplying x into x'.
    public var a: Double
    /// Rotation/shear coefficient multiplying x into y'.
    public var b: Double
    /// Rotation/shear coefficient multiplying y into x'.
    public var c: Double
    /// Scale/rotation coefficient multiplying y into y'.
    public var d: Double
    /// Translation added to x', in points.
    public var tx: Double
    /// Translation added to y', in points.
    public var ty: Double

    /// Creates a transform from its six coefficients (see the type's documentation).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    public static let identity = RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(tx, ty)` points.
    public static func translation(x tx: Double, y ty: Double) -> RenderTransform {
        RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale by `sx`, `sy` about the origin.
    public static func scale(x sx: Double, y sy: Double) -> RenderTransform {
        RenderTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `radians` about the origin; positive angles turn clockwise on screen (y grows downwards).
    public static func rotation(radians: Double) -> RenderTransform {
        let cosine = radiansCos(radians)
        let sine = radiansSin(radians)
        return RenderTransform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` followed by `other`: applying the result equals applying `self` first, then `other`.
    public func concatenating(_ other: RenderTransform) -> RenderTransform {
        RenderTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Applies the transform to a point.
    public func apply(to point: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// Whether all six coefficients are finite (no NaN or infinity).
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// The inverse transform, or `nil` when the linear part is singular (|determinant| ≤ 1e-12).
    public var inverted: RenderTransform? {
        let det = a * d - b * c
        guard abs(det) > 1e-12 else { return nil }
        return RenderTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det, tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The axis-aligned bounds of the rectangle from (0, 0) to (`width`, `height`) after the transform: the least and
    /// greatest x and y of its four mapped corners (same units as the transform's output).
    public func bounds(ofWidth width: Double, height: Double) -> (
        minX: Double, minY: Double, maxX: Double, maxY: Double
    ) {
        var out = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for corner in [(0.0, 0.0), (width, 0), (0, height), (width, height)] {
            let p = apply(to: ScreenPoint(x: corner.0, y: corner.1))
            out.minX = min(out.minX, p.x)
            out.minY = min(out.minY, p.y)
            out.maxX = max(out.maxX, p.x)
            out.maxY = max(out.maxY, p.y)
        }
        return out
    }
}

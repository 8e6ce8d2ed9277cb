import Foundation

/// A 2-D affine transform, as Core Graphics' `CGAffineTransform`: the matrix `[a b 0; c d 0; tx ty 1]`.
///
/// A point `(x, y)` maps to `(a·x + c·y + tx, b·x + d·y + ty)` (row-vector convention, as Core Graphics). Angles are
/// radians; with UIKit's y-down coordinates a positive angle turns clockwise on screen.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    /// Matrix entry `a` (x scale / rotation cosine).
    public var a: CGFloat
    /// Matrix entry `b`.
    public var b: CGFloat
    /// Matrix entry `c`.
    public var c: CGFloat
    /// Matrix entry `d` (y scale / rotation cosine).
    public var d: CGFloat
    /// Translation along x, in points.
    public var tx: CGFloat
    /// Translation along y, in points.
    public var ty: CGFloat

    /// Creates a transform from its six matrix entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// The identity transform.
    public static let identity = CGAffineTransform()

    /// A rotation by `angle` radians about the origin.
    public init(rotationAngle angle: CGFloat) {
        let cs = cos(angle)
        let sn = sin(angle)
        self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    /// A scale by `sx` along x and `sy` along y.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// A translation by `(tx, ty)` points.
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }

    /// True when this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2`: a point is transformed by `self` first, then by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// A translation applied before `self` (Core Graphics' `translatedBy(x:y:)`).
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before `self` (Core Graphics' `scaledBy(x:y:)`).
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation by `angle` radians applied before `self` (Core Graphics' `rotated(by:)`).
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The inverse transform; a singular (non-invertible) transform is returned unchanged, as Core Graphics does.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let ia = d / det
        let ib = -b / det
        let ic = -c / det
        let id = a / det
        return CGAffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The uniform scale factor: `√|det|` of the linear part.
    var uniformScale: CGFloat { abs(a * d - b * c).squareRoot() }

    /// The rotation angle of the linear part, radians: `atan2(b, a)`.
    var rotationAngle: CGFloat { atan2(b, a) }

    /// A rotation by the same angle with uniform scale `scale`, keeping the translation (skew is dropped).
    func withScale(_ scale: CGFloat) -> CGAffineTransform {
        let angle = rotationAngle
        return CGAffineTransform(
            a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle), tx: tx, ty: ty)
    }

    /// A rotation by `angle` radians with the same uniform scale, keeping the translation (skew is dropped).
    func withRotation(_ angle: CGFloat) -> CGAffineTransform {
        let scale = uniformScale
        return CGAffineTransform(
            a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle), tx: tx, ty: ty)
    }

    /// Entry-wise linear interpolation (how Core Animation blends two affine transforms is not documented; entry-wise
    /// blending is exact for translations and scales and close for small rotations).
    func interpolated(to other: CGAffineTransform, fraction f: CGFloat) -> CGAffineTransform {
        CGAffineTransform(
            a: a + (other.a - a) * f, b: b + (other.b - b) * f, c: c + (other.c - c) * f, d: d + (other.d - d) * f,
            tx: tx + (other.tx - tx) * f, ty: ty + (other.ty - ty) * f)
    }
}

extension CGPoint {
    /// The point mapped by `t`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped by `t` without translation: `(a·w + c·h, b·w + d·h)` (may be negative, as Core Graphics).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest axis-aligned rectangle containing the four transformed corners of this rectangle.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let x0 = xs.min() ?? 0
        let y0 = ys.min() ?? 0
        return CGRect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }
}

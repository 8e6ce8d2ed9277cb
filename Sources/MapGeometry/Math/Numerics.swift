// Shared numeric helpers. Files that need the C math library (sin, cos, log, …) import the platform's libc
// themselves: the Swift standard library has no trigonometry and FoundationEssentials does not re-export it.

/// Degrees per radian.
let degreesPerRadian: Double = 180 / .pi
/// Radians per degree.
let radiansPerDegree: Double = .pi / 180

/// Wraps `value` into the half-open range `[minimum, maximum)`. Non-finite input is returned unchanged.
/// - Parameters:
///   - value: the value to wrap.
///   - minimum: the inclusive lower end.
///   - maximum: the exclusive upper end; must be greater than `minimum`.
/// - Returns: `value` shifted by a whole number of `maximum − minimum` spans into `[minimum, maximum)`; `value`
///   itself when it is already inside or not finite.
public func wrap(_ value: Double, minimum: Double, maximum: Double) -> Double {
    guard value.isFinite else { return value }
    if value >= minimum && value < maximum { return value }
    let span = maximum - minimum
    var r = (value - minimum).truncatingRemainder(dividingBy: span)
    if r < 0 { r += span }
    let result = r + minimum
    // Rounding can land exactly on `maximum` for tiny negative remainders.
    return result >= maximum ? minimum : result
}

/// Clamps `value` into `[lower, upper]`. NaN is returned unchanged.
@inlinable
func clamp<T: Comparable>(_ value: T, _ lower: T, _ upper: T) -> T {
    min(max(value, lower), upper)
}

extension Double {
    /// `rounded()` (to nearest, halves away from zero, the sign of a zero kept), bit for bit, without the C library
    /// call `rounded()` makes on a baseline x86-64 build and without a branch on the fraction (random fractions
    /// mispredict one): for the per-vertex snaps of the line rasteriser and the tile clipper. Exact for
    /// `|self| < 2⁵²`; larger values and NaN take `rounded()` itself. Waymark's own, package access.
    @inlinable package var roundedHalfAwayFromZero: Double {
        guard abs(self) < 0x1p52 else { return rounded() }
        let t = Double(Int64(self))  // toward zero, exactly
        let f = self - t  // the fraction, exactly, in (−1, 1)
        // 2f is exact and truncates to +1 for f ≥ ½, −1 for f ≤ −½, 0 otherwise: the step away from zero. The sum
        // is rounded's magnitude, and it has self's sign whenever it is not zero.
        return Double(signOf: self, magnitudeOf: t + Double(Int64(f + f)))
    }
}

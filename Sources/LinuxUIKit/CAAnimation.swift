import Foundation
import WaymarkTime

/// A value Core Animation can blend between two states. A Waymark protocol (Core Animation blends by key-value
/// coding instead): `CGFloat`, `Double`, `Float`, `CGPoint`, `CGSize`, `CGRect`, `CGAffineTransform`, `UIColor` and
/// `CGColor` conform; a layer subclass (such as a map marker layer) can animate its own keys with these types.
public protocol CAInterpolatable {
    /// The value at `fraction` of the way from `self` (0) to `other` (1); `fraction` may leave `0...1` for
    /// overshooting curves.
    func interpolated(to other: Self, fraction: Double) -> Self
}

extension Double: CAInterpolatable {
    /// Linear interpolation.
    public func interpolated(to other: Double, fraction: Double) -> Double { self + (other - self) * fraction }
}
extension Float: CAInterpolatable {
    /// Linear interpolation.
    public func interpolated(to other: Float, fraction: Double) -> Float { self + (other - self) * Float(fraction) }
}
extension CGFloat: CAInterpolatable {
    /// Linear interpolation.
    public func interpolated(to other: CGFloat, fraction: Double) -> CGFloat {
        self + (other - self) * CGFloat(fraction)
    }
}
extension CGPoint: CAInterpolatable {
    /// Linear interpolation of both coordinates.
    public func interpolated(to other: CGPoint, fraction: Double) -> CGPoint {
        CGPoint(x: x.interpolated(to: other.x, fraction: fraction), y: y.interpolated(to: other.y, fraction: fraction))
    }
}
extension CGSize: CAInterpolatable {
    /// Linear interpolation of width and height.
    public func interpolated(to other: CGSize, fraction: Double) -> CGSize {
        CGSize(
            width: width.interpolated(to: other.width, fraction: fraction),
            height: height.interpolated(to: other.height, fraction: fraction))
    }
}
extension CGRect: CAInterpolatable {
    /// Linear interpolation of origin and size.
    public func interpolated(to other: CGRect, fraction: Double) -> CGRect {
        CGRect(
            origin: origin.interpolated(to: other.origin, fraction: fraction),
            size: size.interpolated(to: other.size, fraction: fraction))
    }
}
extension CGAffineTransform: CAInterpolatable {
    /// Entry-wise interpolation of the matrix.
    public func interpolated(to other: CGAffineTransform, fraction: Double) -> CGAffineTransform {
        interpolated(to: other, fraction: CGFloat(fraction))
    }
}
extension UIColor: CAInterpolatable {
    /// Component-wise interpolation of straight sRGB components and alpha.
    public func interpolated(to other: UIColor, fraction: Double) -> Self {
        // `Self` is always `UIColor` (the class is final).
        // swift-format-ignore: NeverForceUnwrap
        interpolated(to: other, fraction: CGFloat(fraction)) as! Self
    }
}
extension CGColor: CAInterpolatable {
    /// Component-wise interpolation of straight sRGB components and alpha.
    public func interpolated(to other: CGColor, fraction: Double) -> Self {
        let f = CGFloat(fraction)
        // swift-format-ignore: NeverForceUnwrap
        return CGColor(
            red: red + (other.red - red) * f, green: green + (other.green - green) * f,
            blue: blue + (other.blue - blue) * f, alpha: alpha + (other.alpha - alpha) * f) as! Self
    }
}

extension CAInterpolatable {
    fileprivate func interpolatedAny(to other: Any, fraction: Double) -> Any? {
        guard let other = other as? Self else { return nil }
        return interpolated(to: other, fraction: fraction)
    }
}

/// Blends two values of the same ``CAInterpolatable`` type; `to` once `fraction ≥ 1` when they cannot be blended.
func interpolateAny(_ from: Any?, _ to: Any?, fraction: Double) -> Any? {
    guard let from, let to else { return fraction >= 1 ? to : from }
    if let a = from as? any CAInterpolatable, let v = a.interpolatedAny(to: to, fraction: fraction) { return v }
    return fraction >= 1 ? to : from
}

/// A timing curve mapping elapsed time to progress, as Core Animation's `CAMediaTimingFunction`: a cubic Bézier from
/// `(0,0)` to `(1,1)` with two control points.
public final class CAMediaTimingFunction: Sendable {
    /// The names of Core Animation's predefined curves.
    public struct Name: RawRepresentable, Hashable, Sendable {
        /// The name string.
        public var rawValue: String
        /// Creates a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Constant speed: control points (0,0), (1,1).
        public static let linear = Name(rawValue: "linear")
        /// Slow start: (0.42, 0), (1, 1).
        public static let easeIn = Name(rawValue: "easeIn")
        /// Slow end: (0, 0), (0.58, 1).
        public static let easeOut = Name(rawValue: "easeOut")
        /// Slow start and end: (0.42, 0), (0.58, 1).
        public static let easeInEaseOut = Name(rawValue: "easeInEaseOut")
        /// Core Animation's default: (0.25, 0.1), (0.25, 1).
        public static let `default` = Name(rawValue: "default")
    }

    let c1x: Double
    let c1y: Double
    let c2x: Double
    let c2y: Double

    /// A predefined curve; unknown names give `.default`.
    public convenience init(name: Name) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// A curve with control points `(c1x, c1y)` and `(c2x, c2y)`; x values are clamped to `0...1`.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = Double(min(max(c1x, 0), 1))
        self.c1y = Double(c1y)
        self.c2x = Double(min(max(c2x, 0), 1))
        self.c2y = Double(c2y)
    }

    /// The progress (y) at elapsed fraction `x` (clamped to `0...1`), solving the Bézier's x(s) = x by bisection
    /// to 1e-12 (exactly `x` for the linear curve).
    package func timingProgress(at x: Double) -> Double {
        let x = min(max(x, 0), 1)
        if x == 0 || x == 1 || (c1x == c1y && c2x == c2y) { return x }
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0
        var hi = 1.0
        var s = x
        for _ in 0..<60 {
            s = (lo + hi) / 2
            let v = bezier(s, c1x, c2x)
            if abs(v - x) < 1e-12 { break }
            if v < x { lo = s } else { hi = s }
        }
        return bezier(s, c1y, c2y)
    }
}

/// Receives start and stop notices of a ``CAAnimation``, as Core Animation's `CAAnimationDelegate`.
@preconcurrency @MainActor public protocol CAAnimationDelegate: AnyObject {
    /// The animation began (called on the tick on which it is added).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `finished` is `true` when it ran to its end, `false` when it was removed or replaced.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Does nothing.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The base of layer animations, as Core Animation's `CAAnimation`.
///
/// Times are seconds on ``UIAnimator/clock``. An animation added with ``CALayer/add(_:forKey:)`` is evaluated when
/// presentation values are read; ``UIAnimator/tick()`` removes finished animations and reports their ends.
@preconcurrency @MainActor open class CAAnimation {
    /// Length of one run, seconds. `0` (the default) means ``CATransaction/animationDuration()`` at the time it is
    /// added (0.25 s outside any transaction).
    public var duration: TimeInterval = 0
    /// Start time on ``UIAnimator/clock``, seconds; `0` (the default) means "when added".
    public var beginTime: TimeInterval = 0
    /// The pacing curve; `nil` (the default) means linear, as Core Animation.
    public var timingFunction: CAMediaTimingFunction?
    /// Whether the animation is removed from the layer when it ends. Defaults to `true`. When `false`, the final
    /// value stays presented until the animation is removed.
    public var isRemovedOnCompletion: Bool = true
    /// How many times a run repeats, as Core Animation's `CAMediaTiming.repeatCount`: fractions play part of the last
    /// run, `.infinity` repeats until the animation is removed (the layer then asks for frames for ever, as a pulsing
    /// view does on iOS). `0` (the default) and negative or NaN values mean one run.
    public var repeatCount: Float = 0
    /// Whether each run plays forwards then backwards (`CAMediaTiming.autoreverses`): a run then lasts twice
    /// ``duration`` and ends at its start value. Defaults to `false`.
    public var autoreverses: Bool = false
    /// Notified when the animation starts and stops (held strongly, as Core Animation does).
    public var delegate: (any CAAnimationDelegate)?

    /// Creates an animation with the defaults.
    public required init() {}

    /// Creates an animation with the defaults (Core Animation's class constructor).
    public class func animation() -> Self { self.init() }
}

/// An animation of one layer property named by a key path, as Core Animation's `CAPropertyAnimation`.
@preconcurrency @MainActor open class CAPropertyAnimation: CAAnimation {
    /// The animated property: `"opacity"`, `"backgroundColor"`, `"transform"`, `"bounds"`, `"bounds.size"`,
    /// `"position"`, `"cornerRadius"`, `"borderWidth"`, `"borderColor"`, `"shadowOpacity"`, `"shadowRadius"`,
    /// `"shadowOffset"`, `"shadowColor"`, or a key a layer subclass handles in ``CALayer/value(forKey:)``.
    public var keyPath: String?

    /// An animation of `keyPath`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }
}

/// Interpolates one property from ``fromValue`` to ``toValue``, as Core Animation's `CABasicAnimation`.
///
/// A `nil` `fromValue` starts from the layer's presented value when the animation is added; a `nil` `toValue`
/// ends at the layer's model value. Values must be the property's type (`Float` or `CGFloat`/`Double` for opacity,
/// `CGAffineTransform` for `transform`, `CGColor`/`UIColor` for colours…); values of mismatched types jump at the end.
@preconcurrency @MainActor open class CABasicAnimation: CAPropertyAnimation {
    /// The start value, or `nil` for "the presented value when added".
    public var fromValue: Any?
    /// The end value, or `nil` for "the model value".
    public var toValue: Any?
}

/// The time on Core Animation's clock in seconds, as Core Animation's `CACurrentMediaTime()`: ``UIAnimator/clock``,
/// the clock ``CAAnimation/beginTime`` is read against (`animation.beginTime = CACurrentMediaTime() + 0.5` starts
/// half a second from now; a manual clock in headless runs and tests). Any thread: off the main actor it reads the
/// system clock, which the animator uses unless a host replaced it.
public func CACurrentMediaTime() -> TimeInterval {
    guard isOnMainActor() else { return SystemClock.shared.now }
    return MainActor.assumeIsolated { UIAnimator.shared.clock.now }
}

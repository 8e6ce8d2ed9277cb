import Foundation

/// Animates one property through a list of values, as Core Animation's `CAKeyframeAnimation`.
///
/// ``values`` are reached at ``keyTimes`` (fractions of the duration, from 0 to 1, one per value; nil or a list of the
/// wrong length spaces the values evenly). Between two values the property is interpolated linearly (the
/// `calculationMode` `.linear`; `.discrete` holds each value until the next key time). The animation's
/// `timingFunction` eases the whole run; ``timingFunctions`` (one per interval) ease each interval. Values must be
/// the property's type, as for ``CABasicAnimation``. An animation without values animates from the presented to
/// the model value.
@preconcurrency @MainActor open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The values, in order.
    public var values: [Any]?
    /// When each value is reached, as fractions of the duration in `[0, 1]`, non-decreasing; nil: evenly spaced.
    public var keyTimes: [NSNumber]?
    /// The easing of each interval between two values (one fewer than ``values``); nil: linear.
    public var timingFunctions: [CAMediaTimingFunction]?
    /// How values between key times are computed: `.linear` (the default) or `.discrete`.
    public var calculationMode: CAAnimationCalculationMode = .linear

    /// The value at eased `progress` (0…1) of the run, or nil without values.
    func value(atProgress progress: Double, like model: Any?) -> Any? {
        guard let values, !values.isEmpty else { return nil }
        let normalized = values.map { normalize($0, like: model) ?? $0 }
        guard normalized.count > 1 else { return normalized[0] }
        let times: [Double]
        if let keyTimes, keyTimes.count == normalized.count {
            times = keyTimes.map { min(max($0.doubleValue, 0), 1) }
        } else {
            times = (0..<normalized.count).map { Double($0) / Double(normalized.count - 1) }
        }
        let p = min(max(progress, 0), 1)
        var i = 0
        while i < times.count - 2 && p >= times[i + 1] { i += 1 }
        if calculationMode == .discrete { return normalized[p >= times[i + 1] ? i + 1 : i] }
        let span = times[i + 1] - times[i]
        var f = span > 0 ? min(max((p - times[i]) / span, 0), 1) : 1
        if let functions = timingFunctions, i < functions.count { f = functions[i].timingProgress(at: f) }
        return interpolateAny(normalized[i], normalized[i + 1], fraction: f)
    }
}

/// How a ``CAKeyframeAnimation`` computes values between key times, as Core Animation's
/// `CAAnimationCalculationMode`.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public var rawValue: String
    /// A mode named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Linear interpolation between values (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each value holds until the next key time.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Treated as ``linear`` (Waymark's choice: no even pacing).
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// Treated as ``linear`` (Waymark's choice: no spline through the values).
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// Treated as ``linear`` (Waymark's choice).
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

import Foundation
import WaymarkTime

extension UIView {
    /// Options of `UIView.animate`, as UIKit's `UIView.AnimationOptions`. Only the curve options change behaviour;
    /// the others are accepted and ignored (Waymark always starts from the presented value, as
    /// `.beginFromCurrentState`; `.repeat` and `.autoreverse` are not supported).
    public struct AnimationOptions: OptionSet, Sendable {
        /// The option bits (UIKit's values).
        public let rawValue: UInt
        /// Creates options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Accepted, no effect.
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// Accepted, no effect.
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Accepted; Waymark always starts from the presented value.
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Accepted, not supported (runs once).
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Accepted, not supported (runs forwards only).
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// Accepted, no effect.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// Accepted, no effect.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        /// Slow start and end: Bézier (0.42, 0), (0.58, 1). The default curve.
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        /// Slow start: (0.42, 0), (1, 1).
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        /// Slow end: (0, 0), (0.58, 1).
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        /// Constant speed.
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        var timingFunction: CAMediaTimingFunction {
            switch (rawValue >> 16) & 3 {
            case 1: return CAMediaTimingFunction(name: .easeIn)
            case 2: return CAMediaTimingFunction(name: .easeOut)
            case 3: return CAMediaTimingFunction(name: .linear)
            default: return CAMediaTimingFunction(name: .easeInEaseOut)
            }
        }
    }

    /// The settings of an open `animate` block.
    struct AnimationContext {
        var duration: TimeInterval
        var delay: TimeInterval
        var start: TimeInterval
        var timing: CAMediaTimingFunction
        var group: AnimationGroup
    }

    static var animationContexts: [AnimationContext] = []

    /// The innermost open `animate` block when animations are enabled and its duration is positive, else nil.
    static var currentAnimationContext: AnimationContext? {
        guard areAnimationsEnabled, let context = animationContexts.last, context.duration > 0 else { return nil }
        return context
    }

    /// Not API: true inside a `UIView.animate` block that animates (enabled, positive duration). Waymark's map reads
    /// it to animate its own properties (padding, marker views) with ``CALayer/addViewAnimation(forKey:from:to:)``.
    package static var isInsideAnimationBlock: Bool { currentAnimationContext != nil }
    private static var animationsEnabled = true

    /// Whether property changes inside `animate` blocks animate. Defaults to `true`.
    public static var areAnimationsEnabled: Bool { animationsEnabled }

    /// Turns animations on or off globally; while off, changes inside `animate` blocks apply at once (completions
    /// still run on the next tick).
    public static func setAnimationsEnabled(_ enabled: Bool) { animationsEnabled = enabled }

    /// Runs `actionsWithoutAnimation` with animations disabled, then restores the previous setting.
    public static func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        let saved = animationsEnabled
        animationsEnabled = false
        actionsWithoutAnimation()
        animationsEnabled = saved
    }

    /// Animates the view property changes made in `animations`, as UIKit's method of the same name.
    ///
    /// Model values change at once; presented values move from what was on screen (so an interrupted animation
    /// continues from its presented value) to the new values along the curve chosen in `options` (ease-in-out by
    /// default), starting `delay` seconds from now on ``UIAnimator/clock``. Animatable: `alpha`, `backgroundColor`,
    /// `tintColor`, `transform`, `bounds`, `frame`, `center`.
    ///
    /// `completion` runs on the first ``UIAnimator/tick()`` (or render) after every animation started here has
    /// ended: `finished` is `false` when any was replaced by a newer animation of the same property or removed.
    /// When nothing changed, or `duration ≤ 0`, the changes apply at once and `completion(true)` runs on the next
    /// tick.
    /// - Parameters:
    ///   - duration: seconds (values ≤ 0 apply at once).
    ///   - delay: seconds before the start (negative values become 0); the old values show meanwhile.
    ///   - options: the timing curve (see ``AnimationOptions``).
    ///   - animations: the property changes; runs once, immediately.
    ///   - completion: called with `finished`, or nil.
    public static func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        let group = AnimationGroup()
        group.completion = completion
        let context = AnimationContext(
            duration: duration.isFinite ? max(0, duration) : 0, delay: delay.isFinite ? max(0, delay) : 0,
            start: UIAnimator.shared.now, timing: options.timingFunction, group: group)
        animationContexts.append(context)
        animations()
        animationContexts.removeLast()
        group.seal()
    }

    /// `animate(withDuration:delay: 0, options: [], animations:completion:)`.
    public static func animate(
        withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// `animate(withDuration:delay: 0, options: [], animations:completion: nil)`.
    public static func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// UIKit's spring animation, approximated: runs with the ease-out curve over `duration` (damping and initial
    /// velocity are ignored; no overshoot).
    public static func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
        initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [], animations: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        var curve = options.subtracting(.curveLinear)
        curve.insert(.curveEaseOut)
        animate(withDuration: duration, delay: delay, options: curve, animations: animations, completion: completion)
    }

    /// The clock animations read: ``UIAnimator/clock``. Tests set a `ManualClock` here.
    public static var animationClock: any TimeSource {
        get { UIAnimator.shared.clock }
        set { UIAnimator.shared.clock = newValue }
    }
}

extension CALayer {
    /// Not API: animates `keyPath` of this layer from `from` to `to` with the innermost `UIView.animate` block's
    /// duration, delay and curve, joining that block's completion (and any open `CATransaction`'s). Replaces earlier
    /// animations of the key (reported unfinished). Returns false, adding nothing, outside an animating block.
    /// Waymark's map calls it for properties that UIKit documents as animatable in view animation blocks.
    @discardableResult
    package func addViewAnimation(forKey keyPath: String, from: Any?, to: Any?) -> Bool {
        guard let context = UIView.currentAnimationContext else { return false }
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = context.duration
        animation.beginTime = context.start + context.delay
        animation.timingFunction = context.timing
        removeEntries(forKeyPath: keyPath)
        add(animation, forKey: keyPath, extraGroups: [context.group])
        return true
    }
}

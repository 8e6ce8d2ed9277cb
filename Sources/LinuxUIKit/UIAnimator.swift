import Foundation
import WaymarkTime

/// Drives every view and layer animation from one injectable clock, and reports finished animations.
///
/// Model values change at once; presented values are computed from ``clock`` whenever they are read (rendering, a
/// layer's `presentation()`). Hosts call ``tick()`` once per frame: it removes animations whose end time has passed
/// and then calls their completion handlers, `CATransaction` completion blocks and `CAAnimationDelegate` methods, in
/// the order the animations ended. Rendering a view tree also calls ``tick()`` first. Handlers for interrupted
/// animations (`finished == false`) are also delivered on the next tick, never inside the call that interrupted them.
/// - Thread rules: main actor only, as UIKit.
@preconcurrency @MainActor public final class UIAnimator {
    /// The animator every view and layer uses.
    public static let shared = UIAnimator()

    /// The time source for animations, seconds. Defaults to `SystemClock.shared`; tests set a `ManualClock`.
    /// Replacing the clock does not move running animations: their start times stay on the old time line.
    public var clock: any TimeSource = SystemClock.shared

    private struct WeakLayer {
        weak var layer: CALayer?
    }
    private var animatedLayers: [ObjectIdentifier: WeakLayer] = [:]
    private var pending: [() -> Void] = []

    private init() {}

    /// Seconds on ``clock``.
    public var now: TimeInterval { clock.now }

    /// True while any layer has an animation that has not been removed, or handlers wait for delivery.
    public var hasRunningAnimations: Bool {
        !pending.isEmpty || animatedLayers.values.contains { $0.layer?.hasAnimations == true }
    }

    /// Removes finished animations and delivers the completion handlers that are due. Call once per frame.
    public func tick() {
        let time = now
        for (id, entry) in animatedLayers {
            guard let layer = entry.layer else {
                animatedLayers[id] = nil
                continue
            }
            layer.removeFinishedAnimations(at: time)
            if !layer.hasAnimations { animatedLayers[id] = nil }
        }
        // Handlers may start new animations; those report on a later tick.
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll()
            for handler in batch { handler() }
        }
    }

    /// Cancels every animation without calling handlers and forgets queued handlers (for tests and host resets).
    package func reset() {
        for entry in animatedLayers.values { entry.layer?.dropAllAnimationsSilently() }
        animatedLayers.removeAll()
        pending.removeAll()
        CATransaction.stack.removeAll()
        UIView.animationContexts.removeAll()
    }

    func register(_ layer: CALayer) {
        animatedLayers[ObjectIdentifier(layer)] = WeakLayer(layer: layer)
    }

    func enqueue(_ handler: @escaping () -> Void) {
        pending.append(handler)
    }
}

/// Collects the animations started together (one `UIView.animate` call or one `CATransaction`) and calls the
/// completion once all of them have ended, with `finished == false` when any was interrupted.
@MainActor final class AnimationGroup {
    var remaining = 0
    var finished = true
    var sealed = false
    var completion: ((Bool) -> Void)?

    func add() { remaining += 1 }

    func end(finished: Bool) {
        remaining -= 1
        if !finished { self.finished = false }
        fireIfDone()
    }

    func seal() {
        sealed = true
        fireIfDone()
    }

    private func fireIfDone() {
        guard sealed, remaining <= 0, let completion else { return }
        self.completion = nil
        let finished = self.finished
        UIAnimator.shared.enqueue { completion(finished) }
    }
}

/// The ``CATransaction/setValue(_:forKey:)`` key of the default animation duration (seconds), as Core Animation's.
public let kCATransactionAnimationDuration = "animationDuration"
/// The ``CATransaction/setValue(_:forKey:)`` key of the default timing function, as Core Animation's.
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// The ``CATransaction/setValue(_:forKey:)`` key of the disable-actions flag, as Core Animation's.
public let kCATransactionDisableActions = "disableActions"
/// The ``CATransaction/setValue(_:forKey:)`` key of the completion block, as Core Animation's.
public let kCATransactionCompletionBlock = "completionBlock"

/// Groups layer changes and animations, as Core Animation's `CATransaction`: a duration, a timing function and a
/// completion block for the animations added between ``begin()`` and ``commit()``.
///
/// Waymark has no implicit layer animations: setting a layer property changes it at once. Animations added with
/// `CALayer.add(_:forKey:)` (and the map's camera and marker animations, which read ``animationDuration()``) take
/// their defaults from the innermost open transaction. Main actor only.
@preconcurrency @MainActor public final class CATransaction {
    @MainActor struct Frame {
        var duration: TimeInterval?
        var timingFunction: CAMediaTimingFunction?
        var disableActions = false
        var group = AnimationGroup()
    }
    static var stack: [Frame] = []

    /// Opens a transaction (transactions nest).
    public static func begin() { stack.append(Frame()) }

    /// Closes the innermost transaction; its completion block runs (on a later ``UIAnimator/tick()``) once every
    /// animation added inside it has ended, or on the next tick if none was added. Ignored without a `begin()`.
    public static func commit() {
        guard let frame = stack.popLast() else { return }
        frame.group.seal()
    }

    /// Flushes pending changes. Nothing is pending in Waymark; provided for source compatibility.
    public static func flush() {}

    /// The duration for animations without one, seconds: the innermost transaction's setting, else 0.25.
    public static func animationDuration() -> TimeInterval {
        stack.reversed().lazy.compactMap(\.duration).first ?? 0.25
    }

    /// Sets the default animation duration (seconds, negative values become 0) of the innermost transaction.
    /// Ignored outside a transaction.
    public static func setAnimationDuration(_ duration: TimeInterval) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].duration = duration.isFinite ? max(0, duration) : 0.25
    }

    /// The innermost transaction's timing function, or nil.
    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        stack.reversed().lazy.compactMap(\.timingFunction).first
    }

    /// Sets the timing function for animations without one in the innermost transaction.
    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].timingFunction = function
    }

    /// Whether implicit actions are disabled. Recorded only (Waymark has no implicit actions).
    public static func disableActions() -> Bool { stack.last?.disableActions ?? false }

    /// Records whether implicit actions are disabled in the innermost transaction.
    public static func setDisableActions(_ flag: Bool) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].disableActions = flag
    }

    /// Sets the block to run when the innermost transaction's animations have all ended (on the main thread).
    /// Ignored outside a transaction. A plain closure, as Core Animation's block is seen from Swift: code in a
    /// nonisolated extension may capture what is not `Sendable`.
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        guard !stack.isEmpty else { return }
        if let block {
            stack[stack.count - 1].group.completion = { _ in block() }
        } else {
            stack[stack.count - 1].group.completion = nil
        }
    }

    /// The innermost transaction's value for a key, as Core Animation's `CATransaction.value(forKey:)`: the
    /// duration (`TimeInterval`) for ``kCATransactionAnimationDuration``, the timing function for
    /// ``kCATransactionAnimationTimingFunction``, the flag for ``kCATransactionDisableActions``; nil for other keys
    /// and for a completion block (write-only here).
    public static func value(forKey key: String) -> Any? {
        switch key {
        case kCATransactionAnimationDuration: return animationDuration()
        case kCATransactionAnimationTimingFunction: return animationTimingFunction()
        case kCATransactionDisableActions: return disableActions()
        default: return nil
        }
    }

    /// Sets a property of the innermost transaction by key, as Core Animation's `CATransaction.setValue(_:forKey:)`
    /// (Google's camera guide sets the map's animation duration this way):
    /// ``kCATransactionAnimationDuration`` takes a number of seconds (any `BinaryInteger`/`BinaryFloatingPoint` or
    /// `NSNumber`), ``kCATransactionAnimationTimingFunction`` a `CAMediaTimingFunction`,
    /// ``kCATransactionDisableActions`` a `Bool` or `NSNumber`, ``kCATransactionCompletionBlock`` a
    /// `@MainActor () -> Void` block. Values of another type, and other keys, are ignored; so is a call outside a
    /// transaction.
    public static func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case kCATransactionAnimationDuration:
            if let seconds = seconds(value) { setAnimationDuration(seconds) }
        case kCATransactionAnimationTimingFunction:
            if value == nil || value is CAMediaTimingFunction {
                setAnimationTimingFunction(value as? CAMediaTimingFunction)
            }
        case kCATransactionDisableActions:
            if let flag = value as? Bool {
                setDisableActions(flag)
            } else if let n = value as? NSNumber {
                setDisableActions(n.boolValue)
            }
        case kCATransactionCompletionBlock:
            if value == nil {
                setCompletionBlock(nil)
            } else if let block = value as? @MainActor () -> Void {
                setCompletionBlock(block)
            }
        default: break
        }
    }

    /// A number of seconds from a value given by key, or nil.
    private static func seconds(_ value: Any?) -> TimeInterval? {
        switch value {
        case let d as Double: return d
        case let f as Float: return Double(f)
        case let c as CGFloat: return Double(c)
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    /// The groups of every open transaction (an animation belongs to all of them).
    static var openGroups: [AnimationGroup] { stack.map(\.group) }

    /// Not API: makes an animation run by another system (the map's camera animator) count towards the completion
    /// blocks of every open transaction, like an animation added to a layer. Call ``TransactionMembership/end(finished:)``
    /// once when it ends. Returns nil outside a transaction.
    package static func joinOpenTransactions() -> TransactionMembership? {
        let groups = openGroups
        guard !groups.isEmpty else { return nil }
        for group in groups { group.add() }
        return TransactionMembership(groups: groups)
    }
}

/// Not API: an external animation's place in the open transactions (see `CATransaction.joinOpenTransactions()`).
@MainActor package final class TransactionMembership {
    private var groups: [AnimationGroup]

    init(groups: [AnimationGroup]) { self.groups = groups }

    /// Reports the animation's end (`finished == false` when it was interrupted); later calls are ignored.
    public func end(finished: Bool) {
        let ending = groups
        groups.removeAll()
        for group in ending { group.end(finished: finished) }
    }
}

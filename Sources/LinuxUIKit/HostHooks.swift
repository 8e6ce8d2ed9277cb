import Foundation
import WaymarkTime

/// Work every window host runs each loop turn, whichever host is running (Waymark's own plumbing for modules above
/// LinuxUIKit that are not views, such as CoreLocation's location updates).
///
/// A hook is called with the animator clock's time and returns when it next wants to run (clock time), or nil when it
/// has nothing scheduled; the headless host runs hooks every frame step, the window loop wakes for the earliest
/// deadline. Hooks are kept by name (registering a name again replaces it).
/// - Thread rules: main actor only.
@MainActor package enum HostTurnHooks {
    private static var hooks: [(name: String, run: (TimeInterval) -> TimeInterval?)] = []

    /// Adds or replaces the hook called `name`.
    package static func register(_ name: String, _ hook: @escaping (TimeInterval) -> TimeInterval?) {
        hooks.removeAll { $0.name == name }
        hooks.append((name, hook))
    }

    /// Removes the hook called `name`.
    package static func remove(_ name: String) { hooks.removeAll { $0.name == name } }

    /// Runs every hook at `now`; returns the earliest deadline.
    static func run(now: TimeInterval) -> TimeInterval? {
        hooks.compactMap { $0.run(now) }.min()
    }
}

/// The shared animator clock as a `TimeSource`, so a test's `ManualClock` installed in `UIAnimator.shared.clock`
/// drives everything timed from it (the map's camera animator and gestures, GPX location replay).
package final class AnimatorClock: TimeSource, @unchecked Sendable {
    /// The one instance.
    package static let shared = AnimatorClock()
    /// Seconds on `UIAnimator.shared.clock`; read on the main thread.
    package var now: Double { MainActor.assumeIsolated { UIAnimator.shared.clock.now } }
}

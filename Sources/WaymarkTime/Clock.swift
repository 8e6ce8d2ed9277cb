#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A source of monotonic time, in seconds, that animations, gestures and event delivery read.
///
/// Every time-dependent part of Waymark (the camera animator, `UIView.animate`, gesture recognisers, the map's
/// frame tick) reads time through this protocol instead of the system clock, so tests can step time by hand with
/// ``ManualClock`` and get exactly reproducible event orders.
///
/// - Thread rules: read on the main thread only, like the UIKit objects that use it.
public protocol TimeSource: AnyObject {
    /// The current time in seconds since an arbitrary, fixed origin. Never decreases.
    var now: Double { get }
}

/// The process's monotonic clock (`CLOCK_MONOTONIC`), in seconds. The default ``TimeSource`` for real hosts.
public final class SystemClock: TimeSource {
    /// Creates a clock reading `CLOCK_MONOTONIC`.
    public init() {}

    /// Seconds since an unspecified point before the process started (boot time on Linux). Never decreases.
    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// The clock shared by every object that is not given one explicitly.
    public nonisolated(unsafe) static let shared: SystemClock = SystemClock()
}

/// A clock that only moves when told to: the deterministic ``TimeSource`` for tests and scripted scenarios.
///
/// Starts at `0` (or the given start). ``advance(by:)`` moves it forward; moving backwards is a programmer error.
public final class ManualClock: TimeSource {
    /// The current time in seconds. Starts at the value given to ``init(start:)``.
    public private(set) var now: Double

    /// Creates a manual clock.
    /// - Parameter start: the initial time in seconds. Defaults to `0`. Must be finite.
    public init(start: Double = 0) {
        precondition(start.isFinite, "ManualClock start must be finite, got \(start)")
        now = start
    }

    /// Moves the clock forward.
    /// - Parameter seconds: how far to move, in seconds; must be finite and ≥ 0.
    /// - Precondition: `seconds` is finite and not negative (time never runs backwards).
    public func advance(by seconds: Double) {
        precondition(seconds.isFinite && seconds >= 0, "ManualClock can only move forward, got \(seconds) s")
        now += seconds
    }
}

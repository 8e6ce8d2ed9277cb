import Foundation

/// A source of location fixes behind the map's my-location feature (`GMSMapView.isMyLocationEnabled`, `myLocation`;
/// spec §1.1, §2.8, §4.4).
///
/// Delivery model (chosen for every provider): fixes are **pulled**, never pushed. A provider collects fixes on
/// whatever thread it likes (gpsd reads its socket on a background thread; the fixed and GPX providers compute them
/// from the injected ``TimeSource``) and hands them out from ``drainFixes()``, which the map view calls from its
/// frame tick on the main thread. So fixes reach `myLocation` and the blue dot on the same tick as every other
/// event, in a deterministic order under a `ManualClock`, and no provider ever calls into the map.
///
/// - Thread rules: `start()`, `stop()` and `drainFixes()` are called on the main thread.
package protocol LocationProvider: AnyObject {
    /// Starts producing fixes. Calling it while running does nothing.
    func start()
    /// Stops producing fixes and drops the ones not yet drained. Calling it while stopped does nothing.
    func stop()
    /// The fixes produced since the last call, oldest first (empty when none or when stopped).
    func drainFixes() -> [CLLocation]
    /// When the next fix is due on the provider's clock, given the time `now`: nil when none is scheduled (stopped,
    /// replay over). The default, for providers that receive fixes from elsewhere (gpsd), polls every 0.1 s while
    /// asked.
    func nextFixTime(now: Double) -> Double?
}

extension LocationProvider {
    /// Polls every 0.1 s.
    package func nextFixTime(now: Double) -> Double? { now + 0.1 }
}

/// What the map view holds for `isMyLocationEnabled` / `myLocation`: a provider plus the latest fix.
///
/// The map view sets ``isEnabled`` from `isMyLocationEnabled`, calls ``tick()`` once per frame, and reads
/// ``myLocation`` for the property, the dot and the accuracy circle. `myLocation` is `nil` while disabled and until
/// the first fix after enabling (spec §1.1: "nil when disabled or no fix").
///
/// - Thread rules: main thread only.
package final class MyLocationSource {
    /// The provider in use; replacing it stops the old one and starts the new one when enabled.
    package var provider: any LocationProvider {
        didSet {
            guard provider !== oldValue else { return }
            oldValue.stop()
            if isEnabled { provider.start() }
        }
    }

    /// Whether fixes are wanted (mirrors `isMyLocationEnabled`). Turning it off stops the provider and clears
    /// ``myLocation``. Defaults to `false`.
    package var isEnabled: Bool = false {
        didSet {
            guard isEnabled != oldValue else { return }
            if isEnabled {
                provider.start()
            } else {
                provider.stop()
                myLocation = nil
            }
        }
    }

    /// The latest fix, or `nil` when disabled or before the first fix.
    package private(set) var myLocation: CLLocation?

    /// Creates a source over `provider`, disabled.
    package init(provider: any LocationProvider) {
        self.provider = provider
    }

    /// Stops the provider: a running gpsd provider keeps its reading thread (and itself) alive until stopped.
    deinit {
        provider.stop()
    }

    /// Whether a fix is due at `now` while enabled (the map asks the host for a frame to take it).
    package func fixDue(now: Double) -> Bool {
        guard isEnabled, let next = provider.nextFixTime(now: now) else { return false }
        return next <= now
    }

    /// Drains the provider and keeps the newest fix. Call once per frame.
    /// - Returns: `true` when ``myLocation`` changed (the map redraws the dot and notifies observers).
    @discardableResult
    package func tick() -> Bool {
        guard isEnabled, let latest = provider.drainFixes().last else { return false }
        myLocation = latest
        return true
    }
}

/// A provider that reports one fixed location: a single fix on the first drain after each `start()`.
///
/// The default provider when nothing else is configured, and the stand-in for a device that does not move.
package final class FixedLocationProvider: LocationProvider {
    /// The location reported.
    package let location: CLLocation
    private var pending = false

    /// Creates a provider reporting `location`.
    package init(location: CLLocation) {
        self.location = location
    }

    /// Creates a provider at `coordinate` with the given accuracy in metres (default 10 m), altitude 0, timestamp
    /// now.
    package convenience init(coordinate: CLLocationCoordinate2D, horizontalAccuracy: CLLocationAccuracy = 10) {
        self.init(
            location: CLLocation(
                coordinate: coordinate, altitude: 0, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: -1,
                timestamp: Date()))
    }

    private var running = false

    package func start() {
        guard !running else { return }
        running = true
        pending = true
    }

    package func stop() {
        running = false
        pending = false
    }

    /// Now while the one fix is waiting, else none.
    package func nextFixTime(now: Double) -> Double? { pending ? now : nil }

    package func drainFixes() -> [CLLocation] {
        guard pending else { return [] }
        pending = false
        return [location]
    }
}

import Foundation
import LinuxUIKit

/// Where location fixes come from (Waymark's own; iOS uses the device's GPS): a fixed position, a GPX track replayed
/// on the host clock, or a gpsd daemon. Give one to `CLLocationManager.setLocationProvider(_:)` for the device
/// location every location manager and map follows, or to `GMSMapView.setLocationProvider(_:)` for one map's dot;
/// the `WAYMARK_LOCATION` environment variable sets the device location at launch (same forms as
/// ``init(parsing:)``).
public struct WaymarkLocationProvider: Equatable, Sendable {
    package let spec: LocationProviderSpec

    /// A fixed position (degrees WGS 84) with `accuracy` metres (default 10).
    public static func fixed(_ coordinate: CLLocationCoordinate2D, accuracy: CLLocationAccuracy = 10) -> Self {
        Self(spec: .fixed(coordinate, accuracy: accuracy))
    }

    /// A GPX track replayed from `path`: at the recorded pace, or one point every `secondsPerPoint` (> 0) seconds.
    /// Time is the animator clock's, so a headless host's virtual clock drives the replay.
    public static func gpx(path: String, secondsPerPoint: TimeInterval? = nil) -> Self {
        Self(spec: .gpx(path: path, interval: secondsPerPoint))
    }

    /// A gpsd daemon (its JSON protocol over TCP), by default on 127.0.0.1:2947.
    public static func gpsd(host: String = "127.0.0.1", port: UInt16 = 2947) -> Self {
        Self(spec: .gpsd(host: host, port: port))
    }

    /// Parses the `WAYMARK_LOCATION` forms: `fixed:LAT,LON[,ACCURACY]` (or bare `LAT,LON[,ACCURACY]`, as
    /// `map-viewer --location` takes it), `gpx:PATH[@SECONDS]`, `gpsd`, `gpsd:PORT`, `gpsd:HOST:PORT`.
    /// - Throws: an error quoting the text and naming what is wrong.
    public init(parsing text: String) throws {
        spec = try LocationProviderSpec.parse(text)
    }

    package init(spec: LocationProviderSpec) { self.spec = spec }
}

/// A provider with no fixes: the device location when no `WAYMARK_LOCATION` is configured.
package final class NoLocationProvider: LocationProvider {
    package init() {}
    package func start() {}
    package func stop() {}
    package func drainFixes() -> [CLLocation] { [] }
    package func nextFixTime(now: Double) -> Double? { nil }
}

/// The device's location: one provider whose fixes every subscriber sees — each map without a provider of its own
/// and each `CLLocationManager` — so they agree, as on a phone with one GPS.
///
/// The provider runs while any subscription is started. Fixes are pulled: a subscription's `drainFixes()` drains the
/// provider into a short shared log and returns the fixes that subscription has not seen; a subscription that starts
/// gets the newest fix first (the current location), then what follows.
/// - Thread rules: main actor only.
@MainActor package final class DeviceLocation {
    /// The device.
    package static let shared = DeviceLocation()

    private var providerStorage: (any LocationProvider)?
    private var log: [(sequence: Int, fix: CLLocation)] = []
    private var nextSequence = 1
    private var active = 0

    /// The newest fix, or nil before the first.
    package var latest: CLLocation? { log.last?.fix }

    /// The provider: the one set, else the one `WAYMARK_LOCATION` names (a bad value is reported on stderr), else
    /// none.
    package var provider: any LocationProvider {
        if let providerStorage { return providerStorage }
        let made = DeviceLocation.environmentProvider(ProcessInfo.processInfo.environment)
        providerStorage = made
        return made
    }

    /// The provider `WAYMARK_LOCATION` in `environment` names; ``NoLocationProvider`` when unset or bad (reported).
    package static func environmentProvider(_ environment: [String: String]) -> any LocationProvider {
        guard let text = environment["WAYMARK_LOCATION"], !text.isEmpty else { return NoLocationProvider() }
        do {
            return try LocationProviderSpec.parse(text).makeProvider(clock: AnimatorClock.shared)
        } catch {
            FileHandle.standardError.write(
                Data("[CoreLocation] warning: WAYMARK_LOCATION: \(error); there is no location\n".utf8))
            return NoLocationProvider()
        }
    }

    /// Replaces the provider: the old one stops, the log is cleared, the new one starts when subscriptions run.
    package func setProvider(_ provider: any LocationProvider) {
        if active > 0 { providerStorage?.stop() }
        providerStorage = provider
        log = []
        if active > 0 { provider.start() }
    }

    /// A new, stopped subscription.
    package func subscribe() -> DeviceLocationSubscription { DeviceLocationSubscription(device: self) }

    fileprivate func activate() {
        active += 1
        guard active == 1 else { return }
        provider.start()
        // Wake the host's loop when the next fix is due, so maps and managers take it on time.
        HostTurnHooks.register("DeviceLocation") { [weak self] now in self?.nextFixTime(now: now) }
    }

    fileprivate func deactivate() {
        active = max(0, active - 1)
        if active == 0 {
            provider.stop()
            // A provider that starts again replays from its beginning; the log would repeat it.
            log = []
        }
    }

    /// The sequence number before the newest fix (a new subscription's cursor: it gets the newest first).
    fileprivate var cursorForNewSubscription: Int { (log.last?.sequence ?? nextSequence) - 1 }

    /// Drains the provider into the log (keeping the newest 256).
    fileprivate func pump() {
        guard active > 0 else { return }
        for fix in provider.drainFixes() {
            log.append((nextSequence, fix))
            nextSequence += 1
        }
        if log.count > 256 { log.removeFirst(log.count - 256) }
    }

    fileprivate func fixes(after cursor: Int) -> [(sequence: Int, fix: CLLocation)] {
        log.filter { $0.sequence > cursor }
    }

    /// When the provider's next fix is due (clock time), or nil.
    package func nextFixTime(now: Double) -> Double? {
        active > 0 ? provider.nextFixTime(now: now) : nil
    }
}

/// One consumer's view of ``DeviceLocation``: a ``LocationProvider`` a map or location manager holds.
package final class DeviceLocationSubscription: LocationProvider, Sendable {
    private let state: SubscriptionState

    @MainActor fileprivate init(device: DeviceLocation) { state = SubscriptionState(device: device) }

    deinit {
        let state = state
        MainActor.assumeIsolated { state.stop() }
    }

    package func start() {
        let state = state
        MainActor.assumeIsolated { state.start() }
    }

    package func stop() {
        let state = state
        MainActor.assumeIsolated { state.stop() }
    }

    package func drainFixes() -> [CLLocation] {
        let state = state
        return MainActor.assumeIsolated { state.drain() }
    }

    package func nextFixTime(now: Double) -> Double? {
        let state = state
        return MainActor.assumeIsolated { state.nextFixTime(now: now) }
    }
}

/// A subscription's cursor into the device's log.
@MainActor private final class SubscriptionState {
    let device: DeviceLocation
    var cursor = 0
    var running = false

    init(device: DeviceLocation) { self.device = device }

    func start() {
        guard !running else { return }
        running = true
        device.activate()
        device.pump()
        cursor = device.cursorForNewSubscription
    }

    func stop() {
        guard running else { return }
        running = false
        device.deactivate()
    }

    func drain() -> [CLLocation] {
        guard running else { return [] }
        device.pump()
        let new = device.fixes(after: cursor)
        if let last = new.last { cursor = last.sequence }
        return new.map(\.fix)
    }

    func nextFixTime(now: Double) -> Double? {
        guard running else { return nil }
        device.pump()
        if !device.fixes(after: cursor).isEmpty { return now }
        return device.nextFixTime(now: now)
    }
}

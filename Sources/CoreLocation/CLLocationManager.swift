import Foundation
import LinuxUIKit

/// The domain of CoreLocation's errors as `NSError`s (``CLError``), `"kCLErrorDomain"` as on iOS.
public let kCLErrorDomain = "kCLErrorDomain"

/// Best accuracy, with extra sensors for navigation (−2), as CoreLocation's constant.
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy the device offers (−1), as CoreLocation's constant: the default `desiredAccuracy`.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Accurate to ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// Accurate to a hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// Accurate to a kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Accurate to three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// The accuracy of reduced (approximate) location: three kilometres.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
/// No distance filter (−1): every fix is reported.
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// No heading filter (−1): every heading change is reported.
public let kCLHeadingFilterNone: CLLocationDegrees = -1
/// The largest distance, as CoreLocation's `CLLocationDistanceMax`.
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude

/// Whether the app may use location, as CoreLocation's `CLAuthorizationStatus`.
public enum CLAuthorizationStatus: Int32, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Not allowed by policy.
    case restricted = 1
    /// Refused.
    case denied = 2
    /// Allowed at any time.
    case authorizedAlways = 3
    /// Allowed while the app is in use.
    case authorizedWhenInUse = 4
    /// The old name of `.authorizedAlways`.
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

/// Whether fixes are precise or approximate, as CoreLocation's `CLAccuracyAuthorization`.
public enum CLAccuracyAuthorization: Int, Sendable {
    /// Precise fixes.
    case fullAccuracy = 0
    /// Approximate fixes.
    case reducedAccuracy = 1
}

/// The kind of movement expected, as CoreLocation's `CLActivityType`; stored only.
public enum CLActivityType: Int, Sendable {
    /// Unknown movement.
    case other = 1
    /// Driving.
    case automotiveNavigation = 2
    /// Walking, running, cycling.
    case fitness = 3
    /// Other vehicles.
    case otherNavigation = 4
    /// Flying.
    case airborne = 5
}

/// A location error, as CoreLocation's `CLError`: a ``Code``.
public struct CLError: CustomNSError, Equatable, Sendable, CustomStringConvertible {
    /// CoreLocation's error domain, ``kCLErrorDomain``: `error as NSError` has this domain and the code's raw value,
    /// as on iOS.
    public static var errorDomain: String { kCLErrorDomain }
    /// The code's raw value (`kCLErrorLocationUnknown` is 0, `kCLErrorDenied` 1), as on iOS.
    public var errorCode: Int { code.rawValue }

    /// What went wrong, as CoreLocation's `CLError.Code`.
    public enum Code: Int, Sendable {
        /// No fix could be obtained (yet).
        case locationUnknown = 0
        /// The app may not use location.
        case denied = 1
        /// The network was unavailable.
        case network = 2
        /// The heading could not be determined.
        case headingFailure = 3
    }

    /// The error's code.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code) { self.code = code }

    /// `.locationUnknown`, for `error.code == .locationUnknown` style comparisons.
    public static var locationUnknown: Code { .locationUnknown }
    /// `.denied`.
    public static var denied: Code { .denied }
    /// `.network`.
    public static var network: Code { .network }
    /// `.headingFailure`.
    public static var headingFailure: Code { .headingFailure }

    /// `CLError(locationUnknown)` and so on.
    public var description: String { "CLError(\(code))" }
}

/// A compass direction, as CoreLocation's `CLHeading`. On Linux there is no compass: headings come from the course
/// of the location fixes (GPX replays with times, gpsd), so magnetic and true heading are both that course.
open class CLHeading: NSObject, @unchecked Sendable {
    /// Degrees clockwise from magnetic north, `0..<360` (the course).
    public let magneticHeading: CLLocationDirection
    /// Degrees clockwise from true north, `0..<360` (the course).
    public let trueHeading: CLLocationDirection
    /// Maximum error in degrees (10: derived from movement).
    public let headingAccuracy: CLLocationDirection
    /// When the heading was determined.
    public let timestamp: Date
    /// Raw magnetometer x (microteslas): 0, there is no magnetometer.
    public let x: Double = 0
    /// Raw magnetometer y: 0.
    public let y: Double = 0
    /// Raw magnetometer z: 0.
    public let z: Double = 0

    init(course: CLLocationDirection, timestamp: Date) {
        magneticHeading = course
        trueHeading = course
        headingAccuracy = 10
        self.timestamp = timestamp
    }
}

/// Told about location updates, authorization changes and errors, as CoreLocation's `CLLocationManagerDelegate`.
/// Every method is optional.
///
/// - Thread rules: the protocol is isolated to no actor, as on iOS, but every call comes on the main thread, from the
///   host's loop. A `@MainActor` type (a view controller) conforms as iOS code does: plainly in Swift 5 mode, and in
///   Swift 6 mode with `extension MyViewController: @preconcurrency CLLocationManagerDelegate` (Xcode's fix-it),
///   whose runtime check holds since the calls are on the main thread. Other conforming types may assume the main
///   thread (`MainActor.assumeIsolated`) in these methods.
public protocol CLLocationManagerDelegate: AnyObject {
    /// New fixes, oldest first; the last is the current location.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// Locations could not be obtained (`CLError`).
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// The authorization changed, or the manager was made (iOS 14).
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The authorization changed (the older form).
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    /// A new heading.
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    /// Whether to show the compass calibration panel (never shown on Linux).
    func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool
}

extension CLLocationManagerDelegate {
    /// Does nothing by default.
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    /// Does nothing by default.
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    /// Does nothing by default.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    /// Does nothing by default.
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
    /// Does nothing by default.
    public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}
    /// False by default.
    public func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool { false }
}

/// Delivers the device's location to a delegate, as CoreLocation's `CLLocationManager`.
///
/// The fixes are the device location's (Waymark's own plumbing): the provider `WAYMARK_LOCATION` names — a fixed
/// position, a GPX track replayed on the host clock, or gpsd — or the one given to ``setLocationProvider(_:)``. Maps
/// without a provider of their own show the same fixes, so `mapView.myLocation` and ``location`` agree.
///
/// Authorization: Linux has no permission prompt. ``requestWhenInUseAuthorization()`` and
/// ``requestAlwaysAuthorization()`` grant the asked level unless `WAYMARK_LOCATION_AUTHORIZATION=denied` (or
/// `restricted`) is set; the change reaches the delegate (`locationManagerDidChangeAuthorization(_:)`, then
/// `locationManager(_:didChangeAuthorization:)`) on the host's next turn, as does the first report after the delegate
/// is set. Updates asked for before authorization start once it is granted; when it is denied they fail with
/// `CLError.denied`.
///
/// Delivery: while updating, the host's loop (each turn of the window loop, each frame step of a headless host)
/// drains new fixes and calls `locationManager(_:didUpdateLocations:)` with those that moved at least
/// ``distanceFilter`` metres from the last reported one. ``requestLocation()`` reports one fix, then stops (after 10 s
/// of host time without one it fails with `CLError.locationUnknown`). ``desiredAccuracy`` is recorded only.
///
/// No provider (no `WAYMARK_LOCATION`, none set): ``startUpdatingLocation()`` and ``requestLocation()`` fail at the
/// host's next turn with `CLError.locationUnknown`, as the iOS Simulator does with Location set to None (once per
/// start; updates keep running, so a provider set later is followed), and the first such failure prints one notice
/// on stderr saying how to set `WAYMARK_LOCATION`.
/// - Thread rules: main thread only (the delegate is called there).
open class CLLocationManager: NSObject, @unchecked Sendable {
    /// Told about updates; held weakly. Setting it schedules an authorization report.
    open weak var delegate: (any CLLocationManagerDelegate)? {
        didSet {
            MainActor.assumeIsolated {
                guard delegate != nil else { return }
                state.pendingAuthorizationReport = true
                CLLocationManager.managers.add(self)
            }
        }
    }
    /// The accuracy wanted, metres or a `kCLLocationAccuracy…` constant; recorded only. Defaults to
    /// ``kCLLocationAccuracyBest``.
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    /// Metres a fix must move from the last reported one to be reported; ``kCLDistanceFilterNone`` (the default) or
    /// any negative value reports every fix.
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    /// Degrees the heading must change to be reported. Defaults to 1.
    open var headingFilter: CLLocationDegrees = 1
    /// The kind of movement; stored only. Defaults to `.other`.
    open var activityType: CLActivityType = .other
    /// Whether updates may pause; stored only. Defaults to true.
    open var pausesLocationUpdatesAutomatically = true
    /// Whether updates continue in the background; stored only. Defaults to false.
    open var allowsBackgroundLocationUpdates = false
    /// Whether the background indicator shows; stored only. Defaults to false.
    open var showsBackgroundLocationIndicator = false

    private var state = ManagerState()

    private struct ManagerState {
        var updating = false
        var oneShot = false
        var oneShotDeadline: Double?
        var updatingHeading = false
        var lastReported: CLLocation?
        var lastHeading: CLHeading?
        var pendingAuthorizationReport = false
        var reportedStatus: CLAuthorizationStatus?
        var subscription: DeviceLocationSubscription?
        /// Whether the running updates were told there is no location provider.
        var toldNoProvider = false
    }

    /// Creates a manager.
    public override init() {
        super.init()
    }

    // MARK: Authorization

    /// The app's authorization (shared by every manager), as CoreLocation's property.
    open var authorizationStatus: CLAuthorizationStatus { CLLocationManager.sharedStatus.withLock { $0 } }

    /// The app's authorization, as CoreLocation's older class method.
    open class func authorizationStatus() -> CLAuthorizationStatus { sharedStatus.withLock { $0 } }

    /// Full accuracy (fixes are not blurred on Linux).
    open var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }

    /// Whether location services are on: true.
    open class func locationServicesEnabled() -> Bool { true }
    /// Whether headings are available: true (they come from the course of the fixes).
    open class func headingAvailable() -> Bool { true }
    /// Whether significant-change monitoring is available: false.
    open class func significantLocationChangeMonitoringAvailable() -> Bool { false }

    /// Asks for use while the app is in use: granted (`.authorizedWhenInUse`) unless the environment denies it (see
    /// the type). Does nothing once determined.
    open func requestWhenInUseAuthorization() { request(.authorizedWhenInUse) }

    /// Asks for use at any time: granted (`.authorizedAlways`) unless the environment denies it. From
    /// `.authorizedWhenInUse` it upgrades once; otherwise it does nothing once determined.
    open func requestAlwaysAuthorization() { request(.authorizedAlways) }

    private static let sharedStatus = LockedStatus()
    @MainActor private static let managers = ManagerRegistry()

    private func request(_ level: CLAuthorizationStatus) {
        let current = authorizationStatus
        guard current == .notDetermined || (current == .authorizedWhenInUse && level == .authorizedAlways) else {
            return
        }
        let environment = ProcessInfo.processInfo.environment["WAYMARK_LOCATION_AUTHORIZATION"]?.lowercased()
        let granted: CLAuthorizationStatus =
            environment == "denied" ? .denied : environment == "restricted" ? .restricted : level
        guard granted != current else { return }
        CLLocationManager.sharedStatus.withLock { $0 = granted }
    }

    // MARK: Updates

    /// The newest fix the device has (nil before the first), as CoreLocation's property.
    open var location: CLLocation? { MainActor.assumeIsolated { DeviceLocation.shared.latest } }

    /// The newest heading reported (nil before the first).
    open var heading: CLHeading? { state.lastHeading }

    /// Starts reporting fixes to the delegate (see the type).
    open func startUpdatingLocation() {
        MainActor.assumeIsolated {
            state.updating = true
            state.toldNoProvider = false
            activate()
        }
    }

    /// Stops reporting fixes (a pending ``requestLocation()`` is cancelled too).
    open func stopUpdatingLocation() {
        MainActor.assumeIsolated {
            state.updating = false
            state.oneShot = false
            state.oneShotDeadline = nil
            deactivateIfIdle()
        }
    }

    /// Reports one fix, then stops, as CoreLocation's method (see the type).
    open func requestLocation() {
        MainActor.assumeIsolated {
            state.oneShot = true
            state.oneShotDeadline = nil
            activate()
        }
    }

    /// Starts reporting headings (from the course of new fixes) while location updates run.
    open func startUpdatingHeading() {
        MainActor.assumeIsolated {
            state.updatingHeading = true
            activate()
        }
    }

    /// Stops reporting headings.
    open func stopUpdatingHeading() {
        MainActor.assumeIsolated {
            state.updatingHeading = false
            deactivateIfIdle()
        }
    }

    /// Replaces the device location every manager and every map without a provider of its own follows (Waymark's
    /// own; the default is `WAYMARK_LOCATION`'s). Running managers continue with the new provider's fixes.
    /// - Throws: `GPXError` naming the file when a GPX track cannot be read; the old provider stays.
    @preconcurrency @MainActor public static func setLocationProvider(_ provider: WaymarkLocationProvider) throws {
        DeviceLocation.shared.setProvider(try provider.spec.makeProvider(clock: AnimatorClock.shared))
    }

    @MainActor private func activate() {
        CLLocationManager.managers.add(self)
    }

    @MainActor private func deactivateIfIdle() {
        guard !state.updating, !state.oneShot, !state.updatingHeading else { return }
        state.subscription?.stop()
        state.subscription = nil
    }

    private var isAuthorized: Bool { [.authorizedAlways, .authorizedWhenInUse].contains(authorizationStatus) }

    /// One turn of the host: the authorization report, then new fixes and headings. Returns the next deadline.
    @MainActor fileprivate func turn(now: Double) -> Double? {
        let status = authorizationStatus
        if state.pendingAuthorizationReport || (state.reportedStatus != nil && state.reportedStatus != status) {
            state.pendingAuthorizationReport = false
            state.reportedStatus = status
            delegate?.locationManagerDidChangeAuthorization(self)
            delegate?.locationManager(self, didChangeAuthorization: status)
        }
        let wantsFixes = state.updating || state.oneShot || state.updatingHeading
        guard wantsFixes else { return nil }
        if status == .denied || status == .restricted {
            state.oneShot = false
            state.updating = false
            state.updatingHeading = false
            deactivateIfIdle()
            delegate?.locationManager(self, didFailWithError: CLError(.denied))
            return nil
        }
        guard isAuthorized else { return nil }
        let subscription = state.subscription ?? DeviceLocation.shared.subscribe()
        if state.subscription == nil {
            state.subscription = subscription
            subscription.start()
        }
        if DeviceLocation.shared.provider is NoLocationProvider, state.oneShot || state.updating {
            // No provider configured: fail as the iOS Simulator does with Location set to None (updates keep
            // running, so a provider set later is followed).
            if state.oneShot || !state.toldNoProvider {
                CLLocationManager.printNoProviderNotice()
                state.toldNoProvider = state.updating
                state.oneShot = false
                state.oneShotDeadline = nil
                deactivateIfIdle()
                delegate?.locationManager(self, didFailWithError: CLError(.locationUnknown))
            }
        }
        if state.oneShot, state.oneShotDeadline == nil { state.oneShotDeadline = now + 10 }
        let fixes = subscription.drainFixes()
        if !fixes.isEmpty { deliver(fixes) }
        if state.oneShot, let deadline = state.oneShotDeadline, now >= deadline {
            state.oneShot = false
            state.oneShotDeadline = nil
            deactivateIfIdle()
            delegate?.locationManager(self, didFailWithError: CLError(.locationUnknown))
        }
        let next = state.subscription?.nextFixTime(now: now)
        return [next, state.oneShot ? state.oneShotDeadline : nil].compactMap { $0 }.min()
    }

    @MainActor private func deliver(_ fixes: [CLLocation]) {
        var reported: [CLLocation] = []
        for fix in fixes {
            if distanceFilter > 0, let last = state.lastReported, fix.distance(from: last) < distanceFilter { continue }
            reported.append(fix)
            state.lastReported = fix
        }
        if state.updatingHeading, let fix = fixes.last(where: { $0.course >= 0 }) {
            let change = state.lastHeading.map { abs($0.trueHeading - fix.course) } ?? .infinity
            if headingFilter < 0 || change >= headingFilter {
                let heading = CLHeading(course: fix.course, timestamp: fix.timestamp)
                state.lastHeading = heading
                delegate?.locationManager(self, didUpdateHeading: heading)
            }
        }
        let oneShot = state.oneShot
        if oneShot, !state.updating, let last = fixes.last {
            state.oneShot = false
            state.oneShotDeadline = nil
            deactivateIfIdle()
            delegate?.locationManager(self, didUpdateLocations: [last])
            return
        }
        state.oneShot = false
        state.oneShotDeadline = nil
        if state.updating, !reported.isEmpty { delegate?.locationManager(self, didUpdateLocations: reported) }
    }

    private static let noticePrinted = LockedFlag()

    /// Prints, once per process, how to give Linux a location.
    private static func printNoProviderNotice() {
        guard noticePrinted.setOnce() else { return }
        FileHandle.standardError.write(
            Data(
                ("[CoreLocation] notice: no location provider is configured, so CLLocationManager reports "
                    + "CLError.locationUnknown (as the iOS Simulator with Location: None). Set WAYMARK_LOCATION to "
                    + "LAT,LON, fixed:LAT,LON[,ACCURACY], gpx:FILE or gpsd (or call "
                    + "CLLocationManager.setLocationProvider(_:)).\n").utf8))
    }

    /// Forgets the app's authorization and the managers (Waymark's own, for tests that run several apps).
    @MainActor package static func resetForTesting() {
        sharedStatus.withLock { $0 = .notDetermined }
        managers.removeAll()
    }

    /// Runs every manager's turn now (Waymark's own, for hosts and tests); returns the earliest deadline.
    @MainActor @discardableResult package static func runTurn(now: Double) -> Double? {
        managers.turn(now: now)
    }
}

/// A flag set once, from any thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    /// Sets the flag; true the first time.
    func setOnce() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !isSet else { return false }
        isSet = true
        return true
    }
}

/// The app's authorization, shared by every manager.
private final class LockedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var status: CLAuthorizationStatus = .notDetermined
    func withLock<R>(_ body: (inout CLAuthorizationStatus) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&status)
    }
}

/// The managers with something to report, held weakly; their turns run from the host's loop.
@MainActor private final class ManagerRegistry {
    private var managers: [WeakManager] = []
    private struct WeakManager { weak var manager: CLLocationManager? }

    func add(_ manager: CLLocationManager) {
        managers.removeAll { $0.manager == nil || $0.manager === manager }
        managers.append(WeakManager(manager: manager))
        HostTurnHooks.register("CLLocationManager") { now in CLLocationManager.runTurn(now: now) }
    }

    func removeAll() { managers = [] }

    func turn(now: Double) -> Double? {
        managers.removeAll { $0.manager == nil }
        return managers.compactMap { $0.manager?.turn(now: now) }.min()
    }
}

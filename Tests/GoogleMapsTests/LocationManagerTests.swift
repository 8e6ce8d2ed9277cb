import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// `CLLocationManager` over the device location, driven by the headless host: authorization, updates, the distance
/// filter, one-shot requests, headings from a GPX replay, and agreement with a map's `myLocation`; and key-value
/// observation of the map's `myLocation`, `camera` and `selectedMarker`.
@MainActor @Suite(.serialized) struct LocationManagerTests {
    static let walk = Fixtures.local.appendingPathComponent("location/helsinki-walk.gpx")
    static let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

    @MainActor final class Recorder: @preconcurrency CLLocationManagerDelegate {
        var log: [String] = []
        var locations: [CLLocation] = []
        var headings: [CLHeading] = []
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            log.append("update \(locations.count)")
            self.locations += locations
        }
        func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            log.append("fail \((error as? CLError)?.code.rawValue ?? -1)")
        }
        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            log.append("authorization \(manager.authorizationStatus.rawValue)")
        }
        func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {
            headings.append(newHeading)
        }
    }

    private func makeHost(device provider: WaymarkLocationProvider) throws -> (UIHeadlessHost, GMSMapView) {
        _ = installMapClock()
        UIApplication.shared.resetForNextRun()
        CLLocationManager.resetForTesting()
        try CLLocationManager.setLocationProvider(provider)
        let map = makeMap()
        let host = UIHeadlessHost(view: map)
        host.runUntilIdle()
        return (host, map)
    }

    @Test func authorizationThenUpdatesAgreeWithTheMap() throws {
        let (host, map) = try makeHost(device: .fixed(Self.helsinki, accuracy: 12))
        let manager = CLLocationManager()
        let recorder = Recorder()
        manager.delegate = recorder
        #expect(manager.authorizationStatus == .notDetermined)
        #expect(manager.desiredAccuracy == kCLLocationAccuracyBest)
        #expect(manager.distanceFilter == kCLDistanceFilterNone)
        manager.startUpdatingLocation()
        host.advance(by: 0.1)
        #expect(recorder.log == ["authorization 0"])
        manager.requestWhenInUseAuthorization()
        host.advance(by: 0.1)
        #expect(recorder.log == ["authorization 0", "authorization 4", "update 1"])
        #expect(recorder.locations.last?.coordinate == Self.helsinki)
        #expect(recorder.locations.last?.horizontalAccuracy == 12)
        #expect(manager.location?.coordinate == Self.helsinki)
        map.isMyLocationEnabled = true
        host.advance(by: 0.1)
        #expect(map.myLocation?.coordinate == manager.location?.coordinate)
        manager.requestAlwaysAuthorization()
        host.advance(by: 0.1)
        #expect(manager.authorizationStatus == .authorizedAlways)
        #expect(recorder.log.last == "authorization 3")
        manager.stopUpdatingLocation()
    }

    @Test func gpxReplayOnTheHostClockWithDistanceFilterAndHeading() throws {
        let (host, map) = try makeHost(device: .gpx(path: Self.walk.path, secondsPerPoint: 1))
        let manager = CLLocationManager()
        let recorder = Recorder()
        manager.delegate = recorder
        manager.requestWhenInUseAuthorization()
        manager.distanceFilter = 1_000_000
        manager.startUpdatingLocation()
        manager.startUpdatingHeading()
        map.isMyLocationEnabled = true
        host.advance(by: 0.1)
        #expect(recorder.locations.count == 1)
        let first = try #require(recorder.locations.first)
        host.advance(by: 1.2)
        #expect(recorder.locations.count == 1)
        #expect(manager.location.map { $0.coordinate != first.coordinate } == true)
        #expect(map.myLocation?.coordinate == manager.location?.coordinate)
        manager.distanceFilter = kCLDistanceFilterNone
        host.advance(by: 2)
        #expect(recorder.locations.count >= 2)
        #expect(map.myLocation?.coordinate == manager.location?.coordinate)
        #expect(!recorder.headings.isEmpty)
        #expect(manager.heading?.trueHeading == recorder.headings.last?.trueHeading)
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
        let count = recorder.locations.count
        host.advance(by: 2)
        #expect(recorder.locations.count == count)
    }

    @Test func requestLocationReportsOneFixThenStops() throws {
        let (host, _) = try makeHost(device: .gpx(path: Self.walk.path, secondsPerPoint: 0.5))
        let manager = CLLocationManager()
        let recorder = Recorder()
        manager.delegate = recorder
        manager.requestWhenInUseAuthorization()
        manager.requestLocation()
        host.advance(by: 3)
        #expect(recorder.log == ["authorization 4", "update 1"])
    }

    /// A configured provider that has no fix yet (a GPS without a lock).
    final class SilentProvider: LocationProvider {
        func start() {}
        func stop() {}
        func drainFixes() -> [CLLocation] { [] }
        func nextFixTime(now: Double) -> Double? { nil }
    }

    @Test func requestLocationWithoutFixesFailsAfterTenSeconds() throws {
        _ = installMapClock()
        UIApplication.shared.resetForNextRun()
        CLLocationManager.resetForTesting()
        DeviceLocation.shared.setProvider(SilentProvider())
        let host = UIHeadlessHost(view: UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
        let manager = CLLocationManager()
        let recorder = Recorder()
        manager.delegate = recorder
        manager.requestWhenInUseAuthorization()
        manager.requestLocation()
        host.advance(by: 9)
        #expect(recorder.log == ["authorization 4"])
        host.advance(by: 2)
        #expect(recorder.log == ["authorization 4", "fail 0"])
    }

    @Test func withoutAProviderUpdatesAndRequestsFailWithLocationUnknownAsTheSimulatorWithNoLocation() throws {
        _ = installMapClock()
        UIApplication.shared.resetForNextRun()
        CLLocationManager.resetForTesting()
        DeviceLocation.shared.setProvider(NoLocationProvider())
        let host = UIHeadlessHost(view: UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
        let manager = CLLocationManager()
        let recorder = Recorder()
        manager.delegate = recorder
        manager.requestWhenInUseAuthorization()
        manager.requestLocation()
        host.advance(by: 0.1)
        #expect(recorder.log == ["authorization 4", "fail \(CLError.Code.locationUnknown.rawValue)"])
        // Updates fail once per start, and keep running: a provider set later is followed.
        manager.startUpdatingLocation()
        host.advance(by: 0.1)
        host.advance(by: 0.1)
        #expect(recorder.log.filter { $0.hasPrefix("fail") }.count == 2)
        try CLLocationManager.setLocationProvider(.fixed(Self.helsinki))
        host.advance(by: 0.1)
        #expect(recorder.log.last == "update 1")
        manager.stopUpdatingLocation()
    }

    @Test func constants() {
        #expect(kCLLocationAccuracyBestForNavigation == -2)
        #expect(kCLLocationAccuracyNearestTenMeters == 10)
        #expect(kCLLocationAccuracyHundredMeters == 100)
        #expect(kCLLocationAccuracyKilometer == 1000)
        #expect(kCLLocationAccuracyThreeKilometers == 3000)
        #expect(CLAuthorizationStatus.authorizedWhenInUse.rawValue == 4)
        #expect(CLError(.denied).code == CLError.denied)
    }

    /// iOS code reads location errors as `NSError`s: CoreLocation's domain and the code's raw value.
    @Test func locationErrorsBridgeToNSErrorAsOnIOS() {
        let unknown = CLError(.locationUnknown) as NSError
        #expect(unknown.domain == "kCLErrorDomain")
        #expect(unknown.domain == kCLErrorDomain)
        #expect(unknown.code == 0)
        let denied = CLError(.denied) as NSError
        #expect(denied.code == 1)
    }

    @Test func observingCameraSelectedMarkerAndMyLocation() throws {
        let (host, map) = try makeHost(device: .fixed(Self.helsinki))
        var zooms: [Float] = []
        var olds: [Float] = []
        let cameraObservation = map.observe(\.camera, options: [.initial, .new, .old]) { _, change in
            zooms.append(change.newValue?.zoom ?? -1)
            if let old = change.oldValue { olds.append(old.zoom) }
        }
        #expect(zooms == [14])
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 12)
        #expect(zooms == [14, 12])
        #expect(olds == [14])
        host.runUntilIdle()
        #expect(zooms == [14, 12])
        map.animate(toZoom: 10)
        host.runUntilIdle()
        #expect(zooms.last == 10)
        let animatedSteps = zooms.count
        #expect(animatedSteps > 3)
        cameraObservation.invalidate()
        map.camera = GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 8)
        #expect(zooms.count == animatedSteps)

        var selected: [String?] = []
        let selection = map.observe(\.selectedMarker, options: [.new]) { _, change in
            selected.append(change.newValue??.title)
        }
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
        marker.title = "Here"
        marker.map = map
        map.selectedMarker = marker
        map.selectedMarker = marker
        map.selectedMarker = nil
        #expect(selected == ["Here", nil])
        _ = selection

        var fixes: [CLLocationCoordinate2D?] = []
        var location: NSKeyValueObservation? = map.observe(\.myLocation, options: [.new]) { _, change in
            fixes.append(change.newValue??.coordinate)
        }
        map.isMyLocationEnabled = true
        host.advance(by: 0.1)
        #expect(fixes == [Self.helsinki])
        location = nil
        map.isMyLocationEnabled = false
        host.advance(by: 0.1)
        #expect(fixes == [Self.helsinki])
        _ = location
    }
}

import GoogleMaps
import MapTestSupport
import Testing

@Suite struct CameraPositionTests {
    /// (latitude, longitude, zoom, bearing, viewingAngle) in → out, per D3/D4 and spec §1.8's examples.
    typealias Fields = (Double, Double, Float, Double, Double)
    static let clampCases: [(Fields, Fields)] = [
        ((100, 480, 10, 0, 0), (85, 120, 10, 0, 0)),
        ((-100, 840, 10, 0, 0), (-85, 120, 10, 0, 0)),
        ((12, 1200, 10, 0, 0), (12, 120, 10, 0, 0)),
        ((0, 180, 10, 0, 0), (0, -180, 10, 0, 0)),
        ((0, -181, 1, 0, 0), (0, 179, 2, 0, 0)),
        ((0, 0, 30, -90, 0), (0, 0, 21, 270, 0)),
        ((0, 0, 10, 725, 80), (0, 0, 10, 5, 30)),
        ((0, 0, 13, 360, 80), (0, 0, 13, 0, 47.5)),
        ((0, 0, 17, 0, 90), (0, 0, 17, 0, 65)),
        ((0, 0, 17, 0, -10), (0, 0, 17, 0, 0)),
        ((.nan, .nan, .nan, .nan, .nan), (0, 0, 2, 0, 0)),
        ((.infinity, -.infinity, .infinity, .infinity, .infinity), (0, 0, 21, 0, 0)),
        ((-.infinity, 10, -.infinity, -.infinity, -.infinity), (0, 10, 2, 0, 0)),
    ]

    static func check(_ c: GMSCameraPosition, _ e: Fields) {
        #expect(c.target.latitude == e.0)
        #expect(isApproximatelyEqual(c.target.longitude, e.1, tolerance: 1e-9))
        #expect(c.zoom == e.2)
        #expect(isApproximatelyEqual(c.bearing, e.3, tolerance: 1e-9))
        #expect(isApproximatelyEqual(c.viewingAngle, e.4, tolerance: 1e-9))
    }

    /// Every initialiser and class constructor clamps the same way.
    @Test(arguments: clampCases)
    func everyEntryPointClamps(input: Fields, expected: Fields) {
        let (lat, lon, zoom, bearing, angle) = input
        let target = CLLocationCoordinate2D(latitude: lat, longitude: lon)
        let full: [GMSCameraPosition] = [
            GMSCameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: angle),
            GMSCameraPosition(latitude: lat, longitude: lon, zoom: zoom, bearing: bearing, viewingAngle: angle),
            GMSCameraPosition.camera(withTarget: target, zoom: zoom, bearing: bearing, viewingAngle: angle),
            GMSCameraPosition.camera(
                withLatitude: lat, longitude: lon, zoom: zoom, bearing: bearing, viewingAngle: angle),
            GMSMutableCameraPosition(target: target, zoom: zoom, bearing: bearing, viewingAngle: angle),
        ]
        for c in full { Self.check(c, expected) }
        let short: [GMSCameraPosition] = [
            GMSCameraPosition(target: target, zoom: zoom), GMSCameraPosition(latitude: lat, longitude: lon, zoom: zoom),
            GMSCameraPosition.camera(withTarget: target, zoom: zoom),
            GMSCameraPosition.camera(withLatitude: lat, longitude: lon, zoom: zoom),
        ]
        for c in short { Self.check(c, (expected.0, expected.1, expected.2, 0, 0)) }
        // The mutable setters clamp the same way, in any order.
        let m = GMSMutableCameraPosition(target: CLLocationCoordinate2D(), zoom: 5)
        m.viewingAngle = angle
        m.bearing = bearing
        m.target = target
        m.zoom = zoom
        Self.check(m, expected)
    }

    @Test func classConstructorsReturnTheirClass() {
        let m = GMSMutableCameraPosition.camera(withLatitude: 1, longitude: 2, zoom: 3)
        m.zoom = 4
        #expect(m.zoom == 4)
    }

    /// Hand computed: at the equator 256 points span the whole circumference at zoom 0; at 60° N, 1000 m per 100
    /// points is log2(100 · 40 075 016.686 · 0.5 / 256 000) = 12.93427169.
    @Test func zoomForMeters() {
        let equator = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        #expect(
            isApproximatelyEqual(
                Double(GMSCameraPosition.zoom(at: equator, forMeters: 40_075_016.685_578_5, perPoints: 256)), 0,
                tolerance: 1e-6))
        #expect(
            isApproximatelyEqual(
                Double(GMSCameraPosition.zoom(at: equator, forMeters: 40_075_016.685_578_5, perPoints: 1024)), 2,
                tolerance: 1e-6))
        let north = CLLocationCoordinate2D(latitude: 60, longitude: 10)
        #expect(
            isApproximatelyEqual(
                Double(GMSCameraPosition.zoom(at: north, forMeters: 1000, perPoints: 100)), 12.934_271_69,
                tolerance: 1e-5))
        // Not clamped: a millimetre per 1000 points is far beyond zoom 21.
        #expect(GMSCameraPosition.zoom(at: equator, forMeters: 0.001, perPoints: 1000) > 30)
        // Bad input gives a non-finite zoom instead of trapping.
        #expect(!GMSCameraPosition.zoom(at: equator, forMeters: 0, perPoints: 100).isFinite)
        #expect(GMSCameraPosition.zoom(at: equator, forMeters: .nan, perPoints: 100).isNaN)
    }

    @Test func equalityAndCopies() {
        let a = GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5, bearing: 30, viewingAngle: 10)
        let b = GMSCameraPosition(latitude: 10, longitude: 380, zoom: 5, bearing: 390, viewingAngle: 10)
        #expect(a == b)
        #expect(a.hash == b.hash)
        #expect(a != GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5.5, bearing: 30, viewingAngle: 10))
        let m = a.mutableCopy() as! GMSMutableCameraPosition
        #expect(m == a)
        m.zoom = 7
        #expect(a.zoom == 5 && m.zoom == 7)
        #expect((a.copy() as! GMSCameraPosition) === a)
        let frozen = m.copy() as! GMSCameraPosition
        #expect(type(of: frozen) == GMSCameraPosition.self)
        m.zoom = 8
        #expect(frozen.zoom == 7)
    }

    @Test func constants() {
        #expect(kGMSMinZoomLevel == 2 && kGMSMaxZoomLevel == 21)
        #expect(kGMSMarkerDefaultGroundAnchor == CGPoint(x: 0.5, y: 1))
        #expect(kGMSMarkerDefaultInfoWindowAnchor == CGPoint(x: 0.5, y: 0))
        #expect(kGMSAccessibilityCompass == "GMSCompassButton")
        #expect(kGMSAccessibilityMyLocation == "GMSMyLocationButton")
        let keys = [
            kGMSLayerCameraLatitudeKey, kGMSLayerCameraLongitudeKey, kGMSLayerCameraBearingKey,
            kGMSLayerCameraZoomLevelKey, kGMSLayerCameraViewingAngleKey,
        ]
        #expect(Set(keys).count == 5)
    }
}

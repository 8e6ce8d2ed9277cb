import MapGeometry
import MapTestSupport
import Testing

@Suite struct CameraConstraintsTests {
    @Test(arguments: [
        (100.0, 85.0), (-100, -85), (85, 85), (-85, -85), (84.999, 84.999), (0, 0), (.nan, 0), (.infinity, 0),
        (-.infinity, 0),
    ])
    func latitude(input: Double, expected: Double) {
        #expect(CameraConstraints.clampLatitude(input) == expected)
    }

    @Test(arguments: [
        (480.0, 120.0), (840, 120), (1200, 120), (180, -180), (-180, -180), (-181, 179), (359, -1), (.nan, 0),
        (.infinity, 0), (-.infinity, 0),
    ])
    func longitude(input: Double, expected: Double) {
        let r = CameraConstraints.wrapLongitude(input)
        #expect(r >= -180 && r < 180)
        #expect(isApproximatelyEqual(r, expected, tolerance: 1e-9))
    }

    @Test(arguments: [
        (0.0, 0.0), (360, 0), (-90, 270), (725, 5), (359.5, 359.5), (-0.0, 0), (.nan, 0), (.infinity, 0),
        (-.infinity, 0), (-720, 0),
    ])
    func bearing(input: Double, expected: Double) {
        let r = CameraConstraints.wrapBearing(input)
        #expect(r >= 0 && r < 360)
        #expect(isApproximatelyEqual(r, expected, tolerance: 1e-9))
    }

    @Test(arguments: [
        (1.0, 2.0), (2, 2), (2.5, 2.5), (21, 21), (30, 21), (-5, 2), (.nan, 2), (.infinity, 21), (-.infinity, 2),
    ])
    func zoom(input: Double, expected: Double) {
        #expect(CameraConstraints.standard.clampZoom(input) == expected)
    }

    @Test func customZoomRange() {
        let c = CameraConstraints(minimumZoom: 5, maximumZoom: 30)
        #expect(c.minimumZoom == 5 && c.maximumZoom == 21)
        #expect(c.clampZoom(3) == 5)
        #expect(c.clampZoom(.nan) == 5)
        let d = CameraConstraints(minimumZoom: .nan, maximumZoom: 0)
        #expect(d.minimumZoom == 2 && d.maximumZoom == 2)
    }

    /// D4: 30° at zoom ≤ 10, 65° at zoom ≥ 16, linear in between (35° over 6 levels).
    static let pitchLimits: [(Double, Double)] = [
        (2, 30), (10, 30), (11, 30 + 35.0 / 6), (13, 47.5), (15.5, 30 + 5.5 * 35.0 / 6), (16, 65), (21, 65),
        (.nan, 30),
    ]

    @Test(arguments: pitchLimits)
    func maximumPitch(zoom: Double, expected: Double) {
        #expect(isApproximatelyEqual(CameraConstraints.maximumPitch(zoom: zoom), expected, tolerance: 1e-12))
    }

    static let pitchCases: [(Double, Double, Double)] = [
        (80, 12, 30 + 2 * 35.0 / 6), (80, 5, 30), (80, 18, 65), (-5, 18, 0), (20, 5, 20), (.nan, 18, 0),
        (.infinity, 18, 0),
    ]

    @Test(arguments: pitchCases)
    func pitch(input: Double, zoom: Double, expected: Double) {
        #expect(isApproximatelyEqual(CameraConstraints.clampPitch(input, zoom: zoom), expected, tolerance: 1e-12))
    }

    @Test func wholeState() {
        let wild = CameraState(
            center: LatLng(latitude: .nan, longitude: 540), zoom: .infinity, bearing: -45, pitch: 90,
            size: ScreenSize(width: .nan, height: -3), padding: EdgeInsets(top: .infinity, left: 5))
        let s = CameraConstraints.standard.clamped(wild)
        #expect(s.center == LatLng(latitude: 0, longitude: -180))
        #expect(s.zoom == 21)
        #expect(s.bearing == 315)
        #expect(s.pitch == 65)
        #expect(s.size == ScreenSize(width: 0, height: 0))
        #expect(s.padding == EdgeInsets(top: 0, left: 5))
    }
}

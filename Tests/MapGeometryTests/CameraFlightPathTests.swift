import Foundation
import MapGeometry
import MapTestSupport
import Testing

@Suite struct CameraFlightPathTests {
    private func camera(_ lat: Double, _ lon: Double, zoom: Double, bearing: Double = 0) -> CameraState {
        CameraState(
            center: LatLng(latitude: lat, longitude: lon), zoom: zoom, bearing: bearing,
            size: ScreenSize(width: 400, height: 300))
    }

    @Test func endpointsAreExact() {
        let a = camera(10, 170, zoom: 12, bearing: 350)
        let b = camera(-20, -160, zoom: 5, bearing: 20)
        let path = CameraFlightPath(from: a, to: b)
        #expect(path.camera(at: 0).center.latitude == 10)
        #expect(isApproximatelyEqual(path.camera(at: 0).center.longitude, 170, tolerance: 1e-9))
        #expect(isApproximatelyEqual(path.camera(at: 0).zoom, 12, tolerance: 1e-9))
        #expect(path.camera(at: 1) == b)
        #expect(path.camera(at: 2) == b && path.camera(at: .nan) == b)
        #expect(isApproximatelyEqual(path.camera(at: 1e-9).zoom, 12, tolerance: 1e-6))
    }

    /// Equal zooms: the curve is symmetric; its widest view is at the middle, w0 · cosh(r0) with
    /// sinh(−r0) = ρ² u / (2 w0), i.e. zoom − log2(√(1 + (ρ² u / (2 w0))²)) (van Wijk & Nuij 2003, eq. 9).
    @Test func longTripZoomsOutInTheMiddle() {
        let a = camera(0, -30, zoom: 10)
        let b = camera(0, 30, zoom: 10)
        let path = CameraFlightPath(from: a, to: b)
        let mid = path.camera(at: 0.5)
        #expect(isApproximatelyEqual(mid.center.longitude, 0, tolerance: 1e-9))
        let u = 60.0 / 360
        let w0 = 400 / (256 * pow(2, 10.0))
        let k = 1.42 * 1.42 * u / (2 * w0)
        #expect(isApproximatelyEqual(mid.zoom, 10 - log2((1 + k * k).squareRoot()), tolerance: 1e-9))
        // Progress along the line is monotonic and never overshoots.
        var last = -31.0
        for i in 0...100 {
            let lon = path.camera(at: Double(i) / 100).center.longitude
            #expect(lon >= last - 1e-9 && lon <= 30 + 1e-9)
            last = lon
        }
    }

    /// A pure zoom keeps the centre and is linear in zoom (exponential in visible width).
    @Test func pureZoom() {
        let path = CameraFlightPath(from: camera(45, 7, zoom: 4), to: camera(45, 7, zoom: 16))
        for f in [0.1, 0.25, 0.5, 0.9] {
            let c = path.camera(at: f)
            #expect(isApproximatelyEqual(c.zoom, 4 + 12 * f, tolerance: 1e-9))
            #expect(isApproximatelyEqual(c.center.latitude, 45, tolerance: 1e-9))
        }
        // Nothing to do: the start camera everywhere.
        let still = CameraFlightPath(from: camera(1, 2, zoom: 3), to: camera(1, 2, zoom: 3))
        #expect(isApproximatelyEqual(still.camera(at: 0.5).zoom, 3, tolerance: 1e-12))
    }

    @Test func nonFiniteFallsBack() {
        let path = CameraFlightPath(from: camera(.nan, 0, zoom: 3), to: camera(0, 0, zoom: .infinity))
        _ = path.camera(at: 0.5)
        #expect(path.camera(at: 1).zoom == .infinity)
    }
}

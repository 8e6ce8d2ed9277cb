import MapGeometry
import MapTestSupport
import Testing

@testable import GoogleMaps

private func state(
    _ lat: Double, _ lon: Double, zoom: Double, bearing: Double = 0, pitch: Double = 0,
    size: (Double, Double) = (1000, 600), padding: EdgeInsets = .zero
) -> CameraState {
    CameraState(
        center: LatLng(latitude: lat, longitude: lon), zoom: zoom, bearing: bearing, pitch: pitch,
        size: ScreenSize(width: size.0, height: size.1), padding: padding)
}

private func coord(_ lat: Double, _ lon: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: lat, longitude: lon)
}

@Suite struct CameraUpdateTests {
    static let zoomCases: [(Double, Double)] = [(10, 11), (20.5, 21), (21, 21), (2, 3)]

    @Test(arguments: zoomCases)
    func zoomInAndOut(start: Double, afterIn: Double) {
        let s = state(1, 2, zoom: start, bearing: 30, pitch: 20)
        let zin = GMSCameraUpdate.zoomIn().apply(to: s)
        #expect(zin.zoom == afterIn)
        #expect(zin.center == s.center && zin.bearing == 30)
        #expect(GMSCameraUpdate.zoomOut().apply(to: s).zoom == max(2, start - 1))
    }

    @Test func zoomByAndTo() {
        let s = state(1, 2, zoom: 10)
        #expect(GMSCameraUpdate.zoom(by: 2.5).apply(to: s).zoom == 12.5)
        #expect(GMSCameraUpdate.zoom(by: -20).apply(to: s).zoom == 2)
        #expect(GMSCameraUpdate.zoom(by: .nan).apply(to: s).zoom == 10)
        #expect(GMSCameraUpdate.zoom(by: .infinity).apply(to: s).zoom == 10)
        #expect(GMSCameraUpdate.zoom(to: 15).apply(to: s).zoom == 15)
        #expect(GMSCameraUpdate.zoom(to: 99).apply(to: s).zoom == 21)
        #expect(GMSCameraUpdate.zoom(to: .nan).apply(to: s).zoom == 2)  // D3 default
        // Limits of the map, not only the constants.
        let c = CameraConstraints(minimumZoom: 5, maximumZoom: 12)
        #expect(GMSCameraUpdate.zoom(to: 15).apply(to: s, constraints: c).zoom == 12)
    }

    @Test func targetsAndCameras() {
        let s = state(1, 2, zoom: 10, bearing: 40, pitch: 20)
        let t = GMSCameraUpdate.setTarget(coord(100, 190)).apply(to: s)
        #expect(t.center == LatLng(latitude: 85, longitude: -170) && t.zoom == 10 && t.bearing == 40 && t.pitch == 20)
        let tz = GMSCameraUpdate.setTarget(coord(5, 6), zoom: 8).apply(to: s)
        #expect(tz.center == LatLng(latitude: 5, longitude: 6) && tz.zoom == 8 && tz.pitch == 20)
        let cam = GMSCameraPosition(latitude: 7, longitude: 8, zoom: 16, bearing: 90, viewingAngle: 60)
        let sc = GMSCameraUpdate.setCamera(cam).apply(to: s)
        #expect(sc.center == LatLng(latitude: 7, longitude: 8) && sc.zoom == 16 && sc.bearing == 90 && sc.pitch == 60)
        #expect(sc.size == s.size)
    }

    /// Bounds lat −10…10, lon −10…10 in a 1000 × 600 view with 64 pt padding (872 × 472 left). Mercator box: width
    /// 20/360 = 0.0555556, height ln(tan 50°)/π = 0.0558398. Zoom = min(log2(872/(256·0.0555556)),
    /// log2(472/(256·0.0558398))) = min(5.938109, 5.045206) = 5.045206 (hand computed).
    @Test func fitDefaultPadding() {
        let bounds = GMSCoordinateBounds(coordinate: coord(-10, -10), coordinate: coord(10, 10))
        let s = state(40, 40, zoom: 12, bearing: 77, pitch: 30)
        let fit = GMSCameraUpdate.fit(bounds).apply(to: s)
        #expect(isApproximatelyEqual(fit.zoom, 5.045_206_088, tolerance: 1e-8))
        #expect(isApproximatelyEqual(fit.center.latitude, 0, tolerance: 1e-9))
        #expect(isApproximatelyEqual(fit.center.longitude, 0, tolerance: 1e-9))
        #expect(fit.bearing == 0 && fit.pitch == 0)
        // The bounds' top edge touches the padded edge (64 pt); the sides have room to spare.
        let p = fit.screenPoint(for: LatLng(latitude: 10, longitude: 10))
        #expect(isApproximatelyEqual(p.y, 64, tolerance: 1e-6))
        #expect(p.x < 1000 - 64)
    }

    /// With insets left 200 only: 800 × 600 left → zoom min(5.813781, 5.391382) = 5.391382; the box centre goes to
    /// x = 600, so the target is 100 points west of it: −100 / (256 · 2^5.391382) · 360 = −3.350387°.
    @Test func fitWithInsets() {
        let bounds = GMSCoordinateBounds(coordinate: coord(-10, -10), coordinate: coord(10, 10))
        let fit = GMSCameraUpdate.fit(bounds, with: UIEdgeInsets(top: 0, left: 200, bottom: 0, right: 0))
            .apply(to: state(0, 0, zoom: 3))
        #expect(isApproximatelyEqual(fit.zoom, 5.391_381_729, tolerance: 1e-8))
        #expect(isApproximatelyEqual(fit.center.longitude, -3.350_386_552, tolerance: 1e-8))
        #expect(isApproximatelyEqual(fit.center.latitude, 0, tolerance: 1e-9))
        let mid = fit.screenPoint(for: LatLng(latitude: 0, longitude: 0))
        #expect(isApproximatelyEqual(mid.x, 600, tolerance: 1e-6))
    }

    /// Map padding top 100 adds to the fit padding: 472 − 100 = 372 points of height → log2(372/(256·0.0558398)) =
    /// 4.701722; the box centre is drawn at the centre of the padded rectangle, where the target sits.
    @Test func fitHonoursMapPadding() {
        let bounds = GMSCoordinateBounds(coordinate: coord(-10, -10), coordinate: coord(10, 10))
        let s = state(0, 0, zoom: 3, padding: EdgeInsets(top: 100))
        let fit = GMSCameraUpdate.fit(bounds).apply(to: s)
        #expect(isApproximatelyEqual(fit.zoom, 4.701_721_85, tolerance: 1e-8))
        #expect(isApproximatelyEqual(fit.center.latitude, 0, tolerance: 1e-9))
        #expect(isApproximatelyEqual(fit.screenPoint(for: LatLng(latitude: 0, longitude: 0)).y, 350, tolerance: 1e-6))
    }

    static let tooLarge: [UIEdgeInsets] = [
        UIEdgeInsets(top: 300, left: 0, bottom: 300, right: 0), UIEdgeInsets(top: 0, left: 600, bottom: 0, right: 400),
        UIEdgeInsets(top: 0, left: 2000, bottom: 0, right: 0),
    ]

    @Test(arguments: tooLarge)
    func tooLargePaddingZoomsOut(insets: UIEdgeInsets) {
        let bounds = GMSCoordinateBounds(coordinate: coord(-1, -1), coordinate: coord(1, 1))
        #expect(GMSCameraUpdate.fit(bounds, with: insets).apply(to: state(0, 0, zoom: 10)).zoom == 2)
        #expect(GMSCameraUpdate.fit(bounds, withPadding: 500).apply(to: state(0, 0, zoom: 10)).zoom == 2)
    }

    @Test func fitSpecialBounds() {
        // Across the antimeridian: 170 … −170 is 20° wide, centred on 180 (→ −180 after wrapping).
        let across = GMSCoordinateBounds(coordinate: coord(-10, 170), coordinate: coord(10, -170))
        let fit = GMSCameraUpdate.fit(across).apply(to: state(0, 0, zoom: 3))
        #expect(isApproximatelyEqual(fit.zoom, 5.045_206_088, tolerance: 1e-8))
        #expect(fit.center.longitude == -180)
        // A single point: as close as allowed.
        let point = GMSCoordinateBounds(coordinate: coord(5, 5), coordinate: coord(5, 5))
        let p = GMSCameraUpdate.fit(point).apply(to: state(0, 0, zoom: 3))
        #expect(p.zoom == 21)
        #expect(isApproximatelyEqual(p.center.latitude, 5, tolerance: 1e-9))
        // Invalid bounds and NaN padding change nothing / count as zero.
        let s = state(1, 2, zoom: 7)
        #expect(GMSCameraUpdate.fit(GMSCoordinateBounds()).apply(to: s) == s)
        let nanPad = GMSCameraUpdate.fit(across, withPadding: .nan).apply(to: s)
        #expect(nanPad.zoom.isFinite && nanPad.zoom > 5)
    }

    /// Pitch 0, bearing 0, zoom 3: 100 points right is 100 / 2048 · 360 = 17.578125° east.
    @Test func scrollBy() {
        let s = state(0, 0, zoom: 3)
        let moved = GMSCameraUpdate.scrollBy(x: 100, y: 0).apply(to: s)
        #expect(isApproximatelyEqual(moved.center.longitude, 17.578_125, tolerance: 1e-9))
        #expect(isApproximatelyEqual(moved.center.latitude, 0, tolerance: 1e-12))
        let down = GMSCameraUpdate.scrollBy(x: 0, y: 50).apply(to: s)
        #expect(down.center.latitude < 0)
        // At bearing 90 "right" on screen is south.
        let turned = GMSCameraUpdate.scrollBy(x: 100, y: 0).apply(to: state(0, 0, zoom: 3, bearing: 90))
        #expect(isApproximatelyEqual(turned.center.longitude, 0, tolerance: 1e-9) && turned.center.latitude < -17)
        #expect(GMSCameraUpdate.scrollBy(x: .nan, y: 3).apply(to: s) == s)
    }

    static let focusCases: [(Double, Double, Double, Double)] = [
        (0, 0, 100, 100), (45, 30, 900, 500), (200, 50, 10, 590), (359, 0, 500, 300),
    ]

    /// The coordinate under the focus point is the same before and after, whatever the bearing and pitch.
    @Test(arguments: focusCases)
    func zoomAtFocusKeepsThePointFixed(bearing: Double, pitch: Double, x: Double, y: Double) {
        let s = state(48.2, 16.37, zoom: 16, bearing: bearing, pitch: pitch)
        let focus = ScreenPoint(x: x, y: y)
        let before = s.latLng(for: focus)!
        // Deltas that keep the pitch within the D4 limit (zoom 13.5 allows 50.4°).
        for delta: Float in [1, -2.5, 0.3] {
            let after = GMSCameraUpdate.zoom(by: delta, at: CGPoint(x: x, y: y)).apply(to: s)
            #expect(isApproximatelyEqual(after.zoom, 16 + Double(delta), tolerance: 1e-6))
            let now = after.latLng(for: focus)!
            #expect(isApproximatelyEqual(now.latitude, before.latitude, tolerance: 1e-9))
            #expect(isApproximatelyEqual(now.longitude, before.longitude, tolerance: 1e-9))
        }
        // At the maximum zoom nothing moves.
        let top = state(48.2, 16.37, zoom: 21)
        #expect(GMSCameraUpdate.zoom(by: 1, at: CGPoint(x: x, y: y)).apply(to: top).center == top.center)
    }

    /// Non-finite arguments to every factory: no trap; clamped or ignored as documented.
    @Test func badArguments() {
        let s = state(1, 2, zoom: 7)
        let nanTarget = GMSCameraUpdate.setTarget(coord(.nan, .infinity)).apply(to: s)
        #expect(nanTarget.center == LatLng(latitude: 0, longitude: 0))
        #expect(GMSCameraUpdate.setTarget(coord(1, 2), zoom: .nan).apply(to: s).zoom == 2)
        let aboutCentre = GMSCameraUpdate.zoom(by: 1, at: CGPoint(x: CGFloat.nan, y: 0)).apply(to: s)
        #expect(aboutCentre.zoom == 8 && aboutCentre.center == s.center)
        #expect(GMSCameraUpdate.zoom(by: .nan, at: CGPoint(x: 1, y: 1)).apply(to: s) == s)
        let insets = UIEdgeInsets(top: .nan, left: .infinity, bottom: -.infinity, right: 0)
        let fit = GMSCameraUpdate.fit(
            GMSCoordinateBounds(coordinate: coord(0, 0), coordinate: coord(1, 1)), with: insets)
        #expect(fit.apply(to: s).zoom.isFinite)
        // A broken input camera is clamped first (D3 defaults).
        let broken = state(.nan, .nan, zoom: .nan, bearing: .nan, pitch: .nan)
        let z = GMSCameraUpdate.zoomIn().apply(to: broken)
        #expect(z.zoom == 3 && z.center == LatLng(latitude: 0, longitude: 0) && z.bearing == 0 && z.pitch == 0)
    }

    @Test func gmsConvenience() {
        let camera = GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5, bearing: 30, viewingAngle: 10)
        let out = GMSCameraUpdate.zoomIn().apply(
            to: camera, viewSize: CGSize(width: 320, height: 480), padding: .zero)
        #expect(out == GMSCameraPosition(latitude: 10, longitude: 20, zoom: 6, bearing: 30, viewingAngle: 10))
        let p = GMSProjection(camera: camera, viewSize: CGSize(width: 320, height: 480), padding: .zero)
        let centre = p.point(for: camera.target)
        #expect(isApproximatelyEqual(Double(centre.x), 160, tolerance: 1e-9))
        #expect(isApproximatelyEqual(Double(centre.y), 240, tolerance: 1e-9))
    }
}

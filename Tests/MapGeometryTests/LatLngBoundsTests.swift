import Foundation
import MapGeometry
import MapTestSupport
import Testing

@Suite struct LatLngBoundsTests {
    func p(_ latitude: Double, _ longitude: Double) -> LatLng { LatLng(latitude: latitude, longitude: longitude) }

    @Test func spanningTakesTheShorterLongitudeArc() throws {
        let plain = try #require(LatLngBounds(spanning: p(10, 20), p(-5, -30)))
        #expect(plain == LatLngBounds(southWest: p(-5, -30), northEast: p(10, 20)))
        #expect(!plain.crossesAntimeridian && plain.longitudeSpan == 50)
        let across = try #require(LatLngBounds(spanning: p(1, 170), p(2, -170)))
        #expect(across == LatLngBounds(southWest: p(1, 170), northEast: p(2, -170)))
        #expect(across.crossesAntimeridian && across.longitudeSpan == 20)
    }

    @Test func badCornersAreSkippedOrNormalised() throws {
        #expect(LatLngBounds(spanning: p(.nan, 0), p(0, .infinity)) == nil)
        #expect(LatLngBounds(spanning: p(.nan, 0), p(3, 4)) == LatLngBounds(southWest: p(3, 4), northEast: p(3, 4)))
        #expect(LatLngBounds.normalised(p(100, 190)) == p(90, -170))
        #expect(LatLngBounds.normalised(p(-91, 180)) == p(-90, 180))
        #expect(LatLngBounds.normalised(p(0, .nan)) == nil)
        #expect(LatLngBounds(containing: [p(.nan, 1), p(0, .infinity)]) == nil)
        let grown = try #require(LatLngBounds(containing: [p(0, 170), p(.nan, 0), p(5, -175), p(-3, 175)]))
        #expect(grown == LatLngBounds(southWest: p(-3, 170), northEast: p(5, -175)))
    }

    @Test func containsAndIntersectsAcrossTheAntimeridian() {
        let across = LatLngBounds(southWest: p(-10, 170), northEast: p(10, -170))
        for lon in [170.0, 180, -180, -175, -170, 530] { #expect(across.contains(p(0, lon)), "\(lon)") }
        for lon in [0.0, 169.9, -169.9] { #expect(!across.contains(p(0, lon)), "\(lon)") }
        #expect(across.contains(p(10, 175)) && !across.contains(p(10.1, 175)) && !across.contains(p(.nan, 175)))
        #expect(across.intersects(LatLngBounds(southWest: p(10, -175), northEast: p(20, 0))))
        #expect(!across.intersects(LatLngBounds(southWest: p(10.5, -175), northEast: p(20, 0))))
        #expect(!across.intersects(LatLngBounds(southWest: p(0, -160), northEast: p(5, 160))))
    }

    @Test func includingGrowsTheShorterWay() {
        let b = LatLngBounds(southWest: p(0, 160), northEast: p(1, 170))
        #expect(b.including(p(2, -175)) == LatLngBounds(southWest: p(0, 160), northEast: p(2, -175)))
        #expect(b.including(p(-1, 100)) == LatLngBounds(southWest: p(-1, 100), northEast: p(1, 170)))
        #expect(b.including(p(.nan, 0)) == b)
        #expect(LatLngBounds.including(nil, p(3, 4)) == LatLngBounds(southWest: p(3, 4), northEast: p(3, 4)))
        #expect(LatLngBounds.including(nil, p(3, .nan)) == nil)
        let other = LatLngBounds(southWest: p(-5, -170), northEast: p(0, -160))
        #expect(b.including(other) == LatLngBounds(southWest: p(-5, 160), northEast: p(1, -160)))
    }

    @Test func clampingMovesToTheNearerEdge() {
        let across = LatLngBounds(southWest: p(-10, 170), northEast: p(10, -170))
        #expect(across.clamping(p(20, 175)) == p(10, 175))
        #expect(across.clamping(p(0, 150)) == p(0, 170))
        #expect(across.clamping(p(0, -150)) == p(0, -170))
        #expect(across.clamping(p(0, 190)) == p(0, -170))
    }

    @Test func worldBoxUnwrapsTheEastEdge() {
        let across = LatLngBounds(southWest: p(0, 90), northEast: p(0, -90))
        let (sw, ne) = across.worldBox
        #expect(sw.x == 0.75 && ne.x == 1.25)
        let plain = LatLngBounds(southWest: p(-45, -90), northEast: p(45, 90)).worldBox
        #expect(plain.southWest.x == 0.25 && plain.northEast.x == 0.75 && plain.southWest.y > plain.northEast.y)
    }

    @Test func fittingFillsTheViewAndCentresTheBox() {
        // 90° of longitude is a quarter world: 64 points at zoom 0, so a 512-point-wide view fits it at zoom 3.
        let camera = CameraState(
            center: p(40, 40), zoom: 10, bearing: 30, pitch: 20, size: ScreenSize(width: 512, height: 2000))
        let bounds = LatLngBounds(southWest: p(-10, 0), northEast: p(10, 90))
        let fitted = camera.fitting(bounds, insets: .zero, constraints: CameraConstraints())
        #expect(fitted.bearing == 0 && fitted.pitch == 0 && fitted.size == camera.size)
        #expect(isApproximatelyEqual(fitted.zoom, 3, tolerance: 1e-12))
        #expect(isApproximatelyEqual(fitted.center.longitude, 45, tolerance: 1e-9))
        #expect(isApproximatelyEqual(fitted.center.latitude, 0, tolerance: 1e-9))
        // Insets on the left shift the centre west by half their width (in world points at the fitted zoom).
        let shifted = camera.fitting(
            bounds, insets: EdgeInsets(top: 0, left: 256, bottom: 0, right: 0), constraints: CameraConstraints())
        #expect(isApproximatelyEqual(shifted.zoom, 2, tolerance: 1e-12))
        #expect(isApproximatelyEqual(shifted.center.longitude, 45 - 128 / 1024 * 360, tolerance: 1e-9))
        // Nothing left of the view: the minimum zoom.
        let none = camera.fitting(
            bounds, insets: EdgeInsets(top: 0, left: 300, bottom: 0, right: 300), constraints: CameraConstraints())
        #expect(none.zoom == 2)
    }
}

import MapGeometry
import MapTestSupport
import Testing

@testable import GoogleMaps

@Suite struct ProjectionTests {
    static func projection(
        lat: Double = 0, lon: Double = 0, zoom: Double, bearing: Double = 0, pitch: Double = 0,
        width: Double = 400, height: Double = 300, padding: EdgeInsets = .zero
    ) -> GMSProjection {
        GMSProjection(
            camera: CameraState(
                center: LatLng(latitude: lat, longitude: lon), zoom: zoom, bearing: bearing, pitch: pitch,
                size: ScreenSize(width: width, height: height), padding: padding))
    }

    @Test func targetIsAtThePaddedCentre() {
        let p = Self.projection(lat: 10, lon: 20, zoom: 5, padding: EdgeInsets(top: 0, left: 100, bottom: 60, right: 0))
        let pt = p.point(for: CLLocationCoordinate2D(latitude: 10, longitude: 20))
        #expect(isApproximatelyEqual(Double(pt.x), 250, tolerance: 1e-9))
        #expect(isApproximatelyEqual(Double(pt.y), 120, tolerance: 1e-9))
        let back = p.coordinate(for: CGPoint(x: 250, y: 120))
        #expect(isApproximatelyEqual(back.latitude, 10, tolerance: 1e-9))
        #expect(isApproximatelyEqual(back.longitude, 20, tolerance: 1e-9))
    }

    /// Zoom 2, 400 × 300, flat: the view spans 400/1024 · 360 = 140.625° of longitude; the region's corners are at
    /// ±70.3125° and at latitudes of world y 0.5 ± 150/1024.
    @Test func flatVisibleRegion() {
        let p = Self.projection(zoom: 2)
        let r = p.visibleRegion()
        let north = atan(sinh(.pi * (150.0 / 512))) * 180 / .pi
        #expect(isApproximatelyEqual(r.farLeft.longitude, -70.3125, tolerance: 1e-9))
        #expect(isApproximatelyEqual(r.farRight.longitude, 70.3125, tolerance: 1e-9))
        #expect(isApproximatelyEqual(r.farLeft.latitude, north, tolerance: 1e-9))
        #expect(isApproximatelyEqual(r.nearRight.latitude, -north, tolerance: 1e-9))
        #expect(r.nearLeft.longitude == r.farLeft.longitude)
        #expect(p.contains(CLLocationCoordinate2D(latitude: 0, longitude: 70)))
        #expect(!p.contains(CLLocationCoordinate2D(latitude: 0, longitude: 71)))
        #expect(!p.contains(CLLocationCoordinate2D(latitude: north + 0.1, longitude: 0)))
        #expect(!p.contains(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
    }

    @Test func paddingShrinksTheRegion() {
        let full = Self.projection(zoom: 4).visibleRegion()
        let padded = Self.projection(zoom: 4, padding: EdgeInsets(top: 50, left: 50, bottom: 50, right: 50))
        let r = padded.visibleRegion()
        #expect(r.farLeft.longitude > full.farLeft.longitude && r.farLeft.latitude < full.farLeft.latitude)
        #expect(!padded.contains(full.farLeft))
    }

    @Test func tiltedRegionIsATrapezoid() {
        let p = Self.projection(lat: 40, lon: -74, zoom: 16, pitch: 60)
        let r = p.visibleRegion()
        let farWidth = r.farRight.longitude - r.farLeft.longitude
        let nearWidth = r.nearRight.longitude - r.nearLeft.longitude
        #expect(farWidth > nearWidth * 1.5)
        #expect(isApproximatelyEqual(r.farLeft.latitude, r.farRight.latitude, tolerance: 1e-12))
        #expect(r.farLeft.latitude - 40 > 40 - r.nearLeft.latitude)
    }

    @Test func antimeridianUsesTheNearestWorld() {
        let p = Self.projection(lat: 0, lon: 179, zoom: 5)
        let east = p.point(for: CLLocationCoordinate2D(latitude: 0, longitude: -179))
        let west = p.point(for: CLLocationCoordinate2D(latitude: 0, longitude: 177))
        let d = 256 * 32 * 2.0 / 360
        #expect(isApproximatelyEqual(Double(east.x), 200 + d, tolerance: 1e-6))
        #expect(isApproximatelyEqual(Double(west.x), 200 - d, tolerance: 1e-6))
        #expect(p.contains(CLLocationCoordinate2D(latitude: 0, longitude: -179)))
        let c = p.coordinate(for: east)
        #expect(isApproximatelyEqual(c.longitude, -179, tolerance: 1e-9))
    }

    /// Zoom 0 at the equator: 256 points are 40 075 016.686 m; at 60° half as many metres per point.
    @Test func pointsForMeters() {
        let p = Self.projection(zoom: 2)
        let equator = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        #expect(
            isApproximatelyEqual(Double(p.points(forMeters: 40_075_016.685_578_5, at: equator)), 1024, tolerance: 1e-6))
        let sixty = CLLocationCoordinate2D(latitude: 60, longitude: 0)
        #expect(
            isApproximatelyEqual(
                Double(p.points(forMeters: 1000, at: sixty)), 1024 * 2000 / 40_075_016.685_578_5, tolerance: 1e-9))
        #expect(p.points(forMeters: .nan, at: equator).isNaN)
        // Under tilt a far point is foreshortened by D / depth.
        let tilted = Self.projection(zoom: 16, pitch: 60)
        let far = tilted.coordinate(for: CGPoint(x: 200, y: 10))
        let near = tilted.coordinate(for: CGPoint(x: 200, y: 290))
        #expect(tilted.points(forMeters: 10, at: far) < tilted.points(forMeters: 10, at: near))
    }

    @Test func badInputDoesNotTrap() {
        let p = Self.projection(zoom: 3, pitch: 30)
        #expect(p.point(for: CLLocationCoordinate2D(latitude: .nan, longitude: 1)).x.isNaN)
        #expect(p.coordinate(for: CGPoint(x: CGFloat.nan, y: 0)) == kCLLocationCoordinate2DInvalid)
        let sky = Self.projection(zoom: 16, pitch: 80)
        let c = sky.coordinate(for: CGPoint(x: 0, y: 0))  // above the horizon
        #expect(CLLocationCoordinate2DIsValid(c))
        _ = sky.visibleRegion()
        let broken = GMSProjection(
            camera: CameraState(center: LatLng(latitude: .nan, longitude: .infinity), zoom: .nan, pitch: .infinity))
        _ = broken.point(for: CLLocationCoordinate2D(latitude: 1, longitude: 1))
        _ = broken.coordinate(for: .zero)
        _ = broken.visibleRegion()
        _ = broken.contains(CLLocationCoordinate2D(latitude: 1, longitude: 1))
    }
}

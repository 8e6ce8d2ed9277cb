import GoogleMaps
import Testing

@Suite struct CoreLocationTests {
    @Test(arguments: [
        (0.0, 0.0, true), (90, 180, true), (-90, -180, true), (90.0001, 0, false), (0, 180.5, false),
        (.nan, 0, false), (0, .infinity, false), (-180, -180, false),
    ])
    func validity(latitude: Double, longitude: Double, valid: Bool) {
        #expect(
            CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: latitude, longitude: longitude)) == valid)
    }

    @Test func invalidConstantIsInvalid() {
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
    }

    @Test func distanceHelsinkiToStockholm() {
        // Helsinki Senate Square to Stockholm Stortorget: about 396 km great-circle.
        let a = CLLocation(latitude: 60.1695, longitude: 24.9525)
        let b = CLLocation(latitude: 59.3251, longitude: 18.0711)
        #expect(abs(a.distance(from: b) - 396_000) < 3_000)
        #expect(a.distance(from: a) == 0)
    }
}

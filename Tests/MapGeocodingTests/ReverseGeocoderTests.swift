import MapTestSupport
import Testing

@testable import MapGeocoding

/// A tiny hand-made world: a big city with a district, a small town 20 km away, a village on each side of the
/// antimeridian, and two address points plus a street in the city.
private func makeGeocoder(options: ReverseGeocoderOptions = ReverseGeocoderOptions()) -> ReverseGeocoder {
    let places = [
        // 0.009° of latitude ≈ 1 km.
        GeocoderPlace(
            name: "Bigcity", countryCode: "AA", administrativeArea: "North", population: 1_000_000, latitude: 10,
            longitude: 20),
        GeocoderPlace(
            name: "Oldtown", countryCode: "AA", administrativeArea: "North", population: 5000, latitude: 10.018,
            longitude: 20),
        GeocoderPlace(
            name: "Smallton", countryCode: "AA", administrativeArea: nil, population: 3000, latitude: 10.18,
            longitude: 20),
        GeocoderPlace(
            name: "Eastvillage", countryCode: "BB", administrativeArea: "Isles", population: 1200, latitude: -16.5,
            longitude: 179.95),
        GeocoderPlace(
            name: "Westvillage", countryCode: "BB", administrativeArea: "Isles", population: 1200, latitude: -16.5,
            longitude: -179.8),
    ]
    let addresses = [
        GeocoderAddressPoint(
            street: "Mainstreet", houseNumber: "7", postalCode: "00100", city: nil, latitude: 10.0003,
            longitude: 20.0003),
        GeocoderAddressPoint(
            street: "Mainstreet", houseNumber: "9 B", postalCode: nil, city: "Bigcity City", latitude: 10.0003,
            longitude: 20.0008),
    ]
    let streets = [
        GeocoderStreetPoint(street: "Sidestreet", latitude: 10.003, longitude: 20),
        GeocoderStreetPoint(street: "Sidestreet", latitude: 10.0032, longitude: 20),
    ]
    return ReverseGeocoder(
        dataset: GeocoderDataset(
            places: places, addresses: addresses, streetPoints: streets,
            countryNames: ["AA": "Aland", "BB": "Bbland"]),
        options: options)
}

@Suite("ReverseGeocoder")
struct ReverseGeocoderTests {
    @Test("an address point within 50 m gives street and number first, then the locality")
    func addressPoint() throws {
        // 10 m south-west of Mainstreet 7 (0.0001° lat ≈ 11 m).
        let results = try makeGeocoder().reverseGeocode(latitude: 10.0002, longitude: 20.0002)
        #expect(results.count == 2)
        let first = try #require(results.first)
        #expect(first.thoroughfare == "Mainstreet 7")
        #expect(first.postalCode == "00100")
        #expect(first.locality == "Bigcity")
        #expect(first.administrativeArea == "North")
        #expect(first.country == "Aland")
        #expect(first.latitude == 10.0003 && first.longitude == 20.0003)
        #expect(first.lines == ["Mainstreet 7", "00100 Bigcity, Aland"])
        #expect(results[1].thoroughfare == nil)
        #expect(results[1].lines == ["Bigcity", "North, Aland"])
    }

    @Test("addr:city overrides the locality; a missing postcode is left out of the lines")
    func addressCity() throws {
        let first = try #require(try makeGeocoder().reverseGeocode(latitude: 10.0003, longitude: 20.0009).first)
        #expect(first.thoroughfare == "Mainstreet 9 B")
        #expect(first.locality == "Bigcity City")
        #expect(first.postalCode == nil)
        #expect(first.lines == ["Mainstreet 9 B", "Bigcity City, Aland"])
    }

    @Test("no address within 50 m but a street sample: the street name alone")
    func streetOnly() throws {
        // 0.0031° N of Bigcity: 345 m from Mainstreet 7, 11 m from a Sidestreet sample.
        let first = try #require(try makeGeocoder().reverseGeocode(latitude: 10.0031, longitude: 20.0001).first)
        #expect(first.thoroughfare == "Sidestreet")
        #expect(first.postalCode == nil)
        #expect(first.lines == ["Sidestreet", "Bigcity, Aland"])
    }

    @Test("a district inside a big city's reach is the subLocality, the city the locality")
    func subLocality() throws {
        // 2 km north of Bigcity, at Oldtown's point: Bigcity reaches 10 km (10 m × √1,000,000).
        let results = try makeGeocoder().reverseGeocode(latitude: 10.018, longitude: 20.0)
        #expect(results.count == 1)
        #expect(results[0].locality == "Bigcity")
        #expect(results[0].subLocality == "Oldtown")
        #expect(results[0].lines == ["Oldtown, Bigcity", "North, Aland"])
    }

    @Test("outside every place's reach the nearest place within 50 km is the locality")
    func nearestTown() throws {
        // 19 km north of Bigcity (beyond its 10 km reach), 1 km from Smallton (whose reach is 548 m).
        let results = try makeGeocoder().reverseGeocode(latitude: 10.171, longitude: 20.0)
        #expect(results.map(\.locality) == ["Smallton"])
        #expect(results[0].subLocality == nil)
        #expect(results[0].administrativeArea == nil)
        #expect(results[0].lines == ["Smallton", "Aland"])
        #expect(results[0].latitude == 10.171)
    }

    @Test("nothing within 50 km is no result", arguments: [(0.0, -140.0), (90.0, 0.0), (-90.0, 0.0), (10.7, 20.0)])
    func noResult(latitude: Double, longitude: Double) throws {
        #expect(try makeGeocoder().reverseGeocode(latitude: latitude, longitude: longitude).isEmpty)
    }

    @Test("the antimeridian: the nearer village wins from both sides")
    func antimeridian() throws {
        let geocoder = makeGeocoder()
        // 179.99° W is 0.06° from Eastvillage (179.95° E) and 0.19° from Westvillage.
        #expect(try geocoder.reverseGeocode(latitude: -16.5, longitude: -179.99).first?.locality == "Eastvillage")
        #expect(try geocoder.reverseGeocode(latitude: -16.5, longitude: 180).first?.locality == "Eastvillage")
        #expect(try geocoder.reverseGeocode(latitude: -16.5, longitude: -180).first?.locality == "Eastvillage")
        #expect(try geocoder.reverseGeocode(latitude: -16.5, longitude: -179.85).first?.locality == "Westvillage")
    }

    @Test(
        "invalid coordinates throw invalidCoordinate",
        arguments: [
            (Double.nan, 0.0), (0, .nan), (90.0001, 0), (-91, 0), (0, 180.0001), (0, -181), (.infinity, 0),
        ])
    func invalid(latitude: Double, longitude: Double) {
        #expect(throws: ReverseGeocodingError.self) {
            try makeGeocoder().reverseGeocode(latitude: latitude, longitude: longitude)
        }
    }

    @Test("a larger place radius reaches farther")
    func radiusOption() throws {
        var options = ReverseGeocoderOptions()
        options.placeRadiusMetres = 100_000
        // 10.7° N is 58 km from Smallton: outside 50 km, inside 100 km.
        #expect(
            try makeGeocoder(options: options).reverseGeocode(latitude: 10.7, longitude: 20).first?.locality
                == "Smallton")
    }
}

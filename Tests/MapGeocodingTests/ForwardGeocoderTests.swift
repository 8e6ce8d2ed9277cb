import Testing

@testable import MapGeocoding

@Suite struct ForwardGeocoderTests {
    static let places = [
        GeocoderPlace(
            name: "Berkeley", countryCode: "US", administrativeArea: "California", population: 120_972,
            latitude: 37.87, longitude: -122.27),
        GeocoderPlace(
            name: "Berkeley", countryCode: "US", administrativeArea: "Missouri", population: 9_073, latitude: 38.75,
            longitude: -90.33),
        GeocoderPlace(
            name: "New York City", countryCode: "US", administrativeArea: "New York", population: 8_804_190,
            latitude: 40.71, longitude: -74.01),
        GeocoderPlace(
            name: "Toledo", countryCode: "US", administrativeArea: "Ohio", population: 270_871, latitude: 41.66,
            longitude: -83.56),
        GeocoderPlace(
            name: "Toledo", countryCode: "ES", administrativeArea: "Castille-La Mancha", population: 74_632,
            latitude: 39.86, longitude: -4.03),
        GeocoderPlace(
            name: "Zürich", countryCode: "CH", administrativeArea: "Zurich", population: 341_730, latitude: 47.37,
            longitude: 8.55),
    ]
    static let geocoder = ForwardGeocoder(
        places: places, countryNames: ["US": "United States", "CH": "Switzerland", "ES": "Spain"])

    @Test func qualifiersRankThePlaces() {
        #expect(Self.geocoder.search("Berkeley").map(\.administrativeArea) == ["California", "Missouri"])
        #expect(Self.geocoder.search("Berkeley, MO").first?.administrativeArea == "Missouri")
        #expect(Self.geocoder.search("berkeley,missouri,US").first?.administrativeArea == "Missouri")
        #expect(Self.geocoder.search("Berkeley", limit: 1).count == 1)
    }

    @Test func accentsCaseAndPlusesAreIgnored() {
        #expect(Self.geocoder.search("ZURICH").first?.name == "Zürich")
        #expect(Self.geocoder.search("New+York+City").first?.name == "New York City")
    }

    @Test func unknownPartsGiveWayToDivisionsAndCountries() {
        #expect(Self.geocoder.search("Brooklyn Bridge,New York,NY").first?.name == "New York City")
        #expect(Self.geocoder.search("Some Street, CA").first?.name == "Berkeley")
        #expect(Self.geocoder.search("Switzerland").first?.name == "Zürich")
        #expect(Self.geocoder.search("Atlantis").isEmpty)
        #expect(Self.geocoder.search("").isEmpty)
    }

    /// Google's region biasing: `region` wins among equally qualified places, a qualifier in the query still wins.
    @Test func aRegionBiasesTowardItsCountry() {
        #expect(Self.geocoder.search("Toledo").first?.countryCode == "US")
        #expect(Self.geocoder.search("Toledo", region: "ES").first?.countryCode == "ES")
        #expect(Self.geocoder.search("Toledo", region: "es").first?.countryCode == "ES")
        #expect(Self.geocoder.search("Toledo, Ohio", region: "ES").first?.countryCode == "US")
        #expect(Self.geocoder.search("Toledo", region: "FI").first?.countryCode == "US")
        #expect(Self.geocoder.search("Toledo", region: "ES").count == 2)
    }
}

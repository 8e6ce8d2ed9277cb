import Foundation
import Testing

@testable import GoogleMaps

private let stockmann = GMSAddress(
    coordinate: CLLocationCoordinate2D(latitude: 60.1682206, longitude: 24.9425498),
    thoroughfare: "Aleksanterinkatu 52", locality: "Helsinki", subLocality: "Kluuvi", administrativeArea: "Uusimaa",
    postalCode: "00100", country: "Finland", lines: ["Aleksanterinkatu 52", "00100 Helsinki, Finland"])

private protocol LegacyAddressLines {
    func addressLine1() -> String?
    func addressLine2() -> String?
}

extension GMSAddress: LegacyAddressLines {}

@Suite("GMSAddress and GMSReverseGeocodeResponse")
struct GeocoderAddressTests {
    @Test("NSSecureCoding round trip keeps every field, nil fields included")
    func secureCoding() throws {
        let sparse = GMSAddress(
            coordinate: CLLocationCoordinate2D(latitude: -33.8683, longitude: 151.2086),
            locality: "Sydney", country: "Australia")
        for address in [stockmann, sparse] {
            let data = try NSKeyedArchiver.archivedData(withRootObject: address, requiringSecureCoding: true)
            let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: GMSAddress.self, from: data))
            #expect(decoded == address)
            #expect(decoded.lines == address.lines)
            #expect(decoded.thoroughfare == address.thoroughfare)
            #expect(decoded.coordinate == address.coordinate)
        }
        #expect(GMSAddress.supportsSecureCoding)
    }

    @Test("equality compares fields; a copy is equal")
    func equality() throws {
        let other = GMSAddress(coordinate: stockmann.coordinate, thoroughfare: "Aleksanterinkatu 50")
        #expect(stockmann != other)
        let copy = try #require(stockmann.copy() as? GMSAddress)
        #expect(copy == stockmann)
        #expect(copy.hash == stockmann.hash)
    }

    /// Calls the deprecated accessors through a protocol, which keeps the test build free of deprecation warnings.
    private func deprecatedLines(_ a: GMSAddress) -> (String?, String?) {
        let legacy: any LegacyAddressLines = a
        return (legacy.addressLine1(), legacy.addressLine2())
    }

    @Test("addressLine1 and addressLine2 are lines[0] and lines[1], nil when absent")
    func deprecatedAccessors() {
        let (l1, l2) = deprecatedLines(stockmann)
        #expect(l1 == "Aleksanterinkatu 52")
        #expect(l2 == "00100 Helsinki, Finland")
        let one = GMSAddress(coordinate: kCLLocationCoordinate2DInvalid, lines: ["Singapore"])
        #expect(deprecatedLines(one) == ("Singapore", nil))
        #expect(deprecatedLines(GMSAddress(coordinate: kCLLocationCoordinate2DInvalid)) == (nil, nil))
    }

    @Test("a response: firstResult is the first of results; an empty response has neither")
    func response() {
        let area = GMSAddress(coordinate: stockmann.coordinate, locality: "Helsinki", country: "Finland")
        let response = GMSReverseGeocodeResponse(addresses: [stockmann, area])
        #expect(response.firstResult() === stockmann)
        #expect(response.results()?.count == 2)
        #expect(response.results()?.last === area)
        let empty = GMSReverseGeocodeResponse(addresses: [])
        #expect(empty.firstResult() == nil)
        #expect(empty.results() == nil)
        #expect((response.copy() as? GMSReverseGeocodeResponse) === response)
    }
}

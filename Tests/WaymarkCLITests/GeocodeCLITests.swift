import Foundation
import MapTestSupport
import Testing

@Suite struct GeocodeCLITests {
    @Test func centralHelsinkiResolvesToAStreetAddress() throws {
        let r = try WaymarkProcess.run(["geocode", "60.1699,24.9384"], in: Fixtures.repositoryRoot)
        #expect(r.status == 0, "\(r.stderr)")
        let first = try #require((r.json?["results"] as? [[String: Any]])?.first)
        #expect(first["locality"] as? String == "Helsinki")
        #expect(first["country"] as? String == "Finland")
        #expect((first["thoroughfare"] as? String)?.isEmpty == false)
    }

    @Test func midOceanHasNoResultsButSucceeds() throws {
        let r = try WaymarkProcess.run(["geocode", "0,-140"], in: Fixtures.repositoryRoot)
        #expect(r.status == 0)
        #expect((r.json?["results"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: ["91,0", "0,181", "nan,0", "60.1", "60.1,"])
    func invalidCoordinatesAreUsageErrors(argument: String) throws {
        let r = try WaymarkProcess.run(["geocode", argument], in: Fixtures.repositoryRoot)
        #expect(r.status == 2, "geocode \(argument) gave \(r.status): \(r.stderr)")
    }

    @Test func placeNamesAreForwardGeocoded() throws {
        let r = try WaymarkProcess.run(["geocode", "Berkeley, CA"], in: Fixtures.repositoryRoot)
        #expect(r.status == 0, "\(r.stderr)")
        let first = (r.json?["results"] as? [[String: Any]])?.first
        #expect(first?["locality"] as? String == "Berkeley")
        #expect(first?["administrativeArea"] as? String == "California")
        let none = try WaymarkProcess.run(["geocode", "Qqqxxzz Nowhere"], in: Fixtures.repositoryRoot)
        #expect(none.status == 0)
        #expect((none.json?["results"] as? [Any])?.isEmpty == true)
    }
}

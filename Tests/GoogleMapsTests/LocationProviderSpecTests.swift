import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

@Suite struct LocationProviderSpecTests {
    @Test(arguments: [
        ("fixed:60.17,24.94", LocationProviderSpec.fixed(.init(latitude: 60.17, longitude: 24.94), accuracy: 10)),
        ("fixed:-33.9, 151.2, 25", .fixed(.init(latitude: -33.9, longitude: 151.2), accuracy: 25)),
        ("gpx:/tmp/a.gpx", .gpx(path: "/tmp/a.gpx", interval: nil)),
        ("gpx:walk@2.5.gpx@0.5", .gpx(path: "walk@2.5.gpx", interval: 0.5)),
        ("gpsd", .gpsd(host: "127.0.0.1", port: 2947)),
        ("gpsd:2948", .gpsd(host: "127.0.0.1", port: 2948)),
        ("gpsd:localhost:3000", .gpsd(host: "localhost", port: 3000)),
        // Issue 30: the bare form README and `map-viewer --location` use.
        ("60.17,24.94", .fixed(.init(latitude: 60.17, longitude: 24.94), accuracy: 10)),
        (" -33.9, 151.2, 25", .fixed(.init(latitude: -33.9, longitude: 151.2), accuracy: 25)),
    ])
    func validSpecifications(text: String, expected: LocationProviderSpec) throws {
        #expect(try LocationProviderSpec.parse(text) == expected)
    }

    @Test(arguments: [
        "", "gps", "fixed:", "fixed:91,0", "fixed:60", "fixed:60,24,-1", "fixed:a,b", "gpx:", "gpx:a.gpx@0",
        "gpsd:0", "gpsd:70000", "gpsd:a:b:c", "91,0", "60,", "a,b",
    ])
    func invalidSpecificationsNameTheText(text: String) {
        do {
            _ = try LocationProviderSpec.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains("\"\(text)\""))
        }
    }

    @Test func makesEachKindOfProvider() throws {
        let clock = ManualClock()
        #expect(try LocationProviderSpec.parse("fixed:1,2").makeProvider(clock: clock) is FixedLocationProvider)
        #expect(try LocationProviderSpec.parse("gpsd").makeProvider(clock: clock) is GPSDLocationProvider)
        let walk = Fixtures.local.appendingPathComponent("location/helsinki-walk.gpx").path
        let replay = try LocationProviderSpec.parse("gpx:\(walk)@1").makeProvider(clock: clock)
        #expect((replay as? GPXReplayProvider)?.pace == .fixedInterval(seconds: 1))
        #expect(throws: GPXError.self) {
            try LocationProviderSpec.parse("gpx:/nonexistent.gpx").makeProvider(clock: clock)
        }
    }
}

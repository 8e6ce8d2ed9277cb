import Foundation
import GoogleMaps

/// `waymark geocode LAT,LON`: reverse-geocodes one coordinate with `GMSGeocoder` and prints the response as JSON.
/// `waymark geocode NAME`: forward-geocodes a place name (`GMSGeocoder.geocodePlaceName`, Waymark's own) and prints
/// the places found in the same shape, with `"query": {"name": NAME}`.
///
/// Output (stdout, pretty-printed, keys sorted): `{"query": {"latitude", "longitude"}, "results": [address…]}` where
/// each address has `coordinate`, `thoroughfare`, `subLocality`, `locality`, `administrativeArea`, `postalCode`,
/// `country` (null when absent) and `lines`; `results` is `[]` when nothing lies within 50 km.
/// Exit codes: 0 success (also with no results); 1 when the database is missing or unreadable; 2 for a malformed or
/// invalid coordinate.
struct GeocodeCommand: WaymarkCommand {
    static let name = "geocode"
    static let summary = "geocode offline: a coordinate to addresses, or a place name to places, as JSON"
    static let usage = """
        usage: waymark geocode LAT,LON [--database FILE]
               waymark geocode NAME [--database FILE]
          LAT,LON          degrees, e.g. 60.1699,24.9384 (or two arguments: LAT LON); latitude in [-90, 90],
                           longitude in [-180, 180]
          NAME             a place name, optionally with its region or country: 'Berkeley, CA', 'Paris, France'
                           (GeoNames places; best first, at most 5)
          --database FILE  the geocoder database (default: $WAYMARK_DATA_DIR/geocoder.sqlite, else Data/geocoder.sqlite
                           in the working directory, the executable's folder or one of their ancestors)
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["--database"])
        let geocoder =
            args.value("--database").map { GMSGeocoder(databaseURL: URL(fileURLWithPath: $0)) }
            ?? GMSGeocoder()
        if let name = placeName(args.positionals) {
            let places: [GMSAddress]
            do { places = try geocoder.geocodePlaceName(name) } catch {
                throw RuntimeError((error as NSError).localizedDescription)
            }
            let output = ForwardOutput(query: .init(name: name), results: places.map(GeocodeOutput.Address.init))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(output))
            print()
            return
        }
        let coordinate = try parseCoordinate(args.positionals)
        guard CLLocationCoordinate2DIsValid(coordinate) else {
            throw UsageError(
                "invalid coordinate \(coordinate.latitude),\(coordinate.longitude): latitude must be in [-90, 90] "
                    + "and longitude in [-180, 180]")
        }

        // The documented path: the callback arrives on the main queue, which the main run loop services.
        final class Box: @unchecked Sendable {
            var response: GMSReverseGeocodeResponse?
            var error: (any Error)?
            var done = false
        }
        let box = Box()
        geocoder.reverseGeocodeCoordinate(coordinate) { response, error in
            box.response = response
            box.error = error
            box.done = true
        }
        let deadline = Date(timeIntervalSinceNow: 60)
        while !box.done && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        guard box.done else { throw RuntimeError("no answer from the geocoder within 60 s") }
        if let error = box.error as NSError? {
            if error.domain == kGMSGeocoderErrorDomain && error.code == GMSGeocoderErrorCode.invalidCoordinate.rawValue
            {
                throw UsageError(error.localizedDescription)
            }
            throw RuntimeError(error.localizedDescription)
        }
        let output = GeocodeOutput(
            query: .init(coordinate), results: (box.response?.results() ?? []).map(GeocodeOutput.Address.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(output))
        print()
    }

    /// The place name when the arguments are not one or two numbers (a forward lookup), else `nil`.
    static func placeName(_ positionals: [String]) -> String? {
        let text = positionals.joined(separator: " ")
        let hasLetter = text.unicodeScalars.contains { CharacterSet.letters.contains($0) }
        let numeric = text.split(whereSeparator: { $0 == "," || $0 == " " }).allSatisfy { Double($0) != nil }
        return hasLetter && !numeric ? text : nil
    }

    /// `["LAT,LON"]` or `["LAT", "LON"]` (a trailing comma on the first of two is allowed).
    static func parseCoordinate(_ positionals: [String]) throws -> CLLocationCoordinate2D {
        let parts: [String]
        switch positionals.count {
        case 1: parts = positionals[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        case 2:
            parts = [
                positionals[0].hasSuffix(",") ? String(positionals[0].dropLast()) : positionals[0], positionals[1],
            ]
        case 0: throw UsageError("missing coordinate LAT,LON")
        default: throw UsageError("expected one coordinate LAT,LON, got \(positionals.count) arguments")
        }
        guard parts.count == 2,
            let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else {
            throw UsageError("cannot read '\(positionals.joined(separator: " "))' as LAT,LON in degrees")
        }
        return CLLocationCoordinate2D(latitude: lat, longitude: lon)
    }
}

/// The JSON printed by `waymark geocode NAME`.
private struct ForwardOutput: Encodable {
    struct Query: Encodable { var name: String }
    var query: Query
    var results: [GeocodeOutput.Address]
}

/// The JSON printed by `waymark geocode`.
private struct GeocodeOutput: Encodable {
    struct Coordinate: Encodable {
        var latitude: Double
        var longitude: Double
        init(_ c: CLLocationCoordinate2D) {
            latitude = c.latitude
            longitude = c.longitude
        }
    }

    struct Address: Encodable {
        var coordinate: Coordinate
        var thoroughfare: String?
        var subLocality: String?
        var locality: String?
        var administrativeArea: String?
        var postalCode: String?
        var country: String?
        var lines: [String]

        init(_ a: GMSAddress) {
            coordinate = Coordinate(a.coordinate)
            thoroughfare = a.thoroughfare
            subLocality = a.subLocality
            locality = a.locality
            administrativeArea = a.administrativeArea
            postalCode = a.postalCode
            country = a.country
            lines = a.lines ?? []
        }

        enum CodingKeys: String, CodingKey {
            case coordinate, thoroughfare, subLocality, locality, administrativeArea, postalCode, country, lines
        }

        // Absent fields are written as null so every address has the same keys.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(coordinate, forKey: .coordinate)
            try c.encode(thoroughfare, forKey: .thoroughfare)
            try c.encode(subLocality, forKey: .subLocality)
            try c.encode(locality, forKey: .locality)
            try c.encode(administrativeArea, forKey: .administrativeArea)
            try c.encode(postalCode, forKey: .postalCode)
            try c.encode(country, forKey: .country)
            try c.encode(lines, forKey: .lines)
        }
    }

    var query: Coordinate
    var results: [Address]
}

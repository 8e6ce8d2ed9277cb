// Reads Data/geocoder.sqlite (built by scripts/data/build-geocoder.py; schema in Data/GEOCODER.md) into plain records.
import CSQLite
import Foundation

/// A GeoNames place row of the geocoder database.
package struct GeocoderPlaceRecord: Equatable, Sendable {
    /// GeoNames id.
    package var geonameID: Int
    /// Place name.
    package var name: String
    /// ISO 3166-1 alpha-2 country code.
    package var countryCode: String
    /// First-level administrative division name, or `nil` when unknown.
    package var administrativeArea: String?
    /// Inhabitants; 0 when unknown.
    package var population: Int
    /// Degrees, stored as integer 1e-5 degrees.
    package var latitude: Double
    /// Degrees, stored as integer 1e-5 degrees.
    package var longitude: Double
}

/// An OpenStreetMap address point row of the geocoder database.
package struct GeocoderAddressRecord: Equatable, Sendable {
    /// `addr:street`.
    package var street: String
    /// `addr:housenumber`.
    package var houseNumber: String
    /// `addr:postcode`, or `nil`.
    package var postalCode: String?
    /// `addr:city`, or `nil`.
    package var city: String?
    /// Degrees, stored as integer 1e-7 degrees.
    package var latitude: Double
    /// Degrees, stored as integer 1e-7 degrees.
    package var longitude: Double
}

/// A sample along a named OpenStreetMap street (every ≤ 20 m).
package struct GeocoderStreetPointRecord: Equatable, Sendable {
    /// The street's name.
    package var street: String
    /// Degrees, stored as integer 1e-7 degrees.
    package var latitude: Double
    /// Degrees, stored as integer 1e-7 degrees.
    package var longitude: Double
}

/// Why the geocoder database could not be read.
package enum GeocoderDatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// SQLite failed to open or query the file (message from SQLite).
    case unreadable(path: String, message: String)
    /// The file is not a geocoder database of the schema version this code reads.
    case wrongSchema(path: String, found: String?)

    /// A one-line message naming the file.
    package var description: String {
        switch self {
        case .missing(let path):
            return "geocoder database not found at \(path) (build it with scripts/data/build-geocoder.sh)"
        case .unreadable(let path, let message):
            return "cannot read geocoder database \(path): \(message)"
        case .wrongSchema(let path, let found):
            return "\(path) is not a geocoder database of schema version \(GeocoderDatabase.schemaVersion) "
                + "(found \(found ?? "none"))"
        }
    }
}

/// The offline reverse-geocoding database: a read-only SQLite file with GeoNames places, country and admin-1 names,
/// and Helsinki's OpenStreetMap address points and street samples.
///
/// The whole file is read at once (``load()``); the caller builds its in-memory index from the records.
/// - Thread rules: a value; each ``load()`` opens and closes its own connection, so it may run on any thread.
package struct GeocoderDatabase: Sendable {
    /// The file name inside a data folder: `geocoder.sqlite`.
    package static let fileName = "geocoder.sqlite"
    /// The `meta.schema_version` this reader understands.
    package static let schemaVersion = "1"

    /// Everything in the file.
    package struct Contents: Sendable {
        /// Places, in geonameid order.
        package var places: [GeocoderPlaceRecord]
        /// Address points, in latitude then longitude order.
        package var addresses: [GeocoderAddressRecord]
        /// Street samples, in latitude then longitude order.
        package var streetPoints: [GeocoderStreetPointRecord]
        /// English country names by ISO 3166-1 alpha-2 code.
        package var countryNames: [String: String]
    }

    /// The file.
    package let url: URL

    /// A database at `url`; nothing is opened until ``load()``.
    package init(url: URL) {
        self.url = url
    }

    /// Reads every table.
    /// - Throws: ``GeocoderDatabaseError``.
    package func load() throws(GeocoderDatabaseError) -> Contents {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let db = try GeocoderConnection(path: path)
        let version = try db.rows("SELECT value FROM meta WHERE key = 'schema_version'") { $0.text(0) }.first ?? nil
        guard version == Self.schemaVersion else { throw .wrongSchema(path: path, found: version) }

        var countries: [String: String] = [:]
        for (code, name) in try db.rows("SELECT code, name FROM country", { ($0.text(0) ?? "", $0.text(1) ?? "") }) {
            countries[code] = name
        }
        let places = try db.rows(
            """
            SELECT p.geonameid, p.name, p.country, a.name, p.population, p.lat_e5, p.lon_e5
            FROM place p LEFT JOIN admin1 a ON a.id = p.admin1 ORDER BY p.geonameid
            """
        ) { row in
            GeocoderPlaceRecord(
                geonameID: row.int(0), name: row.text(1) ?? "", countryCode: row.text(2) ?? "",
                administrativeArea: row.text(3), population: row.int(4), latitude: Double(row.int(5)) / 1e5,
                longitude: Double(row.int(6)) / 1e5)
        }
        let addresses = try db.rows(
            """
            SELECT s.name, a.housenumber, a.postcode, a.city, a.lat_e7, a.lon_e7
            FROM address a JOIN street s ON s.id = a.street ORDER BY a.id
            """
        ) { row in
            GeocoderAddressRecord(
                street: row.text(0) ?? "", houseNumber: row.text(1) ?? "", postalCode: row.text(2),
                city: row.text(3), latitude: Double(row.int(4)) / 1e7, longitude: Double(row.int(5)) / 1e7)
        }
        let streetPoints = try db.rows(
            "SELECT s.name, p.lat_e7, p.lon_e7 FROM street_point p JOIN street s ON s.id = p.street ORDER BY p.id"
        ) { row in
            GeocoderStreetPointRecord(
                street: row.text(0) ?? "", latitude: Double(row.int(1)) / 1e7, longitude: Double(row.int(2)) / 1e7)
        }
        return Contents(places: places, addresses: addresses, streetPoints: streetPoints, countryNames: countries)
    }

    /// Finds the database file: `explicitURL` when given; else `$WAYMARK_DATA_DIR/geocoder.sqlite` when that variable
    /// is set; else the first `Data/geocoder.sqlite` found in the working directory or one of its ancestors, then in
    /// the executable's folder or one of its ancestors (so `.build/release/waymark` finds the checkout's `Data/`).
    /// - Returns: the URL found, or the first candidate (for the "not found" message) when none exists.
    package static func locate(
        explicitURL: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    ) -> URL {
        explicitURL
            ?? DataFiles.locate(
                fileName, environment: environment, workingDirectory: workingDirectory, executable: executable)
    }
}

/// A read-only SQLite connection, closed on deinit (private to the geocoder reader).
private final class GeocoderConnection {
    let handle: OpaquePointer
    let path: String

    init(path: String) throws(GeocoderDatabaseError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "sqlite3_open_v2 returned \(rc)"
            if let db { sqlite3_close(db) }
            throw .unreadable(path: path, message: message)
        }
        handle = db
        self.path = path
    }

    deinit { sqlite3_close(handle) }

    /// Runs `sql` and maps every row.
    func rows<T>(_ sql: String, _ map: (GeocoderRow) -> T) throws(GeocoderDatabaseError) -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw .unreadable(path: path, message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var out: [T] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw .unreadable(path: path, message: String(cString: sqlite3_errmsg(handle)))
            }
            out.append(map(GeocoderRow(statement: statement)))
        }
        return out
    }
}

/// One result row of a ``GeocoderConnection`` query.
private struct GeocoderRow {
    let statement: OpaquePointer

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let c = sqlite3_column_text(statement, column)
        else { return nil }
        return String(cString: c)
    }
}

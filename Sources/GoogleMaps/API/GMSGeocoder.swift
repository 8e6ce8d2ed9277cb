import Foundation
import MapGeocoding
import MapStorage

/// The callback of ``GMSGeocoder/reverseGeocodeCoordinate(_:completionHandler:)``: a response or an error (one of
/// them non-nil), called asynchronously on the main queue.
///
/// A plain closure type, as Google's block is seen from Swift: a closure written in a view controller (main actor)
/// is isolated to the main actor and may touch the UI; one written in nonisolated code may capture what is not
/// `Sendable` (another completion handler), in Swift 5 and Swift 6 mode alike.
public typealias GMSReverseGeocodeCallback = (GMSReverseGeocodeResponse?, (any Error)?) -> Void

/// The error domain of the `NSError`s ``GMSGeocoder`` delivers, whose codes are ``GMSGeocoderErrorCode`` raw values.
///
/// Google documents the codes but not a domain constant; this name is Waymark's (`"com.google.GMSGeocoder"`).
public let kGMSGeocoderErrorDomain: String = "com.google.GMSGeocoder"

/// ``GMSGeocoder`` error codes, carried as the `code` of an `NSError` in ``kGMSGeocoderErrorDomain`` (spec §1.13).
public enum GMSGeocoderErrorCode: Int, Sendable {
    /// The coordinate is not valid: NaN or infinite, latitude outside [−90, 90] or longitude outside [−180, 180].
    case invalidCoordinate = 1
    /// The geocoder could not answer: the database is missing or unreadable (the message names the file).
    case `internal` = 2
}

/// Reverse geocoding, offline: turns a coordinate into addresses from the embedded database (spec §1.13).
///
/// Google's geocoder is an online service; Waymark answers from `Data/geocoder.sqlite` (GeoNames places worldwide,
/// OpenStreetMap address points in central Helsinki; see Data/GEOCODER.md). The database is found, in this order:
/// 1. the URL given to ``init(databaseURL:)`` (a Waymark addition);
/// 2. `$WAYMARK_DATA_DIR/geocoder.sqlite` when the environment variable `WAYMARK_DATA_DIR` is set;
/// 3. `Data/geocoder.sqlite` in the working directory or one of its ancestors, then beside the executable or in one
///    of its ancestors (so a binary under `.build/` finds the checkout's `Data/`).
///
/// The first query loads the file and builds in-memory k-d trees (shared by every geocoder using the same file, for
/// the life of the process); later queries take microseconds.
///
/// Outcomes:
/// - a response with one or two addresses, the most specific first (see ``GMSReverseGeocodeResponse``);
/// - a response with **no results** when nothing lies within 50 km (mid-ocean, the poles): Google's header documents
///   `firstResult()` as nil "when there are no results", and its error codes cover only invalid input and internal
///   failures, so "no result" is a successful, empty response, not an error;
/// - an `NSError` in ``kGMSGeocoderErrorDomain`` with ``GMSGeocoderErrorCode/invalidCoordinate`` for an invalid
///   coordinate, or ``GMSGeocoderErrorCode/internal`` when the database cannot be read.
/// - Thread rules: may be called from any thread; the callback always runs later on the main queue.
open class GMSGeocoder: NSObject, @unchecked Sendable {
    private let explicitDatabaseURL: URL?

    /// A geocoder using the default database search (see the type's documentation).
    public override init() {
        explicitDatabaseURL = nil
        super.init()
    }

    /// A geocoder reading the database at `databaseURL` (a Waymark addition; Google's geocoder has no database).
    public init(databaseURL: URL) {
        explicitDatabaseURL = databaseURL
        super.init()
    }

    /// The database file this geocoder reads (whether or not it exists).
    public var databaseURL: URL { GeocoderDatabase.locate(explicitURL: explicitDatabaseURL) }

    /// Reverse-geocodes `coordinate` and calls `completionHandler` asynchronously on the main queue with either a
    /// response (possibly with no results) or an `NSError` in ``kGMSGeocoderErrorDomain``.
    /// - Parameters:
    ///   - coordinate: degrees; must satisfy `CLLocationCoordinate2DIsValid`, else the error is
    ///     ``GMSGeocoderErrorCode/invalidCoordinate``.
    ///   - completionHandler: called exactly once, on the main queue, never before this method returns.
    open func reverseGeocodeCoordinate(
        _ coordinate: CLLocationCoordinate2D, completionHandler: @escaping GMSReverseGeocodeCallback
    ) {
        let url = databaseURL
        // Carried to the main actor, the only place it is called.
        let handler = UncheckedTransfer(value: completionHandler)
        // The app is not idle until the handler has run (a headless host's runUntilIdle and --snapshot wait).
        UIApplication.beginPendingCallback()
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Self.lookUp(coordinate, databaseURL: url)
            // Whichever runs it first: the main queue, or a window loop's or runUntilIdle's run-loop turn.
            UIApplication.deliverOnMainActor {
                defer { UIApplication.endPendingCallback() }
                switch outcome {
                case .success(let response): handler.value(response, nil)
                case .failure(let error): handler.value(nil, error)
                }
            }
        }
    }

    /// Reverse-geocodes `coordinate` (the Swift `async` form of the callback method; it does not need the main queue
    /// to be serviced).
    /// - Returns: the response, possibly with no results.
    /// - Throws: an `NSError` in ``kGMSGeocoderErrorDomain``: ``GMSGeocoderErrorCode/invalidCoordinate`` or
    ///   ``GMSGeocoderErrorCode/internal``.
    open func reverseGeocodeCoordinate(_ coordinate: CLLocationCoordinate2D) async throws -> GMSReverseGeocodeResponse {
        let url = databaseURL
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Self.lookUp(coordinate, databaseURL: url))
            }
        }
    }

    /// Forward-geocodes a place name offline (Waymark's own; Google's iOS SDK has no forward geocoder): the GeoNames
    /// places of the database that `name` names, best first, as addresses with the place's coordinate, locality,
    /// administrative area and country.
    ///
    /// `name` is a place name, optionally qualified by comma-separated division or country names
    /// (`"Berkeley, California"`, `"Paris, France"`, `"Springfield, IL, US"`); parts that name no place (a street,
    /// a landmark) give way to the next (`"Brooklyn Bridge, New York, NY"` finds New York City). Matching ignores case
    /// and accents; among equal matches the more populous place comes first.
    /// - Parameters:
    ///   - name: the place name; empty or unknown gives no results.
    ///   - limit: the most addresses returned, `≥ 0`. Default 5.
    /// - Returns: the addresses, possibly none.
    /// - Throws: an `NSError` in ``kGMSGeocoderErrorDomain`` with ``GMSGeocoderErrorCode/internal`` when the database
    ///   cannot be read. Any thread.
    open func geocodePlaceName(_ name: String, limit: Int = 5) throws -> [GMSAddress] {
        let geocoder: ForwardGeocoder
        do {
            geocoder = try GeocoderIndexStore.shared.forwardGeocoder(for: databaseURL)
        } catch {
            throw Self.error(.internal, error.description)
        }
        return geocoder.search(name, limit: limit).map { place in
            GMSAddress(
                coordinate: CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude),
                thoroughfare: nil, locality: place.name, subLocality: nil, administrativeArea: place.administrativeArea,
                postalCode: nil, country: geocoder.countryName(place.countryCode),
                lines: [place.name, place.administrativeArea, geocoder.countryName(place.countryCode)].compactMap { $0 }
            )
        }
    }

    /// The synchronous core shared by both forms.
    static func lookUp(_ coordinate: CLLocationCoordinate2D, databaseURL: URL) -> Result<
        GMSReverseGeocodeResponse, NSError
    > {
        guard CLLocationCoordinate2DIsValid(coordinate) else {
            return .failure(
                error(
                    .invalidCoordinate,
                    "invalid coordinate \(coordinate): latitude must be in [-90, 90] and longitude in [-180, 180]"))
        }
        let geocoder: ReverseGeocoder
        do {
            geocoder = try GeocoderIndexStore.shared.geocoder(for: databaseURL)
        } catch {
            return .failure(Self.error(.internal, error.description))
        }
        do {
            let answers = try geocoder.reverseGeocode(latitude: coordinate.latitude, longitude: coordinate.longitude)
            return .success(GMSReverseGeocodeResponse(addresses: answers.map(GMSAddress.init(answer:))))
        } catch {
            return .failure(Self.error(.invalidCoordinate, "invalid coordinate \(coordinate)"))
        }
    }

    private static func error(_ code: GMSGeocoderErrorCode, _ message: String) -> NSError {
        NSError(domain: kGMSGeocoderErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }
}

extension GMSAddress {
    convenience init(answer: GeocodedAddress) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: answer.latitude, longitude: answer.longitude),
            thoroughfare: answer.thoroughfare, locality: answer.locality, subLocality: answer.subLocality,
            administrativeArea: answer.administrativeArea, postalCode: answer.postalCode, country: answer.country,
            lines: answer.lines.isEmpty ? nil : answer.lines)
    }
}

/// Loads each geocoder database once per process and keeps its index (failures are not cached, so a database built
/// later is picked up).
/// - Thread rules: thread-safe (one lock; a load holds it, so concurrent first queries load once).
package final class GeocoderIndexStore: @unchecked Sendable {
    static let shared = GeocoderIndexStore()

    private let lock = NSLock()
    private var geocoders: [String: ReverseGeocoder] = [:]

    private var forward: [String: ForwardGeocoder] = [:]

    /// The forward index (place names) for the database at `url`, loading it on first use.
    func forwardGeocoder(for url: URL) throws(GeocoderDatabaseError) -> ForwardGeocoder {
        let key = url.standardizedFileURL.path
        lock.lock()
        defer { lock.unlock() }
        if let cached = forward[key] { return cached }
        let geocoder = try GeocoderDatabase(url: url).load().forwardGeocoder()
        forward[key] = geocoder
        return geocoder
    }

    /// The index for the database at `url`, loading it on first use.
    func geocoder(for url: URL) throws(GeocoderDatabaseError) -> ReverseGeocoder {
        let key = url.standardizedFileURL.path
        lock.lock()
        defer { lock.unlock() }
        if let cached = geocoders[key] { return cached }
        let geocoder = try Self.load(url)
        geocoders[key] = geocoder
        return geocoder
    }

    /// Reads the file and builds the index, without caching (the benchmark measures this). Not API (package).
    package static func load(_ url: URL) throws(GeocoderDatabaseError) -> ReverseGeocoder {
        let contents = try GeocoderDatabase(url: url).load()
        let dataset = GeocoderDataset(
            places: contents.places.map {
                GeocoderPlace(
                    name: $0.name, countryCode: $0.countryCode, administrativeArea: $0.administrativeArea,
                    population: $0.population, latitude: $0.latitude, longitude: $0.longitude)
            },
            addresses: contents.addresses.map {
                GeocoderAddressPoint(
                    street: $0.street, houseNumber: $0.houseNumber, postalCode: $0.postalCode, city: $0.city,
                    latitude: $0.latitude, longitude: $0.longitude)
            },
            streetPoints: contents.streetPoints.map {
                GeocoderStreetPoint(street: $0.street, latitude: $0.latitude, longitude: $0.longitude)
            },
            countryNames: contents.countryNames)
        return ReverseGeocoder(dataset: dataset)
    }
}

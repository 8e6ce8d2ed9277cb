import Foundation

/// A result of reverse geocoding: an address with its parts and formatted lines (spec §1.13, REF-AD).
///
/// Immutable; any field may be nil. Waymark builds addresses from OpenStreetMap address points (central Helsinki)
/// and GeoNames places (everywhere else); see Data/GEOCODER.md for how each field is chosen.
/// - Thread rules: immutable, safe to share between threads.
public final class GMSAddress: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Where the address is, in degrees: the matched address point or street, or the queried coordinate for a
    /// locality-level result; `kCLLocationCoordinate2DInvalid` when unknown.
    public let coordinate: CLLocationCoordinate2D
    /// Street name and number in the local order, for example `"Aleksanterinkatu 52"`, or a street name alone.
    public let thoroughfare: String?
    /// The city or town, for example `"Helsinki"`.
    public let locality: String?
    /// A district or neighbourhood within ``locality``, for example `"Kluuvi"`.
    public let subLocality: String?
    /// The first-level administrative division (state, region, constituent country), for example `"England"`.
    public let administrativeArea: String?
    /// The postal code, for example `"00100"`.
    public let postalCode: String?
    /// The country's English name, for example `"Finland"`.
    public let country: String?
    /// Formatted address lines, the most specific first, for example
    /// `["Aleksanterinkatu 52", "00100 Helsinki, Finland"]`; `nil` when there are none.
    public let lines: [String]?

    init(
        coordinate: CLLocationCoordinate2D, thoroughfare: String? = nil, locality: String? = nil,
        subLocality: String? = nil, administrativeArea: String? = nil, postalCode: String? = nil,
        country: String? = nil, lines: [String]? = nil
    ) {
        self.coordinate = coordinate
        self.thoroughfare = thoroughfare
        self.locality = locality
        self.subLocality = subLocality
        self.administrativeArea = administrativeArea
        self.postalCode = postalCode
        self.country = country
        self.lines = lines
        super.init()
    }

    /// The first formatted line, or `nil` when ``lines`` has none.
    @available(*, deprecated, message: "Use lines[0].")
    public func addressLine1() -> String? { lines?.first }

    /// The second formatted line, or `nil` when ``lines`` has fewer than two.
    @available(*, deprecated, message: "Use lines[1].")
    public func addressLine2() -> String? {
        guard let lines, lines.count > 1 else { return nil }
        return lines[1]
    }

    /// Returns `self`: addresses are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: decoding checks every class.
    public static var supportsSecureCoding: Bool { true }

    private enum Key {
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let thoroughfare = "thoroughfare"
        static let locality = "locality"
        static let subLocality = "subLocality"
        static let administrativeArea = "administrativeArea"
        static let postalCode = "postalCode"
        static let country = "country"
        static let lines = "lines"
    }

    /// Encodes every field under its property name (coordinate as `latitude` and `longitude`).
    public func encode(with coder: NSCoder) {
        coder.encode(coordinate.latitude, forKey: Key.latitude)
        coder.encode(coordinate.longitude, forKey: Key.longitude)
        let strings: [(String?, String)] = [
            (thoroughfare, Key.thoroughfare), (locality, Key.locality), (subLocality, Key.subLocality),
            (administrativeArea, Key.administrativeArea), (postalCode, Key.postalCode), (country, Key.country),
        ]
        for (value, key) in strings where value != nil {
            coder.encode(value.map { NSString(string: $0) }, forKey: key)
        }
        if let lines {
            coder.encode(NSArray(array: lines.map { NSString(string: $0) }), forKey: Key.lines)
        }
    }

    /// Decodes what ``encode(with:)`` wrote; `nil` when the coordinate is missing.
    public init?(coder: NSCoder) {
        guard coder.containsValue(forKey: Key.latitude), coder.containsValue(forKey: Key.longitude) else {
            return nil
        }
        // Absent keys are skipped rather than decoded: secure decoding reports a missing key as an error.
        func string(_ key: String) -> String? {
            guard coder.containsValue(forKey: key) else { return nil }
            return coder.decodeObject(of: NSString.self, forKey: key).map { String($0) }
        }
        coordinate = CLLocationCoordinate2D(
            latitude: coder.decodeDouble(forKey: Key.latitude), longitude: coder.decodeDouble(forKey: Key.longitude))
        thoroughfare = string(Key.thoroughfare)
        locality = string(Key.locality)
        subLocality = string(Key.subLocality)
        administrativeArea = string(Key.administrativeArea)
        postalCode = string(Key.postalCode)
        country = string(Key.country)
        let array =
            coder.containsValue(forKey: Key.lines)
            ? coder.decodeObject(of: [NSArray.self, NSString.self], forKey: Key.lines) as? NSArray : nil
        lines = array.map { $0.compactMap { ($0 as? NSString).map { String($0) } ?? ($0 as? String) } }
        super.init()
    }

    /// Equal when every field is equal.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? GMSAddress else { return false }
        return coordinate == other.coordinate && thoroughfare == other.thoroughfare && locality == other.locality
            && subLocality == other.subLocality && administrativeArea == other.administrativeArea
            && postalCode == other.postalCode && country == other.country && lines == other.lines
    }

    /// Consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinate)
        hasher.combine(thoroughfare)
        hasher.combine(locality)
        hasher.combine(subLocality)
        hasher.combine(administrativeArea)
        hasher.combine(postalCode)
        hasher.combine(country)
        hasher.combine(lines)
        return hasher.finalize()
    }

    /// The lines joined by `", "`, with the coordinate.
    public override var description: String {
        "GMSAddress(\((lines ?? []).joined(separator: ", ")) @ \(coordinate))"
    }
}

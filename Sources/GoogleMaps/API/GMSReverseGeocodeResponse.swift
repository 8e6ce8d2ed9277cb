import Foundation

/// The answer of ``GMSGeocoder/reverseGeocodeCoordinate(_:completionHandler:)``: zero or more addresses, the most
/// specific first (spec §1.13, H-GC).
///
/// Waymark gives at most two results: a street address or street when one lies within 50 m (central Helsinki only),
/// then the locality-level address. A coordinate with nothing within 50 km (mid-ocean, the poles) gives a response
/// with no results: ``firstResult()`` and ``results()`` are `nil`.
/// - Thread rules: immutable, safe to share between threads.
public final class GMSReverseGeocodeResponse: NSObject, NSCopying, @unchecked Sendable {
    private let addresses: [GMSAddress]

    init(addresses: [GMSAddress]) {
        self.addresses = addresses
        super.init()
    }

    /// The most specific address, or `nil` when there are no results.
    public func firstResult() -> GMSAddress? { addresses.first }

    /// Every address, the first result included, most specific first; `nil` when there are no results.
    public func results() -> [GMSAddress]? { addresses.isEmpty ? nil : addresses }

    /// Returns `self`: responses are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The results' descriptions.
    public override var description: String {
        "GMSReverseGeocodeResponse(\(addresses.map(\.description).joined(separator: "; ")))"
    }
}

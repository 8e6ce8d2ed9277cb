import Foundation
import MapGeocoding
import MapGeometry
import MapStorage
import Synchronization

/// The bundled GeoNames places (`Data/geocoder.sqlite`) as a forward geocoder for `center=Berkeley,CA` and other
/// place names, loaded on first use. Waymark's own.
public enum GeoNamesPlaces {
    private static let loaded = Mutex<ForwardGeocoder??>(nil)

    /// The position of the best place `name` names.
    /// - Parameters:
    ///   - name: a place name, optionally qualified (`Berkeley,CA`).
    ///   - region: an ISO 3166-1 alpha-2 country code whose places win over equally qualified places elsewhere (the
    ///     Static Maps `region` parameter), or `nil` (the default) for none.
    /// - Returns: the position, or `nil` when no place matches (also when the database cannot be read).
    public static func locate(_ name: String, region: String? = nil) -> LatLng? {
        guard let best = geocoder()?.search(name, limit: 1, region: region).first else { return nil }
        return LatLng(latitude: best.latitude, longitude: best.longitude)
    }

    /// Loads and indexes the places now (a server calls this at start; the first lookup otherwise does).
    public static func preload() { _ = geocoder() }

    static func geocoder() -> ForwardGeocoder? {
        loaded.withLock { state in
            if let known = state { return known }
            let geocoder = try? GeocoderDatabase(url: URL(fileURLWithPath: DataFiles.path(GeocoderDatabase.fileName)))
                .load().forwardGeocoder()
            state = .some(geocoder)
            return geocoder
        }
    }
}

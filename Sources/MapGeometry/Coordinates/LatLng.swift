/// A geographic position in degrees on the WGS 84 ellipsoid, as the engine sees it.
///
/// - `latitude`: degrees north of the equator; geographic range [−90, 90]. Web Mercator can only show
///   [−``WebMercator/maximumLatitude``, ``WebMercator/maximumLatitude``].
/// - `longitude`: degrees east of Greenwich; canonical range [−180, 180). Values outside are allowed (an "unwrapped"
///   longitude, for example 190 to mean 170 W one world to the east).
///
/// No validation happens here; use ``isFinite`` and the camera's clamping helpers.
/// Source: `maplibre-native:include/mbgl/util/geo.hpp` (`LatLng`).
public struct LatLng: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Degrees north; geographic range [−90, 90].
    public var latitude: Double
    /// Degrees east; canonical range [−180, 180), but any finite value is allowed.
    public var longitude: Double

    /// Creates a position from degrees; no clamping.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `true` when both components are finite (not NaN, not infinite).
    public var isFinite: Bool { latitude.isFinite && longitude.isFinite }

    /// The same position with longitude wrapped into [−180, 180).
    public var wrapped: LatLng {
        LatLng(latitude: latitude, longitude: wrap(longitude, minimum: -180, maximum: 180))
    }

    /// `"(lat, lon)"`.
    public var description: String { "(\(latitude), \(longitude))" }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A position in normalised spherical Web Mercator (EPSG:3857): the whole world is the unit square.
///
/// - `x`: 0 at longitude −180, 1 at +180, growing east.
/// - `y`: 0 at latitude +``WebMercator/maximumLatitude`` (north edge), 1 at −85.0511 (south edge), growing south.
///
/// Origin: the north-west corner of the world (like tile 0/0/0's top-left). Unit: one world width. Values outside
/// [0, 1] are allowed: x outside means another copy of the world (wrap), y outside is beyond the Mercator square.
/// At zoom `z` one world unit spans `256 · 2^z` screen points when the camera is not tilted.
/// Source: `maplibre-gl-js:src/geo/mercator_coordinate.ts`.
public struct WorldPoint: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// World widths east of longitude −180.
    public var x: Double
    /// World heights south of the north edge (latitude 85.0511).
    public var y: Double

    /// Creates a world point from world units.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `"(x, y)"`.
    public var description: String { "(\(x), \(y))" }
}

/// Spherical Web Mercator conversions between ``LatLng`` and ``WorldPoint``.
public enum WebMercator {
    /// The latitude of the Mercator square's north edge, `atan(sinh(π))` in degrees ≈ 85.0511287798.
    public static let maximumLatitude: Double = atan(sinh(Double.pi)) * degreesPerRadian

    /// The Earth radius Web Mercator uses, in metres (WGS 84 semi-major axis).
    public static let earthRadius: Double = 6_378_137

    /// The equator's length in metres on the Web Mercator sphere, `2π · 6 378 137` ≈ 40 075 016.686 m.
    public static let earthCircumference: Double = 2 * .pi * earthRadius

    /// The side of the world square in screen points at zoom `zoom`: `256 · 2^zoom`.
    @inlinable
    public static func worldSize(zoom: Double) -> Double { 256 * exp2(zoom) }

    /// The world point of a geographic position. Longitude is not wrapped (190° gives x > 1). Latitude is clamped to
    /// ±89.999999 so the result stays finite (y beyond [0, 1] for |latitude| > 85.0511); NaN stays NaN.
    public static func worldPoint(_ p: LatLng) -> WorldPoint {
        let lat = (p.latitude.isNaN ? p.latitude : clamp(p.latitude, -89.999_999, 89.999_999)) * radiansPerDegree
        let x = (p.longitude + 180) / 360
        let y = 0.5 - mercatorY(latitudeRadians: lat) / (2 * .pi)
        return WorldPoint(x: x, y: y)
    }

    /// The Mercator ordinate of a latitude in radians, `ln(tan(π/4 + φ/2))`: 0 at the equator, growing north, in
    /// radians of the equator (``worldPoint(_:)`` maps it to `y = 0.5 − ordinate / 2π`). Not clamped: ±∞ at the
    /// poles (+90° gives a large finite value in floating point), NaN stays NaN. The one place the formula is written;
    /// callers that need their own clamping or the unclamped value (rhumb lines, Mercator-straight interpolation)
    /// use it directly.
    @inlinable
    public static func mercatorY(latitudeRadians φ: Double) -> Double { log(tan(φ * 0.5 + .pi / 4)) }

    /// The latitude in radians of a Mercator ordinate, `2·atan(e^y) − π/2`: the inverse of
    /// ``mercatorY(latitudeRadians:)``.
    @inlinable
    public static func latitudeRadians(mercatorY y: Double) -> Double { 2 * atan(exp(y)) - .pi / 2 }

    /// The geographic position of a world point. Longitude is not wrapped (x > 1 gives longitude > 180).
    public static func latLng(_ w: WorldPoint) -> LatLng {
        let lat = atan(sinh(.pi * (1 - 2 * w.y))) * degreesPerRadian
        return LatLng(latitude: lat, longitude: w.x * 360 - 180)
    }

    /// Metres on the ground per screen point at `latitude` (degrees) and `zoom`, with the camera not tilted:
    /// `circumference · cos(latitude) / (256 · 2^zoom)`.
    public static func metersPerPoint(latitude: Double, zoom: Double) -> Double {
        earthCircumference * cos(latitude * radiansPerDegree) / worldSize(zoom: zoom)
    }
}

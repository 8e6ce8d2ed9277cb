// Great-circle geometry on a spherical Earth: distances in metres and the unit-vector embedding the k-d tree uses.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Great-circle (spherical) distances between WGS 84 coordinates given in degrees.
///
/// The Earth is a sphere of radius ``earthRadiusMetres`` (the IUGG mean radius R₁); the error against the WGS 84
/// ellipsoid is below 0.5 %, which is far below the spacing of the places a reverse geocoder chooses between.
package enum GreatCircle {
    /// The mean Earth radius R₁ = 6,371,008.8 m (IUGG), the same radius `CLLocation.distance(from:)` uses.
    package static let earthRadiusMetres: Double = 6_371_008.8

    /// Haversine distance in metres between two coordinates in degrees; correct across the antimeridian and at the
    /// poles. Returns NaN when any input is not finite.
    package static func distance(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    ) -> Double {
        let φ1 = latitude1 * .pi / 180
        let φ2 = latitude2 * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (longitude2 - longitude1) * .pi / 180
        let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadiusMetres * asin(min(1, sqrt(h)))
    }

    /// The straight-line (chord) length through a unit sphere between two points `metres` apart along the surface:
    /// 2·sin(d / 2R). Monotonic in `metres` on [0, πR]; larger distances map to 2.
    package static func chord(forMetres metres: Double) -> Double {
        let angle = min(max(metres, 0) / earthRadiusMetres, .pi)
        return 2 * sin(angle / 2)
    }

    /// The inverse of ``chord(forMetres:)``: the great-circle distance in metres for a chord of the unit sphere.
    package static func metres(forChord chord: Double) -> Double {
        2 * earthRadiusMetres * asin(min(1, max(chord, 0) / 2))
    }
}

/// A point on the unit sphere (Earth-centred, Earth-fixed axes): x towards (0°, 0°), y towards (0°, 90° E), z towards
/// the North Pole.
///
/// Nearest-neighbour by straight-line distance between unit vectors is nearest by great-circle distance, with no seam
/// at the antimeridian and no singularity at the poles, which is why the geocoder indexes these rather than degrees.
package struct UnitVector: Equatable, Sendable {
    /// Components, each in [−1, 1], with x² + y² + z² = 1 (up to rounding).
    package var x: Double
    /// See ``x``.
    package var y: Double
    /// See ``x``.
    package var z: Double

    /// The unit vector of a coordinate in degrees (latitude in [−90, 90], longitude any finite value).
    package init(latitude: Double, longitude: Double) {
        let φ = latitude * .pi / 180
        let λ = longitude * .pi / 180
        let c = cos(φ)
        x = c * cos(λ)
        y = c * sin(λ)
        z = sin(φ)
    }

    /// Squared chord length to `other`: in [0, 4], 0 for the same point, 4 for antipodes.
    @inlinable package func squaredChord(to other: UnitVector) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Geometry on a spherical Earth: great-circle and rhumb distances, headings, offsets, interpolation, path length and
/// spherical polygon area, in the formulation of Google's geometry library (Maps SDK for iOS `GMSGeometryUtils`,
/// Android `SphericalUtil`), so the numbers match Google's to rounding.
///
/// Conventions for every function:
/// - Coordinates are degrees. Latitudes are clamped to [−90, 90]; longitudes may be any finite value (they are
///   periodic). Longitudes of returned coordinates are wrapped into [−180, 180).
/// - A non-finite input coordinate gives a NaN result (distance, heading, area) or a coordinate with NaN components;
///   in *paths*, non-finite coordinates are skipped (the shapes skip them when drawing too).
/// - `radius` is the sphere radius in metres (default ``earthRadius``, Google's 6,371,009 m); distances scale with it,
///   areas with its square.
/// - Pure functions: safe from any thread.
public enum Spherical {
    /// Google's mean Earth radius for the geometry library, 6,371,009 m (`kGMSEarthRadius`).
    public static let earthRadius: Double = 6_371_009

    // MARK: Points

    /// The central angle in radians, in [0, π], between `a` and `b` (haversine form, accurate for tiny angles).
    public static func angleBetween(_ a: LatLng, _ b: LatLng) -> Double {
        let (φ1, λ1) = radians(a)
        let (φ2, λ2) = radians(b)
        return arcHav(havDistance(φ1, φ2, λ1 - λ2))
    }

    /// The great-circle distance in metres between `a` and `b` on a sphere of `radius` metres; the short way round,
    /// so correct across the antimeridian and through the poles.
    public static func distance(_ a: LatLng, _ b: LatLng, radius: Double = earthRadius) -> Double {
        angleBetween(a, b) * radius
    }

    /// The initial heading, degrees clockwise from north in [0, 360), at `from` of the shortest great-circle path to
    /// `to`; 0 when the two points are equal. At a pole every direction points the same way; the result is then
    /// measured from the meridian of `from.longitude` (from the North Pole, `to` at longitude λ gives
    /// 180 − (λ − from.longitude)), as Google's formula gives.
    public static func heading(from: LatLng, to: LatLng) -> Double {
        let (φ1, λ1) = radians(from)
        let (φ2, λ2) = radians(to)
        let dλ = λ2 - λ1
        let h = atan2(sin(dλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ))
        return wrap(h * degreesPerRadian, minimum: 0, maximum: 360)
    }

    /// The point reached from `from` travelling `distance` metres (negative goes backwards) along the great circle
    /// that starts with `heading` (degrees clockwise from north). Longitude in [−180, 180).
    public static func offset(from: LatLng, distance: Double, heading: Double, radius: Double = earthRadius) -> LatLng {
        let δ = distance / radius
        let θ = heading * radiansPerDegree
        let (φ1, λ1) = radians(from)
        let sinφ = cos(δ) * sin(φ1) + sin(δ) * cos(φ1) * cos(θ)
        let dλ = atan2(sin(δ) * cos(φ1) * sin(θ), cos(δ) - sin(φ1) * sinφ)
        return coordinate(asin(clamp(sinφ, -1, 1)), λ1 + dλ)
    }

    /// The point `fraction` of the way from `from` to `to` along the shortest great circle (spherical linear
    /// interpolation). 0 gives `from`, 1 gives `to`; values outside [0, 1] extrapolate along the same circle. For
    /// points closer than about 6 m (where the spherical formula loses precision) it interpolates latitude and
    /// longitude linearly, the short way round; between antipodes the great circle is not unique and the result is
    /// that linear interpolation too. Longitude in [−180, 180).
    public static func interpolate(from: LatLng, to: LatLng, fraction: Double) -> LatLng {
        let (φ1, λ1) = radians(from)
        let (φ2, λ2) = radians(to)
        let angle = arcHav(havDistance(φ1, φ2, λ1 - λ2))
        let sinAngle = sin(angle)
        if sinAngle < 1e-6 {
            let dλ = wrap(λ2 - λ1, minimum: -.pi, maximum: .pi)
            return coordinate(φ1 + fraction * (φ2 - φ1), λ1 + fraction * dλ)
        }
        let a = sin((1 - fraction) * angle) / sinAngle
        let b = sin(fraction * angle) / sinAngle
        let x = a * cos(φ1) * cos(λ1) + b * cos(φ2) * cos(λ2)
        let y = a * cos(φ1) * sin(λ1) + b * cos(φ2) * sin(λ2)
        let z = a * sin(φ1) + b * sin(φ2)
        return coordinate(atan2(z, (x * x + y * y).squareRoot()), atan2(y, x))
    }

    /// The rhumb-line (loxodrome: constant heading, a straight line on the Mercator map) distance in metres between
    /// `a` and `b`, the short way round in longitude.
    public static func rhumbDistance(_ a: LatLng, _ b: LatLng, radius: Double = earthRadius) -> Double {
        let (φ1, λ1) = radians(a)
        let (φ2, λ2) = radians(b)
        let dφ = φ2 - φ1
        let dλ = wrap(λ2 - λ1, minimum: -.pi, maximum: .pi)
        let dψ = WebMercator.mercatorY(latitudeRadians: φ2) - WebMercator.mercatorY(latitudeRadians: φ1)
        // East–west lines have dψ = 0: the stretch factor is then cos φ itself.
        let q = abs(dψ) > 1e-12 && dψ.isFinite ? dφ / dψ : cos(φ1)
        return (dφ * dφ + q * q * dλ * dλ).squareRoot() * radius
    }

    // MARK: Paths

    /// The great-circle length in metres of the open path `path` (the sum of segment distances); 0 for fewer than
    /// two finite points.
    public static func length(_ path: [LatLng], radius: Double = earthRadius) -> Double {
        var total = 0.0
        var previous: LatLng?
        for p in path where p.isFinite {
            if let q = previous { total += distance(q, p, radius: radius) }
            previous = p
        }
        return total
    }

    /// The signed area, in square metres (units of `radius`²), of the closed geodesic polygon `path` (closing segment
    /// implied): positive when the points run counter-clockwise, negative when clockwise. "Inside" is the side that
    /// does not contain the South Pole. 0 for fewer than three finite points. The polygon should be simple; a segment
    /// between antipodes has no defined great circle and gives an undefined result.
    public static func signedArea(_ path: [LatLng], radius: Double = earthRadius) -> Double {
        let points = path.filter(\.isFinite)
        guard points.count >= 3, let last = points.last else { return 0 }
        // Sum of the signed areas of the triangles (North Pole, previous, current), each computed from the tangents
        // of half the colatitudes (L'Huilier's theorem in the form Google's library uses).
        var (φ, λ) = radians(last)
        var previousTan = tan((.pi / 2 - φ) / 2)
        var previousλ = λ
        var total = 0.0
        for p in points {
            (φ, λ) = radians(p)
            let t = tan((.pi / 2 - φ) / 2)
            let dλ = λ - previousλ
            let product = t * previousTan
            total += 2 * atan2(product * sin(dλ), 1 + product * cos(dλ))
            previousTan = t
            previousλ = λ
        }
        return total * radius * radius
    }

    /// The area in square metres of the closed geodesic polygon `path`: `abs(signedArea(path))`.
    public static func area(_ path: [LatLng], radius: Double = earthRadius) -> Double {
        abs(signedArea(path, radius: radius))
    }

    // MARK: Helpers shared with SphericalPath

    /// Latitude (clamped to ±90°) and longitude in radians.
    static func radians(_ p: LatLng) -> (Double, Double) {
        (clamp(p.latitude, -90, 90) * radiansPerDegree, p.longitude * radiansPerDegree)
    }

    /// The coordinate of latitude `φ` and longitude `λ` in radians, longitude wrapped into [−180, 180).
    static func coordinate(_ φ: Double, _ λ: Double) -> LatLng {
        LatLng(latitude: φ * degreesPerRadian, longitude: wrap(λ * degreesPerRadian, minimum: -180, maximum: 180))
    }

    /// The haversine, sin²(x / 2).
    static func hav(_ x: Double) -> Double {
        let s = sin(x / 2)
        return s * s
    }

    /// The inverse haversine: the angle whose haversine is `h` (clamped into [0, 1]).
    static func arcHav(_ h: Double) -> Double { 2 * asin(clamp(h, 0, 1).squareRoot()) }

    /// The haversine of the central angle between (φ1, ·) and (φ2, ·) whose longitudes differ by `dλ` (radians).
    static func havDistance(_ φ1: Double, _ φ2: Double, _ dλ: Double) -> Double {
        hav(φ1 - φ2) + hav(dλ) * cos(φ1) * cos(φ2)
    }

    /// sin(x) from hav(x), for x in [0, π].
    static func sinFromHav(_ h: Double) -> Double { 2 * (h * (1 - h)).squareRoot() }

    /// hav(x) from sin(x), for x in [−π/2, π/2].
    static func havFromSin(_ s: Double) -> Double {
        let s2 = s * s
        return s2 / (1 + (1 - s2).squareRoot()) * 0.5
    }

    /// sin(x + y) from hav(x) and hav(y), for x, y in [0, π].
    static func sinSumFromHav(_ x: Double, _ y: Double) -> Double {
        let a = (x * (1 - x)).squareRoot()
        let b = (y * (1 - y)).squareRoot()
        return 2 * (a + b - 2 * (a * y + b * x))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Point-in-polygon and point-on-path tests on the sphere, in the formulation of Google's geometry library
/// (`GMSGeometryContainsLocation`, `GMSGeometryIsLocationOnPathTolerance`; Android `PolyUtil`), with the conventions
/// of ``Spherical`` (degrees, latitudes clamped, non-finite path points skipped, a non-finite point never matches).
///
/// Segments are great-circle arcs when `geodesic` is true and rhumb lines (straight on the Mercator map) otherwise;
/// both take the short way round in longitude.
extension Spherical {
    /// `true` when `point` lies inside the closed polygon `polygon` (the closing segment is implied). Inside is the
    /// side that does not contain the South Pole (so the South Pole is always outside). A point equal to a vertex is
    /// inside; any other point is strictly on one side of every segment (use ``isOnPath(_:_:closed:geodesic:tolerance:radius:)``
    /// for a border test). False for an empty polygon.
    public static func contains(_ point: LatLng, polygon: [LatLng], geodesic: Bool) -> Bool {
        let vertices = polygon.filter(\.isFinite)
        guard point.isFinite, let last = vertices.last else { return false }
        let (φ3, λ3) = radians(point)
        var (φ1, λ1) = radians(last)
        var crossings = 0
        for vertex in vertices {
            let dλ3 = wrap(λ3 - λ1, minimum: -.pi, maximum: .pi)
            if φ3 == φ1 && dλ3 == 0 { return true }
            let (φ2, λ2) = radians(vertex)
            if rayCrosses(φ1, φ2, wrap(λ2 - λ1, minimum: -.pi, maximum: .pi), φ3, dλ3, geodesic: geodesic) {
                crossings += 1
            }
            (φ1, λ1) = (φ2, λ2)
        }
        return crossings % 2 == 1
    }

    /// Whether the segment from (φ1, 0) to (φ2, λ2) crosses the meridian arc running south from (φ3, λ3) to the South
    /// Pole. Longitudes are relative to the segment's start and in [−π, π).
    private static func rayCrosses(
        _ φ1: Double, _ φ2: Double, _ λ2: Double, _ φ3: Double, _ λ3: Double, geodesic: Bool
    ) -> Bool {
        // Both ends on the same side of the point's meridian.
        if (λ3 >= 0 && λ3 >= λ2) || (λ3 < 0 && λ3 < λ2) { return false }
        // The South Pole itself is outside.
        if φ3 <= -.pi / 2 { return false }
        // A segment touching a pole has no defined meridian crossing.
        if φ1 <= -.pi / 2 || φ2 <= -.pi / 2 || φ1 >= .pi / 2 || φ2 >= .pi / 2 { return false }
        if λ2 <= -.pi { return false }
        let linearLatitude = (φ1 * (λ2 - λ3) + φ2 * λ3) / λ2
        // In one hemisphere the segment bulges away from the equator, so the linear latitude decides half the cases.
        if φ1 >= 0 && φ2 >= 0 && φ3 < linearLatitude { return false }
        if φ1 <= 0 && φ2 <= 0 && φ3 >= linearLatitude { return true }
        if φ3 >= .pi / 2 { return true }
        // Compare in a function monotonic in latitude along which the segment is linear.
        if geodesic {
            return tan(φ3) >= (tan(φ1) * sin(λ2 - λ3) + tan(φ2) * sin(λ3)) / sin(λ2)
        }
        let y = { WebMercator.mercatorY(latitudeRadians: $0) }
        return y(φ3) >= (y(φ1) * (λ2 - λ3) + y(φ2) * λ3) / λ2
    }

    /// `true` when `point` lies within `tolerance` metres (on a sphere of `radius`) of the path `path`: of one of its
    /// segments, or of its only point for a one-point path. With `closed` the segment from the last point back to the
    /// first counts too (a polygon's edge). A negative tolerance counts as 0; a NaN tolerance matches nothing. False
    /// for an empty path.
    public static func isOnPath(
        _ point: LatLng, _ path: [LatLng], closed: Bool, geodesic: Bool, tolerance: Double,
        radius: Double = earthRadius
    ) -> Bool {
        let vertices = path.filter(\.isFinite)
        guard point.isFinite, !tolerance.isNaN, let first = vertices.first, let last = vertices.last else {
            return false
        }
        let angularTolerance = max(tolerance, 0) / radius
        let havTolerance = hav(angularTolerance)
        let (φ3, λ3) = radians(point)
        var (φ1, λ1) = radians(closed ? last : first)
        if geodesic {
            for vertex in vertices {
                let (φ2, λ2) = radians(vertex)
                if isOnGreatCircleSegment(φ1, λ1, φ2, λ2, φ3, λ3, havTolerance: havTolerance) { return true }
                (φ1, λ1) = (φ2, λ2)
            }
            return false
        }
        // Rhumb segments are straight in Mercator space: find the closest point there (trying the point one world
        // east and west too) and measure the true distance to it.
        let lowest = φ3 - angularTolerance
        let highest = φ3 + angularTolerance
        var y1 = WebMercator.mercatorY(latitudeRadians: φ1)
        let y3 = WebMercator.mercatorY(latitudeRadians: φ3)
        for vertex in vertices {
            let (φ2, λ2) = radians(vertex)
            let y2 = WebMercator.mercatorY(latitudeRadians: φ2)
            if max(φ1, φ2) >= lowest && min(φ1, φ2) <= highest {
                let x2 = wrap(λ2 - λ1, minimum: -.pi, maximum: .pi)
                let x3 = wrap(λ3 - λ1, minimum: -.pi, maximum: .pi)
                for x in [x3, x3 + 2 * .pi, x3 - 2 * .pi] {
                    let dy = y2 - y1
                    let length2 = x2 * x2 + dy * dy
                    let t = length2 <= 0 ? 0 : clamp((x * x2 + (y3 - y1) * dy) / length2, 0, 1)
                    let closestφ = WebMercator.latitudeRadians(mercatorY: y1 + t * dy)
                    if havDistance(φ3, closestφ, x - t * x2) <= havTolerance { return true }
                }
            }
            (φ1, λ1, y1) = (φ2, λ2, y2)
        }
        return false
    }

    /// Whether (φ3, λ3) is within the angular tolerance whose haversine is `havTolerance` of the great-circle segment
    /// (φ1, λ1)–(φ2, λ2), using the cross-track and along-track distances.
    private static func isOnGreatCircleSegment(
        _ φ1: Double, _ λ1: Double, _ φ2: Double, _ λ2: Double, _ φ3: Double, _ λ3: Double, havTolerance: Double
    ) -> Bool {
        let havDistance13 = havDistance(φ1, φ3, λ1 - λ3)
        if havDistance13 <= havTolerance { return true }
        let havDistance23 = havDistance(φ2, φ3, λ2 - λ3)
        if havDistance23 <= havTolerance { return true }
        let sinBearing = sinDeltaBearing(φ1, λ1, φ2, λ2, φ3, λ3)
        let havCrossTrack = havFromSin(sinFromHav(havDistance13) * sinBearing)
        if havCrossTrack > havTolerance { return false }
        let havDistance12 = havDistance(φ1, φ2, λ1 - λ2)
        let term = havDistance12 + havCrossTrack * (1 - 2 * havDistance12)
        if havDistance13 > term || havDistance23 > term { return false }
        // Segments shorter than about 120° cannot hold a point on the far side of the circle.
        if havDistance12 < 0.74 { return true }
        let cosCrossTrack = 1 - 2 * havCrossTrack
        let havAlongTrack13 = (havDistance13 - havCrossTrack) / cosCrossTrack
        let havAlongTrack23 = (havDistance23 - havCrossTrack) / cosCrossTrack
        // The two along-track distances sum to less than π exactly when the sine of their sum is positive.
        return sinSumFromHav(havAlongTrack13, havAlongTrack23) > 0
    }

    /// sin(bearing 1→3 − bearing 1→2), the bearings being the initial great-circle headings from point 1.
    private static func sinDeltaBearing(
        _ φ1: Double, _ λ1: Double, _ φ2: Double, _ λ2: Double, _ φ3: Double, _ λ3: Double
    ) -> Double {
        let sinφ1 = sin(φ1)
        let cosφ2 = cos(φ2)
        let cosφ3 = cos(φ3)
        let λ31 = λ3 - λ1
        let λ21 = λ2 - λ1
        let a = sin(λ31) * cosφ3
        let c = sin(λ21) * cosφ2
        let b = sin(φ3 - φ1) + 2 * sinφ1 * cosφ3 * hav(λ31)
        let d = sin(φ2 - φ1) + 2 * sinφ1 * cosφ2 * hav(λ21)
        let denominator = (a * a + b * b) * (c * c + d * d)
        return denominator <= 0 ? 1 : (a * d - b * c) / denominator.squareRoot()
    }
}

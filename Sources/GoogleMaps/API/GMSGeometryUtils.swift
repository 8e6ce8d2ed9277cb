import Foundation
import MapGeometry

// Google's geometry library (Maps SDK for iOS `GMSGeometryUtils.h`), as free functions with Google's Swift names and
// signatures. The spherical math lives in the engine (`MapGeometry/Spherical`), in the formulation of Google's own
// library, so results match Google's to rounding (tests: GeometryLibraryTests, with android-maps-utils' reference
// values).
//
// Shared conventions (Google requires valid coordinates and leaves the rest undefined; Waymark documents it):
// - Latitudes outside [−90, 90] are clamped; longitudes may be any finite value (they are periodic). Returned
//   longitudes are in [−180, 180).
// - A non-finite coordinate argument gives NaN (distances, headings) or a coordinate with NaN components; predicates
//   return false. Non-finite coordinates inside a path are skipped.
// - Pure functions of their arguments: safe from any thread (a GMSMutablePath argument must not be mutated
//   concurrently).

/// The Earth radius the geometry library uses, 6,371,009 m (Google's "average Earth radius in meters").
public let kGMSEarthRadius: CLLocationDistance = Spherical.earthRadius

/// A point on the projected map (Maps SDK for iOS `GMSMapPoint`): Web Mercator scaled so the world is the square
/// [−1, 1] × [−1, 1], (0, 0) at latitude 0, longitude 0; x grows east (−1 at 180° W, 1 at 180° E), y grows north
/// (1 at 85.0511° N). See ``GMSProject(_:)`` and ``GMSUnproject(_:)``.
public struct GMSMapPoint: Equatable, Hashable, Sendable {
    /// East–west position; [−1, 1] across the world.
    public var x: Double
    /// North–south position, north positive; [−1, 1] between ±85.0511°.
    public var y: Double

    /// The point (0, 0), as the C struct's zero initialiser.
    public init() {
        x = 0
        y = 0
    }

    /// A point from its components.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// `x` wrapped into [−1, 1] (values already in range are kept, so 1 stays 1).
private func wrapMapX(_ x: Double) -> Double { x >= -1 && x <= 1 ? x : wrap(x, minimum: -1, maximum: 1) }

/// Projects `coordinate` onto the map. The longitude is wrapped into [−180, 180]; latitudes beyond ±89.999999 are
/// clamped there so the result stays finite (|y| > 1 beyond ±85.0511°). NaN components give NaN.
public func GMSProject(_ coordinate: CLLocationCoordinate2D) -> GMSMapPoint {
    let p = GMSMapPoint(WebMercator.worldPoint(LatLng(coordinate)))
    return GMSMapPoint(x: wrapMapX(p.x), y: p.y)
}

/// The coordinate of the map point `point` (inverse of ``GMSProject(_:)``). Google requires x in [−1, 1]; other
/// values are wrapped into it. Any finite y gives a latitude in (−90, 90); ±∞ gives ±90.
public func GMSUnproject(_ point: GMSMapPoint) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(WebMercator.latLng(WorldPoint(GMSMapPoint(x: wrapMapX(point.x), y: point.y))))
}

/// The x step from `a` to `b` the short way round (in [−1, 1)).
private func shortDeltaX(_ a: GMSMapPoint, _ b: GMSMapPoint) -> Double { wrap(b.x - a.x, minimum: -1, maximum: 1) }

/// The point at fraction `t` of the straight segment from `a` to `b` in projected space (t = 0 gives `a`, 1 gives
/// `b`, others extrapolate), taking the short way across the antimeridian; x of the result is wrapped into [−1, 1].
public func GMSMapPointInterpolate(_ a: GMSMapPoint, _ b: GMSMapPoint, _ t: Double) -> GMSMapPoint {
    GMSMapPoint(x: wrapMapX(a.x + t * shortDeltaX(a, b)), y: a.y + t * (b.y - a.y))
}

/// The length of the segment from `a` to `b` in projected space (``GMSMapPoint`` units), the short way across the
/// antimeridian.
public func GMSMapPointDistance(_ a: GMSMapPoint, _ b: GMSMapPoint) -> Double {
    let dx = shortDeltaX(a, b)
    let dy = b.y - a.y
    return (dx * dx + dy * dy).squareRoot()
}

/// Whether `point` lies inside `path`, which is always treated as closed (the last point joins the first). Inside is
/// the side that does not contain the South Pole, so the South Pole is always outside. Segments are great circles
/// when `geodesic` is true, rhumb lines otherwise. A point equal to a vertex is inside; every other point is strictly
/// on one side of each segment (see ``GMSGeometryIsLocationOnPath(_:_:_:)`` for a border test with tolerance).
/// False for an empty path or a non-finite point.
public func GMSGeometryContainsLocation(_ point: CLLocationCoordinate2D, _ path: GMSPath, _ geodesic: Bool) -> Bool {
    Spherical.contains(LatLng(point), polygon: path.engineCoordinates, geodesic: geodesic)
}

/// Whether `point` lies on or near `path` (an open polyline: the last point does not join the first), within
/// `tolerance` metres on a sphere of ``kGMSEarthRadius`` (to work on a sphere of radius R, scale a tolerance by
/// kGMSEarthRadius / R, as Google says). Segments are great circles when `geodesic` is true, rhumb lines otherwise.
/// A one-point path matches points within the tolerance of that point. A negative tolerance counts as 0, NaN matches
/// nothing; false for an empty path or a non-finite point.
public func GMSGeometryIsLocationOnPathTolerance(
    _ point: CLLocationCoordinate2D, _ path: GMSPath, _ geodesic: Bool, _ tolerance: CLLocationDistance
) -> Bool {
    Spherical.isOnPath(LatLng(point), path.engineCoordinates, closed: false, geodesic: geodesic, tolerance: tolerance)
}

/// ``GMSGeometryIsLocationOnPathTolerance(_:_:_:_:)`` with Google's default tolerance of 0.1 m.
public func GMSGeometryIsLocationOnPath(_ point: CLLocationCoordinate2D, _ path: GMSPath, _ geodesic: Bool) -> Bool {
    GMSGeometryIsLocationOnPathTolerance(point, path, geodesic, 0.1)
}

/// The great-circle distance in metres between `from` and `to` on a sphere of ``kGMSEarthRadius``, the short way
/// round (across the antimeridian or a pole when shorter). In [0, π·kGMSEarthRadius]; NaN if either is non-finite.
public func GMSGeometryDistance(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) -> CLLocationDistance {
    Spherical.distance(LatLng(from), LatLng(to))
}

/// The great-circle length of `path` in metres: the sum of ``GMSGeometryDistance(_:_:)`` over its segments (open:
/// the last point does not join the first). 0 for fewer than two coordinates; non-finite coordinates are skipped.
public func GMSGeometryLength(_ path: GMSPath) -> CLLocationDistance {
    path.length(of: .geodesic)
}

/// The area in square metres of the geodesic polygon `path` on a sphere of ``kGMSEarthRadius``. The path is
/// treated as closed whether or not its last point repeats the first (the result is the same); inside is the side
/// that does not contain the South Pole. The polygon should be simple (not self-overlapping) and may be concave; a
/// segment between antipodal points has no unique great circle and gives an undefined (but finite, non-trapping)
/// result. 0 for fewer than three coordinates.
public func GMSGeometryArea(_ path: GMSPath) -> Double {
    Spherical.area(path.engineCoordinates)
}

/// The signed area of the geodesic polygon `path`: the magnitude of ``GMSGeometryArea(_:)``, positive when the
/// points run counter-clockwise and negative when clockwise. Same restrictions as ``GMSGeometryArea(_:)``.
public func GMSGeometrySignedArea(_ path: GMSPath) -> Double {
    Spherical.signedArea(path.engineCoordinates)
}

/// The initial heading at `from` of the shortest path to `to`, in degrees clockwise from north, in [0, 360). 0 when
/// the two coordinates are equal; NaN if either is non-finite.
public func GMSGeometryHeading(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) -> CLLocationDirection {
    Spherical.heading(from: LatLng(from), to: LatLng(to))
}

/// The coordinate reached from `from` travelling `distance` metres along the great circle that starts with
/// `heading` (degrees clockwise from north), on a sphere of ``kGMSEarthRadius``. A negative distance travels
/// backwards. Longitude in [−180, 180).
public func GMSGeometryOffset(
    _ from: CLLocationCoordinate2D, _ distance: CLLocationDistance, _ heading: CLLocationDirection
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(Spherical.offset(from: LatLng(from), distance: distance, heading: heading))
}

/// The coordinate `fraction` of the way from `from` to `to` along the shortest great circle (0 gives `from`, 1 gives
/// `to`, other values extrapolate along the circle). Longitude in [−180, 180). Between antipodal points the great
/// circle is not unique; the result then interpolates latitude and longitude linearly.
public func GMSGeometryInterpolate(
    _ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D, _ fraction: Double
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(Spherical.interpolate(from: LatLng(from), to: LatLng(to), fraction: fraction))
}

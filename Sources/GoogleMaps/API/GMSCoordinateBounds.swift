import Foundation
import MapGeometry

/// A latitude/longitude rectangle on the globe, possibly crossing the antimeridian (spec §1.11). Immutable.
///
/// - `southWest.latitude ≤ northEast.latitude`; latitudes in [−90, 90].
/// - Longitudes in [−180, 180]. When `northEast.longitude < southWest.longitude` the bounds cross the antimeridian:
///   they run east from `southWest.longitude` through 180 to `northEast.longitude`.
/// - `init()` makes invalid bounds (``isValid`` false) that contain nothing; expanding them gives bounds of just
///   the new item.
///
/// Bad input: a coordinate with a non-finite component is ignored (it expands nothing); latitudes beyond ±90 are
/// clamped to ±90 and longitudes are wrapped into [−180, 180).
/// - Thread rules: immutable, safe to share between threads.
open class GMSCoordinateBounds: NSObject, @unchecked Sendable {
    /// The north-east corner (largest latitude; eastern end of the longitude span). `kCLLocationCoordinate2DInvalid`
    /// when invalid.
    public let northEast: CLLocationCoordinate2D
    /// The south-west corner (smallest latitude; western end of the longitude span). `kCLLocationCoordinate2DInvalid`
    /// when invalid.
    public let southWest: CLLocationCoordinate2D
    /// `false` for bounds made by `init()` (or only from invalid coordinates): they contain no point.
    public let isValid: Bool

    /// Invalid bounds that contain no point.
    public override init() {
        northEast = kCLLocationCoordinate2DInvalid
        southWest = kCLLocationCoordinate2DInvalid
        isValid = false
        super.init()
    }

    /// Bounds with exactly these corners (already normalised; `southWest.latitude ≤ northEast.latitude`).
    init(southWest: CLLocationCoordinate2D, northEast: CLLocationCoordinate2D) {
        self.southWest = southWest
        self.northEast = northEast
        isValid = true
        super.init()
    }

    /// The bounds with `coord1` and `coord2` as opposite corners. Of the two possible longitude spans the smaller
    /// is chosen (so 170 and −170 give bounds 20° wide across the antimeridian). If either coordinate is not finite,
    /// the bounds hold only the other (invalid when neither is finite).
    public convenience init(coordinate coord1: CLLocationCoordinate2D, coordinate coord2: CLLocationCoordinate2D) {
        guard let a = Self.normalise(coord1) else {
            if let b = Self.normalise(coord2) {
                self.init(southWest: b, northEast: b)
            } else {
                self.init()
            }
            return
        }
        guard let b = Self.normalise(coord2) else {
            self.init(southWest: a, northEast: a)
            return
        }
        let south = min(a.latitude, b.latitude)
        let north = max(a.latitude, b.latitude)
        let west: Double
        let east: Double
        if abs(a.longitude - b.longitude) <= 180 {
            west = min(a.longitude, b.longitude)
            east = max(a.longitude, b.longitude)
        } else {
            west = max(a.longitude, b.longitude)
            east = min(a.longitude, b.longitude)
        }
        self.init(
            southWest: CLLocationCoordinate2D(latitude: south, longitude: west),
            northEast: CLLocationCoordinate2D(latitude: north, longitude: east))
    }

    /// The smallest bounds containing the four corners of `region`.
    public convenience init(region: GMSVisibleRegion) {
        let b = GMSCoordinateBounds(coordinate: region.nearLeft, coordinate: region.nearRight)
            .includingCoordinate(region.farLeft).includingCoordinate(region.farRight)
        if b.isValid {
            self.init(southWest: b.southWest, northEast: b.northEast)
        } else {
            self.init()
        }
    }

    /// The smallest bounds containing every coordinate of `path` (each step grows the longitude span the shorter
    /// way, as ``includingCoordinate(_:)`` does); invalid bounds for an empty path or one of only non-finite
    /// coordinates.
    public convenience init(path: GMSPath) {
        let b = GMSCoordinateBounds().includingPath(path)
        if b.isValid {
            self.init(southWest: b.southWest, northEast: b.northEast)
        } else {
            self.init()
        }
    }

    static func normalise(_ c: CLLocationCoordinate2D) -> CLLocationCoordinate2D? {
        guard c.latitude.isFinite && c.longitude.isFinite else { return nil }
        let lon = c.longitude >= -180 && c.longitude <= 180 ? c.longitude : CameraConstraints.wrapLongitude(c.longitude)
        return CLLocationCoordinate2D(latitude: min(max(c.latitude, -90), 90), longitude: lon)
    }

    /// Eastward span in degrees from `west` to `east`, in [0, 360].
    static func span(west: Double, east: Double) -> Double {
        east >= west ? east - west : east - west + 360
    }

    private var lonSpan: Double { Self.span(west: southWest.longitude, east: northEast.longitude) }

    /// `true` when the eastward arc [west, east] holds `lon`.
    static func arcContains(west: Double, east: Double, _ lon: Double) -> Bool {
        if west <= east { return (lon >= west && lon <= east) || (lon + 360 <= east) || (lon - 360 >= west) }
        return lon >= west || lon <= east
    }

    /// `true` when arc `outer` covers arc `inner` entirely.
    static func arcCovers(_ outer: (w: Double, e: Double), _ inner: (w: Double, e: Double)) -> Bool {
        let outerSpan = span(west: outer.w, east: outer.e)
        if outerSpan >= 360 { return true }
        var offset = inner.w - outer.w
        if offset < 0 { offset += 360 }
        return offset + span(west: inner.w, east: inner.e) <= outerSpan + 1e-12
    }

    /// The smallest longitude arc covering both arcs.
    static func unionArc(_ a: (w: Double, e: Double), _ b: (w: Double, e: Double)) -> (w: Double, e: Double) {
        let candidates: [(w: Double, e: Double)] = [a, b, (a.w, b.e), (b.w, a.e)]
        var best: (w: Double, e: Double) = (-180, 180)
        var bestSpan = 360.0
        for c in candidates where arcCovers(c, a) && arcCovers(c, b) {
            let s = span(west: c.w, east: c.e)
            if s < bestSpan {
                best = c
                bestSpan = s
            }
        }
        return best
    }

    /// New bounds that also contain `coordinate`, growing the longitude span the shorter way. Invalid bounds give
    /// bounds of just the coordinate; a non-finite coordinate changes nothing.
    open func includingCoordinate(_ coordinate: CLLocationCoordinate2D) -> GMSCoordinateBounds {
        guard let c = Self.normalise(coordinate) else { return self }
        return includingBounds(GMSCoordinateBounds(southWest: c, northEast: c))
    }

    /// New bounds that also contain every coordinate of `path`, added in order as ``includingCoordinate(_:)`` adds
    /// one; non-finite coordinates change nothing.
    open func includingPath(_ path: GMSPath) -> GMSCoordinateBounds {
        path.coordinates.reduce(self) { $0.includingCoordinate($1) }
    }

    /// New bounds that contain both these bounds and `other` (the smaller longitude span that covers both). If one
    /// of the two is invalid the result equals the other.
    open func includingBounds(_ other: GMSCoordinateBounds) -> GMSCoordinateBounds {
        guard other.isValid else { return self }
        guard isValid else { return other }
        let arc = Self.unionArc(
            (southWest.longitude, northEast.longitude), (other.southWest.longitude, other.northEast.longitude))
        return GMSCoordinateBounds(
            southWest: CLLocationCoordinate2D(
                latitude: min(southWest.latitude, other.southWest.latitude), longitude: arc.w),
            northEast: CLLocationCoordinate2D(
                latitude: max(northEast.latitude, other.northEast.latitude), longitude: arc.e))
    }

    /// `true` when `coordinate` lies inside the bounds; edges count as inside. Invalid bounds and non-finite
    /// coordinates contain nothing. Longitudes outside [−180, 180] are wrapped first.
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        guard isValid, let c = Self.normalise(coordinate) else { return false }
        guard c.latitude >= southWest.latitude && c.latitude <= northEast.latitude else { return false }
        return Self.arcContains(west: southWest.longitude, east: northEast.longitude, c.longitude)
    }

    /// `true` when the two bounds share at least one point (touching edges count). False if either is invalid.
    open func intersects(_ other: GMSCoordinateBounds) -> Bool {
        guard isValid && other.isValid else { return false }
        guard southWest.latitude <= other.northEast.latitude && other.southWest.latitude <= northEast.latitude else {
            return false
        }
        return Self.arcContains(west: southWest.longitude, east: northEast.longitude, other.southWest.longitude)
            || Self.arcContains(west: other.southWest.longitude, east: other.northEast.longitude, southWest.longitude)
    }

    /// Equal when both are invalid, or both corners are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? GMSCoordinateBounds else { return false }
        if !isValid || !o.isValid { return isValid == o.isValid }
        return northEast == o.northEast && southWest == o.southWest
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var h = Hasher()
        h.combine(isValid)
        if isValid {
            h.combine(northEast)
            h.combine(southWest)
        }
        return h.finalize()
    }

    /// `"GMSCoordinateBounds(southWest: (…), northEast: (…))"` or `"GMSCoordinateBounds(invalid)"`.
    open override var description: String {
        isValid
            ? "GMSCoordinateBounds(southWest: \(southWest), northEast: \(northEast))" : "GMSCoordinateBounds(invalid)"
    }
}

/// A latitude/longitude rectangle on the globe, possibly crossing the antimeridian: the engine's bounds behind
/// Google's `GMSCoordinateBounds`, camera fitting (``CameraState/fitting(_:insets:constraints:)``) and the camera
/// target bounds.
///
/// - `southWest.latitude ≤ northEast.latitude`; latitudes in [−90, 90].
/// - Longitudes in [−180, 180]. When `northEast.longitude < southWest.longitude` the bounds cross the antimeridian:
///   they run east from `southWest.longitude` through 180 to `northEast.longitude`.
/// - Edges count as inside.
///
/// Bad input: ``normalised(_:)`` turns a position into a corner (nil when not finite; latitude clamped to ±90,
/// longitude wrapped into [−180, 180)); every builder here skips positions it rejects. ``init(southWest:northEast:)``
/// takes corners already normalised and checks nothing.
/// Source: Google's `GMSCoordinateBounds` (Maps SDK for iOS reference) and GL JS's `LngLatBounds`.
public struct LatLngBounds: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The south-west corner: smallest latitude, western end of the longitude span.
    public var southWest: LatLng
    /// The north-east corner: largest latitude, eastern end of the longitude span.
    public var northEast: LatLng

    /// Bounds with exactly these corners, already normalised (`southWest.latitude ≤ northEast.latitude`, longitudes
    /// in [−180, 180]); nothing is checked.
    public init(southWest: LatLng, northEast: LatLng) {
        self.southWest = southWest
        self.northEast = northEast
    }

    /// The bounds with `a` and `b` as opposite corners. Of the two possible longitude spans the smaller is chosen
    /// (so 170 and −170 give bounds 20° wide across the antimeridian). If either position is not finite the bounds
    /// hold only the other; `nil` when neither is finite.
    public init?(spanning a: LatLng, _ b: LatLng) {
        guard let a = Self.normalised(a) else {
            guard let b = Self.normalised(b) else { return nil }
            self.init(southWest: b, northEast: b)
            return
        }
        guard let b = Self.normalised(b) else {
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
            southWest: LatLng(latitude: south, longitude: west), northEast: LatLng(latitude: north, longitude: east))
    }

    /// The smallest bounds holding every finite position of `positions`, added in order as ``including(_:)-(LatLng)``
    /// adds one; `nil` when none is finite.
    public init?(containing positions: some Sequence<LatLng>) {
        var bounds: LatLngBounds?
        for p in positions { bounds = Self.including(bounds, p) }
        guard let bounds else { return nil }
        self = bounds
    }

    /// `p` as a corner: latitude clamped to [−90, 90], a longitude outside [−180, 180] wrapped into [−180, 180);
    /// `nil` when a component is not finite.
    public static func normalised(_ p: LatLng) -> LatLng? {
        guard p.isFinite else { return nil }
        let lon =
            p.longitude >= -180 && p.longitude <= 180 ? p.longitude : wrap(p.longitude, minimum: -180, maximum: 180)
        return LatLng(latitude: min(max(p.latitude, -90), 90), longitude: lon)
    }

    /// Whether the bounds cross the antimeridian (`northEast.longitude < southWest.longitude`).
    public var crossesAntimeridian: Bool { northEast.longitude < southWest.longitude }

    /// The eastward longitude span in degrees, [0, 360].
    public var longitudeSpan: Double { Self.span(west: southWest.longitude, east: northEast.longitude) }

    /// The corners in world units (``WebMercator/worldPoint(_:)``), with the north-east corner's x moved one world
    /// east when the bounds cross the antimeridian, so `northEast.x ≥ southWest.x` and `southWest.y ≥ northEast.y`.
    public var worldBox: (southWest: WorldPoint, northEast: WorldPoint) {
        let sw = WebMercator.worldPoint(southWest)
        var ne = WebMercator.worldPoint(northEast)
        if ne.x < sw.x { ne.x += 1 }
        return (sw, ne)
    }

    /// Whether `p` lies inside (edges count); a non-finite position is outside. Longitudes outside [−180, 180] are
    /// wrapped first.
    public func contains(_ p: LatLng) -> Bool {
        guard let c = Self.normalised(p) else { return false }
        guard c.latitude >= southWest.latitude && c.latitude <= northEast.latitude else { return false }
        return Self.arcContains(west: southWest.longitude, east: northEast.longitude, c.longitude)
    }

    /// Whether the two bounds share at least one point (touching edges count).
    public func intersects(_ other: LatLngBounds) -> Bool {
        guard southWest.latitude <= other.northEast.latitude && other.southWest.latitude <= northEast.latitude else {
            return false
        }
        return Self.arcContains(west: southWest.longitude, east: northEast.longitude, other.southWest.longitude)
            || Self.arcContains(west: other.southWest.longitude, east: other.northEast.longitude, southWest.longitude)
    }

    /// The smallest bounds holding these and `other`: latitudes widened, and of the longitude arcs that cover both
    /// the shortest.
    public func including(_ other: LatLngBounds) -> LatLngBounds {
        let arc = Self.unionArc(
            (southWest.longitude, northEast.longitude), (other.southWest.longitude, other.northEast.longitude))
        return LatLngBounds(
            southWest: LatLng(latitude: min(southWest.latitude, other.southWest.latitude), longitude: arc.w),
            northEast: LatLng(latitude: max(northEast.latitude, other.northEast.latitude), longitude: arc.e))
    }

    /// These bounds grown to hold `p`, the longitude span growing the shorter way; unchanged for a non-finite `p`.
    public func including(_ p: LatLng) -> LatLngBounds {
        guard let c = Self.normalised(p) else { return self }
        return including(LatLngBounds(southWest: c, northEast: c))
    }

    /// `bounds` grown to hold `p`, or the bounds of `p` alone when `bounds` is nil; `bounds` unchanged for a
    /// non-finite `p`.
    public static func including(_ bounds: LatLngBounds?, _ p: LatLng) -> LatLngBounds? {
        guard let bounds else { return normalised(p).map { LatLngBounds(southWest: $0, northEast: $0) } }
        return bounds.including(p)
    }

    /// `p` moved into the bounds: latitude clamped, longitude kept when inside the (possibly antimeridian-crossing)
    /// arc, else moved to the nearer edge; the result's longitude wrapped into [−180, 180).
    public func clamping(_ p: LatLng) -> LatLng {
        let lat = min(max(p.latitude, southWest.latitude), northEast.latitude)
        var lon = p.longitude
        if !Self.arcContains(west: southWest.longitude, east: northEast.longitude, lon) {
            func gap(_ a: Double, _ b: Double) -> Double { abs(wrap(a - b, minimum: -180, maximum: 180)) }
            lon =
                gap(lon, southWest.longitude) <= gap(lon, northEast.longitude)
                ? southWest.longitude : northEast.longitude
        }
        return LatLng(latitude: lat, longitude: lon).wrapped
    }

    /// `"[southWest, northEast]"`.
    public var description: String { "[\(southWest), \(northEast)]" }

    /// Eastward span in degrees from `west` to `east`, in [0, 360].
    static func span(west: Double, east: Double) -> Double {
        east >= west ? east - west : east - west + 360
    }

    /// Whether the eastward arc [west, east] holds `lon`.
    static func arcContains(west: Double, east: Double, _ lon: Double) -> Bool {
        if west <= east { return (lon >= west && lon <= east) || (lon + 360 <= east) || (lon - 360 >= west) }
        return lon >= west || lon <= east
    }

    /// Whether arc `outer` covers arc `inner` entirely.
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
}

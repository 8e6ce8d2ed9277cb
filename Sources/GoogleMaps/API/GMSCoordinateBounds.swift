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
/// The engine's ``LatLngBounds`` (MapGeometry) holds the rectangle and its rules; this class is Google's face of it.
/// - Thread rules: immutable, safe to share between threads.
open class GMSCoordinateBounds: NSObject, @unchecked Sendable {
    /// The engine's bounds; `nil` when invalid.
    let box: LatLngBounds?

    /// The north-east corner (largest latitude; eastern end of the longitude span). `kCLLocationCoordinate2DInvalid`
    /// when invalid.
    public var northEast: CLLocationCoordinate2D {
        box.map { CLLocationCoordinate2D($0.northEast) } ?? kCLLocationCoordinate2DInvalid
    }
    /// The south-west corner (smallest latitude; western end of the longitude span). `kCLLocationCoordinate2DInvalid`
    /// when invalid.
    public var southWest: CLLocationCoordinate2D {
        box.map { CLLocationCoordinate2D($0.southWest) } ?? kCLLocationCoordinate2DInvalid
    }
    /// `false` for bounds made by `init()` (or only from invalid coordinates): they contain no point.
    public var isValid: Bool { box != nil }

    /// Invalid bounds that contain no point.
    public override init() {
        box = nil
        super.init()
    }

    /// Bounds of the engine's `box` (`nil`: invalid).
    init(_ box: LatLngBounds?) {
        self.box = box
        super.init()
    }

    /// Bounds with exactly these corners (already normalised; `southWest.latitude ≤ northEast.latitude`).
    convenience init(southWest: CLLocationCoordinate2D, northEast: CLLocationCoordinate2D) {
        self.init(LatLngBounds(southWest: LatLng(southWest), northEast: LatLng(northEast)))
    }

    /// The bounds with `coord1` and `coord2` as opposite corners. Of the two possible longitude spans the smaller
    /// is chosen (so 170 and −170 give bounds 20° wide across the antimeridian). If either coordinate is not finite,
    /// the bounds hold only the other (invalid when neither is finite).
    public convenience init(coordinate coord1: CLLocationCoordinate2D, coordinate coord2: CLLocationCoordinate2D) {
        self.init(LatLngBounds(spanning: LatLng(coord1), LatLng(coord2)))
    }

    /// The smallest bounds containing the four corners of `region`.
    public convenience init(region: GMSVisibleRegion) {
        let corners = [region.nearLeft, region.nearRight, region.farLeft, region.farRight].map(LatLng.init)
        let near = LatLngBounds(spanning: corners[0], corners[1])
        self.init(LatLngBounds.including(LatLngBounds.including(near, corners[2]), corners[3]))
    }

    /// The smallest bounds containing every coordinate of `path` (each step grows the longitude span the shorter
    /// way, as ``includingCoordinate(_:)`` does); invalid bounds for an empty path or one of only non-finite
    /// coordinates.
    public convenience init(path: GMSPath) {
        self.init(LatLngBounds(containing: path.coordinates.lazy.map(LatLng.init)))
    }

    /// New bounds that also contain `coordinate`, growing the longitude span the shorter way. Invalid bounds give
    /// bounds of just the coordinate; a non-finite coordinate changes nothing.
    open func includingCoordinate(_ coordinate: CLLocationCoordinate2D) -> GMSCoordinateBounds {
        guard LatLng(coordinate).isFinite else { return self }
        return GMSCoordinateBounds(LatLngBounds.including(box, LatLng(coordinate)))
    }

    /// New bounds that also contain every coordinate of `path`, added in order as ``includingCoordinate(_:)`` adds
    /// one; non-finite coordinates change nothing.
    open func includingPath(_ path: GMSPath) -> GMSCoordinateBounds {
        path.coordinates.reduce(self) { $0.includingCoordinate($1) }
    }

    /// New bounds that contain both these bounds and `other` (the smaller longitude span that covers both). If one
    /// of the two is invalid the result equals the other.
    open func includingBounds(_ other: GMSCoordinateBounds) -> GMSCoordinateBounds {
        guard let o = other.box else { return self }
        guard let box else { return other }
        return GMSCoordinateBounds(box.including(o))
    }

    /// `true` when `coordinate` lies inside the bounds; edges count as inside. Invalid bounds and non-finite
    /// coordinates contain nothing. Longitudes outside [−180, 180] are wrapped first.
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        box?.contains(LatLng(coordinate)) ?? false
    }

    /// `true` when the two bounds share at least one point (touching edges count). False if either is invalid.
    open func intersects(_ other: GMSCoordinateBounds) -> Bool {
        guard let box, let o = other.box else { return false }
        return box.intersects(o)
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

import Foundation
import MapGeometry

/// How a length along a path is measured (Maps SDK for iOS `GMSLengthKind`; raw values as Google's `NSUInteger`).
public enum GMSLengthKind: UInt, Sendable {
    /// Great-circle length in metres on a sphere of ``kGMSEarthRadius`` (`kGMSLengthGeodesic`).
    case geodesic = 0
    /// Rhumb-line (constant heading, straight on the Mercator map) length in metres (`kGMSLengthRhumb`).
    case rhumb = 1
    /// Length in ``GMSMapPoint`` units: the world is 2 units wide, measured the short way across the antimeridian
    /// (`kGMSLengthProjected`).
    case projected = 2
}

/// An immutable, ordered list of coordinates: the geometry of polylines and polygons (Maps SDK for iOS `GMSPath`).
///
/// Coordinates are stored as given (no clamping, NaN kept); consumers decide what an invalid coordinate means (the
/// shapes skip it when drawing, the geometry functions document their result). Shapes copy the path they are given,
/// so mutating a ``GMSMutablePath`` after assigning it changes nothing on the map until it is assigned again, as
/// Google's `copy` property semantics say.
/// - Thread rules: a `GMSPath` is immutable and may be read from any thread; a ``GMSMutablePath`` belongs to one
///   thread at a time.
open class GMSPath: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The coordinates, in order. Package access so shapes and geometry read them without copying.
    package var coordinates: [CLLocationCoordinate2D]

    /// An empty path (Objective-C `+path`).
    public override required init() {
        coordinates = []
        super.init()
    }

    /// A path holding the coordinates of `path` (copied).
    public init(path: GMSPath) {
        coordinates = path.coordinates
        super.init()
    }

    /// A path holding `coordinates`, in order (Waymark's own convenience initializer).
    package init(coordinates: [CLLocationCoordinate2D]) {
        self.coordinates = coordinates
        super.init()
    }

    /// The path encoded by `encodedPath` in Google's encoded polyline format
    /// (https://developers.google.com/maps/documentation/utilities/polylinealgorithm; see ``EncodedPolyline``), or nil
    /// when the string is not a valid encoding (a character outside `?`…`~`, a truncated value, a latitude without
    /// its longitude). Never traps. "" gives the empty path. Coordinates have 1e−5 degree precision and are not
    /// range-checked. Objective-C `+pathFromEncodedPath:`.
    public convenience init?(fromEncodedPath encodedPath: String) {
        guard let decoded = EncodedPolyline.decode(encodedPath) else { return nil }
        self.init(coordinates: decoded.map(CLLocationCoordinate2D.init))
    }

    /// The number of coordinates.
    open func count() -> UInt { UInt(coordinates.count) }

    /// The coordinate at `index`, or `kCLLocationCoordinate2DInvalid` when `index >= count()` (Google's documented
    /// result for an index out of range).
    open func coordinate(at index: UInt) -> CLLocationCoordinate2D {
        index < UInt(coordinates.count) ? coordinates[Int(index)] : kCLLocationCoordinate2DInvalid
    }

    /// This path in Google's encoded polyline format (coordinates rounded to 1e−5 degrees, halves away from zero).
    /// Coordinates with a non-finite component, or one beyond ±``EncodedPolyline/limit`` (about 3.5e8) degrees,
    /// cannot be encoded and are left out.
    open func encodedPath() -> String {
        EncodedPolyline.encode(engineCoordinates)
    }

    /// A new path with `deltaLatitude` and `deltaLongitude` (degrees) added to every coordinate; this path is not
    /// changed. Nothing is clamped or wrapped (the reference says only "adding"), so the result may hold latitudes
    /// beyond ±90 or longitudes beyond ±180; the geometry functions and shapes clamp and wrap as they document.
    open func pathOffset(byLatitude deltaLatitude: CLLocationDegrees, longitude deltaLongitude: CLLocationDegrees)
        -> Self
    {
        let result = Self.init()
        result.coordinates = coordinates.map {
            CLLocationCoordinate2D(latitude: $0.latitude + deltaLatitude, longitude: $0.longitude + deltaLongitude)
        }
        return result
    }

    /// The fractional number of segments from the start of the path covered by `length`, measured as `kind` says
    /// (metres, or ``GMSMapPoint`` units for `.projected`): 2.5 means the end of the second segment plus half the
    /// third. This is the index space of a `GMSStyleSpan`'s `segments`.
    ///
    /// Waymark's documented choices where the reference is silent: a length ≤ 0 or NaN gives 0, a length at or
    /// beyond the whole path's gives the index of the last coordinate (`count() − 1`), an empty path gives 0.
    /// Zero-length segments are passed over. Non-finite coordinates are skipped: the segment from the finite
    /// coordinate before them to the one after spans all their indices.
    open func segments(forLength length: CLLocationDistance, kind: GMSLengthKind) -> Double {
        guard length > 0 else { return 0 }
        var remaining = length
        var last: Int?
        for (index, coordinate) in coordinates.enumerated() where coordinate.isFinite {
            defer { last = index }
            guard let start = last else { continue }
            let d = Self.segmentLength(coordinates[start], coordinate, kind: kind)
            if remaining < d { return Double(start) + remaining / d * Double(index - start) }
            remaining -= d
        }
        return Double(last ?? 0)
    }

    /// The length of the path measured as `kind` says: metres for `.geodesic` and `.rhumb` (on a sphere of
    /// ``kGMSEarthRadius``), ``GMSMapPoint`` units for `.projected`. 0 for fewer than two coordinates; non-finite
    /// coordinates are skipped.
    open func length(of kind: GMSLengthKind) -> CLLocationDistance {
        var total = 0.0
        var previous: CLLocationCoordinate2D?
        for coordinate in coordinates where coordinate.isFinite {
            if let p = previous { total += Self.segmentLength(p, coordinate, kind: kind) }
            previous = coordinate
        }
        return total
    }

    /// The length of one segment measured as `kind` says.
    static func segmentLength(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D, kind: GMSLengthKind) -> Double {
        switch kind {
        case .geodesic: Spherical.distance(LatLng(a), LatLng(b))
        case .rhumb: Spherical.rhumbDistance(LatLng(a), LatLng(b))
        case .projected: GMSMapPointDistance(GMSProject(a), GMSProject(b))
        }
    }

    /// An immutable copy (this object itself when it is immutable).
    open func copy(with zone: NSZone? = nil) -> Any {
        type(of: self) == GMSPath.self ? self : GMSPath(path: self)
    }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { GMSMutablePath(path: self) }

    /// Two paths are equal when they hold the same coordinates in the same order.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? GMSPath else { return false }
        return other.coordinates == coordinates
    }

    /// A hash of the coordinates.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinates)
        return hasher.finalize()
    }
}

/// A ``GMSPath`` that can be changed (Maps SDK for iOS `GMSMutablePath`). Indices out of range are ignored
/// (nothing changes, nothing crashes), as the reference leaves them undefined.
/// - Thread rules: one thread at a time.
open class GMSMutablePath: GMSPath, @unchecked Sendable {
    /// Appends `coord`.
    open func add(_ coord: CLLocationCoordinate2D) { coordinates.append(coord) }

    /// Appends the coordinate (`latitude`, `longitude`) in degrees.
    open func addLatitude(_ latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinates.append(CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
    }

    /// Inserts `coord` at `index` (`index == count()` appends); a larger index is ignored.
    open func insert(_ coord: CLLocationCoordinate2D, at index: UInt) {
        guard index <= UInt(coordinates.count) else { return }
        coordinates.insert(coord, at: Int(index))
    }

    /// Replaces the coordinate at `index` with `coord`; an index out of range is ignored.
    open func replaceCoordinate(at index: UInt, with coord: CLLocationCoordinate2D) {
        guard index < UInt(coordinates.count) else { return }
        coordinates[Int(index)] = coord
    }

    /// Removes the coordinate at `index`; an index out of range is ignored.
    open func removeCoordinate(at index: UInt) {
        guard index < UInt(coordinates.count) else { return }
        coordinates.remove(at: Int(index))
    }

    /// Removes the last coordinate, if any.
    open func removeLastCoordinate() {
        if !coordinates.isEmpty { coordinates.removeLast() }
    }

    /// Removes every coordinate.
    open func removeAllCoordinates() { coordinates.removeAll() }
}

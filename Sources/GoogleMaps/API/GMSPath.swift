import Foundation

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

    /// An empty path.
    public override init() {
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

    /// The number of coordinates.
    open func count() -> UInt { UInt(coordinates.count) }

    /// The coordinate at `index`, or `kCLLocationCoordinate2DInvalid` when `index >= count()` (Google's documented
    /// result for an index out of range).
    open func coordinate(at index: UInt) -> CLLocationCoordinate2D {
        index < UInt(coordinates.count) ? coordinates[Int(index)] : kCLLocationCoordinate2DInvalid
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

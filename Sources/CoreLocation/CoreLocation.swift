// CoreLocation's value names for Linux. On Apple platforms these would be CoreLocation's own types; here they are
// ours, with the same names, members and semantics, so code written against Google's guides compiles with its
// `import CoreLocation` line removed. (Pattern: mapbox/turf-swift Sources/Turf/CoreLocation.swift.)
import Foundation
import MapGeometry

/// Latitude or longitude in degrees (WGS 84). Latitude is valid in [−90, 90], longitude in [−180, 180].
public typealias CLLocationDegrees = Double
/// A distance in metres.
public typealias CLLocationDistance = Double
/// A direction in degrees clockwise from true north, in [0, 360); negative means invalid.
public typealias CLLocationDirection = Double
/// An accuracy radius in metres; negative means invalid.
public typealias CLLocationAccuracy = Double
/// A speed in metres per second; negative means invalid.
public typealias CLLocationSpeed = Double

/// A geographic coordinate in degrees (WGS 84), as CoreLocation's `CLLocationCoordinate2D`.
///
/// Any `Double` may be stored, including NaN; use ``CLLocationCoordinate2DIsValid(_:)`` to check validity.
public struct CLLocationCoordinate2D: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator; valid in [−90, 90].
    public var latitude: CLLocationDegrees
    /// Degrees east of Greenwich; valid in [−180, 180].
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() {
        latitude = 0
        longitude = 0
    }

    /// Creates a coordinate from degrees. No validation or clamping happens here.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `"(lat, lon)"` with full precision.
    public var description: String { "(\(latitude), \(longitude))" }
}

/// The invalid coordinate (−180, −180), as CoreLocation's `kCLLocationCoordinate2DInvalid`.
public let kCLLocationCoordinate2DInvalid: CLLocationCoordinate2D = CLLocationCoordinate2D(
    latitude: -180, longitude: -180)

/// `true` when latitude is in [−90, 90] and longitude in [−180, 180] (both finite), as CoreLocation's function.
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    coord.latitude.isFinite && coord.longitude.isFinite && abs(coord.latitude) <= 90 && abs(coord.longitude) <= 180
}

/// Builds a coordinate, as CoreLocation's `CLLocationCoordinate2DMake`.
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A location fix, as CoreLocation's `CLLocation`: a coordinate with accuracy, altitude, course, speed and time.
///
/// Immutable. Negative accuracies, course or speed mean "invalid", as in CoreLocation.
/// - Thread rules: immutable, safe to share between threads.
open class CLLocation: NSObject, @unchecked Sendable {
    /// The position in degrees.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: CLLocationDistance
    /// Radius of uncertainty of `coordinate` in metres; negative when the position is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Uncertainty of `altitude` in metres; negative when the altitude is invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// Direction of travel in degrees clockwise from north, [0, 360); negative when unknown.
    public let course: CLLocationDirection
    /// Speed in metres per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// When the fix was taken.
    public let timestamp: Date

    /// A fix with only a position: altitude 0, horizontal accuracy 0 m, vertical accuracy −1, course and speed −1,
    /// timestamp now.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, course: -1, speed: -1, timestamp: Date())
    }

    /// A fix with accuracies; course and speed unknown (−1).
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: -1, speed: -1, timestamp: timestamp)
    }

    /// The full initialiser.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed,
        timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = hAccuracy
        self.verticalAccuracy = vAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// Great-circle distance in metres to `location` (haversine on a sphere of radius 6,371,008.8 m, the IUGG mean
    /// radius; the geometry library's `Spherical.distance`, which clamps latitudes to ±90). NaN when either
    /// coordinate is not finite.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        Spherical.distance(
            LatLng(latitude: coordinate.latitude, longitude: coordinate.longitude),
            LatLng(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude),
            radius: 6_371_008.8)
    }

    /// `"<lat,lon> +/- acc m"`, like CoreLocation's description.
    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m"
    }
}

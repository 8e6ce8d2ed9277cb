import Foundation
import LinuxUIKit

/// A direction to look in a Street View panorama (Google's `GMSOrientation`).
public struct GMSOrientation: Equatable, Sendable {
    /// Degrees clockwise from north, `[0, 360)`.
    public var heading: CLLocationDirection
    /// Degrees up (positive) or down (negative) from the horizon, `[-90, 90]`.
    public var pitch: Double

    /// An orientation; values are stored as given (``GMSPanoramaCamera`` normalises them).
    public init(heading: CLLocationDirection, pitch: Double) {
        self.heading = heading
        self.pitch = pitch
    }

    /// The zero orientation: north, level.
    public init() { self.init(heading: 0, pitch: 0) }
}

/// Google's C helper: the orientation `heading`, `pitch`.
public func GMSOrientationMake(_ heading: CLLocationDirection, _ pitch: Double) -> GMSOrientation {
    GMSOrientation(heading: heading, pitch: pitch)
}

/// Which panoramas a Street View request may return (Google's `GMSPanoramaSource`).
public enum GMSPanoramaSource: UInt, Sendable {
    /// Any panorama (the default).
    case `default` = 0
    /// Outdoor panoramas only.
    case outside = 1
}

/// A link from one Street View panorama to a neighbouring one (Google's `GMSPanoramaLink`).
///
/// Waymark has no Street View imagery, so no panorama and hence no link is ever produced; the type exists so code
/// written for Google's SDK compiles.
/// - Thread rules: immutable; any thread.
open class GMSPanoramaLink: NSObject, @unchecked Sendable {
    /// The direction of the linked panorama, degrees clockwise from north, `[0, 360)`.
    open private(set) var heading: CGFloat
    /// The linked panorama's ID, for ``GMSPanoramaView/move(toPanoramaID:)``.
    open private(set) var panoramaID: String

    init(heading: CGFloat, panoramaID: String) {
        self.heading = heading
        self.panoramaID = panoramaID
        super.init()
    }
}

/// Street View metadata for one place (Google's `GMSPanorama`): obtained from ``GMSPanoramaService`` or
/// ``GMSPanoramaView/panorama``.
///
/// Waymark has no Street View imagery: every request answers with no panorama and an error, so code that handles
/// Google's "no coverage here" case runs truthfully.
/// - Thread rules: immutable; any thread.
open class GMSPanorama: NSObject, @unchecked Sendable {
    /// The precise location of the panorama, degrees.
    open private(set) var coordinate: CLLocationCoordinate2D
    /// The panorama's ID (persistent for a session).
    open private(set) var panoramaID: String
    /// The links to neighbouring panoramas.
    open private(set) var links: [GMSPanoramaLink]

    init(coordinate: CLLocationCoordinate2D, panoramaID: String, links: [GMSPanoramaLink]) {
        self.coordinate = coordinate
        self.panoramaID = panoramaID
        self.links = links
        super.init()
    }
}

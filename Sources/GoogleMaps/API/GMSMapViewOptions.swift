import Foundation
import LinuxUIKit

/// An identifier of a cloud map style (spec §1.2). Waymark has no cloud: a map ID resolves to a style registered with
/// `GMSServices.registerMapStyle(_:forMapID:)` (Waymark's own) or found as `<identifier>.json` in the folder
/// `$WAYMARK_MAP_IDS`; an unknown map ID draws the default map and is logged once.
public struct GMSMapID: Hashable, Sendable {
    /// The identifier string.
    public let identifier: String
    /// Wraps `identifier`.
    public init(identifier: String) { self.identifier = identifier }

    /// Google's demo map ID (`"DEMO_MAP_ID"`), for trying features that need a map ID (advanced markers): the
    /// default map, unless the app registers a style for it.
    public static var demoMapID: GMSMapID { GMSMapID(identifier: "DEMO_MAP_ID") }
}

/// Settings for ``GMSMapView/init(options:)`` (spec §1.2); the map copies them.
/// - Thread rules: nonisolated, as in Google's SDK: fill it in on any thread (one thread at a time), then hand it to
///   the map view on the main thread.
open class GMSMapViewOptions: NSObject {
    /// The view's frame, points. Defaults to `.zero`.
    open var frame: CGRect = .zero
    /// The initial camera; nil gives the default camera (D2: target (0, 0), zoom = the minimum, bearing and tilt 0).
    open var camera: GMSCameraPosition?
    /// The map ID whose registered style the map draws (see ``GMSMapID``); nil (the default): the default map.
    open var mapID: GMSMapID?
    /// The colour shown where no basemap is drawn; nil gives the land colour #f2efe9.
    open var backgroundColor: UIColor?
    /// The MapLibre style (``mapLibreStyle``, Waymark's own).
    var mapLibreStyleStorage: MapLibreStyle = .bundled
    /// What the map takes from outside (clock, basemap and location factories); nil: ``MapViewDependencies/standard``.
    /// Set by tests and hosts inside the package.
    var dependencies: MapViewDependencies?

    /// Options with the defaults.
    public override init() {
        super.init()
    }
}

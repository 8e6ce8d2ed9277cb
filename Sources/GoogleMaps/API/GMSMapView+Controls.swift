import Foundation
import LinuxUIKit
import MapGeometry

// The map's own controls (spec §2.8, §4.3–4.5, D16, D18): compass, my-location dot and button, floor picker and
// indoor display. State and layout live in `Internal/Controls/MapControls.swift`, drawing in `ControlsRenderer.swift`.

extension GMSMapView {
    /// The device location as last reported by the map's location provider: `nil` while ``isMyLocationEnabled`` is
    /// false and until the first fix after enabling it (spec §1.1). Fixes are taken on the frame tick.
    /// - Thread rules: main thread.
    public var myLocation: CLLocation? {
        isMyLocationEnabled ? controls.location.myLocation : nil
    }

    /// The map's indoor state (spec §1.14): the building focused by the camera (target inside its outline at
    /// zoom ≥ 17) and its shown level. Updated on the frame tick after the camera changes.
    /// - Thread rules: main thread.
    public var indoorDisplay: GMSIndoorDisplay { controls.indoor.display }

    /// Not API (for hosts' accessibility trees and UI tests): the map's buttons shown now, as their D18 accessibility
    /// identifiers (`kGMSAccessibilityCompass`, `kGMSAccessibilityMyLocation`) and frames in view points.
    /// - Thread rules: main thread.
    package var controlAccessibilityElements: [(identifier: String, frame: CGRect)] {
        controls.accessibilityElements(map: self)
    }

    /// Not API: replaces the location provider (hosts and tests). The default comes from the `WAYMARK_LOCATION`
    /// environment variable (``LocationProviderSpec`` forms), else no provider (no fix).
    var _locationProvider: any LocationProvider {
        get { controls.location.provider }
        set { controls.location.provider = newValue }
    }

    /// Not API: replaces the indoor data (tests); the default is `Data/indoor.geojson` as ``IndoorDataset/locate``
    /// finds it.
    func _setIndoorDataset(_ dataset: IndoorDataset) {
        controls.setIndoorDataset(dataset)
    }

    /// The button-like control under `point`, when one is drawn there (D7: buttons come first).
    func controlHit(at point: CGPoint) -> MapControlHit? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        return controls.buttonHit(at: point, map: self)
    }

    /// Handles a tap on a control (§2.8):
    /// - compass: animates the bearing to 0 keeping zoom, target and tilt (`willMove(false)` … `idleAt`); the compass
    ///   then fades out over 0.3 s;
    /// - my-location button: `didTapMyLocationButton`; unless it returns true, animates the target to the current fix
    ///   (without a fix nothing else happens);
    /// - floor level: makes it the active level (the indoor display's delegate hears the change);
    /// - my-location dot: `didTapMyLocation` with the fix's coordinate.
    func handleControlTap(_ hit: MapControlHit) {
        switch hit {
        case .compass:
            animate(toBearing: 0)
        case .myLocationButton:
            if delegate?.didTapMyLocationButton(for: self) == true { return }
            if let fix = myLocation { animate(toLocation: fix.coordinate) }
        case .floorLevel(let level):
            indoorDisplay.activeLevel = level
        case .myLocationDot(let fix):
            delegate?.mapView(self, didTapMyLocation: fix.coordinate)
        }
    }
}

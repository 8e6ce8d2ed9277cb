import Foundation

/// Which indoor building the camera focuses.
///
/// Rule (Waymark's, Google's is undocumented): at camera zoom ≥ ``minimumZoom`` (17, where a large building spans
/// a good part of a phone screen: Forum's 130 m is about 290 pt at zoom 17 in Helsinki), the focused building is
/// the one whose outline contains the camera target (the centre of the padded view, spec §4.5); when outlines
/// overlap, the one with the smallest area wins (the more specific building); ties keep data order. Below the
/// minimum zoom, or when the target is in no building, none is focused. Bearing and tilt do not matter.
struct IndoorFocusRule {
    /// The lowest camera zoom at which a building can be focused. Defaults to 17.
    var minimumZoom: Double = 17

    /// The focused building among `buildings` for a camera at `target` and `zoom`, or `nil`.
    func focusedBuilding(
        target: CLLocationCoordinate2D, zoom: Double, in buildings: [GMSIndoorBuilding]
    ) -> GMSIndoorBuilding? {
        guard zoom >= minimumZoom, CLLocationCoordinate2DIsValid(target) else { return nil }
        var best: (building: GMSIndoorBuilding, area: Double)?
        for building in buildings where Self.contains(building.outline, target) {
            let area = Self.area(building.outline)
            if best == nil || area < best!.area { best = (building, area) }
        }
        return best?.building
    }

    /// Even-odd point-in-polygon test on longitude/latitude (the buildings are small and far from the antimeridian).
    static func contains(_ ring: [CLLocationCoordinate2D], _ point: CLLocationCoordinate2D) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i]
            let b = ring[j]
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let x =
                    (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude)
                    + a.longitude
                if point.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Absolute shoelace area in square degrees (only compared between nearby buildings).
    static func area(_ ring: [CLLocationCoordinate2D]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            sum += a.longitude * b.latitude - b.longitude * a.latitude
        }
        return abs(sum) / 2
    }
}

/// Drives a ``GMSIndoorDisplay`` from the camera: what `GMSMapView` holds for `indoorDisplay`.
///
/// The map view calls ``update(target:zoom:)`` whenever its camera changes (each frame tick that moved the camera,
/// and after explicit sets) and sets ``isEnabled`` from `isIndoorEnabled`; the display's delegate hears focus
/// changes from inside that call. The renderer asks ``visibleFeatures()`` for what to draw of the active level.
/// - Thread rules: main thread only.
final class IndoorController {
    let display: GMSIndoorDisplay
    let dataset: IndoorDataset
    var rule: IndoorFocusRule

    /// Mirrors `isIndoorEnabled` (default `true`); turning it off unfocuses the building at once.
    var isEnabled: Bool = true {
        didSet {
            if !isEnabled { display.focus(nil) }
        }
    }

    init(dataset: IndoorDataset, display: GMSIndoorDisplay = GMSIndoorDisplay(), rule: IndoorFocusRule = .init()) {
        self.dataset = dataset
        self.display = display
        self.rule = rule
    }

    /// Re-evaluates the focus for a camera at `target`, `zoom`.
    func update(target: CLLocationCoordinate2D, zoom: Double) {
        let building = isEnabled ? rule.focusedBuilding(target: target, zoom: zoom, in: dataset.buildings) : nil
        display.focus(building)
    }

    /// The features of the active building on the active level (empty when none is active or the level is hidden).
    func visibleFeatures() -> [IndoorFeature] {
        guard let building = display.activeBuilding, let level = display.activeLevel else { return [] }
        return dataset.features(of: building, on: level)
    }
}

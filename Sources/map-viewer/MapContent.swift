import Foundation
import LinuxUIKit

/// Chooses what the window shows. Today: always the temporary stand-in (StandInView.swift), because `GMSMapView` is
/// not in this branch yet. `MAP_VIEWER_STAND_IN=1` (set by the window test) will keep choosing the stand-in after the
/// swap, so the host's input mapping stays tested against its hand-predictable model.
///
/// The swap (checked on 2026-11-30 in a scratch merge of `mapview` at 950a58d: it compiles, and the window shows the
/// plain basemap with the 281 demo markers, idle CPU 0 ticks in 3 s; the map does not react to input there because
/// `GMSMapView` does not yet conform to `UITouchResponder` nor forward touches to `GestureManager`):
/// 1. add `MapViewContent.swift`:
/// ```swift
/// import Foundation
/// import GoogleMaps
/// import LinuxUIKit
///
/// @MainActor final class MapViewContent: NSObject, ViewerContent, GMSMapViewDelegate {
///     let map: GMSMapView
///     var rootView: UIView { map }
///
///     init(options: ViewerOptions, size: CGSize) {
///         let c = options.camera
///         map = GMSMapView(
///             frame: CGRect(origin: .zero, size: size),
///             camera: GMSCameraPosition(
///                 latitude: c.latitude, longitude: c.longitude, zoom: Float(c.zoom), bearing: c.bearing,
///                 viewingAngle: c.pitch))
///         super.init()
///         map.delegate = self
///         let path = options.markersPath ?? defaultMarkersPath() ?? ""
///         let entries = (try? MarkerFile.load(path: path))?.entries ?? []
///         for e in entries {
///             let m = GMSMarker(position: CLLocationCoordinate2D(latitude: e.latitude, longitude: e.longitude))
///             m.title = e.title
///             m.snippet = e.snippet
///             m.map = map
///         }
///         viewerLog("map-viewer: \(entries.count) markers from \(path)")
///     }
///
///     func tick() { map._tick() }
///     var needsFrames: Bool { map._needsTick }
///     func resetNorth() {
///         map.animate(toBearing: 0)
///         map.animate(toViewingAngle: 0)
///     }
///     func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
///         viewerLog("map-viewer: info window \(marker.title ?? "")")
///     }
/// }
/// ```
/// 2. here: `return stand-in if MAP_VIEWER_STAND_IN == "1", else MapViewContent(options:size:)`, and drop the
///    "checked but not shown" notice for the options the map uses;
/// 3. add a map scenario to the window test (marker tap → info window in the screenshot and its title on stdout,
///    drag → map moved, wheel → zoom changed, right drag → compass shown), with compass and my-location controls on.
@MainActor func makeContent(options: ViewerOptions, size: CGSize) -> any ViewerContent {
    viewerLog(
        "map-viewer: showing the temporary stand-in view (GMSMapView not merged yet); "
            + "--camera, --markers, --style and --location are checked but not shown")
    return StandInContent(size: size)
}

/// The demo markers: `Data/helsinki-pois.geojson` under the working directory, or under the package checkout that
/// holds the executable (`.build/<config>/map-viewer`); nil when neither exists.
func defaultMarkersPath() -> String? {
    let relative = "Data/helsinki-pois.geojson"
    if FileManager.default.fileExists(atPath: relative) { return relative }
    let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}

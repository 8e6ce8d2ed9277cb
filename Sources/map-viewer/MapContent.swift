import Foundation
import LinuxUIKit

/// Chooses what the window shows. Today: the temporary stand-in (StandInView.swift), because `GMSMapView` has not
/// been merged into this branch yet.
///
/// Swapping in the map (once `GMSMapView` forwards touches to its gesture manager, i.e. conforms to
/// `UITouchResponder`): add `MapViewContent.swift`
/// ```swift
/// import GoogleMaps
/// @MainActor final class MapViewContent: NSObject, ViewerContent, GMSMapViewDelegate {
///     let map: GMSMapView
///     var rootView: UIView { map }
///     init(options: ViewerOptions, size: CGSize) {
///         let c = options.camera
///         map = GMSMapView(frame: CGRect(origin: .zero, size: size), camera: GMSCameraPosition(
///             latitude: c.latitude, longitude: c.longitude, zoom: Float(c.zoom), bearing: c.bearing,
///             viewingAngle: c.pitch))
///         super.init()
///         map.delegate = self
///         for e in (try? MarkerFile.load(path: options.markersPath ?? defaultMarkersPath() ?? ""))?.entries ?? [] {
///             let m = GMSMarker(position: CLLocationCoordinate2D(latitude: e.latitude, longitude: e.longitude))
///             m.title = e.title; m.snippet = e.snippet; m.map = map
///         }
///     }
///     func tick() { map._tick() }
///     var needsFrames: Bool { map._needsTick }
///     func resetNorth() { map.animate(toBearing: 0); map.animate(toViewingAngle: 0) }
///     func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
///         viewerLog("map-viewer: info window \(marker.title ?? "")")
///     }
/// }
/// ```
/// return `MapViewContent(options:size:)` below, delete StandInView.swift, and switch the window test's expectations
/// from the stand-in's crosshair to the map (marker tap → info window, drag → map moved, wheel → zoom, right drag →
/// compass).
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

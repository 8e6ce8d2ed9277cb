import Foundation
import LinuxUIKit

/// Chooses what the window shows. Today: the temporary stand-in (StandInView.swift), because `GMSMapView` has not
/// been merged into this branch yet.
///
/// Swapping in the map is this one function plus a conformance, e.g.:
/// ```swift
/// extension GMSMapView: ViewerContent {   // in a new MapViewContent.swift
///     var rootView: UIView { self }
///     func tick() { _tick() }
///     var needsFrames: Bool { _needsTick }
///     func resetNorth() { animate(with: .init(...bearing 0, viewingAngle 0...)) }
/// }
/// ```
/// with the camera from `options.camera`, markers from `options.markersPath` (or ``defaultMarkersPath()``) and a
/// delegate that prints `didTapInfoWindowOf` titles with ``viewerLog(_:)``.
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

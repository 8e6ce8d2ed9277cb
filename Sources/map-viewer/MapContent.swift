import Foundation
import GoogleMaps

/// The window's root view controller: the map (``MapViewController``), or the hand-predictable stand-in view when
/// `MAP_VIEWER_STAND_IN=1` (the window test uses it to check the host's input mapping on its own).
@MainActor func makeRootViewController(options: ViewerOptions) -> UIViewController {
    if ProcessInfo.processInfo.environment["MAP_VIEWER_STAND_IN"] == "1" {
        viewerLog("map-viewer: showing the stand-in view (MAP_VIEWER_STAND_IN=1)")
        return StandInViewController()
    }
    return MapViewController(options: options)
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

/// The window's resize line (`viewWillTransition(to:with:)` of either root view controller).
@MainActor func logResize(to size: CGSize) {
    viewerLog("map-viewer: resized to \(Int(size.width))x\(Int(size.height)) pt, scale \(UIScreen.main.scale)")
}

/// Prints one line to standard output at once (tests read the viewer's stdout while it runs).
func viewerLog(_ line: String) {
    print(line)
    fflush(nil)
}

/// Prints `map-viewer: message` to standard error.
func viewerError(_ message: String) {
    FileHandle.standardError.write(Data("map-viewer: \(message)\n".utf8))
}

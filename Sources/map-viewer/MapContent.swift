import Foundation
import LinuxUIKit

/// Chooses what the window shows: the map (`MapViewContent`), or the hand-predictable stand-in view when
/// `MAP_VIEWER_STAND_IN=1` (the window test uses it to check the host's input mapping on its own).
/// `wake` is thread-safe and wakes the host's event loop (the map calls it when a tile made off the main thread
/// arrives).
@MainActor func makeContent(
    options: ViewerOptions, size: CGSize, wake: @escaping @Sendable () -> Void
) -> any ViewerContent {
    if ProcessInfo.processInfo.environment["MAP_VIEWER_STAND_IN"] == "1" {
        viewerLog("map-viewer: showing the stand-in view (MAP_VIEWER_STAND_IN=1)")
        return StandInContent(size: size)
    }
    return MapViewContent(options: options, size: size, wake: wake)
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

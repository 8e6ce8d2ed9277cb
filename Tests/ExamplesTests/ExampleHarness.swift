import Foundation

@testable import GoogleMaps

/// Runs `body` with the process's standard output sent to a file and returns what was printed (the examples print
/// their events as a developer's app would).
@MainActor func capturingStandardOutput(_ body: () -> Void) -> String {
    fflush(nil)
    let path = NSTemporaryDirectory() + "waymark-example-\(UUID().uuidString).txt"
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fd = open(path, O_WRONLY | O_TRUNC)
    let saved = dup(STDOUT_FILENO)
    dup2(fd, STDOUT_FILENO)
    body()
    fflush(nil)
    dup2(saved, STDOUT_FILENO)
    close(saved)
    close(fd)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Launches `delegate` headless at 800 × 600 points, scale 1, as `--headless` does, after forgetting any earlier
/// test's app. The maps draw the real basemap, as the examples do when a user runs them: other suites of the test
/// process swap in a plain stand-in (`GMSMapView.makeDefaultBasemap`), so it is put back here.
@MainActor func launchHeadless(_ delegate: any UIApplicationDelegate) -> UIHeadlessHost {
    UIApplication.shared.resetForNextRun()
    GMSMapView.makeDefaultBasemap = GMSMapView.defaultBasemap
    return UIHeadlessHost(launching: delegate, size: CGSize(width: 800, height: 600), scale: 1)
}

/// A point that hits `marker`'s default pin: 12 points above its anchor.
@MainActor func pinPoint(_ marker: GMSMarker, on map: GMSMapView) -> CGPoint {
    let p = map.projection.point(for: marker.position)
    return CGPoint(x: p.x, y: p.y - 12)
}

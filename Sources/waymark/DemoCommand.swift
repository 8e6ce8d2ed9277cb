import Foundation
import GoogleMaps
import MapGeometry
import MapSnapshot

/// `waymark demo`: the main job on the embedded default data (what `make demo` runs): a street-level snapshot of
/// central Helsinki, a world view at zoom 2, and a `GMSMapView` of Helsinki with the demo POI markers in category
/// colours and one info window open, written under `out/`.
struct DemoCommand: WaymarkCommand {
    static let name = "demo"
    static let summary = "render the demo maps (Helsinki street level, world at zoom 2, GMSMapView with markers)"
    static let usage =
        "usage: waymark demo    (writes out/demo-helsinki.png, out/demo-world.png and out/demo-markers.png)"

    @MainActor static func run(_ arguments: [String]) throws {
        guard arguments.isEmpty else { throw UsageError("demo takes no arguments") }
        let snapshotter: Snapshotter
        do { snapshotter = try Snapshotter() } catch { throw RuntimeError("\(error)") }
        let helsinki = Snapshotter.demoCamera
        try SnapshotCommand.writeSnapshot(
            snapshotter, camera: helsinki, scale: 1, overlay: [], to: "out/demo-helsinki.png")
        print("out/demo-helsinki.png")
        let world = CameraState(
            center: LatLng(latitude: 30, longitude: 10), zoom: 2, size: ScreenSize(width: 1280, height: 720))
        try SnapshotCommand.writeSnapshot(snapshotter, camera: world, scale: 1, overlay: [], to: "out/demo-world.png")
        print("out/demo-world.png")
        let mapView = try DemoMarkersMap.make(size: CGSize(width: 1280, height: 720))
        guard let png = mapView.renderFrame(scale: 1).pngData() else {
            throw RuntimeError("could not encode the markers demo as PNG")
        }
        do {
            try png.write(to: URL(fileURLWithPath: "out/demo-markers.png"))
        } catch {
            throw RuntimeError("cannot write out/demo-markers.png: \(error.localizedDescription)")
        }
        print("out/demo-markers.png")
    }
}

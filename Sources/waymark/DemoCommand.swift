import Foundation
import MapGeometry
import MapSnapshot

/// `waymark demo`: the main job on the embedded default data (what `make demo` runs): a street-level snapshot of
/// central Helsinki and a world view at zoom 2, written under `out/`.
struct DemoCommand: WaymarkCommand {
    static let name = "demo"
    static let summary = "render the demo maps (Helsinki street level, world at zoom 2) into out/"
    static let usage = "usage: waymark demo    (writes out/demo-helsinki.png and out/demo-world.png)"

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
    }
}

import Foundation
import GoogleMaps
import MapDrawingCairo
import MapGeometry
import MapHosting

/// `waymark demo`: the main job on the embedded default data (what `make demo` runs): a street-level snapshot of
/// central Helsinki, a world view at zoom 2, and a `GMSMapView` of Helsinki with the demo POI markers in category
/// colours and one info window open, and one with shapes (route, zone with a hole, circle, ground overlay), and the
/// five views of ``guideViews``: nine PNGs written under `out/`.
struct DemoCommand: WaymarkCommand {
    static let name = "demo"
    static let drawsLabels = true
    static let summary =
        "render the nine demo maps into out/ (Helsinki, world, markers, shapes, five guide views)"
    static let usage = """
        usage: waymark demo    (writes out/demo-helsinki.png, out/demo-world.png, out/demo-markers.png,
                                out/demo-shapes.png, and out/demo-<view>.png for the guides' cameras: sydney,
                                singapore, san-francisco, london, and monaco at street level)
        """

    /// The cameras of Google's guides (Sydney zoom 6, Singapore, San Francisco and London zoom 12) where the bundled
    /// world has coasts, rivers and places to show, and Monaco, the second bundled city, at street level.
    static let guideViews: [(name: String, latitude: Double, longitude: Double, zoom: Double)] = [
        ("sydney", -33.8683, 151.2086, 6),
        ("singapore", 1.285, 103.848, 12),
        ("san-francisco", 37.757815, -122.50764, 12),
        ("london", 51.5, -0.127, 12),
        ("monaco", 43.7384, 7.4246, 16),
    ]

    @MainActor static func run(_ arguments: [String]) throws {
        guard arguments.isEmpty else { throw UsageError("demo takes no arguments") }
        let snapshotter: MapHost
        do { snapshotter = try MapHost() } catch { throw RuntimeError("\(error)") }
        let helsinki = MapHost.demoCamera
        try SnapshotCommand.writeSnapshot(
            snapshotter, camera: helsinki, scale: 1, overlay: [], to: "out/demo-helsinki.png")
        print("out/demo-helsinki.png")
        let world = CameraState(
            center: LatLng(latitude: 30, longitude: 10), zoom: 2, size: ScreenSize(width: 1280, height: 720))
        try SnapshotCommand.writeSnapshot(snapshotter, camera: world, scale: 1, overlay: [], to: "out/demo-world.png")
        print("out/demo-world.png")
        for view in guideViews {
            let camera = CameraState(
                center: LatLng(latitude: view.latitude, longitude: view.longitude), zoom: view.zoom,
                size: ScreenSize(width: 1280, height: 720))
            let path = "out/demo-\(view.name).png"
            try SnapshotCommand.writeSnapshot(snapshotter, camera: camera, scale: 1, overlay: [], to: path)
            print(path)
        }
        let mapView = try DemoMarkersMap.make(size: CGSize(width: 1280, height: 720))
        guard let png = mapView.renderFrame(scale: 1).pngData() else {
            throw RuntimeError("could not encode the markers demo as PNG")
        }
        // Through AtomicFile, as every PNG Waymark writes (docs/BEHAVIOUR.md D24).
        do { try PNGCodec.write(bytes: [UInt8](png), to: "out/demo-markers.png") } catch {
            throw RuntimeError("\(error)")
        }
        print("out/demo-markers.png")
        guard let shapes = DemoShapesMap.make(size: CGSize(width: 1280, height: 720)).renderFrame(scale: 1).pngData()
        else {
            throw RuntimeError("could not encode the shapes demo as PNG")
        }
        // Through AtomicFile, as every PNG Waymark writes (docs/BEHAVIOUR.md D24).
        do { try PNGCodec.write(bytes: [UInt8](shapes), to: "out/demo-shapes.png") } catch {
            throw RuntimeError("\(error)")
        }
        print("out/demo-shapes.png")
    }
}

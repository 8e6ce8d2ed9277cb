import Foundation
import GoogleMaps

/// `waymark demo`: the main job on the embedded default data (what `make demo` runs).
///
/// Until the renderer lands it prints what the engine can already do with the demo camera.
struct DemoCommand: WaymarkCommand {
    static let name = "demo"
    static let summary = "run the demo on the embedded data (what `make demo` runs)"
    static let usage = "usage: waymark demo"

    @MainActor static func run(_ arguments: [String]) throws {
        guard arguments.isEmpty else { throw UsageError("demo takes no arguments") }
        let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)
        print("Waymark demo: central Helsinki at \(helsinki)")
    }
}

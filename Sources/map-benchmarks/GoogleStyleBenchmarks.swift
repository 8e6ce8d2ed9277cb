import Foundation
import GoogleMaps
import MapStyle

/// Google styling rules from the test fixtures: the night style's 19 rules and the retro style's first 11, 30 in all.
func thirtyGoogleRules() throws -> GoogleMapStyle {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/map-styles")
    func load(_ name: String) throws -> GoogleMapStyle {
        try GoogleMapStyle(jsonBytes: [UInt8](Data(contentsOf: root.appendingPathComponent(name))))
    }
    let night = try load("night.json")
    let retro = try load("retro.json")
    return GoogleMapStyle(rules: night.rules + retro.rules.prefix(30 - night.rules.count))
}

/// Applies a 30-rule Google style to the bundled default style (87 layers): parse once, translate per run (issue 32's
/// budget: at most 5 ms).
struct GoogleStyleApplyBenchmark: Benchmark {
    let name = "google-style-apply"
    let unit = "rules"
    let iterations = 50
    private var rules = GoogleMapStyle(rules: [])
    private var style: Style?

    mutating func setUp() throws {
        rules = try thirtyGoogleRules()
        style = try loadDefaultStyle()
    }

    func run() throws -> Int {
        guard let style else { return 0 }
        blackHole(rules.apply(to: style).layers.count)
        return rules.rules.count
    }
}

/// Switches a live 800×600 map (Helsinki, zoom 16) between the 30-rule style and the default, one frame each: the
/// cost of a style switch on a live map (new renderer over the engine's decoded tiles, one frame's tile images),
/// against `host-direct-map-frames` for a panned frame.
struct GoogleStyleSwitchBenchmark: Benchmark {
    let name = "google-style-switch-frames"
    let unit = "frames"
    private var map: GMSMapView?
    private var styled: GMSMapStyle?

    mutating func setUp() throws {
        let rules = try thirtyGoogleRules()
        (map, styled) = MainActor.assumeIsolated {
            let map = GMSMapView(
                frame: CGRect(x: 0, y: 0, width: 800, height: 600),
                camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 16))
            blackHole(map.renderImage(scale: 1).size.width)
            return (map, GMSMapStyle(googleStyle: rules))
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let map else { return 0 }
            for i in 0..<10 {
                map.mapStyle = i % 2 == 0 ? styled : nil
                map.tick()
                blackHole(map.renderImage(scale: 1).size.width)
            }
            return 10
        }
    }
}

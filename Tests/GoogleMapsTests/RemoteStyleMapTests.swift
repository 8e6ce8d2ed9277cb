import Foundation
import MapStorage
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// The repo's test HTTP server (`Tests/MapNetworkTests/Server/test_server.py`) on 127.0.0.1 with a random port,
/// serving `root` under `/files/`; stopped by closing its standard input.
final class LoopbackStyleServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    static let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/MapNetworkTests/Server/test_server.py")
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    init(root: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script.path, root.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("PORT "), let p = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
            try? input.fileHandleForWriting.close()
            throw CocoaError(.fileReadUnknown)
        }
        port = p
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/files/\(path)")! }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Records the rendering callbacks of §2.10.
@MainActor final class RenderingLog: GMSMapViewDelegate {
    var log: [String] = []
    func mapViewDidStartTileRendering(_ mapView: GMSMapView) { log.append("start") }
    func mapViewDidFinishTileRendering(_ mapView: GMSMapView) { log.append("finish") }
    func mapViewSnapshotReady(_ mapView: GMSMapView) { log.append("snapshotReady") }
}

/// A map view whose `MapLibreStyle` is an `http://` URL on the loopback server: the style (with a TileJSON and tiles
/// named relative to it) loads in the background, frames never wait for it, and a failed load is reported once.
@MainActor @Suite(.serialized, .enabled(if: LoopbackStyleServer.available, "needs /usr/bin/python3"))
struct RemoteStyleMapTests {
    /// A folder with `style.json` (red background, blue water from `world.json`, a TileJSON whose tiles are the
    /// zoom 0–2 tiles of `Data/world.mbtiles` under `world/`), all references relative.
    static func serverFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-remote-\(UUID().uuidString)")
        let source = try MBTilesSource(path: Fixtures.data.appendingPathComponent("world.mbtiles").path)
        for address in try source.tileAddresses() where address.z <= 2 {
            guard let bytes = try source.rawTileData(at: address) else { continue }
            let folder = dir.appendingPathComponent("world/\(address.z)/\(address.x)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: folder.appendingPathComponent("\(address.y).pbf"))
        }
        try Data(#"{"tilejson": "3.0.0", "tiles": ["world/{z}/{x}/{y}.pbf"], "maxzoom": 2}"#.utf8)
            .write(to: dir.appendingPathComponent("world.json"))
        let style = #"""
            {"version": 8, "sources": {"world": {"type": "vector", "url": "world.json"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
              {"id": "water", "type": "fill", "source": "world", "source-layer": "water",
               "paint": {"fill-color": "#0000ff"}}]}
            """#
        try Data(style.utf8).write(to: dir.appendingPathComponent("style.json"))
        return dir
    }

    /// A map over the mid-Atlantic at zoom 2 drawing `style`, with a green circle in its top-left corner.
    static func map(_ style: URL, delegate: RenderingLog) -> GMSMapView { map(.url(style), delegate: delegate) }

    static func map(_ style: MapLibreStyle, delegate: RenderingLog) -> GMSMapView {
        GMSMapView.makeDefaultBasemap = GMSMapView.defaultBasemap
        // TileNetwork.shared's cache: a scratch folder, not the user's (when this process has not opened it yet).
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-remote-cache")
        setenv("WAYMARK_CACHE_DIR", cache.path, 0)
        let options = GMSMapViewOptions()
        options.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        options.camera = GMSCameraPosition(latitude: 0, longitude: -30, zoom: 2)
        options.mapLibreStyle = style
        let map = GMSMapView(options: options)
        map.delegate = delegate
        let corner = map.projection.coordinate(for: CGPoint(x: 40, y: 40))
        let circle = GMSCircle(position: corner, radius: 600_000)
        circle.fillColor = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
        circle.strokeWidth = 0
        circle.map = map
        return map
    }

    /// Frames 1/60 s apart on the manual clock (with a little wall time for the loading threads) until `done` or
    /// 20 s of wall time; the last frame.
    static func frames(_ map: GMSMapView, _ clock: ManualClock, until done: () -> Bool) -> UIImage {
        var image = map.renderFrame(scale: 1)
        let deadline = Date().addingTimeInterval(20)
        while !done() && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            clock.advance(by: 1.0 / 60)
            image = map.renderFrame(scale: 1)
        }
        return image
    }

    @Test func anHTTPStyleLoadsInTheBackgroundAndTilesStreamIn() throws {
        let clock = installMapClock()
        let folder = try Self.serverFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackStyleServer(root: folder)
        let delegate = RenderingLog()
        // The style answers after 1.5 s: frames meanwhile draw the view's background, the circle on top.
        let url = URL(string: server.url("style.json").absoluteString + "?fault=slow&delay=1500")!
        let map = Self.map(url, delegate: delegate)
        let first = map.renderFrame(scale: 1)
        #expect(map.basemap is RemoteStyleBasemapRenderer)
        #expect(isLand(pixelAt(first, 200, 150)), "before the style: the background, \(pixelAt(first, 200, 150))")
        #expect(
            isColor(pixelAt(first, 40, 40), 0, 255, 0, tolerance: 3),
            "overlays draw meanwhile: \(pixelAt(first, 40, 40))")
        map.tick()
        #expect(delegate.log == ["start"], "tile rendering started, not finished: \(delegate.log)")
        #expect(map.basemap.isLoading)
        let settled = Self.frames(map, clock) { delegate.log.contains("snapshotReady") }
        #expect(delegate.log == ["start", "finish", "snapshotReady"], "\(delegate.log)")
        #expect(
            isColor(pixelAt(settled, 200, 150), 0, 0, 255, tolerance: 3), "the Atlantic: \(pixelAt(settled, 200, 150))")
        #expect(isColor(pixelAt(settled, 40, 40), 0, 255, 0, tolerance: 3), "\(pixelAt(settled, 40, 40))")
        // Somewhere on the map is land: the style's red background under the (absent) land layers.
        var reds = 0
        for y in stride(from: 0, to: 300, by: 10) {
            for x in stride(from: 0, to: 400, by: 10) where isColor(pixelAt(settled, x, y), 255, 0, 0, tolerance: 3) {
                reds += 1
            }
        }
        #expect(reds > 50, "land drawn with the style's background: \(reds) samples")
        // The remote style's pipeline takes the options of every map basemap: the view places the attribution
        // (returned with the frame, drawn once by the controls), not the pipeline.
        let loaded = try #require((map.basemap as? RemoteStyleBasemapRenderer)?.loaded)
        #expect(loaded.snapshotter.renderer.options.hostPlacesAttribution)
        #expect(GMSLog.messages.isEmpty, "\(GMSLog.messages)")
    }

    @Test func aStyleTextWithAnHTTPSourceIsOpenedInTheBackgroundToo() throws {
        let clock = installMapClock()
        let folder = try Self.serverFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackStyleServer(root: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("style.json"), encoding: .utf8)
        // The TileJSON answers after 1.5 s: the map view is made and draws its first frames meanwhile.
        let tileJSON = server.url("world.json").absoluteString + "?fault=slow&delay=1500"
        let style = text.replacingOccurrences(of: "\"world.json\"", with: "\"\(tileJSON)\"")
        let delegate = RenderingLog()
        let map = Self.map(.json(style), delegate: delegate)
        let first = map.renderFrame(scale: 1)
        #expect(map.basemap is RemoteStyleBasemapRenderer)
        #expect(isLand(pixelAt(first, 200, 150)), "before the TileJSON: \(pixelAt(first, 200, 150))")
        let settled = Self.frames(map, clock) { delegate.log.contains("snapshotReady") }
        #expect(delegate.log == ["start", "finish", "snapshotReady"], "\(delegate.log)")
        #expect(
            isColor(pixelAt(settled, 200, 150), 0, 0, 255, tolerance: 3), "the Atlantic: \(pixelAt(settled, 200, 150))")
        #expect(GMSLog.messages.isEmpty, "\(GMSLog.messages)")
        #expect(!MapLibreStyle.bundled.loadsOverNetwork)
    }

    @Test func aStyleThatCannotBeLoadedIsReportedOnceAndTheMapKeepsWorking() throws {
        let clock = installMapClock()
        let folder = try Self.serverFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackStyleServer(root: folder)
        let delegate = RenderingLog()
        let url = server.url("missing-style.json")
        let map = Self.map(url, delegate: delegate)
        let image = Self.frames(map, clock) { delegate.log.contains("snapshotReady") }
        for _ in 0..<5 { _ = map.renderFrame(scale: 1) }
        #expect(delegate.log == ["start", "finish", "snapshotReady"], "\(delegate.log)")
        #expect(GMSLog.messages.count == 1, "\(GMSLog.messages)")
        #expect(GMSLog.messages.first?.contains(url.absoluteString) == true, "\(GMSLog.messages)")
        #expect(isLand(pixelAt(image, 200, 150)), "the plain background: \(pixelAt(image, 200, 150))")
        #expect(isColor(pixelAt(image, 40, 40), 0, 255, 0, tolerance: 3), "\(pixelAt(image, 40, 40))")
        // The map still moves and draws its overlays.
        map.camera = GMSCameraPosition(latitude: 10, longitude: 10, zoom: 3)
        let moved = map.renderFrame(scale: 1)
        #expect(isLand(pixelAt(moved, 200, 150)))
    }
}

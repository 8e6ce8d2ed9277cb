import Foundation
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

/// A pan over an XYZ folder served on 127.0.0.1 (the repo's test server, `python3`), cold: each run makes a new
/// asynchronous renderer and a network without a cache, pans 1280×720 frames across central Helsinki at zoom 15
/// (60 frames, 8 points a frame, 16 ms apart), then draws frames until every tile of the final view is there.
/// Reported on standard error after the runs: the first frame (renderer set-up), the slowest later frame of the pan
/// and the time from the last move until the final view's tiles were complete (medians over the runs). The timed
/// figure is one whole run.
final class HTTPPanBenchmark: Benchmark {
    let name = "http-pan-cold"
    let unit = "frames"
    let iterations = 5
    private var folder: URL!
    private var server: Process?
    private let serverInput = Pipe()
    private var port = 0
    private var style: Style!
    private var surface: CairoSurface!
    private var slowestFrames: [Double] = []
    private var firstFrames: [Double] = []
    private var settleTimes: [Double] = []

    func setUp() throws {
        let script = DataFiles.path("../Tests/MapNetworkTests/Server/test_server.py")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-bench-\(UUID().uuidString)")
        let source = try MBTilesSource(path: DataFiles.path("helsinki.mbtiles"))
        for address in try source.tileAddresses() {
            guard let bytes = try source.rawTileData(at: address) else { continue }
            let dir = folder.appendingPathComponent("helsinki/\(address.z)/\(address.x)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(bytes).write(to: dir.appendingPathComponent("\(address.y).pbf"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, folder.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = serverInput
        try process.run()
        server = process
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("PORT "), let p = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
            throw HTTPError(url: script, message: "the test server did not start: \(line)")
        }
        port = p
        var json = try String(contentsOfFile: DataFiles.path("styles/default.json"), encoding: .utf8)
        json = json.replacingOccurrences(
            of: "\"url\": \"mbtiles://../helsinki.mbtiles\"",
            with: "\"tiles\": [\"http://127.0.0.1:\(port)/files/helsinki/{z}/{x}/{y}.pbf\"]")
        style = try Style.parse(bytes: Array(json.utf8), baseDirectory: DataFiles.path("styles"))
        surface = try CairoSurface(width: 1280, height: 720)
    }

    func run() throws -> Int {
        let network = TileNetwork(cacheDirectory: nil)
        let settings = AsyncTileRendering(makeBackend: { CairoBackend() })
        let backend = CairoBackend()
        let renderer = try MapRenderer(
            style: style, backend: backend, options: MapRenderOptions(asyncTiles: settings)
        ) { id, source in try SourceOpener(network: { network }).open(id: id, source: source) }
        var camera = CameraState(
            center: LatLng(latitude: 60.1699, longitude: 24.925), zoom: 15, size: ScreenSize(width: 1280, height: 720))
        var slowest = 0.0
        var frames = 0
        func frame() {
            let start = DispatchTime.now().uptimeNanoseconds
            backend.draw(renderer.displayList(camera: camera), into: surface, clearFirst: false)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            // The first frame sets the renderer up (fonts, label sprites) whatever the source: reported apart.
            if frames == 0 { firstFrames.append(ms) } else { slowest = max(slowest, ms) }
            frames += 1
        }
        for _ in 0..<60 {
            frame()
            let world = WebMercator.worldPoint(camera.center)
            let moved = WorldPoint(x: world.x + 8 / (256 * pow(2, camera.zoom)), y: world.y)
            camera.center = WebMercator.latLng(moved)
            Thread.sleep(forTimeInterval: 0.016)
        }
        let lastMove = DispatchTime.now().uptimeNanoseconds
        repeat {
            frame()
            if renderer.hasPendingTiles { Thread.sleep(forTimeInterval: 0.002) }
        } while renderer.hasPendingTiles && frames < 5000
        settleTimes.append(Double(DispatchTime.now().uptimeNanoseconds - lastMove) / 1e6)
        slowestFrames.append(slowest)
        return frames
    }

    func tearDown() {
        func median(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[v.count / 2] }
        FileHandle.standardError.write(
            Data(
                String(
                    format:
                        "http-pan-cold: first frame %.1f ms, slowest later frame %.1f ms, final view complete %.0f ms "
                        + "after the last move (medians of %d runs)\n", median(firstFrames), median(slowestFrames),
                    median(settleTimes), settleTimes.count
                ).utf8))
        try? serverInput.fileHandleForWriting.close()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

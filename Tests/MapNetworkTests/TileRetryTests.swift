import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStyle
import MapTestSupport
import Testing
import WaymarkTime

/// Solid 256 × 256 PNG tiles, one colour per zoom, written to `folder/<z>/<x>/<y>.png` for zooms 0…3.
enum RasterTiles {
    static let colours: [(r: UInt8, g: UInt8, b: UInt8)] = [(200, 200, 0), (0, 160, 0), (200, 0, 0), (0, 0, 200)]

    static func png(_ c: (r: UInt8, g: UInt8, b: UInt8)) throws -> [UInt8] {
        var image = RasterImage(width: 256, height: 256)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            image.pixels[i] = c.b
            image.pixels[i + 1] = c.g
            image.pixels[i + 2] = c.r
            image.pixels[i + 3] = 255
        }
        return try PNGCodec.encode(image)
    }

    static func write(into folder: URL) throws {
        for z in 0..<colours.count {
            let bytes = try png(colours[z])
            for x in 0..<(1 << z) {
                let dir = folder.appendingPathComponent("\(z)/\(x)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                for y in 0..<(1 << z) { try Data(bytes).write(to: dir.appendingPathComponent("\(y).png")) }
            }
        }
    }

    /// A white background under one raster layer over `template` (256-point tiles).
    static func style(_ template: String, fadeMilliseconds: Double = 0) throws -> Style {
        let json = """
            {"version": 8, "sources": {"r": {"type": "raster", "tileSize": 256, "tiles": ["\(template)"]}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "r", "type": "raster", "source": "r",
                         "paint": {"raster-fade-duration": \(fadeMilliseconds)}}]}
            """
        let style = try Style.parse(bytes: Array(json.utf8))
        #expect(style.errors.isEmpty, "\(style.errors)")
        return style
    }

    /// The 256 × 256 view over (0, 0) at `zoom`.
    static func camera(zoom: Double) -> CameraState {
        CameraState(center: LatLng(latitude: 0, longitude: 0), zoom: zoom, size: ScreenSize(width: 256, height: 256))
    }

    static func rgb(_ image: RasterImage, _ x: Int = 128, _ y: Int = 128) -> (r: Int, g: Int, b: Int) {
        let p = image.premultipliedRGBA(x: x, y: y)!
        return (Int(p.r), Int(p.g), Int(p.b))
    }

    static func near(_ p: (r: Int, g: Int, b: Int), _ c: (r: UInt8, g: UInt8, b: UInt8), _ tolerance: Int = 3) -> Bool {
        abs(p.r - Int(c.r)) <= tolerance && abs(p.g - Int(c.g)) <= tolerance && abs(p.b - Int(c.b)) <= tolerance
    }
}

/// Tiles a source failed to give (5xx, connection reset) are asked for again with exponential backoff on the
/// renderer's clock, a bounded number of times; meanwhile the parent stands in and nothing drawn is blanked.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct TileRetryTests {
    let folder: URL
    let server: TestServer

    init() throws {
        folder = try temporaryFolder("retry")
        _ = try exportHelsinki(into: folder.appendingPathComponent("helsinki"))
        try RasterTiles.write(into: folder.appendingPathComponent("raster"))
        server = try TestServer(root: folder)
    }

    /// No loader retries: every failure reaches the pipeline at once.
    func network(_ log: ProblemLog = ProblemLog()) -> TileNetwork {
        TileNetwork(
            cacheDirectory: nil, options: HTTPLoaderOptions(maxRetries: 0, retryBaseDelay: 0, timeout: 5),
            onProblem: log.add)
    }

    func asyncRenderer(
        _ style: Style, _ net: TileNetwork, clock: ManualClock, retries: Int = 5, options: MapRenderOptions = .init()
    ) throws -> MapRenderer {
        var options = options
        options.drawsAttribution = false
        options.asyncTiles = AsyncTileRendering(
            labelBuildBudgetMilliseconds: .infinity, retryBaseDelay: 1, maxTileRetries: retries,
            makeBackend: { CairoBackend() })
        let renderer = try MapRenderer(
            style: style, backend: CairoBackend(), options: options.withRasterDecoder(),
            resolveSource: NetworkRenderTests.resolver(net))
        renderer.clock = clock
        return renderer
    }

    /// The Helsinki style over the server's XYZ folder (no labels: tiles alone are compared).
    func vectorStyle(query: String = "") throws -> Style {
        let path = try defaultStyle(
            helsinki: [
                "type": "vector", "tiles": [server.url("helsinki/{z}/{x}/{y}.pbf") + query], "minzoom": 0,
                "maxzoom": 14,
            ], in: folder, labels: false, name: "retry.json")
        return try Style.load(contentsOfFile: path)
    }

    /// The mean absolute difference of the two images' channels, 0…255.
    static func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
        guard a.pixels.count == b.pixels.count, !a.pixels.isEmpty else { return 255 }
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    func requestCount(_ fragment: String) throws -> Int { try server.requests(containing: fragment).count }

    /// Draws frames until nothing is pending (generous: the machine may be loaded).
    static func settle(_ renderer: MapRenderer, _ camera: CameraState) throws -> RasterImage {
        try NetworkRenderTests.settle(renderer, camera: camera).0
    }

    @Test(arguments: ["500", "reset"])
    func aFailedVectorTileIsRetriedWithBackoffAndTheParentStandsIn(fault: String) throws {
        let clock = ManualClock()
        let log = ProblemLog()
        let renderer = try asyncRenderer(vectorStyle(), network(log), clock: clock)
        let camera = NetworkRenderTests.camera
        var parentView = camera
        parentView.zoom = 13.5
        _ = try Self.settle(renderer, parentView)
        // The reference: the child zoom settled by a renderer that never saw a fault.
        let referenceRenderer = try asyncRenderer(vectorStyle(), network(), clock: ManualClock())
        let reference = try Self.settle(referenceRenderer, camera)
        #expect(referenceRenderer.failedTileCount == 0)
        // Without the city source at all (what a blanked map would show).
        let blank = try Self.settle(
            asyncRenderer(vectorStyle(query: "?fault=404"), network(), clock: ManualClock()), camera)
        try server.control("mode=\(fault)")
        try server.control("clearlog=1")
        let failing = try Self.settle(renderer, camera)
        // (Plain values in the expectations: a failing one would otherwise print the whole renderer.)
        let pendingAfterFailure = renderer.hasPendingTiles
        let failedCount = renderer.failedTileCount
        #expect(!pendingAfterFailure && failedCount > 0)
        let asked = try requestCount("/helsinki/")
        #expect(asked > 0)
        // The parent tiles stand in: the failing frame shows the city (most pixels differ from the blank map).
        let pixels = camera.size.width * camera.size.height
        let drawn = NetworkRenderTests.differingPixels(failing, blank, "failing-\(fault)")
        #expect(Double(drawn) > pixels / 2, "\(drawn) of \(pixels) pixels differ from the blank map")
        #expect(log.problems.count == 1, "reported once per source: \(log.problems)")
        // Before the backoff delay (1 s) nothing is asked again and no frame is wanted.
        clock.advance(by: 0.9)
        let wantsBeforeDelay = renderer.wantsAnotherFrame
        #expect(!wantsBeforeDelay)
        _ = try renderer.render(camera: camera)
        #expect(try requestCount("/helsinki/") == asked)
        // The server recovers; once the delay is over the frame asks for the tiles again and they draw. (A worker's
        // failure can land in a frame after the settle loop ended, up to the 0.9-s frame, and a tile may fail twice:
        // its retry is then due at most 0.9 + 2 s from the start, so the clock goes past that.)
        try server.control("mode=")
        clock.advance(by: 3.1)
        let wantsAfterDelay = renderer.wantsAnotherFrame
        #expect(wantsAfterDelay)
        let settled = try Self.settle(renderer, camera)
        #expect(try requestCount("/helsinki/") > asked)
        let failedAtEnd = renderer.failedTileCount
        #expect(failedAtEnd == 0)
        #expect(NetworkRenderTests.differingPixels(settled, reference, "retried-\(fault)") == 0)
    }

    @Test func attemptsBackOffExponentiallyAndAreBounded() throws {
        let clock = ManualClock()
        let renderer = try asyncRenderer(
            RasterTiles.style(server.url("raster/{z}/{x}/{y}.png") + "?fault=500"), network(), clock: clock,
            retries: 2)
        let camera = RasterTiles.camera(zoom: 0)
        func attempts() throws -> Int { try requestCount("/raster/0/0/0.png") }
        _ = try Self.settle(renderer, camera)
        #expect(try attempts() == 1)
        // First retry after 1 s, the second 2 s after that, then no more.
        clock.advance(by: 1)
        _ = try Self.settle(renderer, camera)
        #expect(try attempts() == 2)
        clock.advance(by: 1.5)
        _ = try Self.settle(renderer, camera)
        #expect(try attempts() == 2)
        clock.advance(by: 0.5)
        _ = try Self.settle(renderer, camera)
        #expect(try attempts() == 3)
        clock.advance(by: 1000)
        #expect(!renderer.wantsAnotherFrame)
        let image = try Self.settle(renderer, camera)
        #expect(try attempts() == 3)
        #expect(RasterTiles.near(RasterTiles.rgb(image), (255, 255, 255)), "\(RasterTiles.rgb(image))")
        #expect(renderer.failedTileCount == 1)
    }

    @Test func aRasterTileAfter500Then200IsDrawnAndItsParentStoodIn() throws {
        let clock = ManualClock()
        let log = ProblemLog()
        let template = server.url("raster/{z}/{x}/{y}.png") + "?fault=500once"
        let renderer = try asyncRenderer(RasterTiles.style(template), network(log), clock: clock)
        // Zoom 1 (green) fails once, then comes after the retry.
        let first = try Self.settle(renderer, RasterTiles.camera(zoom: 1))
        #expect(RasterTiles.near(RasterTiles.rgb(first), (255, 255, 255)), "\(RasterTiles.rgb(first))")
        clock.advance(by: 1)
        let green = try Self.settle(renderer, RasterTiles.camera(zoom: 1))
        #expect(RasterTiles.near(RasterTiles.rgb(green), RasterTiles.colours[1]), "\(RasterTiles.rgb(green))")
        // Zoom 2 (red) fails once: the green parent stands in, never the white background.
        let standIn = try Self.settle(renderer, RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(standIn), RasterTiles.colours[1]), "\(RasterTiles.rgb(standIn))")
        #expect(renderer.failedTileCount > 0)
        clock.advance(by: 1)
        let red = try Self.settle(renderer, RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(red), RasterTiles.colours[2]), "\(RasterTiles.rgb(red))")
        #expect(log.problems.count == 1 && log.problems[0].url.contains("/raster/"), "\(log.problems)")
    }
}

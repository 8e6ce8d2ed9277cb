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

/// `raster-fade-duration` on an injected clock, and undecodable raster tiles reported once per source.
@Suite(.serialized) struct RasterFadeAndProblemTests {
    let folder: URL

    init() throws {
        folder = try temporaryFolder("raster-fade")
        try RasterTiles.write(into: folder)
    }

    func asyncRenderer(_ style: Style, clock: ManualClock, problems: ProblemLog? = nil) throws -> MapRenderer {
        var options = MapRenderOptions(drawsAttribution: false, baseAttribution: nil)
        options.asyncTiles = AsyncTileRendering(
            labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
        if let problems { options.rasterProblems = RasterProblemReporter(handler: problems.add) }
        let renderer = try MapRenderer(
            style: style, backend: CairoBackend(), options: options.withRasterDecoder(),
            resolveSource: MapHost.fileResolver)
        renderer.clock = clock
        return renderer
    }

    /// Frames until the tile images arrived (the frame that takes them is the last one returned).
    func untilArrived(_ renderer: MapRenderer, _ camera: CameraState) throws -> RasterImage {
        var image = try renderer.render(camera: camera)
        let deadline = Date().addingTimeInterval(20)
        while renderer.hasPendingTiles && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            image = try renderer.render(camera: camera)
        }
        return image
    }

    @Test func newTilesFadeInFromNothingAndFromTheirParentOnTheClock() throws {
        let clock = ManualClock()
        let style = try RasterTiles.style("file://\(folder.path)/{z}/{x}/{y}.png", fadeMilliseconds: 300)
        let renderer = try asyncRenderer(style, clock: clock)
        let green = RasterTiles.colours[1]
        let red = RasterTiles.colours[2]
        // Zoom 1 arrives with nothing under it: transparent at first, part-way after 150 ms, whole after 300.
        let arrived = try untilArrived(renderer, RasterTiles.camera(zoom: 1))
        #expect(RasterTiles.near(RasterTiles.rgb(arrived), (255, 255, 255)), "\(RasterTiles.rgb(arrived))")
        #expect(renderer.wantsAnotherFrame, "a fade is running")
        clock.advance(by: 0.15)
        let mid = RasterTiles.rgb(try renderer.render(camera: RasterTiles.camera(zoom: 1)))
        #expect(mid.r > 100 && mid.r < 155 && mid.g > 180 && mid.g < 230, "half-way white → green: \(mid)")
        clock.advance(by: 0.15)
        let done = try renderer.render(camera: RasterTiles.camera(zoom: 1))
        #expect(RasterTiles.near(RasterTiles.rgb(done), green), "\(RasterTiles.rgb(done))")
        #expect(!renderer.wantsAnotherFrame, "no frames are asked for once the fade is over")
        // Zoom 2 fades in from its green parent.
        let standing = try untilArrived(renderer, RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(standing), green), "\(RasterTiles.rgb(standing))")
        clock.advance(by: 0.15)
        let between = RasterTiles.rgb(try renderer.render(camera: RasterTiles.camera(zoom: 2)))
        #expect(between.r > 70 && between.r < 130 && between.g > 50 && between.g < 110, "green → red: \(between)")
        clock.advance(by: 0.2)
        let settled = try renderer.render(camera: RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(settled), red), "\(RasterTiles.rgb(settled))")
        #expect(!renderer.wantsAnotherFrame)
    }

    @Test func aSynchronousFrameIsTheSettledOneAndAZeroDurationDoesNotFade() throws {
        let style = try RasterTiles.style("file://\(folder.path)/{z}/{x}/{y}.png", fadeMilliseconds: 300)
        let snapshot = try MapHost(style: style, options: MapRenderOptions(drawsAttribution: false))
        let image = try snapshot.render(camera: RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(image), RasterTiles.colours[2]), "\(RasterTiles.rgb(image))")
        let clock = ManualClock()
        let instant = try asyncRenderer(
            RasterTiles.style("file://\(folder.path)/{z}/{x}/{y}.png", fadeMilliseconds: 0), clock: clock)
        let arrived = try untilArrived(instant, RasterTiles.camera(zoom: 2))
        #expect(RasterTiles.near(RasterTiles.rgb(arrived), RasterTiles.colours[2]), "\(RasterTiles.rgb(arrived))")
        #expect(!instant.wantsAnotherFrame)
    }

    /// Two undecodable tiles at zoom 1 (top left and bottom right).
    func spoilTiles(in dir: URL) throws {
        try Data("not a png".utf8).write(to: dir.appendingPathComponent("1/0/0.png"))
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).write(
            to: dir.appendingPathComponent("1/1/1.png"))
    }

    @Test(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"))
    func anUndecodableHTTPTileIsReportedOnceWithItsURLAndCoveredByItsAncestor() throws {
        try spoilTiles(in: folder)
        let server = try TestServer(root: folder)
        let network = TileNetwork(cacheDirectory: nil, options: HTTPLoaderOptions(maxRetries: 0, timeout: 5))
        let style = try RasterTiles.style(server.url("{z}/{x}/{y}.png"))
        for asynchronous in [false, true] {
            let problems = ProblemLog()
            var options = MapRenderOptions(drawsAttribution: false)
            options.rasterProblems = RasterProblemReporter(handler: problems.add)
            let image: RasterImage
            if asynchronous {
                options.asyncTiles = AsyncTileRendering(makeBackend: { CairoBackend() })
                let renderer = try MapRenderer(
                    style: style, backend: CairoBackend(), options: options.withRasterDecoder(),
                    resolveSource: NetworkRenderTests.resolver(network))
                image = try NetworkRenderTests.settle(renderer, camera: RasterTiles.camera(zoom: 1)).0
            } else {
                image = try MapHost(
                    style: style, options: options, resolveSource: NetworkRenderTests.resolver(network)
                )
                .render(camera: RasterTiles.camera(zoom: 1))
            }
            #expect(problems.problems.count == 1, "\(asynchronous): \(problems.problems)")
            let problem = try #require(problems.problems.first)
            #expect(problem.source == "r")
            #expect(problem.url.hasPrefix(server.url("1/")) && problem.url.hasSuffix(".png"), "\(problem)")
            // The bad tiles are missing, so (as in MapLibre) their zoom-0 ancestor covers them; the good ones drawn.
            #expect(
                RasterTiles.near(RasterTiles.rgb(image, 64, 64), RasterTiles.colours[0]),
                "\(RasterTiles.rgb(image, 64, 64))")
            #expect(RasterTiles.near(RasterTiles.rgb(image, 192, 192), RasterTiles.colours[0]))
            #expect(RasterTiles.near(RasterTiles.rgb(image, 192, 64), RasterTiles.colours[1]))
            #expect(RasterTiles.near(RasterTiles.rgb(image, 64, 192), RasterTiles.colours[1]))
        }
    }

    @Test(.enabled(if: SQLiteScript.available, "needs /usr/bin/sqlite3"))
    func anUndecodableMBTilesTileIsReportedOnceWithTheFileAndDrawnAsMissing() throws {
        let file = folder.appendingPathComponent("bad.mbtiles")
        let good = try SQLiteScript.blob(RasterTiles.png(RasterTiles.colours[1]))
        // Rows are TMS: XYZ 1/0/0 is row 1, 1/1/1 is row 0.
        let sql = """
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO metadata VALUES ('format', 'png'), ('minzoom', '1'), ('maxzoom', '1');
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO tiles VALUES (1, 0, 1, X'00112233'), (1, 1, 0, X'4142'),
                (1, 1, 1, \(good)), (1, 0, 0, \(good));
            """
        #expect(try SQLiteScript.run(sql, database: file.path) == 0)
        let json = """
            {"version": 8, "sources": {"r": {"type": "raster", "tileSize": 256, "url": "mbtiles://\(file.path)"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "r", "type": "raster", "source": "r"}]}
            """
        let problems = ProblemLog()
        var options = MapRenderOptions(drawsAttribution: false)
        options.rasterProblems = RasterProblemReporter(handler: problems.add)
        let image = try MapHost(style: Style.parse(bytes: Array(json.utf8)), options: options)
            .render(camera: RasterTiles.camera(zoom: 1))
        #expect(problems.problems.count == 1, "\(problems.problems)")
        #expect(problems.problems.first?.url.hasPrefix(file.path + " tile 1/") == true, "\(problems.problems)")
        #expect(RasterTiles.near(RasterTiles.rgb(image, 64, 64), (255, 255, 255)))
        #expect(RasterTiles.near(RasterTiles.rgb(image, 192, 64), RasterTiles.colours[1]))
    }
}

/// Pitched asynchronous frames warp the raster runs' tile images the workers make: an HTTP raster tile is fetched
/// for the worker, never waited for by a frame, and drawn by a later frame.
@Suite struct PitchedRasterOverHTTPTests {
    @Test(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"))
    func aPitchedAsynchronousFrameDrawsHTTPRasterTilesOnceTheyArrive() throws {
        let folder = try temporaryFolder("raster-pitched")
        try RasterTiles.write(into: folder)
        let server = try TestServer(root: folder)
        let network = TileNetwork(cacheDirectory: nil, options: HTTPLoaderOptions(maxRetries: 0, timeout: 5))
        let style = try RasterTiles.style(server.url("{z}/{x}/{y}.png"))
        var options = MapRenderOptions(drawsAttribution: false)
        options.asyncTiles = AsyncTileRendering(
            labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
        let renderer = try MapRenderer(
            style: style, backend: CairoBackend(), options: options.withRasterDecoder(),
            resolveSource: NetworkRenderTests.resolver(network))
        var camera = RasterTiles.camera(zoom: 1)
        camera.pitch = 40
        // The first frame asks and does not wait: the background shows where the tiles will be.
        let first = try renderer.render(camera: camera)
        #expect(
            RasterTiles.near(RasterTiles.rgb(first, 128, 200), (255, 255, 255)), "\(RasterTiles.rgb(first, 128, 200))")
        #expect(renderer.hasPendingTiles)
        let (settled, _) = try NetworkRenderTests.settle(renderer, camera: camera)
        #expect(!renderer.hasPendingTiles)
        let drawn = RasterTiles.rgb(settled, 128, 200)
        #expect(!RasterTiles.near(drawn, (255, 255, 255)), "the raster tile was never drawn: \(drawn)")
    }
}

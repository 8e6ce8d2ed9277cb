import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle
import MapTestSupport
import Testing

/// The map drawn from an XYZ folder over HTTP: the same picture as from MBTiles, from the cache with the server
/// gone, frames that never wait, faults that keep what is drawn.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct NetworkRenderTests {
    let folder: URL
    let server: TestServer
    static let camera = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 15.5, size: ScreenSize(width: 480, height: 320))

    init() throws {
        folder = try temporaryFolder("render")
        let count = try exportHelsinki(into: folder.appendingPathComponent("helsinki"))
        #expect(count > 10)
        server = try TestServer(root: folder)
    }

    func network(_ cache: String?, log: ProblemLog = ProblemLog()) -> TileNetwork {
        TileNetwork(
            cacheDirectory: cache, options: HTTPLoaderOptions(maxRetries: 1, retryBaseDelay: 0.01, timeout: 5),
            onProblem: log.add)
    }

    func httpStyle(query: String = "", labels: Bool = true) throws -> Style {
        let path = try defaultStyle(
            helsinki: [
                "type": "vector", "tiles": [server.url("helsinki/{z}/{x}/{y}.pbf") + query], "minzoom": 0,
                "maxzoom": 14, "attribution": "© OpenStreetMap contributors",
            ], in: folder, labels: labels, name: "http-\(labels).json")
        return try Style.load(contentsOfFile: path)
    }

    /// The settled asynchronous picture of the style without its labels over MBTiles (asynchronous and synchronous
    /// frames of main's renderer differ in places; the network must not add to that).
    func mbtilesPictureWithoutLabels() throws -> RasterImage {
        let path = try defaultStyle(
            helsinki: [
                "type": "vector", "url": "mbtiles://" + Fixtures.data.appendingPathComponent("helsinki.mbtiles").path,
                "minzoom": 0, "maxzoom": 14, "attribution": "© OpenStreetMap contributors",
            ], in: folder, labels: false, name: "mbtiles-nolabels.json")
        let renderer = try asyncRenderer(Style.load(contentsOfFile: path), network(nil))
        return try Self.settle(renderer, camera: Self.camera).0
    }

    static func resolver(_ network: TileNetwork) -> TileSourceResolver {
        { id, source in try SourceOpener(network: { network }).open(id: id, source: source) }
    }

    /// How many pixels differ; writes both images to the temporary folder when some do (for a look).
    static func differingPixels(_ a: RasterImage, _ b: RasterImage, _ name: String) -> Int {
        guard a.width == b.width, a.height == b.height else { return .max }
        var n = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i..<i + 4] != b.pixels[i..<i + 4] { n += 1 }
        if n > 0 {
            let dir = FileManager.default.temporaryDirectory.path
            try? PNGCodec.write(a, to: "\(dir)/waymark-\(name)-a.png")
            try? PNGCodec.write(b, to: "\(dir)/waymark-\(name)-b.png")
        }
        return n
    }

    func mbtilesPicture() throws -> RasterImage {
        try MapHost().render(camera: Self.camera)
    }

    @Test func anXYZFolderOverHTTPDrawsTheSamePictureAsMBTiles() throws {
        let log = ProblemLog()
        let snap = try MapHost(style: httpStyle(), resolveSource: Self.resolver(network(nil, log: log)))
        let picture = try snap.render(camera: Self.camera)
        #expect(Self.differingPixels(picture, try mbtilesPicture(), "xyz") == 0)
        #expect(snap.renderer.lastFrameStatistics.attribution.contains("OpenStreetMap"))
        #expect(log.problems.isEmpty)
    }

    @Test func aTileJSONOverHTTPDrawsTheSamePicture() throws {
        let tileJSON =
            #"{"tilejson":"3.0.0","tiles":["helsinki/{z}/{x}/{y}.pbf"],"minzoom":0,"maxzoom":14,"#
            + #""bounds":[24.9,60.15,25.0,60.2],"attribution":"© OpenStreetMap contributors"}"#
        try Data(tileJSON.utf8).write(to: folder.appendingPathComponent("helsinki.json"))
        let path = try defaultStyle(helsinki: ["type": "vector", "url": server.url("helsinki.json")], in: folder)
        let net = network(nil)
        let snap = try MapHost(style: Style.load(contentsOfFile: path), resolveSource: Self.resolver(net))
        #expect(Self.differingPixels(try snap.render(camera: Self.camera), try mbtilesPicture(), "tilejson") == 0)
        // Bounds: no request outside them.
        let outside = try server.log().filter {
            guard let p = $0["path"] as? String, p.contains("/helsinki/14/") else { return false }
            let x = Int(p.split(separator: "/")[3]) ?? 0
            return x < 9326 || x > 9330
        }
        #expect(outside.isEmpty)
    }

    @Test(arguments: ["", "?fault=norange"])
    func aPMTilesArchiveOverHTTPDrawsTheSamePicture(query: String) throws {
        let fixture = Fixtures.local.appendingPathComponent("pmtiles/helsinki.pmtiles")
        try FileManager.default.copyItem(at: fixture, to: folder.appendingPathComponent("helsinki.pmtiles"))
        let path = try defaultStyle(
            helsinki: ["type": "vector", "url": "pmtiles://" + server.url("helsinki.pmtiles") + query], in: folder)
        let snap = try MapHost(styleFile: path, resolveSource: Self.resolver(network(nil)))
        #expect(Self.differingPixels(try snap.render(camera: Self.camera), try mbtilesPicture(), "pmtiles") == 0)
        let ranges = try server.requests(containing: "helsinki.pmtiles").compactMap { $0["range"] as? String }
        #expect(!ranges.isEmpty && ranges.allSatisfy { $0.hasPrefix("bytes=") })
    }

    @Test func aSecondRendererDrawsFromTheCacheWithTheServerStopped() throws {
        let cache = try temporaryFolder("cache").path
        let first = try MapHost(style: httpStyle(), resolveSource: Self.resolver(network(cache)))
        let online = try first.render(camera: Self.camera)
        server.stop()
        let log = ProblemLog()
        let second = try MapHost(style: httpStyle(), resolveSource: Self.resolver(network(cache, log: log)))
        #expect(Self.differingPixels(try second.render(camera: Self.camera), online, "offline") == 0)
        #expect(log.problems.isEmpty)
    }

    /// Draws asynchronous frames, 10 ms apart, until nothing is pending or `seconds` of real time pass (default 60:
    /// a loaded two-core machine decodes slowly; a settled renderer returns at once).
    static func settle(_ renderer: MapRenderer, camera: CameraState, seconds: Double = 60) throws -> (RasterImage, Int)
    {
        var frames = 0
        let deadline = Date(timeIntervalSinceNow: seconds)
        var image = try renderer.render(camera: camera)
        while renderer.hasPendingTiles && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            image = try renderer.render(camera: camera)
            frames += 1
        }
        return (image, frames)
    }

    func asyncRenderer(_ style: Style, _ net: TileNetwork) throws -> MapRenderer {
        let settings = AsyncTileRendering(labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
        // An engine of its own: in a parallel test run the process's shared engine churns with every other test's
        // tiles, and a settling renderer's arrived tiles could be evicted before its next frame draws them.
        return try MapRenderer(
            style: style, backend: CairoBackend(), options: MapRenderOptions(asyncTiles: settings, engine: MapEngine()),
            resolveSource: Self.resolver(net))
    }

    @Test func framesNeverWaitAndSettleOnTheSamePicture() throws {
        let log = ProblemLog()
        let renderer = try asyncRenderer(
            httpStyle(query: "?fault=slow&delay=150", labels: false), network(nil, log: log))
        _ = try renderer.render(camera: Self.camera)
        // The frame came back while its tiles' 150 ms answers were still on their way.
        #expect(renderer.hasPendingTiles)
        #expect(renderer.tileFetchesInFlight > 0)
        let (settled, frames) = try Self.settle(renderer, camera: Self.camera)
        #expect(
            !renderer.hasPendingTiles,
            "settled within \(frames) frames; failed \(renderer.failedTileCount); problems \(log.problems)")
        #expect(Self.differingPixels(settled, try mbtilesPictureWithoutLabels(), "async") == 0)
    }

    @Test func tilesAlreadyDrawnStayDrawnWhenTheServerFails() throws {
        let log = ProblemLog()
        let renderer = try asyncRenderer(httpStyle(labels: false), network(nil, log: log))
        let (before, _) = try Self.settle(renderer, camera: Self.camera)
        #expect(Self.differingPixels(before, try mbtilesPictureWithoutLabels(), "before") == 0)
        try server.control("mode=500")
        // Tiles of another zoom (they exist on the server, which now answers 500 to everything).
        var moved = Self.camera
        moved.zoom = 13.5
        let (_, frames) = try Self.settle(renderer, camera: moved)
        #expect(!renderer.hasPendingTiles, "failed tiles are known missing (\(frames) frames)")
        #expect(renderer.failedTileCount > 0)
        #expect(log.problems.count == 1, "reported once per source: \(log.problems)")
        #expect(log.problems.first?.url.contains("/files/helsinki/") == true)
        let (back, _) = try Self.settle(renderer, camera: Self.camera)
        #expect(Self.differingPixels(back, before, "back") == 0)
    }

    @Test func requestsForTilesThatLeftTheViewAreCancelled() throws {
        let renderer = try asyncRenderer(httpStyle(query: "?fault=slow&delay=400"), network(nil))
        _ = try renderer.render(camera: Self.camera)
        #expect(renderer.tileFetchesInFlight > 0)
        var away = Self.camera
        away.center = LatLng(latitude: 40, longitude: -3)
        _ = try renderer.render(camera: away)
        #expect(renderer.cancelledTileFetches > 0)
        let (_, frames) = try Self.settle(renderer, camera: away)
        #expect(!renderer.hasPendingTiles, "\(frames) frames")
    }
}

import Foundation
import MapGeometry
import MapNetwork
import MapStorage
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// `GMSURLTileLayer` through MapNetwork's loader and persistent cache, against the loopback test server.
@MainActor @Suite(.serialized, .enabled(if: TestServerProcess.available, "needs /usr/bin/python3"))
struct URLTileLayerNetworkTests {
    let dir: URL

    init() throws {
        dir = try TileLayerTests.tempDir()
        try writeTiles(dir, solidTile(UIColor(red: 0, green: 0, blue: 1, alpha: 1), border: .white))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("2/1/1.png"))  // a 404
    }

    /// A fetcher over its own loader (no retries: failures arrive at once) and a cache in `cache`, if any.
    func fetcher(cache: String?) throws -> HTTPClientTileFetcher {
        let loader = HTTPLoader(options: HTTPLoaderOptions(maxRetries: 0, timeout: 5))
        return HTTPClientTileFetcher(
            client: HTTPClient(loader: loader, cache: try cache.map { try HTTPCache(directory: $0) }))
    }

    /// A map with a checker layer (zIndex 0) and a half-transparent URL layer over the server (zIndex 2).
    func map(_ server: TestServerProcess, cache: String?) throws -> (GMSMapView, GMSURLTileLayer) {
        let map = makeMap(TileLayerTests.world)
        let checker = CheckerLayer(
            even: solidTile(UIColor(red: 1, green: 0.6, blue: 0, alpha: 1)),
            odd: solidTile(UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)))
        checker.map = map
        let port = server.port
        let layer = GMSURLTileLayer { x, y, zoom in URL(string: "http://127.0.0.1:\(port)/files/\(zoom)/\(x)/\(y).png")
        }
        layer.fetcher = try fetcher(cache: cache)
        layer.zIndex = 2
        layer.opacity = 0.5
        layer.userAgent = "WaymarkTests"
        layer.map = map
        return (map, layer)
    }

    @Test func drawsWithOpacityAndZIndexAndASecondLoaderDrawsFromTheCacheOffline() throws {
        let clock = installMapClock()
        let server = try TestServerProcess(root: dir)
        let cache = try TileLayerTests.tempDir().path
        let (map, layer) = try map(server, cache: cache)
        let image = settledFrame(map, clock)
        // Tile 2/2/1 (top right): the URL tile's white border half over the checker's purple; inside it blue.
        #expect(isColor(pixelAt(image, 205, 40), 191, 128, 191, tolerance: 4), "\(pixelAt(image, 205, 40))")
        #expect(isColor(pixelAt(image, 300, 100), 64, 0, 191, tolerance: 4), "\(pixelAt(image, 300, 100))")
        // The 404 tile 2/1/1 (top left) is no tile: the checker's orange alone.
        #expect(isColor(pixelAt(image, 100, 100), 255, 153, 0, tolerance: 4), "\(pixelAt(image, 100, 100))")
        guard case .noTile? = layer.tileStore.tiles[TileID(z: 2, x: 1, y: 1)] else {
            Issue.record("the 404 tile is not known missing")
            return
        }
        // zIndex below the checker: the URL tiles are hidden.
        layer.zIndex = -1
        let below = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(below, 300, 100), 128, 0, 128, tolerance: 4), "\(pixelAt(below, 300, 100))")
        // Another map, layer and loader over the same cache folder, with the server gone: the same picture.
        server.stop()
        let (offline, offlineLayer) = try self.map(server, cache: cache)
        let again = settledFrame(offline, clock)
        for (x, y) in [(205, 40), (300, 100), (100, 250), (300, 250), (100, 100)] {
            #expect(pixelAt(again, x, y) == pixelAt(image, x, y), "(\(x), \(y)): \(pixelAt(again, x, y))")
        }
        #expect(offlineLayer.tileStore.requestCounts[TileID(z: 2, x: 2, y: 1)] == 1)
        // Only the 404 tile (not cached) may fail offline, reported once.
        #expect(
            GMSLog.messages.count <= 1 && GMSLog.messages.allSatisfy { $0.contains("/2/1/1.png") }, "\(GMSLog.messages)"
        )
    }

    @Test func failuresAreReportedOncePerLayerWithTheURLAndAskedForAgain() throws {
        let clock = installMapClock()
        let server = try TestServerProcess(root: dir)
        let map = makeMap(TileLayerTests.world)
        let layer = GMSURLTileLayer { x, y, zoom in
            URL(string: server.url("\(zoom)/\(x)/\(y).png?fault=500"))
        }
        layer.fetcher = try fetcher(cache: nil)
        layer.map = map
        _ = settledFrame(map, clock)
        #expect(GMSLog.messages.count == 1, "\(GMSLog.messages)")
        let message = GMSLog.messages.first ?? ""
        #expect(message.contains(server.url("2/")) && message.contains("HTTP 500"), "\(message)")
        let key = TileID(z: 2, x: 2, y: 2)
        guard case .retry? = layer.tileStore.tiles[key] else {
            Issue.record(
                "a failed tile is not waiting for its retry: \(String(describing: layer.tileStore.tiles[key]))")
            return
        }
        // Asked for again after the retry delay (Google's nil answer), still reported once.
        clock.advance(by: 2.5)
        _ = settledFrame(map, clock)
        #expect(layer.tileStore.requestCounts[key] ?? 0 >= 2)
        #expect(GMSLog.messages.count == 1)
    }

    @Test func requestsOfTilesThatLeftTheViewAreCancelled() throws {
        let clock = installMapClock()
        let server = try TestServerProcess(root: dir)
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 4))
        // One existing file under a URL per tile (the server checks the file before the delay, so a missing one would
        // be a 404 at once and race the second frame): every answer takes 3 s.
        let layer = GMSURLTileLayer { x, y, zoom in
            URL(string: server.url("2/0/0.png?fault=slow&delay=3000&tile=\(zoom)-\(x)-\(y)"))
        }
        layer.fetcher = try fetcher(cache: nil)
        layer.map = map
        _ = map.renderFrame(scale: 1)
        let first = Set(layer.tileStore.tiles.keys)
        #expect(!first.isEmpty && layer.tileStore.cancellableRequests == first.count)
        // Far away: the first view's requests are cancelled and forgotten, the new view's are on their way.
        map.camera = GMSCameraPosition(latitude: 50, longitude: 120, zoom: 4)
        clock.advance(by: 0.1)
        _ = map.renderFrame(scale: 1)
        let second = Set(layer.tileStore.tiles.keys)
        #expect(first.isDisjoint(with: second), "\(first) / \(second)")
        #expect(layer.tileStore.cancellableRequests == second.count)
        layer.map = nil
        #expect(layer.tileStore.cancellableRequests == 0)
    }
}

/// `raster-fade-duration` on a map whose tiles are made on the worker thread: the map asks for frames while a fade
/// runs and stops after.
@MainActor @Suite(.serialized) struct RasterBasemapFadeTests {
    @Test func theMapKeepsAskingForFramesWhileARasterTileFadesIn() throws {
        let clock = installMapClock()
        let dir = try TileLayerTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeTiles(dir, solidTile(UIColor(red: 0, green: 0.5, blue: 0, alpha: 1)))
        let style = dir.appendingPathComponent("style.json")
        try Data(
            """
            {"version": 8, "sources": {"r": {"type": "raster", "tileSize": 256,
              "tiles": ["file://\(dir.path)/{z}/{x}/{y}.png"], "minzoom": 2, "maxzoom": 2}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 300}}]}
            """.utf8
        ).write(to: style)
        let map = makeMap(TileLayerTests.world)
        map.basemap = try VectorBasemapRenderer(style: .file(style.path), onTileArrived: {})
        // Frames (no clock movement) until the worker's tiles arrived: they start transparent.
        var image = map.renderFrame(scale: 1)
        let deadline = Date().addingTimeInterval(20)
        while map.basemap.isLoading && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            map.tick()
            image = map.renderFrame(scale: 1)
        }
        #expect(isColor(pixelAt(image, 100, 100), 255, 255, 255, tolerance: 3), "\(pixelAt(image, 100, 100))")
        let asksForFrames1 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(asksForFrames1, "a fade is running")
        clock.advance(by: 0.15)
        map.tick()
        let mid = pixelAt(map.renderFrame(scale: 1), 100, 100)
        #expect(mid.r > 100 && mid.r < 155 && mid.g > 165 && mid.g < 215, "half-way white → green: \(mid)")
        let asksForFrames2 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(asksForFrames2)
        clock.advance(by: 0.2)
        for _ in 0..<3 {
            map.tick()
            image = map.renderFrame(scale: 1)
        }
        #expect(isColor(pixelAt(image, 100, 100), 0, 128, 0, tolerance: 3), "\(pixelAt(image, 100, 100))")
        let asksForFrames3 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(!asksForFrames3, "no frames are asked for once the fade is over")
    }
}

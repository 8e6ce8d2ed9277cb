import Foundation
import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// A solid 256 × 256 pixel tile image.
@MainActor func solidTile(_ color: UIColor, border: UIColor? = nil) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    return UIGraphicsImageRenderer(size: CGSize(width: 256, height: 256), format: format).image { ctx in
        if let border {
            border.setFill()
            ctx.fill(CGRect(x: 0, y: 0, width: 256, height: 256))
            color.setFill()
            ctx.fill(CGRect(x: 16, y: 16, width: 224, height: 224))
        } else {
            color.setFill()
            ctx.fill(CGRect(x: 0, y: 0, width: 256, height: 256))
        }
    }
}

/// A blocking tile layer: a checkerboard of two colours by `x + y`; counts its calls (any thread).
final class CheckerLayer: GMSSyncTileLayer {
    let even: UIImage
    let odd: UIImage
    private let lock = NSLock()
    nonisolated(unsafe) private var callsStorage = 0
    nonisolated(unsafe) private var threadsStorage: [Bool] = []

    init(even: UIImage, odd: UIImage) {
        self.even = even
        self.odd = odd
        super.init()
    }

    var calls: Int { lock.withLock { callsStorage } }
    /// Whether each call ran on the main thread.
    var onMainThread: [Bool] { lock.withLock { threadsStorage } }

    nonisolated override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
        lock.withLock {
            callsStorage += 1
            threadsStorage.append(Thread.isMainThread)
        }
        return (x + y) % 2 == 0 ? even : odd
    }
}

/// Answers inside the request: `nil` for x 1, y 1; no tile for x 2, y 1; the image otherwise.
final class ScriptedLayer: GMSTileLayer {
    let image: UIImage
    init(image: UIImage) {
        self.image = image
        super.init()
    }
    override func requestTileFor(x: UInt, y: UInt, zoom: UInt, receiver: any GMSTileReceiver) {
        let answer: UIImage? = (x, y) == (1, 1) ? nil : (x, y) == (2, 1) ? kGMSTileLayerNoTile : image
        receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: answer)
    }
}

/// Draws frames until the tile layers have no request outstanding (at most 10 s of wall time), then lets fades end.
@MainActor func settledFrame(_ map: GMSMapView, _ clock: ManualClock) -> UIImage {
    _ = map.renderFrame(scale: 1)
    let deadline = Date().addingTimeInterval(10)
    while map.tileLayersNeedFrames && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.005)
        clock.advance(by: 0.05)
        _ = map.renderFrame(scale: 1)
    }
    clock.advance(by: 1)
    return map.renderFrame(scale: 1)
}

/// Writes the sixteen zoom-2 tiles as PNG files `<dir>/2/x/y.png`.
@MainActor func writeTiles(_ dir: URL, _ image: UIImage) throws {
    for x in 0..<4 {
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("2/\(x)"), withIntermediateDirectories: true)
        for y in 0..<4 { try image.pngData()!.write(to: dir.appendingPathComponent("2/\(x)/\(y).png")) }
    }
}

/// A basemap that counts its draws (and draws nothing).
@MainActor final class CountingBasemap: BasemapRenderer {
    var draws = 0
    var needsFrames: Bool { false }
    var attribution: String? { nil }
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) { draws += 1 }
}

@MainActor @Suite(.serialized) struct TileLayerTests {
    /// The whole world at the lowest zoom the map allows (2): tiles x 1…2, y 1…2 of zoom 2 fill the 400 × 300 view.
    static let world = GMSCameraPosition(latitude: 0, longitude: 0, zoom: 2)

    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func syncAndURLTileLayersDrawWithOpacityAndZIndexAmongShapes() throws {
        let clock = installMapClock()
        let map = makeMap(Self.world)
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeTiles(dir, solidTile(UIColor(red: 0, green: 0, blue: 1, alpha: 1), border: .white))
        let checker = CheckerLayer(
            even: solidTile(UIColor(red: 1, green: 0.6, blue: 0, alpha: 1)),
            odd: solidTile(UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)))
        checker.zIndex = 0
        checker.map = map
        let polygon = GMSPolygon(
            path: GMSPath(coordinates: [
                CLLocationCoordinate2D(latitude: 30, longitude: -40),
                CLLocationCoordinate2D(latitude: 30, longitude: 40),
                CLLocationCoordinate2D(latitude: -30, longitude: 40),
                CLLocationCoordinate2D(latitude: -30, longitude: -40),
            ]))
        polygon.fillColor = UIColor(red: 0, green: 0.8, blue: 0, alpha: 1)
        polygon.strokeWidth = 0
        polygon.zIndex = 1
        polygon.map = map
        let url = GMSURLTileLayer { x, y, zoom in dir.appendingPathComponent("\(zoom)/\(x)/\(y).png") }
        url.zIndex = 2
        url.opacity = 0.5
        url.map = map
        let image = settledFrame(map, clock)
        // Centre: the polygon (above the checker) under the half-transparent URL tiles: (0, 0.8, 0)·0.5 + blue·0.5.
        #expect(isColor(pixelAt(image, 180, 130), 0, 102, 128, tolerance: 4), "\(pixelAt(image, 180, 130))")
        // Outside the polygon: the checker (tile 2/1/1, orange) under the URL layer.
        #expect(isColor(pixelAt(image, 100, 40), 128, 77, 128, tolerance: 4), "\(pixelAt(image, 100, 40))")
        // The URL tiles' white border (16 pixels) over the checker's tile 2/2/1 (purple).
        #expect(isColor(pixelAt(image, 205, 40), 191, 128, 191, tolerance: 4), "\(pixelAt(image, 205, 40))")
        // tileFor ran off the main thread.
        #expect(checker.calls == 4 && !checker.onMainThread.contains(true))
        expectGolden(image, "tile-layers-among-shapes")
        // zIndex order changes the picture: the checker on top hides the polygon.
        checker.zIndex = 3
        let reordered = settledFrame(map, clock)
        #expect(isColor(pixelAt(reordered, 180, 130), 255, 153, 0, tolerance: 4), "\(pixelAt(reordered, 180, 130))")
    }

    @Test func tileZoomShowsTilesAtAboutTheirPixelSize() {
        let layer = GMSTileLayer()
        #expect(layer.tileSize == 256 && layer.opacity == 1 && layer.fadeIn && layer.zIndex == 0 && layer.map == nil)
        #expect(layer.tileZoom(cameraZoom: 5.7, scale: 1) == 5)
        // 256-pixel tiles on a 2× screen come from one zoom deeper; 512-pixel (HiDPI) tiles at the camera's zoom.
        #expect(layer.tileZoom(cameraZoom: 5.7, scale: 2) == 6)
        layer.tileSize = 512
        #expect(layer.tileZoom(cameraZoom: 5.7, scale: 2) == 5)
        #expect(layer.tileZoom(cameraZoom: 30, scale: 1) == 22 && layer.tileZoom(cameraZoom: .nan, scale: 1) == 0)
    }

    @Test func noTileIsFinalAndNilIsTriedAgainLater() throws {
        let clock = installMapClock()
        let map = makeMap(Self.world)
        let layer = ScriptedLayer(image: solidTile(.gray))
        layer.fadeIn = false
        layer.map = map
        _ = map.renderFrame(scale: 1)
        for _ in 0..<5 {
            clock.advance(by: 0.1)
            _ = map.renderFrame(scale: 1)
        }
        let counts = layer.tileStore.requestCounts
        #expect(counts[TileID(z: 2, x: 1, y: 1)] == 1)
        #expect(counts[TileID(z: 2, x: 2, y: 1)] == 1)
        #expect(counts[TileID(z: 2, x: 1, y: 2)] == 1)
        // After the retry delay, only the nil tile is asked for again.
        clock.advance(by: 2.5)
        _ = map.renderFrame(scale: 1)
        let later = layer.tileStore.requestCounts
        #expect(later[TileID(z: 2, x: 1, y: 1)] == 2)
        #expect(later[TileID(z: 2, x: 2, y: 1)] == 1)
        #expect(later[TileID(z: 2, x: 1, y: 2)] == 1)
        // Drawn: the loaded tiles grey, the missing ones empty (plain basemap land).
        let image = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(image, 100, 250), 128, 128, 128, tolerance: 8), "\(pixelAt(image, 100, 250))")
        #expect(isLand(pixelAt(image, 300, 40)), "\(pixelAt(image, 300, 40))")
    }

    @Test func clearTileCacheAsksForEveryTileAgainAndLeftTilesAreNotRepeated() throws {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 3))
        let layer = CheckerLayer(even: solidTile(.red), odd: solidTile(.blue))
        layer.map = map
        _ = settledFrame(map, clock)
        let first = layer.calls
        #expect(first > 0)
        // Panning away and back: the first view's tiles are not asked for again.
        map.camera = GMSCameraPosition(latitude: 40, longitude: 100, zoom: 3)
        _ = settledFrame(map, clock)
        let afterPan = layer.calls
        map.camera = GMSCameraPosition(latitude: 0, longitude: 0, zoom: 3)
        _ = settledFrame(map, clock)
        #expect(layer.calls == afterPan)
        #expect(layer.tileStore.requestCounts.values.allSatisfy { $0 == 1 })
        layer.clearTileCache()
        _ = settledFrame(map, clock)
        #expect(layer.calls == afterPan + first)
    }

    @Test func fadeInRunsOnTheMapClockAndParentsStandIn() throws {
        let clock = installMapClock()
        let map = makeMap(Self.world)
        let layer = ScriptedLayer(image: solidTile(.black))
        layer.map = map
        let start = map.renderFrame(scale: 1)
        // Arrived this frame, faded in over 0.25 s: at first only the land shows.
        #expect(isLand(pixelAt(start, 100, 250)), "\(pixelAt(start, 100, 250))")
        clock.advance(by: 0.125)
        let half = map.renderFrame(scale: 1)
        let p = pixelAt(half, 100, 250)
        #expect(p.r > 60 && p.r < 200, "\(p)")
        let asksForFrames1 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(asksForFrames1)
        clock.advance(by: 0.5)
        let done = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(done, 100, 250), 0, 0, 0, tolerance: 4))
        // Zooming in: the zoom-2 tile stands in for its children until they load.
        let slow = CheckerLayer(even: solidTile(.red), odd: solidTile(.red))
        slow.fadeIn = false
        slow.map = map
        layer.map = nil
        _ = settledFrame(map, clock)
        map.camera = GMSCameraPosition(latitude: -20, longitude: -20, zoom: 3)
        let standIn = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(standIn, 200, 150), 255, 0, 0, tolerance: 4), "\(pixelAt(standIn, 200, 150))")
    }
}

/// `GMSMapView.mapType` with Waymark's raster sources.
@MainActor @Suite(.serialized) struct MapTypeTests {
    @Test func noneDrawsNoBasemapAndSatelliteDrawsTheRasterSource() throws {
        let clock = installMapClock()
        let map = makeMap(TileLayerTests.world)
        let dir = try TileLayerTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeTiles(dir, solidTile(UIColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)))
        let counting = CountingBasemap()
        map.basemap = counting
        _ = settledFrame(map, clock)
        let drawn = counting.draws
        #expect(drawn > 0)
        map.mapType = .none
        _ = map.renderFrame(scale: 1)
        #expect(counting.draws == drawn)
        #expect(map.activeBasemap == nil)
        map.setRasterSource("file://\(dir.path)/{z}/{x}/{y}.png", for: .satellite)
        map.mapType = .satellite
        let satellite = map.renderFrame(scale: 1)
        #expect(isColor(pixelAt(satellite, 200, 150), 51, 102, 153, tolerance: 3), "\(pixelAt(satellite, 200, 150))")
        #expect(GMSLog.messages.isEmpty, "\(GMSLog.messages)")
    }

    @Test func imageryTypesWithoutSourceFallBackToNormalWithOneWarning() throws {
        let clock = installMapClock()
        let map = makeMap(TileLayerTests.world)
        map.mapType = .terrain
        for _ in 0..<3 { #expect(isLand(pixelAt(settledFrame(map, clock), 200, 150))) }
        #expect(GMSLog.messages.count == 1)
        #expect(GMSLog.messages.first?.contains("terrain") == true)
        // A source that cannot be opened falls back too, with its own warning.
        map.setRasterSource("/no/such/imagery.mbtiles", for: .terrain)
        for _ in 0..<2 { #expect(isLand(pixelAt(map.renderFrame(scale: 1), 200, 150))) }
        #expect(GMSLog.messages.count == 2)
    }

    @Test func hybridDrawsImageryUnderTheVectorLabelsAndPOIsFollowWhatIsDrawn() throws {
        let (map, _, _, pois) = try POITapTests.helsinkiMap()
        let poi = try #require(pois.first)
        let dir = try TileLayerTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tile = solidTile(UIColor(red: 0.1, green: 0.3, blue: 0.1, alpha: 1))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("17"), withIntermediateDirectories: true)
        try tile.pngData()!.write(to: dir.appendingPathComponent("17/tile.png"))
        let point = CGPoint(x: poi.screenAnchor.x, y: poi.screenAnchor.y)
        guard case .poi = map.tapTarget(point) else {
            Issue.record("no POI under its own anchor in .normal")
            return
        }
        map.setRasterSource("file://\(dir.path)/{z}/tile.png", for: .hybrid)
        map.setRasterSource("file://\(dir.path)/{z}/tile.png", for: .satellite)
        map.mapType = .hybrid
        let hybrid = map.renderFrame(scale: 1)
        let basemap = try #require(map.activeBasemap as? VectorBasemapRenderer)
        let types = basemap.snapshotter.renderer.style.layers.map(\.type)
        #expect(types.first == .raster && types.dropFirst().allSatisfy { $0 == .symbol } && types.count > 1)
        #expect(isColor(pixelAt(hybrid, 5, 5), 26, 77, 26, tolerance: 3), "\(pixelAt(hybrid, 5, 5))")
        // Labels are drawn in hybrid, so its POIs stay tappable; satellite and none draw none.
        if case .poi = map.tapTarget(point) {} else { Issue.record("no POI in .hybrid") }
        map.mapType = .satellite
        _ = map.renderFrame(scale: 1)
        if case .poi = map.tapTarget(point) { Issue.record("a POI was hit in .satellite") }
        map.mapType = .none
        _ = map.renderFrame(scale: 1)
        if case .poi = map.tapTarget(point) { Issue.record("a POI was hit in .none") }
    }
}

import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapTestSupport
import Testing

private let styleFile = Fixtures.repositoryRoot.appendingPathComponent("Data/styles/default.json").path

/// Central Helsinki at a fractional zoom (tile images drawn at the frame's zoom and sub-pixel phase), 800×480.
private let helsinki = CameraState(
    center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 16.3, size: ScreenSize(width: 800, height: 480))

private func pinFonts() { Fixtures.pinFonts() }

/// How many pixels of two same-size images differ by more than `tolerance` in some channel.
private func differingPixels(_ a: RasterImage, _ b: RasterImage, tolerance: UInt8 = 0) -> Int {
    precondition(a.pixels.count == b.pixels.count)
    var count = 0
    var i = 0
    while i < a.pixels.count {
        for c in 0..<4
        where
            (a.pixels[i + c] > b.pixels[i + c] ? a.pixels[i + c] - b.pixels[i + c] : b.pixels[i + c] - a.pixels[i + c])
            > tolerance
        {
            count += 1
            break
        }
        i += 4
    }
    return count
}

@Test func aFrameMadeOnTwoThreadsIsTheSamePixelsAsOneMadeOnOne() throws {
    pinFonts()
    let serial = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: MapEngine(), tileThreads: 1))
    let parallel = try MapHost(
        styleFile: styleFile, options: MapRenderOptions(engine: MapEngine(), tileThreads: 2))
    // At scale 2 too: a tile thread draws its tile images' hairlines one device pixel wide, as the frame's thread does
    // (flat frames' images at the frame's scale, a pitched frame's finer ones sized for the frame's pixels).
    var pitched = helsinki
    (pitched.bearing, pitched.pitch) = (45, 50)
    for scale in [1.0, 2.0] {
        for view in [
            helsinki, pitched, CameraState(center: LatLng(latitude: 30, longitude: 10), zoom: 2.4, size: helsinki.size),
        ] {
            let a = try serial.render(camera: view, scale: scale)
            let b = try parallel.render(camera: view, scale: scale)
            #expect(parallel.renderer.lastFrameStatistics.tileImagesRendered > 2)
            #expect(a.width == b.width && a.height == b.height)
            #expect(differingPixels(a, b) == 0)
        }
    }
}

@Test func labelCandidatesBuiltByTheTileJobsPlaceTheLabelsTheFrameThreadWould() throws {
    pinFonts()
    let serial = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: MapEngine(), tileThreads: 1))
    let parallel = try MapHost(
        styleFile: styleFile, options: MapRenderOptions(engine: MapEngine(), tileThreads: 2))
    for view in [helsinki, CameraState(center: LatLng(latitude: 30, longitude: 10), zoom: 2.4, size: helsinki.size)] {
        // The labels and icons as text (tile images differ only in their backends' handle numbers): the backend's
        // fonts, since glyph-path labels are images too.
        serial.renderer.setGlyphs(nil)
        parallel.renderer.setGlyphs(nil)
        func labels(_ list: DisplayList) -> [Substring] {
            list.description.split(separator: "\n").filter { $0.contains("text") }
        }
        let a = labels(serial.renderer.displayList(camera: view))
        let b = labels(parallel.renderer.displayList(camera: view))
        let sa = serial.renderer.lastFrameStatistics
        let sb = parallel.renderer.lastFrameStatistics
        #expect(sb.symbolCandidates > 0)
        #expect(sa.symbolCandidates == sb.symbolCandidates)
        #expect(sa.labelsPlaced == sb.labelsPlaced)
        #expect(a.count >= sb.labelsPlaced)
        #expect(a == b)
    }
}

@Test func fourMapHostsOnOneThreadShareOneEngine() throws {
    pinFonts()
    let engine = MapEngine()
    let first = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: engine))
    _ = try first.render(camera: helsinki)
    let one = engine.cacheBytes
    var others: [MapHost] = []
    for _ in 0..<3 {
        let s = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: engine))
        _ = try s.render(camera: helsinki)
        #expect(s.renderer.lastFrameStatistics.tileImagesRendered == 0)
        others.append(s)
    }
    #expect(one > 1 << 20)
    #expect(Double(engine.cacheBytes) <= 1.25 * Double(one))
}

@Test func aSettledAsynchronousFrameIsTheSynchronousFrame() throws {
    pinFonts()
    let sync = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: MapEngine()))
    let expected = try sync.render(camera: helsinki)
    let settings = AsyncTileRendering(labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
    let async = try MapHost(
        styleFile: styleFile, options: MapRenderOptions(asyncTiles: settings, engine: MapEngine()))
    var list = async.renderer.displayList(camera: helsinki)
    let deadline = Date().addingTimeInterval(60)
    while async.renderer.hasPendingTiles && Date() < deadline {
        if !async.renderer.hasArrivedTiles { Thread.sleep(forTimeInterval: 0.01) }
        list = async.renderer.displayList(camera: helsinki)
    }
    #expect(!async.renderer.hasPendingTiles)
    // Labels placed from scratch, as the synchronous frame placed them (earlier frames had fewer tiles' labels).
    async.renderer.forgetLabelPlacement()
    list = async.renderer.displayList(camera: helsinki)
    let settled = try async.backend.render(list)
    let differing = differingPixels(expected, settled, tolerance: 2)
    #expect(differing <= expected.width * expected.height / 1000, "\(differing) pixels differ")
}

/// Central Helsinki tilted to 50° and turned by 20° (tiles of several zooms, images at several resolutions).
private let tiltedHelsinki: CameraState = {
    var camera = helsinki
    camera.pitch = 50
    camera.bearing = 20
    return camera
}()

/// An asynchronous renderer (its own engine) drawn at `camera` until no tile is pending (at most 300 s: a bound for
/// the loop, not a timing; a debug build on a loaded 2-core machine once needed more than 60 s); returns the last
/// frame's display list.
@discardableResult private func settle(_ snapshotter: MapHost, camera: CameraState) -> DisplayList {
    var list = snapshotter.renderer.displayList(camera: camera)
    let deadline = Date().addingTimeInterval(300)
    while snapshotter.renderer.hasPendingTiles && Date() < deadline {
        if !snapshotter.renderer.hasArrivedTiles { Thread.sleep(forTimeInterval: 0.01) }
        list = snapshotter.renderer.displayList(camera: camera)
    }
    return list
}

private func asynchronousMapHost() throws -> MapHost {
    let settings = AsyncTileRendering(labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
    return try MapHost(styleFile: styleFile, options: MapRenderOptions(asyncTiles: settings, engine: MapEngine()))
}

/// Whether a display list draws tile features as vectors (fills, strokes or line meshes).
private func drawsVectors(_ list: DisplayList) -> Bool {
    list.commands.contains { command in
        switch command {
        case .fill, .stroke, .lineMesh: return true
        default: return false
        }
    }
}

@Test func aSettledAsynchronousPitchedFrameIsTheSynchronousFrame() throws {
    pinFonts()
    let sync = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: MapEngine()))
    let expected = try sync.render(camera: tiltedHelsinki)
    let async = try asynchronousMapHost()
    settle(async, camera: tiltedHelsinki)
    #expect(!async.renderer.hasPendingTiles)
    async.renderer.forgetLabelPlacement()
    let list = async.renderer.displayList(camera: tiltedHelsinki)
    let stats = async.renderer.lastFrameStatistics
    #expect(stats.composedFromTileImages)
    #expect(stats.standIns == 0)
    #expect(list.commands.contains { if case .projectedImage = $0 { return true } else { return false } })
    #expect(!drawsVectors(list))
    let settled = try async.backend.render(list)
    let differing = differingPixels(expected, settled, tolerance: 2)
    #expect(differing <= expected.width * expected.height / 1000, "\(differing) pixels differ")
}

@Test func aPitchedAsynchronousFrameWhoseImagesAreNotReadyDrawsStandIns() throws {
    pinFonts()
    let sync = try MapHost(styleFile: styleFile, options: MapRenderOptions(engine: MapEngine()))
    let expected = try sync.render(camera: tiltedHelsinki)
    // Settled flat first at the tilted frame's zoom (the same tiles' flat images), a zoom out (ancestors' images)
    // and a zoom in (the children's, which cover only the middle of the tilted view); then the first tilted frame,
    // whose pitched images no worker has made yet.
    for (zoom, coversTheView) in [(16.3, true), (15.3, true), (17.3, false)] {
        let async = try asynchronousMapHost()
        var flat = helsinki
        flat.zoom = zoom
        settle(async, camera: flat)
        let list = async.renderer.displayList(camera: tiltedHelsinki)
        let stats = async.renderer.lastFrameStatistics
        #expect(stats.tilesPending > 0, "zoom \(zoom)")
        #expect(stats.standIns > 0, "zoom \(zoom)")
        #expect(!drawsVectors(list), "zoom \(zoom)")
        guard coversTheView else { continue }
        // Near the synchronous frame (blurrier, some labels missing), far from the background alone.
        let image = try async.backend.render(list)
        let far = differingPixels(expected, image, tolerance: 48)
        #expect(far <= expected.width * expected.height / 20, "zoom \(zoom): \(far) pixels far off")
        let background = try async.backend.render(
            DisplayList(size: list.size, scale: list.scale, commands: [list.commands[0]]))
        let bare = differingPixels(expected, background, tolerance: 48)
        #expect(bare > 2 * far, "zoom \(zoom): \(bare) pixels off the background alone, \(far) with stand-ins")
    }
}

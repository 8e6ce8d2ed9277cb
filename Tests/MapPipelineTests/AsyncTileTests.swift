import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// What the worker's backend and the arrival callback report to a test, and a gate that holds the worker inside
/// `render` until the test opens it. Every member takes the condition's lock (shared by the test and the worker).
final class WorkerProbe: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = true
    private(set) var entered = 0
    private(set) var rendered = 0
    private(set) var arrivals = 0

    func setOpen(_ value: Bool) {
        condition.lock()
        open = value
        condition.broadcast()
        condition.unlock()
    }

    /// Worker side: counts the render, waiting while the gate is closed.
    func passGate() {
        condition.lock()
        entered += 1
        condition.broadcast()
        while !open { condition.wait() }
        rendered += 1
        condition.broadcast()
        condition.unlock()
    }

    func arrived() {
        condition.lock()
        arrivals += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `predicate` holds (a guard against hanging, not a timing assertion). Returns whether it held.
    func wait(until predicate: (WorkerProbe) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 30)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(self) {
            if !condition.wait(until: deadline) { return predicate(self) }
        }
        return true
    }

    var counts: (entered: Int, rendered: Int, arrivals: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (entered, rendered, arrivals)
    }
}

/// The worker's backend: a ``RecordingBackend`` whose tile renders pass the probe's gate.
final class GatedBackend: RenderBackend {
    let probe: WorkerProbe
    let inner = RecordingBackend()
    init(probe: WorkerProbe) { self.probe = probe }
    var textMeasurer: any TextMeasurer { inner.textMeasurer }
    func render(_ list: DisplayList) throws -> RasterImage {
        probe.passGate()
        return try inner.render(list)
    }
    func renderImage(_ list: DisplayList) throws -> ImageHandle { try inner.renderImage(list) }
    func register(_ image: RasterImage) throws -> ImageHandle { try inner.register(image) }
    func unregister(_ handle: ImageHandle) { inner.unregister(handle) }
    func draw(_ list: DisplayList, into target: any RenderTarget) throws { try inner.draw(list, into: target) }
}

/// One source tile 0/0/0 (over-zoomed at every zoom): a square, a road and a named point.
private let asyncTile: [UInt8] = MVTWriter(layers: [
    ("shapes", [.init(geometry: .polygon([(1024, 1024), (3072, 1024), (3072, 3072), (1024, 3072)]))]),
    ("roads", [.init(geometry: .line([(0, 2048), (4096, 2048)]))]),
    ("pois", [.init(geometry: .point(2048, 1024), properties: ["name": "Cafe"], id: 7)]),
]).encode()

private let asyncLayers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
    {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}},
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#0000ff"}},
    {"id": "names", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": "{name}"}}
    """

private func asyncRenderer(
    probe: WorkerProbe, backend: RecordingBackend, budget: Double = .infinity, workers: Int? = nil
) throws -> MapRenderer {
    let options = MapRenderOptions(
        tileSize: 256, drawsAttribution: false,
        asyncTiles: AsyncTileRendering(
            labelBuildBudgetMilliseconds: budget, makeBackend: { GatedBackend(probe: probe) },
            onTileArrived: { probe.arrived() }), tileThreads: workers)
    return try MapRenderer(style: testStyle(layers: asyncLayers), backend: backend, options: options) { _, _ in
        MemoryTileSource(tiles: [TileID(z: 0, x: 0, y: 0): asyncTile], maxZoom: 0)
    }
}

private func images(_ list: DisplayList) -> [ImageCommand] {
    list.commands.compactMap { if case .image(let i) = $0 { return i } else { return nil } }
}

private func clips(_ list: DisplayList) -> Int {
    list.commands.filter { if case .clip = $0 { return true } else { return false } }.count
}

@Suite("Asynchronous tile rendering") struct AsyncTileTests {
    @Test func aFrameDrawsTheAncestorUntilTheWorkerHandsTheTileOver() throws {
        let probe = WorkerProbe()
        let backend = RecordingBackend()
        let r = try asyncRenderer(probe: probe, backend: backend)

        // Cold: nothing cached, so the frame has no tile image and no labels, and asks for the tile.
        let cold = r.displayList(camera: camera(zoom: 0))
        #expect(images(cold).isEmpty)
        #expect(r.lastFrameStatistics.tilesPending == 1)
        #expect(r.lastFrameStatistics.symbolCandidates == 0)
        #expect(r.hasPendingTiles)
        #expect(backend.renderedLists.isEmpty)  // the frame's own backend rasterised nothing
        #expect(probe.wait { $0.arrivals >= 1 })

        let warm = r.displayList(camera: camera(zoom: 0))
        #expect(r.lastFrameStatistics.tilesArrived == 1)
        #expect(r.lastFrameStatistics.tilesPending == 0)
        #expect(r.lastFrameStatistics.symbolCandidates == 1)
        #expect(!r.hasPendingTiles)
        let z0 = try #require(images(warm).first)
        #expect(abs(z0.rect.width - 256) < 1)

        // Zoom 1.2 with the worker held: the four z1 tiles are drawn from the z0 image, scaled and clipped.
        probe.setOpen(false)
        let standIn = r.displayList(camera: camera(zoom: 1.2))
        #expect(r.lastFrameStatistics.standIns == 4)
        #expect(r.lastFrameStatistics.symbolCandidates == 0)  // z1 data not handed over yet
        #expect(r.lastFrameStatistics.tilesPending == 4)
        #expect(clips(standIn) == 4)
        let ancestors = images(standIn)
        #expect(ancestors.count == 4)
        #expect(ancestors.allSatisfy { $0.image == z0.image && abs($0.rect.width - 256 * pow(2, 1.2)) < 1 })

        probe.setOpen(true)
        #expect(probe.wait { $0.arrivals >= 5 })
        let real = r.displayList(camera: camera(zoom: 1.2))
        #expect(r.lastFrameStatistics.standIns == 0)
        #expect(r.lastFrameStatistics.tilesPending == 0)
        #expect(clips(real) == 0)
        #expect(r.lastFrameStatistics.symbolCandidates == 2)  // as synchronous frames (below)
        let tiles = images(real)
        #expect(tiles.count == 4)
        #expect(tiles.allSatisfy { $0.image != z0.image && abs($0.rect.width - 256 * pow(2, 0.2)) < 1 })
    }

    @Test func requestsOfTilesThatLeftTheViewAreDropped() throws {
        let probe = WorkerProbe()
        // One worker: it holds one request while the others wait.
        let r = try asyncRenderer(probe: probe, backend: RecordingBackend(), workers: 1)
        probe.setOpen(false)
        var here = camera(zoom: 4)
        _ = r.displayList(camera: here)
        let first = r.lastFrameStatistics.tilesPending
        #expect(first >= 2)
        #expect(probe.wait { $0.entered >= 1 })  // the worker holds one of them

        // Far away: every waiting request of the first frame is stale.
        here.center = LatLng(latitude: 60, longitude: 100)
        _ = r.displayList(camera: here)
        let second = r.lastFrameStatistics.tilesPending
        #expect(r.staleTileRequestsDropped == first - 1)

        probe.setOpen(true)
        #expect(probe.wait { $0.arrivals >= 1 + second })
        _ = r.displayList(camera: here)
        #expect(r.lastFrameStatistics.tilesPending == 0)
        #expect(r.lastFrameStatistics.standIns == 0)
        // Only the tile in hand when the view moved and the second frame's tiles were rasterised.
        #expect(probe.counts.rendered == 1 + second)
    }

    @Test func aRendererReleasedWhileTheWorkerIsBusyStopsQuietly() throws {
        let probe = WorkerProbe()
        do {
            let r = try asyncRenderer(probe: probe, backend: RecordingBackend())
            probe.setOpen(false)
            _ = r.displayList(camera: camera(zoom: 0))
            #expect(probe.wait { $0.entered >= 1 })
        }
        // The renderer is gone; the worker finishes its tile, hands nothing over and ends.
        probe.setOpen(true)
        #expect(probe.wait { $0.rendered >= 1 })
        #expect(probe.counts.arrivals == 0)
    }

    /// With no time for labels each frame builds one tile's symbol layer: the rest keep the candidates of their
    /// previous zoom step (or none yet) and the renderer asks for another frame until all are built.
    @Test func labelWorkOverTheBudgetWaitsForLaterFrames() throws {
        let probe = WorkerProbe()
        let r = try asyncRenderer(probe: probe, backend: RecordingBackend(), budget: 0)
        _ = r.displayList(camera: camera(zoom: 1.2))
        #expect(probe.wait { $0.arrivals >= 4 })
        var frames = 0
        repeat {
            _ = r.displayList(camera: camera(zoom: 1.2))
            frames += 1
        } while r.wantsAnotherFrame && frames < 20
        #expect(frames == 4)  // four tiles, one symbol layer each
        #expect(!r.wantsAnotherFrame && !r.hasPendingTiles)
        #expect(r.lastFrameStatistics.symbolCandidates == 2)
        // The next zoom step: one tile rebuilt, three keep their previous candidates.
        _ = r.displayList(camera: camera(zoom: 1.25))
        #expect(r.lastFrameStatistics.symbolCandidates == 2)
        #expect(r.wantsAnotherFrame)
    }

    @Test func synchronousModeIsUnchanged() throws {
        let backend = RecordingBackend()
        let r = try MapRenderer(
            style: testStyle(layers: asyncLayers), backend: backend,
            options: MapRenderOptions(tileSize: 256, drawsAttribution: false)
        ) { _, _ in MemoryTileSource(tiles: [TileID(z: 0, x: 0, y: 0): asyncTile], maxZoom: 0) }
        let list = r.displayList(camera: camera(zoom: 1.2))
        #expect(images(list).count == 4)
        #expect(r.lastFrameStatistics.tilesPending == 0)
        // The point lies on the edge the two northern z1 tiles share, so both carry it.
        #expect(r.lastFrameStatistics.symbolCandidates == 2)
        #expect(!r.hasPendingTiles)
    }

    /// A worker may finish a tile after the frame took the results and before it hands over its jobs; that frame
    /// still lists the tile as missing. Its result waits for the next frame, so the job is not made a second time
    /// (from the same fetched answers: a failed fetch would count as two failures and double the retry's wait).
    @Test func aJobWhoseResultWaitsForTheNextFrameIsNotMadeAgain() {
        let queue = TileWorkQueue(limit: 8) {}
        let key = TileImageKey(revision: 0, z: 2, x: 1, y: 1, pixelScale: 1, run: 0)
        let job = TileJob(key: key, images: [], tileSize: 512, spriteVersion: 0, sprite: nil, priority: 0)
        queue.replacePending(with: [job])
        #expect(queue.next()?.key == key)
        queue.finish(TileResult(key: key, images: [], prepared: [:], sourceData: [:], failed: true))
        // The frame that missed the result asks for the tile again.
        queue.replacePending(with: [job])
        let stopper = DispatchWorkItem { queue.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2, execute: stopper)
        // `next()` blocks until the stop: nothing is waiting.
        #expect(queue.next() == nil)
        // Once the result is taken, a later frame's job for the tile is made as usual.
        let fresh = TileWorkQueue(limit: 8) {}
        fresh.replacePending(with: [job])
        _ = fresh.next()
        fresh.finish(TileResult(key: key, images: [], prepared: [:], sourceData: [:], failed: true))
        #expect(fresh.takeResults().count == 1)
        fresh.replacePending(with: [job])
        #expect(fresh.next()?.key == key)
    }
}

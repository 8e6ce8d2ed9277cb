// Asynchronous tile rendering: missing tile images (and the decoded, prepared tile data labels need) are made on a
// worker thread with its own renderer and backend, while frames draw the best stand-in (MapLibre/Leaflet style:
// an ancestor's cached image scaled and cropped, else cached children, else the background).
import Foundation
import MapData
import MapGeometry
import MapRender
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opt-in asynchronous tile rendering for a ``MapRenderer`` (``MapRenderOptions/asyncTiles``).
///
/// With it, a frame never reads, decodes, styles or rasterises a tile itself: missing tiles are queued to one worker
/// thread that owns a second renderer (same style, same tile sources, its own backend from ``makeBackend``) and
/// hands back the tile image pixels and the tile's prepared features; the next frame registers them. Until then the
/// frame draws a stand-in and leaves out the tile's labels. Without it (the default) frames are complete and
/// deterministic, as snapshots, goldens and render tests need.
///
/// Thread rules: the closures are called on the worker thread (``makeBackend``, once) and on whichever thread
/// finishes a tile (``onTileArrived``); both must be safe to call from any thread. The worker runs at a lower
/// scheduling priority (nice +10 on Linux), so on a busy machine frames win the CPU over tiles. Tile sources are shared with the
/// worker, which is sound because ``TileSource`` is `Sendable` (`MBTilesSource` locks around its SQLite statement,
/// and in asynchronous mode the frame's thread never reads tiles).
public struct AsyncTileRendering: Sendable {
    /// Creates the worker's backend, on the worker thread (for example `{ CairoBackend() }`). Its images never leave
    /// the worker: tiles travel as ``RasterImage`` pixels and are registered with the frame's backend.
    public var makeBackend: @Sendable () -> any RenderBackend
    /// Called on the worker thread after each finished tile is queued for the next frame (wake the host's event
    /// loop here, e.g. with `SDL_PushEvent`). Must not call back into the renderer.
    public var onTileArrived: @Sendable () -> Void
    /// The most tile requests kept waiting; the rest of a frame's missing tiles (the ones farthest from the centre)
    /// are asked for again by later frames. `1...4096`, default 64.
    public var queueLimit: Int
    /// Milliseconds a frame may spend building label candidates of tiles (style evaluation of their symbol layers,
    /// on the frame's thread) before the rest wait for the next frame: meanwhile a tile keeps the candidates of the
    /// zoom step it last had, or shows no labels yet, and ``MapRenderer/wantsAnotherFrame`` asks for that frame.
    /// Each frame builds at least one tile's layer. Default 4; `.infinity` builds everything in the frame; non-finite
    /// or negative values mean `.infinity`.
    public var labelBuildBudgetMilliseconds: Double

    /// Creates the settings.
    /// - Parameters:
    ///   - queueLimit: see ``queueLimit`` (clamped to `1...4096`). Default 64.
    ///   - labelBuildBudgetMilliseconds: see ``labelBuildBudgetMilliseconds``. Default 4.
    ///   - makeBackend: see ``makeBackend``.
    ///   - onTileArrived: see ``onTileArrived``. Default: nothing.
    public init(
        queueLimit: Int = 64, labelBuildBudgetMilliseconds: Double = 4,
        makeBackend: @escaping @Sendable () -> any RenderBackend, onTileArrived: @escaping @Sendable () -> Void = {}
    ) {
        self.queueLimit = min(max(queueLimit, 1), 4096)
        self.labelBuildBudgetMilliseconds =
            labelBuildBudgetMilliseconds.isFinite && labelBuildBudgetMilliseconds >= 0
            ? labelBuildBudgetMilliseconds : .infinity
        self.makeBackend = makeBackend
        self.onTileArrived = onTileArrived
    }
}

/// One tile asked of the worker.
struct TileJob: Sendable {
    /// The canonical tile and the frame's revision and scale (``key``).
    let key: TileImageKey
    /// Whether a tile image is wanted too (flat frames composed from tile images), or only the prepared data.
    var wantsImage: Bool
    /// The requester's tile size and sprite (the worker follows their changes).
    let tileSize: Double
    let spriteVersion: Int
    let sprite: SpriteSheet?
    /// Distance from the frame's centre in tiles (nearest first).
    let priority: Double

    var tile: TileID { TileID(z: key.z, x: key.x, y: key.y) }
}

/// What the worker hands back for one tile.
struct TileResult: Sendable {
    let key: TileImageKey
    /// Whether ``image`` was asked for.
    let wantsImage: Bool
    /// The tile image's pixels; `nil` when the tile draws nothing or the backend failed.
    let image: RasterImage?
    /// Every used source layer's prepared features for the tile.
    let prepared: [PreparedKey: PreparedTile]
    /// Per source: the source tile's cache key and whether the source had data there (for attribution).
    let sourceData: [SourceDataKey: Bool]
}

/// A source tile for the attribution bookkeeping of asynchronous frames.
struct SourceDataKey: Hashable, Sendable {
    let source: String
    let address: TileAddress
}

/// The queue between a renderer and its worker thread. Every member takes `condition`'s lock, so it is shared
/// across the two threads (`@unchecked Sendable`: the lock is the synchronisation).
final class TileWorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [TileJob] = []
    private var inFlight: TileImageKey?
    private var results: [TileResult] = []
    private var stopped = false
    private var droppedCount = 0
    let limit: Int
    let onArrival: @Sendable () -> Void

    init(limit: Int, onArrival: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.onArrival = onArrival
    }

    /// Replaces the waiting requests with `jobs` (the latest frame's missing tiles, most urgent first): requests of
    /// tiles no longer in view are dropped, and at most ``limit`` wait. A job for the tile being worked on is left
    /// out. Returns how many waiting requests were dropped as stale.
    @discardableResult func replacePending(with jobs: [TileJob]) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let wanted = Set(jobs.map(\.key))
        let stale = pending.filter { !wanted.contains($0.key) }.count
        droppedCount += stale
        pending = Array(jobs.lazy.filter { $0.key != self.inFlight }.prefix(limit))
        if !pending.isEmpty { condition.signal() }
        return stale
    }

    /// Requests dropped as stale since the queue was made.
    var staleDropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }

    /// The finished tiles since the last call, oldest first.
    func takeResults() -> [TileResult] {
        condition.lock()
        defer { condition.unlock() }
        let out = results
        results = []
        return out
    }

    /// Whether finished tiles wait to be taken by a frame.
    var hasResults: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !results.isEmpty
    }

    /// Worker side: blocks until a job is waiting (taking the most urgent) or the queue is stopped (`nil`).
    func next() -> TileJob? {
        condition.lock()
        defer { condition.unlock() }
        inFlight = nil
        while pending.isEmpty && !stopped { condition.wait() }
        if stopped { return nil }
        let job = pending.removeFirst()
        inFlight = job.key
        return job
    }

    /// Worker side: queues a finished tile for the next frame and calls ``onArrival`` (outside the lock).
    func finish(_ result: TileResult) {
        condition.lock()
        if stopped {
            condition.unlock()
            return
        }
        results.append(result)
        inFlight = nil
        condition.unlock()
        onArrival()
    }

    /// Stops the worker after its current job; later results are discarded.
    func stop() {
        condition.lock()
        stopped = true
        pending = []
        results = []
        condition.broadcast()
        condition.unlock()
    }
}

/// Makes the calling thread yield the CPU to the frames' thread: nice +10 for this thread alone on Linux (where
/// nice values are per thread); elsewhere nothing.
private func lowerThisThreadsPriority() {
    #if os(Linux)
        // `who` 0 is the calling thread: Linux keeps nice values per thread (setpriority(2), "BUGS").
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    #endif
}

extension MapRenderer {
    /// Starts the worker thread of asynchronous mode. The worker's renderer is created on the worker thread and
    /// never leaves it; the thread ends when ``TileWorkQueue/stop()`` is called (the renderer's `deinit`).
    static func startWorker(
        queue: TileWorkQueue, settings: AsyncTileRendering, style: Style, options: MapRenderOptions,
        sources: [String: ResolvedSource]
    ) {
        let workerOptions = {
            var o = options
            o.asyncTiles = nil
            o.drawsAttribution = false
            return o
        }()
        let thread = Thread {
            lowerThisThreadsPriority()
            let worker = MapRenderer(
                style: style, backend: settings.makeBackend(), options: workerOptions, resolved: sources)
            var spriteVersion = 0
            while let job = queue.next() {
                if job.key.revision != worker.revision || job.tileSize != worker.options.tileSize {
                    worker.options.tileSize = job.tileSize
                    worker.invalidate()
                    worker.revision = job.key.revision
                }
                if job.spriteVersion != spriteVersion {
                    worker.setSprite(job.sprite)
                    spriteVersion = job.spriteVersion
                }
                queue.finish(worker.workOnTile(job))
            }
        }
        thread.name = "waymark.tiles"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Worker side: decodes and prepares every used source layer of the job's tile and, when asked, rasterises
    /// its image (the same list as the synchronous path, ``tileImageList(_:scale:)``).
    func workOnTile(_ job: TileJob) -> TileResult {
        let tile = job.tile
        var prepared: [PreparedKey: PreparedTile] = [:]
        for (sourceID, sourceLayer) in usedSourceLayers {
            _ = preparedFeatures(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile)
            let key = PreparedKey(source: sourceID, layer: sourceLayer, tile: tile)
            if let p = self.prepared.value(for: key) { prepared[key] = p }
        }
        var sourceData: [SourceDataKey: Bool] = [:]
        for source in sources.values {
            guard let key = sourceKey(source, tile) else { continue }
            sourceData[SourceDataKey(source: source.id, address: key.address)] = decodedTile(source, key).tile != nil
        }
        var image: RasterImage?
        if job.wantsImage, let list = tileImageList(tile, scale: job.key.pixelScale) {
            image = try? backend.render(list)
        }
        return TileResult(
            key: job.key, wantsImage: job.wantsImage, image: image, prepared: prepared, sourceData: sourceData)
    }

    /// The (source id, source layer) pairs `layers`' non-background layers read from `sources`, in a stable order
    /// (``usedSourceLayers``, computed once when the renderer is made).
    static func sourceLayers(of layers: [CompiledLayer], in sources: [String: ResolvedSource]) -> [(String, String)] {
        var seen = Set<String>()
        var out: [(String, String)] = []
        for layer in layers where layer.type != .background {
            guard let s = layer.layer.source, sources[s] != nil else { continue }
            let l = layer.layer.sourceLayer ?? ""
            if seen.insert(s + "\u{0}" + l).inserted { out.append((s, l)) }
        }
        return out
    }

    // MARK: Frame side

    /// Monotonic nanoseconds (the label budget's clock).
    static func monotonicNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// Starts a frame's label budget (asynchronous mode).
    func startLabelBudget() {
        symbolWorkDeferred = false
        symbolBuildsThisFrame = 0
        guard let settings = options.asyncTiles, settings.labelBuildBudgetMilliseconds.isFinite else {
            labelBudgetDeadline = .max
            return
        }
        labelBudgetDeadline = Self.monotonicNanoseconds() + UInt64(settings.labelBuildBudgetMilliseconds * 1e6)
    }

    /// Whether the frame's label budget is spent (never before the frame's first build, so labels always progress).
    var labelBudgetSpent: Bool {
        labelBudgetDeadline != .max && symbolBuildsThisFrame > 0 && Self.monotonicNanoseconds() > labelBudgetDeadline
    }

    /// Takes the worker's finished tiles into the caches (results of older revisions are dropped).
    func integrateArrivedTiles() {
        guard let queue = workQueue else { return }
        for result in queue.takeResults() where result.key.revision == revision {
            for (key, tile) in result.prepared where !prepared.contains(key) {
                _ = prepared.insert(tile, for: key, cost: tile.cost)
            }
            if sourceDataSeen.count > 16_384 { sourceDataSeen.removeAll() }
            for (key, hasData) in result.sourceData { sourceDataSeen[key] = hasData }
            guard result.wantsImage else { continue }
            // Hook (branch `renderer`): the image holds one tile image per layer run, stacked; TileImages.swift
            // cuts it apart and caches each run's image.
            storeTileImageStack(result.image, for: result.key)
        }
    }

    /// Whether every used source layer of `tile` is prepared (asynchronous mode: the frame may build its labels).
    func tileDataReady(_ tile: TileID) -> Bool {
        for (sourceID, sourceLayer) in usedSourceLayers {
            guard let source = sources[sourceID], sourceKey(source, tile) != nil else { continue }
            if !prepared.contains(PreparedKey(source: sourceID, layer: sourceLayer, tile: tile)) { return false }
        }
        return true
    }

    /// Asks the worker for `tile` (canonical) in this frame; merged with an earlier request of the same frame.
    func requestTile(_ tile: TileID, scale: Double, wantsImage: Bool) {
        let key = TileImageKey(revision: revision, z: tile.z, x: tile.x, y: tile.y, pixelScale: scale)
        if let i = frameRequestIndex[key] {
            if wantsImage { frameRequests[i].wantsImage = true }
            return
        }
        frameRequestIndex[key] = frameRequests.count
        let n = Double(1 << tile.z)
        let dx = (Double(tile.x) + 0.5) / n - frameCenter.x
        let dy = (Double(tile.y) + 0.5) / n - frameCenter.y
        frameRequests.append(
            TileJob(
                key: key, wantsImage: wantsImage, tileSize: options.tileSize, spriteVersion: spriteVersion,
                sprite: sprite, priority: (dx * dx + dy * dy).squareRoot() * n))
    }

    /// Hands the frame's requests to the worker, nearest the centre first (this replaces older, now stale ones).
    func submitFrameRequests() {
        guard let queue = workQueue else { return }
        let jobs = frameRequests.sorted { $0.priority < $1.priority }
        frameStats.tilesPending = jobs.count
        pendingTileCount = jobs.count
        queue.replacePending(with: jobs)
        frameRequests = []
        frameRequestIndex = [:]
    }

    /// The stand-in commands for a tile whose image is not there yet: the nearest cached ancestor's image scaled up
    /// and clipped to the tile, else the cached images of its four children, else nothing (the background shows).
    /// `place` maps a tile to its north-up rectangle in points.
    func standIn(for tile: TileID, scale: Double, place: (TileID) -> RenderRect) -> [DrawCommand] {
        let canonical = tile.canonical
        var z = canonical.z - 1
        var x = canonical.x / 2
        var y = canonical.y / 2
        while z >= max(0, canonical.z - 8) {
            let key = TileImageKey(revision: revision, z: z, x: x, y: y, pixelScale: scale)
            if let image = tileImages.image(for: key) {
                let ancestor = TileID(z: z, unwrappedX: (tile.unwrappedX >> (tile.z - z)), y: y)
                let clip = place(tile)
                guard clip.width > 0, clip.height > 0 else { return [] }
                frameStats.standIns += 1
                return [.save, .clip(clip), .image(ImageCommand(image: image, rect: place(ancestor))), .restore]
            }
            if emptyTileImages.contains(key) { return [] }
            z -= 1
            x /= 2
            y /= 2
        }
        guard canonical.z < 24 else { return [] }
        var out: [DrawCommand] = []
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let key = TileImageKey(
                revision: revision, z: canonical.z + 1, x: canonical.x * 2 + dx, y: canonical.y * 2 + dy,
                pixelScale: scale)
            guard let image = tileImages.image(for: key) else { continue }
            let child = TileID(z: canonical.z + 1, unwrappedX: tile.unwrappedX * 2 + dx, y: canonical.y * 2 + dy)
            out.append(.image(ImageCommand(image: image, rect: place(child))))
        }
        if !out.isEmpty { frameStats.standIns += 1 }
        return out
    }
}

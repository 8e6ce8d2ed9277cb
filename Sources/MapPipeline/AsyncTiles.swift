// Asynchronous tile rendering: missing tile images (and the decoded, prepared tile data labels need) are made on a
// worker thread with its own renderer and backend, while frames draw the best stand-in (MapLibre/Leaflet style:
// an ancestor's cached image scaled and cropped, else cached children, else the background).
import Foundation
import MapData
import MapDrawing
import MapGeometry
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
    /// Seconds on ``MapRenderer/clock`` before a tile a source failed to give (a 5xx or connection error after the
    /// source's own retries) is asked for again; each further failure doubles it, at most 60 s. Meanwhile its
    /// stand-in (the parent's image) is drawn and nothing drawn is blanked. `0...60`, default 1.
    public var retryBaseDelay: Double
    /// How many times a failed tile is asked for again before it stays on its stand-in until
    /// ``MapRenderer/invalidate()``. `0...20`, default 5.
    public var maxTileRetries: Int

    /// Creates the settings.
    /// - Parameters:
    ///   - queueLimit: see ``queueLimit`` (clamped to `1...4096`). Default 64.
    ///   - labelBuildBudgetMilliseconds: see ``labelBuildBudgetMilliseconds``. Default 4.
    ///   - retryBaseDelay: see ``retryBaseDelay`` (clamped; non-finite means 1). Default 1.
    ///   - maxTileRetries: see ``maxTileRetries`` (clamped). Default 5.
    ///   - makeBackend: see ``makeBackend``.
    ///   - onTileArrived: see ``onTileArrived``. Default: nothing.
    public init(
        queueLimit: Int = 64, labelBuildBudgetMilliseconds: Double = 4, retryBaseDelay: Double = 1,
        maxTileRetries: Int = 5, makeBackend: @escaping @Sendable () -> any RenderBackend,
        onTileArrived: @escaping @Sendable () -> Void = {}
    ) {
        self.queueLimit = min(max(queueLimit, 1), 4096)
        self.retryBaseDelay = retryBaseDelay.isFinite ? min(max(retryBaseDelay, 0), 60) : 1
        self.maxTileRetries = min(max(maxTileRetries, 0), 20)
        self.labelBuildBudgetMilliseconds =
            labelBuildBudgetMilliseconds.isFinite && labelBuildBudgetMilliseconds >= 0
            ? labelBuildBudgetMilliseconds : .infinity
        self.makeBackend = makeBackend
        self.onTileArrived = onTileArrived
    }
}

/// One tile a frame lacks (made by a tile thread or asked of a worker; TileSupply.swift).
struct TileJob: Sendable {
    /// The canonical tile and the frame's revision and scale (``key``, run 0).
    let key: TileImageKey
    /// The tile images wanted (flat frames composed from tile images), none when only the prepared data is.
    var images: [TileImageSpec]
    /// The requester's tile size and sprite (the worker follows their changes).
    let tileSize: Double
    let spriteVersion: Int
    let sprite: SpriteSheet?
    /// Distance from the frame's centre in tiles (nearest first).
    let priority: Double
    /// The source tiles of asynchronous sources (``TileSource/isAsynchronous``) the job needs fetched first.
    var fetches: [SourceDataKey] = []
    /// Their answers, attached when the worker takes the job.
    var fetched: [SourceDataKey: TileLoadResult] = [:]
    /// The label candidates wanted (synchronous frames: symbol layers of the tile's covering copies not cached at
    /// the frame's zoom step).
    var symbols: [SymbolSpec] = []
    /// The requester's glyph store (``MapRenderer/setGlyphs(_:)``), so the worker measures labels as the frame draws
    /// them; `nil` for the backend's fonts.
    var glyphs: GlyphStore? = nil

    var tile: TileID { TileID(z: key.z, x: key.x, y: key.y) }
    /// Whether tile images are wanted too.
    var wantsImage: Bool { !images.isEmpty }
}

/// What a tile thread or worker hands back for one tile.
struct TileResult: Sendable {
    let key: TileImageKey
    /// The asked tile images, as made.
    let images: [(TileImageSpec, MadeTileImage)]
    /// Every used source layer's prepared features for the tile.
    let prepared: [PreparedKey: PreparedTile]
    /// Per source: the source tile's cache key and whether the source had data there (for attribution).
    let sourceData: [SourceDataKey: Bool]
    /// The asked label candidates, as built.
    var symbols: [MadeSymbols] = []
    /// Whether a source failed to give the tile (after its retries): the tile is not asked for again at this
    /// revision and frames keep drawing its stand-in.
    var failed = false
}

/// A source tile for the attribution bookkeeping of asynchronous frames.
struct SourceDataKey: Hashable, Sendable {
    let source: String
    let address: TileID
}

/// The queue between a renderer and its worker threads, and the fetch stage in front of it. Every member takes
/// `condition`'s lock, so it is shared across threads (`@unchecked Sendable`: the lock is the synchronisation).
///
/// Fetch stage (the tile-provider seam's only consumer): when a frame replaces the waiting jobs, the source tiles
/// their asynchronous sources need are requested at once (concurrently; the source bounds its own concurrency),
/// with the job's priority; requests no job wants any more are cancelled (tiles that left the view). The worker
/// takes the most urgent job whose fetches have all answered, so it never waits on the network.
final class TileWorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [TileJob] = []
    private var inFlight = Set<TileImageKey>()
    private var results: [TileResult] = []
    private var stopped = false
    private var droppedCount = 0
    /// Answered fetches still wanted by a waiting job, and the requests on their way (handle once known).
    private var fetched: [SourceDataKey: TileLoadResult] = [:]
    private var fetching: [SourceDataKey: TileRequestHandle?] = [:]
    private var cancelledCount = 0
    let limit: Int
    let onArrival: @Sendable () -> Void
    let sources: [String: ResolvedSource]

    init(limit: Int, sources: [String: ResolvedSource] = [:], onArrival: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.sources = sources
        self.onArrival = onArrival
    }

    /// Replaces the waiting requests with `jobs` (the latest frame's missing tiles, most urgent first): requests of
    /// tiles no longer in view are dropped, and at most ``limit`` wait. A job for a tile being worked on, or whose
    /// result waits for the next frame, is left out: a worker may finish it between the frame taking the results
    /// and handing over its jobs, and making it again would reuse the same fetched answers (a failure would then
    /// count twice and double the retry's backoff). Starts the fetches the waiting jobs need and cancels those no
    /// job needs. Returns how many waiting requests were dropped as stale.
    @discardableResult func replacePending(with jobs: [TileJob]) -> Int {
        condition.lock()
        let wanted = Set(jobs.map(\.key))
        let stale = pending.filter { !wanted.contains($0.key) }.count
        droppedCount += stale
        let finished = Set(results.lazy.map(\.key))
        pending = Array(
            jobs.lazy.filter { !self.inFlight.contains($0.key) && !finished.contains($0.key) }.prefix(limit))
        var wantedFetches: [SourceDataKey: Double] = [:]
        for job in pending {
            for key in job.fetches { wantedFetches[key] = min(wantedFetches[key] ?? .infinity, job.priority) }
        }
        fetched = fetched.filter { wantedFetches[$0.key] != nil }
        var toCancel: [TileRequestHandle] = []
        for (key, handle) in fetching where wantedFetches[key] == nil {
            fetching[key] = nil
            if let handle { toCancel.append(handle) }
        }
        cancelledCount += toCancel.count
        let toStart = wantedFetches.filter { fetched[$0.key] == nil && fetching[$0.key] == nil }
            .sorted { $0.value < $1.value }
        for (key, _) in toStart { fetching[key] = .some(nil) }
        if !pending.isEmpty { condition.signal() }
        condition.unlock()
        for handle in toCancel { handle.cancel() }
        for (key, priority) in toStart {
            guard let source = sources[key.source] else {
                deliver(key, .success(nil))
                continue
            }
            let handle = source.tiles.requestTile(at: key.address, priority: priority) { [weak self] result in
                self?.deliver(key, result)
            }
            condition.lock()
            if fetching[key] != nil { fetching[key] = handle }
            condition.unlock()
        }
        return stale
    }

    /// A fetch answered (any thread): kept for the jobs that want it, the worker woken. Answers of cancelled
    /// requests are dropped.
    private func deliver(_ key: SourceDataKey, _ result: TileLoadResult) {
        condition.lock()
        if fetching.removeValue(forKey: key) != nil {
            fetched[key] = result
            condition.signal()
        }
        condition.unlock()
    }

    /// Fetches cancelled because no waiting job wanted them any more (tiles that left the view).
    var fetchesCancelled: Int {
        condition.lock()
        defer { condition.unlock() }
        return cancelledCount
    }

    /// Fetches on their way.
    var fetchesInFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return fetching.count
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

    /// Worker side: blocks until a job whose fetches have all answered is waiting (taking the most urgent, with
    /// the answers attached) or the queue is stopped (`nil`). Several workers may wait at once.
    func next() -> TileJob? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if let i = pending.firstIndex(where: { $0.fetches.allSatisfy { fetched[$0] != nil } }) {
                var job = pending.remove(at: i)
                for key in job.fetches { job.fetched[key] = fetched[key] }
                inFlight.insert(job.key)
                return job
            }
            condition.wait()
        }
        return nil
    }

    /// Worker side: queues a finished tile for the next frame and calls ``onArrival`` (outside the lock).
    func finish(_ result: TileResult) {
        condition.lock()
        if stopped {
            condition.unlock()
            return
        }
        results.append(result)
        inFlight.remove(result.key)
        condition.unlock()
        onArrival()
    }

    /// Stops the worker after its current job; later results are discarded.
    func stop() {
        condition.lock()
        stopped = true
        pending = []
        results = []
        let handles = fetching.values.compactMap { $0 }
        fetching = [:]
        fetched = [:]
        condition.broadcast()
        condition.unlock()
        for handle in handles { handle.cancel() }
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
    /// Starts worker thread `index` of asynchronous mode. Its renderer (a lane sharing the sources and the engine,
    /// with its own backend) is created on the worker thread and never leaves it; the thread ends when
    /// ``TileWorkQueue/stop()`` is called (the owner's `deinit`).
    static func startWorker(
        index: Int, queue: TileWorkQueue, settings: AsyncTileRendering, style: Style, options: MapRenderOptions,
        sources: [String: ResolvedSource]
    ) {
        let workerOptions = {
            var o = options
            o.asyncTiles = nil
            o.drawsAttribution = false
            o.makeTileBackend = nil
            return o
        }()
        let thread = Thread {
            lowerThisThreadsPriority()
            let worker = MapRenderer(
                style: style, backend: settings.makeBackend(), options: workerOptions, resolved: sources, lane: true)
            while let job = queue.next() {
                worker.follow(
                    tileSize: job.tileSize, spriteVersion: job.spriteVersion, sprite: job.sprite, glyphs: job.glyphs)
                worker.revision = job.key.revision
                worker.fetchedTiles = job.fetched
                queue.finish(worker.workOnTile(job, keepsImages: false))
                worker.fetchedTiles = [:]
            }
        }
        thread.name = "waymark.tiles.\(index)"
        thread.stackSize = 4 << 20
        thread.start()
    }

    // MARK: Frame side

    /// Synchronous frames over asynchronous sources (snapshots): the source stage fetches every source tile of
    /// `tiles` (``fetchAddresses(_:_:)``) not decoded yet, all at once, and waits for the answers
    /// (``SourceTiles/prefetchAsynchronousSources(_:addresses:decodedRaster:)``). Only where the supply says so
    /// (``TileSupply/waitsForSources``).
    func prefetchAsynchronousSources(_ tiles: [TileID]) {
        sourceTiles.prefetchAsynchronousSources(
            tiles, addresses: fetchAddresses, decodedRaster: rasterState.decoded.contains)
    }

    /// The source tiles of `source` a covering tile needs: the raster layer's tiles for a raster source
    /// (``rasterAddresses(_:definition:tile:)``), else the (over-zoomed) vector tile.
    func fetchAddresses(_ source: ResolvedSource, _ tile: TileID) -> [TileID] {
        if case .raster(let definition)? = style.sources[source.id] {
            return rasterAddresses(source, definition: definition, tile: tile.canonical)
        }
        return sourceKey(source, tile).map { [$0.address] } ?? []
    }
}

extension TileImageStage {
    /// The stand-in images for a tile whose image of `run` is not there yet (or is fading in): the nearest cached
    /// ancestor's image scaled up, drawn over the tile's rectangle only, else the cached images of its four
    /// children, else nothing (the background shows). `place` maps a tile to its north-up rectangle in points.
    func standIn(for tile: TileID, scale: Double, run: Int = 0, place: (TileID) -> RenderRect) -> [PlacedTileImage] {
        let canonical = tile.canonical
        var z = canonical.z - 1
        var x = canonical.x / 2
        var y = canonical.y / 2
        while z >= max(0, canonical.z - 8) {
            let key = TileImageKey(revision: revision, z: z, x: x, y: y, pixelScale: scale, run: run)
            let cached = engine.value(.image(group: group, key: key))
            if case .image(let entry)? = cached, let image = entry.handle {
                let ancestor = TileID(z: z, unwrappedX: (tile.unwrappedX >> (tile.z - z)), y: y)
                let clip = place(tile)
                guard clip.width > 0, clip.height > 0 else { return [] }
                standInCount += 1
                return [PlacedTileImage(image: image, rect: place(ancestor), area: clip)]
            }
            if cached != nil { return [] }
            z -= 1
            x /= 2
            y /= 2
        }
        guard canonical.z < 24 else { return [] }
        var out: [PlacedTileImage] = []
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let key = TileImageKey(
                revision: revision, z: canonical.z + 1, x: canonical.x * 2 + dx, y: canonical.y * 2 + dy,
                pixelScale: scale, run: run)
            guard case .image(let entry)? = engine.value(.image(group: group, key: key)), let image = entry.handle
            else { continue }
            let child = TileID(z: canonical.z + 1, unwrappedX: tile.unwrappedX * 2 + dx, y: canonical.y * 2 + dy)
            out.append(PlacedTileImage(image: image, rect: place(child)))
        }
        if !out.isEmpty { standInCount += 1 }
        return out
    }
}

extension MapRenderer {
    /// Asynchronous mode: network fetches cancelled because the tiles that wanted them left the view (tests, HUD);
    /// 0 otherwise.
    public var cancelledTileFetches: Int { tileSupply.fetchesCancelled }

    /// Asynchronous mode: network fetches on their way; 0 otherwise.
    public var tileFetchesInFlight: Int { tileSupply.fetchesInFlight }

    /// Asynchronous mode: tiles a source failed to give and not given since (drawn from their stand-ins while they
    /// wait for their retry, ``AsyncTileRendering/retryBaseDelay``).
    public var failedTileCount: Int { sourceTiles.retries.count }
}

/// When tiles a source failed to give are asked for again: exponential backoff on the renderer's clock, bounded
/// attempts (``AsyncTileRendering/retryBaseDelay``, ``AsyncTileRendering/maxTileRetries``). Frame thread only.
struct TileRetrySchedule {
    /// Failures so far and the time of the next attempt (`.infinity` once the attempts are spent).
    private var entries: [TileID: (failures: Int, retryAt: Double)] = [:]
    /// Longest wait between attempts, seconds.
    static let maxDelay = 60.0
    /// Most tiles remembered (older failures are forgotten, and so asked for again, beyond it).
    static let capacity = 4096

    /// Tiles failed and not given since.
    var count: Int { entries.count }

    /// Records a failure at `now`: the next attempt waits `baseDelay · 2^(failures − 1)` (at most ``maxDelay``), or
    /// never comes once `maxRetries` attempts failed.
    mutating func noteFailure(_ tile: TileID, now: Double, baseDelay: Double, maxRetries: Int) {
        if entries.count >= Self.capacity, entries[tile] == nil { entries.removeAll() }
        let failures = (entries[tile]?.failures ?? 0) + 1
        let delay = min(baseDelay * Double(1 << min(failures - 1, 20)), Self.maxDelay)
        entries[tile] = (failures, failures > maxRetries ? .infinity : now + delay)
    }

    /// The tile arrived: forgotten.
    mutating func noteSuccess(_ tile: TileID) {
        if !entries.isEmpty { entries[tile] = nil }
    }

    /// The earliest retry of a waiting tile the current frame covers (only tiles in view ask for frames).
    private var nextInView = Double.infinity

    /// A new frame: forgets which waiting tiles the last one covered.
    mutating func beginFrame() { nextInView = .infinity }

    /// Whether `tile` (covered by this frame) failed and its next attempt is not due at `now`.
    mutating func isWaiting(_ tile: TileID, now: Double) -> Bool {
        guard let entry = entries[tile], now < entry.retryAt else { return false }
        nextInView = min(nextInView, entry.retryAt)
        return true
    }

    /// Whether the retry of a failed tile the last frame covered is due at `now` (the host should draw a frame).
    func isDue(now: Double) -> Bool { now >= nextInView }
}

// TileSupply — where a frame's tile jobs run: the one place the synchronous/asynchronous choice is made.
// `makeTileSupply` picks one of two supplies once, when the renderer is made (from `MapRenderOptions.asyncTiles`).
// A supply never calls the renderer: each requirement answers a question with a decision (make it now, draw a
// stand-in, build the labels or put them off…) or takes the jobs and hands back results, and the renderer's stages
// apply it (MapRenderer+Supply.swift). No other file reads the mode.
//
//     frame ─ takeFinishedTiles (worker: the results, taken into the store by the renderer) ─ beginFrame
//           ─ waitsForSources (inline: the source stage fetches every source tile of asynchronous sources and waits)
//           ─ gather ─► [TileJob: tile, data?, label candidates (inline), image runs at the frame's zoom, phase]
//                              │ provide(jobs) → the jobs to make now
//          InlineTileSupply (default): all of them, made by the renderer on up to `tileThreads` threads (the
//                                      frame's and tile threads with their own backends), results taken in job order
//          WorkerTileSupply (asyncTiles): none; kept for `tileThreads` worker threads, results taken by a later frame
//                              │
//                      TileResult ──integrate──► MapEngine (prepared tiles, label candidates, tile images)
//           ─ compose: an image, label candidates or prepared data still missing → made now (inline) or
//                      a stand-in / nothing yet (worker); attribution from the tiles read (inline) or reported
//           ─ endFrame (worker: hand the frame's requests to the workers; the count pending)
import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a renderer's tile jobs run and what its frames do about what their tiles lack (decoded and prepared data,
/// label candidates, tile images), chosen once per renderer (``makeTileSupply(options:sources:startWorker:)``):
/// ``InlineTileSupply`` has the frame make it, ``WorkerTileSupply`` asks worker threads and has the frame draw
/// stand-ins meanwhile. Each requirement answers one question with a decision, or takes state of the stage that
/// needs it; the supply never calls the renderer (MapRenderer+Supply.swift applies the answers). Frame thread only
/// (the renderer's thread).
protocol TileSupply: AnyObject {
    /// The tiles the workers finished since the last frame, for the renderer to take into the store (none when
    /// frames make their own).
    func takeFinishedTiles() -> [TileResult]
    /// A frame begins (after its finished tiles were taken): its label budget starts.
    func beginFrame()
    /// Whether a frame fetches the source tiles of asynchronous sources (``TileSource/isAsynchronous``) it would
    /// read itself, all at once, and waits for them before reading tiles; else the workers' queue fetches them.
    var waitsForSources: Bool { get }
    /// Whether the frame's tile jobs build the missing label candidates of the frame's visible symbol layers; else
    /// the frame builds them itself when it places (``labelPlan(for:)``).
    var jobsBuildLabels: Bool { get }
    /// Takes the frame's jobs (most urgent first): returns the jobs the renderer makes now, and keeps the rest for
    /// the workers (handed to them at ``endFrame()``).
    func provide(_ jobs: [TileJob]) -> [TileJob]
    /// A frame ends (also a frame that drew nothing): its requests go to the workers, replacing older ones. Returns
    /// how many tiles it asked of them (``FrameStatistics/tilesPending``; 0 when frames make their own).
    func endFrame() -> Int
    /// Whether a tile image the engine lacks when the frame composes it is made again now (evicted since the tile
    /// stage made it: a budget smaller than a frame); else it is on its way from the workers (the tile stage asked
    /// them) and the frame draws a stand-in.
    var remakesMissingImages: Bool { get }
    /// Whether images that arrived from the workers fade in over their stand-ins (`raster-fade-duration`); else
    /// every cached image is drawn opaque (the frame made it).
    var fadesArrivedImages: Bool { get }
    /// Whether data a tile lacks (its prepared source layers) is prepared when asked for, so what is built from it
    /// may always be cached; else it comes from the workers, and labels and draws of a tile wait until all of it
    /// was handed over.
    var preparesMissingData: Bool { get }
    /// Whether the frame builds the missing label candidates of `slot` now or puts them off (the frame's label
    /// budget spent) to a later frame, showing those of the zoom step the slot last built meanwhile.
    func labelPlan(for slot: SymbolSlot) -> LabelPlan
    /// The frame built the label candidates of `slot` at zoom step `step` (after ``labelPlan(for:)`` said so).
    func builtLabels(for slot: SymbolSlot, step: Int)
    /// Whether the source tile `key` has data, as the workers reported (`false` before they did); `nil`: not
    /// reported, the frame reads the tile (attribution).
    func reportedSourceData(_ key: SourceDataKey) -> Bool?
    /// How a raster source tile the frame draws and did not fetch ahead is got: read now, or asked of the
    /// asynchronous source and drawn by a later frame once it arrived.
    func unfetchedRasterPlan(for source: ResolvedSource) -> UnfetchedTilePlan
    /// A source failed to give `tile` (a job's result): decides when it is asked for again, in `retries` (the
    /// source stage's schedule, ``TileRetrySchedule``), at `now` (seconds on the renderer's clock).
    func noteFailure(of tile: TileID, in retries: inout TileRetrySchedule, now: Double)
    /// A made image of a tile's run is in the store (`drawn`; else the run draws nothing in the tile): whether the
    /// frame made it or it arrived from the workers (kept for the stand-ins of pitched frames).
    func tookImage(_ key: TileImageKey, drawn: Bool) -> ImageOrigin
    /// A tile's result is in the store (`broughtImage`: it stored a drawn image): which of its source tiles had data
    /// is noted. Returns whether it counts as arrived (``FrameStatistics/tilesArrived``).
    func tookTile(_ result: TileResult, broughtImage: Bool) -> Bool
    /// The images of a canonical tile's run at `revision` that arrived from the workers and the engine still keeps
    /// (`entry` looks one up in the tile-image stage's store), at any pixel scale or style zoom: the stand-ins of
    /// pitched frames; none when frames make their own.
    func keptTileImages(
        _ canonical: TileID, run: Int, revision: Int, entry: (TileImageKey) -> TileImageEntry?
    ) -> [KeptTileImage]
    /// Whether finished tiles wait to be taken by the next frame. Any thread.
    var hasArrivedTiles: Bool { get }
    /// Whether the last frame put label work off to a later one (its label budget was spent).
    var labelWorkDeferred: Bool { get }
    /// Waiting requests dropped because their tiles left the view (0 when frames make their own tiles).
    var staleRequestsDropped: Int { get }
    /// Network fetches cancelled because no waiting request wanted them any more (0 when frames make their own).
    var fetchesCancelled: Int { get }
    /// Network fetches on their way (0 when frames make their own tiles).
    var fetchesInFlight: Int { get }
    /// The renderer was invalidated: what the supply knows of tiles is forgotten, waiting requests and finished
    /// tiles are dropped.
    func forget()
    /// The renderer goes: the workers stop after their current job.
    func stop()
}

/// What a frame does about label candidates a tile's symbol layer lacks (``TileSupply/labelPlan(for:)``).
enum LabelPlan: Equatable {
    /// Built now and cached.
    case build
    /// Put off to a later frame: meanwhile those of the zoom step the slot last built (`nil`: none yet).
    case putOff(lastStep: Int?)
}

/// How a raster tile the frame did not fetch ahead is got (``TileSupply/unfetchedRasterPlan(for:)``).
enum UnfetchedTilePlan {
    /// Read now on the frame's thread (a read error counts as no data).
    case readNow
    /// Asked of the asynchronous source (never waited on); `wake` is called when it arrives.
    case ask(wake: @Sendable () -> Void)
}

/// Who made an image taken into the store (``TileSupply/tookImage(_:drawn:)``).
enum ImageOrigin {
    /// The frame (its own thread or its tile threads): counted in ``FrameStatistics/tileImagesRendered``.
    case frame
    /// The workers: a drawn image fades in (`raster-fade-duration`).
    case workers
}

/// The supply of `options`: ``WorkerTileSupply`` when ``MapRenderOptions/asyncTiles`` is set, starting its
/// ``MapRenderOptions/tileThreads`` workers through `startWorker` (index, queue, settings); else
/// ``InlineTileSupply`` (also every lane's: lanes are made with `asyncTiles` off).
func makeTileSupply(
    options: MapRenderOptions, sources: [String: ResolvedSource],
    startWorker: (Int, TileWorkQueue, AsyncTileRendering) -> Void
) -> any TileSupply {
    guard let settings = options.asyncTiles else { return InlineTileSupply() }
    let queue = TileWorkQueue(limit: settings.queueLimit, sources: sources, onArrival: settings.onTileArrived)
    for index in 0..<options.tileThreads { startWorker(index, queue, settings) }
    return WorkerTileSupply(queue: queue, settings: settings)
}

/// Synchronous tiles (the default): every frame makes what it lacks before drawing, on its own thread and the tile
/// threads (``MapRenderOptions/tileThreads``, ``MapRenderOptions/makeTileBackend``), so frames are complete and
/// deterministic (snapshots, goldens, render tests). Holds no state.
final class InlineTileSupply: TileSupply {
    /// None: frames make their tiles.
    func takeFinishedTiles() -> [TileResult] { [] }

    /// No label budget.
    func beginFrame() {}

    /// Yes: the frame fetches and waits (``SourceTiles/prefetchAsynchronousSources(_:)``).
    var waitsForSources: Bool { true }

    /// Yes: the jobs build the frame's missing candidates, so both cores share them.
    var jobsBuildLabels: Bool { true }

    /// All of them, made now in parallel (``MapRenderer/makeTilesNow(_:)``).
    func provide(_ jobs: [TileJob]) -> [TileJob] { jobs }

    /// Nothing was asked.
    func endFrame() -> Int { 0 }

    /// Made again now (``MapRenderer/remakeTileImage(_:of:scale:)``); no stand-in.
    var remakesMissingImages: Bool { true }

    /// No: the frame made its images.
    var fadesArrivedImages: Bool { false }

    /// Yes: prepared when asked for.
    var preparesMissingData: Bool { true }

    /// Built now.
    func labelPlan(for slot: SymbolSlot) -> LabelPlan { .build }

    /// Nothing to note.
    func builtLabels(for slot: SymbolSlot, step: Int) {}

    /// Not reported: the frame decodes the tile (cached in the engine).
    func reportedSourceData(_ key: SourceDataKey) -> Bool? { nil }

    /// Read now.
    func unfetchedRasterPlan(for source: ResolvedSource) -> UnfetchedTilePlan { .readNow }

    /// Not asked for again until ``MapRenderer/invalidate()`` (no retries).
    func noteFailure(of tile: TileID, in retries: inout TileRetrySchedule, now: Double) {
        retries.noteFailure(tile, now: now, baseDelay: 1, maxRetries: 0)
    }

    /// The frame made it.
    func tookImage(_ key: TileImageKey, drawn: Bool) -> ImageOrigin { .frame }

    /// Nothing to note: the frame read the tile; not counted as arrived.
    func tookTile(_ result: TileResult, broughtImage: Bool) -> Bool { false }

    /// None: frames make their missing images, so they need no stand-ins.
    func keptTileImages(
        _ canonical: TileID, run: Int, revision: Int, entry: (TileImageKey) -> TileImageEntry?
    ) -> [KeptTileImage] { [] }

    var hasArrivedTiles: Bool { false }
    var labelWorkDeferred: Bool { false }
    var staleRequestsDropped: Int { 0 }
    var fetchesCancelled: Int { 0 }
    var fetchesInFlight: Int { 0 }

    /// Nothing kept.
    func forget() {}

    /// No workers.
    func stop() {}
}

/// Asynchronous tiles (``MapRenderOptions/asyncTiles``): frames never read, decode, style or rasterise a tile; they
/// ask the workers (``TileWorkQueue``) for what they lack and draw stand-ins meanwhile, and build label candidates on
/// the frame's thread only for tiles whose data arrived, within a budget. Holds the state only this mode has; frame
/// thread only (the queue is the one thing shared with the workers).
final class WorkerTileSupply: TileSupply {
    /// The queue to the workers and the settings they were started with.
    let queue: TileWorkQueue
    let settings: AsyncTileRendering
    /// This frame's requests (one a canonical tile) and where each tile's request is.
    private var requests: [TileJob] = []
    private var requestIndex: [TileID: Int] = [:]
    /// Which source tiles had data, as the workers reported (attribution; forgotten wholesale beyond 16,384).
    private var sourceDataSeen: [SourceDataKey: Bool] = [:]
    /// The frame's label budget (monotonic ns; `.max` when unbounded), the candidates built in it, whether label
    /// work was put off to a later frame, and the zoom step each tile's symbol layer last built.
    private var labelBudgetDeadline: UInt64 = .max
    private var symbolBuildsThisFrame = 0
    private(set) var labelWorkDeferred = false
    private var latestSymbolStep: [SymbolSlot: Int] = [:]
    /// The keys of the tile images that arrived, by canonical tile and run, at any pixel scale and style zoom (at
    /// most 8 a tile and run, the oldest forgotten first; every slot forgotten beyond 16,384 slots).
    private var keptImageKeys: [TileRunSlot: [TileImageKey]] = [:]

    /// A supply over `queue`, whose workers were started with `settings`.
    init(queue: TileWorkQueue, settings: AsyncTileRendering) {
        self.queue = queue
        self.settings = settings
    }

    /// The workers' finished tiles (results of older revisions are dropped by the renderer).
    func takeFinishedTiles() -> [TileResult] { queue.takeResults() }

    /// Starts the frame's label budget (``AsyncTileRendering/labelBuildBudgetMilliseconds``).
    func beginFrame() {
        labelWorkDeferred = false
        symbolBuildsThisFrame = 0
        let budget = settings.labelBuildBudgetMilliseconds
        labelBudgetDeadline = budget.isFinite ? monotonicNanoseconds() + UInt64(budget * 1e6) : .max
    }

    /// No: the jobs carry their fetches (``TileJob/fetches``), made by the queue's fetch stage.
    var waitsForSources: Bool { false }

    /// No: the frame builds candidates itself once a tile's data arrived, within its budget.
    var jobsBuildLabels: Bool { false }

    /// None made now: kept as the frame's requests and asked of the workers at the frame's end (``endFrame()``);
    /// a tile's second job of the frame adds its images to the first.
    func provide(_ jobs: [TileJob]) -> [TileJob] {
        for job in jobs {
            if let i = requestIndex[job.tile] {
                requests[i].images.append(contentsOf: job.images)
                continue
            }
            requestIndex[job.tile] = requests.count
            requests.append(job)
        }
        return []
    }

    /// Hands the frame's requests to the workers, nearest first (replacing older, now stale ones), and counts them
    /// (``FrameStatistics/tilesPending``, ``MapRenderer/pendingTileCount``).
    func endFrame() -> Int {
        let jobs = requests.sorted { $0.priority < $1.priority }
        queue.replacePending(with: jobs)
        requests = []
        requestIndex = [:]
        return jobs.count
    }

    /// No: on its way (the tile stage asked for it), the stand-in is drawn.
    var remakesMissingImages: Bool { false }

    /// Yes (``MapRenderer/rasterFadeAlpha(_:run:scale:)``).
    var fadesArrivedImages: Bool { true }

    /// No: the workers prepare tiles (asked by the frame) and hand them over.
    var preparesMissingData: Bool { false }

    /// Over the frame's budget (at least one built): put off, the zoom step the slot last built meanwhile; else
    /// built now. (The frame asks only for tiles whose data arrived.)
    func labelPlan(for slot: SymbolSlot) -> LabelPlan {
        if labelBudgetDeadline != .max && symbolBuildsThisFrame > 0 && monotonicNanoseconds() > labelBudgetDeadline {
            labelWorkDeferred = true
            return .putOff(lastStep: latestSymbolStep[slot])
        }
        return .build
    }

    /// Counted against the budget; the step remembered for later frames that put the slot off.
    func builtLabels(for slot: SymbolSlot, step: Int) {
        symbolBuildsThisFrame += 1
        if latestSymbolStep.count > 65_536 { latestSymbolStep.removeAll() }
        latestSymbolStep[slot] = step
    }

    /// What the workers reported (`false` before they did).
    func reportedSourceData(_ key: SourceDataKey) -> Bool? { sourceDataSeen[key] ?? false }

    /// An asynchronous source's tile is asked of the source from the frame (never waited on: drawn by a later frame
    /// once it arrived; the host is woken as for the workers' tiles, ``RasterArrivals``); others are read now.
    func unfetchedRasterPlan(for source: ResolvedSource) -> UnfetchedTilePlan {
        source.tiles.isAsynchronous ? .ask(wake: settings.onTileArrived) : .readNow
    }

    /// With backoff (``AsyncTileRendering/retryBaseDelay``, ``AsyncTileRendering/maxTileRetries``).
    func noteFailure(of tile: TileID, in retries: inout TileRetrySchedule, now: Double) {
        retries.noteFailure(tile, now: now, baseDelay: settings.retryBaseDelay, maxRetries: settings.maxTileRetries)
    }

    /// Arrived: kept for the stand-ins of pitched frames (a drawn image of a run with a raster layer fades in).
    func tookImage(_ key: TileImageKey, drawn: Bool) -> ImageOrigin {
        keep(key)
        return .workers
    }

    /// Notes which source tiles had data; counted as arrived when it brought an image.
    func tookTile(_ result: TileResult, broughtImage: Bool) -> Bool {
        if sourceDataSeen.count > 16_384 { sourceDataSeen.removeAll() }
        for (key, hasData) in result.sourceData { sourceDataSeen[key] = hasData }
        return broughtImage
    }

    /// Adds a stored image's key to ``keptImageKeys``.
    private func keep(_ key: TileImageKey) {
        let slot = TileRunSlot(z: key.z, x: key.x, y: key.y, run: key.run)
        var keys = keptImageKeys[slot] ?? []
        guard !keys.contains(key) else { return }
        if keptImageKeys.count >= 16_384 && keys.isEmpty { keptImageKeys.removeAll() }
        keys.removeAll { $0.revision != key.revision }
        if keys.count >= 8 { keys.removeFirst() }
        keys.append(key)
        keptImageKeys[slot] = keys
    }

    /// The kept images still in the engine (an entry without a handle: the run draws nothing there); keys the engine
    /// evicted are forgotten.
    func keptTileImages(
        _ canonical: TileID, run: Int, revision: Int, entry: (TileImageKey) -> TileImageEntry?
    ) -> [KeptTileImage] {
        let slot = TileRunSlot(z: canonical.z, x: canonical.x, y: canonical.y, run: run)
        guard let keys = keptImageKeys[slot] else { return [] }
        var out: [KeptTileImage] = []
        var left: [TileImageKey] = []
        for key in keys where key.revision == revision {
            guard let found = entry(key) else { continue }
            left.append(key)
            out.append(KeptTileImage(key: key, handle: found.frame.side > 0 ? found.handle : nil, frame: found.frame))
        }
        if left.count != keys.count { keptImageKeys[slot] = left.isEmpty ? nil : left }
        return out
    }

    var hasArrivedTiles: Bool { queue.hasResults }
    var staleRequestsDropped: Int { queue.staleDropped }
    var fetchesCancelled: Int { queue.fetchesCancelled }
    var fetchesInFlight: Int { queue.fetchesInFlight }

    /// Forgets the reported source data and kept images; drops the waiting requests and the finished tiles.
    func forget() {
        sourceDataSeen.removeAll()
        keptImageKeys.removeAll()
        queue.replacePending(with: [])
        _ = queue.takeResults()
    }

    /// Stops the queue (``TileWorkQueue/stop()``).
    func stop() { queue.stop() }
}

/// Monotonic nanoseconds (the label budget's clock, ``WorkerTileSupply``).
func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// One tile image a job makes: its cache key and how to draw it (``TileImageStage/imageSpec(_:run:camera:scale:)``).
struct TileImageSpec: Sendable {
    let key: TileImageKey
    /// The style zoom it is drawn at (the frame's), the side of the tile's square in points at that zoom, where the
    /// tile's corner sits (the frame's sub-pixel phase), and the frame's bearing (viewport-anchored translations).
    let zoom: Double
    let side: Double
    let offset: ScreenPoint
    let bearing: Double
    /// Whether frames draw the image minified (a pitched frame's,
    /// ``TileImageStage/pitchedImageSpec(_:run:projector:camera:scale:)``): its box-filtered levels are made with it
    /// (``DisplayList/drawnMinified``).
    var drawnMinified = false
}

/// A tile image as a job made it.
enum MadeTileImage: Sendable {
    /// Registered with the frame's own backend (the frame's thread made it).
    case handle(ImageHandle)
    /// Drawn by another thread's backend, to be adopted by the frame's (without a copy where both are of a kind,
    /// ``RenderBackend/adopt(_:)``).
    case rendered(RenderedImage)
    /// The run draws nothing in the tile.
    case empty
    /// The backend failed; the image stays missing.
    case failed
}

/// The label candidates a synchronous frame's tile stage found cached, by covering tile and visible symbol layer in
/// the order the frame places them (tile-major), so each is looked up once a frame; `nil` where the tile stage found
/// none (its tile job builds them) or did not look (asynchronous frames, a tile waiting for its retry).
struct FoundSymbols {
    /// Visible symbol layers per tile.
    var layerCount = 0
    var candidates: [[SymbolFeature]?] = []

    /// The candidates of the `t`-th covering tile's `l`-th visible symbol layer, if found.
    func candidates(tile t: Int, layer l: Int) -> [SymbolFeature]? {
        let i = t * layerCount + l
        return candidates.indices.contains(i) ? candidates[i] : nil
    }
}

extension TileResult {
    /// This job's result with the result of the same job's label candidates made apart (``MapRenderer/makeTilesNow(_:)``):
    /// the images of this one, the labels of both, what either prepared or read; failed when either failed.
    func joined(with labels: TileResult) -> TileResult {
        TileResult(
            key: key, images: images + labels.images, prepared: prepared.merging(labels.prepared) { first, _ in first },
            sourceData: sourceData.merging(labels.sourceData) { first, _ in first }, symbols: symbols + labels.symbols,
            failed: failed || labels.failed)
    }
}

/// Jobs shared by the tile threads of one synchronous frame: each thread takes the next until none is left.
private final class JobBoard: @unchecked Sendable {
    private let lock = NSLock()
    private let jobs: [TileJob]
    private var next = 0
    private(set) var results: [TileResult?]
    let lanes: [MapRenderer]
    let owner: MapRenderer

    init(jobs: [TileJob], lanes: [MapRenderer], owner: MapRenderer) {
        self.jobs = jobs
        self.lanes = lanes
        self.owner = owner
        results = Array(repeating: nil, count: jobs.count)
    }

    func take() -> (Int, TileJob)? {
        lock.lock()
        defer { lock.unlock() }
        guard next < jobs.count else { return nil }
        next += 1
        return (next - 1, jobs[next - 1])
    }

    func put(_ index: Int, _ result: TileResult) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }

    /// Lane `i` works until the board is empty.
    func work(lane i: Int) {
        let lane = lanes[i]
        while let (index, job) = take() { put(index, lane.workOnTile(job, keepsImages: lane === owner)) }
    }
}

extension TileImageKey {
    /// The tile of the key.
    var tile: TileID { TileID(z: z, x: x, y: y) }
}

extension MapRenderer {
    /// The frame's tile stage: finds what the frame's tiles lack and has the supply make it (inline: now, in
    /// parallel) or ask for it (worker: queued at the frame's end). Returns the label candidates it found cached
    /// (synchronous frames), so the frame does not look them up again.
    func provideTiles(_ tiles: [TileID], camera: CameraTransform, scale: Double, composes: Bool) -> FoundSymbols {
        let (jobs, found) = missingTiles(tiles, camera: camera, scale: scale, composes: composes)
        makeTilesNow(tileSupply.provide(jobs))
        return found
    }

    /// The jobs of the frame's tiles: tiles whose data is not prepared, (frames composed from tile images) the runs
    /// whose image is not cached, drawn at the frame's zoom and phase (pitched frames: at the resolution the tile's
    /// nearest point needs, ``TileImageStage/pitchedImageSpec(_:run:projector:camera:scale:)``), and (synchronous
    /// frames) the symbol layers whose label candidates are not cached at the frame's zoom step. One job per canonical
    /// tile, ranked nearest the frame's centre (flat) or the camera (pitched: nearest visible depth) first; and the
    /// label candidates found cached on the way.
    func missingTiles(
        _ tiles: [TileID], camera: CameraTransform, scale: Double, composes: Bool
    ) -> ([TileJob], FoundSymbols) {
        var jobs: [TileJob] = []
        var index: [TileID: Int] = [:]
        let zoom = styleZoom(for: camera.state)
        let symbolLayers = tileSupply.jobsBuildLabels ? self.symbolLayers(atZoom: zoom) : []
        var found = FoundSymbols(
            layerCount: symbolLayers.count, candidates: Array(repeating: nil, count: tiles.count * symbolLayers.count))
        let pitched = camera.state.pitch != 0
        for (t, tile) in tiles.enumerated() {
            let canonical = tile.canonical
            // A tile a source failed to give stays on its stand-in until its retry is due (or ``invalidate()``).
            if sourceTiles.retries.isWaiting(canonical, now: clock.now) { continue }
            // Pitched frames: the tile's ground-plane map, for its images' resolution and its urgency.
            let projector =
                pitched ? TileProjector(tile: tile, extent: Int(TileImageStage.warpExtent), camera: camera) : nil
            var images: [TileImageSpec] = []
            if composes {
                for run in tileImages.runs.indices where tileImages.composesRun(run, tile: tile, camera: camera) {
                    let spec =
                        projector.map {
                            tileImages.pitchedImageSpec(tile, run: run, projector: $0, camera: camera, scale: scale)
                        } ?? tileImages.imageSpec(tile, run: run, camera: camera, scale: scale)
                    let key = spec.key
                    guard !engine.contains(.image(group: group, key: key)) else {
                        assembly.stats.tileImagesReused += 1
                        continue
                    }
                    if let i = index[canonical], jobs[i].images.contains(where: { $0.key == key }) { continue }
                    images.append(spec)
                }
            }
            // Synchronous frames have the jobs build the tile's label candidates too, so both cores share them
            // (``TileSupply/jobsBuildLabels``).
            var symbols: [SymbolSpec] = []
            for (l, layer) in symbolLayers.enumerated() {
                if let hit = cachedSymbols(layer.index, tile: tile, zoom: zoom) {
                    found.candidates[t * symbolLayers.count + l] = hit
                } else {
                    symbols.append(SymbolSpec(layer: layer.index, tile: tile, zoom: zoom))
                }
            }
            guard !images.isEmpty || !symbols.isEmpty || !sourceTiles.tileDataReady(canonical) else { continue }
            if let i = index[canonical] {
                jobs[i].images.append(contentsOf: images)
                jobs[i].symbols.append(contentsOf: symbols)
                continue
            }
            let priority: Double
            if let projector {
                // Nearest the camera first: the tile's nearest visible depth in camera distances.
                let near = projector.visibleDepths(extent: TileImageStage.warpExtent)?.lowerBound
                priority = near.map { $0 / max(camera.distance, .leastNormalMagnitude) } ?? .greatestFiniteMagnitude
            } else {
                let n = Double(1 << canonical.z)
                let dx = (Double(canonical.x) + 0.5) / n - assembly.center.x
                let dy = (Double(canonical.y) + 0.5) / n - assembly.center.y
                priority = (dx * dx + dy * dy).squareRoot() * n
            }
            var job = TileJob(
                key: TileImageKey(
                    revision: revision, z: canonical.z, x: canonical.x, y: canonical.y, pixelScale: scale),
                images: images, tileSize: options.tileSize, spriteVersion: spriteVersion, sprite: sprite,
                priority: priority)
            job.symbols = symbols
            job.glyphs = labels.glyphText.store
            for source in sourceTiles.asynchronousSources {
                for address in fetchAddresses(source, canonical) {
                    job.fetches.append(SourceDataKey(source: source.id, address: address))
                }
            }
            index[canonical] = jobs.count
            jobs.append(job)
        }
        return (jobs, found)
    }

    /// Synchronous frames: makes `jobs` on up to ``MapRenderOptions/tileThreads`` threads (this renderer on the
    /// calling thread and the tile threads' renderers) and takes the results in job order, so the frame is the same
    /// whatever the number of threads.
    func makeTilesNow(_ jobs: [TileJob]) {
        guard !jobs.isEmpty else { return }
        // A source tile that more than one job reads (over-zoomed tiles share their ancestor's) is read and decoded
        // once, here, so the threads share it. Every other source tile is read by the thread that takes its job, so
        // the threads read and decode in parallel (the same tile either way).
        var readers: [SourceDataKey: Int] = [:]
        for job in jobs {
            for source in sources.values {
                guard let key = sourceKey(source, job.tile) else { continue }
                readers[SourceDataKey(source: source.id, address: key.address), default: 0] += 1
            }
        }
        if readers.values.contains(where: { $0 > 1 }) {
            for job in jobs {
                for source in sources.values {
                    guard let key = sourceKey(source, job.tile),
                        readers[SourceDataKey(source: source.id, address: key.address), default: 0] > 1
                    else { continue }
                    _ = sourceTiles.decodedTile(source, key)
                }
            }
        }
        let count = min(options.tileThreads, jobs.count)
        if count > 1, let make = options.makeTileBackend {
            while lanes.count < count - 1 {
                var laneOptions = options
                laneOptions.asyncTiles = nil
                laneOptions.drawsAttribution = false
                laneOptions.makeTileBackend = nil
                let lane = MapRenderer(
                    style: style, backend: make(), options: laneOptions, resolved: sources, lane: true)
                lanes.append(lane)
            }
        }
        let workers = [self] + lanes.prefix(count - 1)
        for lane in workers.dropFirst() {
            lane.follow(
                tileSize: options.tileSize, spriteVersion: spriteVersion, sprite: sprite, glyphs: labels.glyphText.store
            )
            lane.fetchedTiles = fetchedTiles
            lane.assembly.stats = FrameStatistics()
            lane.sourceTiles.decodedCount = 0
        }
        // With several threads, the label candidates of a job that also draws images are a piece of work of their
        // own, queued after every job's images: a thread that runs out of images builds a tile's labels while the
        // other still draws (a frame's few tiles rarely split evenly between two threads). The pieces of a job are
        // put back together before the job is taken in, so the frame is the same whatever the number of threads.
        var pieces = jobs
        var pieceOf = Array(jobs.indices)
        if workers.count > 1 {
            for (j, job) in jobs.enumerated() where !job.images.isEmpty && !job.symbols.isEmpty {
                pieces[j].symbols = []
                var labels = job
                labels.images = []
                pieces.append(labels)
                pieceOf.append(j)
            }
        }
        let board = JobBoard(jobs: pieces, lanes: workers, owner: self)
        if workers.count == 1 {
            board.work(lane: 0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers.count) { board.work(lane: $0) }
        }
        for lane in workers.dropFirst() {
            assembly.stats.tilesDecoded += lane.assembly.stats.tilesDecoded + lane.sourceTiles.takeDecodedCount()
            lane.fetchedTiles = [:]
        }
        var results = Array(board.results.prefix(jobs.count))
        for (i, piece) in board.results.enumerated().dropFirst(jobs.count) {
            guard let piece else { continue }
            let j = pieceOf[i]
            results[j] = results[j].map { $0.joined(with: piece) } ?? piece
        }
        for case let result? in results { integrate(result) }
    }

    /// Makes a tile image the engine evicted since the frame's tile stage made it (a budget smaller than a frame)
    /// again now, on the frame's thread (``InlineTileSupply``).
    func remakeTileImage(_ spec: TileImageSpec, of tile: TileID, scale: Double) {
        integrate(
            workOnTile(
                TileJob(
                    key: tileImages.tileImageKey(tile, run: 0, scale: scale), images: [spec],
                    tileSize: options.tileSize,
                    spriteVersion: spriteVersion, sprite: sprite, priority: 0),
                keepsImages: true))
    }

    /// A lane or worker takes its owner's tile size, sprite and glyph store.
    func follow(tileSize: Double, spriteVersion version: Int, sprite sheet: SpriteSheet?, glyphs: GlyphStore?) {
        options.tileSize = tileSize
        setGlyphs(glyphs)
        if version != spriteVersion {
            setSprite(sheet)
            spriteVersion = version
        }
    }

    /// Makes one job (any thread, on this renderer's own thread for the job's duration): prepares every used source
    /// layer of the tile, builds the asked label candidates and draws the asked tile images, registered with this
    /// renderer's backend when `keepsImages` (the frame's own thread), else for the frame's backend to adopt.
    func workOnTile(_ job: TileJob, keepsImages: Bool) -> TileResult {
        let tile = job.tile
        if job.fetched.values.contains(where: { if case .failure = $0 { return true } else { return false } }) {
            return TileResult(key: job.key, images: [], prepared: [:], sourceData: [:], failed: true)
        }
        var prepared: [PreparedKey: PreparedTile] = [:]
        for (sourceID, sourceLayer) in sourceTiles.usedSourceLayers {
            if let p = preparedTile(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile) {
                prepared[PreparedKey(source: sourceID, layer: sourceLayer, tile: tile)] = p
            }
        }
        var sourceData: [SourceDataKey: Bool] = [:]
        for source in sources.values {
            guard let key = sourceKey(source, tile) else { continue }
            sourceData[SourceDataKey(source: source.id, address: key.address)] =
                sourceTiles.decodedTile(source, key).tile != nil
        }
        var symbols: [MadeSymbols] = []
        for spec in job.symbols where layers.indices.contains(spec.layer) {
            let built = buildSymbols(layers[spec.layer], tile: spec.tile, zoom: spec.zoom)
            symbols.append(MadeSymbols(spec: spec, features: built.features, iconNames: built.iconNames))
        }
        var images: [(TileImageSpec, MadeTileImage)] = []
        for spec in job.images {
            var list = DisplayList(size: ScreenSize(width: spec.side, height: spec.side), scale: spec.key.pixelScale)
            list.antialiasingScale = spec.key.antialiasingScale
            list.drawnMinified = spec.drawnMinified
            // Hairlines and dash antialiasing are sized for the device pixels the image's anti-aliasing is meant for
            // (its own, or a pitched frame's for a warped image) on whichever renderer makes it: a tile thread's or
            // worker's never begins a frame of its own.
            let frame = (scale: assembly.scale, warped: assembly.drawsWarpedImage)
            assembly.scale = spec.key.antialiasingScale ?? spec.key.pixelScale
            assembly.drawsWarpedImage = spec.key.antialiasingScale != nil
            appendTileImageCommands(
                tile, run: spec.key.run, zoom: spec.zoom, side: spec.side, offset: spec.offset, bearing: spec.bearing,
                into: &list.commands)
            (assembly.scale, assembly.drawsWarpedImage) = frame
            guard !list.commands.isEmpty else {
                images.append((spec, .empty))
                continue
            }
            if keepsImages {
                images.append((spec, (try? backend.renderImage(list)).map { .handle($0) } ?? .failed))
            } else {
                images.append((spec, (try? backend.renderForTransfer(list)).map { .rendered($0) } ?? .failed))
            }
        }
        return TileResult(
            key: job.key, images: images, prepared: prepared, sourceData: sourceData, symbols: symbols)
    }

    /// Takes a made tile into the store (results of older revisions are dropped).
    func integrate(_ result: TileResult) {
        guard result.key.revision == revision else { return }
        if result.failed {
            tileSupply.noteFailure(of: result.key.tile, in: &sourceTiles.retries, now: clock.now)
            return
        }
        sourceTiles.retries.noteSuccess(result.key.tile)
        for (key, tile) in result.prepared {
            let engineKey = EngineKey.prepared(
                source: sources[key.source]?.dataID ?? 0, layer: key.layer, tile: key.tile, tileSize: options.tileSize)
            if !engine.contains(engineKey) { engine.insert(.prepared(tile), for: engineKey, cost: tile.cost) }
        }
        for made in result.symbols { adoptSymbols(made) }
        var stored = false
        for (spec, made) in result.images {
            let frame = TileImageFrame(side: spec.side, offset: spec.offset)
            switch made {
            case .handle(let handle): tileImages.storeTileImage(handle, for: spec.key, frame: frame)
            case .rendered(let image):
                // A backend that cannot take the image leaves it missing (asked for again by a later frame).
                guard let handle = try? backend.adopt(image) else { continue }
                tileImages.storeTileImage(handle, for: spec.key, frame: frame)
            case .empty:
                tileImages.markEmpty(spec.key)
                _ = tileSupply.tookImage(spec.key, drawn: false)
                continue
            case .failed: continue
            }
            stored = true
            // Made by the frame: counted; arrived from the workers: a raster run's image fades in.
            switch tileSupply.tookImage(spec.key, drawn: true) {
            case .frame: assembly.stats.tileImagesRendered += 1
            case .workers: noteTileImageArrival(spec.key)
            }
        }
        if tileSupply.tookTile(result, broughtImage: stored) { assembly.stats.tilesArrived += 1 }
    }
}

// TileSupply — how a frame gets what its tiles lack: the one place the synchronous/asynchronous choice is made.
// `makeTileSupply` picks one of two supplies once, when the renderer is made (from `MapRenderOptions.asyncTiles`);
// every question a frame asks about a tile it lacks goes to the supply, and no other file reads the mode.
//
//     frame ─ beginFrame (worker: take the finished tiles, start the label budget)
//           ─ prefetchSources (inline: wait for every source tile of asynchronous sources)
//           ─ gather ─► [TileJob: tile, data?, label candidates (inline), image runs at the frame's zoom, phase]
//                              │
//          InlineTileSupply (default): made now on up to `tileThreads` threads (the frame's and tile threads with
//                                      their own backends), each tile independently, results taken in job order
//          WorkerTileSupply (asyncTiles): asked of `tileThreads` worker threads; results taken by a later frame
//                              │
//                      TileResult ──integrate──► MapEngine (prepared tiles, label candidates, tile images)
//           ─ compose: an image, label candidates or prepared data still missing → made now (inline) or
//                      a stand-in / nothing yet (worker); attribution from the tiles read (inline) or reported
//           ─ endFrame (worker: hand the frame's requests to the workers)
import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

/// How a renderer's frames get what their tiles lack (decoded and prepared data, label candidates, tile images),
/// chosen once per renderer (``makeTileSupply(options:style:sources:)``): ``InlineTileSupply`` makes it in the
/// frame, ``WorkerTileSupply`` asks worker threads and has the frame draw stand-ins meanwhile. Each requirement is a
/// question the frame asks, with the renderer asking; frame thread only (the renderer's thread).
protocol TileSupply: AnyObject {
    /// A frame begins: what the workers finished is taken into the store and the frame's label budget starts.
    func beginFrame(for renderer: MapRenderer)
    /// Before the frame reads tiles: source tiles of asynchronous sources (``TileSource/isAsynchronous``) the frame
    /// would read are fetched now, all at once, and waited for; or left to the workers.
    func prefetchSources(of tiles: [TileID], for renderer: MapRenderer)
    /// The symbol layers whose missing label candidates the frame's tile jobs build: the frame's visible symbol
    /// layers at style zoom `zoom`, or none (the frame builds them itself,
    /// ``missingLabelCandidates(_:tile:zoom:step:for:)``).
    func symbolLayersBuiltByJobs(atZoom zoom: Double, for renderer: MapRenderer) -> [CompiledLayer]
    /// Has the frame's jobs (most urgent first) made now or asked for.
    func provide(_ jobs: [TileJob], for renderer: MapRenderer)
    /// A frame ends (also a frame that drew nothing): its requests go to the workers, replacing older ones.
    func endFrame(for renderer: MapRenderer)
    /// A tile image `spec` of `tile` (at pixel scale `scale`) the engine lacks when the frame composes it: made now
    /// (evicted since the tile stage made it: a budget smaller than a frame), or, while the workers make it (the tile
    /// stage asked them), `standIn` is called to draw a stand-in. The caller then looks the image up again.
    func missingImage(
        _ spec: @autoclosure () -> TileImageSpec, of tile: TileID, scale: Double, for renderer: MapRenderer,
        standIn: () -> Void)
    /// The opacity, 0…1, a cached tile image of `run` is drawn with: below 1 while an image that arrived from the
    /// workers fades in over its stand-in (`raster-fade-duration`); 1 for images the frame made.
    func arrivalOpacity(of tile: TileID, run: Int, scale: Double, for renderer: MapRenderer) -> Double
    /// The label candidates of `layer` in `tile` at style zoom `zoom` (zoom step `step`) the engine lacks: built now
    /// and cached, or (the tile's data not handed over yet, or the frame's label budget spent) none or the candidates
    /// of the zoom step the tile last had, until a later frame.
    func missingLabelCandidates(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, step: Int, for renderer: MapRenderer
    ) -> [SymbolFeature]
    /// The prepared tile the engine lacks (`key`): prepared now from the source, or `nil` (the workers prepare
    /// tiles and hand them over).
    func missingPreparedTile(
        _ source: ResolvedSource, sourceLayer: String, tile: TileID, key: EngineKey, for renderer: MapRenderer
    ) -> PreparedTile?
    /// Whether every prepared tile `tile` needs is there, so what is built from them may be cached: always when the
    /// frame prepares what it lacks, else only once the workers handed them all over.
    func hasAllData(_ tile: TileID, for renderer: MapRenderer) -> Bool
    /// Whether `source` has data in its source tile `key` (attribution): read now, or as the workers reported.
    func sourceHasData(_ source: ResolvedSource, _ key: SourceTileKey, for renderer: MapRenderer) -> Bool
    /// A raster source tile the frame draws and did not fetch ahead: read now (`.success`, with `nil` bytes when the
    /// source has none), or, from an asynchronous source, asked for and taken once it arrived (`nil` until then).
    func unfetchedRasterTile(_ source: ResolvedSource, at address: TileID, for renderer: MapRenderer)
        -> TileLoadResult?
    /// A source failed to give `tile` (a job's result): decides when it is asked for again (``TileRetrySchedule``).
    func noteFailure(of tile: TileID, for renderer: MapRenderer)
    /// A made image of a tile's run is in the store (`drawn`; else the run draws nothing in the tile): counted as
    /// made by the frame, or as arrived (kept for the stand-ins of pitched frames; `drawn` images fade in).
    func tookImage(_ key: TileImageKey, drawn: Bool, for renderer: MapRenderer)
    /// A tile's result is in the store (`broughtImage`: it stored a drawn image): which of its source tiles had
    /// data, and the arrival counted.
    func tookTile(_ result: TileResult, broughtImage: Bool, for renderer: MapRenderer)
    /// The images of a canonical tile's run at the renderer's revision the engine still keeps, at any pixel scale or
    /// style zoom, that arrived from the workers (the stand-ins of pitched frames); none when frames make their own.
    func keptTileImages(_ canonical: TileID, run: Int, for renderer: MapRenderer) -> [KeptTileImage]
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

/// The supply of `options`: ``WorkerTileSupply`` (starting its workers) when ``MapRenderOptions/asyncTiles`` is
/// set, else ``InlineTileSupply`` (also every lane's: lanes are made with `asyncTiles` off).
func makeTileSupply(options: MapRenderOptions, style: Style, sources: [String: ResolvedSource]) -> any TileSupply {
    guard let settings = options.asyncTiles else { return InlineTileSupply() }
    let queue = TileWorkQueue(limit: settings.queueLimit, sources: sources, onArrival: settings.onTileArrived)
    for index in 0..<options.tileThreads {
        MapRenderer.startWorker(
            index: index, queue: queue, settings: settings, style: style, options: options, sources: sources)
    }
    return WorkerTileSupply(queue: queue, settings: settings)
}

/// Synchronous tiles (the default): every frame makes what it lacks before drawing, on its own thread and the tile
/// threads (``MapRenderOptions/tileThreads``, ``MapRenderOptions/makeTileBackend``), so frames are complete and
/// deterministic (snapshots, goldens, render tests). Holds no state.
final class InlineTileSupply: TileSupply {
    /// Nothing to take: frames make their tiles.
    func beginFrame(for renderer: MapRenderer) {}

    /// Fetches and waits (``MapRenderer/prefetchAsynchronousSources(_:)``).
    func prefetchSources(of tiles: [TileID], for renderer: MapRenderer) {
        renderer.prefetchAsynchronousSources(tiles)
    }

    /// The frame's visible symbol layers: the jobs build their candidates, so both cores share them.
    func symbolLayersBuiltByJobs(atZoom zoom: Double, for renderer: MapRenderer) -> [CompiledLayer] {
        renderer.symbolLayers(atZoom: zoom)
    }

    /// Made now, in parallel (``MapRenderer/makeTilesNow(_:)``).
    func provide(_ jobs: [TileJob], for renderer: MapRenderer) { renderer.makeTilesNow(jobs) }

    /// Nothing was asked.
    func endFrame(for renderer: MapRenderer) {}

    /// Made again now (``MapRenderer/remakeTileImage(_:of:scale:)``); no stand-in.
    func missingImage(
        _ spec: @autoclosure () -> TileImageSpec, of tile: TileID, scale: Double, for renderer: MapRenderer,
        standIn: () -> Void
    ) {
        renderer.remakeTileImage(spec(), of: tile, scale: scale)
    }

    /// 1: the frame made its images.
    func arrivalOpacity(of tile: TileID, run: Int, scale: Double, for renderer: MapRenderer) -> Double { 1 }

    /// Built now (``MapRenderer/buildAndCacheSymbols(_:tile:zoom:step:)``).
    func missingLabelCandidates(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, step: Int, for renderer: MapRenderer
    ) -> [SymbolFeature] {
        renderer.buildAndCacheSymbols(layer, tile: tile, zoom: zoom, step: step)
    }

    /// Prepared now (``MapRenderer/prepareTile(_:sourceLayer:tile:key:)``).
    func missingPreparedTile(
        _ source: ResolvedSource, sourceLayer: String, tile: TileID, key: EngineKey, for renderer: MapRenderer
    ) -> PreparedTile? {
        renderer.prepareTile(source, sourceLayer: sourceLayer, tile: tile, key: key)
    }

    /// Always: what the tile lacks is prepared when asked for.
    func hasAllData(_ tile: TileID, for renderer: MapRenderer) -> Bool { true }

    /// Decoded now (cached in the engine).
    func sourceHasData(_ source: ResolvedSource, _ key: SourceTileKey, for renderer: MapRenderer) -> Bool {
        renderer.decodedTile(source, key).tile != nil
    }

    /// Read now (a read error counts as no data).
    func unfetchedRasterTile(_ source: ResolvedSource, at address: TileID, for renderer: MapRenderer)
        -> TileLoadResult?
    {
        .success((try? source.tiles.tileData(at: address)) ?? nil)
    }

    /// Not asked for again until ``MapRenderer/invalidate()`` (no retries).
    func noteFailure(of tile: TileID, for renderer: MapRenderer) {
        renderer.tileRetries.noteFailure(tile, now: renderer.clock.now, baseDelay: 1, maxRetries: 0)
    }

    /// Counted in ``FrameStatistics/tileImagesRendered``.
    func tookImage(_ key: TileImageKey, drawn: Bool, for renderer: MapRenderer) {
        if drawn { renderer.frameStats.tileImagesRendered += 1 }
    }

    /// Nothing to note: the frame read the tile.
    func tookTile(_ result: TileResult, broughtImage: Bool, for renderer: MapRenderer) {}

    /// None: frames make their missing images, so they need no stand-ins.
    func keptTileImages(_ canonical: TileID, run: Int, for renderer: MapRenderer) -> [KeptTileImage] { [] }

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

    /// Takes the workers' finished tiles into the store (results of older revisions are dropped), then starts the
    /// frame's label budget (``AsyncTileRendering/labelBuildBudgetMilliseconds``).
    func beginFrame(for renderer: MapRenderer) {
        for result in queue.takeResults() { renderer.integrate(result) }
        labelWorkDeferred = false
        symbolBuildsThisFrame = 0
        let budget = settings.labelBuildBudgetMilliseconds
        labelBudgetDeadline = budget.isFinite ? MapRenderer.monotonicNanoseconds() + UInt64(budget * 1e6) : .max
    }

    /// Nothing: the jobs carry their fetches (``TileJob/fetches``), made by the queue's fetch stage.
    func prefetchSources(of tiles: [TileID], for renderer: MapRenderer) {}

    /// None: the frame builds candidates itself once a tile's data arrived, within its budget.
    func symbolLayersBuiltByJobs(atZoom zoom: Double, for renderer: MapRenderer) -> [CompiledLayer] { [] }

    /// Asked of the workers at the frame's end (``endFrame(for:)``); a tile's second job of the frame adds its images
    /// to the first.
    func provide(_ jobs: [TileJob], for renderer: MapRenderer) {
        for job in jobs {
            if let i = requestIndex[job.tile] {
                requests[i].images.append(contentsOf: job.images)
                continue
            }
            requestIndex[job.tile] = requests.count
            requests.append(job)
        }
    }

    /// Hands the frame's requests to the workers, nearest first (replacing older, now stale ones), and counts them
    /// (``FrameStatistics/tilesPending``, ``MapRenderer/pendingTileCount``).
    func endFrame(for renderer: MapRenderer) {
        let jobs = requests.sorted { $0.priority < $1.priority }
        renderer.frameStats.tilesPending = jobs.count
        renderer.pendingTileCount = jobs.count
        queue.replacePending(with: jobs)
        requests = []
        requestIndex = [:]
    }

    /// On its way (the tile stage asked for it): the stand-in is drawn.
    func missingImage(
        _ spec: @autoclosure () -> TileImageSpec, of tile: TileID, scale: Double, for renderer: MapRenderer,
        standIn: () -> Void
    ) {
        standIn()
    }

    /// ``MapRenderer/rasterFadeAlpha(_:run:scale:)``.
    func arrivalOpacity(of tile: TileID, run: Int, scale: Double, for renderer: MapRenderer) -> Double {
        renderer.rasterFadeAlpha(tile, run: run, scale: scale)
    }

    /// None while the tile's data is on its way (nothing is cached for it); over the frame's budget, the candidates
    /// of the zoom step the tile last had (or none yet) until a later frame builds them; else built now.
    func missingLabelCandidates(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, step: Int, for renderer: MapRenderer
    ) -> [SymbolFeature] {
        guard renderer.tileDataReady(tile.canonical) else { return [] }
        let slot = SymbolSlot(layer: layer.index, tile: tile)
        if labelBudgetDeadline != .max && symbolBuildsThisFrame > 0
            && MapRenderer.monotonicNanoseconds() > labelBudgetDeadline
        {
            labelWorkDeferred = true
            if let last = latestSymbolStep[slot],
                case .symbols(let stale)? = renderer.engine.value(
                    .symbols(group: renderer.group, layer: layer.index, tile: tile, zoomStep: last))
            {
                return stale
            }
            return []
        }
        let built = renderer.buildAndCacheSymbols(layer, tile: tile, zoom: zoom, step: step)
        symbolBuildsThisFrame += 1
        if latestSymbolStep.count > 65_536 { latestSymbolStep.removeAll() }
        latestSymbolStep[slot] = step
        return built
    }

    /// `nil`: the workers prepare tiles (asked by the frame) and hand them over.
    func missingPreparedTile(
        _ source: ResolvedSource, sourceLayer: String, tile: TileID, key: EngineKey, for renderer: MapRenderer
    ) -> PreparedTile? {
        nil
    }

    /// ``MapRenderer/tileDataReady(_:)``.
    func hasAllData(_ tile: TileID, for renderer: MapRenderer) -> Bool { renderer.tileDataReady(tile) }

    /// What the workers reported (`false` before they did).
    func sourceHasData(_ source: ResolvedSource, _ key: SourceTileKey, for renderer: MapRenderer) -> Bool {
        sourceDataSeen[SourceDataKey(source: source.id, address: key.address)] ?? false
    }

    /// An asynchronous source's tile is asked of the source from the frame (never waited on: drawn by a later frame
    /// once it arrived; the host is woken as for the workers' tiles, ``RasterArrivals``); others are read now.
    func unfetchedRasterTile(_ source: ResolvedSource, at address: TileID, for renderer: MapRenderer)
        -> TileLoadResult?
    {
        guard source.tiles.isAsynchronous else { return .success((try? source.tiles.tileData(at: address)) ?? nil) }
        return renderer.rasterState.arrivals.answer(
            for: SourceDataKey(source: source.id, address: address), source: source, address: address,
            wake: settings.onTileArrived)
    }

    /// With backoff (``AsyncTileRendering/retryBaseDelay``, ``AsyncTileRendering/maxTileRetries``).
    func noteFailure(of tile: TileID, for renderer: MapRenderer) {
        renderer.tileRetries.noteFailure(
            tile, now: renderer.clock.now, baseDelay: settings.retryBaseDelay, maxRetries: settings.maxTileRetries)
    }

    /// Kept for the stand-ins of pitched frames; a drawn image of a run with a raster layer fades in
    /// (``MapRenderer/noteTileImageArrival(_:)``).
    func tookImage(_ key: TileImageKey, drawn: Bool, for renderer: MapRenderer) {
        keep(key)
        if drawn { renderer.noteTileImageArrival(key) }
    }

    /// Notes which source tiles had data and counts the tile in ``FrameStatistics/tilesArrived`` when it brought an
    /// image.
    func tookTile(_ result: TileResult, broughtImage: Bool, for renderer: MapRenderer) {
        if sourceDataSeen.count > 16_384 { sourceDataSeen.removeAll() }
        for (key, hasData) in result.sourceData { sourceDataSeen[key] = hasData }
        if broughtImage { renderer.frameStats.tilesArrived += 1 }
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
    func keptTileImages(_ canonical: TileID, run: Int, for renderer: MapRenderer) -> [KeptTileImage] {
        let slot = TileRunSlot(z: canonical.z, x: canonical.x, y: canonical.y, run: run)
        guard let keys = keptImageKeys[slot] else { return [] }
        var out: [KeptTileImage] = []
        var left: [TileImageKey] = []
        for key in keys where key.revision == renderer.revision {
            guard case .image(let entry)? = renderer.engine.value(.image(group: renderer.group, key: key)) else {
                continue
            }
            left.append(key)
            out.append(KeptTileImage(key: key, handle: entry.frame.side > 0 ? entry.handle : nil, frame: entry.frame))
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

/// One tile image a job makes: its cache key and how to draw it (``MapRenderer/imageSpec(_:run:camera:scale:)``).
struct TileImageSpec: Sendable {
    let key: TileImageKey
    /// The style zoom it is drawn at (the frame's), the side of the tile's square in points at that zoom, where the
    /// tile's corner sits (the frame's sub-pixel phase), and the frame's bearing (viewport-anchored translations).
    let zoom: Double
    let side: Double
    let offset: ScreenPoint
    let bearing: Double
    /// Whether frames draw the image minified (a pitched frame's, ``MapRenderer/pitchedImageSpec``): its box-filtered
    /// levels are made with it (``DisplayList/drawnMinified``).
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
        supply.provide(jobs, for: self)
        return found
    }

    /// The jobs of the frame's tiles: tiles whose data is not prepared, (frames composed from tile images) the runs
    /// whose image is not cached, drawn at the frame's zoom and phase (pitched frames: at the resolution the tile's
    /// nearest point needs, ``pitchedImageSpec(_:run:projector:camera:scale:)``), and (synchronous frames) the
    /// symbol layers whose label candidates are not cached at the frame's zoom step. One job per canonical tile,
    /// ranked nearest the frame's centre (flat) or the camera (pitched: nearest visible depth) first; and the label
    /// candidates found cached on the way.
    func missingTiles(
        _ tiles: [TileID], camera: CameraTransform, scale: Double, composes: Bool
    ) -> ([TileJob], FoundSymbols) {
        var jobs: [TileJob] = []
        var index: [TileID: Int] = [:]
        let zoom = styleZoom(for: camera.state)
        let symbolLayers = supply.symbolLayersBuiltByJobs(atZoom: zoom, for: self)
        var found = FoundSymbols(
            layerCount: symbolLayers.count, candidates: Array(repeating: nil, count: tiles.count * symbolLayers.count))
        let pitched = camera.state.pitch != 0
        for (t, tile) in tiles.enumerated() {
            let canonical = tile.canonical
            // A tile a source failed to give stays on its stand-in until its retry is due (or ``invalidate()``).
            if tileRetries.isWaiting(canonical, now: clock.now) { continue }
            // Pitched frames: the tile's ground-plane map, for its images' resolution and its urgency.
            let projector = pitched ? TileProjector(tile: tile, extent: Int(Self.warpExtent), camera: camera) : nil
            var images: [TileImageSpec] = []
            if composes {
                for run in tileLayerRuns.indices where composesRun(run, tile: tile, camera: camera) {
                    let spec =
                        projector.map {
                            pitchedImageSpec(tile, run: run, projector: $0, camera: camera, scale: scale)
                        } ?? imageSpec(tile, run: run, camera: camera, scale: scale)
                    let key = spec.key
                    guard !engine.contains(.image(group: group, key: key)) else {
                        frameStats.tileImagesReused += 1
                        continue
                    }
                    if let i = index[canonical], jobs[i].images.contains(where: { $0.key == key }) { continue }
                    images.append(spec)
                }
            }
            // Synchronous frames have the jobs build the tile's label candidates too, so both cores share them
            // (``TileSupply/symbolLayersBuiltByJobs(atZoom:for:)``).
            var symbols: [SymbolSpec] = []
            for (l, layer) in symbolLayers.enumerated() {
                if let hit = cachedSymbols(layer.index, tile: tile, zoom: zoom) {
                    found.candidates[t * symbolLayers.count + l] = hit
                } else {
                    symbols.append(SymbolSpec(layer: layer.index, tile: tile, zoom: zoom))
                }
            }
            guard !images.isEmpty || !symbols.isEmpty || !tileDataReady(canonical) else { continue }
            if let i = index[canonical] {
                jobs[i].images.append(contentsOf: images)
                jobs[i].symbols.append(contentsOf: symbols)
                continue
            }
            let priority: Double
            if let projector {
                // Nearest the camera first: the tile's nearest visible depth in camera distances.
                let near = projector.visibleDepths(extent: Self.warpExtent)?.lowerBound
                priority = near.map { $0 / max(camera.distance, .leastNormalMagnitude) } ?? .greatestFiniteMagnitude
            } else {
                let n = Double(1 << canonical.z)
                let dx = (Double(canonical.x) + 0.5) / n - frameCenter.x
                let dy = (Double(canonical.y) + 0.5) / n - frameCenter.y
                priority = (dx * dx + dy * dy).squareRoot() * n
            }
            var job = TileJob(
                key: TileImageKey(
                    revision: revision, z: canonical.z, x: canonical.x, y: canonical.y, pixelScale: scale),
                images: images, tileSize: options.tileSize, spriteVersion: spriteVersion, sprite: sprite,
                priority: priority)
            job.symbols = symbols
            for source in asynchronousSources {
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
        // Source tiles are read once, here, so the threads share each decoded tile (over-zoomed tiles share one).
        for job in jobs {
            for source in sources.values {
                if let key = sourceKey(source, job.tile) { _ = decodedTile(source, key) }
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
            lane.follow(tileSize: options.tileSize, spriteVersion: spriteVersion, sprite: sprite)
            lane.fetchedTiles = fetchedTiles
            lane.frameStats = FrameStatistics()
        }
        let board = JobBoard(jobs: jobs, lanes: workers, owner: self)
        if workers.count == 1 {
            board.work(lane: 0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers.count) { board.work(lane: $0) }
        }
        for lane in workers.dropFirst() {
            frameStats.tilesDecoded += lane.frameStats.tilesDecoded
            lane.fetchedTiles = [:]
        }
        for case let result? in board.results { integrate(result) }
    }

    /// Makes a tile image the engine evicted since the frame's tile stage made it (a budget smaller than a frame)
    /// again now, on the frame's thread (``InlineTileSupply``).
    func remakeTileImage(_ spec: TileImageSpec, of tile: TileID, scale: Double) {
        integrate(
            workOnTile(
                TileJob(
                    key: tileImageKey(tile, run: 0, scale: scale), images: [spec], tileSize: options.tileSize,
                    spriteVersion: spriteVersion, sprite: sprite, priority: 0),
                keepsImages: true))
    }

    /// A lane or worker takes its owner's tile size and sprite.
    func follow(tileSize: Double, spriteVersion version: Int, sprite sheet: SpriteSheet?) {
        options.tileSize = tileSize
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
        for (sourceID, sourceLayer) in usedSourceLayers {
            if let p = preparedTile(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile) {
                prepared[PreparedKey(source: sourceID, layer: sourceLayer, tile: tile)] = p
            }
        }
        var sourceData: [SourceDataKey: Bool] = [:]
        for source in sources.values {
            guard let key = sourceKey(source, tile) else { continue }
            sourceData[SourceDataKey(source: source.id, address: key.address)] = decodedTile(source, key).tile != nil
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
            appendTileImageCommands(
                tile, run: spec.key.run, zoom: spec.zoom, side: spec.side, offset: spec.offset, bearing: spec.bearing,
                into: &list.commands)
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
            supply.noteFailure(of: result.key.tile, for: self)
            return
        }
        tileRetries.noteSuccess(result.key.tile)
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
            case .handle(let handle): storeTileImage(handle, for: spec.key, frame: frame)
            case .rendered(let image):
                // A backend that cannot take the image leaves it missing (asked for again by a later frame).
                guard let handle = try? backend.adopt(image) else { continue }
                storeTileImage(handle, for: spec.key, frame: frame)
            case .empty:
                markEmpty(spec.key)
                supply.tookImage(spec.key, drawn: false, for: self)
                continue
            case .failed: continue
            }
            stored = true
            supply.tookImage(spec.key, drawn: true, for: self)
        }
        supply.tookTile(result, broughtImage: stored, for: self)
    }
}

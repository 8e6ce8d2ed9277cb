// TileSupply — how a frame gets the tiles it lacks: the one place the synchronous/asynchronous choice is made.
//
//     frame ──gather──► [TileJob: tile, data?, label candidates (synchronous), image runs at the frame's zoom, phase]
//                              │
//          inline (default): made now on up to `tileThreads` threads (the frame's and tile threads with their
//                            own backends), each tile independently, results taken in job order
//          worker (asyncTiles): queued to `tileThreads` worker threads; results taken by a later frame
//                              │
//                      TileResult ──integrate──► MapEngine (prepared tiles, label candidates, tile images)
import Foundation
import MapData
import MapGeometry
import MapLayout
import MapRender
import MapStyle

/// How a renderer's frames get their missing tiles (decoded and prepared data, tile images).
enum TileSupply {
    /// Synchronous: every frame makes what it lacks before drawing, on its own thread and the tile threads
    /// (``MapRenderOptions/tileThreads``, ``MapRenderOptions/makeTileBackend``); frames are complete.
    case inline
    /// Asynchronous (``MapRenderOptions/asyncTiles``): frames only ask the workers and draw stand-ins meanwhile.
    case worker(TileWorkQueue)

    /// The supply for `options`, starting the workers of asynchronous mode.
    init(options: MapRenderOptions, style: Style, sources: [String: ResolvedSource]) {
        guard let settings = options.asyncTiles else {
            self = .inline
            return
        }
        let queue = TileWorkQueue(limit: settings.queueLimit, sources: sources, onArrival: settings.onTileArrived)
        for index in 0..<options.tileThreads {
            MapRenderer.startWorker(
                index: index, queue: queue, settings: settings, style: style, options: options, sources: sources)
        }
        self = .worker(queue)
    }

    /// Whether frames decode and prepare tiles themselves (else only the workers read sources).
    var framesReadTiles: Bool {
        if case .inline = self { return true }
        return false
    }
}

/// One tile image a job makes: its cache key and how to draw it (``MapRenderer/imageSpec(_:run:camera:scale:)``).
struct TileImageSpec: Sendable {
    let key: TileImageKey
    /// The style zoom it is drawn at (the frame's), the side of the tile's square in points at that zoom, where the
    /// tile's corner sits (the frame's sub-pixel phase), and the frame's bearing (viewport-anchored translations).
    let zoom: Double
    let side: Double
    let offset: RenderPoint
    let bearing: Double
}

/// A tile image as a job made it.
enum MadeTileImage: Sendable {
    /// Registered with the frame's own backend (the frame's thread made it).
    case handle(ImageHandle)
    /// Pixels from another thread's backend, to be registered with the frame's.
    case pixels(RasterImage)
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
    /// The frame's tile stage: finds what the frame's tiles lack and has it made (inline: now, in parallel) or
    /// asked for (worker: queued at the frame's end). Returns the label candidates it found cached (synchronous
    /// frames), so the frame does not look them up again.
    func provideTiles(_ tiles: [TileID], camera: CameraTransform, scale: Double, composes: Bool) -> FoundSymbols {
        let (jobs, found) = missingTiles(tiles, camera: camera, scale: scale, composes: composes)
        switch supply {
        case .worker:
            for job in jobs { addRequest(job) }
        case .inline:
            makeTilesNow(jobs)
        }
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
        let symbolLayers = supply.framesReadTiles ? self.symbolLayers(atZoom: zoom) : []
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
            // Synchronous frames have the jobs build the tile's label candidates too, so both cores share them.
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
    /// renderer's backend when `keepsImages` (the frame's own thread), else as pixels.
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
            var list = DisplayList(size: RenderSize(width: spec.side, height: spec.side), scale: spec.key.pixelScale)
            list.antialiasingScale = spec.key.antialiasingScale
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
                images.append((spec, (try? backend.render(list)).map { .pixels($0) } ?? .failed))
            }
        }
        return TileResult(
            key: job.key, images: images, prepared: prepared, sourceData: sourceData, symbols: symbols)
    }

    /// Takes a made tile into the store (results of older revisions are dropped).
    func integrate(_ result: TileResult) {
        guard result.key.revision == revision else { return }
        if result.failed {
            let settings = options.asyncTiles
            tileRetries.noteFailure(
                result.key.tile, now: clock.now, baseDelay: settings?.retryBaseDelay ?? 1,
                maxRetries: settings?.maxTileRetries ?? 0)
            return
        }
        tileRetries.noteSuccess(result.key.tile)
        for (key, tile) in result.prepared {
            let engineKey = EngineKey.prepared(
                source: sources[key.source]?.dataID ?? 0, layer: key.layer, tile: key.tile, tileSize: options.tileSize)
            if !engine.contains(engineKey) { engine.insert(.prepared(tile), for: engineKey, cost: tile.cost) }
        }
        for made in result.symbols { adoptSymbols(made) }
        if !supply.framesReadTiles {
            if sourceDataSeen.count > 16_384 { sourceDataSeen.removeAll() }
            for (key, hasData) in result.sourceData { sourceDataSeen[key] = hasData }
        }
        var stored = false
        for (spec, made) in result.images {
            let frame = TileImageFrame(side: spec.side, offset: spec.offset)
            switch made {
            case .handle(let handle): storeTileImage(handle, for: spec.key, frame: frame)
            case .pixels(let pixels):
                // A backend that cannot take the image leaves it missing (asked for again by a later frame).
                guard let handle = try? backend.register(pixels) else { continue }
                storeTileImage(handle, for: spec.key, frame: frame)
            case .empty:
                markEmpty(spec.key)
                continue
            case .failed: continue
            }
            stored = true
            if supply.framesReadTiles {
                frameStats.tileImagesRendered += 1
            } else {
                noteTileImageArrival(spec.key)
            }
        }
        if stored && !supply.framesReadTiles { frameStats.tilesArrived += 1 }
    }
}

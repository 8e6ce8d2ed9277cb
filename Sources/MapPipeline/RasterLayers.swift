import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// Reports undecodable raster tiles once per source (the tile itself is drawn as missing). One reporter is shared
/// by a renderer and its asynchronous worker (the options are copied, the reporter is not), so a source is reported
/// once whichever thread decoded the tile. Waymark's own.
///
/// Thread rules: any thread (locked); the handler is called on the decoding thread and must not block.
public final class RasterProblemReporter: @unchecked Sendable {
    private let handler: @Sendable (SourceProblem) -> Void
    private let lock = NSLock()
    private var reported: [SourceProblem] = []

    /// Creates a reporter.
    /// - Parameter handler: called with the first problem of each source. Default: a line
    ///   `waymark: source 'id': url: message` on standard error.
    public init(handler: @escaping @Sendable (SourceProblem) -> Void = RasterProblemReporter.printProblem) {
        self.handler = handler
    }

    /// Writes `waymark: <problem>` to standard error.
    public static let printProblem: @Sendable (SourceProblem) -> Void = { problem in
        FileHandle.standardError.write(Data("waymark: \(problem)\n".utf8))
    }

    /// The first problem of each source reported so far, in order.
    public var problems: [SourceProblem] { lock.withLock { reported } }

    /// Reports `problem` unless its source was reported already.
    public func report(_ problem: SourceProblem) {
        let first = lock.withLock {
            guard !reported.contains(where: { $0.source == problem.source }) else { return false }
            reported.append(problem)
            return true
        }
        if first { handler(problem) }
    }
}

/// What the raster layers keep between frames besides the images (in the engine, ``EngineKey``'s `raster`): the fades,
/// and which source tiles were decoded already (so synchronous frames do not fetch them again). Frame thread only.
struct RasterLayerState {
    var fades = RasterFades()
    /// Asynchronous frames drawing raster layers as vectors (the tile-image cache off): source tiles asked of asynchronous sources
    /// straight from the frame, and their answers.
    let arrivals = RasterArrivals()
    /// Source tiles this renderer decoded into the engine (forgotten wholesale beyond 16,384).
    var decoded = Set<SourceDataKey>()
}

/// Raster source tiles an asynchronous frame asked of an asynchronous source itself (with the tile-image cache off,
/// frames draw raster layers on the frame thread, which never waits): at most one request per tile, the answer kept
/// until the frame takes it (a success then lives decoded in the engine; a failure stays, so a failing tile is not
/// asked again every frame; the source's own retries apply). At most 4,096 answers are kept. Any thread.
final class RasterArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight = Set<SourceDataKey>()
    private var answers: [SourceDataKey: TileLoadResult] = [:]
    private var untaken = 0

    /// The answer for `key` if it arrived (a success is handed over once), else `nil` after asking `source` for it
    /// (once); `wake` runs on the answering thread when it arrives.
    func answer(
        for key: SourceDataKey, source: ResolvedSource, address: TileID, wake: (@Sendable () -> Void)?
    ) -> TileLoadResult? {
        lock.lock()
        if let known = answers[key] {
            if case .success = known {
                answers[key] = nil
                untaken -= 1
            }
            lock.unlock()
            return known
        }
        let ask = inFlight.insert(key).inserted
        lock.unlock()
        guard ask else { return nil }
        _ = source.tiles.requestTile(at: address, priority: 0) { [self] result in
            lock.lock()
            inFlight.remove(key)
            if answers.count >= 4096 {
                answers.removeAll()
                untaken = 0
            }
            answers[key] = result
            if case .success = result { untaken += 1 }
            lock.unlock()
            wake?()
        }
        return nil
    }

    /// Whether requests are on their way or answers wait for a frame to take them.
    var isBusy: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !inFlight.isEmpty || untaken > 0
    }

    /// Whether answers wait for a frame to take them.
    var hasUntaken: Bool {
        lock.lock()
        defer { lock.unlock() }
        return untaken > 0
    }
}

/// Raster tile images fading in (`raster-fade-duration`, asynchronous frames): when each arrived on the renderer's
/// clock and for how long it fades. Frame thread only.
struct RasterFades {
    private var starts: [TileImageKey: (start: Double, duration: Double)] = [:]
    /// Whether the last frame drew a tile image part-way through its fade (so the next frame differs).
    private(set) var running = false

    /// A new frame.
    mutating func beginFrame() { running = false }

    /// A tile image arrived at `now` and fades in over `duration` seconds (none when `duration` is 0).
    mutating func noteArrival(_ key: TileImageKey, now: Double, duration: Double) {
        guard duration > 0, duration.isFinite else { return }
        if starts.count > 4096 { starts.removeAll() }
        starts[key] = (now, duration)
    }

    /// The image's opacity at `now`, 0…1 (1 once its fade is over, which forgets it).
    mutating func alpha(_ key: TileImageKey, now: Double) -> Double {
        guard let entry = starts[key] else { return 1 }
        let t = (now - entry.start) / entry.duration
        if t >= 1 || !t.isFinite {
            starts[key] = nil
            return 1
        }
        running = true
        return max(0, t)
    }
}

extension MapRenderer {
    /// Appends the `raster` layer's images for `tile` (MapLibre's raster layer).
    ///
    /// Source tiles are taken at the covering tile's zoom shifted by `log2(options.tileSize / source tileSize)`
    /// (a 512-point source tile covers four 256-point covering tiles), clamped to the source's `maxzoom` (over-zoom:
    /// the part of the ancestor's image over the tile, scaled up) and drawn nothing below its `minzoom` or outside
    /// its `bounds` (such tiles are never requested). Each image is decoded once by
    /// ``MapRenderOptions/rasterDecoder``, passed through the colour properties (``RasterColorAdjustment``), and
    /// cached per source tile, colour pass and backend in the engine (``EngineKey``'s `raster`: shared by the renderers
    /// of one backend on the same data, under the engine's one byte budget); `raster-opacity` and `raster-resampling` apply when it is
    /// drawn (``ImageQuad``: one affine piece per image when flat, 8 × 8 pieces under pitch).
    /// `raster-fade-duration`: synchronous frames draw the settled state (every tile is loaded when drawn);
    /// asynchronous frames fade newly arrived tile images in (``rasterFadeAlpha(_:run:scale:)``).
    func drawRaster(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, projectors: inout ProjectorCache,
        into out: inout [DrawCommand]
    ) {
        guard let id = layer.layer.source, let source = sources[id], case .raster(let definition)? = style.sources[id]
        else { return }
        let paint = RasterPaint(layer: layer.layer, zoom: zoom)
        guard paint.opacity > 0 else { return }
        let adjustment = RasterColorAdjustment(
            hueRotate: paint.hueRotate, brightnessMin: paint.brightnessMin, brightnessMax: paint.brightnessMax,
            saturation: paint.saturation, contrast: paint.contrast)
        appendSourceTileImages(
            source, definition: definition, tile: tile, opacity: paint.opacity,
            nearestNeighbor: paint.resamplesNearest, projectors: &projectors, into: &out,
            ancestorsFor: { rasterTileIsMissing(source, $0, adjustment: adjustment) ? source.minZoom : nil },
            loaded: { cachedRasterImage(source, $0, adjustment: adjustment) },
            image: { rasterImage(source, $0, adjustment: adjustment) })
    }

    /// The backend image of the raster source tile `address` if it was already decoded (never reads the source).
    func cachedRasterImage(_ source: ResolvedSource, _ address: TileID, adjustment: RasterColorAdjustment)
        -> ImageHandle?
    {
        let key = EngineKey.raster(
            source: source.dataID, address: address, adjustment: adjustment, backend: backendToken)
        if case .raster(let hit, _)? = engine.value(key) { return hit }
        return nil
    }

    /// Whether the raster source tile `address` is known to have no image (the source answered without one, or its
    /// bytes did not decode), as opposed to one not read yet.
    func rasterTileIsMissing(_ source: ResolvedSource, _ address: TileID, adjustment: RasterColorAdjustment) -> Bool {
        let key = EngineKey.raster(
            source: source.dataID, address: address, adjustment: adjustment, backend: backendToken)
        if case .raster(nil, _)? = engine.value(key) { return true }
        return false
    }

    /// Appends, for each source tile a raster-like layer reads over the covering `tile`
    /// (``rasterAddresses(_:definition:tile:)``), the part of its image over `tile` (an over-zoomed ancestor's part
    /// scaled up) as ``ImageQuad`` pieces: one affine piece when flat, 8 × 8 under pitch. `image` gives a source
    /// tile's backend image, `nil` to draw nothing for it. Used by `raster` and `hillshade` layers.
    ///
    /// `ancestorsFor` and `loaded` (MapLibre's cover for a source tile that is missing, `raster-masking`,
    /// `raster-loading`): for an address known to have no image, `ancestorsFor` gives the lowest zoom to look down
    /// to (`nil`: the tile is not known missing, e.g. still on its way); its nearest ancestor with an image is drawn
    /// over its cell (each level asked only once the one above it is known missing), then its children at the next
    /// zoom that `loaded` already has an image for (never read for this), over that.
    func appendSourceTileImages(
        _ source: ResolvedSource, definition: RasterSource, tile: TileID, opacity: Double, nearestNeighbor: Bool,
        projectors: inout ProjectorCache, into out: inout [DrawCommand],
        ancestorsFor: (TileID) -> Int? = { _ in nil }, loaded: (TileID) -> ImageHandle? = { _ in nil },
        image: (TileID) -> ImageHandle?
    ) {
        let extent = 4096.0
        let projector = projectors.projector(extent: Int(extent))
        let n = Double(1 << tile.z)
        let cells = projector.isPerspective ? 8 : 1
        // The part of source tile `address`'s image over the covering tile and over the cell of `cell` (itself or a
        // descendant).
        func draw(_ handle: ImageHandle, _ address: TileID, cell: TileID) {
            let ns = Double(1 << address.z)
            let nc = Double(1 << cell.z)
            let (ax, ay) = (address.x, address.y)
            let u0 = max(0, (max(Double(tile.x) / n, Double(cell.x) / nc) - Double(ax) / ns) * ns)
            let u1 = min(1, (min(Double(tile.x + 1) / n, Double(cell.x + 1) / nc) - Double(ax) / ns) * ns)
            let v0 = max(0, (max(Double(tile.y) / n, Double(cell.y) / nc) - Double(ay) / ns) * ns)
            let v1 = min(1, (min(Double(tile.y + 1) / n, Double(cell.y + 1) / nc) - Double(ay) / ns) * ns)
            guard u1 > u0, v1 > v0 else { return }
            ImageQuad.append(
                handle, uRange: u0...u1, vRange: v0...v1, cells: cells, opacity: opacity,
                nearestNeighbor: nearestNeighbor,
                screen: { u, v in
                    let x = ((Double(ax) + u) / ns - Double(tile.x) / n) * n * extent
                    let y = ((Double(ay) + v) / ns - Double(tile.y) / n) * n * extent
                    return projector.isVisible(x, y) ? projector.project(x, y) : nil
                }, into: &out)
        }
        for wanted in rasterAddresses(source, definition: definition, tile: tile) {
            if let handle = image(wanted) {
                draw(handle, wanted, cell: wanted)
                continue
            }
            guard let lowest = ancestorsFor(wanted) else { continue }
            var z = wanted.z - 1
            while z >= max(lowest, 0) {
                let d = wanted.z - z
                let parent = TileID(z: z, x: wanted.x >> d, y: wanted.y >> d)
                if let hit = image(parent) {
                    draw(hit, parent, cell: wanted)
                    break
                }
                guard ancestorsFor(parent) != nil else { break }
                z -= 1
            }
            guard wanted.z < 30 else { continue }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let child = TileID(z: wanted.z + 1, x: wanted.x * 2 + dx, y: wanted.y * 2 + dy)
                if let hit = loaded(child) { draw(hit, child, cell: child) }
            }
        }
    }

    /// The source tiles a raster layer draws over the canonical covering `tile` (see ``drawRaster``): at the zoom
    /// shifted by the tile sizes, clamped to the source's zooms, inside its `bounds`; empty below `minzoom`. The
    /// asynchronous stage fetches exactly these (``fetchAddresses(_:_:)``).
    func rasterAddresses(_ source: ResolvedSource, definition: RasterSource, tile: TileID) -> [TileID] {
        // Both sizes are powers of two: the shift is the difference of their exponents.
        let side =
            options.tileSize.isFinite && options.tileSize >= 1 && options.tileSize <= 65536 ? options.tileSize : 256
        let shift = Int(side).trailingZeroBitCount - definition.tileSize.trailingZeroBitCount
        // Below zoom 0 (a 512-point source tile over a 256-point world) the zoom-0 tile is drawn scaled down. A zoom-0
        // covering tile of a frame whose style zoom is below 0 takes the levels it lies below (a 256-point source at
        // style zoom −1 is read at its zoom 0, as at camera zoom 0 with 256-point tiles).
        let wanted = max(0, tile.z + shift - (tile.z == 0 ? frameLevelsBelowZero : 0))
        guard wanted >= source.minZoom else { return [] }
        let zs = min(wanted, source.maxZoom)
        let ns = Double(1 << zs)
        let range: (x: ClosedRange<Int>, y: ClosedRange<Int>)
        if zs >= tile.z {
            let k = 1 << (zs - tile.z)
            range = (tile.x * k...tile.x * k + k - 1, tile.y * k...tile.y * k + k - 1)
        } else {
            let d = tile.z - zs
            range = ((tile.x >> d)...(tile.x >> d), (tile.y >> d)...(tile.y >> d))
        }
        let west = WebMercator.worldPoint(LatLng(latitude: definition.bounds[3], longitude: definition.bounds[0]))
        let east = WebMercator.worldPoint(LatLng(latitude: definition.bounds[1], longitude: definition.bounds[2]))
        var out: [TileID] = []
        for ay in range.y {
            for ax in range.x {
                let left = Double(ax) / ns
                let top = Double(ay) / ns
                guard left < east.x, left + 1 / ns > west.x, top < east.y, top + 1 / ns > west.y else { continue }
                out.append(TileID(z: zs, x: ax, y: ay))
            }
        }
        return out
    }

    /// The backend image of a raster source tile after the colour pass, decoded on first use; `nil` when the source
    /// has no such tile, its bytes do not decode (reported once per source to
    /// ``MapRenderOptions/rasterProblems``, then drawn as missing), or no decoder is set. A tile an asynchronous
    /// source failed to give is not cached (the pipeline asks for it again, ``AsyncTileRendering/retryBaseDelay``).
    func rasterImage(_ source: ResolvedSource, _ address: TileID, adjustment: RasterColorAdjustment)
        -> ImageHandle?
    {
        let key = EngineKey.raster(
            source: source.dataID, address: address, adjustment: adjustment, backend: backendToken)
        if case .raster(let hit, _)? = engine.value(key) { return hit }
        guard let decoder = options.rasterDecoder else { return nil }
        let dataKey = SourceDataKey(source: source.id, address: address)
        // Fetched ahead, else read now or (an asynchronous frame drawing vectors, the tile-image cache off, never
        // waits on the network) asked for and drawn by a later frame once it arrived
        // (``TileSupply/unfetchedRasterTile(_:at:for:)``).
        guard
            case .success(let bytes)? = fetchedTiles[dataKey]
                ?? unfetchedRasterTile(source, at: address)
        else { return nil }
        var handle: ImageHandle? = nil
        if let bytes, !bytes.isEmpty {
            do {
                let image = try decoder.decode(bytes)
                handle = try? backend.register(adjustment.apply(to: image))
            } catch {
                let location =
                    (source.tiles as? any TileLocating)?.location(of: address) ?? "\(source.id) tile \(address)"
                options.rasterProblems.report(
                    SourceProblem(source: source.id, url: location, message: "not an image (\(error))"))
            }
        }
        assembly.stats.tilesDecoded += 1
        if rasterState.decoded.count > 16_384 { rasterState.decoded.removeAll() }
        rasterState.decoded.insert(dataKey)
        // What the budget evicts (of any renderer) is queued for its backend's renderers to unregister at their next
        // frame start (this frame may still draw it).
        engine.insert(.raster(handle, backend: backendToken), for: key, cost: handle?.byteCount ?? 64)
        return handle
    }

    /// The longest `raster-fade-duration` of the raster layers of tile-layer run `run` visible at `zoom`, seconds
    /// (0 when the run has none: its images appear at once).
    func rasterFadeSeconds(run: Int, zoom: Double) -> Double {
        var longest = 0.0
        for layer in tileImages.runs[run] where layer.type == .raster && layer.layer.isVisible(atZoom: zoom) {
            longest = max(longest, RasterPaint(layer: layer.layer, zoom: zoom).fadeDurationMilliseconds / 1000)
        }
        return longest
    }

    /// Asynchronous mode: a tile image of a run arrived (TileImages.swift); runs with a raster layer fade it in
    /// from its stand-in over their `raster-fade-duration` on ``clock``.
    func noteTileImageArrival(_ key: TileImageKey) {
        rasterState.fades.noteArrival(
            key, now: clock.now, duration: rasterFadeSeconds(run: key.run, zoom: Double(key.z)))
    }

    /// The opacity a tile image of `run` is drawn with in this frame: below 1 while it fades in (its stand-in is
    /// then drawn under it, ``TileImageStage/standIn(for:scale:run:place:)``), 1 otherwise.
    func rasterFadeAlpha(_ tile: TileID, run: Int, scale: Double) -> Double {
        rasterState.fades.alpha(tileImages.tileImageKey(tile, run: run, scale: scale), now: clock.now)
    }
}

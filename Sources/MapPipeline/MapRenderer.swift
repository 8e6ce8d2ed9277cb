// MapRenderer — the frame pipeline's facade (camera → tile cover → decode → style → layout → labels → DisplayList).
//
// Usage (hosts: `waymark snapshot`, RenderTests, map-benchmarks, `waymark render-test`, later GMSMapView):
//
//     let style = try Style.load(contentsOfFile: "Data/styles/default.json")
//     let renderer = try MapRenderer(style: style, backend: CairoBackend()) { id, source in
//         try myResolver(id, source)            // any `TileSource`: MBTiles, GeoJSON cut to MVT, a test double…
//     }
//     let camera = CameraState(center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 16,
//                              size: ScreenSize(width: 1280, height: 720))
//     let image: RasterImage = try renderer.render(camera: camera, scale: 1)   // or displayList(camera:scale:)
//
// `MapHosting.MapHost` wraps this with a CairoBackend, `mbtiles://` resolution through MBTilesSource and PNG
// output; `MapHost.fileResolver` is the default resolver to fall back on for vector sources.
import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle
import WaymarkTime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings of a ``MapRenderer``.
public struct MapRenderOptions: Sendable {
    /// Points a vector tile covers at its own zoom, which fixes the zoom a style is evaluated at (see
    /// ``MapRenderer/styleZoom(for:)``, where the camera meets the style): 512, the default, is MapLibre's convention
    /// (style zoom = camera zoom − 1, every MapLibre style's zooms mean that); 256 evaluates the style at the camera's
    /// own (Google's) zoom. Vector tiles are requested at `floor(style zoom)`; raster sources keep their own
    /// `tileSize` (a 256-point raster source is read one level deeper than a 512-point one). Powers of two from 64 to
    /// 4096.
    public var tileSize: Double
    /// Compose flat frames (pitch 0) from cached tile images (one per tile and run of consecutive tile-drawn style
    /// layers, rendered once per style revision, integer zoom and scale for the frame that first needs it, at its
    /// zoom and sub-pixel phase) instead of drawing every tile's vectors; the layers draw in style order either way.
    /// Pitched frames are composed from tile images too, each warped onto the ground by its tile's homography
    /// (``DrawCommand/projectedImage(_:)``; circle layers stay vectors), asynchronous ones with warped stand-ins for
    /// images the workers have not made yet. `false` draws every frame from the tiles' vectors (the reference path).
    /// Default `true`.
    public var usesTileImageCache: Bool
    /// Give frames an attribution line (``DisplayList/attribution``) and draw it at the bottom-left. Default `true`.
    public var drawsAttribution: Bool
    /// With ``drawsAttribution``: the line is only returned with the frame (``DisplayList/attribution``), not drawn,
    /// for hosts that place it themselves (`GMSMapView`'s controls draw it inside the padding, D16). Default `false`.
    public var hostPlacesAttribution = false
    /// Always-shown attribution placed before the sources' own (decision D16). Default "© OpenStreetMap
    /// contributors"; `nil` shows only the sources' attributions.
    public var baseAttribution: String?
    /// The engine whose store keeps decoded and prepared tiles, symbols and tile images between frames, shared
    /// with every renderer on the same data under one byte budget (``MapEngine``). Default ``MapEngine/shared``.
    public var engine: MapEngine
    /// Threads that make a frame's missing tiles (decode, over-zoom and clip, style evaluation, tessellation and
    /// rasterisation of independent tiles): a synchronous frame runs up to this many at once (its own thread and
    /// threads with backends from ``makeTileBackend``), asynchronous mode starts this many workers. A frame's
    /// `fill-extrusion` layers also draw their rows on up to this many threads (at most one a processor; the same
    /// pixels whatever it is). `1...64` (clamped); default the larger of 2 and `ProcessInfo.activeProcessorCount`.
    /// Read when the renderer is made.
    public var tileThreads: Int
    /// Creates the backend of each extra tile thread of synchronous frames (called on the frame's thread, once per
    /// thread, on the first frame that needs it; for example `{ CairoBackend() }`). Default `nil`: synchronous
    /// frames make their tiles on their own thread alone. The pixels are the same either way.
    public var makeTileBackend: (@Sendable () -> any RenderBackend)?
    /// Label placement settings (collision grid, perspective scaling, dedup tolerance).
    public var placement: PlacementOptions
    /// Seconds a label takes to fade in once placed and to fade out once no longer placed, on
    /// ``MapRenderer/clock`` (MapLibre's `fadeDuration` map option; Waymark's own, not in Google's SDK; rules:
    /// `LabelFades`). While a label fades, ``MapRenderer/wantsAnotherFrame`` is `true`. `0` (the default, and what
    /// snapshots, goldens, benchmarks and the render-test runner use) turns fading off: every frame shows the settled
    /// labels. `GMSMapView` in a window app sets 0.3 (MapLibre's default). Negative or non-finite values mean 0.
    public var labelFadeDuration = 0.0
    /// Render missing tiles on a worker thread and draw stand-ins meanwhile (see ``AsyncTileRendering``); read when
    /// the renderer is created. Default `nil`: synchronous, every frame complete (snapshots, tests, goldens).
    public var asyncTiles: AsyncTileRendering?
    /// Decodes raster tiles (`raster` layers; RasterLayers.swift). Default `nil`: raster layers draw nothing (hosts
    /// set `MapHosting.PixbufRasterDecoder`).
    public var rasterDecoder: (any RasterImageDecoder)?
    /// Where unusable tiles are reported, once per source (RasterLayers.swift): raster tiles that are not images,
    /// vector tiles that are not MVT (random bytes, an HTML page, a gzip bomb past the inflate limit), and tiles a
    /// source fails to read (a corrupt MBTiles row, a PMTiles entry past the end of the file); docs/BEHAVIOUR.md
    /// D20. Default: a line on
    /// standard error.
    public var rasterProblems = RasterProblemReporter()
    /// Waymark's own (not in Google's API): debug overlays drawn over every frame (CollisionDebug.swift). Setting
    /// it sets ``PlacementOptions/recordsCollisionShapes`` in ``placement`` to whether it has
    /// ``MapDebugOverlays/collisionShapes``. Default none: frames are drawn as without it.
    public var debugOverlays: MapDebugOverlays = [] {
        didSet { placement.recordsCollisionShapes = debugOverlays.contains(.collisionShapes) }
    }

    /// Creates options; see the properties for defaults.
    public init(
        tileSize: Double = 512, usesTileImageCache: Bool = true, drawsAttribution: Bool = true,
        baseAttribution: String? = "© OpenStreetMap contributors", placement: PlacementOptions = PlacementOptions(),
        asyncTiles: AsyncTileRendering? = nil, engine: MapEngine = .shared, tileThreads: Int? = nil,
        makeTileBackend: (@Sendable () -> any RenderBackend)? = nil
    ) {
        self.engine = engine
        self.tileThreads = min(max(tileThreads ?? max(2, ProcessInfo.processInfo.activeProcessorCount), 1), 64)
        self.makeTileBackend = makeTileBackend
        self.asyncTiles = asyncTiles
        self.tileSize = tileSize
        self.usesTileImageCache = usesTileImageCache
        self.drawsAttribution = drawsAttribution
        self.baseAttribution = baseAttribution
        self.placement = placement
    }
}

/// What the last frame did (for tests, benchmarks and the viewer's HUD).
public struct FrameStatistics: Sendable, Equatable {
    /// Tiles covering the view.
    public var tiles = 0
    /// Source tiles decoded this frame (not found in the cache).
    public var tilesDecoded = 0
    /// Tile images rasterised this frame.
    public var tileImagesRendered = 0
    /// Tile images taken from the cache.
    public var tileImagesReused = 0
    /// Symbol candidates handed to placement.
    public var symbolCandidates = 0
    /// Labels placed.
    public var labelsPlaced = 0
    /// Whether the frame was composed from tile images (else drawn as vectors).
    public var composedFromTileImages = false
    /// The attribution line drawn (empty when none).
    public var attribution = ""
    /// Asynchronous mode: tiles of this frame asked of the worker (missing images or label data).
    public var tilesPending = 0
    /// Asynchronous mode: tile images the worker finished that this frame took into the cache.
    public var tilesArrived = 0
    /// Asynchronous mode: missing tiles drawn from a cached ancestor's or children's images (pitched frames also
    /// from the same tile's image at another resolution or style zoom).
    public var standIns = 0

    /// Creates empty statistics.
    public init() {}
}

/// Errors creating a renderer.
public enum MapRendererError: Error, Sendable, CustomStringConvertible {
    /// The resolver failed for a source; carries the source id and the error text.
    case sourceUnavailable(id: String, message: String)

    /// A message naming the source.
    public var description: String {
        switch self {
        case .sourceUnavailable(let id, let message): return "source '\(id)' cannot be opened: \(message)"
        }
    }
}

/// Renders frames of a styled vector map: the frame pipeline behind snapshots, tests and the map view.
///
/// One frame: the camera's tile cover at `floor(style zoom)` (mixed zooms under pitch) → each source's tile for each
/// covering tile (over-zoomed from the source's `maxzoom`, decoded through a byte-bounded cache) → every style layer
/// in order (`minzoom`/`maxzoom`/`visibility`, filter, paint and layout evaluated at the zoom for each feature) →
/// fills, lines and circles projected through the camera (affine per tile when flat; per-vertex perspective with
/// near-plane clipping and nothing beyond the horizon under pitch) → symbol layers turned into `SymbolFeature`s and
/// placed by one `SymbolPlacer` across all tiles (cross-tile dedup, collision, upright labels) → the frame's steps
/// in style order (``FrameStep``: backgrounds, runs of tile-drawn layers, each symbol layer's labels in its place) →
/// the caller's overlay → attribution at the bottom-left.
///
/// Flat frames (pitch 0) with ``MapRenderOptions/usesTileImageCache`` rasterise each run of consecutive tile-drawn
/// layers of a tile once into a tile image (`TileImageCache`, keyed by ``revision``, integer zoom, scale and run) and
/// compose pans, fractional zooms and bearing from those images (`TileCompositor`), between the labels of the symbol
/// layers around the run; only labels are placed per frame. Pitched frames warp tile images onto the ground (one
/// homography per tile, `WarpedTileImages.swift`); with the cache off every frame draws the runs as vectors.
///
/// With ``MapRenderOptions/asyncTiles`` set, missing tiles are made on a worker thread the renderer starts (and
/// stops when it is released) while frames draw stand-ins; see ``AsyncTileRendering``, ``hasPendingTiles`` and
/// ``wantsAnotherFrame``.
///
/// Thread rules: one renderer per thread; it keeps caches and the previous frame's placement (so labels stay
/// stable between frames). Bad data never stops a frame: undecodable features and unreadable tiles are skipped.
public final class MapRenderer {
    /// The style being drawn.
    public let style: Style
    /// The backend that measures text and rasterises tile images.
    public let backend: any RenderBackend
    /// Settings; changing ``MapRenderOptions/tileSize`` needs ``invalidate()``.
    public var options: MapRenderOptions {
        didSet {
            sourceTiles.tileSize = options.tileSize
            sourceTiles.problems = options.rasterProblems
            labels.options = options
            tileImages.options = options
        }
    }
    /// Bumped by ``invalidate()``: tile images and symbols of older revisions are never reused.
    public internal(set) var revision = 0 {
        didSet { tileImages.revision = revision }
    }
    /// What the last frame did.
    public private(set) var lastFrameStatistics = FrameStatistics()

    /// The source-tile stage: resolved sources, fetches, decoding, preparing, retries (SourceTiles.swift).
    let sourceTiles: SourceTiles
    let layers: [CompiledLayer]
    /// The frame-assembly stage's state: the style's steps, the tile-layer runs and the frame being built
    /// (FramePlan.swift).
    var assembly: FrameAssembly
    /// The store shared with other renderers (``MapEngine``), this renderer's group in it (symbols and tile
    /// images: ``MapEngine/group(_:)``), its backend's token, and what the group key is made of.
    let engine: MapEngine
    var group = 0 {
        didSet { tileImages.group = group }
    }
    let backendToken: Int
    private let styleHash: Int
    var spriteHash = 0
    /// Pitched frames' prepared tile draws (`TileDraws.swift`): how many were prepared and how many taken from the
    /// engine (tests read them to see nothing is prepared twice).
    package var tileDrawsPrepared = 0
    package var tileDrawsReused = 0
    private var generation = 0
    /// Where the frames' tile jobs run: made now on the tile threads, or asked of the workers (``TileSupply``; the
    /// one place the synchronous/asynchronous choice is made, once, when the renderer is made). It never calls the
    /// renderer: MapRenderer+Supply.swift applies its answers.
    let tileSupply: any TileSupply
    /// A tile thread's or worker's renderer: it makes tiles for its owner and draws no frames.
    let isLane: Bool
    /// Synchronous frames: the renderers of the extra tile threads (made on the first frame that needs them).
    var lanes: [MapRenderer] = []
    var sprite: SpriteSheet?
    var spriteImages: [String: ImageHandle?] = [:]
    /// Sprite images cut out once for line patterns (shared pixel buffers), `nil` for names the sprite lacks.
    var spritePixels: [String: RasterImage?] = [:]
    /// The depth and colour buffers of the frame's `fill-extrusion` layers (FillExtrusionLayers.swift), kept between
    /// frames.
    let extrusionRaster = ExtrusionRaster()
    /// The label stage: candidates, placement, fades, glyph measurer and label images (LabelStage.swift).
    let labels: LabelStage
    /// The tile-image stage: the tile-layer runs, their images in the engine, stand-ins, composition and warps
    /// (TileImages.swift, WarpedTileImages.swift).
    let tileImages: TileImageStage
    /// Asynchronous mode: the raster tile images fading in (RasterLayers.swift).
    var rasterState = RasterLayerState()
    /// The clock of tile retries and `raster-fade-duration` fades (asynchronous mode) and of label fades, seconds. Inject a
    /// `ManualClock` in tests; default the system's monotonic clock. Same thread as the frames.
    public var clock: any TimeSource = SystemClock.shared
    /// The sprite's version (lanes and workers follow its changes).
    var spriteVersion = 0
    /// Asynchronous mode: tiles the last frame asked of the worker (0 when it was complete).
    public internal(set) var pendingTileCount = 0

    /// Creates a renderer.
    /// - Parameters:
    ///   - style: a parsed style (its diagnostics are the caller's to report).
    ///   - backend: measures text and rasterises tile images (`CairoBackend`, or `RecordingBackend` in tests).
    ///   - options: settings. Defaults to ``MapRenderOptions/init(tileSize:usesTileImageCache:drawsAttribution:baseAttribution:placement:asyncTiles:engine:tileThreads:makeTileBackend:)``.
    ///   - resolveSource: gives the ``TileSource`` of each style source (see ``TileSourceResolver``).
    /// - Throws: ``MapRendererError/sourceUnavailable(id:message:)`` when the resolver throws.
    public convenience init(
        style: Style, backend: any RenderBackend, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver
    ) throws {
        var resolved: [String: ResolvedSource] = [:]
        for (id, source) in style.sources.sorted(by: { $0.key < $1.key }) {
            let tiles: (any TileSource)?
            do { tiles = try resolveSource(id, source) } catch {
                throw MapRendererError.sourceUnavailable(id: id, message: "\(error)")
            }
            guard let tiles else { continue }
            var minZoom = tiles.minZoom
            var maxZoom = tiles.maxZoom
            switch source {
            case .vector(let v):
                minZoom = max(minZoom, zoomLevel(v.minzoom, fallback: 0))
                maxZoom = min(maxZoom, zoomLevel(v.maxzoom, fallback: 30))
            case .geojson(let g): maxZoom = min(maxZoom, zoomLevel(g.maxzoom, fallback: 30))
            case .raster(let r):
                minZoom = max(minZoom, zoomLevel(r.minzoom, fallback: 0))
                maxZoom = min(maxZoom, zoomLevel(r.maxzoom, fallback: 30))
            case .unsupported: break
            }
            minZoom = min(max(minZoom, 0), 30)
            maxZoom = min(max(maxZoom, minZoom), 30)
            let text = source.attribution ?? tiles.metadata.attribution
            let shared = options.engine.share(tiles)
            resolved[id] = ResolvedSource(
                id: id, dataID: shared.id, tiles: shared.tiles,
                isVector: { if case .vector = source { true } else { false } }(),
                minZoom: minZoom, maxZoom: maxZoom, attribution: text.map(plainAttribution))
        }
        self.init(style: style, backend: backend, options: options, resolved: resolved)
    }

    /// Creates a renderer over sources already resolved; a `lane` (tile thread or worker) shares its owner's
    /// sources and makes tiles only.
    init(
        style: Style, backend: any RenderBackend, options: MapRenderOptions, resolved: [String: ResolvedSource],
        lane: Bool = false
    ) {
        self.style = style
        self.backend = backend
        self.options = options
        engine = options.engine
        isLane = lane
        backendToken = options.engine.join(backend: backend)
        backend.useCacheStore(options.engine.cacheStore(backend: backendToken))
        styleHash = lane ? 0 : structuralHash((style.layers, style.sources))
        layers = style.layers.enumerated().map { CompiledLayer($1, index: $0) }
        sourceTiles = SourceTiles(
            sources: resolved, layers: layers, engine: options.engine, tileSize: options.tileSize,
            problems: options.rasterProblems)
        assembly = FrameAssembly(layers: layers)
        labels = LabelStage(style: style, layers: layers, backend: backend, options: options)
        tileSupply = makeTileSupply(options: options, sources: resolved) { index, queue, settings in
            MapRenderer.startWorker(
                index: index, queue: queue, settings: settings, style: style, options: options, sources: resolved)
        }
        tileImages = TileImageStage(
            steps: assembly.steps, sources: resolved, engine: options.engine, backendToken: backendToken,
            options: options, tileSupply: tileSupply)
        if !lane { group = joinGroup() }
        // Property observers do not run in the initializer.
        tileImages.group = group
    }

    deinit {
        tileSupply.stop()
        for case let entry? in labels.glyphImages.values { backend.unregister(entry.handle) }
        releaseFrameImages()
        for handle in extrusionRaster.releaseImages() { backend.unregister(handle) }
        let left = engine.leave(backend: backend)
        for handle in left.handles { backend.unregister(handle) }
        if left.last { backend.useCacheStore(nil) }
    }

    /// This renderer's group in the engine for its style, sources, backend, tile size and sprite (a new one of its
    /// own after ``invalidate()``).
    func joinGroup() -> Int {
        engine.group(
            GroupKey(
                style: styleHash, sources: sources.mapValues(\.dataID), backend: backendToken,
                // The glyph store measures labels too: it is folded into the sprite's part of the key.
                tileSize: options.tileSize, sprite: spriteHash ^ labels.glyphText.groupSalt, generation: generation))
    }

    /// Unregisters this backend's tile images that left the engine's store (the start of each frame).
    func releaseEvictedImages() {
        for handle in engine.takeReleases(backend: backendToken) { backend.unregister(handle) }
    }

    /// Whether the last frame lacked tiles the worker is still making (or raster tiles a pitched frame asked for)
    /// or labels it put off, or finished tiles wait for the next frame (asynchronous mode; always `false`
    /// otherwise). Same thread as the frames.
    public var hasPendingTiles: Bool {
        pendingTileCount > 0 || tileSupply.labelWorkDeferred || tileSupply.hasArrivedTiles
            || rasterState.arrivals.isBusy
    }

    /// Whether the next frame will differ for the same camera and should be drawn now: finished tiles wait, or the
    /// last frame put label work off (``AsyncTileRendering/labelBuildBudgetMilliseconds``), a raster tile is fading
    /// in (`raster-fade-duration`), or a failed tile's retry is due on ``clock`` (asynchronous mode); or, in either
    /// mode, a label is part-way through its fade (``MapRenderOptions/labelFadeDuration``). Same thread as the frames.
    public var wantsAnotherFrame: Bool {
        labels.fades.isFading || tileSupply.labelWorkDeferred || tileSupply.hasArrivedTiles || rasterState.fades.running
            || sourceTiles.retries.isDue(now: clock.now) || rasterState.arrivals.hasUntaken
    }

    /// Whether finished tiles wait to be drawn by the next frame (asynchronous mode). Any thread.
    public var hasArrivedTiles: Bool { tileSupply.hasArrivedTiles }

    /// Asynchronous mode: waiting requests dropped because their tiles left the view (for tests and the HUD).
    public var staleTileRequestsDropped: Int { tileSupply.staleRequestsDropped }

    /// The ids of the style sources that have a tile source, sorted.
    public var resolvedSourceIDs: [String] { sources.keys.sorted() }

    /// Forgets every cached tile image and symbol of this renderer and every decoded and prepared tile of its
    /// sources (for every renderer sharing them: ``MapEngine``), and bumps ``revision`` (call after changing the
    /// style's sources' contents or ``options``). The renderer then has a group of its own in the engine.
    public func invalidate() {
        revision += 1
        let oldGroup = group
        let dataIDs = Set(sources.values.map(\.dataID))
        engine.removeAll { key in
            switch key {
            case .decoded(let source, _), .prepared(let source, _, _, _), .raster(let source, _, _, _),
                .hillshade(let source, _, _, _):
                return dataIDs.contains(source)
            case .symbols(let g, _, _, _), .image(let g, _), .draws(let g, _): return g == oldGroup
            case .backendValue: return false
            }
        }
        releaseEvictedImages()
        generation = engine.newID()
        group = joinGroup()
        labels.forgetPlacement()
        sourceTiles.retries = TileRetrySchedule()
        rasterState = RasterLayerState()
        pendingTileCount = 0
        tileSupply.forget()
    }

    /// Makes the next frame place its labels from scratch, without preferring the labels the previous frame showed
    /// (tests comparing frames settled along different paths, e.g. asynchronous against synchronous).
    package func forgetLabelPlacement() { labels.forgetPlacement() }

    // MARK: Frame state the layer painters read (the frame-assembly stage, FramePlan.swift)

    /// ``FrameAssembly/scale``.
    var frameScale: Double { assembly.scale }
    /// ``FrameAssembly/levelsBelowZero``.
    var frameLevelsBelowZero: Int { assembly.levelsBelowZero }
    /// ``FrameAssembly/images``.
    var frameImages: [ImageHandle] {
        get { assembly.images }
        _modify { yield &assembly.images }
    }

    /// The zoom the style is evaluated at for a camera: `camera.zoom − log2(tileSize / 256)`, so camera zoom − 1 with
    /// the default ``MapRenderOptions/tileSize`` of 512 (decision D25 in docs/BEHAVIOUR.md).
    ///
    /// ## The zoom convention
    /// This is the one place where the camera meets the style. The camera's zoom is Google's (`GMSCameraPosition.zoom`,
    /// `waymark snapshot --camera`): at zoom z the world is 256 · 2^z points wide. A MapLibre style's zooms (layer
    /// `minzoom`/`maxzoom`, `["zoom"]` in expressions and filters) are MapLibre's, whose world at zoom z is 512 · 2^z
    /// points wide: the same ground scale is one zoom less. So every style is evaluated at camera zoom − 1, as
    /// MapLibre draws it at that scale, and vector tiles are chosen for 512-point tiles at that zoom
    /// (`floor(camera zoom − 1)`: a quarter of the tiles 256-point tiles would need). Raster sources are read at their
    /// own `tileSize` (RasterLayers). Below camera zoom 1 the style zoom is negative: layers without a positive
    /// `minzoom` still draw, as in MapLibre GL JS. Waymark's bundled styles are written in Google's zooms and shifted
    /// by their generator (scripts/data/styles/stylekit.py) so the default map looks the same at the same camera. Google's
    /// `GMSTileLayer` keeps Google's 256-point tiles (its own tile choice), and the render-test runner renders
    /// MapLibre's cases at the case's zoom + 1, so their style zoom is the case's.
    public func styleZoom(for camera: CameraState) -> Double { Self.styleZoom(for: camera, tileSize: options.tileSize) }

    /// ``styleZoom(for:)`` for a ``MapRenderOptions/tileSize`` of `tileSize` points.
    static func styleZoom(for camera: CameraState, tileSize: Double) -> Double { camera.zoom - log2(tileSize / 256) }

    /// Renders a frame into pixels.
    /// - Parameters:
    ///   - camera: the camera, its `size` the view in points.
    ///   - scale: device pixels per point, `> 0`. Default 1.
    ///   - overlay: commands in screen points drawn above the labels and below the attribution (markers).
    /// - Returns: `camera.size × scale` pixels, premultiplied ARGB as the backend produces them.
    /// - Throws: `RenderError` from the backend (empty or huge size).
    public func render(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) throws -> RasterImage {
        try backend.render(displayList(camera: camera, scale: scale, overlay: overlay))
    }

    /// Renders a frame of `size` points (replacing the camera's size).
    public func render(camera: CameraState, size: ScreenSize, scale: Double = 1) throws -> RasterImage {
        var c = camera
        c.size = size
        return try render(camera: c, scale: scale)
    }

    /// The display list of a frame (see the type's documentation for the steps); tile images it needs are
    /// rasterised through the backend on the way.
    /// - Parameters:
    ///   - camera: the camera; its `size` is the frame size in points.
    ///   - scale: device pixels per point, `> 0` (non-finite or non-positive values mean 1).
    ///   - overlay: commands drawn above the labels and below the attribution.
    /// - Returns: the frame's commands at the camera's size and `scale`, ready for a ``RenderBackend``; only a clear
    ///   to transparent when the camera has a non-finite field.
    public func displayList(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) -> DisplayList {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        assembly.begin(scale: scale)
        releaseEvictedImages()
        releaseFrameImages()
        for handle in extrusionRaster.beginFrame() { backend.unregister(handle) }
        sourceTiles.retries.beginFrame()
        sourceTiles.decodedCount = 0
        rasterState.fades.beginFrame()
        // Asynchronous tiles: the workers' finished tiles are taken into the store and the label budget starts.
        for result in tileSupply.takeFinishedTiles() { integrate(result) }
        tileSupply.beginFrame()
        let size = ScreenSize(width: camera.size.width, height: camera.size.height)
        var list = DisplayList(size: size, scale: scale)
        let z = styleZoom(for: camera)
        guard z.isFinite, camera.center.isFinite, camera.bearing.isFinite, camera.pitch.isFinite,
            size.width.isFinite, size.height.isFinite
        else {
            // A camera with a non-finite field draws nothing rather than trapping.
            list.append(.clear(.clear))
            endTileFrame()
            assembly.stats.tilesDecoded += sourceTiles.takeDecodedCount()
            assembly.stats.standIns += tileImages.takeStandInCount()
            lastFrameStatistics = assembly.stats
            return list
        }
        let tileZoom = max(0, min(24, Int(z.rounded(.down))))
        assembly.levelsBelowZero = max(0, -Int(max(z, -24).rounded(.down)))
        let transform = camera.transform
        assembly.center = transform.centerWorld
        let tiles = transform.coveringTiles(tileZoom: tileZoom).sorted { a, b in
            a.z != b.z ? a.z < b.z : (a.y, a.unwrappedX) < (b.y, b.unwrappedX)
        }
        assembly.stats.tiles = tiles.count
        if tileSupply.waitsForSources { prefetchAsynchronousSources(tiles) }
        defer { fetchedTiles = [:] }
        // The tile stage (TileSupply.swift): what the tiles lack is made now in parallel, or asked of the workers.
        // Tile images: flat frames placed by the compositor, pitched frames warped (WarpedTileImages).
        let composes = options.usesTileImageCache
        let found = provideTiles(tiles, camera: transform, scale: scale, composes: composes)

        // Labels are placed before drawing: placement is global across the symbol layers (LabelStage.swift), for the
        // frame's camera with the labels' sub-pixel phase held while the map pans (LabelPhaseHold.swift).
        let labelCamera = labels.phaseHold.camera(for: camera, scale: scale)
        let placement = placeLabels(tiles, found: found, zoom: z, camera: labelCamera)

        // The frame assembly (FramePlan.swift): every step in style order, the overlay, the attribution.
        assembleSteps(
            tiles, placement: placement, zoom: z, camera: camera, transform: transform,
            labelTransform: labelCamera == camera ? transform : labelCamera.transform, scale: scale,
            composes: composes, overlay: overlay, into: &list)
        endTileFrame()
        assembly.stats.tilesDecoded += sourceTiles.takeDecodedCount()
        assembly.stats.standIns += tileImages.takeStandInCount()
        lastFrameStatistics = assembly.stats
        return list
    }

    // MARK: Source tiles (the source stage, SourceTiles.swift)

    /// The style's sources that have a tile source, by id (``SourceTiles/sources``).
    var sources: [String: ResolvedSource] { sourceTiles.sources }
    /// The answers the current frame or job got from asynchronous sources (``SourceTiles/fetched``).
    var fetchedTiles: [SourceDataKey: TileLoadResult] {
        get { sourceTiles.fetched }
        set { sourceTiles.fetched = newValue }
    }

    /// ``SourceTiles/sourceKey(_:_:)``.
    func sourceKey(_ source: ResolvedSource, _ tile: TileID) -> SourceTileKey? { sourceTiles.sourceKey(source, tile) }

    /// ``SourceTiles/location(_:_:)``.
    func location(_ source: ResolvedSource, _ address: TileID) -> String { sourceTiles.location(source, address) }

    /// ``SourceTiles/pointBufferPoints``.
    static var pointBufferPoints: Double { SourceTiles.pointBufferPoints }

    /// The features of `sourceLayer` in `tile`'s own coordinates (over-zoomed and clipped with a small buffer; lines
    /// whole, or over-zoomed with their distance along the line kept: ``overzoomLinesKeepingDistance``).
    func preparedFeatures(sourceID: String, sourceLayer: String, tile: TileID) -> [PreparedFeature] {
        preparedTile(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile)?.features ?? []
    }

    /// The prepared tile of ``preparedFeatures(sourceID:sourceLayer:tile:)``, from the engine or, where the supply
    /// says frames prepare what they lack (``TileSupply/preparesMissingData``), made now by the source stage (`nil`:
    /// no such source or tile, or an asynchronous frame that does not have it yet).
    func preparedTile(sourceID: String, sourceLayer: String, tile: TileID) -> PreparedTile? {
        guard let source = sources[sourceID] else { return nil }
        let key = sourceTiles.preparedKey(source, sourceLayer: sourceLayer, tile: tile)
        if let hit = sourceTiles.cachedPreparedTile(key) { return hit }
        // Asynchronous frames never decode: the workers prepare tiles (requested by the frame) and hand them over.
        guard tileSupply.preparesMissingData else { return nil }
        return sourceTiles.prepareTile(source, sourceLayer: sourceLayer, tile: tile, key: key)
    }
}

/// A style zoom number as a whole zoom level in 0…30 (`fallback` when not finite).
func zoomLevel(_ z: Double, fallback: Int) -> Int {
    guard z.isFinite else { return fallback }
    return Int(min(max(z, 0), 30).rounded(.down))
}

/// A symbol layer of one covering tile (any zoom step).
struct SymbolSlot: Hashable {
    let layer: Int
    let tile: TileID
}

/// Projectors of one tile per layer extent (almost always one extent per tile).
struct ProjectorCache {
    let tile: TileID
    let camera: CameraTransform?
    let imageSize: Double
    var offset = ScreenPoint.zero
    var bearing = 0.0
    private var cached: (Int, TileProjector)?

    init(tile: TileID, camera: CameraTransform) {
        self.tile = tile
        self.camera = camera
        imageSize = 0
    }

    /// Projectors into a tile image whose tile square is `imageSize` points with its corner at `offset`, to be
    /// turned by `bearing` when composed.
    init(tile: TileID, imageSize: Double, offset: ScreenPoint = .zero, bearing: Double = 0) {
        self.tile = tile
        camera = nil
        self.imageSize = imageSize
        self.offset = offset
        self.bearing = bearing
    }

    mutating func projector(extent: Int) -> TileProjector {
        if let cached, cached.0 == extent { return cached.1 }
        let p: TileProjector
        if let camera {
            p = TileProjector(tile: tile, extent: extent, camera: camera)
        } else {
            let k = imageSize / Double(extent)
            var image = TileProjector(affine: k, 0, 0, k, offset.x, offset.y)
            image.imageBearing = bearing
            p = image
        }
        cached = (extent, p)
        return p
    }
}

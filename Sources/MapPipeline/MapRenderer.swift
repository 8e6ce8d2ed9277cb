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
    /// threads with backends from ``makeTileBackend``), asynchronous mode starts this many workers. `1...64`
    /// (clamped); default the larger of 2 and `ProcessInfo.activeProcessorCount`. Read when the renderer is made.
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
    public var options: MapRenderOptions
    /// Bumped by ``invalidate()``: tile images and symbols of older revisions are never reused.
    public internal(set) var revision = 0
    /// What the last frame did.
    public private(set) var lastFrameStatistics = FrameStatistics()

    let sources: [String: ResolvedSource]
    let layers: [CompiledLayer]
    /// The style's layers as a frame draws them (``FrameStep/plan(_:)``) and the tile-layer runs' layers by run.
    let frameSteps: [FrameStep]
    let tileLayerRuns: [[CompiledLayer]]
    /// The (source id, source layer) pairs the style's non-background layers read, in a stable order (asynchronous
    /// mode: what a tile needs prepared before its labels draw).
    let usedSourceLayers: [(String, String)]
    /// The store shared with other renderers (``MapEngine``), this renderer's group in it (symbols and tile
    /// images: ``MapEngine/group(_:)``), its backend's token, and what the group key is made of.
    let engine: MapEngine
    var group = 0
    let backendToken: Int
    private let styleHash: Int
    var spriteHash = 0
    /// Pitched frames' prepared tile draws (`TileDraws.swift`): how many were prepared and how many taken from the
    /// engine (tests read them to see nothing is prepared twice).
    package var tileDrawsPrepared = 0
    package var tileDrawsReused = 0
    private var generation = 0
    /// How the frames get what their tiles lack: made now on the tile threads, or asked of the workers
    /// (``TileSupply``; the one place the synchronous/asynchronous choice is made, once, when the renderer is made).
    let supply: any TileSupply
    /// A tile thread's or worker's renderer: it makes tiles for its owner and draws no frames.
    let isLane: Bool
    /// Synchronous frames: the renderers of the extra tile threads (made on the first frame that needs them).
    var lanes: [MapRenderer] = []
    var sprite: SpriteSheet?
    var spriteImages: [String: ImageHandle?] = [:]
    /// Sprite images cut out once for line patterns (shared pixel buffers), `nil` for names the sprite lacks.
    var spritePixels: [String: RasterImage?] = [:]
    /// Images the last frame made for itself alone (heatmaps, extrusions), unregistered when the next frame starts.
    var frameImages: [ImageHandle] = []
    /// The depth and colour buffers of the frame's `fill-extrusion` layers (FillExtrusionLayers.swift), kept between
    /// frames.
    let extrusionRaster = ExtrusionRaster()
    private let placer: SymbolPlacer
    /// The placer's measurer: the style's glyphs when set (``setGlyphs(_:)``), else the backend's fonts.
    let glyphText: GlyphTextMeasurer
    /// Label images of the glyph path by command and scale (`nil`: nothing to draw), and those the frame used.
    var glyphImages: [GlyphImageKey: (handle: ImageHandle, x: Int, y: Int)?] = [:]
    var glyphImagesUsed: Set<GlyphImageKey> = []
    private var previousPlacement: PlacementResult?
    /// Every label's fade across frames (``MapRenderOptions/labelFadeDuration``; Symbols.swift).
    var labelFades = LabelFades()
    /// The last frame's symbol candidates and their placement, for ``lastPlacedSymbols`` (MapRenderer+Hits.swift).
    var lastLabels: (candidates: [SymbolFeature], placement: PlacementResult)?
    var frameStats = FrameStatistics()
    /// Device pixels per point of the frame being built (`fill-outline-color` hairlines are one device pixel).
    var frameScale = 1.0
    /// The frame's centre (world units, for the order of tile jobs).
    var frameCenter = WorldPoint(x: 0.5, y: 0.5)
    /// Whole zoom levels the frame's style zoom lies below 0 (a camera below zoom 1: its vector tiles are clamped to
    /// zoom 0), so that raster sources with smaller tiles are read at the level the style zoom asks for
    /// (``rasterAddresses(_:definition:tile:)``). 0 otherwise.
    var frameLevelsBelowZero = 0
    /// The sources that answer tile requests later (network; ``TileSource/isAsynchronous``), and the answers the
    /// current frame (synchronous mode) or job (the worker) got from them.
    let asynchronousSources: [ResolvedSource]
    var fetchedTiles: [SourceDataKey: TileLoadResult] = [:]
    /// Asynchronous mode: tiles a source failed to give, retried with backoff on ``clock`` (AsyncTiles.swift), and
    /// the raster tile images fading in (RasterLayers.swift).
    var tileRetries = TileRetrySchedule()
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
        sources = resolved
        asynchronousSources = resolved.values.filter(\.tiles.isAsynchronous).sorted { $0.id < $1.id }
        layers = style.layers.enumerated().map { CompiledLayer($1, index: $0) }
        frameSteps = FrameStep.plan(layers)
        tileLayerRuns = frameSteps.compactMap { step in
            if case .tileLayers(_, let runLayers) = step { return runLayers }
            return nil
        }
        usedSourceLayers = MapRenderer.sourceLayers(of: layers, in: resolved)
        glyphText = GlyphTextMeasurer(fallback: backend.textMeasurer)
        placer = SymbolPlacer(measurer: glyphText, options: options.placement)
        supply = makeTileSupply(options: options, style: style, sources: resolved)
        if !lane { group = joinGroup() }
    }

    deinit {
        supply.stop()
        for case let entry? in glyphImages.values { backend.unregister(entry.handle) }
        releaseFrameImages()
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
                tileSize: options.tileSize, sprite: spriteHash ^ glyphText.groupSalt, generation: generation))
    }

    /// Unregisters this backend's tile images that left the engine's store (the start of each frame).
    func releaseEvictedImages() {
        for handle in engine.takeReleases(backend: backendToken) { backend.unregister(handle) }
    }

    /// Whether the last frame lacked tiles the worker is still making (or raster tiles a pitched frame asked for)
    /// or labels it put off, or finished tiles wait for the next frame (asynchronous mode; always `false`
    /// otherwise). Same thread as the frames.
    public var hasPendingTiles: Bool {
        pendingTileCount > 0 || supply.labelWorkDeferred || supply.hasArrivedTiles || rasterState.arrivals.isBusy
    }

    /// Whether the next frame will differ for the same camera and should be drawn now: finished tiles wait, or the
    /// last frame put label work off (``AsyncTileRendering/labelBuildBudgetMilliseconds``), a raster tile is fading
    /// in (`raster-fade-duration`), or a failed tile's retry is due on ``clock`` (asynchronous mode); or, in either
    /// mode, a label is part-way through its fade (``MapRenderOptions/labelFadeDuration``). Same thread as the frames.
    public var wantsAnotherFrame: Bool {
        labelFades.isFading || supply.labelWorkDeferred || supply.hasArrivedTiles || rasterState.fades.running
            || tileRetries.isDue(now: clock.now) || rasterState.arrivals.hasUntaken
    }

    /// Whether finished tiles wait to be drawn by the next frame (asynchronous mode). Any thread.
    public var hasArrivedTiles: Bool { supply.hasArrivedTiles }

    /// Asynchronous mode: waiting requests dropped because their tiles left the view (for tests and the HUD).
    public var staleTileRequestsDropped: Int { supply.staleRequestsDropped }

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
        previousPlacement = nil
        labelFades.reset()
        tileRetries = TileRetrySchedule()
        rasterState = RasterLayerState()
        pendingTileCount = 0
        supply.forget()
    }

    /// Makes the next frame place its labels from scratch, without preferring the labels the previous frame showed
    /// (tests comparing frames settled along different paths, e.g. asynchronous against synchronous).
    package func forgetLabelPlacement() {
        previousPlacement = nil
        labelFades.reset()
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
    public func styleZoom(for camera: CameraState) -> Double { camera.zoom - log2(options.tileSize / 256) }

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
        frameScale = scale
        frameStats = FrameStatistics()
        releaseEvictedImages()
        releaseFrameImages()
        extrusionRaster.beginFrame()
        tileRetries.beginFrame()
        rasterState.fades.beginFrame()
        // Asynchronous tiles: the workers' finished tiles are taken into the store and the label budget starts.
        supply.beginFrame(for: self)
        let size = ScreenSize(width: camera.size.width, height: camera.size.height)
        var list = DisplayList(size: size, scale: scale)
        let z = styleZoom(for: camera)
        guard z.isFinite, camera.center.isFinite, camera.bearing.isFinite, camera.pitch.isFinite,
            size.width.isFinite, size.height.isFinite
        else {
            // A camera with a non-finite field draws nothing rather than trapping.
            list.append(.clear(.clear))
            supply.endFrame(for: self)
            lastFrameStatistics = frameStats
            return list
        }
        let tileZoom = max(0, min(24, Int(z.rounded(.down))))
        frameLevelsBelowZero = max(0, -Int(max(z, -24).rounded(.down)))
        let transform = camera.transform
        frameCenter = transform.centerWorld
        let tiles = transform.coveringTiles(tileZoom: tileZoom).sorted { a, b in
            a.z != b.z ? a.z < b.z : (a.y, a.unwrappedX) < (b.y, b.unwrappedX)
        }
        frameStats.tiles = tiles.count
        supply.prefetchSources(of: tiles, for: self)
        defer { fetchedTiles = [:] }
        // The tile stage (TileSupply.swift): what the tiles lack is made now in parallel, or asked of the workers.
        let flat = camera.pitch == 0
        // Tile images: flat frames placed by the compositor, pitched frames warped (WarpedTileImages).
        let composes = options.usesTileImageCache
        let found = provideTiles(tiles, camera: transform, scale: scale, composes: composes)

        // Labels are placed before drawing: placement is global across the symbol layers.
        var symbols: [SymbolFeature] = []
        var order = 0
        let symbolLayers = symbolLayers(atZoom: z)
        // Candidates the tile stage found cached are not looked up again.
        let usesFound = found.layerCount == symbolLayers.count
        for (t, tile) in tiles.enumerated() {
            for (l, layer) in symbolLayers.enumerated() {
                var built =
                    (usesFound ? found.candidates(tile: t, layer: l) : nil)
                    ?? symbolFeatures(layer, tile: tile, zoom: z)
                for i in built.indices {
                    built[i].sourceOrder = order
                    order += 1
                }
                symbols.append(contentsOf: built)
            }
        }
        frameStats.symbolCandidates = symbols.count
        placer.options = options.placement
        let placement = placer.place(symbols, camera: camera, previous: previousPlacement)
        previousPlacement = placement
        lastLabels = (symbols, placement)
        frameStats.labelsPlaced = placement.symbols.count

        // Every step in style order (style spec "layers": each drawn over the ones before it), whatever the caches:
        // tile-layer runs from tile images (placed north-up, warped turned or pitched; circle runs of warped frames
        // and frames with the cache off as vectors); labels in their layer's place.
        frameStats.composedFromTileImages = composes
        let labels = glyphLabelCommands(
            translatedLabels(fadedLabelCommands(placement, camera: transform), zoom: z, bearing: camera.bearing),
            scale: scale, zoom: z)
        for step in frameSteps {
            switch step {
            case .backgrounds(let backgrounds):
                appendBackgrounds(backgrounds, z: z, camera: camera, into: &list)
            case .symbols(let layer):
                guard layer.layer.isVisible(atZoom: z) else { continue }
                list.append(contentsOf: labels[layer.index] ?? [])
            case .frameImage(let layer):
                guard layer.layer.isVisible(atZoom: z) else { continue }
                list.append(
                    contentsOf: layer.type == .heatmap
                        ? heatmapCommands(layer, tiles: tiles, z: z, camera: transform, scale: scale, size: size)
                        : fillExtrusionCommands(layer, tiles: tiles, z: z, camera: transform, scale: scale, size: size))
            case .tileLayers(let run, _) where composes && composesRun(run, camera: transform):
                list.append(
                    contentsOf: flat
                        ? composeTileImages(tiles, run: run, camera: transform, scale: scale)
                        : composeWarpedTileImages(tiles, run: run, camera: transform, scale: scale))
            case .tileLayers(_, let runLayers):
                for layer in runLayers where layer.layer.isVisible(atZoom: z) {
                    drawVectors(layer, tiles: tiles, z: z, flat: flat, camera: transform, scale: scale, into: &list)
                }
            }
        }
        if !list.commands.contains(where: { if case .clear = $0 { return true } else { return false } }) {
            list.commands.insert(.clear(.clear), at: 0)
        }
        list.append(contentsOf: overlay)

        // Attribution.
        if options.drawsAttribution {
            let text = attributionText(tiles: tiles, zoom: z)
            frameStats.attribution = text
            list.attribution = text
            if !text.isEmpty && !options.hostPlacesAttribution {
                var style = TextStyle(
                    fontFamilies: ["sans-serif"], size: 11, color: RGBAColor(rgb: 0x5f6368),
                    haloColor: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.85), haloWidth: 1.5)
                let fitted = fitAttribution(text, style: &style, width: size.width - 12)
                if !fitted.isEmpty {
                    list.append(
                        .text(
                            TextCommand(
                                text: fitted, style: style, position: ScreenPoint(x: 6, y: size.height - 5),
                                anchor: .bottomLeft)))
                }
            }
        }
        supply.endFrame(for: self)
        lastFrameStatistics = frameStats
        return list
    }

    /// The attribution line made to fit `width` points, as Google's static maps shrink their logo on small images:
    /// the font shrinks from 11 down to 8 points, then the line is cut at a word (or character) with "…"; empty when
    /// not even "© …" fits.
    func fitAttribution(_ text: String, style: inout TextStyle, width: Double) -> String {
        let measurer = backend.textMeasurer
        guard width > 0 else { return "" }
        for size in stride(from: 11.0, through: 8.0, by: -1) {
            style.size = size
            if measurer.measure(text, style: style).width <= width { return text }
        }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            while characters.last == " " || characters.last == "·" || characters.last == "," {
                characters.removeLast()
            }
            let candidate = String(characters) + "…"
            if characters.count >= 1, measurer.measure(candidate, style: style).width <= width { return candidate }
        }
        return ""
    }

    /// Appends one tile-drawn layer of every tile as vectors through the camera (circle layers of pitched frames, or
    /// with the tile-image cache off).
    private func drawVectors(
        _ layer: CompiledLayer, tiles: [TileID], z: Double, flat: Bool, camera transform: CameraTransform,
        scale: Double, into list: inout DisplayList
    ) {
        guard let sourceID = layer.layer.source, sources[sourceID] != nil else { return }
        // MapLibre clips each tile's fills and lines to the tile (a per-pixel stencil), so the buffered geometry two
        // tiles share is drawn once. Done here for flat north-up frames, with the tile's edges on device pixels;
        // circles are not clipped.
        let clipsToTile = flat && transform.state.bearing == 0 && (layer.type == .fill || layer.type == .line)
        for tile in tiles {
            var projectors = ProjectorCache(tile: tile, camera: transform)
            let start = list.commands.count
            drawLayer(layer, tile: tile, zoom: z, projectors: &projectors, into: &list.commands)
            if clipsToTile && list.commands.count > start {
                let p = projectors.projector(extent: 4096)
                let a = p.project(0, 0)
                let b = p.project(4096, 4096)
                func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
                let rect = RenderRect(
                    x: snap(min(a.x, b.x)), y: snap(min(a.y, b.y)),
                    width: snap(max(a.x, b.x)) - snap(min(a.x, b.x)),
                    height: snap(max(a.y, b.y)) - snap(min(a.y, b.y)))
                list.commands.insert(contentsOf: [.save, .clip(rect)], at: start)
                list.append(.restore)
            } else if layer.type == .line && list.commands.count > start {
                limitLineMeshes(&list.commands, from: start, to: tile, camera: transform)
            }
        }
    }

    /// Appends background layers (colour or `background-pattern`); the frame's first background becomes its
    /// `clear` when nothing was drawn before it.
    private func appendBackgrounds(
        _ backgrounds: [CompiledLayer], z: Double, camera: CameraState, into list: inout DisplayList
    ) {
        let size = list.size
        for layer in backgrounds where layer.layer.isVisible(atZoom: z) {
            let ctx = EvaluationContext(zoom: z)
            let opacity = layer.number("background-opacity", ctx, 1)
            if layer.isSet("background-pattern") {
                if list.commands.isEmpty { list.append(.clear(.clear)) }
                list.append(contentsOf: backgroundPattern(layer, ctx, camera: camera, size: size, opacity: opacity))
                continue
            }
            let color = (layer.color("background-color", ctx) ?? .black).withOpacity(opacity)
            if list.commands.isEmpty {
                list.append(.clear(color))
            } else {
                var path = RenderPath()
                path.addRect(RenderRect(x: 0, y: 0, width: size.width, height: size.height))
                list.append(.fill(FillCommand(path: path, color: color)))
            }
        }
    }

    // MARK: Attribution

    /// The attribution of the sources that have data for the frame's tiles and a visible layer, deduplicated,
    /// after ``MapRenderOptions/baseAttribution``; joined with " · ".
    func attributionText(tiles: [TileID], zoom: Double) -> String {
        var parts: [String] = []
        if let base = options.baseAttribution, !base.isEmpty { parts.append(base) }
        var used = Set<String>()
        for layer in layers where layer.layer.isVisible(atZoom: zoom) {
            if let s = layer.layer.source { used.insert(s) }
        }
        for id in used.sorted() {
            guard let source = sources[id], let text = source.attribution, !text.isEmpty else { continue }
            let inView = tiles.contains { tile in
                // Read now, or (asynchronous frames never read tiles) what the workers reported.
                guard let key = sourceKey(source, tile) else { return false }
                return supply.sourceHasData(source, key, for: self)
            }
            guard inView else { continue }
            if !parts.contains(where: { $0.lowercased() == text.lowercased() }) { parts.append(text) }
        }
        return parts.joined(separator: " · ")
    }

    // MARK: Tile data

    func sourceKey(_ source: ResolvedSource, _ tile: TileID) -> SourceTileKey? {
        guard tile.z >= source.minZoom else { return nil }
        let address = tile.canonical
        guard let plan = overzoomPlan(for: address, minZoom: source.minZoom, maxZoom: source.maxZoom) else {
            return nil
        }
        return SourceTileKey(source: source.id, address: plan.source, plan: plan)
    }

    func decodedTile(_ source: ResolvedSource, _ key: SourceTileKey) -> DecodedTile {
        let cacheKey = EngineKey.decoded(source: source.dataID, address: key.address)
        if case .decoded(let hit)? = engine.value(cacheKey) { return hit }
        let bytes: [UInt8]?
        if let answer = fetchedTiles[SourceDataKey(source: key.source, address: key.address)] {
            // Fetched ahead (asynchronous sources); a failure is not cached, so a later frame asks again.
            switch answer {
            case .success(let fetched): bytes = fetched
            case .failure(let error):
                reportReadFailure(source, key.address, error)
                return DecodedTile(bytes: nil)
            }
        } else {
            do { bytes = try source.tiles.tileData(at: key.address) } catch {
                reportReadFailure(source, key.address, error)
                bytes = nil
            }
        }
        let tile = DecodedTile(bytes: bytes)
        if source.isVector, let vector = tile.tile {
            do throws(VectorTileError) { _ = try vector.layers() } catch {
                options.rasterProblems.report(
                    SourceProblem(
                        source: source.id, url: location(source, key.address),
                        message: "not a vector tile (\(error)); drawn as no tile"))
            }
        }
        frameStats.tilesDecoded += 1
        engine.insert(.decoded(tile), for: cacheKey, cost: max(256, (bytes?.count ?? 0) * 6))
        return tile
    }

    /// Where `address` of `source` comes from, for reports: its URL or file and row (``TileLocating``).
    func location(_ source: ResolvedSource, _ address: TileID) -> String {
        (source.tiles as? any TileLocating)?.location(of: address) ?? "tile \(address.z)/\(address.x)/\(address.y)"
    }

    /// Reports a tile the source could not read (unless the source reports its own failures).
    func reportReadFailure(_ source: ResolvedSource, _ address: TileID, _ error: any Error) {
        if (source.tiles as? any TileLocating)?.reportsOwnFailures == true { return }
        options.rasterProblems.report(
            SourceProblem(source: source.id, url: location(source, address), message: "\(error); drawn as no tile"))
    }

    /// How far beyond a tile's edges, in points at the tile's own zoom, point features are kept: a tile image draws
    /// the circle of a point in this margin, so circles whose radius + stroke width + blur is at most this appear
    /// whole across tile edges (MapLibre draws a circle from every tile whose buffer holds the point).
    static let pointBufferPoints = 32.0

    /// ``pointBufferPoints`` in units of a layer with `extent` (at least 1/256 of the extent, as polygons).
    func pointBuffer(extent: Int) -> Int {
        let side = options.tileSize.isFinite && options.tileSize > 0 ? options.tileSize : 256
        let units = (Self.pointBufferPoints / side * Double(extent)).rounded(.up)
        return max(extent / 256, Int(min(units, Double(extent))))
    }

    /// The features of `sourceLayer` in `tile`'s own coordinates (over-zoomed and clipped with a small buffer; lines
    /// whole, or over-zoomed with their distance along the line kept: ``overzoomLinesKeepingDistance``).
    func preparedFeatures(sourceID: String, sourceLayer: String, tile: TileID) -> [PreparedFeature] {
        preparedTile(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile)?.features ?? []
    }

    /// The prepared tile of ``preparedFeatures(sourceID:sourceLayer:tile:)``, from the engine or made now (`nil`:
    /// no such source or tile, or an asynchronous frame that does not have it yet).
    func preparedTile(sourceID: String, sourceLayer: String, tile: TileID) -> PreparedTile? {
        guard let source = sources[sourceID] else { return nil }
        let key = EngineKey.prepared(
            source: source.dataID, layer: sourceLayer, tile: tile.canonical, tileSize: options.tileSize)
        if case .prepared(let hit)? = engine.value(key) { return hit }
        // Asynchronous frames never decode: the workers prepare tiles (requested by the frame) and hand them over.
        return supply.missingPreparedTile(source, sourceLayer: sourceLayer, tile: tile, key: key, for: self)
    }

    /// Prepares `source`'s `sourceLayer` for `tile` from its decoded source tile and caches it under `key` (`nil`:
    /// the tile is outside the source's zoom range).
    func prepareTile(_ source: ResolvedSource, sourceLayer: String, tile: TileID, key: EngineKey) -> PreparedTile? {
        guard let sk = sourceKey(source, tile), let plan = sk.plan else { return nil }
        let data = decodedTile(source, sk)
        var out: [PreparedFeature] = []
        var cost = 64
        for f in data.features(layer: sourceLayer) {
            let extent = f.feature.extent
            guard extent >= 16 && extent <= 1 << 24 else { continue }
            // Lines keep a wider margin so joins and caps at the tile edge draw; points one wide enough for the
            // circle of a point across the edge (``pointBufferPoints``); polygons a small overlap against
            // anti-aliasing seams.
            let buffer: Int
            switch f.geometry {
            case .lineStrings: buffer = extent / 32
            case .points: buffer = pointBuffer(extent: extent)
            default: buffer = extent / 256
            }
            // Over-zoomed: a feature whose bounds lie a unit or more beyond one edge of the box has nothing in it
            // (each of its lines, rings and points would be dropped by the clipper), so it is skipped unread.
            if plan.scale > 1, let b = f.bounds {
                let low = plan.apply(x: Double(b.minX), y: Double(b.minY), extent: extent)
                let high = plan.apply(x: Double(b.maxX), y: Double(b.maxY), extent: extent)
                let lo = Double(-buffer) - 1
                let hi = Double(extent + buffer) + 1
                if high.x < lo || low.x > hi || high.y < lo || low.y > hi { continue }
            }
            // Lines reach the tessellator as MapLibre's line bucket takes them: whole at the tile's own zoom, and
            // over-zoomed pieces with a lead-in that restores their distance along the ancestor's line. Distances
            // along the line (dash and pattern phase) then match MapLibre's, and a GeoJSON piece's line metrics
            // (`mapbox_clip_start/end`) describe all of it. Tiles clip their lines to the tile when drawn.
            let geometry: VectorTileGeometry
            switch (f.geometry, plan.scale == 1) {
            case (.lineStrings, true): geometry = f.geometry
            case (.lineStrings(let lines), false):
                geometry = .lineStrings(
                    overzoomLinesKeepingDistance(lines, transform: plan, extent: extent, buffer: buffer))
            case (_, true): geometry = clipGeometry(f.geometry, extent: extent, buffer: buffer)
            case (_, false): geometry = overzoomGeometry(f.geometry, transform: plan, extent: extent, buffer: buffer)
            }
            let n = geometry.pointCount
            if n == 0 { continue }
            cost += 48 + n * 8
            out.append(
                PreparedFeature(
                    feature: f.feature, geometry: geometry,
                    labelPoint: labelPoint(f.geometry, plan: plan, extent: extent)))
        }
        let made = PreparedTile(features: out, cost: cost)
        engine.insert(.prepared(made), for: key, cost: cost)
        return made
    }
}

/// A style zoom number as a whole zoom level in 0…30 (`fallback` when not finite).
func zoomLevel(_ z: Double, fallback: Int) -> Int {
    guard z.isFinite else { return fallback }
    return Int(min(max(z, 0), 30).rounded(.down))
}

struct SourceTileKey: Hashable, Sendable {
    let source: String
    let address: TileID
    let plan: OverzoomTransform?
}

struct PreparedKey: Hashable, Sendable {
    let source: String
    let layer: String
    let tile: TileID
}

/// A symbol layer of one covering tile (any zoom step).
struct SymbolSlot: Hashable {
    let layer: Int
    let tile: TileID
}

/// Immutable once made, so the asynchronous worker hands it to the frame's thread as is.
final class PreparedTile: Sendable {
    let features: [PreparedFeature]
    /// The byte estimate it was cached with.
    let cost: Int
    init(features: [PreparedFeature], cost: Int) {
        self.features = features
        self.cost = cost
    }
}

/// A feature with geometry in the covering tile's units.
struct PreparedFeature: Sendable {
    let feature: VectorTileFeature
    let geometry: VectorTileGeometry
    /// For polygons: the label point of the source feature's largest polygon (area centroid of its exterior ring),
    /// in the covering tile's units, computed before clipping so every covering tile agrees on it.
    let labelPoint: (x: Double, y: Double)?
}

/// The area centroid of the largest exterior ring, mapped through the over-zoom plan; `nil` for non-polygons.
func labelPoint(_ geometry: VectorTileGeometry, plan: OverzoomTransform, extent: Int) -> (x: Double, y: Double)? {
    guard case .polygons(let polygons) = geometry else { return nil }
    var best: (area: Double, x: Double, y: Double)?
    for polygon in polygons {
        guard let ring = polygon.first, ring.count >= 4 else { continue }
        var a = 0.0
        var cx = 0.0
        var cy = 0.0
        let x0 = Double(ring[0].x)
        let y0 = Double(ring[0].y)
        for i in 0..<(ring.count - 1) {
            let xa = Double(ring[i].x) - x0
            let ya = Double(ring[i].y) - y0
            let xb = Double(ring[i + 1].x) - x0
            let yb = Double(ring[i + 1].y) - y0
            let cross = xa * yb - xb * ya
            a += cross
            cx += (xa + xb) * cross
            cy += (ya + yb) * cross
        }
        guard abs(a) > 0 else { continue }
        let area = abs(a) / 2
        if best == nil || area > best!.area {
            best = (area, x0 + cx / (3 * a), y0 + cy / (3 * a))
        }
    }
    guard let best else { return nil }
    let p = plan.apply(x: best.x, y: best.y, extent: extent)
    return (p.x, p.y)
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

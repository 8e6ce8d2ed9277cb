import Foundation
import LinuxUIKit
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle

/// The real basemap: the vector-tile frame pipeline (`MapRenderer`) over the default style and the embedded data
/// (`Data/styles/default.json`, `Data/world.mbtiles`, `Data/helsinki.mbtiles`), executed through the `RenderBackend`
/// protocol straight into the map view's drawing target (``MapBackends/draw(_:with:into:)``: the context's canvas as
/// a `RenderTarget`, no C pointer and no concrete backend here). Flat
/// frames compose cached tile images; pitched frames warp them onto the ground. The frame's attribution comes back as data
/// (`DisplayList.attribution`); the map's controls place it (D16).
/// - Thread rules: main actor, like the map view that owns it.
@MainActor final class VectorBasemapRenderer: BasemapRenderer {
    /// The pipeline and its Cairo backend.
    let snapshotter: MapHost
    /// What frames are drawn with, through the `RenderBackend` protocol only: the snapshotter's backend (the
    /// frame's tile images and label sprites live in it). Tests wrap it to watch the frames go through.
    var backend: any RenderBackend

    /// Loads the style at `styleFile` (the default style when nil) and opens its sources.
    /// - Parameters:
    ///   - styleFile: a style JSON path, or nil for the default style.
    ///   - onTileArrived: when given, tiles are made on a worker thread (`MapRenderOptions.asyncTiles`, with its
    ///     own `CairoBackend`) and frames draw stand-ins until they arrive; the closure is called on the worker
    ///     thread after each tile (hosts wake their event loop there). Nil (the default): every frame complete.
    ///   - engine: the store of tiles and images; nil (the default): the process's ``MapEngine/shared`` (tests that
    ///     need cold caches pass one of their own).
    /// - Throws: the style's load error or the pipeline's source error, naming the file.
    convenience init(
        styleFile: String? = nil, onTileArrived: (@Sendable () -> Void)? = nil, engine: MapEngine? = nil
    ) throws {
        try self.init(style: styleFile.map { .file($0) } ?? .bundled, onTileArrived: onTileArrived, engine: engine)
    }

    /// Loads `style` (see ``MapLibreStyle``), applies `restyle` (nil: none) and opens its sources; `onTileArrived`
    /// and `engine` as above.
    /// - Throws: ``MapLibreStyleError`` for a remote URL (those load without blocking, through
    ///   `RemoteStyleBasemapRenderer`), or the style's load error or the pipeline's source error.
    init(
        style: MapLibreStyle, restyle: (@Sendable (Style) -> Style)? = nil,
        onTileArrived: (@Sendable () -> Void)? = nil,
        engine: MapEngine? = nil
    ) throws {
        var options = Self.renderOptions
        if let engine { options.engine = engine }
        if let onTileArrived {
            options.asyncTiles = AsyncTileRendering(makeBackend: { MapBackends.make() }, onTileArrived: onTileArrived)
        }
        snapshotter = try style.makeMapHost(options: options, restyle: restyle)
        backend = snapshotter.backend
        Self.logDiagnostics(of: snapshotter)
    }

    /// Logs every diagnostic of the host's style (``GMSLog``, once per style: renderers are made once per style).
    static func logDiagnostics(of host: MapHost) {
        let lines = host.renderer.style.diagnostics.map { "GMSMapView style: \($0)" }
        lines.forEach(GMSLog.warning)  // GMSLog takes any thread
    }

    /// The basemap of a map view's ``BasemapStyle``: its effective style with its rules, dark mode and traffic
    /// switch applied; `onTileArrived` and `engine` as above.
    /// - Throws: as ``init(style:restyle:onTileArrived:engine:)``.
    convenience init(
        basemap: BasemapStyle, onTileArrived: (@Sendable () -> Void)? = nil, engine: MapEngine? = nil
    ) throws {
        try self.init(
            style: basemap.effectiveStyle, restyle: basemap.restyle, onTileArrived: onTileArrived, engine: engine)
    }

    /// A basemap over a snapshotter made elsewhere (a remote style loaded off the main thread,
    /// `RemoteStyleBasemapRenderer`).
    init(snapshotter: MapHost) {
        self.snapshotter = snapshotter
        backend = snapshotter.backend
        Self.logDiagnostics(of: snapshotter)
    }

    /// A basemap over a parsed style (the imagery map types' styles, GMSMapView+MapType.swift); synchronous.
    /// - Throws: the pipeline's source error.
    init(style: Style) throws {
        snapshotter = try MapHost(style: style, options: Self.renderOptions)
        backend = snapshotter.backend
        Self.logDiagnostics(of: snapshotter)
        snapshotter.useSprite(of: style)
    }

    /// Synchronous: never (a drawn frame is complete). Asynchronous: while made tiles wait to be drawn or the last
    /// frame put label work off.
    var needsFrames: Bool { snapshotter.renderer.wantsAnotherFrame }

    /// Asynchronous mode: the last frame drew stand-ins for tiles still being made, or made tiles wait.
    var isLoading: Bool { snapshotter.renderer.hasPendingTiles }

    /// The pipeline options of every map basemap: the attribution is returned with the frame, not drawn by the
    /// pipeline (`MapRenderOptions.hostPlacesAttribution`).
    static var renderOptions: MapRenderOptions {
        var options = MapRenderOptions()
        options.hostPlacesAttribution = true
        // Labels fade (0.3 s, MapLibre's default) only in a window app (the SDL backend set the wake handler):
        // tests, snapshots and headless frames show the settled labels.
        options.labelFadeDuration = UIApplication.wakeHandler != nil ? 0.3 : 0
        // Tiles that cannot be read or decoded: once per source, to the delegate's log.
        options.rasterProblems = RasterProblemReporter { problem in
            DispatchQueue.main.async { MainActor.assumeIsolated { GMSLog.warning("GMSMapView: \(problem)") } }
        }
        return options
    }

    /// The attribution line of the last frame (its `DisplayList.attribution`); the map's controls draw it inside
    /// the padding, above the markers (D16).
    private(set) var attribution: String?

    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        // Tile retries and raster fades run on the map's clock.
        snapshotter.renderer.clock = UIAnimator.shared.clock
        let list = snapshotter.renderer.displayList(camera: camera, scale: Double(scale))
        attribution = list.attribution.isEmpty ? nil : list.attribution
        MapBackends.draw(list, with: backend, into: context)
    }

    /// How far outside a POI's drawn label or dot a tap still hits it, in points.
    static let poiTouchSlop: CGFloat = 4
    /// Half the side of the square around a POI's anchor (its dot, drawn by a circle layer) that counts as the POI.
    static let poiDotRadius: CGFloat = 6

    /// The top-most (last drawn) label of the last frame from a POI layer (source-layer `poi`, or a layer whose id
    /// starts with `poi`) whose text bounds, icon rectangle or dot square, grown by ``poiTouchSlop``, contain
    /// `point`. Its place id is ``placeID(for:)``; its name the feature's `name` (else the label text); its location
    /// the feature's position.
    func poi(at point: CGPoint) -> (placeID: String, name: String, location: CLLocationCoordinate2D)? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let x = Double(point.x)
        let y = Double(point.y)
        let slop = Double(Self.poiTouchSlop)
        func inside(_ r: RenderRect?) -> Bool {
            guard let r else { return false }
            return x >= r.minX - slop && x <= r.maxX + slop && y >= r.minY - slop && y <= r.maxY + slop
        }
        let dot = Double(Self.poiDotRadius) + slop
        for hit in snapshotter.renderer.lastPlacedSymbols.reversed()
        where Self.isPOILayer(id: hit.layerID, sourceLayer: hit.sourceLayer) {
            let onDot = abs(x - hit.screenAnchor.x) <= dot && abs(y - hit.screenAnchor.y) <= dot
            guard onDot || inside(hit.textBounds) || inside(hit.iconBounds) else { continue }
            let name = hit.name ?? hit.text
            return (Self.placeID(for: hit), name, CLLocationCoordinate2D(hit.anchor))
        }
        return nil
    }

    /// Whether a style layer draws base-map POIs: its source-layer is `poi`, or its id starts with `poi`.
    nonisolated static func isPOILayer(id: String, sourceLayer: String?) -> Bool {
        sourceLayer == "poi" || id.hasPrefix("poi")
    }

    /// The place id of a POI label, derived from its OSM id when the tile feature has one: `osm:node/<id>`,
    /// `osm:way/<id>` or `osm:relation/<id>`. The Helsinki tiles are built by tilemaker with `include_ids` (DATA.md),
    /// which writes the OSM id with the object type in bits 40–41 (1 node, 2 way, 3 relation; for example the
    /// Ateneum, way 8033120, is feature id 2^41 + 8033120). Other feature ids give `osm:<source-layer>/<id>`.
    /// Without any id: a stable id from the name and the position rounded to 1e-5° (about 1 m), `waymark:` and 16
    /// hex digits of the 64-bit FNV-1a hash of `name|lat|lng` (the same on every run and platform, unlike `Hasher`).
    static func placeID(for hit: PlacedSymbolHit) -> String {
        if let id = hit.featureID {
            let osmID = id & ((1 << 40) - 1)
            switch id >> 40 {
            case 1: return "osm:node/\(osmID)"
            case 2: return "osm:way/\(osmID)"
            case 3: return "osm:relation/\(osmID)"
            default: return "osm:\(hit.sourceLayer ?? hit.layerID)/\(id)"
            }
        }
        let lat = (hit.anchor.latitude * 1e5).rounded()
        let lng = (hit.anchor.longitude * 1e5).rounded()
        let key = "\(hit.name ?? hit.text)|\(Int(lat))|\(Int(lng))"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "waymark:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension GMSMapView {
    /// Package plumbing: when set, maps created from now on make their tiles on a worker thread and draw stand-ins
    /// (an ancestor tile scaled up, or the background) until they arrive; the handler is called on that worker
    /// thread after each tile, so a host sleeping in its event loop can wake and draw a frame — the map then reports
    /// `needsTick`. `nil` (the default): inside a window app the window loop's wake (`UIApplication.wakeMainLoop()`,
    /// set by the SDL backend) is used; elsewhere (tests, snapshots, headless runs) tiles are made inside the frame,
    /// every frame complete. Main actor; the handler any thread.
    package static var tileArrivalHandler: (@Sendable () -> Void)?

    /// Package plumbing: makes maps created from now on draw every tile inside the frame even in a window app
    /// (map-viewer's `MAP_VIEWER_SYNC_TILES=1`, for comparing frame times). Defaults to false.
    package static var synchronousTiles = false

    /// Makes the basemap of a map view, on its first frame and when its ``BasemapStyle`` changes (``mapLibreStyle``,
    /// ``mapStyle``, the appearance, ``isTrafficEnabled``, ``isBuildingsEnabled``, the terrain's elevation source):
    /// the vector basemap (for a style that loads over the network, one built in the background:
    /// `RemoteStyleBasemapRenderer`), or the plain stand-in (with a logged warning naming the problem) when the style
    /// or data cannot be found (an elevation source that cannot be opened: the basemap without it, with a warning).
    /// Tests replace it to draw markers over a plain, data-independent background. Main actor.
    static var makeDefaultBasemap: (BasemapStyle) -> any BasemapRenderer = { style in
        GMSMapView.defaultBasemap(style)
    }

    /// The default of ``makeDefaultBasemap`` (tests put it back after replacing it).
    static func defaultBasemap(_ basemap: BasemapStyle) -> any BasemapRenderer {
        let style = basemap.effectiveStyle
        let wake =
            GMSMapView.synchronousTiles
            ? nil : UIApplication.wakeHandler.map { _ in { @Sendable in UIApplication.wakeMainLoop() } }
        if style.loadsOverNetwork {
            // Fetched off the main thread; frames draw what they have meanwhile.
            return RemoteStyleBasemapRenderer(
                style: style, restyle: basemap.restyle, onArrival: GMSMapView.tileArrivalHandler ?? wake)
        }
        do {
            return try VectorBasemapRenderer(basemap: basemap, onTileArrived: GMSMapView.tileArrivalHandler ?? wake)
        } catch {
            if let terrain = basemap.terrain {
                // The terrain's elevation source cannot be opened: the map without its hillshade (`.normal`'s look).
                GMSLog.warning(
                    "GMSMapView: mapType terrain is drawn as .normal: its elevation source \(terrain.source) cannot"
                        + " be used (\(error))")
                var plain = basemap
                plain.terrain = nil
                return defaultBasemap(plain)
            }
            GMSLog.warning(
                "GMSMapView: no map data (\(error)); drawing a plain background. Set WAYMARK_DATA_DIR to the Data/"
                    + " folder of a Waymark checkout, or run from inside one.")
            return PlainBasemapRenderer()
        }
    }
}

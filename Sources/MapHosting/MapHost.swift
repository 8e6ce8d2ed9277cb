// MapHost — the thin host glue over MapPipeline: a CairoBackend, sources opened by `SourceOpener`,
// `Data/` lookup, PNG output. MapPipeline itself imports no C; this target is where the C-backed pieces are chosen.
//
//     let snapshotter = try MapHost()                       // Data/styles/default.json, found like Data/ files
//     let png = try snapshotter.png(camera: MapHost.demoCamera)
//
// Hosts with other sources (GeoJSON as MVT) build a `MapRenderer` themselves and fall back on
// `MapHost.fileResolver` for vector sources.
import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

/// Headless map snapshots: a ``MapRenderer`` drawing a style with Cairo and Pango.
///
/// Thread rules: a snapshotter is used on the thread that made it. MapHosts of one thread share that thread's
/// Cairo backend (``threadBackend()``) and, through ``MapEngine/shared``, their tiles; synchronous frames make
/// missing tiles on up to ``MapRenderOptions/tileThreads`` threads, each with a `CairoBackend` of its own.
public final class MapHost {
    /// The renderer (for display lists, statistics and options).
    public let renderer: MapRenderer
    /// The Cairo backend the renderer draws with.
    public let backend: CairoBackend
    /// The style's glyph PBFs, which the renderer draws its labels from (``frameGlyphStore(for:network:)``: local
    /// range files read on first use, `http(s)` ones fetched when the host is made); `nil` when the style names none
    /// or they cannot be read from here. Text they do not cover is drawn by Pango.
    public let glyphs: GlyphStore?

    /// Whether opening `style` may wait on the network: an `http(s)` sprite, or a source whose tiles are read over
    /// `http(s)` (``SourceOpener/needsNetwork(_:)``: a TileJSON, `tiles` templates or a PMTiles archive over HTTP).
    /// Hosts make such renderers off their frame thread.
    public static func loadsOverNetwork(_ style: Style) -> Bool {
        let remoteSprite = style.sprite.map(StyleURL.isHTTP) ?? false
        return remoteSprite || style.sources.values.contains(where: SourceOpener.standard.needsNetwork)
    }

    /// A glyph store over a style's `glyphs` template (`http(s)://`, `file://` or a path; `{fontstack}` and `{range}`),
    /// each range loaded on first use: local files read (``localGlyphStore(pathTemplate:)``), others fetched through
    /// `network` (`nil`, the default: ``TileNetwork/shared``, opened on the first fetch) and waited for; `nil`
    /// without a template. Hosts give their renderers ``frameGlyphStore(for:network:)`` instead, which never waits on
    /// the network.
    public static func glyphStore(for style: Style, network: TileNetwork? = nil) -> GlyphStore? {
        guard let template = style.glyphs else { return nil }
        if !StyleURL.isHTTP(template), let path = localGlyphTemplate(template, baseDirectory: style.baseDirectory) {
            return localGlyphStore(pathTemplate: path)
        }
        return GlyphStore { fontstack, start in
            try (network ?? .shared).glyphs(template: template, fontstack: fontstack, range: start)
        }
    }

    /// The demo view: central Helsinki at street level (60.1699° N, 24.9443° E, zoom 16.5: the committed extract,
    /// about 1 × 1.7 km, fills the frame), 1280×720 points.
    public static let demoCamera = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9443), zoom: 16.5, size: ScreenSize(width: 1280, height: 720))

    /// Opens a style's tilesets with ``SourceOpener/standard`` (one handler per scheme: `mbtiles://` files, local
    /// and `http(s)` PMTiles archives, TileJSON documents, `tiles` templates over HTTP or as files, for vector and
    /// raster sources alike; network ones through ``TileNetwork/shared``); other sources resolve to `nil` (not
    /// drawn).
    /// - Parameters:
    ///   - id: the style source id, passed on to ``SourceOpener/open(id:source:)``.
    ///   - source: the style source.
    /// - Returns: the source's tiles, or `nil` when no handler reads it (it is not drawn).
    /// - Throws: `MBTilesError` or `PMTilesError` naming the file when it cannot be opened; ``HTTPError``,
    ///   `PMTilesError` or `StyleLoadError` naming the URL when a network source or its TileJSON cannot be read.
    public static func fileResolver(_ id: String, _ source: StyleSource) throws -> (any TileSource)? {
        try SourceOpener.standard.open(id: id, source: source)
    }

    /// Creates a snapshotter for a style file.
    /// - Parameters:
    ///   - styleFile: a style JSON path, `file://` or `http(s)://` URL (``TileNetwork/loadStyle(_:)``); `nil` means `Data/styles/default.json` found by ``DataFiles/locate(_:)``.
    ///   - options: renderer options. Defaults to the renderer's defaults.
    ///   - resolveSource: the source resolver. Defaults to ``fileResolver(_:_:)``.
    /// - Throws: `StyleLoadError` for an unreadable or unparseable style, ``MapRendererError`` when a source cannot
    ///   be opened.
    public init(
        styleFile: String? = nil, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver = MapHost.fileResolver
    ) throws {
        let path = styleFile ?? DataFiles.path("styles/default.json")
        var style = try TileNetwork.openStyle(path)
        style.diagnostics += Self.glyphDiagnostics(for: style)
        backend = MapHost.threadBackend()
        glyphs = Self.frameGlyphStore(for: style)
        renderer = try MapRenderer(
            style: style, backend: backend, options: options.forSnapshots(), resolveSource: resolveSource)
        renderer.setGlyphs(glyphs)
        useSprite(of: style)
    }

    /// Gives the renderer `style`'s sprite, loaded with ``loadSprite(_:baseDirectory:)`` (relative paths against the
    /// style's `baseDirectory`). Nothing changes when the style names no sprite or it cannot be loaded (icons then
    /// draw nothing; ``loadSprite(_:baseDirectory:)`` writes the one line naming it). Call it on the thread that made
    /// the host.
    package func useSprite(of style: Style) {
        if let sprite = style.sprite, let sheet = Self.loadSprite(sprite, baseDirectory: style.baseDirectory) {
            renderer.setSprite(sheet)
        }
    }

    /// Loads a sprite given as a file path or `file://` URL (`<base>.json` and `<base>.png`), relative paths against
    /// `baseDirectory`, or an `http(s)://` URL (through ``TileNetwork/shared``); `nil` when it is missing, unreadable
    /// or larger than ``maxSpriteSide`` pixels a side (icons then draw nothing), with one line naming the sprite and
    /// the reason on standard error.
    public static func loadSprite(_ url: String, baseDirectory: String?) -> SpriteSheet? {
        func refuse(_ reason: String) -> SpriteSheet? {
            FileHandle.standardError.write(
                Data("waymark: sprite \(HTTPError.shortened(url)): \(reason); icons are not drawn\n".utf8))
            return nil
        }
        var base = url
        let json: [UInt8]
        let png: [UInt8]
        if StyleURL.isHTTP(base) {
            guard let (j, p) = TileNetwork.shared.sprite(url) else { return refuse("cannot be fetched") }
            (json, png) = (j, p)
        } else {
            if base.hasPrefix("file://") { base.removeFirst("file://".count) }
            guard !base.contains("://") else { return refuse("not a file or http(s) URL") }
            if !base.hasPrefix("/"), let dir = baseDirectory { base = dir + "/" + base }
            let size = (try? FileManager.default.attributesOfItem(atPath: base + ".png"))?[.size] as? Int ?? 0
            guard size <= maxSpriteFileBytes else {
                return refuse("the PNG is larger than \(maxSpriteFileBytes) bytes")
            }
            guard let j = FileManager.default.contents(atPath: base + ".json"),
                let p = FileManager.default.contents(atPath: base + ".png")
            else { return refuse("cannot read \(base).json and \(base).png") }
            (json, png) = ([UInt8](j), [UInt8](p))
        }
        // The PNG's IHDR (bytes 16..<24) gives its size before anything is decoded.
        if png.count >= 24 {
            let side = { (at: Int) in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            let (width, height) = (side(16), side(20))
            guard width <= maxSpriteSide, height <= maxSpriteSide else {
                return refuse("its image is \(width)×\(height) pixels; each side must be at most \(maxSpriteSide)")
            }
        }
        guard let index = try? JSONValue.parse(bytes: json) else { return refuse("the index is not JSON") }
        guard let image = try? PNGCodec.decode(png) else { return refuse("the image is not a PNG") }
        return SpriteSheet(image: image, index: SpriteIndex(json: index))
    }

    /// The largest sprite image side accepted, in pixels: 4,096 (at most 64 MiB decoded; MapLibre's own sheets are
    /// about 1,024 a side at @2x). docs/BEHAVIOUR.md D22.
    public static let maxSpriteSide = 4096
    /// The largest local sprite PNG file read, in bytes: 32 MiB, as a network answer (``HTTPLoaderOptions``).
    public static let maxSpriteFileBytes = 32 << 20

    /// Creates a snapshotter for a parsed style.
    /// - Parameters:
    ///   - style: the style.
    ///   - options: renderer options.
    ///   - resolveSource: the source resolver. Defaults to ``fileResolver(_:_:)``.
    /// - Throws: ``MapRendererError`` when a source cannot be opened.
    public init(
        style: Style, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver = MapHost.fileResolver
    ) throws {
        var style = style
        style.diagnostics += Self.glyphDiagnostics(for: style)
        backend = MapHost.threadBackend()
        glyphs = Self.frameGlyphStore(for: style)
        renderer = try MapRenderer(
            style: style, backend: backend, options: options.forSnapshots(), resolveSource: resolveSource)
        renderer.setGlyphs(glyphs)
    }

    /// A snapshotter drawing `base` restyled by Google's styling rules (``GoogleMapStyle/translate(_:)``, GMSMapStyle's
    /// translation), with the base style's sprite. The one way `waymark snapshot --map-style` and the static maps
    /// server's `style` parameters are drawn.
    /// - Returns: the snapshotter and the translation (its `unmatchedFeatureTypes` for diagnostics).
    /// - Throws: ``MapRendererError`` when a source cannot be opened.
    public static func styled(
        _ base: Style, rules: GoogleMapStyle, options: MapRenderOptions = MapRenderOptions(),
        resolveSource: TileSourceResolver = MapHost.fileResolver
    ) throws -> (host: MapHost, translation: GoogleStyleTranslation) {
        let translation = rules.translate(base)
        let host = try MapHost(style: translation.style, options: options, resolveSource: resolveSource)
        host.useSprite(of: base)
        return (host, translation)
    }

    /// The Cairo backend of the calling thread, shared by every snapshotter (and map view) made on it, so their
    /// renderers share tile images and label sprites in the ``MapEngine`` (a backend serves one thread).
    public static func threadBackend() -> CairoBackend {
        let key = "waymark.cairoBackend"
        if let known = Thread.current.threadDictionary[key] as? CairoBackend { return known }
        let backend = CairoBackend()
        Thread.current.threadDictionary[key] = backend
        return backend
    }

    /// Renders a frame (see ``MapRenderer/render(camera:scale:overlay:)``). Raster tiles decode with
    /// ``PixbufRasterDecoder`` unless the options name another decoder.
    public func render(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) throws -> RasterImage {
        try renderer.render(camera: camera, scale: scale, overlay: overlay)
    }

    /// Renders a frame of `size` points.
    public func render(camera: CameraState, size: ScreenSize, scale: Double = 1) throws -> RasterImage {
        try renderer.render(camera: camera, size: size, scale: scale)
    }

    /// Renders a frame as PNG bytes.
    public func png(camera: CameraState, scale: Double = 1, overlay: [DrawCommand] = []) throws -> [UInt8] {
        try PNGCodec.encode(render(camera: camera, scale: scale, overlay: overlay))
    }

    /// Circle markers for GeoJSON `Point` features (a red dot with a white ring), in screen points for `camera`.
    /// - Parameters:
    ///   - geojson: a FeatureCollection, Feature or geometry; `Point` and `MultiPoint` geometries are drawn, other
    ///     features are ignored.
    ///   - camera: the view the markers are placed for.
    /// - Returns: one 6-point ``CircleCommand`` per point in front of the camera (points behind it are dropped), in
    ///   the order they appear in `geojson`.
    public static func markerCommands(geojson: JSONValue, camera: CameraState) -> [DrawCommand] {
        var points: [LatLng] = []
        func visit(_ v: JSONValue) {
            switch v["type"]?.stringValue {
            case "FeatureCollection": v["features"]?.arrayValue?.forEach(visit)
            case "Feature": if let g = v["geometry"] { visit(g) }
            case "Point":
                if let c = v["coordinates"]?.arrayValue, c.count >= 2, let lon = c[0].numberValue,
                    let lat = c[1].numberValue
                {
                    points.append(LatLng(latitude: lat, longitude: lon))
                }
            case "MultiPoint":
                for c in v["coordinates"]?.arrayValue ?? [] {
                    if let c = c.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue {
                        points.append(LatLng(latitude: lat, longitude: lon))
                    }
                }
            default: break
            }
        }
        visit(geojson)
        return markerCommands(
            points: points.map { GeoJSONPosition(longitude: $0.longitude, latitude: $0.latitude) }, camera: camera)
    }

    /// Circle markers at `points` (a red dot with a white ring), in screen points for `camera`; the points of a
    /// `--markers` file as `MapData`'s ``OverlayGeoJSON/points(from:)`` reads them (finite, within range).
    /// - Returns: one 6-point ``CircleCommand`` per point in front of the camera (points behind it are dropped), in
    ///   order.
    public static func markerCommands(points: [GeoJSONPosition], camera: CameraState) -> [DrawCommand] {
        markerCommands(markers: points.map { OverlayGeoJSON.Marker(position: $0) }, camera: camera)
    }

    /// Circle markers styled by their features' simplestyle properties (`waymark snapshot --markers`): each filled
    /// with its ``OverlayGeoJSON/MarkerStyle/color`` (default the pin's `#EA4335`, as `GMSMarker.markerImage(with:)`
    /// tints the pin) inside a 2-point white ring, radius 4, 6 or 9 points for `marker-size` small, medium
    /// (default) or large, in screen points for `camera`.
    /// - Returns: one ``CircleCommand`` per marker in front of the camera (markers behind it are dropped), in order.
    public static func markerCommands(markers: [OverlayGeoJSON.Marker], camera: CameraState) -> [DrawCommand] {
        let transform = camera.transform
        return markers.compactMap { marker in
            let p = LatLng(latitude: marker.position.latitude, longitude: marker.position.longitude)
            guard transform.depth(of: WebMercator.worldPoint(p)) > 0 else { return nil }
            let s = transform.screenPoint(for: p)
            return .circle(
                CircleCommand(
                    center: ScreenPoint(x: s.x, y: s.y), radius: marker.style.size.radius,
                    fillColor: RGBAColor(rgb: marker.style.color), strokeColor: .white, strokeWidth: 2))
        }
    }
}

extension MapRenderOptions {
    /// These options as snapshots and map views use them: ``withRasterDecoder()``, and a `CairoBackend` for each
    /// extra tile thread (``MapRenderOptions/makeTileBackend``) when none is set.
    public func forSnapshots() -> MapRenderOptions {
        var o = withRasterDecoder()
        if o.makeTileBackend == nil { o.makeTileBackend = { CairoBackend() } }
        return o
    }
}

import Foundation
import MapData
import MapStorage
import MapStyle

/// The network and cache a host uses for remote map data: resolves a style's `vector` sources given by `tiles`
/// templates or a TileJSON `url` (`http(s)://` or `file://`) to ``HTTPTileSource``s, and loads styles, sprites and
/// glyph ranges, all through one ``HTTPClient`` and its persistent ``HTTPCache``. Waymark's own.
///
/// Thread rules: immutable; any thread. The loading methods wait for the network, so call them off the frame thread
/// (style loading, renderer creation); tiles never wait (``HTTPTileSource``).
public final class TileNetwork: Sendable {
    /// The client (loader and cache).
    public let client: HTTPClient
    /// The once-per-source problem report given to every source made here (it also records the problem in
    /// ``problems``).
    public let onProblem: @Sendable (SourceProblem) -> Void
    private let recorded = ProblemRecord()

    /// The problems reported by the sources made here so far, in order (at most one per source). Waymark's own.
    public var problems: [SourceProblem] { recorded.all }

    /// Creates the network.
    /// - Parameters:
    ///   - cacheDirectory: the cache folder; `nil` for no persistent cache. Defaults to
    ///     ``HTTPCache/defaultDirectory(environment:)`` (`$XDG_CACHE_HOME/waymark`, else `~/.cache/waymark`).
    ///   - cacheBytes: the cache's size bound. Default 256 MiB.
    ///   - options: the loader's settings. Default: 8 requests per host, 3 retries, 32 MiB per response.
    ///   - onProblem: the once-per-source report. Default: a line on standard error.
    /// - Note: a cache folder that cannot be opened even read-only is left out, with one line on standard error
    ///   naming it (tiles then come from the network only).
    public init(
        cacheDirectory: String? = HTTPCache.defaultDirectory(), cacheBytes: Int = 256 << 20,
        options: HTTPLoaderOptions = HTTPLoaderOptions(),
        onProblem: @escaping @Sendable (SourceProblem) -> Void = HTTPTileSource.printProblem
    ) {
        var cache: HTTPCache?
        if let cacheDirectory {
            do { cache = try HTTPCache(directory: cacheDirectory, byteLimit: cacheBytes) } catch {
                HTTPCache.printWarning("no HTTP cache (tiles come from the network only): \(error)")
            }
        }
        client = HTTPClient(loader: HTTPLoader(options: options), cache: cache)
        let record = recorded
        self.onProblem = {
            record.add($0)
            onProblem($0)
        }
    }

    /// Creates the network over an existing client.
    public init(
        client: HTTPClient, onProblem: @escaping @Sendable (SourceProblem) -> Void = HTTPTileSource.printProblem
    ) {
        self.client = client
        let record = recorded
        self.onProblem = {
            record.add($0)
            onProblem($0)
        }
    }

    /// The process's network: cache in ``sharedCacheDirectory(environment:)``.
    public static let shared = TileNetwork(cacheDirectory: sharedCacheDirectory())

    /// The shared network's cache folder: `$WAYMARK_CACHE_DIR` when set, else
    /// ``HTTPCache/defaultDirectory(environment:)``. The default under `$HOME` is used only when `$HOME` is an
    /// existing folder: a `HOME` naming a missing path gives no persistent cache and one line on standard error,
    /// never a made-up home folder (docs/BEHAVIOUR.md D21).
    /// - Parameter environment: the environment to read. Defaults to the process's.
    /// - Returns: the cache folder's path, or `nil` (no persistent cache) when neither `$WAYMARK_CACHE_DIR` nor an
    ///   absolute `$XDG_CACHE_HOME` is set and the home folder does not exist.
    public static func sharedCacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if let explicit = environment["WAYMARK_CACHE_DIR"], !explicit.isEmpty { return explicit }
        let folder = HTTPCache.defaultDirectory(environment: environment)
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return folder }
        let home = environment["HOME"] ?? NSHomeDirectory()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: home, isDirectory: &isFolder), isFolder.boolValue else {
            HTTPCache.printWarning("HOME (\(home)) is not an existing folder: no HTTP cache (set WAYMARK_CACHE_DIR)")
            return nil
        }
        return folder
    }

    /// A URL from a string: `http(s)://` and `file://` as written, a plain path as a file URL.
    public static func url(_ location: String) -> URL? {
        if location.contains("://") { return URL(string: location) }
        return URL(fileURLWithPath: location)
    }

    /// A tile URL template resolved against the TileJSON's URL (RFC 3986 §5.2, ``StyleURL/resolve(_:against:)``:
    /// template tokens kept).
    package static func resolve(_ template: String, against base: URL) -> String {
        StyleURL.resolve(template, against: base)
    }

    /// Whether ``tileSource(id:source:)`` serves `source`: a `vector` source with a TileJSON `url` (`http(s)://`,
    /// `file://`), a `pmtiles://http(s)://…` `url`, or `tiles` templates and no `url`; a `raster` source whose `url`
    /// is `pmtiles://http(s)://…`, with an `http(s)://` TileJSON `url` or `http(s)://` `tiles` templates (local
    /// raster tiles are the host's: `MapHost.rasterResolver`).
    public static func isNetworkSource(_ source: StyleSource) -> Bool {
        switch source {
        case .vector(let v): return v.tileJSONURL != nil || v.pmtilesURL != nil || (v.url == nil && !v.tiles.isEmpty)
        case .raster(let r):
            return r.pmtilesURL != nil || remoteRasterTemplates(r) != nil || remoteRasterTileJSON(r) != nil
        default: return false
        }
    }

    /// A raster source's `http(s)://` templates when it has no `url` and names no local files.
    private static func remoteRasterTemplates(_ r: RasterSource) -> [String]? {
        let remote = r.tiles.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        return r.url == nil && r.localTileTemplate == nil && !remote.isEmpty ? remote : nil
    }

    /// A raster source's `http(s)://` TileJSON URL.
    private static func remoteRasterTileJSON(_ r: RasterSource) -> URL? {
        guard let u = r.url, u.hasPrefix("http://") || u.hasPrefix("https://") else { return nil }
        return URL(string: u)
    }

    /// The tile source of a `vector` style source served over HTTP or from a TileJSON (an ``HTTPTileSource``), or a
    /// `pmtiles://http(s)://` archive (a `PMTilesSource` over an ``HTTPRangeReader``), or of a `raster` source with
    /// such an archive or `http(s)://` `tiles` templates (PNG/JPEG/WebP bytes), or `nil` when the source is
    /// something else (`mbtiles://`, a local `pmtiles://`, …).
    ///
    /// The style's `minzoom`, `maxzoom`, `bounds`, `scheme` and `attribution` win over the TileJSON's (MapLibre's
    /// rule: the style's source properties override the TileJSON). Relative tile URLs in a TileJSON resolve against
    /// the TileJSON's URL.
    /// - Parameters:
    ///   - id: the style source id.
    ///   - source: the style source.
    /// - Returns: a source whose tiles are fetched on demand through this network (a TileJSON, or a remote archive's
    ///   header and root directory, is fetched here, waiting), or `nil` when `source` is not one of the kinds above.
    /// - Throws: ``HTTPError`` or `StyleLoadError` naming the TileJSON URL when it cannot be fetched or parsed;
    ///   ``HTTPError`` or `PMTilesError` naming the archive's URL when its header or root directory cannot be read.
    public func tileSource(id: String, source: StyleSource) throws -> (any TileSource)? {
        if case .raster(let r) = source {
            if let location = r.pmtilesURL { return try pmtilesSource(location) }
            return try rasterTileSource(id: id, source: r)
        }
        guard case .vector(let v) = source else { return nil }
        if let location = v.pmtilesURL { return try pmtilesSource(location) }
        if let location = v.tileJSONURL {
            guard let url = Self.url(location) else {
                throw HTTPError(url: location, message: "not a URL")
            }
            let tileJSON = try TileJSON(bytes: client.bytes(url), name: url.absoluteString)
            let templates = try Self.templates(of: tileJSON, at: url)
            let styleBounds = v.bounds == TileJSON.worldBounds ? nil : v.bounds
            return HTTPTileSource(
                id: id, templates: templates, scheme: v.scheme == "tms" ? "tms" : tileJSON.scheme,
                minZoom: Int(max(v.minzoom, tileJSON.minzoom).rounded(.down)),
                maxZoom: Int(min(v.maxzoom, tileJSON.maxzoom).rounded(.down)),
                bounds: styleBounds ?? tileJSON.bounds, attribution: v.attribution ?? tileJSON.attribution,
                client: client, onProblem: onProblem)
        }
        let remote = v.tiles.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("file://") }
        guard v.url == nil, !remote.isEmpty else { return nil }
        return templateSource(
            id: id, remote, scheme: v.scheme, zooms: (v.minzoom, v.maxzoom), bounds: v.bounds,
            attribution: v.attribution)
    }

    /// A TileJSON's `tiles` resolved against its URL; a TileJSON fetched over `http(s)` may name only `http(s)` tiles
    /// (docs/BEHAVIOUR.md D23).
    /// - Throws: ``HTTPError`` naming the TileJSON when it names a local file.
    static func templates(of tileJSON: TileJSON, at url: URL) throws(HTTPError) -> [String] {
        let templates = tileJSON.tiles.map { resolve($0, against: url) }
        if !url.isFileURL, let local = templates.first(where: { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") })
        {
            throw HTTPError(
                url: url.absoluteString,
                message: "a TileJSON over the network may not name local files (\(HTTPError.shortened(local)))")
        }
        return templates
    }

    /// An ``HTTPTileSource`` over a style source's own `tiles` templates and properties (vector or raster: the
    /// tiles are bytes).
    private func templateSource(
        id: String, _ templates: [String], scheme: String, zooms: (min: Double, max: Double), bounds: [Double],
        attribution: String?
    ) -> HTTPTileSource {
        HTTPTileSource(
            id: id, templates: templates, scheme: scheme, minZoom: Int(zooms.min.rounded(.down)),
            maxZoom: Int(zooms.max.rounded(.down)), bounds: bounds, attribution: attribution, client: client,
            onProblem: onProblem)
    }

    /// A PMTiles archive over HTTP (`location` is its `http(s)://` URL): range requests, read on background threads
    /// so frames and the tile worker never wait. Vector and raster archives alike (the tiles are bytes).
    /// - Throws: ``HTTPError`` or `PMTilesError` naming the URL when the header or root directory cannot be read.
    public func pmtilesSource(_ location: String) throws -> any TileSource {
        guard let url = URL(string: location) else { throw HTTPError(url: location, message: "not a URL") }
        return BackgroundTileSource(
            try PMTilesSource(reader: HTTPRangeReader(url: url, loader: client.loader)),
            concurrency: client.loader.options.maxRequestsPerHost)
    }

    /// The tile source of a `raster` style source over HTTP: its `tiles` templates, or the TileJSON at its `url`
    /// (the style's `minzoom`, `maxzoom`, `bounds`, `scheme` and `attribution` win, as for vector sources); `nil`
    /// for local raster sources. The tiles are image bytes (PNG, JPEG, WebP) with the same loading, retries, cache
    /// and once-per-source reports as vector tiles.
    /// - Throws: ``HTTPError`` or `StyleLoadError` naming the TileJSON URL.
    public func rasterTileSource(id: String, source r: RasterSource) throws -> (any TileSource)? {
        if let templates = Self.remoteRasterTemplates(r) {
            return templateSource(
                id: id, templates, scheme: r.scheme, zooms: (r.minzoom, r.maxzoom), bounds: r.bounds,
                attribution: r.attribution)
        }
        guard let url = Self.remoteRasterTileJSON(r) else { return nil }
        let tileJSON = try TileJSON(bytes: client.bytes(url), name: url.absoluteString)
        let styleBounds = r.bounds == RasterSource.worldBounds ? nil : r.bounds
        return HTTPTileSource(
            id: id, templates: try Self.templates(of: tileJSON, at: url),
            scheme: r.scheme == "tms" ? "tms" : tileJSON.scheme,
            minZoom: Int(max(r.minzoom, tileJSON.minzoom).rounded(.down)),
            maxZoom: Int(min(r.maxzoom, tileJSON.maxzoom).rounded(.down)), bounds: styleBounds ?? tileJSON.bounds,
            attribution: r.attribution ?? tileJSON.attribution, client: client, onProblem: onProblem)
    }

    /// Loads a MapLibre style from a file path, a `file://` URL or an `http(s)://` URL (fetched through the cache).
    /// Relative `mbtiles://` and file URLs resolve against the file's folder; relative references in a remote style
    /// (`sprite`, `glyphs`, source `url` and `tiles`) resolve against the style's URL (``Style/baseURL``, RFC 3986).
    /// - Throws: `StyleLoadError` or ``HTTPError`` naming the location.
    public func loadStyle(_ location: String) throws -> Style {
        guard let url = Self.url(location) else { throw HTTPError(url: location, message: "not a URL") }
        if url.isFileURL { return try Style.load(contentsOfFile: url.path) }
        return try Style.parse(bytes: client.bytes(url), fileName: url.absoluteString, baseURL: url)
    }

    /// The sprite's index JSON and PNG bytes (`<sprite>.json`, `<sprite>.png`; `@2x` when `scale` ≥ 2), fetched
    /// through the cache, or `nil` when either cannot be fetched.
    /// - Parameters:
    ///   - sprite: the style's `sprite` URL (`http(s)://` or `file://`).
    ///   - scale: device pixels per point. Default 1.
    /// - Returns: the index JSON's and the PNG's bytes as served, or `nil` when either file cannot be fetched or is
    ///   not a 2xx answer.
    public func sprite(_ sprite: String, scale: Double = 1) -> (json: [UInt8], png: [UInt8])? {
        let suffix = scale >= 2 ? "@2x" : ""
        guard let json = Self.url(sprite + suffix + ".json"), let png = Self.url(sprite + suffix + ".png"),
            let jsonBytes = try? client.bytes(json), let pngBytes = try? client.bytes(png)
        else { return nil }
        return (jsonBytes, pngBytes)
    }

    /// The glyph PBF of one 256-codepoint range, from the style's `glyphs` template (`{fontstack}`, `{range}`),
    /// fetched through the cache; `nil` when the server has none (404). The renderer may draw text from it; Waymark
    /// draws with Pango and only makes the ranges available.
    /// - Parameters:
    ///   - template: the style's `glyphs` URL.
    ///   - fontstack: font names joined with `,` (URL-encoded here).
    ///   - start: the `range:` argument, a codepoint in the range; rounded down to a multiple of 256 (negative
    ///     values mean 0).
    /// - Returns: the PBF bytes as served, or `nil` when the server answers 404 or 204.
    /// - Throws: ``HTTPError`` for a failure other than "not found" (any status but 200, 204 and 404, or a template
    ///   that does not make a URL).
    public func glyphs(template: String, fontstack: String, range start: Int) throws -> [UInt8]? {
        let first = max(0, start) / 256 * 256
        let stack =
            fontstack.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: ",/"))) ?? fontstack
        let text = template.replacingOccurrences(of: "{fontstack}", with: stack)
            .replacingOccurrences(of: "{range}", with: "\(first)-\(first + 255)")
        guard let url = Self.url(text) else { throw HTTPError(url: text, message: "not a URL") }
        let response = try client.getAndWait(url)
        if response.status == 404 || response.status == 204 { return nil }
        guard response.status == 200 else {
            throw HTTPError(url: text, message: "HTTP \(response.status)", status: response.status)
        }
        return response.body
    }
}

/// A locked list of problems.
final class ProblemRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [SourceProblem] = []

    var all: [SourceProblem] { lock.withLock { items } }

    func add(_ problem: SourceProblem) { lock.withLock { items.append(problem) } }
}

import Foundation
import MapData
import MapStorage
import MapStyle

/// The network and cache a host uses for remote map data: opens the sources ``SourceOpener`` hands it (`tiles`
/// templates and TileJSON documents as ``HTTPTileSource``s, PMTiles archives over HTTP), and loads styles, sprites
/// and glyph ranges, all through one ``HTTPClient`` and its persistent ``HTTPCache``. Waymark's own.
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
    /// - Note: the cache is opened on the first `http(s)` request, not here (a run that reads only files never
    ///   opens it). A cache folder that cannot be opened even read-only is left out, with one line on standard
    ///   error naming it (tiles then come from the network only).
    public convenience init(
        cacheDirectory: String? = HTTPCache.defaultDirectory(), cacheBytes: Int = 256 << 20,
        options: HTTPLoaderOptions = HTTPLoaderOptions(),
        onProblem: @escaping @Sendable (SourceProblem) -> Void = HTTPTileSource.printProblem
    ) {
        self.init(
            lazyCacheDirectory: { cacheDirectory }, cacheBytes: cacheBytes, options: options, onProblem: onProblem)
    }

    /// The network whose cache folder is decided (and the cache opened) on the first `http(s)` request.
    private init(
        lazyCacheDirectory: @escaping @Sendable () -> String?, cacheBytes: Int, options: HTTPLoaderOptions,
        onProblem: @escaping @Sendable (SourceProblem) -> Void
    ) {
        client = HTTPClient(loader: HTTPLoader(options: options)) {
            guard let cacheDirectory = lazyCacheDirectory() else { return nil }
            do { return try HTTPCache(directory: cacheDirectory, byteLimit: cacheBytes) } catch {
                HTTPCache.printWarning("no HTTP cache (tiles come from the network only): \(error)")
                return nil
            }
        }
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

    /// The process's network: cache in ``sharedCacheDirectory(environment:)``, decided and opened on the first
    /// `http(s)` request.
    public static let shared = TileNetwork(
        lazyCacheDirectory: { sharedCacheDirectory() }, cacheBytes: 256 << 20, options: HTTPLoaderOptions(),
        onProblem: HTTPTileSource.printProblem)

    /// The shared network's cache folder: `$WAYMARK_CACHE_DIR` when set, else
    /// ``HTTPCache/defaultDirectory(environment:)``. The default under `$HOME` is used only when `$HOME` is an
    /// existing folder: a `HOME` naming a missing path gives no persistent cache and one line on standard error,
    /// never a made-up home folder. With `HOME` unset, the user's home folder from the system (the passwd entry)
    /// is used, with one line on standard error naming the folder (docs/BEHAVIOUR.md D21).
    /// - Parameters:
    ///   - environment: the environment to read. Defaults to the process's.
    ///   - warn: told the one-line notice (a missing home folder, `HOME` unset). Default: a line on standard error.
    /// - Returns: the cache folder's path, or `nil` (no persistent cache) when neither `$WAYMARK_CACHE_DIR` nor an
    ///   absolute `$XDG_CACHE_HOME` is set and the home folder does not exist.
    public static func sharedCacheDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: (String) -> Void = HTTPCache.printWarning
    ) -> String? {
        if let explicit = environment["WAYMARK_CACHE_DIR"], !explicit.isEmpty { return explicit }
        let folder = HTTPCache.defaultDirectory(environment: environment)
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return folder }
        let home = environment["HOME"] ?? NSHomeDirectory()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: home, isDirectory: &isFolder), isFolder.boolValue else {
            warn("HOME (\(home)) is not an existing folder: no HTTP cache (set WAYMARK_CACHE_DIR)")
            return nil
        }
        if environment["HOME"] == nil {
            warn(
                "HOME is not set: the HTTP cache is in \(folder), under the system's home folder for the user "
                    + "(set WAYMARK_CACHE_DIR to choose)")
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

    /// The tiles of a TileJSON document (an ``HTTPTileSource`` over its `tiles`, relative ones resolved against
    /// its URL): ``SourceOpener``'s `tilejson+http` and `tilejson+file` handlers, for vector and raster sources alike.
    ///
    /// The style's `minzoom`, `maxzoom`, `bounds`, `scheme` (when `tms`) and `attribution` win over the TileJSON's
    /// (MapLibre's rule: the style's source properties override the TileJSON).
    /// - Parameters:
    ///   - id: the style source id.
    ///   - url: the TileJSON's `http(s)://` or `file://` URL.
    ///   - properties: the style source's properties.
    /// - Returns: a source whose tiles are fetched on demand through this network (the TileJSON is fetched here,
    ///   waiting).
    /// - Throws: ``HTTPError`` or `StyleLoadError` naming the TileJSON URL when it cannot be fetched or parsed.
    public func tileJSONSource(id: String, url: String, properties: TileSourceProperties) throws -> any TileSource {
        let p = properties
        let location = url
        guard let url = Self.url(location) else { throw HTTPError(url: location, message: "not a URL") }
        let tileJSON = try TileJSON(bytes: client.bytes(url), name: url.absoluteString)
        return HTTPTileSource(
            id: id, templates: try Self.templates(of: tileJSON, at: url),
            scheme: p.scheme == .tms ? "tms" : tileJSON.scheme,
            minZoom: Int(max(p.minzoom, tileJSON.minzoom).rounded(.down)),
            maxZoom: Int(min(p.maxzoom, tileJSON.maxzoom).rounded(.down)), bounds: p.bounds ?? tileJSON.bounds,
            attribution: p.attribution ?? tileJSON.attribution, client: client, onProblem: onProblem)
    }

    /// A TileJSON's `tiles` resolved against its URL; a TileJSON fetched over `http(s)` may name only `http(s)` tiles
    /// (docs/BEHAVIOUR.md D23).
    /// - Throws: ``HTTPError`` naming the TileJSON when it names a local file.
    static func templates(of tileJSON: TileJSON, at url: URL) throws(HTTPError) -> [String] {
        let templates = tileJSON.tiles.map { resolve($0, against: url) }
        if !url.isFileURL, let local = templates.first(where: { !StyleURL.isHTTP($0) }) {
            throw HTTPError(
                url: url.absoluteString,
                message: "a TileJSON over the network may not name local files (\(HTTPError.shortened(local)))")
        }
        return templates
    }

    /// An ``HTTPTileSource`` over a style source's own `tiles` templates (`http(s)://` or `file://` URLs) and
    /// properties, vector or raster alike (the tiles are bytes): ``SourceOpener``'s `templates+http` and
    /// `templates+file` handlers.
    /// - Parameters:
    ///   - id: the style source id.
    ///   - templates: the URL templates.
    ///   - scheme: their row scheme.
    ///   - properties: the style source's zooms, bounds (the whole world when `nil`) and attribution.
    /// - Returns: a source whose tiles are fetched on demand through this network.
    public func templateSource(
        id: String, _ templates: [String], scheme: TileScheme, properties: TileSourceProperties
    ) -> HTTPTileSource {
        let p = properties
        return HTTPTileSource(
            id: id, templates: templates, scheme: scheme.rawValue, minZoom: Int(p.minzoom.rounded(.down)),
            maxZoom: Int(p.maxzoom.rounded(.down)), bounds: p.bounds ?? TileJSON.worldBounds,
            attribution: p.attribution, client: client, onProblem: onProblem)
    }

    /// A PMTiles archive over HTTP (`location` is its `http(s)://` URL): range requests, read on background threads
    /// so frames and the tile worker never wait. Vector and raster archives alike (the tiles are bytes).
    /// - Throws: ``HTTPError`` or `PMTilesError` naming the URL when the header or root directory cannot be read.
    public func pmtilesSource(_ location: String) throws -> any TileSource {
        guard let url = URL(string: location) else { throw HTTPError(url: location, message: "not a URL") }
        return BackgroundTileSource(
            try PMTilesSource(reader: HTTPRangeReader(url: url, client: client)),
            concurrency: client.loader.options.maxRequestsPerHost)
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

    /// Loads a style from `location`: a plain path is read as a file (as given, so relative paths stay relative);
    /// a `file://` or `http(s)://` URL through `network` (``loadStyle(_:)``). The one place hosts (`MapHost`,
    /// `waymark snapshot`, the static maps server) decide how a style location is read.
    /// - Parameters:
    ///   - location: a style JSON path or URL.
    ///   - network: the network for URLs, asked for only when `location` is one. Defaults to ``shared``.
    /// - Returns: the style with its diagnostics.
    /// - Throws: `StyleLoadError` or ``HTTPError`` naming the location.
    public static func openStyle(_ location: String, network: @autoclosure () -> TileNetwork = TileNetwork.shared)
        throws -> Style
    {
        location.contains("://") ? try network().loadStyle(location) : try Style.load(contentsOfFile: location)
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
    /// fetched through the cache; `nil` when the server has none (404). The renderer draws a style's labels from these
    /// ranges (`GlyphStore`); text they do not cover is drawn with Pango.
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

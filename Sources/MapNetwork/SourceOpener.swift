import Foundation
import MapData
import MapStorage
import MapStyle

/// The one way a style source's tiles are opened: a list of handlers, one per scheme, each saying which
/// ``TileLocation``s it reads, whether reading them needs the network, and how to open them. As MapLibre Native's
/// resource loader asks each file source whether it `canRequest` a resource, the first handler that can open a
/// source's location opens it. Every host question about a source goes through here: "does this need the network?"
/// (``needsNetwork(_:)``) and "open it" (``open(id:source:)``). Waymark's own.
///
/// Thread rules: immutable; any thread. Opening may wait on the network (a TileJSON, a remote archive's header), so
/// hosts open network sources off their frame thread (``needsNetwork(_:)`` says which).
public struct SourceOpener: Sendable {
    /// One scheme's reader: which locations it opens and how.
    public struct Handler: Sendable {
        /// A short name for messages and tests, for example `pmtiles+http`.
        public let scheme: String
        /// Whether reading this handler's locations waits on `http(s)`.
        public let needsNetwork: Bool
        /// Whether this handler reads `location` (MapLibre Native's `canRequest`).
        public let canOpen: @Sendable (TileLocation) -> Bool
        /// Opens `location` for the style source with id `id` and `properties`.
        public let open:
            @Sendable (_ id: String, _ location: TileLocation, _ properties: TileSourceProperties) throws ->
                any TileSource

        /// Creates a handler; see the properties.
        public init(
            scheme: String, needsNetwork: Bool, canOpen: @escaping @Sendable (TileLocation) -> Bool,
            open: @escaping @Sendable (String, TileLocation, TileSourceProperties) throws -> any TileSource
        ) {
            self.scheme = scheme
            self.needsNetwork = needsNetwork
            self.canOpen = canOpen
            self.open = open
        }
    }

    /// The handlers, asked in order.
    public let handlers: [Handler]
    /// The network a GeoJSON source's `http(s)` data is fetched through, or `nil` (an opener over a custom handler
    /// list: such data is then an error naming the URL).
    private let network: (@Sendable () -> TileNetwork)?

    /// Creates an opener over `handlers`, asked in order. GeoJSON data named by an `http(s)` URL is not read by it
    /// (``open(id:source:)`` throws ``GeoJSONSourceError`` naming the URL).
    public init(handlers: [Handler]) {
        self.handlers = handlers
        network = nil
    }

    /// The standard opener: files (`mbtiles`, `pmtiles+file`, `templates+path`) read here, and `http(s)` and
    /// `file://` resources read through `network` (`pmtiles+http`, `tilejson+http`, `tilejson+file`,
    /// `templates+http`, `templates+file`).
    /// - Parameter network: the network for the second group, asked for only when such a source is opened
    ///   (``needsNetwork(_:)`` never touches it). Defaults to ``TileNetwork/shared``.
    /// GeoJSON data named by an `http(s)` URL is fetched through `network` too.
    public init(network: @escaping @Sendable () -> TileNetwork = { TileNetwork.shared }) {
        handlers = Self.fileHandlers + Self.networkHandlers(network)
        self.network = network
    }

    /// The opener over ``TileNetwork/shared``.
    public static let standard = SourceOpener()

    /// The handler that opens `source`'s tiles, or `nil` when it has none (GeoJSON, which ``open(id:source:)`` cuts
    /// into tiles itself; unsupported types; a source whose `url` and `tiles` name nothing Waymark reads).
    public func handler(for source: StyleSource) -> Handler? {
        guard let location = source.tileLocation else { return nil }
        return handlers.first { $0.canOpen(location) }
    }

    /// Whether opening or reading `source` waits on `http(s)`: a PMTiles archive, TileJSON or `tiles` template over
    /// HTTP, or GeoJSON data named by an `http(s)` URL. Files (`mbtiles://`, local `pmtiles://`, `file://` TileJSON
    /// and templates, paths, GeoJSON inline or in a local file) do not.
    public func needsNetwork(_ source: StyleSource) -> Bool {
        if case .geojson(let g) = source { return Self.remoteGeoJSONURL(g) != nil }
        return handler(for: source)?.needsNetwork ?? false
    }

    /// The `http(s)` URL a GeoJSON source's data is fetched from, or `nil` when its data is inline or a local file.
    static func remoteGeoJSONURL(_ g: GeoJSONSource) -> String? {
        guard g.data == nil, g.path == nil, let url = g.url, StyleURL.isHTTP(url) else { return nil }
        return url
    }

    /// Opens `source`'s tiles with the handler for its location.
    /// - Parameters:
    ///   - id: the style source id (named in problem reports).
    ///   - source: the style source.
    ///   A GeoJSON source (inline `data`, a local file, or an `http(s)` URL fetched here through the network, waiting,
    ///   at most ``HTTPLoaderOptions/maxResponseBytes``) is cut into tiles by `GeoJSONTileSource`: one layer named
    ///   `GeoJSONSource.layerName`, the source's `maxzoom`, `buffer` and `lineMetrics`, extent 8192.
    /// - Returns: the tiles, or `nil` when no handler reads the source (it is not drawn).
    /// - Throws: `MBTilesError` or `PMTilesError` naming the file; ``HTTPError``, `PMTilesError` or `StyleLoadError`
    ///   naming the URL when an archive or TileJSON cannot be read; ``GeoJSONSourceError`` naming the source and the
    ///   file or URL when GeoJSON data cannot be read or parsed.
    public func open(id: String, source: StyleSource) throws -> (any TileSource)? {
        if case .geojson(let g) = source { return try openGeoJSON(id: id, g) }
        guard let location = source.tileLocation, let properties = TileSourceProperties(source),
            let handler = handlers.first(where: { $0.canOpen(location) })
        else { return nil }
        return try handler.open(id, location, properties)
    }

    /// The largest GeoJSON file read from disk, in bytes: 512 MiB.
    public static let maxGeoJSONFileBytes = 512 << 20

    /// A GeoJSON source cut into tiles: its inline `data`, its local file (`path`) or its `http(s)` URL (fetched
    /// through ``network``, waiting; the loader bounds the body at ``HTTPLoaderOptions/maxResponseBytes``).
    /// - Throws: ``GeoJSONSourceError`` naming the source and the file or URL when the data cannot be read, fetched
    ///   or parsed, or when it is named by a URL this opener does not read.
    func openGeoJSON(id: String, _ g: GeoJSONSource) throws -> (any TileSource)? {
        let document: GeoJSONDocument
        do {
            if let data = g.data {
                document = try GeoJSONDocument(json: data)
            } else if let path = g.path {
                let url = URL(fileURLWithPath: path)
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
                guard let size else { throw GeoJSONSourceError(source: id, reference: path, problem: "cannot be read") }
                guard size <= Self.maxGeoJSONFileBytes else {
                    throw GeoJSONSourceError(
                        source: id, reference: path,
                        problem: "is \(size) bytes, over the \(Self.maxGeoJSONFileBytes) bytes read")
                }
                guard let bytes = try? Data(contentsOf: url) else {
                    throw GeoJSONSourceError(source: id, reference: path, problem: "cannot be read")
                }
                document = try GeoJSONDocument.parse(bytes: Array(bytes))
            } else if let location = Self.remoteGeoJSONURL(g), let network, let url = URL(string: location) {
                let bytes: [UInt8]
                do { bytes = try network().client.bytes(url) } catch {
                    throw GeoJSONSourceError(
                        source: id, reference: location, problem: "cannot be fetched: \(error.message)")
                }
                do { document = try GeoJSONDocument.parse(bytes: bytes) } catch {
                    throw GeoJSONSourceError(source: id, reference: location, problem: "\(error)")
                }
            } else {
                throw GeoJSONSourceError(
                    source: id, reference: g.url ?? "(no data)",
                    problem: "is not read: this opener reads GeoJSON inline or from a local file")
            }
        } catch let error as GeoJSONSourceError {
            throw error
        } catch {
            throw GeoJSONSourceError(source: id, reference: g.path ?? "inline data", problem: "\(error)")
        }
        return GeoJSONTileSource(
            document: document, layerName: GeoJSONSource.layerName, maxZoom: Int(g.maxzoom.rounded(.down)),
            extent: 8192, buffer: Int((min(max(g.buffer, 0), 512) / 512 * 8192).rounded()), lineMetrics: g.lineMetrics)
    }

    /// The handlers that read local files without the network's loader.
    static let fileHandlers: [Handler] = [
        Handler(scheme: "mbtiles", needsNetwork: false) {
            if case .mbtiles = $0 { return true } else { return false }
        } open: { _, location, _ in
            guard case .mbtiles(let path) = location else { throw SourceOpenerMismatch() }
            return try MBTilesSource(path: path)
        },
        Handler(scheme: "pmtiles+file", needsNetwork: false) {
            if case .pmtiles(.file) = $0 { return true } else { return false }
        } open: { _, location, _ in
            guard case .pmtiles(.file(let path)) = location else { throw SourceOpenerMismatch() }
            return try PMTilesSource(path: path)
        },
        Handler(scheme: "templates+path", needsNetwork: false) {
            if case .templates(let list, _) = $0, let first = list.first { return !first.contains("://") }
            return false
        } open: { _, location, _ in
            guard case .templates(let list, let scheme) = location, var template = list.first else {
                throw SourceOpenerMismatch()
            }
            if scheme == .tms {
                template = template.split(separator: "{y}", omittingEmptySubsequences: false).joined(separator: "{-y}")
            }
            // Absolute templates hang below "/"; relative ones were resolved against the style's folder already.
            let relative = template.hasPrefix("/") ? String(template.dropFirst()) : template
            return try DirectoryTileSource(
                directory: URL(fileURLWithPath: template.hasPrefix("/") ? "/" : "."), template: relative,
                zoomRange: 0...30)
        },
    ]

    /// The handlers that read through `network`'s loader and cache.
    static func networkHandlers(_ network: @escaping @Sendable () -> TileNetwork) -> [Handler] {
        let tileJSON: @Sendable (String, TileLocation, TileSourceProperties) throws -> any TileSource = {
            id, location, p in
            guard case .tileJSON(let url) = location else { throw SourceOpenerMismatch() }
            return try network().tileJSONSource(id: id, url: url, properties: p)
        }
        let templates: @Sendable (String, TileLocation, TileSourceProperties) throws -> any TileSource = {
            id, location, p in
            guard case .templates(let list, let scheme) = location else { throw SourceOpenerMismatch() }
            return network().templateSource(id: id, list, scheme: scheme, properties: p)
        }
        return [
            Handler(scheme: "pmtiles+http", needsNetwork: true) {
                if case .pmtiles(.url) = $0 { return true } else { return false }
            } open: { _, location, _ in
                guard case .pmtiles(.url(let url)) = location else { throw SourceOpenerMismatch() }
                return try network().pmtilesSource(url)
            },
            Handler(
                scheme: "tilejson+http", needsNetwork: true,
                canOpen: {
                    if case .tileJSON(let url) = $0 { return StyleURL.isHTTP(url) } else { return false }
                }, open: tileJSON),
            Handler(
                scheme: "tilejson+file", needsNetwork: false,
                canOpen: {
                    if case .tileJSON = $0 { return true } else { return false }
                }, open: tileJSON),
            Handler(
                scheme: "templates+http", needsNetwork: true,
                canOpen: {
                    if case .templates(let list, _) = $0 { return list.contains(where: StyleURL.isHTTP) }
                    return false
                }, open: templates),
            Handler(
                scheme: "templates+file", needsNetwork: false,
                canOpen: {
                    if case .templates(let list, _) = $0 { return list.first?.contains("://") ?? false }
                    return false
                }, open: templates),
        ]
    }
}

/// A handler was given a location it does not read (a custom handler list whose `canOpen` and `open` disagree).
struct SourceOpenerMismatch: Error, CustomStringConvertible {
    var description: String { "a source handler was given a location it does not open" }
}

/// What a `vector` or `raster` style source says about its tiles besides where they are: zooms, bounds, row scheme
/// and attribution. The opened source uses them; over a TileJSON, the style's values win over the document's
/// (MapLibre's rule). Waymark's own.
public struct TileSourceProperties: Sendable, Equatable {
    /// The style's `minzoom`.
    public var minzoom: Double
    /// The style's `maxzoom`.
    public var maxzoom: Double
    /// The style's `bounds` `[west, south, east, north]` in degrees, or `nil` when the style leaves the default
    /// (a TileJSON's own `bounds` then apply).
    public var bounds: [Double]?
    /// The style's `scheme`.
    public var scheme: TileScheme
    /// The style's `attribution`, or `nil`.
    public var attribution: String?

    /// The properties of a `vector` or `raster` source; `nil` for other source types.
    public init?(_ source: StyleSource) {
        switch source {
        case .vector(let v):
            self.init(
                minzoom: v.minzoom, maxzoom: v.maxzoom, bounds: v.bounds == TileJSON.worldBounds ? nil : v.bounds,
                scheme: TileScheme(rawValue: v.scheme) ?? .xyz, attribution: v.attribution)
        case .raster(let r):
            self.init(
                minzoom: r.minzoom, maxzoom: r.maxzoom, bounds: r.bounds == RasterSource.worldBounds ? nil : r.bounds,
                scheme: TileScheme(rawValue: r.scheme) ?? .xyz, attribution: r.attribution)
        default: return nil
        }
    }

    /// Creates properties; see the fields.
    public init(minzoom: Double, maxzoom: Double, bounds: [Double]?, scheme: TileScheme, attribution: String?) {
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.bounds = bounds
        self.scheme = scheme
        self.attribution = attribution
    }
}

extension StyleSource {
    /// Where a `vector` or `raster` source's tiles are (``TileLocation``), or `nil` for other sources.
    public var tileLocation: TileLocation? {
        switch self {
        case .vector(let v): return v.location
        case .raster(let r): return r.location
        default: return nil
        }
    }
}

/// A GeoJSON style source that cannot be drawn: its file or URL cannot be read, fetched or parsed, or it names data
/// the opener does not read (an `http(s)` URL given to an opener without a network).
public struct GeoJSONSourceError: Error, CustomStringConvertible, Sendable {
    /// The style source id.
    public var source: String
    /// The file path or URL the source names, or "inline data".
    public var reference: String
    /// What is wrong with it.
    public var problem: String

    /// "GeoJSON source "ID": REFERENCE PROBLEM".
    public var description: String { "GeoJSON source \"\(source)\": \(reference) \(problem)" }
}

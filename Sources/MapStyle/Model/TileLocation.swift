/// How a `tiles` template counts tile rows (style spec `scheme`): `xyz`, from the north (the default, as in
/// Google's and MapLibre's tile URLs), or `tms`, from the south.
public enum TileScheme: String, Sendable, Equatable {
    /// Rows from the north (the default).
    case xyz
    /// Rows from the south (Tile Map Service).
    case tms
}

/// Where a `vector` or `raster` style source's tiles are: the one value a host opens (MapNetwork's `SourceOpener`
/// picks the handler per case, as MapLibre Native's resource loader asks each file source whether it `canRequest`).
///
/// Parsed from the source's `url` or `tiles` by the style loader (``VectorSource/location``,
/// ``RasterSource/location``), one rule for both source types: a `url` wins over `tiles`. Waymark's own type.
public enum TileLocation: Sendable, Equatable {
    /// A PMTiles archive: a file on disk, or an `http(s)://` URL read with range requests.
    public enum Archive: Sendable, Equatable {
        /// A local archive (`pmtiles://` + a path, relative to the style file's folder, or `pmtiles://file:///…`).
        case file(path: String)
        /// An archive over HTTP (`pmtiles://http(s)://…`): the `http(s)://` URL.
        case url(String)
    }

    /// An MBTiles file (`mbtiles://` + a path, relative to the style file's folder; `..` segments folded).
    case mbtiles(path: String)
    /// A PMTiles archive (`pmtiles://…`).
    case pmtiles(Archive)
    /// A TileJSON document at an `http(s)://` or `file://` URL (a relative `url` resolved against the style's
    /// `baseURL`, else under the style file's folder). Its `tiles`, zooms and bounds are read when it is opened.
    case tileJSON(url: String)
    /// Tile URL templates (`{z}`, `{x}`, `{y}`, `{-y}`…) with the row `scheme`. Either `http(s)://` and `file://`
    /// URLs, read through the network's loader, or one file path template (a raster source's first local
    /// template, resolved against the style file's folder), read as files in a folder.
    case templates([String], scheme: TileScheme)

    /// The first local file this location reads (a path, `file://` URL or path template), or `nil` when it reads
    /// only over `http(s)`. A style loaded over the network may not name one (docs/BEHAVIOUR.md D23).
    public var localFile: String? {
        switch self {
        case .mbtiles(let path): return path
        case .pmtiles(.file(let path)): return path
        case .pmtiles(.url): return nil
        case .tileJSON(let url): return StyleURL.isHTTP(url) ? nil : url
        case .templates(let list, _): return list.first { !StyleURL.isHTTP($0) }
        }
    }
}

/// The `url`, `tiles`, `scheme` and `bounds` of a `vector` or `raster` source as
/// ``StyleLoader/loadTileFields(_:path:raster:defaultBounds:)`` reads them.
struct TileSourceFields {
    /// The `url` as written, or `nil`.
    var url: String?
    /// The `tiles` templates, resolved (``StyleLoader/resolved(_:files:)``).
    var tiles: [String] = []
    /// The validated `scheme`.
    var scheme: TileScheme = .xyz
    /// The validated `bounds`.
    var bounds: [Double]
    /// Where the tiles are, or `nil` when neither `url` nor `tiles` names something Waymark reads.
    var location: TileLocation?
}

extension StyleLoader {
    /// Reads where a `vector` or `raster` source's tiles are (one rule for both): `url` (`mbtiles://`,
    /// `pmtiles://`, an `http(s)://` or `file://` TileJSON) wins; else the `tiles` templates (`http(s)://` and
    /// `file://` ones; for a raster source its first local template, a file path, wins). Every problem is a
    /// diagnostic under `path` and takes the spec default.
    /// - Parameters:
    ///   - o: the source object.
    ///   - path: the JSON path of the source, for diagnostics.
    ///   - raster: whether it is a raster source (its local templates are read as files in a folder).
    ///   - defaultBounds: the `bounds` default of the source type.
    /// - Returns: the fields, defaults where the source has none or a bad value.
    mutating func loadTileFields(_ o: [String: JSONValue], path: String, raster: Bool, defaultBounds: [Double])
        -> TileSourceFields
    {
        var fields = TileSourceFields(bounds: defaultBounds)
        fields.scheme = schemeValue(o["scheme"], path: path + ".scheme")
        fields.bounds = boundsValue(o["bounds"], path: path + ".bounds") ?? defaultBounds
        if let url = o["url"] {
            if let written = url.stringValue {
                fields.url = written
                fields.location = urlLocation(resolvedSourceURL(written))
                if fields.location == nil {
                    warning(
                        path + ".url",
                        "only mbtiles://, pmtiles:// and TileJSON URLs are read; \"\(written)\" is kept but not fetched"
                    )
                }
            } else {
                error(path + ".url", "expected string, found \(url.typeName); ignored")
            }
        }
        if let tiles = o["tiles"] {
            if let list = tiles.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
                fields.tiles = list.compactMap(\.stringValue).map { resolved($0, files: !raster) }
                if fields.url == nil {
                    fields.location = templatesLocation(fields.tiles, raster: raster, fields.scheme)
                }
            } else {
                error(path + ".tiles", "expected an array of strings; ignored")
            }
        }
        if fields.url == nil && fields.tiles.isEmpty {
            error(path, "a \(raster ? "raster" : "vector") source needs \"url\" or \"tiles\"")
        }
        return fields
    }

    /// The validated `scheme` (`xyz` or `tms`), `xyz` with an error otherwise.
    mutating func schemeValue(_ value: JSONValue?, path: String) -> TileScheme {
        guard let value else { return .xyz }
        if let s = value.stringValue, let scheme = TileScheme(rawValue: s) { return scheme }
        error(path, "expected \"xyz\" or \"tms\"; using \"xyz\"")
        return .xyz
    }

    /// The validated `bounds`: four finite numbers with west < east and south < north, clamped to ±180° and ±90°
    /// (as MapLibre GL JS's `TileBounds` reads them); `nil` with an error otherwise.
    mutating func boundsValue(_ value: JSONValue?, path: String) -> [Double]? {
        guard let value else { return nil }
        if let a = value.arrayValue, a.count == 4, case let n = a.compactMap(\.numberValue), n.count == 4,
            n.allSatisfy(\.isFinite), n[0] < n[2], n[1] < n[3]
        {
            return [max(n[0], -180), max(n[1], -90), min(n[2], 180), min(n[3], 90)]
        }
        error(path, "expected [west, south, east, north] with west < east and south < north; the whole world is used")
        return nil
    }

    /// The location a resolved source `url` names, or `nil` for a scheme Waymark does not read.
    func urlLocation(_ s: String) -> TileLocation? {
        if s.hasPrefix("mbtiles://") {
            return .mbtiles(path: StylePath.resolve(String(s.dropFirst("mbtiles://".count)), against: baseDirectory))
        }
        if s.hasPrefix("pmtiles://") {
            let rest = String(s.dropFirst("pmtiles://".count))
            if rest.hasPrefix("http://") || rest.hasPrefix("https://") { return .pmtiles(.url(rest)) }
            let file = rest.hasPrefix("file://") ? String(rest.dropFirst("file://".count)) : rest
            return .pmtiles(.file(path: StylePath.resolve(file, against: baseDirectory)))
        }
        if s.hasPrefix("http://") || s.hasPrefix("https://") { return .tileJSON(url: s) }
        if s.hasPrefix("file://") {
            return .tileJSON(
                url: "file://" + StylePath.resolve(String(s.dropFirst("file://".count)), against: baseDirectory))
        }
        return nil
    }

    /// The location of `tiles` templates: for a raster source the first local one (a `file://` URL or a path) as a
    /// path under the style file's folder; else the `http(s)://` and `file://` ones; `nil` when there are none.
    func templatesLocation(_ resolved: [String], raster: Bool, _ scheme: TileScheme) -> TileLocation? {
        if raster {
            for template in resolved {
                let local: String
                if template.hasPrefix("file://") {
                    local = String(template.dropFirst("file://".count))
                } else if !template.contains("://") {
                    local = template
                } else {
                    continue
                }
                return .templates([StylePath.resolve(local, against: baseDirectory)], scheme: scheme)
            }
        }
        let urls = resolved.filter { StyleURL.isHTTP($0) || $0.hasPrefix("file://") }
        return urls.isEmpty ? nil : .templates(urls, scheme: scheme)
    }
}

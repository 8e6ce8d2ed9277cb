/// A raster tile source (style spec "Sources", `type: raster`): PNG, JPEG or WebP tiles from an MBTiles file
/// (`mbtiles://<path>`), a PMTiles archive (`pmtiles://…`, read by the host's resolver) or `tiles` URL templates.
///
/// Fields follow the MapLibre style specification; the tile bytes are fetched by whatever `TileSource` the host's
/// resolver gives for it (files now; HTTP through the host's loader), so this type only describes the source.
public struct RasterSource: Sendable, Equatable {
    /// The `url` as written (`mbtiles://…`, `pmtiles://…`, a TileJSON URL), or `nil`.
    public var url: String?
    /// For `mbtiles://` URLs, the file path resolved against the style file's folder; else `nil`.
    public var mbtilesPath: String?
    /// Tile URL templates as written (`{z}`, `{x}`, `{y}`, `{-y}`; relative ones resolved against the style's
    /// `baseURL` when it has one), empty when `url` is used.
    public var tiles: [String]
    /// The first template that names local files (`file://…` or a plain path, relative paths resolved against the
    /// style file's folder), with `{y}` turned into `{-y}` for `scheme: tms`; `nil` when every template is remote.
    public var localTileTemplate: String?
    /// Points one tile covers at its own zoom (`tileSize`): a power of two from 64 to 4096. Default 512 (the spec's).
    public var tileSize: Int
    /// Lowest zoom with tiles, 0…24 (`minzoom`). Default 0; below it the source draws nothing.
    public var minzoom: Double
    /// Highest zoom with tiles, 0…24 (`maxzoom`). Default 22; above it the tile at `maxzoom` is scaled up.
    public var maxzoom: Double
    /// West, south, east, north in degrees (`bounds`): no tile outside is requested. Default the whole Mercator world
    /// `[-180, -85.051129, 180, 85.051129]`.
    public var bounds: [Double]
    /// `xyz` (rows from the north, the default) or `tms` (rows from the south).
    public var scheme: String
    /// Attribution HTML/text, or `nil`.
    public var attribution: String?
    /// For local `pmtiles://` URLs (a path or `file://` URL, relative to the style file's folder), the file path;
    /// `nil` otherwise. As ``VectorSource/pmtilesPath``.
    public var pmtilesPath: String? = nil
    /// For `pmtiles://http(s)://…` URLs, the archive's `http(s)://` URL (range requests through `MapNetwork`); `nil`
    /// otherwise. As ``VectorSource/pmtilesURL``.
    public var pmtilesURL: String? = nil

    /// The spec default of ``bounds``.
    public static let worldBounds = [-180, -85.051129, 180, 85.051129]

    /// Creates a source; see the properties for defaults.
    public init(
        url: String? = nil, mbtilesPath: String? = nil, tiles: [String] = [], localTileTemplate: String? = nil,
        tileSize: Int = 512, minzoom: Double = 0, maxzoom: Double = 22, bounds: [Double] = RasterSource.worldBounds,
        scheme: String = "xyz", attribution: String? = nil
    ) {
        self.url = url
        self.mbtilesPath = mbtilesPath
        self.tiles = tiles
        self.localTileTemplate = localTileTemplate
        self.tileSize = tileSize
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.bounds = bounds
        self.scheme = scheme
        self.attribution = attribution
    }
}

extension StyleLoader {
    /// Parses a `raster` source object; every problem is a diagnostic and takes the spec default.
    mutating func loadRasterSource(_ o: [String: JSONValue], path: String) -> RasterSource {
        var source = RasterSource(
            minzoom: zoomValue(o["minzoom"], path + ".minzoom", default: 0),
            maxzoom: zoomValue(o["maxzoom"], path + ".maxzoom", default: 22), attribution: o["attribution"]?.stringValue
        )
        if let v = o["scheme"] {
            if let s = v.stringValue, s == "xyz" || s == "tms" {
                source.scheme = s
            } else {
                error(path + ".scheme", "expected \"xyz\" or \"tms\"; using \"xyz\"")
            }
        }
        if let v = o["tileSize"] {
            if let n = v.numberValue, n >= 64, n <= 4096, n == n.rounded(), Int(n).nonzeroBitCount == 1 {
                source.tileSize = Int(n)
            } else {
                error(path + ".tileSize", "expected a power of two from 64 to 4096; using 512")
            }
        }
        if let v = o["bounds"] {
            if let a = v.arrayValue, a.count == 4, case let n = a.compactMap(\.numberValue), n.count == 4,
                n.allSatisfy(\.isFinite), n[0] < n[2], n[1] < n[3]
            {
                source.bounds = [max(n[0], -180), max(n[1], -90), min(n[2], 180), min(n[3], 90)]
            } else {
                error(
                    path + ".bounds", "expected [west, south, east, north] with west < east and south < north; ignored")
            }
        }
        if let url = o["url"] {
            if let written = url.stringValue {
                source.url = written
                let s = resolvedSourceURL(written)
                if s.hasPrefix("mbtiles://") {
                    source.mbtilesPath = StylePath.resolve(
                        String(s.dropFirst("mbtiles://".count)), against: baseDirectory)
                } else if let archive = pmtilesArchive(s) {
                    source.pmtilesURL = archive.url
                    source.pmtilesPath = archive.path
                }
            } else {
                error(path + ".url", "expected string, found \(url.typeName); ignored")
            }
        }
        if let tiles = o["tiles"] {
            if let list = tiles.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
                source.tiles = list.compactMap(\.stringValue).map { resolved($0, files: false) }
            } else {
                error(path + ".tiles", "expected an array of strings; ignored")
            }
        }
        for template in source.tiles {
            var local: String
            if template.hasPrefix("file://") {
                local = String(template.dropFirst("file://".count))
            } else if !template.contains("://") {
                local = template
            } else {
                continue
            }
            local = StylePath.resolve(local, against: baseDirectory)
            if source.scheme == "tms" {
                local = local.split(separator: "{y}", omittingEmptySubsequences: false).joined(separator: "{-y}")
            }
            source.localTileTemplate = local
            break
        }
        if source.url == nil && source.tiles.isEmpty { error(path, "a raster source needs \"url\" or \"tiles\"") }
        if source.minzoom > source.maxzoom { error(path + ".minzoom", "minzoom is greater than maxzoom") }
        return source
    }

    /// Why a layer of `layerType` cannot draw `source` named `name` (raster layers need raster sources and raster
    /// sources feed only raster layers), or `nil` when they fit.
    func rasterSourceMismatch(layerType: StyleLayerType, source: StyleSource, name: String) -> String? {
        let isRasterSource: Bool
        if case .raster = source { isRasterSource = true } else { isRasterSource = false }
        if layerType == .raster && !isRasterSource { return "requires a raster source, \"\(name)\" is not one" }
        if layerType != .raster && isRasterSource { return "cannot draw the raster source \"\(name)\"" }
        return nil
    }
}

import MapGeometry

/// A raster tile source (style spec "Sources", `type: raster`): PNG, JPEG or WebP tiles from an MBTiles file
/// (`mbtiles://<path>`), a PMTiles archive (`pmtiles://…`, read by the host's resolver) or `tiles` URL templates.
///
/// Fields follow the MapLibre style specification; the tile bytes are fetched by whatever `TileSource` the host's
/// resolver gives for it (files now; HTTP through the host's loader), so this type only describes the source.
public struct RasterSource: Sendable, Equatable {
    /// The `url` as written (`mbtiles://…`, `pmtiles://…`, a TileJSON URL), or `nil`.
    public var url: String?
    /// Tile URL templates as written (`{z}`, `{x}`, `{y}`, `{-y}`; relative ones resolved against the style's
    /// `baseURL` when it has one), empty when `url` is used.
    public var tiles: [String]
    /// Points one tile covers at its own zoom (`tileSize`): a power of two from 64 to 4096. Default 512 (the spec's).
    public var tileSize: Int
    /// Lowest zoom with tiles, 0…24 (`minzoom`). Default 0; below it the source draws nothing.
    public var minzoom: Double
    /// Highest zoom with tiles, 0…24 (`maxzoom`). Default 22; above it the tile at `maxzoom` is scaled up.
    public var maxzoom: Double
    /// West, south, east, north in degrees (`bounds`): no tile outside is requested. Default the whole Mercator world
    /// `[-180, -85.051129, 180, 85.051129]` (the north and south edges at ``WebMercator/maximumLatitude``).
    public var bounds: [Double]
    /// `xyz` (rows from the north, the default) or `tms` (rows from the south).
    public var scheme: String
    /// Attribution HTML/text, or `nil`.
    public var attribution: String?
    /// Where the tiles are (parsed from ``url`` or ``tiles``, the same rule as for vector sources, except that the
    /// first local template, a file path under the style file's folder, wins over remote ones), or `nil` when
    /// neither names something Waymark reads.
    public var location: TileLocation?
    /// For a `raster-dem` source (read into this type: its fields are a raster source's plus `encoding`), how its
    /// tiles pack elevations (default ``DEMEncoding/mapbox``); `nil` for a `raster` source. Only `hillshade` layers
    /// draw a DEM source.
    public var demEncoding: DEMEncoding?

    /// The spec default of ``bounds``.
    public static let worldBounds = [-180, -WebMercator.maximumLatitude, 180, WebMercator.maximumLatitude]

    /// Creates a source; see the properties for defaults.
    public init(
        url: String? = nil, tiles: [String] = [], tileSize: Int = 512, minzoom: Double = 0, maxzoom: Double = 22,
        bounds: [Double] = RasterSource.worldBounds, scheme: String = "xyz", attribution: String? = nil,
        location: TileLocation? = nil
    ) {
        self.url = url
        self.tiles = tiles
        self.tileSize = tileSize
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.bounds = bounds
        self.scheme = scheme
        self.attribution = attribution
        self.location = location
    }
}

extension StyleLoader {
    /// Parses a `raster` source object; every problem is a diagnostic and takes the spec default.
    mutating func loadRasterSource(_ o: [String: JSONValue], path: String) -> RasterSource {
        var source = RasterSource(
            minzoom: zoomValue(o["minzoom"], path + ".minzoom", default: 0),
            maxzoom: zoomValue(o["maxzoom"], path + ".maxzoom", default: 22), attribution: o["attribution"]?.stringValue
        )
        if let v = o["tileSize"] {
            if let n = v.numberValue, n >= 64, n <= 4096, n == n.rounded(), Int(n).nonzeroBitCount == 1 {
                source.tileSize = Int(n)
            } else {
                error(path + ".tileSize", "expected a power of two from 64 to 4096; using 512")
            }
        }
        let fields = loadTileFields(o, path: path, raster: true, defaultBounds: RasterSource.worldBounds)
        (source.url, source.tiles, source.location) = (fields.url, fields.tiles, fields.location)
        (source.scheme, source.bounds) = (fields.scheme.rawValue, fields.bounds)
        if source.minzoom > source.maxzoom { error(path + ".minzoom", "minzoom is greater than maxzoom") }
        return source
    }

    /// Why a layer of `layerType` cannot draw `source` named `name` (raster layers need raster sources and raster
    /// sources feed only raster layers; hillshade layers and `raster-dem` sources likewise), or `nil` when they fit.
    func rasterSourceMismatch(layerType: StyleLayerType, source: StyleSource, name: String) -> String? {
        var isRasterSource = false
        var isDEMSource = false
        if case .raster(let r) = source {
            isRasterSource = r.demEncoding == nil
            isDEMSource = r.demEncoding != nil
        }
        if layerType == .raster && !isRasterSource { return "requires a raster source, \"\(name)\" is not one" }
        if layerType == .hillshade && !isDEMSource { return "requires a raster-dem source, \"\(name)\" is not one" }
        if layerType != .raster && isRasterSource { return "cannot draw the raster source \"\(name)\"" }
        if layerType != .hillshade && isDEMSource { return "cannot draw the raster-dem source \"\(name)\"" }
        return nil
    }
}

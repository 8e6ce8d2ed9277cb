/// A vector tile source: MBTiles or PMTiles (`mbtiles://<path>`, `pmtiles://…`), a TileJSON `url` or tile URL
/// templates; where its tiles are is ``location``.
public struct VectorSource: Sendable, Equatable {
    /// The `url` as written, for example `mbtiles://../world.mbtiles`, or `nil`.
    public var url: String?
    /// Tile URL templates (`{z}/{x}/{y}`), empty when `url` is used. Relative ones are resolved: against the style's
    /// `baseURL` (RFC 3986) when it has one, else to `file://` URLs under the style file's folder.
    public var tiles: [String]
    /// Lowest zoom with tiles, 0…24. Defaults to 0.
    public var minzoom: Double
    /// Highest zoom with tiles (over-zoomed above), 0…24. Defaults to 22.
    public var maxzoom: Double
    /// Attribution HTML/text, or `nil`.
    public var attribution: String?
    /// `scheme`: `xyz` (rows from the north, the default) or `tms` (rows from the south) for ``tiles``.
    public var scheme: String = "xyz"
    /// `bounds` `[west, south, east, north]` in degrees: no tile outside is requested. Default the whole world.
    public var bounds: [Double] = TileJSON.worldBounds
    /// Where the tiles are (parsed from ``url`` or ``tiles``, the same rule as for raster sources), or `nil` when
    /// neither names something Waymark reads (the source draws nothing).
    public var location: TileLocation? = nil
}

/// A GeoJSON source: inline data or a URL.
public struct GeoJSONSource: Sendable, Equatable {
    /// Inline GeoJSON (a Feature, FeatureCollection or geometry), or `nil` when `url` is used.
    public var data: JSONValue?
    /// The `data` URL as written, or `nil` for inline data.
    public var url: String?
    /// For relative or `file://` URLs, the path resolved against the style file's folder; else `nil`.
    public var path: String?
    /// Highest zoom at which tiles are cut (over-zoomed above), 0…24. Defaults to 18.
    public var maxzoom: Double
    /// Attribution, or `nil`.
    public var attribution: String?
    /// `lineMetrics`: whether line features carry their position along the whole line (for `line-gradient`).
    /// Defaults to `false`.
    public var lineMetrics: Bool = false
    /// `buffer`: how far beyond a tile's edge features are kept when the data is cut into tiles, in points of a
    /// 512-point tile, 0…512. Defaults to 128 (the style spec's default).
    public var buffer: Double = 128

    /// The one layer name of the tiles cut from a GeoJSON source. MapLibre ignores `source-layer` on layers of a
    /// GeoJSON source; the style loader sets every such layer's ``StyleLayer/sourceLayer`` to this name.
    public static let layerName = "_geojson"
}

/// A style source (style spec "Sources").
public enum StyleSource: Sendable, Equatable {
    /// `type: vector`.
    case vector(VectorSource)
    /// `type: geojson`.
    case geojson(GeoJSONSource)
    /// `type: raster`, and `type: raster-dem` with ``RasterSource/demEncoding`` set (RasterSource.swift).
    case raster(RasterSource)
    /// Any other type (`image`, `video`): kept by name so layers can refer to it, not rendered.
    case unsupported(type: String)

    /// The attribution text, or `nil`.
    public var attribution: String? {
        switch self {
        case .vector(let v): return v.attribution
        case .geojson(let g): return g.attribution
        case .raster(let r): return r.attribution
        case .unsupported: return nil
        }
    }
}

/// Path helpers for resolving URLs relative to the style file.
enum StylePath {
    /// Joins `relative` to `base` (a folder) and folds `.` and `..` segments.
    static func resolve(_ relative: String, against base: String?) -> String {
        let joined = relative.hasPrefix("/") || base == nil ? relative : base! + "/" + relative
        let absolute = joined.hasPrefix("/")
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let body = parts.joined(separator: "/")
        return absolute ? "/" + body : (body.isEmpty ? "." : body)
    }

    /// The folder part of a file path (`a/b/style.json` → `a/b`), `.` for a bare name.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

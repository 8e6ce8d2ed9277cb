import MapGeometry

/// A TileJSON document (2.x or 3.0.0, https://github.com/mapbox/tilejson-spec): where a tileset's tiles are and
/// what zooms and area they cover.
///
/// Parsing is lenient like the style's: unknown keys are ignored and bad values fall back to the spec's defaults;
/// only a document without a usable `tiles` array throws. Immutable and `Sendable`.
public struct TileJSON: Sendable, Equatable {
    /// Tile URL templates (`{z}`, `{x}`, `{y}`, `{prefix}`), as written (relative ones are the caller's to resolve).
    public var tiles: [String]
    /// Lowest zoom, `0...30`; default 0.
    public var minzoom: Double
    /// Highest zoom, `minzoom...30`; default 30 (TileJSON's default; over-zoomed above).
    public var maxzoom: Double
    /// `[west, south, east, north]` in degrees; default the whole world `[-180, -85.0511, 180, 85.0511]`.
    public var bounds: [Double]
    /// `xyz` (default) or `tms` (rows counted from the south).
    public var scheme: String
    /// Attribution HTML, or `nil`.
    public var attribution: String?
    /// The `name`, or `nil`.
    public var name: String?

    /// The whole Web Mercator world, TileJSON's default `bounds`.
    public static let worldBounds: [Double] = [-180, -WebMercator.maximumLatitude, 180, WebMercator.maximumLatitude]

    /// Parses TileJSON text.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON.
    ///   - name: what errors call the document (its URL).
    /// - Throws: ``StyleLoadError`` naming `name` for bad JSON, a non-object root, or no `tiles` strings.
    public init(bytes: [UInt8], name: String) throws(StyleLoadError) {
        let json: JSONValue
        var parser = JSONParser(bytes)
        do { json = try parser.parseDocument() } catch {
            throw StyleLoadError(
                file: name, line: error.line, column: error.column, message: "not JSON: \(error.message)")
        }
        try self.init(json: json, name: name)
    }

    /// Reads a parsed TileJSON document.
    /// - Throws: ``StyleLoadError`` naming `name` for a non-object root or no `tiles` strings.
    public init(json: JSONValue, name: String) throws(StyleLoadError) {
        guard case .object(let o) = json else {
            throw StyleLoadError(file: name, line: nil, column: nil, message: "TileJSON must be an object")
        }
        let tiles = o["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !tiles.isEmpty else {
            throw StyleLoadError(file: name, line: nil, column: nil, message: "TileJSON has no \"tiles\" URLs")
        }
        self.tiles = tiles
        func zoom(_ key: String, _ fallback: Double) -> Double {
            guard let n = o[key]?.numberValue, n.isFinite else { return fallback }
            return min(max(n, 0), 30)
        }
        minzoom = zoom("minzoom", 0)
        maxzoom = max(minzoom, zoom("maxzoom", 30))
        let b = o["bounds"]?.arrayValue?.compactMap(\.numberValue) ?? []
        bounds = TileJSON.validBounds(b) ?? TileJSON.worldBounds
        scheme = o["scheme"]?.stringValue == "tms" ? "tms" : "xyz"
        attribution = o["attribution"]?.stringValue
        self.name = o["name"]?.stringValue
    }

    /// `bounds` when it is four finite numbers with west ≤ east and south ≤ north (latitudes clamped to
    /// ±85.0511°), else `nil`.
    public static func validBounds(_ b: [Double]) -> [Double]? {
        guard b.count == 4, b.allSatisfy(\.isFinite), b[0] <= b[2], b[1] <= b[3] else { return nil }
        let limit = worldBounds[3]
        return [max(b[0], -180), max(b[1], -limit), min(b[2], 180), min(b[3], limit)]
    }
}

import MapJSON

/// Waymark's own: what the hosts draw from an overlay GeoJSON document (`waymark snapshot --overlays` and
/// `--markers`, `map-viewer --overlays`, the demo), read into plain values with no UI type, so the CLI and the map
/// view share one reader and it is fuzzed on its own (`scripts/fuzz/fuzz-overlays.sh`).
///
/// Every position drawn must be finite, within ±90° latitude and ±360° longitude; anything else (`1e308`, a string)
/// refuses the whole document, naming the place (docs/BEHAVIOUR.md D22). Thread rules: any thread.
public enum OverlayGeoJSON {
    /// Why a document gave no shapes or points: the place (`feature 3 ring 1`) and what was wrong, without the file
    /// name (the caller adds it).
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The place and the problem, for example `feature 2: position 5 [1e+308, 0.0] is outside …`.
        public var description: String

        /// Creates an error.
        public init(_ description: String) { self.description = description }
    }

    /// The simplestyle-spec 1.1.0 properties of one feature, defaults filled in.
    public struct ShapeStyle: Sendable, Equatable {
        /// `stroke` as `0xRRGGBB` (`#rgb` or `#rrggbb`, the `#` optional). Default `0x555555`.
        public var stroke: UInt32 = 0x55_5555
        /// `stroke-opacity`, clamped to 0…1. Default 1.
        public var strokeOpacity: Double = 1
        /// `stroke-width` in points, finite and at least 0. Default 2.
        public var strokeWidth: Double = 2
        /// `fill` as `0xRRGGBB`. Default `0x555555`.
        public var fill: UInt32 = 0x55_5555
        /// `fill-opacity`, clamped to 0…1. Default 0.6.
        public var fillOpacity: Double = 0.6

        /// The style of a feature whose `properties` member is `properties` (`nil`, `null` or a non-object: the
        /// defaults). Values of the wrong type or out of range are ignored.
        public init(properties: JSONValue?) {
            func unit(_ v: Double?, _ d: Double) -> Double { v.map { $0.isNaN ? d : min(max($0, 0), 1) } ?? d }
            strokeOpacity = unit(properties?["stroke-opacity"]?.numberValue, 1)
            fillOpacity = unit(properties?["fill-opacity"]?.numberValue, 0.6)
            if let c = properties?["stroke"]?.stringValue.flatMap(Self.rgb) { stroke = c }
            if let w = properties?["stroke-width"]?.numberValue, w.isFinite, w >= 0 { strokeWidth = w }
            if let c = properties?["fill"]?.stringValue.flatMap(Self.rgb) { fill = c }
        }

        /// `#rgb` or `#rrggbb` (the `#` optional) as `0xRRGGBB`, or `nil`.
        public static func rgb(_ text: String) -> UInt32? {
            var hex = Array(text.utf8)
            if hex.first == UInt8(ascii: "#") { hex.removeFirst() }
            if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
            guard hex.count == 6 else { return nil }
            var v: UInt32 = 0
            for c in hex {
                let digit: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
                default: return nil
                }
                v = v << 4 | UInt32(digit)
            }
            return v
        }
    }

    /// A shape to draw.
    public enum Shape: Sendable, Equatable {
        /// A `LineString`, or one line of a `MultiLineString`: its positions, in order.
        case line([GeoJSONPosition], ShapeStyle)
        /// A `Polygon`, or one polygon of a `MultiPolygon`: its rings, the outline first, then the holes (at least
        /// one ring).
        case polygon([[GeoJSONPosition]], ShapeStyle)
    }

    /// The lines and polygons of a FeatureCollection, a Feature or a bare geometry, in document order
    /// (`GeometryCollection`s flattened; `Point` and `MultiPoint` skipped, they are markers).
    /// - Throws: ``ReadError`` when the document has no `type`, a geometry type is unknown, a polygon has no ring,
    ///   or coordinates are not arrays of `[longitude, latitude]` numbers within range.
    public static func shapes(from json: JSONValue) throws(ReadError) -> [Shape] {
        var out: [Shape] = []
        func polygon(_ v: JSONValue?, _ style: ShapeStyle, _ place: String) throws(ReadError) -> Shape {
            guard let rings = v?.arrayValue, !rings.isEmpty else { throw ReadError("\(place): polygon without rings") }
            var read: [[GeoJSONPosition]] = []
            read.reserveCapacity(rings.count)
            for (i, r) in rings.enumerated() { read.append(try positions(r, "\(place) ring \(i)")) }
            return .polygon(read, style)
        }
        func geometry(_ g: JSONValue, properties: JSONValue?, place: String) throws(ReadError) {
            let style = ShapeStyle(properties: properties)
            switch g["type"]?.stringValue {
            case "LineString":
                out.append(.line(try positions(g["coordinates"], place), style))
            case "MultiLineString":
                for (i, line) in try members(g["coordinates"], place).enumerated() {
                    out.append(.line(try positions(line, "\(place) line \(i)"), style))
                }
            case "Polygon":
                out.append(try polygon(g["coordinates"], style, place))
            case "MultiPolygon":
                for (i, p) in try members(g["coordinates"], place).enumerated() {
                    out.append(try polygon(p, style, "\(place) polygon \(i)"))
                }
            case "GeometryCollection":
                for (i, child) in try members(g["geometries"], place, "geometries").enumerated() {
                    try geometry(child, properties: properties, place: "\(place) geometry \(i)")
                }
            case "Point", "MultiPoint": break
            case let other: throw ReadError("\(place): unknown geometry type '\(other ?? "none")'")
            }
        }
        try features(json) { (g, properties, place) throws(ReadError) in
            try geometry(g, properties: properties, place: place)
        }
        return out
    }

    /// The positions of the `Point` and `MultiPoint` geometries of a FeatureCollection (in `GeometryCollection`s
    /// too), in document order; lines and polygons are skipped (they are shapes).
    /// - Throws: ``ReadError`` when the document is not a FeatureCollection with a `features` array, or a point is
    ///   not a `[longitude, latitude]` pair of numbers within range.
    public static func points(from json: JSONValue) throws(ReadError) -> [GeoJSONPosition] {
        guard json["type"]?.stringValue == "FeatureCollection" else {
            throw ReadError("not a GeoJSON FeatureCollection")
        }
        var out: [GeoJSONPosition] = []
        func geometry(_ g: JSONValue, place: String) throws(ReadError) {
            switch g["type"]?.stringValue {
            case "Point": out.append(try position(g["coordinates"], place))
            case "MultiPoint": out += try positions(g["coordinates"], place)
            case "GeometryCollection":
                for (i, child) in try members(g["geometries"], place, "geometries").enumerated() {
                    try geometry(child, place: "\(place) geometry \(i)")
                }
            default: break
            }
        }
        try features(json) { (g, _, place) throws(ReadError) in try geometry(g, place: place) }
        return out
    }

    /// Calls `body` with each located geometry of a FeatureCollection, a Feature or a bare geometry, its feature's
    /// `properties` and its place.
    private static func features(
        _ json: JSONValue, _ body: (JSONValue, JSONValue?, String) throws(ReadError) -> Void
    ) throws(ReadError) {
        switch json["type"]?.stringValue {
        case "FeatureCollection":
            guard let features = json["features"]?.arrayValue else {
                throw ReadError("FeatureCollection without features")
            }
            for (i, f) in features.enumerated() {
                guard let g = f["geometry"] else { continue }
                if case .null = g { continue }
                try body(g, f["properties"], "feature \(i)")
            }
        case "Feature":
            if let g = json["geometry"] {
                if case .null = g { return }
                try body(g, json["properties"], "feature")
            }
        case .some:
            try body(json, nil, "geometry")
        case nil:
            throw ReadError("not a GeoJSON object (no \"type\")")
        }
    }

    /// The array member `v` (`coordinates` by default), or an error naming `place`.
    private static func members(_ v: JSONValue?, _ place: String, _ name: String = "coordinates") throws(ReadError)
        -> [JSONValue]
    {
        guard let array = v?.arrayValue else { throw ReadError("\(place): \(name) are not an array") }
        return array
    }

    /// An array of positions.
    private static func positions(_ v: JSONValue?, _ place: String) throws(ReadError) -> [GeoJSONPosition] {
        let points = try members(v, place)
        var out: [GeoJSONPosition] = []
        out.reserveCapacity(points.count)
        for (i, p) in points.enumerated() { out.append(try position(p, place, index: i)) }
        return out
    }

    /// One `[longitude, latitude]` position (any altitude ignored), finite and within ±360°, ±90°.
    private static func position(_ p: JSONValue?, _ place: String, index: Int? = nil) throws(ReadError)
        -> GeoJSONPosition
    {
        let name = index.map { "position \($0)" } ?? "position"
        guard let c = p?.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue else {
            throw ReadError("\(place): \(name) is not [longitude, latitude]")
        }
        guard lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 360 else {
            throw ReadError("\(place): \(name) [\(lon), \(lat)] is outside ±360° longitude, ±90° latitude")
        }
        return GeoJSONPosition(longitude: lon, latitude: lat)
    }
}

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
    ///
    /// A value that cannot be used is replaced, and said in a warning naming the feature and the property (see
    /// ``init(properties:place:warnings:)``): a colour that is not `#rgb` or `#rrggbb`, a width or opacity that is
    /// not a finite number, and a negative width take the default; a width above ``maxStrokeWidth`` is drawn
    /// ``maxStrokeWidth`` wide, an opacity outside 0…1 is clamped. `null` is the same as no property.
    public struct ShapeStyle: Sendable, Equatable {
        /// `stroke` as `0xRRGGBB` (`#rgb` or `#rrggbb`, the `#` optional). Default `0x555555`.
        public var stroke: UInt32 = 0x55_5555
        /// `stroke-opacity`, clamped to 0…1. Default 1.
        public var strokeOpacity: Double = 1
        /// `stroke-width` in points, 0…``maxStrokeWidth``. Default 2.
        public var strokeWidth: Double = 2
        /// `fill` as `0xRRGGBB`. Default `0x555555`.
        public var fill: UInt32 = 0x55_5555
        /// `fill-opacity`, clamped to 0…1. Default 0.6.
        public var fillOpacity: Double = 0.6

        /// The widest `stroke-width` drawn, in points (a wider one is drawn this wide, with a warning): 100, the
        /// bound of the static maps `path` `weight`.
        public static let maxStrokeWidth = 100.0

        /// The defaults: a 2-point `#555555` stroke, a `#555555` fill at opacity 0.6.
        public init() {}

        /// The style of a feature whose `properties` member is `properties` (`nil`, `null` or a non-object: the
        /// defaults). Values that cannot be used are replaced without a word (see the type); use
        /// ``init(properties:place:warnings:)`` to hear of them.
        public init(properties: JSONValue?) {
            var ignored: [String] = []
            self.init(properties: properties, place: "", warnings: &ignored)
        }

        /// The style of a feature whose `properties` member is `properties`, appending one warning to `warnings`
        /// for each value replaced or clamped, for example `feature 2: "stroke-width" 1000000000 is more than 100;
        /// drawn 100 points wide`. `place` names the feature (`feature 2`).
        public init(properties: JSONValue?, place: String, warnings: inout [String]) {
            var read = PropertyReader(properties: properties, place: place)
            stroke = read.color("stroke", default: stroke)
            strokeWidth = read.width("stroke-width", default: strokeWidth, max: Self.maxStrokeWidth)
            strokeOpacity = read.unit("stroke-opacity", default: strokeOpacity)
            fill = read.color("fill", default: fill)
            fillOpacity = read.unit("fill-opacity", default: fillOpacity)
            warnings += read.warnings
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

    /// The simplestyle-spec 1.1.0 marker properties of one `Point` or `MultiPoint` feature, as `waymark snapshot
    /// --markers` draws them: a circle filled with `marker-color` (a white ring around it), as
    /// `GMSMarker.markerImage(with:)` tints the default pin. Values that cannot be used take the default, with a
    /// warning (see ``init(properties:place:warnings:)``).
    public struct MarkerStyle: Sendable, Equatable {
        /// simplestyle's `marker-size`.
        public enum Size: String, Sendable, Equatable {
            /// `small`: a circle of radius 4 points.
            case small
            /// `medium` (the default): radius 6 points.
            case medium
            /// `large`: radius 9 points.
            case large

            /// The circle's radius in points: 4, 6 or 9.
            public var radius: Double {
                switch self {
                case .small: return 4
                case .medium: return 6
                case .large: return 9
                }
            }
        }

        /// `marker-color` as `0xRRGGBB` (`#rgb` or `#rrggbb`, the `#` optional). Default `0xEA4335`, the default
        /// pin's red (not simplestyle's grey `#7e7e7e`).
        public var color: UInt32 = 0xEA_4335
        /// `marker-size`: `small`, `medium` or `large`. Default `medium`.
        public var size: Size = .medium
        /// `marker-symbol` as written (a Maki icon name, a digit or a letter), or `nil`. Not drawn: markers are
        /// plain circles; ``OverlayGeoJSON/markers(from:warnings:)`` says so once per document.
        public var symbol: String?

        /// The default style: a medium `#EA4335` circle.
        public init() {}

        /// The style of a feature whose `properties` member is `properties`, appending one warning to `warnings`
        /// for each value replaced (a colour that is not `#rgb` or `#rrggbb`, a size that is not `small`, `medium`
        /// or `large`), naming `place` and the property.
        public init(properties: JSONValue?, place: String, warnings: inout [String]) {
            var read = PropertyReader(properties: properties, place: place)
            color = read.color("marker-color", default: color)
            if let value = read.value("marker-size") {
                if let text = value.stringValue, let size = Size(rawValue: text) {
                    self.size = size
                } else {
                    read.warn("marker-size", value, "is not small, medium or large; drawn medium (the default)")
                }
            }
            if let value = read.value("marker-symbol") {
                if let text = value.stringValue {
                    symbol = text
                } else if let number = value.numberValue {
                    symbol = PropertyReader.shown(.number(number))
                }
            }
            warnings += read.warnings
        }
    }

    /// A marker to draw: where, and how (`--markers`).
    public struct Marker: Sendable, Equatable {
        /// The point.
        public var position: GeoJSONPosition
        /// Its feature's marker properties.
        public var style: MarkerStyle

        /// A marker at `position` drawn with `style`.
        public init(position: GeoJSONPosition, style: MarkerStyle = MarkerStyle()) {
            self.position = position
            self.style = style
        }
    }

    /// Reads simplestyle properties, replacing values that cannot be used and wording a warning for each.
    struct PropertyReader {
        let properties: JSONValue?
        let place: String
        var warnings: [String] = []

        init(properties: JSONValue?, place: String) {
            self.properties = properties?.objectValue == nil ? nil : properties
            self.place = place
        }

        /// The property `name`, or `nil` when it is absent or `null`.
        func value(_ name: String) -> JSONValue? {
            guard let v = properties?[name] else { return nil }
            if case .null = v { return nil }
            return v
        }

        mutating func warn(_ name: String, _ value: JSONValue, _ what: String) {
            warnings.append("\(place.isEmpty ? "" : "\(place): ")\"\(name)\" \(Self.shown(value)) \(what)")
        }

        /// `#rgb` or `#rrggbb`, else the default (with a warning).
        mutating func color(_ name: String, default d: UInt32) -> UInt32 {
            guard let v = value(name) else { return d }
            if let c = v.stringValue.flatMap(ShapeStyle.rgb) { return c }
            warn(name, v, "is not a #rgb or #rrggbb colour; drawn in the default \(Self.hex(d))")
            return d
        }

        /// A width in points: a finite number in 0…`max`; negative or not a finite number gives the default, above
        /// `max` gives `max` (each with a warning).
        mutating func width(_ name: String, default d: Double, max: Double) -> Double {
            guard let v = value(name) else { return d }
            guard let w = v.numberValue, w.isFinite else {
                warn(name, v, "is not a finite number; drawn \(Self.number(d)) points wide (the default)")
                return d
            }
            if w < 0 {
                warn(name, v, "is negative; drawn \(Self.number(d)) points wide (the default)")
                return d
            }
            if w > max {
                warn(name, v, "is more than \(Self.number(max)); drawn \(Self.number(max)) points wide")
                return max
            }
            return w
        }

        /// An opacity: a number clamped to 0…1 (with a warning when outside); not a number gives the default.
        mutating func unit(_ name: String, default d: Double) -> Double {
            guard let v = value(name) else { return d }
            guard let o = v.numberValue, !o.isNaN else {
                warn(name, v, "is not a number; drawn at the default \(Self.number(d))")
                return d
            }
            if o < 0 || o > 1 {
                let clamped = Swift.min(Swift.max(o, 0), 1)
                warn(name, v, "is outside 0…1; drawn at \(Self.number(clamped))")
                return clamped
            }
            return o
        }

        /// A value as a message shows it: a string quoted (at most 40 characters), a number without a needless
        /// `.0`, other values by their JSON type.
        static func shown(_ v: JSONValue) -> String {
            switch v {
            case .string(let text):
                return text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
            case .number(let n): return number(n)
            case .bool(let b): return b ? "true" : "false"
            default: return "(\(v.typeName))"
            }
        }

        static func number(_ n: Double) -> String {
            n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        }

        static func hex(_ rgb: UInt32) -> String {
            let digits = String(rgb, radix: 16)
            return "#" + String(repeating: "0", count: Swift.max(0, 6 - digits.count)) + digits
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
        var ignored: [String] = []
        return try shapes(from: json, warnings: &ignored)
    }

    /// The lines and polygons of a document, as ``shapes(from:)`` reads them, appending to `warnings` one line for
    /// each style property replaced or clamped (``ShapeStyle/init(properties:place:warnings:)``), once per feature.
    /// - Throws: ``ReadError``, as ``shapes(from:)``.
    public static func shapes(from json: JSONValue, warnings: inout [String]) throws(ReadError) -> [Shape] {
        var out: [Shape] = []
        func polygon(_ v: JSONValue?, _ style: ShapeStyle, _ place: String) throws(ReadError) -> Shape {
            guard let rings = v?.arrayValue, !rings.isEmpty else { throw ReadError("\(place): polygon without rings") }
            var read: [[GeoJSONPosition]] = []
            read.reserveCapacity(rings.count)
            for (i, r) in rings.enumerated() { read.append(try positions(r, "\(place) ring \(i)")) }
            return .polygon(read, style)
        }
        func geometry(_ g: JSONValue, style: ShapeStyle, place: String) throws(ReadError) {
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
                    try geometry(child, style: style, place: "\(place) geometry \(i)")
                }
            case "Point", "MultiPoint": break
            case let other: throw ReadError("\(place): unknown geometry type '\(other ?? "none")'")
            }
        }
        try features(json) { (g, properties, place) throws(ReadError) in
            // Points carry marker properties, not these: their features are not read for styles.
            let drawn = g["type"]?.stringValue != "Point" && g["type"]?.stringValue != "MultiPoint"
            let style = drawn ? ShapeStyle(properties: properties, place: place, warnings: &warnings) : ShapeStyle()
            try geometry(g, style: style, place: place)
        }
        return out
    }

    /// The positions of the `Point` and `MultiPoint` geometries of a FeatureCollection (in `GeometryCollection`s
    /// too), in document order; lines and polygons are skipped (they are shapes).
    /// - Throws: ``ReadError`` when the document is not a FeatureCollection with a `features` array, or a point is
    ///   not a `[longitude, latitude]` pair of numbers within range.
    public static func points(from json: JSONValue) throws(ReadError) -> [GeoJSONPosition] {
        var ignored: [String] = []
        return try markers(from: json, warnings: &ignored).map(\.position)
    }

    /// The markers of a FeatureCollection: the positions ``points(from:)`` reads, each with its feature's
    /// ``MarkerStyle`` (`marker-color`, `marker-size`; `marker-symbol` kept but not drawn). Appends to `warnings`
    /// one line per property replaced (naming the feature and the property), and one line for all the
    /// `marker-symbol`s (the first feature's, and how many more).
    /// - Throws: ``ReadError``, as ``points(from:)``.
    public static func markers(from json: JSONValue, warnings: inout [String]) throws(ReadError) -> [Marker] {
        guard json["type"]?.stringValue == "FeatureCollection" else {
            throw ReadError("not a GeoJSON FeatureCollection")
        }
        var out: [Marker] = []
        var symbols: [(place: String, symbol: String)] = []
        func geometry(_ g: JSONValue, style: () -> MarkerStyle, place: String) throws(ReadError) {
            switch g["type"]?.stringValue {
            case "Point": out.append(Marker(position: try position(g["coordinates"], place), style: style()))
            case "MultiPoint":
                let s = style()
                out += try positions(g["coordinates"], place).map { Marker(position: $0, style: s) }
            case "GeometryCollection":
                for (i, child) in try members(g["geometries"], place, "geometries").enumerated() {
                    try geometry(child, style: style, place: "\(place) geometry \(i)")
                }
            default: break
            }
        }
        try features(json) { (g, properties, place) throws(ReadError) in
            // Read once per feature, and only when it has a point (a line's properties are the overlays').
            var read: MarkerStyle?
            try geometry(
                g,
                style: {
                    if let read { return read }
                    let style = MarkerStyle(properties: properties, place: place, warnings: &warnings)
                    if let symbol = style.symbol { symbols.append((place, symbol)) }
                    read = style
                    return style
                }, place: place)
        }
        if let first = symbols.first {
            let more = symbols.count - 1
            warnings.append(
                "\(first.place): \"marker-symbol\" \(PropertyReader.shown(.string(first.symbol))) is not drawn "
                    + "(markers are plain circles)"
                    + (more > 0 ? "; nor are the symbols of \(more) more feature\(more == 1 ? "" : "s")" : ""))
        }
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

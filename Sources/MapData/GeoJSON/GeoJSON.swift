import MapJSON

/// A problem in a GeoJSON document: the JSON path of the offending value (`$.features[3].geometry.coordinates[0]`)
/// and what was wrong. Thrown for syntax errors and for structures RFC 7946 does not allow.
public struct GeoJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSONPath-like location of the problem; `$` is the document root.
    public var path: String
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// A position: longitude and latitude in degrees (WGS 84, RFC 7946 §3.1.1); any altitude is dropped.
public struct GeoJSONPosition: Sendable, Hashable {
    /// Longitude, degrees east; not clamped.
    public var longitude: Double
    /// Latitude, degrees north; not clamped.
    public var latitude: Double

    /// Creates a position.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }
}

/// A GeoJSON geometry (RFC 7946 §3.1). Polygons are lists of linear rings, exterior first; rings are closed (first
/// position repeated last; the reader closes a ring that is not) with at least four positions.
public indirect enum GeoJSONGeometry: Sendable, Equatable {
    /// `Point`.
    case point(GeoJSONPosition)
    /// `MultiPoint`.
    case multiPoint([GeoJSONPosition])
    /// `LineString`, ≥ 2 positions.
    case lineString([GeoJSONPosition])
    /// `MultiLineString`.
    case multiLineString([[GeoJSONPosition]])
    /// `Polygon`: rings, exterior first.
    case polygon([[GeoJSONPosition]])
    /// `MultiPolygon`.
    case multiPolygon([[[GeoJSONPosition]]])
    /// `GeometryCollection`.
    case geometryCollection([GeoJSONGeometry])
}

/// A feature identifier (RFC 7946 §3.2: a string or a number).
public enum GeoJSONFeatureID: Sendable, Hashable {
    /// A numeric id.
    case number(Double)
    /// A string id.
    case string(String)
}

/// A GeoJSON feature: geometry (possibly `nil`, RFC 7946 §3.2 allows `"geometry": null`), properties and id.
public struct GeoJSONFeature: Sendable, Equatable {
    /// The geometry, or `nil` for an unlocated feature.
    public var geometry: GeoJSONGeometry?
    /// The `properties` object (empty when `null` or absent).
    public var properties: [String: GeoJSONValue]
    /// The `id` member, when present.
    public var id: GeoJSONFeatureID?

    /// Creates a feature.
    public init(geometry: GeoJSONGeometry?, properties: [String: GeoJSONValue] = [:], id: GeoJSONFeatureID? = nil) {
        self.geometry = geometry
        self.properties = properties
        self.id = id
    }
}

/// A parsed GeoJSON document flattened to features: a `FeatureCollection` gives its features, a `Feature` itself, a
/// bare geometry one feature with no properties (as MapLibre's GeoJSON sources treat them).
public struct GeoJSONDocument: Sendable, Equatable {
    /// The features in document order.
    public var features: [GeoJSONFeature]

    /// Creates a document from features.
    public init(features: [GeoJSONFeature]) { self.features = features }

    /// Parses UTF-8 GeoJSON text.
    /// - Throws: ``GeoJSONError`` naming the JSON path of the first problem (syntax errors have path `$` and the line and
    ///   column). Never traps on any input.
    public static func parse(bytes: [UInt8]) throws(GeoJSONError) -> GeoJSONDocument {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes: bytes)
        } catch {
            throw GeoJSONError(path: "$", message: "JSON syntax error at \(error)")
        }
        return try GeoJSONDocument(json: json)
    }

    /// Interprets an already-parsed JSON value as GeoJSON.
    /// - Throws: ``GeoJSONError`` naming the JSON path of the first problem: a missing or unknown `type`, coordinates of
    ///   the wrong shape, a position with fewer than two numbers, a line string with fewer than two positions, a ring
    ///   with fewer than four positions (a ring that does not end at its first position is closed first, as MapLibre
    ///   does), `features` not an array, `properties` not an object or null, an `id` that is neither string nor
    ///   number.
    public init(json: GeoJSONValue) throws(GeoJSONError) {
        guard case .object(let root) = json else {
            throw GeoJSONError(path: "$", message: "expected a GeoJSON object, found \(json.typeName)")
        }
        guard case .string(let type)? = root["type"] else {
            throw GeoJSONError(path: "$.type", message: "missing or non-string \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let items)? = root["features"] else {
                throw GeoJSONError(path: "$.features", message: "FeatureCollection needs a \"features\" array")
            }
            var features: [GeoJSONFeature] = []
            features.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                features.append(try GeoJSONParser.feature(item, path: "$.features[\(i)]"))
            }
            self.features = features
        case "Feature":
            self.features = [try GeoJSONParser.feature(json, path: "$")]
        default:
            self.features = [GeoJSONFeature(geometry: try GeoJSONParser.geometry(json, path: "$"))]
        }
    }
}

/// The structural checks of RFC 7946, each naming its path.
enum GeoJSONParser {
    static func feature(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> GeoJSONFeature {
        guard case .object(let object) = json else {
            throw GeoJSONError(path: path, message: "expected a Feature object, found \(json.typeName)")
        }
        guard case .string("Feature")? = object["type"] else {
            throw GeoJSONError(path: path + ".type", message: "expected \"type\": \"Feature\"")
        }
        var geometry: GeoJSONGeometry?
        switch object["geometry"] {
        case nil:
            throw GeoJSONError(path: path + ".geometry", message: "a Feature needs a \"geometry\" member (or null)")
        case .null?: geometry = nil
        case let g?: geometry = try self.geometry(g, path: path + ".geometry")
        }
        var properties: [String: GeoJSONValue] = [:]
        switch object["properties"] {
        case nil, .null?: break
        case .object(let p)?: properties = p
        case let other?:
            throw GeoJSONError(
                path: path + ".properties", message: "expected an object or null, found \(other.typeName)")
        }
        var id: GeoJSONFeatureID?
        switch object["id"] {
        case nil: break
        case .number(let n)?: id = .number(n)
        case .string(let s)?: id = .string(s)
        case let other?:
            throw GeoJSONError(path: path + ".id", message: "expected a string or number, found \(other.typeName)")
        }
        return GeoJSONFeature(geometry: geometry, properties: properties, id: id)
    }

    static func geometry(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> GeoJSONGeometry {
        guard case .object(let object) = json else {
            throw GeoJSONError(path: path, message: "expected a geometry object, found \(json.typeName)")
        }
        guard case .string(let type)? = object["type"] else {
            throw GeoJSONError(path: path + ".type", message: "missing or non-string \"type\"")
        }
        if type == "GeometryCollection" {
            guard case .array(let items)? = object["geometries"] else {
                throw GeoJSONError(
                    path: path + ".geometries", message: "GeometryCollection needs a \"geometries\" array")
            }
            var parts: [GeoJSONGeometry] = []
            for (i, item) in items.enumerated() {
                parts.append(try geometry(item, path: path + ".geometries[\(i)]"))
            }
            return .geometryCollection(parts)
        }
        let known = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]
        guard known.contains(type) else {
            throw GeoJSONError(path: path + ".type", message: "unknown geometry type \"\(type)\"")
        }
        guard let coordinates = object["coordinates"] else {
            throw GeoJSONError(path: path + ".coordinates", message: "\(type) needs \"coordinates\"")
        }
        let cp = path + ".coordinates"
        switch type {
        case "Point": return .point(try position(coordinates, path: cp))
        case "MultiPoint": return .multiPoint(try positions(coordinates, path: cp))
        case "LineString": return .lineString(try lineString(coordinates, path: cp))
        case "MultiLineString":
            return .multiLineString(
                try array(coordinates, path: cp).enumerated().map { (i, v) throws(GeoJSONError) in
                    try lineString(v, path: cp + "[\(i)]")
                })
        case "Polygon": return .polygon(try polygon(coordinates, path: cp))
        default:
            return .multiPolygon(
                try array(coordinates, path: cp).enumerated().map { (i, v) throws(GeoJSONError) in
                    try polygon(v, path: cp + "[\(i)]")
                })
        }
    }

    static func array(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> [GeoJSONValue] {
        guard case .array(let items) = json else {
            throw GeoJSONError(path: path, message: "expected an array, found \(json.typeName)")
        }
        return items
    }

    static func position(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> GeoJSONPosition {
        let items = try array(json, path: path)
        guard items.count >= 2 else {
            throw GeoJSONError(path: path, message: "a position needs at least 2 numbers, found \(items.count)")
        }
        var numbers: [Double] = []
        for (i, item) in items.enumerated() {
            guard case .number(let n) = item, n.isFinite else {
                throw GeoJSONError(path: path + "[\(i)]", message: "expected a number, found \(item.typeName)")
            }
            numbers.append(n)
        }
        return GeoJSONPosition(longitude: numbers[0], latitude: numbers[1])
    }

    static func positions(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> [GeoJSONPosition] {
        var out: [GeoJSONPosition] = []
        for (i, item) in try array(json, path: path).enumerated() {
            out.append(try position(item, path: path + "[\(i)]"))
        }
        return out
    }

    static func lineString(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> [GeoJSONPosition] {
        let p = try positions(json, path: path)
        guard p.count >= 2 else {
            throw GeoJSONError(path: path, message: "a LineString needs at least 2 positions, found \(p.count)")
        }
        return p
    }

    static func polygon(_ json: GeoJSONValue, path: String) throws(GeoJSONError) -> [[GeoJSONPosition]] {
        var rings: [[GeoJSONPosition]] = []
        for (i, item) in try array(json, path: path).enumerated() {
            var ring = try positions(item, path: path + "[\(i)]")
            // A ring that does not end at its first position (RFC 7946 §3.1.6 asks it to) is closed here, as
            // MapLibre's GeoJSON reader closes it: the last position joins back to the first. Compared by longitude
            // and latitude (altitude is dropped).
            if let first = ring.first, ring.count >= 3, ring.last != first { ring.append(first) }
            guard ring.count >= 4 else {
                throw GeoJSONError(
                    path: path + "[\(i)]", message: "a linear ring needs at least 4 positions, found \(ring.count)")
            }
            rings.append(ring)
        }
        return rings
    }
}

import GoogleMaps

/// Why a GeoJSON or KML document could not be read (Waymark's own; Google's parsers only log). The message names
/// the input and the place: a JSON path such as `features[2].geometry.coordinates[0][1]`, or an XML line and
/// column.
public struct GMUParseError: Error, CustomStringConvertible, Sendable {
    /// The input: a file path, or "data" / "stream".
    public let source: String
    /// Where in the input, as described above.
    public let position: String
    /// What is wrong.
    public let reason: String

    /// "source: position: reason".
    public var description: String { "\(source): \(position): \(reason)" }
}

/// Reads GeoJSON (RFC 7946) into features (google-maps-ios-utils' `GMUGeoJSONParser`).
///
/// A FeatureCollection gives its features, a Feature one feature, a bare geometry one feature without properties.
/// Point, LineString and Polygon map to ``GMUPoint``, ``GMULineString`` and ``GMUPolygon`` (first ring outer, the
/// rest holes); MultiPoint, MultiLineString, MultiPolygon and GeometryCollection to ``GMUGeometryCollection``s of
/// them. `bbox` (`[west, south, east, north]`) becomes ``GMUFeature/boundingBox``, `id` (string or number)
/// ``GMUFeature/identifier``, `properties` ``GMUFeature/properties``; other members are ignored. Positions are
/// `[longitude, latitude(, altitude)]`; a null geometry is skipped with its feature.
///
/// Errors (Waymark's own ``error``): bytes that are not JSON (with the position JSONSerialization names), a wrong
/// type or a missing member (with its JSON path), a coordinate that is not a number, fewer than two numbers in a
/// position. On any error ``features`` stays empty: a document is taken whole or not at all. Limits: the whole
/// document is read into memory (at most 1 GiB); GeometryCollections nest at most 64 deep.
/// - Thread rules: one thread at a time (any thread).
public final class GMUGeoJSONParser {
    /// The features read by ``parse()``; empty before, and after an error.
    public private(set) var features: [GMUFeature] = []
    /// Why the last ``parse()`` failed, or nil (Waymark's own).
    public private(set) var error: GMUParseError?

    private enum Input {
        case data(Data)
        case url(URL)
        case stream(InputStream)
    }
    private let input: Input
    private let sourceName: String
    /// The largest document read (bytes).
    static let maxBytes = 1 << 30
    /// The deepest nesting of GeometryCollections.
    static let maxDepth = 64

    /// A parser of the file or resource at `url` (read by ``parse()``).
    public init(url: URL) {
        input = .url(url)
        sourceName = url.isFileURL ? url.path : url.absoluteString
    }

    /// A parser of `data`.
    public init(data: Data) {
        input = .data(data)
        sourceName = "data"
    }

    /// A parser of everything `stream` yields (read by ``parse()``; the stream is opened and closed there).
    public init(stream: InputStream) {
        input = .stream(stream)
        sourceName = "stream"
    }

    /// Reads the document into ``features``; on failure ``features`` is empty and ``error`` says why.
    public func parse() {
        features = []
        error = nil
        do {
            features = try parseFeatures(try readInput())
        } catch let e as GMUParseError {
            error = e
            GMSLogUtils.warning(e.description)
        } catch {
            self.error = GMUParseError(source: sourceName, position: "document", reason: "\(error)")
        }
    }

    private func fail(_ path: String, _ reason: String) -> GMUParseError {
        GMUParseError(source: sourceName, position: path, reason: reason)
    }

    private func readInput() throws -> Data {
        switch input {
        case .data(let d): return d
        case .url(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw fail("file", "cannot be read: \(error.localizedDescription)")
            }
        case .stream(let stream):
            stream.open()
            defer { stream.close() }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = stream.read(&buffer, maxLength: buffer.count)
                if n < 0 {
                    throw fail("stream", "read failed: \(stream.streamError.map { "\($0)" } ?? "unknown error")")
                }
                if n == 0 { break }
                data.append(buffer, count: n)
                if data.count > Self.maxBytes { throw fail("stream", "longer than \(Self.maxBytes) bytes") }
            }
            return data
        }
    }

    private func parseFeatures(_ data: Data) throws -> [GMUFeature] {
        guard data.count <= Self.maxBytes else { throw fail("document", "longer than \(Self.maxBytes) bytes") }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
            throw fail("document", "not valid JSON: \(detail)")
        }
        let object = try dictionary(root, "$")
        let type = try string(object["type"], "$.type")
        switch type {
        case "FeatureCollection":
            let list = try array(object["features"], "$.features")
            var result: [GMUFeature] = []
            result.reserveCapacity(list.count)
            for (i, f) in list.enumerated() {
                if let feature = try parseFeature(try dictionary(f, "$.features[\(i)]"), "$.features[\(i)]") {
                    result.append(feature)
                }
            }
            return result
        case "Feature":
            return try parseFeature(object, "$").map { [$0] } ?? []
        default:
            let geometry = try parseGeometry(object, "$", depth: 0)
            return [GMUFeature(geometry: geometry, identifier: nil, properties: nil, boundingBox: nil)]
        }
    }

    private func parseFeature(_ object: [String: Any], _ path: String) throws -> GMUFeature? {
        let type = try string(object["type"], path + ".type")
        guard type == "Feature" else { throw fail(path + ".type", "expected \"Feature\", found \"\(type)\"") }
        var identifier: String?
        switch object["id"] {
        case let s as String: identifier = s
        case let n as NSNumber: identifier = n.stringValue
        case nil, is NSNull: identifier = nil
        default: throw fail(path + ".id", "expected a string or a number")
        }
        guard let g = object["geometry"], !(g is NSNull) else { return nil }
        let geometry = try parseGeometry(try dictionary(g, path + ".geometry"), path + ".geometry", depth: 0)
        var properties: [String: Any]?
        if let p = object["properties"], !(p is NSNull) {
            properties = try dictionary(p, path + ".properties")
        }
        var bounds: GMSCoordinateBounds?
        if let b = object["bbox"], !(b is NSNull) {
            let values = try array(b, path + ".bbox")
            guard values.count >= 4, values.count % 2 == 0 else {
                throw fail(path + ".bbox", "expected 4 or 6 numbers, found \(values.count) values")
            }
            let numbers = try values.enumerated().map { try number($1, path + ".bbox[\($0)]") }
            let half = numbers.count / 2
            bounds = GMSCoordinateBounds(
                coordinate: CLLocationCoordinate2D(latitude: numbers[1], longitude: numbers[0]),
                coordinate: CLLocationCoordinate2D(latitude: numbers[half + 1], longitude: numbers[half]))
        }
        return GMUFeature(geometry: geometry, identifier: identifier, properties: properties, boundingBox: bounds)
    }

    private func parseGeometry(_ object: [String: Any], _ path: String, depth: Int) throws -> any GMUGeometry {
        guard depth < Self.maxDepth else { throw fail(path, "GeometryCollections nest deeper than \(Self.maxDepth)") }
        let type = try string(object["type"], path + ".type")
        let cpath = path + ".coordinates"
        switch type {
        case "Point":
            return GMUPoint(coordinate: try position(object["coordinates"], cpath))
        case "MultiPoint":
            let list = try array(object["coordinates"], cpath)
            return GMUGeometryCollection(
                geometries: try list.enumerated().map { GMUPoint(coordinate: try position($1, cpath + "[\($0)]")) })
        case "LineString":
            return GMULineString(path: try linePath(object["coordinates"], cpath))
        case "MultiLineString":
            let list = try array(object["coordinates"], cpath)
            return GMUGeometryCollection(
                geometries: try list.enumerated().map { GMULineString(path: try linePath($1, cpath + "[\($0)]")) })
        case "Polygon":
            return try polygon(object["coordinates"], cpath)
        case "MultiPolygon":
            let list = try array(object["coordinates"], cpath)
            return GMUGeometryCollection(geometries: try list.enumerated().map { try polygon($1, cpath + "[\($0)]") })
        case "GeometryCollection":
            let list = try array(object["geometries"], path + ".geometries")
            return GMUGeometryCollection(
                geometries: try list.enumerated().map { i, g in
                    let p = path + ".geometries[\(i)]"
                    return try parseGeometry(try dictionary(g, p), p, depth: depth + 1)
                })
        default:
            throw fail(path + ".type", "unknown geometry type \"\(type)\"")
        }
    }

    private func polygon(_ value: Any?, _ path: String) throws -> GMUPolygon {
        let rings = try array(value, path)
        return GMUPolygon(paths: try rings.enumerated().map { try linePath($1, path + "[\($0)]") })
    }

    private func linePath(_ value: Any?, _ path: String) throws -> GMSPath {
        let list = try array(value, path)
        let p = GMSMutablePath()
        for (i, v) in list.enumerated() { p.add(try position(v, path + "[\(i)]")) }
        return p
    }

    private func position(_ value: Any?, _ path: String) throws -> CLLocationCoordinate2D {
        let list = try array(value, path)
        guard list.count >= 2 else { throw fail(path, "a position needs at least 2 numbers, found \(list.count)") }
        let lng = try number(list[0], path + "[0]")
        let lat = try number(list[1], path + "[1]")
        return CLLocationCoordinate2D(latitude: lat, longitude: lng)
    }

    private func number(_ value: Any?, _ path: String) throws -> Double {
        if let n = value as? NSNumber, !Self.isBool(n) { return n.doubleValue }
        throw fail(path, "expected a number, found \(Self.describe(value))")
    }

    /// Whether JSONSerialization made `n` from `true` or `false`.
    private static func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    private func string(_ value: Any?, _ path: String) throws -> String {
        guard let s = value as? String else { throw fail(path, "expected a string, found \(Self.describe(value))") }
        return s
    }

    private func array(_ value: Any?, _ path: String) throws -> [Any] {
        guard let a = value as? [Any] else { throw fail(path, "expected an array, found \(Self.describe(value))") }
        return a
    }

    private func dictionary(_ value: Any?, _ path: String) throws -> [String: Any] {
        guard let d = value as? [String: Any] else {
            throw fail(path, "expected an object, found \(Self.describe(value))")
        }
        return d
    }

    private static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nothing (missing)"
        case is NSNull: return "null"
        case let s as String: return "the string \"\(s.prefix(40))\""
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let n as NSNumber: return "the number \(n)"
        default: return "\(type(of: value!))"
        }
    }
}

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
/// The document is read by Waymark's own one-pass UTF-8 JSON reader (not `JSONSerialization`, which is about ten
/// times slower on Linux); `properties` values are what `JSONSerialization` gives (`String`, `NSNumber` for numbers
/// and booleans, `NSNull`, `[Any]`, `[String: Any]`).
///
/// Errors (Waymark's own ``error``): bytes that are not JSON (position "line L, column C", columns counting bytes;
/// the reason names what was expected and the 0-based byte offset as "character N"), a wrong type or a missing
/// member (with its JSON path), a coordinate that is not a number or not a finite one (`1e999` overflows a `Double`),
/// fewer than two numbers in a position. On any error ``features`` stays empty: a document is taken whole or not at
/// all. Limits: the whole document is read into memory (at most 1 GiB); arrays and objects nest at most 256 deep;
/// GeometryCollections nest at most 64 deep.
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
        let parsed = data.withUnsafeBytes { raw -> Result<GeoJSONValue, GeoJSONSyntaxError> in
            Result { () throws(GeoJSONSyntaxError) in try GeoJSONReader.parse(raw.bindMemory(to: UInt8.self)) }
        }
        let root: GeoJSONValue
        switch parsed {
        case .success(let value): root = value
        case .failure(let error):
            let (line, column) = data.withUnsafeBytes {
                GeoJSONReader.lineAndColumn($0.bindMemory(to: UInt8.self), error.offset)
            }
            throw fail(
                "line \(line), column \(column)", "not valid JSON: \(error.reason) (at character \(error.offset))")
        }
        do throws(Mismatch) {
            return try features(root)
        } catch {
            throw fail("$" + error.path.reversed().joined(), error.reason)
        }
    }

    /// A wrong type or value found in the tree; `path` holds the JSON path's parts innermost first.
    private struct Mismatch: Error {
        var path: [String]
        let reason: String

        init(_ reason: String) {
            path = []
            self.reason = reason
        }

        func inside(_ part: @autoclosure () -> String) -> Mismatch {
            var m = self
            m.path.append(part())
            return m
        }
    }

    /// Runs `body`; a mismatch it throws gets `part` put in front of its path.
    @inline(__always)
    private func at<T>(_ part: @autoclosure () -> String, _ body: () throws(Mismatch) -> T) throws(Mismatch) -> T {
        do throws(Mismatch) {
            return try body()
        } catch {
            throw error.inside(part())
        }
    }

    private func features(_ root: GeoJSONValue) throws(Mismatch) -> [GMUFeature] {
        _ = try object(root)
        let type = try at(".type") { () throws(Mismatch) in try string(root.member("type")) }
        switch type {
        case "FeatureCollection":
            let list = try at(".features") { () throws(Mismatch) in try array(root.member("features")) }
            var result: [GMUFeature] = []
            result.reserveCapacity(list.count)
            for (i, f) in list.enumerated() {
                let feature = try at(".features[\(i)]") { () throws(Mismatch) in
                    _ = try object(f)
                    return try parseFeature(f)
                }
                if let feature { result.append(feature) }
            }
            return result
        case "Feature":
            return try parseFeature(root).map { [$0] } ?? []
        default:
            let geometry = try parseGeometry(root, depth: 0)
            return [GMUFeature(geometry: geometry, identifier: nil, properties: nil, boundingBox: nil)]
        }
    }

    private func parseFeature(_ object: GeoJSONValue) throws(Mismatch) -> GMUFeature? {
        let type = try at(".type") { () throws(Mismatch) in try string(object.member("type")) }
        guard type == "Feature" else { throw Mismatch("expected \"Feature\", found \"\(type)\"").inside(".type") }
        var identifier: String?
        switch object.member("id") {
        case .string(let s): identifier = s
        case .number(let n): identifier = Self.numberText(n)
        case nil, .null: identifier = nil
        default: throw Mismatch("expected a string or a number").inside(".id")
        }
        guard let g = object.member("geometry"), !g.isNull else { return nil }
        let geometry = try at(".geometry") { () throws(Mismatch) in
            _ = try self.object(g)
            return try parseGeometry(g, depth: 0)
        }
        var properties: [String: Any]?
        switch object.member("properties") {
        case nil, .null: break
        case .properties(let box): properties = box.members
        case let other?: throw Mismatch("expected an object, found \(Self.describe(other))").inside(".properties")
        }
        var bounds: GMSCoordinateBounds?
        if let b = object.member("bbox"), !b.isNull {
            let numbers = try at(".bbox") { () throws(Mismatch) in try self.numbers(b) }
            guard numbers.count >= 4, numbers.count % 2 == 0 else {
                throw Mismatch("expected 4 or 6 numbers, found \(numbers.count) values").inside(".bbox")
            }
            let half = numbers.count / 2
            bounds = GMSCoordinateBounds(
                coordinate: CLLocationCoordinate2D(latitude: numbers[1], longitude: numbers[0]),
                coordinate: CLLocationCoordinate2D(latitude: numbers[half + 1], longitude: numbers[half]))
        }
        return GMUFeature(geometry: geometry, identifier: identifier, properties: properties, boundingBox: bounds)
    }

    private func parseGeometry(_ object: GeoJSONValue, depth: Int) throws(Mismatch) -> any GMUGeometry {
        guard depth < Self.maxDepth else { throw Mismatch("GeometryCollections nest deeper than \(Self.maxDepth)") }
        let type = try at(".type") { () throws(Mismatch) in try string(object.member("type")) }
        if type == "GeometryCollection" {
            let list = try at(".geometries") { () throws(Mismatch) in try array(object.member("geometries")) }
            var geometries: [any GMUGeometry] = []
            geometries.reserveCapacity(list.count)
            for (i, g) in list.enumerated() {
                geometries.append(
                    try at(".geometries[\(i)]") { () throws(Mismatch) in
                        _ = try self.object(g)
                        return try parseGeometry(g, depth: depth + 1)
                    })
            }
            return GMUGeometryCollection(geometries: geometries)
        }
        guard Self.coordinateTypes.contains(type) else {
            throw Mismatch("unknown geometry type \"\(type)\"").inside(".type")
        }
        let coordinates = object.member("coordinates")
        return try at(".coordinates") { () throws(Mismatch) -> any GMUGeometry in
            switch type {
            case "Point":
                return GMUPoint(coordinate: try position(coordinates))
            case "MultiPoint":
                let list = try array(coordinates)
                var points: [any GMUGeometry] = []
                points.reserveCapacity(list.count)
                for (i, v) in list.enumerated() {
                    points.append(GMUPoint(coordinate: try at("[\(i)]") { () throws(Mismatch) in try position(v) }))
                }
                return GMUGeometryCollection(geometries: points)
            case "LineString":
                return GMULineString(path: try linePath(coordinates))
            case "MultiLineString":
                let list = try array(coordinates)
                var lines: [any GMUGeometry] = []
                lines.reserveCapacity(list.count)
                for (i, v) in list.enumerated() {
                    lines.append(GMULineString(path: try at("[\(i)]") { () throws(Mismatch) in try linePath(v) }))
                }
                return GMUGeometryCollection(geometries: lines)
            case "Polygon":
                return try polygon(coordinates)
            case "MultiPolygon":
                let list = try array(coordinates)
                var polygons: [any GMUGeometry] = []
                polygons.reserveCapacity(list.count)
                for (i, v) in list.enumerated() {
                    polygons.append(try at("[\(i)]") { () throws(Mismatch) in try polygon(v) })
                }
                return GMUGeometryCollection(geometries: polygons)
            default:
                throw Mismatch("unknown geometry type \"\(type)\"")
            }
        }
    }

    /// The geometry types with `coordinates`.
    private static let coordinateTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
    ]

    private func polygon(_ value: GeoJSONValue?) throws(Mismatch) -> GMUPolygon {
        let rings = try array(value)
        var paths: [GMSPath] = []
        paths.reserveCapacity(rings.count)
        for (i, r) in rings.enumerated() {
            paths.append(try at("[\(i)]") { () throws(Mismatch) in try linePath(r) })
        }
        return GMUPolygon(paths: paths)
    }

    private func linePath(_ value: GeoJSONValue?) throws(Mismatch) -> GMSPath {
        let p = GMSMutablePath()
        if case .positions(let coordinates)? = value {
            for (i, c) in coordinates.enumerated() {
                if !c.latitude.isFinite || !c.longitude.isFinite {
                    _ = try at("[\(i)]") { () throws(Mismatch) in try finite(c.longitude, c.latitude) }
                }
                p.add(c)
            }
            return p
        }
        let list = try array(value)
        for (i, v) in list.enumerated() {
            if case .pair(let lng, let lat) = v {
                p.add(try at("[\(i)]") { () throws(Mismatch) in try finite(lng, lat) })
            } else {
                p.add(try at("[\(i)]") { () throws(Mismatch) in try position(v) })
            }
        }
        return p
    }

    private func position(_ value: GeoJSONValue?) throws(Mismatch) -> CLLocationCoordinate2D {
        switch value {
        case .pair(let lng, let lat)?: return try finite(lng, lat)
        case .numbers(let list)?:
            guard list.count >= 2 else { throw Mismatch("a position needs at least 2 numbers, found \(list.count)") }
            return try finite(list[0], list[1])
        default:
            let list = try array(value)
            guard list.count >= 2 else { throw Mismatch("a position needs at least 2 numbers, found \(list.count)") }
            let lng = try at("[0]") { () throws(Mismatch) in try number(list[0]) }
            let lat = try at("[1]") { () throws(Mismatch) in try number(list[1]) }
            return try finite(lng, lat)
        }
    }

    /// The position (`lng`, `lat`), or a mismatch at `[0]` or `[1]` for a number that is not finite (a literal such
    /// as `1e999` overflows a `Double` to infinity).
    @inline(__always)
    private func finite(_ lng: Double, _ lat: Double) throws(Mismatch) -> CLLocationCoordinate2D {
        guard lng.isFinite else { throw Mismatch(Self.notFinite).inside("[0]") }
        guard lat.isFinite else { throw Mismatch(Self.notFinite).inside("[1]") }
        return CLLocationCoordinate2D(latitude: lat, longitude: lng)
    }

    private static let notFinite = "the number overflows a Double: not a finite number"

    /// An array of numbers (a bbox).
    private func numbers(_ value: GeoJSONValue) throws(Mismatch) -> [Double] {
        switch value {
        case .pair(let a, let b): return [a, b]
        case .numbers(let list): return list
        default:
            let list = try array(value)
            var result: [Double] = []
            for (i, v) in list.enumerated() { result.append(try at("[\(i)]") { () throws(Mismatch) in try number(v) }) }
            return result
        }
    }

    private func number(_ value: GeoJSONValue?) throws(Mismatch) -> Double {
        if case .number(let n)? = value { return n }
        throw Mismatch("expected a number, found \(Self.describe(value))")
    }

    private func string(_ value: GeoJSONValue?) throws(Mismatch) -> String {
        if case .string(let s)? = value { return s }
        throw Mismatch("expected a string, found \(Self.describe(value))")
    }

    /// The elements of an array (numbers as ``GeoJSONValue/number(_:)``).
    private func array(_ value: GeoJSONValue?) throws(Mismatch) -> [GeoJSONValue] {
        switch value {
        case .array(let a)?: return a
        case .pair(let a, let b)?: return [.number(a), .number(b)]
        case .numbers(let list)?: return list.map { .number($0) }
        case .positions(let list)?: return list.map { .pair($0.longitude, $0.latitude) }
        default: throw Mismatch("expected an array, found \(Self.describe(value))")
        }
    }

    /// Checks that `value` is an object.
    private func object(_ value: GeoJSONValue) throws(Mismatch) -> GeoJSONValue {
        if case .object = value { return value }
        throw Mismatch("expected an object, found \(Self.describe(value))")
    }

    /// An `id` number as text: integers without a fraction ("7"), others as Swift prints them ("7.5").
    private static func numberText(_ n: Double) -> String {
        if n.rounded() == n, n.magnitude < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    private static func describe(_ value: GeoJSONValue?) -> String {
        switch value {
        case nil: return "nothing (missing)"
        case .null?: return "null"
        case .bool(let b)?: return "the boolean \(b)"
        case .number(let n)?: return "the number \(numberText(n))"
        case .string(let s)?: return "the string \"\(s.prefix(40))\""
        case .pair?, .numbers?, .positions?, .array?: return "an array"
        case .object?: return "an object"
        case .properties?: return "an object"
        }
    }
}

extension GeoJSONValue {
    fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

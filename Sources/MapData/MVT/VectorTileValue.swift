/// A feature property value of a Mapbox Vector Tile: one of the seven kinds of the 2.1 `Value` message
/// (vector-tile-spec 2.1, `vector_tile.proto` lines 17–28, README §4.2 "Features", §4.5 "Feature Attributes").
public enum VectorTileValue: Sendable, Hashable {
    /// `string_value` (field 1), UTF-8; invalid sequences are replaced by U+FFFD.
    case string(String)
    /// `float_value` (field 2), IEEE 754 binary32.
    case float(Float)
    /// `double_value` (field 3), IEEE 754 binary64.
    case double(Double)
    /// `int_value` (field 4), two's-complement int64 varint.
    case int(Int64)
    /// `uint_value` (field 5), uint64 varint.
    case uint(UInt64)
    /// `sint_value` (field 6), zigzag-encoded int64.
    case sint(Int64)
    /// `bool_value` (field 7).
    case bool(Bool)
    /// An array or object property of a GeoJSON source, as compact JSON text: Waymark's own extension field 100 of the
    /// `Value` message (the spec reserves fields 8 and up for extensions), written only by ``GeoJSONTileSource`` so
    /// that expressions read the value as an array or object, as MapLibre Native passes GeoJSON properties through.
    /// Other vector tiles never hold it (geojson-vt's tiles carry such values as JSON strings).
    case json(String)

    /// The value as a `Double` when it is numeric (float, double, int, uint, sint); `nil` for strings and booleans.
    public var doubleValue: Double? {
        switch self {
        case .float(let v): return Double(v)
        case .double(let v): return v
        case .int(let v), .sint(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .string, .bool, .json: return nil
        }
    }

    /// The string payload, or `nil` for other kinds.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

extension VectorTileValue {
    /// Decodes one `Value` message from `range` of `bytes`.
    /// - Throws: ``VectorTileError/invalidLayer(_:)`` when the message has no value field, more than one, an unknown
    ///   field, or a field with the wrong wire type (fixtures 010, 011, 026 of mvt-fixtures).
    static func decode(bytes: [UInt8], range: Range<Int>, layer: String) throws(VectorTileError) -> VectorTileValue {
        var reader = ByteReader(bytes: bytes, range: range)
        var result: VectorTileValue?
        func context() -> String { "layer '\(layer)' value" }
        while let field = try reader.readField(context: context()) {
            let value: VectorTileValue
            switch (field.number, field.payload) {
            case (1, .lengthDelimited(let r)):
                value = .string(String(decoding: bytes[r], as: UTF8.self))
            case (2, .fixed32(let bits)):
                value = .float(Float(bitPattern: bits))
            case (3, .fixed64(let bits)):
                value = .double(Double(bitPattern: bits))
            case (4, .varint(let v)):
                value = .int(Int64(bitPattern: v))
            case (5, .varint(let v)):
                value = .uint(v)
            case (6, .varint(let v)):
                value = .sint(zigzagDecode(v))
            case (7, .varint(let v)):
                value = .bool(v != 0)
            case (100, .lengthDelimited(let r)):
                value = .json(String(decoding: bytes[r], as: UTF8.self))
            case (1...7, _), (100, _):
                throw .invalidLayer("\(context()): field \(field.number) has the wrong wire type \(field.wireTypeName)")
            default:
                throw .invalidLayer("\(context()): unknown value field \(field.number)")
            }
            guard result == nil else { throw .invalidLayer("\(context()): more than one value field") }
            result = value
        }
        guard let result else { throw .invalidLayer("\(context()): no value field") }
        return result
    }
}

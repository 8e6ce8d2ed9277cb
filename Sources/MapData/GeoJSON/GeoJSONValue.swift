/// A JSON value (RFC 8259) as read by the GeoJSON parser: `MapData` has its own small JSON reader so that it depends
/// on no style module. Callers that already hold parsed JSON (a style's inline `data`) convert into this enum.
///
/// Numbers are `Double` (integers up to 2⁵³ are exact). Objects are dictionaries; duplicate keys keep the last value.
public indirect enum GeoJSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number.
    case number(Double)
    /// A string with escapes decoded.
    case string(String)
    /// An array in document order.
    case array([GeoJSONValue])
    /// An object.
    case object([String: GeoJSONValue])

    /// Parses UTF-8 JSON text.
    /// - Parameter bytes: the whole document; whitespace around the value is allowed, anything else is an error.
    /// - Throws: ``GeoJSONError`` with path `$` and the byte offset of the first syntax problem. Nesting deeper than
    ///   512 levels is an error (never a stack overflow).
    public static func parse(bytes: [UInt8]) throws(GeoJSONError) -> GeoJSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected data after the JSON value") }
        return value
    }

    /// A short name of the value's kind for error messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A byte-level recursive-descent JSON reader.
struct JSONReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> GeoJSONError {
        GeoJSONError(path: "$", message: "JSON syntax error at byte \(index): \(message)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                || bytes[index] == 0x09
        {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(GeoJSONError) -> GeoJSONValue {
        guard depth < 512 else { throw error("nesting deeper than 512 levels") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var object: [String: GeoJSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                object[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input in an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(object)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            index += 1
            var array: [GeoJSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(array)
            }
            while true {
                skipWhitespace()
                array.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input in an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(array)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(GeoJSONError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("invalid literal")
        }
        index += w.count
    }

    mutating func number() throws(GeoJSONError) -> Double {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            index += 1
            digits += 1
        }
        guard digits > 0 else { throw error("invalid value") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var fraction = 0
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                index += 1
                fraction += 1
            }
            guard fraction > 0 else { throw error("digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            var exponent = 0
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                index += 1
                exponent += 1
            }
            guard exponent > 0 else { throw error("digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let v = Double(text) else { throw error("invalid number") }
        return v
    }

    mutating func hex4() throws(GeoJSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    mutating func string() throws(GeoJSONError) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                continue
            }
            guard index < bytes.count else { throw error("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00, index + 1 < bytes.count, bytes[index] == 0x5C,
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try hex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

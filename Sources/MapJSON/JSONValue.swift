/// A parsed JSON document (RFC 8259): the input form of styles, expressions and GeoJSON. The one JSON reader of the
/// engine (`MapStyle` re-exports it; `MapData` reads GeoJSON with it).
///
/// Numbers are `Double` (integers up to 2⁵³ are exact). Objects are unordered dictionaries; style code that needs a
/// stable order sorts the keys.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number.
    case number(Double)
    /// A string, with escapes already decoded.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object; duplicate keys keep the last value (as JavaScript's `JSON.parse` does).
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text.
    /// - Parameter text: the whole document; leading and trailing whitespace is allowed, anything else after the value
    ///   is an error.
    /// - Returns: the value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the first problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(Array(text.utf8))
        return try parser.parseDocument()
    }

    /// Parses UTF-8 JSON bytes; see ``parse(_:)-(String)``.
    /// - Parameter bytes: the document's bytes.
    /// - Returns: the value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the first problem.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        return try parser.parseDocument()
    }

    /// The string payload, or `nil` for any other case.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number payload, or `nil` for any other case.
    public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The boolean payload, or `nil` for any other case.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The array payload, or `nil` for any other case.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object payload, or `nil` for any other case.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The member `key` of an object, or `nil` when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The JSON type name as the style specification's validator words it: `null`, `boolean`, `number`, `string`,
    /// `array` or `object`.
    public var typeName: String {
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

/// A JSON syntax error: what was wrong and where (1-based line and column, counted in UTF-8 bytes).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column (UTF-8 bytes from the start of the line) of the problem.
    public var column: Int
    /// What the parser expected or found, in English.
    public var message: String

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A recursive-descent JSON parser over UTF-8 bytes that tracks line and column for errors, and optionally the line
/// where each value starts (for diagnostics that name a line). Nesting deeper than 512 levels is a syntax error, never
/// a stack overflow. Thread rules: a value type; use one parser from one thread.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// When non-nil (set it to `[:]` before parsing), filled with the 1-based line where each value starts, by JSON
    /// path (`layers[3].paint.line-width`). Defaults to nil (not recorded).
    public var lines: [String: Int]?
    private var currentLine = 1
    private var lineCountedUpTo = 0
    static let maximumDepth = 512

    /// Creates a parser over a whole UTF-8 document.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses the document: one value with optional whitespace (and a UTF-8 byte-order mark) around it.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the first problem.
    public mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        // Skip a UTF-8 byte-order mark.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(path: "")
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describeCurrent()) after the JSON value") }
        return value
    }

    private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return JSONSyntaxError(line: line, column: end - lineStart + 1, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Records the line of the value starting at `index` (counting newlines incrementally).
    private mutating func record(_ path: String) {
        while lineCountedUpTo < index {
            if bytes[lineCountedUpTo] == UInt8(ascii: "\n") { currentLine += 1 }
            lineCountedUpTo += 1
        }
        lines?[path] = currentLine
    }

    private mutating func parseValue(path: String) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        if lines != nil { record(path) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(path: path)
        case UInt8(ascii: "["): return try parseArray(path: path)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let start = index
        for b in word.utf8 {
            guard index < bytes.count, bytes[index] == b else {
                throw error("invalid literal, expected '\(word)'", at: start)
            }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject(path: String) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var result: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(result)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':'")
            }
            index += 1
            skipWhitespace()
            result[key] = try parseValue(path: lines == nil ? "" : path.isEmpty ? key : path + "." + key)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(result)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray(path: String) throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var result: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(result)
        }
        while true {
            skipWhitespace()
            result.append(try parseValue(path: lines == nil ? "" : path + "[\(result.count)]"))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(result)
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if b < 0x20 { throw error("control character in string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                index += 1
                continue
            }
            index += 1
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
                var scalar = try parseHex4()
                if scalar >= 0xD800 && scalar < 0xDC00, index + 1 < bytes.count, bytes[index] == 0x5C,
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try parseHex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        guard isDigit(index) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error("invalid number: digit expected after '.'") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { throw error("invalid number: digit expected in exponent") }
            while isDigit(index) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        return value
    }
}

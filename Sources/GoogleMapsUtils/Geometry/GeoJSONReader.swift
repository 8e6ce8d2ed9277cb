import Foundation
import GoogleMaps

/// A JSON value as ``GeoJSONReader`` keeps it: the parts GeoJSON reads (types, coordinates, ids, bboxes) in a compact
/// form, and `properties` objects already as Foundation values.
///
/// Positions are the hot path: an array of exactly two numbers is a ``pair`` (no allocation), a longer array of only
/// numbers is ``numbers``.
enum GeoJSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// An array of exactly two numbers.
    case pair(Double, Double)
    /// An array of only numbers (not two).
    case numbers([Double])
    /// An array of positions (arrays of two or more numbers): `[[lng, lat(, alt…)], …]`, as coordinates.
    case positions([CLLocationCoordinate2D])
    case array([GeoJSONValue])
    /// An object's members in document order (a key given twice: the last one counts, see ``member(_:)``).
    case object([(key: String, value: GeoJSONValue)])
    /// A `properties` member's object as Foundation values (see ``GeoJSONReader``).
    case properties(GeoJSONProperties)

    /// The last member named `key` of an object, or nil.
    func member(_ key: String) -> GeoJSONValue? {
        guard case .object(let members) = self else { return nil }
        for m in members.reversed() where m.key == key { return m.value }
        return nil
    }
}

/// A `properties` object's members as Foundation values (`String`, `NSNumber`, `NSNull`, `[Any]`, `[String: Any]`),
/// held by reference.
final class GeoJSONProperties {
    let members: [String: Any]
    init(_ members: [String: Any]) { self.members = members }
}

/// Where a JSON document stops being JSON.
struct GeoJSONSyntaxError: Error {
    /// The byte offset (0-based) of the problem.
    let offset: Int
    /// What is wrong there.
    let reason: String
}

/// A UTF-8 JSON (RFC 8259) reader over bytes, made for GeoJSON: one pass, no Foundation tree except for
/// `properties`, whose values become what `JSONSerialization` would give (`String`, `NSNumber` for numbers and
/// booleans, `NSNull`, `[Any]`, `[String: Any]`).
///
/// Limits: arrays and objects nest at most ``maxNesting`` deep. A UTF-8 byte order mark is skipped; other encodings
/// are not read.
struct GeoJSONReader {
    /// The deepest nesting of arrays and objects.
    static let maxNesting = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var nesting = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads the whole document: one value, white space around it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(GeoJSONSyntaxError) -> GeoJSONValue {
        var reader = GeoJSONReader(bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.i = 3 }
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        if reader.i < bytes.count { throw reader.fail("unexpected text after the JSON value") }
        return value
    }

    /// The 1-based line and column of byte `offset` in `bytes` (columns count bytes).
    static func lineAndColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return (line, offset - lineStart + 1)
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> GeoJSONSyntaxError {
        GeoJSONSyntaxError(offset: offset ?? i, reason: reason)
    }

    /// What the byte at the cursor is, for messages.
    private var found: String {
        guard i < bytes.count else { return "the end of the document" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return String(format: "byte 0x%02X", b)
    }

    @inline(__always) private mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            i += 1
        }
    }

    @inline(__always) private mutating func enter() throws(GeoJSONSyntaxError) {
        nesting += 1
        if nesting > Self.maxNesting { throw fail("arrays and objects nest deeper than \(Self.maxNesting)") }
    }

    /// Any value; the cursor is at its first byte.
    private mutating func value() throws(GeoJSONSyntaxError) -> GeoJSONValue {
        guard i < bytes.count else { throw fail("expected a value, found the end of the document") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: throw fail("expected a value, found \(found)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(GeoJSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        let start = i
        guard i + n <= bytes.count else { throw fail("expected \(word), found \(found)") }
        let p = word.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { throw fail("expected \(word)", at: start) }
        i += n
    }

    private mutating func object() throws(GeoJSONSyntaxError) -> GeoJSONValue {
        try enter()
        i += 1
        var members: [(key: String, value: GeoJSONValue)] = []
        members.reserveCapacity(4)
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            nesting -= 1
            return .object(members)
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in quotes, found \(found)")
            }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':', found \(found)") }
            i += 1
            skipSpace()
            if key == "properties", i < bytes.count, bytes[i] == UInt8(ascii: "{") {
                members.append((key, .properties(GeoJSONProperties(try foundationObject()))))
            } else {
                members.append((key, try value()))
            }
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or '}', found the end of the document") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}', found \(found)") }
            i += 1
            nesting -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(GeoJSONSyntaxError) -> GeoJSONValue {
        try enter()
        i += 1
        skipSpace()
        guard i < bytes.count else { throw fail("expected a value or ']', found the end of the document") }
        if bytes[i] == UInt8(ascii: "]") {
            i += 1
            nesting -= 1
            return .array([])
        }
        // The fast paths: positions, or numbers only.
        if bytes[i] == UInt8(ascii: "["), let list = positions() {
            nesting -= 1
            return .positions(list)
        }
        var numbers: [Double] = []
        var first = 0.0
        var second = 0.0
        var count = 0
        while i < bytes.count, bytes[i] == UInt8(ascii: "-") || (bytes[i] &- UInt8(ascii: "0")) < 10 {
            let n = try number()
            switch count {
            case 0: first = n
            case 1: second = n
            case 2:
                numbers.reserveCapacity(4)
                numbers.append(first)
                numbers.append(second)
                numbers.append(n)
            default: numbers.append(n)
            }
            count += 1
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or ']', found the end of the document") }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                nesting -= 1
                switch count {
                case 1: return .numbers([first])
                case 2: return .pair(first, second)
                default: return .numbers(numbers)
                }
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw fail("expected ',' or ']', found \(found)") }
            i += 1
            skipSpace()
        }
        // The general case (after any leading numbers).
        var items: [GeoJSONValue] = []
        items.reserveCapacity(8)
        switch count {
        case 0: break
        case 1: items = [.number(first)]
        case 2: items = [.number(first), .number(second)]
        default: items = numbers.map { .number($0) }
        }
        while true {
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or ']', found the end of the document") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']', found \(found)") }
            i += 1
            nesting -= 1
            return .array(items)
        }
    }

    /// An object as `JSONSerialization` gives it; the cursor is at its `{`.
    private mutating func foundationObject() throws(GeoJSONSyntaxError) -> [String: Any] {
        try enter()
        i += 1
        var result: [String: Any] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            nesting -= 1
            return result
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in quotes, found \(found)")
            }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw fail("expected ':', found \(found)")
            }
            i += 1
            skipSpace()
            result[key] = try foundationValue()
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or '}', found the end of the document") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}', found \(found)") }
            i += 1
            nesting -= 1
            return result
        }
    }

    /// `[lng, lat(, …)], …]` (the cursor at the first inner `[`) read straight into coordinates, through the outer
    /// `]`; or nil with the cursor back where it was, for anything else (the general path then reads it).
    private mutating func positions() -> [CLLocationCoordinate2D]? {
        let rewind = i
        guard nesting < Self.maxNesting else { return nil }
        var result: [CLLocationCoordinate2D] = []
        result.reserveCapacity(16)
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { break }
            i += 1
            skipSpace()
            guard let lng = numberOrNil() else { break }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
            i += 1
            skipSpace()
            guard let lat = numberOrNil() else { break }
            skipSpace()
            // More numbers (altitude) are read and dropped.
            var ok = true
            while i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                guard numberOrNil() != nil else {
                    ok = false
                    break
                }
                skipSpace()
            }
            guard ok, i < bytes.count, bytes[i] == UInt8(ascii: "]") else { break }
            i += 1
            result.append(CLLocationCoordinate2D(latitude: lat, longitude: lng))
            skipSpace()
            guard i < bytes.count else { break }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            guard bytes[i] == UInt8(ascii: "]") else { break }
            i += 1
            return result
        }
        i = rewind
        return nil
    }

    /// A number at the cursor, or nil (the cursor then anywhere: the caller rewinds).
    @inline(__always) private mutating func numberOrNil() -> Double? {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "-") || (bytes[i] &- UInt8(ascii: "0")) < 10 else {
            return nil
        }
        return try? number()
    }

    /// A value as `JSONSerialization` gives it.
    private mutating func foundationValue() throws(GeoJSONSyntaxError) -> Any {
        guard i < bytes.count else { throw fail("expected a value, found the end of the document") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try foundationObject()
        case UInt8(ascii: "["):
            try enter()
            i += 1
            var result: [Any] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                nesting -= 1
                return result
            }
            while true {
                result.append(try foundationValue())
                skipSpace()
                guard i < bytes.count else { throw fail("expected ',' or ']', found the end of the document") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']', found \(found)") }
                i += 1
                nesting -= 1
                return result
            }
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = i
            let n = try number()
            // An integer token that fits an Int is an integer NSNumber, as JSONSerialization makes it.
            var integral = true
            for k in start..<i {
                let b = bytes[k]
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { integral = false }
            }
            if integral, n.magnitude < 9.0e18, let v = Int(exactly: n) { return NSNumber(value: v) }
            return NSNumber(value: n)
        case UInt8(ascii: "t"):
            try literal("true")
            return NSNumber(value: true)
        case UInt8(ascii: "f"):
            try literal("false")
            return NSNumber(value: false)
        case UInt8(ascii: "n"):
            try literal("null")
            return NSNull()
        default: throw fail("expected a value, found \(found)")
        }
    }

    /// A string; the cursor is at its opening quote.
    private mutating func string() throws(GeoJSONSyntaxError) -> String {
        let open = i
        i += 1
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if b < 0x20 { throw fail("a control character (0x\(String(b, radix: 16))) inside a string") }
            i += 1
        }
        throw fail("a string that does not end", at: open)
    }

    /// The rest of a string with escapes, from `start` (after the opening quote); the cursor is at a backslash.
    private mutating func escapedString(from start: Int) throws(GeoJSONSyntaxError) -> String {
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw fail("a control character (0x\(String(b, radix: 16))) inside a string") }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { break }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u")
                {
                    i += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        out.append(contentsOf: String(Character(Unicode.Scalar(0xFFFD)!)).utf8)
                        scalar = low
                    }
                }
                let s = Unicode.Scalar(scalar) ?? Unicode.Scalar(0xFFFD)!
                out.append(contentsOf: String(Character(s)).utf8)
            default: throw fail("an unknown escape \\\(Character(Unicode.Scalar(e)))", at: i - 2)
            }
        }
        throw fail("a string that does not end", at: start - 1)
    }

    private mutating func hex4() throws(GeoJSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("\\u needs 4 hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("\\u needs 4 hex digits")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private static let powersOf10: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// A number (RFC 8259 grammar). Up to 19 significant digits with a small exponent are converted exactly
    /// (Clinger's fast path); anything else goes through `Double(String)`.
    private mutating func number() throws(GeoJSONSyntaxError) -> Double {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        guard i < bytes.count, (bytes[i] &- UInt8(ascii: "0")) < 10 else {
            throw fail("a number needs a digit after '-'", at: start)
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, (bytes[i] &- UInt8(ascii: "0")) < 10 {
                throw fail("a number may not start with 0 followed by digits", at: start)
            }
        } else {
            while i < bytes.count {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                } else {
                    exponent += 1
                    digits += 1
                }
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, (bytes[i] &- UInt8(ascii: "0")) < 10 else {
                throw fail("a number needs digits after '.'", at: start)
            }
            while i < bytes.count {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if digits < 19 {
                    if mantissa != 0 || d != 0 { digits += 1 }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    exponent -= 1
                } else {
                    digits += 1
                }
                i += 1
            }
        }
        var exact = digits <= 19
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < bytes.count, (bytes[i] &- UInt8(ascii: "0")) < 10 else {
                throw fail("a number needs digits in its exponent", at: start)
            }
            var e = 0
            while i < bytes.count {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if e < 100_000 { e = e * 10 + Int(d) }
                i += 1
            }
            exponent += expNegative ? -e : e
            if e >= 100_000 { exact = false }
        }
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= Self.powersOf10[-exponent] } else { v *= Self.powersOf10[exponent] }
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let v = Double(text) else { throw fail("the number \(text.prefix(40)) cannot be read", at: start) }
        return v
    }
}

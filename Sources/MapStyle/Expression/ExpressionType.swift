/// The static type of an expression, as the style specification's expression type system defines it
/// (MapLibre style spec, "Expressions → Types").
public indirect enum ExpressionType: Sendable, Hashable, CustomStringConvertible {
    /// The type of `null`.
    case null
    /// A number (Double).
    case number
    /// A string.
    case string
    /// `true` / `false`.
    case boolean
    /// A ``StyleColor``.
    case color
    /// A JSON-like object.
    case object
    /// Any value; checked at run time.
    case value
    /// An array with an item type and an optional fixed length.
    case array(ExpressionType, Int?)
    /// The type of the `error` expression.
    case error
    /// A collator for string comparison.
    case collator
    /// Rich text made by `format`.
    case formatted
    /// An image name made by `image`.
    case resolvedImage
    /// Four paddings `[top, right, bottom, left]` (CSS shorthand accepted), as `icon-padding` takes.
    case padding
    /// A list of numbers that may be interpolated item by item (a single number is a list of one).
    case numberArray
    /// A list of colours that may be interpolated item by item (a single colour is a list of one).
    case colorArray
    /// A projection name, `[from, to, fraction]`, or an interpolated transition between two projections.
    case projectionDefinition

    /// The spec's spelling: `number`, `array<number, 2>`, `array<string>`, `array`, …
    public var description: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .error: return "error"
        case .collator: return "collator"
        case .formatted: return "formatted"
        case .resolvedImage: return "resolvedImage"
        case .padding: return "padding"
        case .numberArray: return "numberArray"
        case .colorArray: return "colorArray"
        case .projectionDefinition: return "projectionDefinition"
        case .array(let item, let n):
            if let n { return "array<\(item), \(n)>" }
            if item == .value { return "array" }
            return "array<\(item)>"
        }
    }

    var kind: String {
        if case .array = self { return "array" }
        return description
    }

    /// The members of `value`.
    static let valueMembers: [ExpressionType] = [
        .null, .number, .string, .boolean, .color, .projectionDefinition, .formatted, .object, .array(.value, nil),
        .padding, .numberArray, .colorArray, .resolvedImage,
    ]

    /// `nil` when `actual` may be used where `expected` is required, else the spec's error message.
    static func checkSubtype(_ expected: ExpressionType, _ actual: ExpressionType) -> String? {
        if actual == .error { return nil }
        if case .array(let ei, let en) = expected {
            if case .array(let ai, let an) = actual,
                (an == 0 && ai == .value) || (checkSubtype(ei, ai) == nil && (en == nil || en == an))
            {
                return nil
            }
        } else if expected == actual {
            return nil
        } else if expected == .value {
            for member in valueMembers where checkSubtype(member, actual) == nil { return nil }
        }
        return "Expected \(expected) but found \(actual) instead."
    }
}

/// A run-time value of the expression language.
public enum ExpressionValue: Sendable, Equatable {
    /// `null`, also the result of a missing property.
    case null
    /// A boolean.
    case boolean(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// A colour.
    case color(StyleColor)
    /// An array of values.
    case array([ExpressionValue])
    /// An object.
    case object([String: ExpressionValue])
    /// Rich text from `format`.
    case formatted(FormattedText)
    /// A collator from `collator`.
    case collator(StyleCollator)
    /// An image name from `image` (`available` tells whether the sprite has it).
    case image(name: String, available: Bool)
    /// A ``ExpressionType/padding`` value: `[top, right, bottom, left]` in points.
    case padding([Double])
    /// A ``ExpressionType/numberArray`` value.
    case numberArray([Double])
    /// A ``ExpressionType/colorArray`` value.
    case colorArray([StyleColor])
    /// An interpolated ``ExpressionType/projectionDefinition``: from one projection to another at a fraction 0…1.
    case projectionTransition(from: String, to: String, fraction: Double)

    /// Converts JSON into a value (numbers, strings, booleans, arrays, objects; colours stay strings).
    /// - Parameter json: the JSON value.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .boolean(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(ExpressionValue.init(json:)))
        case .object(let o): self = .object(o.mapValues(ExpressionValue.init(json:)))
        }
    }

    /// The dynamic type; arrays get their common item type and their length.
    public var type: ExpressionType {
        switch self {
        case .null: return .null
        case .boolean: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .collator: return .collator
        case .image: return .resolvedImage
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .projectionTransition: return .projectionDefinition
        case .array(let items):
            var itemType: ExpressionType?
            for item in items {
                let t = item.type
                if itemType == nil {
                    itemType = t
                } else if itemType != t {
                    itemType = .value
                    break
                }
            }
            return .array(itemType ?? .value, items.count)
        }
    }

    /// The number, or `nil`.
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The string, or `nil`.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as numbers, as paint and layout properties read them (`*-translate`, `*-offset`, `line-dasharray`,
    /// `icon-padding` as `[top, right, bottom, left]`): an array's numbers (other items left out), a padding's or
    /// number array's values, a number alone; empty for any other value.
    public var numbers: [Double] {
        switch self {
        case .array(let items): return items.compactMap(\.number)
        case .padding(let v), .numberArray(let v): return v
        case .number(let n): return [n]
        default: return []
        }
    }

    /// The boolean, or `nil`.
    public var boolean: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    /// The colour, or `nil`.
    public var color: StyleColor? {
        if case .color(let c) = self { return c }
        return nil
    }

    /// The value as `to-string` converts it (numbers in JavaScript's shortest form, colours as `rgba(…)`, arrays and
    /// objects as JSON).
    public var stringRepresentation: String {
        switch self {
        case .null: return ""
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return ExpressionValue.formatNumber(n)
        case .string(let s): return s
        case .color(let c): return c.description
        case .formatted(let f): return f.sections.map(\.text).joined()
        case .image(let name, _): return name
        case .collator: return "[object Object]"
        case .padding(let v), .numberArray(let v): return v.map(ExpressionValue.formatNumber).joined(separator: ",")
        case .colorArray(let c): return c.map(\.description).joined(separator: ",")
        case .projectionTransition(let from, let to, let t):
            return "[\"\(from)\",\"\(to)\",\(ExpressionValue.formatNumber(t))]"
        case .array, .object: return jsonText
        }
    }

    var jsonText: String {
        switch self {
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return ExpressionValue.formatNumber(n)
        case .string(let s): return ExpressionValue.quote(s)
        case .color(let c): return ExpressionValue.quote(c.description)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o):
            return "{"
                + o.keys.sorted().map { ExpressionValue.quote($0) + ":" + o[$0]!.jsonText }.joined(separator: ",")
                + "}"
        case .formatted, .collator, .image, .padding, .numberArray, .colorArray, .projectionTransition:
            return ExpressionValue.quote(stringRepresentation)
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if ch.value < 0x20 {
                    let hex = String(ch.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }

    /// JavaScript's `Number.prototype.toString()` for the common cases: integers without a decimal point, others in
    /// shortest round-trip form.
    static func formatNumber(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
        if n == n.rounded(), abs(n) < 9e18 {
            if n == 0 { return "0" }
            return String(Int64(n))
        }
        var s = "\(n)"
        // Swift prints 1e-07 as "1e-07"; JavaScript prints "1e-7".
        if let e = s.firstIndex(of: "e") {
            var exponent = String(s[s.index(after: e)...])
            var sign = "+"
            if exponent.hasPrefix("-") {
                sign = "-"
                exponent.removeFirst()
            } else if exponent.hasPrefix("+") {
                exponent.removeFirst()
            }
            while exponent.hasPrefix("0") && exponent.count > 1 { exponent.removeFirst() }
            s = String(s[..<e]) + "e" + sign + exponent
        }
        return s
    }
}

/// Rich text made by the `format` expression: a list of sections with optional per-section style overrides.
public struct FormattedText: Sendable, Equatable {
    /// One run of text (or an image) with its overrides.
    public struct Section: Sendable, Equatable {
        /// The text; empty for an image section.
        public var text: String
        /// An image name for an inline image section, or `nil`.
        public var image: String?
        /// Multiplier of `text-size`, or `nil` for 1.
        public var scale: Double?
        /// Comma-joined font stack overriding `text-font`, or `nil`.
        public var fontStack: String?
        /// Colour overriding `text-color`, or `nil`.
        public var textColor: StyleColor?
        /// `bottom`, `center` or `top`, or `nil`.
        public var verticalAlign: String?
    }

    /// The sections in reading order.
    public var sections: [Section]
}

/// A collator built by `collator`: compares strings with the given sensitivities (locale support is basic: the
/// comparison uses Unicode scalar order after optional case folding and diacritic stripping).
public struct StyleCollator: Sendable, Equatable {
    /// Whether upper and lower case differ. Defaults to `false`.
    public var caseSensitive: Bool
    /// Whether accented letters differ from their base letters. Defaults to `false`.
    public var diacriticSensitive: Bool
    /// The requested BCP 47 locale, or `nil` for the default.
    public var locale: String?

    /// Compares two strings: negative, zero or positive. Like ICU's root collation in outline: base letters first
    /// (case and accents ignored), then accents (unaccented first) when diacritic-sensitive, then case (lower first)
    /// when case-sensitive.
    func compare(_ a: String, _ b: String) -> Int {
        let baseA = StyleCollator.stripDiacritics(a).lowercased()
        let baseB = StyleCollator.stripDiacritics(b).lowercased()
        if baseA != baseB { return ComparisonNode.compareUTF16(baseA, baseB) }
        if diacriticSensitive {
            let accentA = a.lowercased()
            let accentB = b.lowercased()
            if accentA != accentB { return ComparisonNode.compareUTF16(accentA, accentB) }
        }
        let caseA = diacriticSensitive ? a : StyleCollator.stripDiacritics(a)
        let caseB = diacriticSensitive ? b : StyleCollator.stripDiacritics(b)
        if caseSensitive && caseA != caseB {
            // Lower case sorts before upper case at the tertiary level.
            let ia = Array(caseA.unicodeScalars)
            let ib = Array(caseB.unicodeScalars)
            for (x, y) in zip(ia, ib) where x != y {
                return x.properties.isLowercase ? -1 : y.properties.isLowercase ? 1 : (x.value < y.value ? -1 : 1)
            }
            return ia.count < ib.count ? -1 : 1
        }
        return 0
    }

    static func stripDiacritics(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.decomposedLatin() {
            // Combining diacritical marks U+0300…U+036F.
            if scalar.value >= 0x300 && scalar.value <= 0x36F { continue }
            out.append(scalar)
        }
        return String(out)
    }
}

extension String {
    /// A small canonical decomposition for Latin-1 and Latin Extended-A letters with diacritics (enough for the
    /// collator's diacritic-insensitive mode without Foundation).
    func decomposedLatin() -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for scalar in unicodeScalars {
            if let base = String.latinBase[scalar.value] {
                out.append(base)
                out.append(Unicode.Scalar(0x301)!)
            } else {
                out.append(scalar)
            }
        }
        return out
    }

    static let latinBase: [UInt32: Unicode.Scalar] = {
        let groups: [(String, String)] = [
            ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ÈÉÊËĒĔĖĘĚ", "E"),
            ("èéêëēĕėęě", "e"), ("ÌÍÎÏĨĪĬĮİ", "I"), ("ìíîïĩīĭį", "i"), ("ÑŃŅŇ", "N"), ("ñńņň", "n"),
            ("ÒÓÔÕÖŌŎŐ", "O"), ("òóôõöōŏő", "o"), ("ÙÚÛÜŨŪŬŮŰŲ", "U"), ("ùúûüũūŭůűų", "u"), ("ÝŸ", "Y"),
            ("ýÿ", "y"), ("ŚŜŞŠ", "S"), ("śŝşš", "s"), ("ŹŻŽ", "Z"), ("źżž", "z"),
        ]
        var table: [UInt32: Unicode.Scalar] = [:]
        for (letters, base) in groups {
            for s in letters.unicodeScalars { table[s.value] = base.unicodeScalars.first! }
        }
        return table
    }()
}

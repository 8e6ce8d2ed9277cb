/// `at`: the item at an integer index.
final class AtNode: ExpressionNode, @unchecked Sendable {
    let index: ExpressionNode
    let input: ExpressionNode
    init(type: ExpressionType, index: ExpressionNode, input: ExpressionNode) {
        self.index = index
        self.input = input
        super.init(type: type)
    }
    override var children: [ExpressionNode] { [index, input] }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        guard case .number(let i) = try index.evaluate(ctx), case .array(let items) = try input.evaluate(ctx) else {
            throw EvalError("Expected a number index and an array.")
        }
        if i < 0 { throw EvalError("Array index out of bounds: \(ExpressionValue.formatNumber(i)) < 0.") }
        if i >= Double(items.count) {
            throw EvalError(
                "Array index out of bounds: \(ExpressionValue.formatNumber(i)) > \(items.count - 1).")
        }
        if i != i.rounded(.down) {
            throw EvalError("Array index must be an integer, but found \(ExpressionValue.formatNumber(i)) instead.")
        }
        return items[Int(i)]
    }
}

extension ExpressionValue {
    /// JavaScript's `String(value)` for needles: `null` → `"null"`, numbers and booleans as JavaScript prints them.
    var javaScriptString: String {
        if case .null = self { return "null" }
        return stringRepresentation
    }
}

/// Checks that a needle is a boolean, string, number or null.
func checkNeedle(_ v: ExpressionValue) throws(EvalError) {
    switch v {
    case .boolean, .string, .number, .null: return
    default:
        throw EvalError(
            "Expected first argument to be of type boolean, string, number or null, but found \(v.type) instead.")
    }
}

/// `in`: whether a string contains a substring or an array contains an item.
final class InNode: ExpressionNode, @unchecked Sendable {
    let needle: ExpressionNode
    let haystack: ExpressionNode
    init(needle: ExpressionNode, haystack: ExpressionNode) {
        self.needle = needle
        self.haystack = haystack
        super.init(type: .boolean)
    }
    override var children: [ExpressionNode] { [needle, haystack] }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let n = try needle.evaluate(ctx)
        let h = try haystack.evaluate(ctx)
        if h == .null || h == .string("") { return .boolean(false) }
        try checkNeedle(n)
        switch h {
        case .string(let s):
            let ns = n.javaScriptString
            return .boolean(ns.isEmpty || s.contains(ns))
        case .array(let items): return .boolean(items.contains(n))
        default:
            throw EvalError(
                "Expected second argument to be of type array or string, but found \(h.type) instead.")
        }
    }
}

/// `index-of`: the first position of a needle, or -1.
final class IndexOfNode: ExpressionNode, @unchecked Sendable {
    let needle: ExpressionNode
    let haystack: ExpressionNode
    let fromIndex: ExpressionNode?
    init(needle: ExpressionNode, haystack: ExpressionNode, fromIndex: ExpressionNode?) {
        self.needle = needle
        self.haystack = haystack
        self.fromIndex = fromIndex
        super.init(type: .number)
    }
    override var children: [ExpressionNode] { [needle, haystack] + (fromIndex.map { [$0] } ?? []) }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let n = try needle.evaluate(ctx)
        let h = try haystack.evaluate(ctx)
        try checkNeedle(n)
        var from = 0
        if let fromIndex, case .number(let f) = try fromIndex.evaluate(ctx), f.isFinite {
            from = Int(max(-1e9, min(1e9, f)))
            if from < 0, case .array(let items) = h { from += items.count }
            from = max(0, from)
        }
        switch h {
        case .string(let s):
            let scalars = Array(s.unicodeScalars)
            let needleScalars = Array(n.javaScriptString.unicodeScalars)
            if from > scalars.count { return .number(needleScalars.isEmpty ? Double(scalars.count) : -1) }
            if needleScalars.isEmpty { return .number(Double(from)) }
            var i = from
            while i + needleScalars.count <= scalars.count {
                if Array(scalars[i..<(i + needleScalars.count)]) == needleScalars { return .number(Double(i)) }
                i += 1
            }
            return .number(-1)
        case .array(let items):
            if from < items.count {
                for i in from..<items.count where items[i] == n { return .number(Double(i)) }
            }
            return .number(-1)
        default:
            throw EvalError(
                "Expected second argument to be of type array or string, but found \(h.type) instead.")
        }
    }
}

/// `slice`: a sub-array or substring with JavaScript `slice` index rules.
final class SliceNode: ExpressionNode, @unchecked Sendable {
    let input: ExpressionNode
    let begin: ExpressionNode
    let end: ExpressionNode?
    init(type: ExpressionType, input: ExpressionNode, begin: ExpressionNode, end: ExpressionNode?) {
        self.input = input
        self.begin = begin
        self.end = end
        super.init(type: type)
    }
    override var children: [ExpressionNode] { [input, begin] + (end.map { [$0] } ?? []) }

    static func range(_ count: Int, _ b: Double, _ e: Double?) -> Range<Int> {
        func resolve(_ x: Double) -> Int {
            if x.isNaN { return 0 }
            let i = x < 0 ? max(0, Double(count) + x.rounded(.towardZero)) : min(Double(count), x.rounded(.towardZero))
            return Int(i)
        }
        let lo = resolve(b)
        let hi = e.map(resolve) ?? count
        return lo < hi ? lo..<hi : lo..<lo
    }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let v = try input.evaluate(ctx)
        guard case .number(let b) = try begin.evaluate(ctx) else { throw EvalError("Expected a number.") }
        var e: Double?
        if let end, case .number(let x) = try end.evaluate(ctx) { e = x }
        switch v {
        case .string(let s):
            let scalars = Array(s.unicodeScalars)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[SliceNode.range(scalars.count, b, e)])
            return .string(String(out))
        case .array(let items):
            return .array(Array(items[SliceNode.range(items.count, b, e)]))
        default:
            throw EvalError(
                "Expected first argument to be of type array or string, but found \(v.type) instead.")
        }
    }
}

/// `length`: characters (Unicode scalars) of a string or items of an array.
final class LengthNode: ExpressionNode, @unchecked Sendable {
    let input: ExpressionNode
    init(input: ExpressionNode) {
        self.input = input
        super.init(type: .number)
    }
    override var children: [ExpressionNode] { [input] }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        switch try input.evaluate(ctx) {
        case .string(let s): return .number(Double(s.unicodeScalars.count))
        case .array(let a): return .number(Double(a.count))
        case let v:
            throw EvalError("Expected value to be of type string or array, but found \(v.type) instead.")
        }
    }
}

/// `collator`.
final class CollatorNode: ExpressionNode, @unchecked Sendable {
    let caseSensitive: ExpressionNode
    let diacriticSensitive: ExpressionNode
    let locale: ExpressionNode?
    init(caseSensitive: ExpressionNode, diacriticSensitive: ExpressionNode, locale: ExpressionNode?) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.locale = locale
        super.init(type: .collator)
    }
    override var children: [ExpressionNode] { [caseSensitive, diacriticSensitive] + (locale.map { [$0] } ?? []) }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        .collator(
            StyleCollator(
                caseSensitive: try caseSensitive.evaluate(ctx) == .boolean(true),
                diacriticSensitive: try diacriticSensitive.evaluate(ctx) == .boolean(true),
                locale: try locale?.evaluate(ctx).string))
    }
}

/// `image`.
final class ImageNode: ExpressionNode, @unchecked Sendable {
    let name: ExpressionNode
    init(name: ExpressionNode) {
        self.name = name
        super.init(type: .resolvedImage)
    }
    override var children: [ExpressionNode] { [name] }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let n = try name.evaluate(ctx).stringRepresentation
        return .image(name: n, available: ctx.availableImages?.contains(n) ?? false)
    }
}

/// `format`.
final class FormatNode: ExpressionNode, @unchecked Sendable {
    struct Section {
        var content: ExpressionNode
        var scale: ExpressionNode?
        var font: ExpressionNode?
        var textColor: ExpressionNode?
        var verticalAlign: ExpressionNode?
    }
    let sections: [Section]
    init(sections: [Section]) {
        self.sections = sections
        super.init(type: .formatted)
    }
    override var children: [ExpressionNode] {
        sections.flatMap { s in [s.content] + [s.scale, s.font, s.textColor, s.verticalAlign].compactMap { $0 } }
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        var out: [FormattedText.Section] = []
        for s in sections {
            let content = try s.content.evaluate(ctx)
            var section = FormattedText.Section(text: "")
            if case .image(let name, _) = content {
                section.image = name
            } else {
                section.text = content.stringRepresentation
            }
            section.scale = try s.scale?.evaluate(ctx).number
            if let font = try s.font?.evaluate(ctx), case .array(let names) = font {
                section.fontStack = names.map(\.stringRepresentation).joined(separator: ",")
            }
            section.textColor = try s.textColor?.evaluate(ctx).color
            if let align = try s.verticalAlign?.evaluate(ctx).string {
                guard ["bottom", "center", "top"].contains(align) else {
                    throw EvalError(
                        "'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(align)' instead.")
                }
                section.verticalAlign = align
            }
            out.append(section)
        }
        return .formatted(FormattedText(sections: out))
    }
}

extension FormattedText.Section {
    /// A text section without overrides.
    public init(text: String, image: String? = nil) {
        self.init(text: text, image: image, scale: nil, fontStack: nil, textColor: nil, verticalAlign: nil)
    }
}

/// `number-format` (basic: the `en` conventions with grouping, fraction digits, and a currency code or unit suffix).
final class NumberFormatNode: ExpressionNode, @unchecked Sendable {
    let number: ExpressionNode
    let locale: ExpressionNode?
    let currency: ExpressionNode?
    let unit: ExpressionNode?
    let minFractionDigits: ExpressionNode?
    let maxFractionDigits: ExpressionNode?
    init(
        number: ExpressionNode, locale: ExpressionNode?, currency: ExpressionNode?, unit: ExpressionNode?,
        minFractionDigits: ExpressionNode?, maxFractionDigits: ExpressionNode?
    ) {
        self.number = number
        self.locale = locale
        self.currency = currency
        self.unit = unit
        self.minFractionDigits = minFractionDigits
        self.maxFractionDigits = maxFractionDigits
        super.init(type: .string)
    }
    override var children: [ExpressionNode] {
        [number] + [locale, currency, unit, minFractionDigits, maxFractionDigits].compactMap { $0 }
    }

    static let currencySymbols: [String: String] = ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CN¥"]
    static let currencyDigits: [String: Int] = ["JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0]
    static let unitSymbols: [String: String] = [
        "meter": "m", "kilometer": "km", "centimeter": "cm", "millimeter": "mm", "mile": "mi", "foot": "ft",
        "inch": "in", "yard": "yd", "kilogram": "kg", "gram": "g", "percent": "%", "second": "sec", "minute": "min",
        "hour": "hr", "kilobyte": "kB", "megabyte": "MB", "gigabyte": "GB", "byte": "byte", "celsius": "°C",
        "fahrenheit": "°F", "kilometer-per-hour": "km/h", "mile-per-hour": "mph",
    ]

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        guard case .number(let n) = try number.evaluate(ctx) else { throw EvalError("Expected a number.") }
        let currencyCode = try currency?.evaluate(ctx).string?.uppercased()
        let defaultDigits = currencyCode.map { NumberFormatNode.currencyDigits[$0] ?? 2 }
        func digits(_ v: Double) -> Int { v.isNaN ? 0 : Int(max(0, min(20, v))) }
        let minDigits = digits(try minFractionDigits?.evaluate(ctx).number ?? Double(defaultDigits ?? 0))
        var maxDigits = digits(
            try maxFractionDigits?.evaluate(ctx).number ?? Double(max(minDigits, defaultDigits ?? 3)))
        maxDigits = min(max(maxDigits, minDigits), 20)
        var text = NumberFormatNode.format(abs(n), minDigits: minDigits, maxDigits: maxDigits)
        if let code = currencyCode {
            text = (NumberFormatNode.currencySymbols[code] ?? code + "\u{a0}") + text
        }
        if let unitName = try unit?.evaluate(ctx).string {
            let symbol = NumberFormatNode.unitSymbols[unitName] ?? unitName
            text += symbol == "%" || symbol.hasPrefix("°") ? symbol : " " + symbol
        }
        return .string((n < 0 ? "-" : "") + text)
    }

    /// Formats `n ≥ 0` with grouping and between `minDigits` and `maxDigits` fraction digits (half away from zero).
    static func format(_ n: Double, minDigits: Int, maxDigits: Int) -> String {
        var integerText: String
        var digits: String
        let shortest = ExpressionValue.formatNumber(n)
        if !shortest.contains("e"), let dot = shortest.firstIndex(of: "."),
            shortest.distance(from: dot, to: shortest.endIndex) - 1 <= maxDigits
        {
            integerText = String(shortest[..<dot])
            digits = String(shortest[shortest.index(after: dot)...])
        } else if !shortest.contains("e") && !shortest.contains(".") {
            integerText = shortest
            digits = ""
        } else {
            var scale = 1.0
            for _ in 0..<maxDigits { scale *= 10 }
            let scaled = (n * scale).rounded(.toNearestOrAwayFromZero)
            let integerPart = (scaled / scale).rounded(.down)
            var fraction = max(0, scaled - integerPart * scale)
            digits = ""
            for _ in 0..<maxDigits {
                let d = Int(fraction.truncatingRemainder(dividingBy: 10).rounded())
                digits = String(d) + digits
                fraction = (fraction / 10).rounded(.down)
            }
            integerText = ExpressionValue.formatNumber(integerPart)
        }
        while digits.count > minDigits && digits.hasSuffix("0") { digits.removeLast() }
        while digits.count < minDigits { digits += "0" }
        var grouped = ""
        for (i, ch) in integerText.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        integerText = String(grouped.reversed())
        return digits.isEmpty ? integerText : integerText + "." + digits
    }
}

/// `semiliteral` with an array: an array whose items are expressions.
final class ArrayNode: ExpressionNode, @unchecked Sendable {
    let items: [ExpressionNode]
    init(type: ExpressionType, items: [ExpressionNode]) {
        self.items = items
        super.init(type: type)
    }
    override var children: [ExpressionNode] { items }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        var out: [ExpressionValue] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try item.evaluate(ctx)) }
        return .array(out)
    }
}

/// `global-state`: a value the host sets for the whole style.
final class GlobalStateNode: ExpressionNode, @unchecked Sendable {
    let key: String
    init(key: String) {
        self.key = key
        super.init(type: .value)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        ctx.globalState[key] ?? .null
    }
}

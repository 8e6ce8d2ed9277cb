/// What the legacy function converter needs to know about the property a function is written for.
struct LegacyPropertyInfo {
    /// The spec's type name: `number`, `color`, `string`, `enum`, `boolean`, `array`, `formatted`, `resolvedImage`…
    var typeName: String
    /// For arrays, the item type name (`number`, `string`); else `nil`.
    var itemTypeName: String?
    /// For arrays, a fixed length or `nil`.
    var length: Int?
    /// Whether zoom functions default to `exponential` (else `interval`).
    var interpolated: Bool
    /// Whether `{token}` strings are expanded (text-field, icon-image).
    var tokens: Bool
    /// The property's spec default, or `nil`.
    var defaultValue: JSONValue?
    /// For enums, the allowed values.
    var enumValues: [String]
}

/// Converts legacy style-spec functions (`{"stops": …}`) and legacy filters into expressions, following the
/// rules of the style specification ("Other → Function" and "Other → Filter (deprecated syntax)").
enum LegacyConversion {
    /// Whether a property value is a legacy function (a JSON object).
    static func isFunction(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    static func literal(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array, .object: return .array([.string("literal"), v])
        default: return v
        }
    }

    static func convertFunction(_ parameters: JSONValue, _ spec: LegacyPropertyInfo) -> JSONValue {
        guard case .array(let rawStops)? = parameters["stops"], !rawStops.isEmpty else {
            return convertIdentity(parameters, spec)
        }
        let firstInput = rawStops.first?.arrayValue?.first
        let zoomAndFeature: Bool
        if case .object? = firstInput { zoomAndFeature = true } else { zoomAndFeature = false }
        let featureDependent = zoomAndFeature || parameters["property"] != nil
        let zoomDependent = zoomAndFeature || !featureDependent
        var stops: [(JSONValue, JSONValue)] = []
        for stop in rawStops {
            guard case .array(let pair) = stop, pair.count == 2 else { continue }
            if !featureDependent && spec.tokens, case .string(let s) = pair[1] {
                stops.append((pair[0], convertTokenString(s)))
            } else {
                stops.append((pair[0], .array([.string("literal"), pair[1]])))
            }
        }
        if zoomAndFeature { return convertZoomAndProperty(parameters, spec, stops) }
        if zoomDependent { return convertZoom(parameters, spec, stops) }
        return convertProperty(parameters, spec, stops)
    }

    static func functionType(_ parameters: JSONValue, _ spec: LegacyPropertyInfo) -> String {
        parameters["type"]?.stringValue ?? (spec.interpolated ? "exponential" : "interval")
    }

    static func interpolateOperator(_ parameters: JSONValue) -> String {
        switch parameters["colorSpace"]?.stringValue {
        case "hcl": return "interpolate-hcl"
        case "lab": return "interpolate-lab"
        default: return "interpolate"
        }
    }

    static func appendStop(_ curve: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, isStep: Bool) {
        if curve.count > 3 && input == curve[curve.count - 2] { return }
        if !(isStep && curve.count == 2) { curve.append(input) }
        curve.append(output)
    }

    static func fixupDegenerateStep(_ e: inout [JSONValue]) {
        if e.first == .string("step") && e.count == 3 {
            e.append(.number(0))
            e.append(e[2])
        }
    }

    static func fallback(_ parameters: JSONValue, _ spec: LegacyPropertyInfo) -> JSONValue {
        if let d = parameters["default"] { return literal(d) }
        if let d = spec.defaultValue { return literal(d) }
        return spec.typeName == "resolvedImage" ? .string("") : .null
    }

    static func convertIdentity(_ parameters: JSONValue, _ spec: LegacyPropertyInfo) -> JSONValue {
        let get: JSONValue = .array([.string("get"), parameters["property"] ?? .null])
        guard let d = parameters["default"] else {
            return spec.typeName == "string" ? .array([.string("string"), get]) : get
        }
        if spec.typeName == "enum" {
            return .array([.string("match"), get, .array(spec.enumValues.map(JSONValue.string)), get, d])
        }
        var e: [JSONValue] = [.string(spec.typeName == "color" ? "to-color" : spec.typeName), get, literal(d)]
        if spec.typeName == "array" {
            e.insert(
                contentsOf: [.string(spec.itemTypeName ?? "number"), spec.length.map { .number(Double($0)) } ?? .null],
                at: 1)
        }
        return .array(e)
    }

    static func convertProperty(_ parameters: JSONValue, _ spec: LegacyPropertyInfo, _ stops: [(JSONValue, JSONValue)])
        -> JSONValue
    {
        let type = functionType(parameters, spec)
        let get: JSONValue = .array([.string("get"), parameters["property"] ?? .null])
        let guardedDefault: (JSONValue) -> JSONValue = { expression in
            guard let d = parameters["default"] else { return expression }
            return .array([
                .string("case"), .array([.string("=="), .array([.string("typeof"), get]), .string("number")]),
                expression, literal(d),
            ])
        }
        switch type {
        case "categorical":
            if case .bool? = stops.first?.0 {
                var e: [JSONValue] = [.string("case")]
                for (input, output) in stops {
                    e.append(.array([.string("=="), get, input]))
                    e.append(output)
                }
                e.append(fallback(parameters, spec))
                return .array(e)
            }
            var e: [JSONValue] = [.string("match"), get]
            for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
            e.append(fallback(parameters, spec))
            return .array(e)
        case "interval":
            var e: [JSONValue] = [.string("step"), .array([.string("number"), get])]
            for (input, output) in stops { appendStop(&e, input, output, isStep: true) }
            fixupDegenerateStep(&e)
            return guardedDefault(.array(e))
        case "exponential":
            let base = parameters["base"]?.numberValue ?? 1
            var e: [JSONValue] = [
                .string(interpolateOperator(parameters)),
                base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)]),
                .array([.string("number"), get]),
            ]
            for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
            return guardedDefault(.array(e))
        default:
            return .array([.string("error"), .string("Unknown property function type \(type)")])
        }
    }

    static func convertZoom(_ parameters: JSONValue, _ spec: LegacyPropertyInfo, _ stops: [(JSONValue, JSONValue)])
        -> JSONValue
    {
        let type = functionType(parameters, spec)
        let zoom: JSONValue = .array([.string("zoom")])
        var e: [JSONValue]
        var isStep = false
        switch type {
        case "interval":
            e = [.string("step"), zoom]
            isStep = true
        case "exponential":
            let base = parameters["base"]?.numberValue ?? 1
            e = [
                .string(interpolateOperator(parameters)),
                base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)]), zoom,
            ]
        default:
            return .array([.string("error"), .string("Unknown zoom function type \"\(type)\"")])
        }
        for (input, output) in stops { appendStop(&e, input, output, isStep: isStep) }
        fixupDegenerateStep(&e)
        return .array(e)
    }

    static func convertZoomAndProperty(
        _ parameters: JSONValue, _ spec: LegacyPropertyInfo, _ stops: [(JSONValue, JSONValue)]
    ) -> JSONValue {
        var zooms: [Double] = []
        var perZoom: [Double: [(JSONValue, JSONValue)]] = [:]
        for (input, output) in stops {
            guard let z = input["zoom"]?.numberValue else { continue }
            if perZoom[z] == nil {
                zooms.append(z)
                perZoom[z] = []
            }
            perZoom[z]!.append((input["value"] ?? .null, output))
        }
        var sub: [String: JSONValue] = [:]
        if let t = parameters["type"] { sub["type"] = t }
        if let p = parameters["property"] { sub["property"] = p }
        if let d = parameters["default"] { sub["default"] = d }
        let subParameters = JSONValue.object(sub)
        let isInterpolated = spec.interpolated
        var e: [JSONValue] =
            isInterpolated
            ? [.string(interpolateOperator(parameters)), .array([.string("linear")]), .array([.string("zoom")])]
            : [.string("step"), .array([.string("zoom")])]
        for z in zooms {
            let output = convertProperty(subParameters, spec, perZoom[z]!)
            appendStop(&e, .number(z), output, isStep: !isInterpolated)
        }
        fixupDegenerateStep(&e)
        return .array(e)
    }

    /// `"{name} ({ref})"` → `["concat", ["get", "name"], " (", ["get", "ref"], ")"]`.
    static func convertTokenString(_ s: String) -> JSONValue {
        var result: [JSONValue] = [.string("concat")]
        let chars = Array(s)
        var pos = 0
        var i = 0
        while i < chars.count {
            if chars[i] == "{", let close = chars[(i + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                chars[close] == "}", close > i + 1
            {
                if i > pos { result.append(.string(String(chars[pos..<i]))) }
                result.append(.array([.string("get"), .string(String(chars[(i + 1)..<close]))]))
                pos = close + 1
                i = close + 1
            } else {
                i += 1
            }
        }
        if result.count == 1 { return .string(s) }
        if pos < chars.count {
            result.append(.string(String(chars[pos...])))
        } else if result.count == 2 {
            return .array([.string("to-string"), result[1]])
        }
        return .array(result)
    }

    // MARK: Filters

    /// Whether a filter is already in expression form (style spec `isExpressionFilter`).
    static func isExpressionFilter(_ filter: JSONValue) -> Bool {
        if case .bool = filter { return true }
        guard case .array(let f) = filter, let first = f.first, case .string(let op) = first else { return false }
        switch op {
        case "has": return f.count >= 2 && f[1] != .string("$id") && f[1] != .string("$type")
        case "in":
            if f.count < 3 { return false }
            if case .string = f[1] {
                if case .array = f[2] { return true }
                return false
            }
            return true
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=":
            if f.count != 3 { return true }
            if case .array = f[1] { return true }
            if case .array = f[2] { return true }
            return false
        case "any", "all":
            for sub in f.dropFirst() {
                if case .bool = sub { continue }
                if !isExpressionFilter(sub) { return false }
            }
            return true
        default: return true
        }
    }

    static let legacyFilterOperators: Set<String> = [
        "==", "!=", ">", ">=", "<", "<=", "in", "!in", "all", "any", "none", "has", "!has",
    ]
    static let geometryTypeNames: Set<String> = ["Point", "LineString", "Polygon"]

    /// Checks a legacy filter's shape (style spec "Filter (deprecated syntax)"); returns the problems with their
    /// keys (`[2]`, `[1][0]`), empty when it is well formed.
    static func validateLegacyFilter(_ filter: JSONValue, key: String = "") -> [ExpressionParseError] {
        func problem(_ k: String, _ message: String) -> [ExpressionParseError] {
            [ExpressionParseError(key: k, message: message)]
        }
        guard case .array(let f) = filter else {
            if case .bool = filter { return [] }
            return problem(key, "array expected, \(filter.typeName) found")
        }
        guard let first = f.first else { return problem(key, "filter array must have at least 1 element") }
        guard case .string(let op) = first, legacyFilterOperators.contains(op) else {
            return problem(
                key + "[0]",
                "expected one of [\(legacyFilterOperators.sorted().joined(separator: ", "))], \(first.typeName) found")
        }
        switch op {
        case "all", "any", "none":
            let children = Array(f.enumerated().dropFirst())
            return children.flatMap { i, sub in validateLegacyFilter(sub, key: key + "[\(i)]") }
        case "has", "!has":
            if f.count != 2 { return problem(key, "filter \"\(op)\" needs exactly one key") }
            guard case .string = f[1] else { return problem(key + "[1]", "string expected, \(f[1].typeName) found") }
            return []
        default:
            let isMembership = op == "in" || op == "!in"
            if !isMembership && f.count != 3 { return problem(key, "Expected two or three arguments.") }
            if isMembership && f.count < 2 { return problem(key, "filter \"\(op)\" needs a key") }
            guard case .string(let property) = f[1] else {
                return problem(key + "[1]", "string expected, \(f[1].typeName) found")
            }
            var problems: [ExpressionParseError] = []
            if property == "$type" && !isMembership && op != "==" && op != "!=" {
                problems += problem(key, "\"$type\" cannot be use with operator \"\(op)\"")
            }
            for i in 2..<max(2, f.count) {
                switch f[i] {
                case .array, .object:
                    problems += problem(
                        key + "[\(i)]", "string, number, boolean or null expected, \(f[i].typeName) found")
                case .string(let v) where property == "$type" && !geometryTypeNames.contains(v):
                    problems += problem(key + "[\(i)]", "expected one of [Point, LineString, Polygon], \"\(v)\" found")
                default: break
                }
            }
            return problems
        }
    }

    /// Whether a filter certainly uses expression syntax somewhere a legacy filter could not: an operator legacy
    /// filters lack, a comparison with an array operand, or such a part inside `all`/`any`.
    static func hasUnambiguousExpression(_ filter: JSONValue) -> Bool {
        guard case .array(let f) = filter, case .string(let op)? = f.first else { return false }
        switch op {
        case "==", "!=", ">", ">=", "<", "<=":
            if f.count != 3 { return false }
            if case .array = f[1] { return true }
            if case .array = f[2] { return true }
            return false
        case "in":
            guard f.count >= 3 else { return false }
            if case .string = f[1] {
                if case .array = f[2] { return true }
                return false
            }
            return true
        case "all", "any": return f.dropFirst().contains(where: hasUnambiguousExpression)
        case "has", "!has", "!in", "none": return false
        default: return true
        }
    }

    /// Keys of legacy parts inside an `all`/`any` that also holds expression syntax (MapLibre reads such a filter as
    /// an expression and warns about the legacy parts, which then mean something else).
    static func mixedLegacyParts(_ filter: JSONValue) -> [String] {
        guard hasUnambiguousExpression(filter), case .array(let f) = filter, case .string(let op)? = f.first,
            op == "all" || op == "any"
        else { return [] }
        var keys: [String] = []
        for (i, sub) in f.enumerated().dropFirst() {
            if case .array(let a) = sub, case .string(let subOp)? = a.first, legacyFilterOperators.contains(subOp),
                !isExpressionFilter(sub) || subOp == "all" || subOp == "any"
            {
                if subOp == "all" || subOp == "any" {
                    keys += mixedLegacyParts(sub).map { "[\(i)]" + $0 }
                } else {
                    keys.append("[\(i)]")
                }
            }
        }
        return keys
    }

    /// Converts a legacy filter into an expression.
    static func convertFilter(_ filter: JSONValue) -> JSONValue {
        guard case .array(let f) = filter, let first = f.first, case .string(let op) = first else {
            return .bool(true)
        }
        if f.count <= 1 { return .bool(op != "any") }
        switch op {
        case "==", "!=", "<", ">", "<=", ">=":
            guard f.count >= 3, case .string(let property) = f[1] else { return .bool(false) }
            return convertComparison(property, f[2], op)
        case "any": return .array([.string("any")] + f.dropFirst().map(convertFilter))
        case "all": return .array([.string("all")] + f.dropFirst().map(convertFilter))
        case "none":
            return .array([.string("all")] + f.dropFirst().map { .array([.string("!"), convertFilter($0)]) })
        case "in":
            guard case .string(let property) = f[1] else { return .bool(false) }
            return convertIn(property, Array(f.dropFirst(2)))
        case "!in":
            guard case .string(let property) = f[1] else { return .bool(false) }
            return .array([.string("!"), convertIn(property, Array(f.dropFirst(2)))])
        case "has":
            guard case .string(let property) = f[1] else { return .bool(false) }
            return convertHas(property)
        case "!has":
            guard case .string(let property) = f[1] else { return .bool(false) }
            return .array([.string("!"), convertHas(property)])
        default: return .bool(true)
        }
    }

    static func subject(_ property: String) -> JSONValue {
        switch property {
        case "$type": return .array([.string("filter-type")])
        case "$id": return .array([.string("id")])
        default: return .array([.string("get"), .string(property)])
        }
    }

    static func convertComparison(_ property: String, _ value: JSONValue, _ op: String) -> JSONValue {
        let x = subject(property)
        let v = literal(value)
        if op == "==" || op == "!=" { return .array([.string(op), x, v]) }
        // Legacy ordering filters are false (not an error) when the types differ.
        let kind: String
        switch value {
        case .number: kind = "number"
        case .string: kind = "string"
        default: return .bool(false)
        }
        return .array([
            .string("case"), .array([.string("=="), .array([.string("typeof"), x]), .string(kind)]),
            .array([.string(op), .array([.string(kind), x]), v]), .bool(false),
        ])
    }

    static func convertIn(_ property: String, _ values: [JSONValue]) -> JSONValue {
        if values.isEmpty { return .bool(false) }
        return .array([.string("in"), subject(property), .array([.string("literal"), .array(values)])])
    }

    static func convertHas(_ property: String) -> JSONValue {
        switch property {
        case "$type": return .bool(true)
        case "$id": return .array([.string("!="), .array([.string("id")]), .null])
        default: return .array([.string("has"), .string(property)])
        }
    }
}

import MapStyle
import MapTestSupport
import Testing

/// Random expression trees from every operator name with random arguments: compiling and evaluating must never trap
/// (bad input gives a compile error or an evaluation error, never a crash).
@Test func randomExpressionsNeverCrash() {
    let operators = [
        "literal", "array", "boolean", "number", "string", "object", "to-boolean", "to-color", "to-number", "to-string",
        "typeof", "get", "has", "at", "in", "index-of", "slice", "length", "!", "!=", "==", "<", "<=", ">", ">=",
        "all", "any", "case", "match", "coalesce", "step", "interpolate", "interpolate-hcl", "interpolate-lab", "let",
        "var", "zoom", "geometry-type", "id", "properties", "feature-state", "+", "-", "*", "/", "%", "^", "abs",
        "acos", "ceil", "e", "floor", "ln", "max", "min", "pi", "round", "sqrt", "concat", "downcase", "upcase",
        "is-supported-script", "resolved-locale", "collator", "format", "number-format", "rgb", "rgba", "to-rgba",
        "image", "within", "split", "join", "semiliteral", "global-state", "error", "linear", "exponential",
    ]
    var rng = SeededRandom(seed: 20_261_130)
    func randomLeaf() -> JSONValue {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return .number(Double(Int.random(in: -3...30, using: &rng)))
        case 8: return .number([1e300, -1e300, 1e19, -0.0, .leastNonzeroMagnitude].randomElement(using: &rng)!)
        case 1: return .number(Double.random(in: -1e3...1e3, using: &rng))
        case 2: return .string(["x", "name", "red", "#ff0000", "", "rank", "a"].randomElement(using: &rng)!)
        case 3: return .bool(Bool.random(using: &rng))
        case 4: return .null
        case 5: return .object(["case-sensitive": .bool(true), "locale": .string("fi")])
        case 6: return .array([])
        default: return .array([.string("zoom")])
        }
    }
    func randomTree(_ depth: Int) -> JSONValue {
        if depth == 0 || Int.random(in: 0..<4, using: &rng) == 0 { return randomLeaf() }
        var items: [JSONValue] = [.string(operators.randomElement(using: &rng)!)]
        for _ in 0..<Int.random(in: 0..<7, using: &rng) { items.append(randomTree(depth - 1)) }
        return .array(items)
    }
    let contexts = [
        EvaluationContext(zoom: 3.5, properties: ["x": .number(2), "name": .string("Töölö"), "rank": .number(1)]),
        EvaluationContext(zoom: nil, properties: ["x": .string("red"), "a": .array([.number(1)])]),
        EvaluationContext(),
    ]
    var compiled = 0
    for _ in 0..<30_000 {
        let tree = randomTree(4)
        guard let expression = try? StyleExpression.compile(tree) else { continue }
        compiled += 1
        for context in contexts { _ = try? expression.evaluate(context) }
        _ = try? StyleFilter.compile(tree)
    }
    // Some random trees must be valid, or the test exercises nothing past the parser.
    #expect(compiled > 500, "only \(compiled) random expressions compiled")
}

/// Random legacy filters and legacy functions (malformed stops, odd types) never trap while a style loads.
@Test func randomLegacyFiltersAndFunctionsNeverCrash() {
    var rng = SeededRandom(seed: 7)
    let leaves: [JSONValue] = [
        .number(1), .number(-2.5), .string("class"), .string("$type"), .string("$id"), .string("Point"), .null,
        .bool(true), .array([]), .object([:]), .object(["zoom": .number(2), "value": .number(1)]),
    ]
    func randomFilter(_ depth: Int) -> JSONValue {
        let ops = ["==", "!=", "<", ">=", "in", "!in", "has", "!has", "all", "any", "none"]
        var items: [JSONValue] = [.string(ops.randomElement(using: &rng)!)]
        for _ in 0..<Int.random(in: 0..<5, using: &rng) {
            items.append(
                depth > 0 && Bool.random(using: &rng) ? randomFilter(depth - 1) : leaves.randomElement(using: &rng)!)
        }
        return .array(items)
    }
    func randomFunction() -> JSONValue {
        var o: [String: JSONValue] = [:]
        if Bool.random(using: &rng) {
            o["type"] = .string(
                ["exponential", "interval", "categorical", "identity", "bogus"].randomElement(using: &rng)!)
        }
        if Bool.random(using: &rng) { o["property"] = leaves.randomElement(using: &rng)! }
        if Bool.random(using: &rng) { o["base"] = leaves.randomElement(using: &rng)! }
        if Bool.random(using: &rng) { o["default"] = leaves.randomElement(using: &rng)! }
        var stops: [JSONValue] = []
        for _ in 0..<Int.random(in: 0..<4, using: &rng) {
            stops.append(
                Bool.random(using: &rng)
                    ? .array([leaves.randomElement(using: &rng)!, leaves.randomElement(using: &rng)!])
                    : leaves.randomElement(using: &rng)!)
        }
        if Bool.random(using: &rng) { o["stops"] = .array(stops) }
        return .object(o)
    }
    var loaded = 0
    for _ in 0..<3_000 {
        let layer: JSONValue = .object([
            "id": .string("l"), "type": .string("circle"), "source": .string("s"), "filter": randomFilter(3),
            "paint": .object(["circle-radius": randomFunction(), "circle-color": randomFunction()]),
            "layout": .object(["circle-sort-key": randomFunction()]),
        ])
        let style = Style(
            json: .object([
                "version": .number(8),
                "sources": .object(["s": .object(["type": .string("geojson"), "data": .object([:])])]),
                "layers": .array([layer]),
            ]))
        if let l = style.layers.first {
            loaded += 1
            let ctx = EvaluationContext(zoom: 3, properties: ["class": .number(1)], geometryType: .point)
            _ = l.filter?.matches(ctx)
            _ = l.property("circle-radius")?.number(ctx)
            _ = l.property("circle-color")?.color(ctx)
        }
    }
    #expect(loaded == 3_000)
}

/// Extreme numbers where a careless `Int(_:)` conversion would trap.
@Test(arguments: [
    #"["number-format", 1e300, {"min-fraction-digits": 1e300, "max-fraction-digits": -1e300}]"#,
    #"["index-of", 1, ["literal", [1, 2]], 1e300]"#,
    #"["index-of", "a", "abc", -1e300]"#,
    #"["slice", "abc", -1e300, 1e300]"#,
    #"["at", 1e300, ["literal", [1]]]"#,
    #"["to-string", 1e20]"#,
    #"["to-string", ["^", 10, 400]]"#,
])
func extremeNumbersDoNotTrap(expression: String) {
    guard let e = try? StyleExpression.compile(json(expression)) else { return }
    _ = try? e.evaluate(EvaluationContext())
}

@Test func extremeArrayLengthIsACompileError() {
    #expect(throws: ExpressionCompileError.self) {
        try StyleExpression.compile(json(#"["array", "number", 1e300, ["literal", [1]]]"#))
    }
}

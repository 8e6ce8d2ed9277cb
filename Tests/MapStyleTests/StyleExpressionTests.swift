import MapStyle
import MapTestSupport
import Testing

func json(_ text: String) -> JSONValue {
    do { return try JSONValue.parse(text) } catch { fatalError("bad test JSON \(text): \(error)") }
}

func evaluate(_ expression: String, zoom: Double? = nil, properties: String = "{}", type: ExpressionType? = nil)
    throws -> ExpressionValue
{
    let compiled = try StyleExpression.compile(json(expression), spec: ExpressionPropertySpec(type: type))
    var ctx = EvaluationContext(zoom: zoom)
    if case .object(let p) = json(properties) { ctx.properties = p.mapValues(ExpressionValue.init(json:)) }
    ctx.geometryType = .polygon
    ctx.featureID = .number(42)
    return try compiled.evaluate(ctx)
}

/// Hand-computed expected values for the operators the default style and the renderer rely on.
@Test(arguments: [
    (#"["+", 1, 2, 3]"#, ExpressionValue.number(6)),
    (#"["-", 10, 4]"#, .number(6)),
    (#"["-", 3]"#, .number(-3)),
    (#"["/", 7, 2]"#, .number(3.5)),
    (#"["%", -7, 3]"#, .number(-1)),
    (#"["^", 2, 10]"#, .number(1024)),
    (#"["round", -2.5]"#, .number(-3)),
    (#"["round", 2.5]"#, .number(3)),
    (#"["floor", -0.5]"#, .number(-1)),
    (#"["min", 3, 1, 2]"#, .number(1)),
    (#"["max", 3, 1, 2]"#, .number(3)),
    (#"["abs", -4]"#, .number(4)),
    (#"["sqrt", 16]"#, .number(4)),
    (#"["log2", 8]"#, .number(3)),
    (#"["get", "name"]"#, .string("Kamppi")),
    (#"["get", "missing"]"#, .null),
    (#"["has", "rank"]"#, .boolean(true)),
    (#"["get", "a", ["literal", {"a": 5}]]"#, .number(5)),
    (#"["at", 1, ["literal", [10, 20, 30]]]"#, .number(20)),
    (#"["in", "mpp", ["get", "name"]]"#, .boolean(true)),
    (#"["index-of", "p", "Kamppi"]"#, .number(3)),
    (#"["slice", "Kamppi", 1, 3]"#, .string("am")),
    (#"["length", ["get", "name"]]"#, .number(6)),
    (#"["==", ["get", "rank"], 3]"#, .boolean(true)),
    (#"["<", ["get", "rank"], 2]"#, .boolean(false)),
    (#"["all", true, ["!", false]]"#, .boolean(true)),
    (#"["any", false, false]"#, .boolean(false)),
    (#"["case", ["==", ["get", "class"], "park"], 1, ["==", ["get", "class"], "road"], 2, 0]"#, .number(2)),
    (#"["match", ["get", "class"], ["park", "garden"], "green", "road", "white", "grey"]"#, .string("white")),
    (#"["match", ["get", "rank"], 3, "three", "other"]"#, .string("three")),
    (#"["coalesce", ["get", "name:fi"], ["get", "name"]]"#, .string("Kamppi")),
    (#"["step", ["get", "rank"], "a", 2, "b", 4, "c"]"#, .string("b")),
    (#"["let", "x", 2, ["*", ["var", "x"], ["var", "x"]]]"#, .number(4)),
    (#"["concat", "a", 1, true]"#, .string("a1true")),
    (#"["upcase", "Töölö"]"#, .string("TÖÖLÖ")),
    (#"["downcase", "ABC"]"#, .string("abc")),
    (#"["to-number", "3.5"]"#, .number(3.5)),
    (#"["to-string", 1.5]"#, .string("1.5")),
    (#"["to-boolean", ""]"#, .boolean(false)),
    (#"["typeof", ["get", "name"]]"#, .string("string")),
    (#"["geometry-type"]"#, .string("Polygon")),
    (#"["id"]"#, .number(42)),
    (#"["to-rgba", ["rgba", 255, 0, 0, 0.5]]"#, .array([.number(255), .number(0), .number(0), .number(0.5)])),
    (##"["to-rgba", "#00ff00"]"##, .array([.number(0), .number(255), .number(0), .number(1)])),
    (#"["number-format", 1234567.891, {}]"#, .string("1,234,567.891")),
])
func evaluatesOperators(expression: String, expected: ExpressionValue) throws {
    let got = try evaluate(expression, properties: #"{"name": "Kamppi", "rank": 3, "class": "road"}"#)
    #expect(got == expected, "\(expression)")
}

@Test func interpolatesLinearlyAndExponentiallyOnZoom() throws {
    let linear = #"["interpolate", ["linear"], ["zoom"], 10, 2, 20, 12]"#
    #expect(try evaluate(linear, zoom: 5) == .number(2))
    #expect(try evaluate(linear, zoom: 15) == .number(7))
    #expect(try evaluate(linear, zoom: 25) == .number(12))
    // Base 2 between z10 and z12 at z11: (2^1 - 1) / (2^2 - 1) = 1/3 of the way from 0 to 3 → 1.
    let exponential = #"["interpolate", ["exponential", 2], ["zoom"], 10, 0, 12, 3]"#
    let v = try #require(try evaluate(exponential, zoom: 11).number)
    #expect(isApproximatelyEqual(v, 1, tolerance: 1e-12))
    // cubic-bezier(0,0,1,1) is the identity.
    let bezier = #"["interpolate", ["cubic-bezier", 0, 0, 1, 1], ["zoom"], 0, 0, 10, 100]"#
    let b = try #require(try evaluate(bezier, zoom: 2.5).number)
    #expect(isApproximatelyEqual(b, 25, tolerance: 1e-4))
}

@Test func interpolatesColors() throws {
    let e = ##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]"##
    let c = try #require(try evaluate(e, zoom: 5, type: .color).color)
    #expect(isApproximatelyEqual(c.red, 0.5, tolerance: 1e-12))
    #expect(c.alpha == 1)
}

@Test func stepUsesTheLastStopAtOrBelowTheInput() throws {
    let e = #"["step", ["zoom"], 0, 5, 1, 10, 2]"#
    #expect(try evaluate(e, zoom: 4.99) == .number(0))
    #expect(try evaluate(e, zoom: 5) == .number(1))
    #expect(try evaluate(e, zoom: 12) == .number(2))
}

@Test func reportsStaticTypeAndDependencies() throws {
    let e = try StyleExpression.compile(
        json(#"["interpolate", ["linear"], ["zoom"], 0, ["number", ["get", "w"]], 10, 5]"#))
    #expect(e.type == .number)
    #expect(!e.isZoomConstant)
    #expect(!e.isFeatureConstant)
    let constant = try StyleExpression.compile(json(#"["+", 1, 2]"#))
    #expect(constant.isFeatureConstant && constant.isZoomConstant)
    #expect(constant.evaluate(zoom: 0) == .number(3))
}

@Test(arguments: [
    (#"["+", 1, "a"]"#, "[2]"),
    (#"["nope", 1]"#, "[0]"),
    (#"["interpolate", ["linear"], ["zoom"], 10, 1, 5, 2]"#, "[5]"),
    (#"["match", ["get", "x"], 1, "a", "1", "b", "c"]"#, "[4]"),
    (#"["case", true, 1]"#, ""),
    (#"["feature-state", "hover"]"#, "[0]"),
    (#"["+", ["zoom"], ["step", ["zoom"], 1, 5, 2]]"#, ""),
    (#"["var", "undefined"]"#, "[1]"),
])
func rejectsInvalidExpressionsWithKeys(expression: String, key: String) {
    do {
        _ = try StyleExpression.compile(json(expression))
        Issue.record("\(expression) compiled")
    } catch {
        #expect(error.errors.first?.key == key, "\(expression): \(error)")
    }
}

@Test func typeChecksAgainstThePropertyType() {
    #expect(throws: ExpressionCompileError.self) {
        try StyleExpression.compile(json(#"["concat", "a", "b"]"#), spec: ExpressionPropertySpec(type: .number))
    }
    #expect(throws: ExpressionCompileError.self) {
        try StyleExpression.compile(json(#""not a colour""#), spec: ExpressionPropertySpec(type: .color))
    }
    #expect(throws: ExpressionCompileError.self) {
        try StyleExpression.compile(
            json(#"["get", "x"]"#), spec: ExpressionPropertySpec(type: .number, isDataDriven: false))
    }
}

@Test func runtimeAssertionsThrow() throws {
    let e = try StyleExpression.compile(json(#"["number", ["get", "name"]]"#))
    var ctx = EvaluationContext()
    ctx.properties = ["name": .string("x")]
    #expect(throws: ExpressionEvaluationError.self) { try e.evaluate(ctx) }
    ctx.properties = ["name": .number(2)]
    #expect(try e.evaluate(ctx) == .number(2))
}

/// A feature type like a tile decoder's, read through the protocol rather than a dictionary.
struct TileFeatureStub: StyleFeature {
    var values: [String: ExpressionValue]
    func styleProperty(_ key: String) -> ExpressionValue? { values[key] }
    var styleProperties: [String: ExpressionValue] { values }
    var styleID: ExpressionValue { .string("way/1") }
    var styleGeometryType: StyleGeometryType { .multiLineString }
}

@Test func evaluatesThroughTheFeatureProtocol() throws {
    let feature = TileFeatureStub(values: ["class": .string("primary"), "lanes": .number(4)])
    let ctx = EvaluationContext(zoom: 12, feature: feature)
    let e = try StyleExpression.compile(
        json(#"["concat", ["get", "class"], "/", ["get", "lanes"], "/", ["id"], "/", ["geometry-type"]]"#))
    #expect(try e.evaluate(ctx) == .string("primary/4/way/1/MultiLineString"))
    #expect(try filter(#"["==", "$type", "LineString"]"#).matches(ctx))
    #expect(try filter(#"["has", "lanes"]"#).matches(ctx))
    #expect(try StyleExpression.compile(json(#"["properties"]"#)).evaluate(ctx) == .object(feature.values))
}

/// `match` on strings gives the same answers whether its labels are searched in turn (few) or hashed (many).
@Test func matchOnStringsAgreesForFewAndManyLabels() throws {
    let few = try StyleExpression.compile(
        json(#"["match", ["get", "class"], ["park", "wood"], 1, "water", 2, 0]"#))
    let manyLabels = (0..<30).map { "\"c\($0)\"" }.joined(separator: ", ")
    let many = try StyleExpression.compile(
        json(#"["match", ["get", "class"], ["park", "wood", \#(manyLabels)], 1, "water", 2, 0]"#))
    for (value, expected) in [
        (ExpressionValue.string("park"), 1.0), (.string("wood"), 1), (.string("water"), 2), (.string("sand"), 0),
        (.string(""), 0), (.number(1), 0), (.null, 0), (.string("e\u{301}"), 0),
    ] {
        let ctx = EvaluationContext(properties: ["class": value])
        #expect(try few.evaluate(ctx) == .number(expected))
        #expect(try many.evaluate(ctx) == .number(expected))
    }
    // Canonically equivalent strings are equal labels, as a hashed lookup finds them.
    let accent = try StyleExpression.compile(json(#"["match", ["get", "n"], "\u00e9", 1, 0]"#))
    #expect(try accent.evaluate(EvaluationContext(properties: ["n": .string("e\u{301}")])) == .number(1))
}

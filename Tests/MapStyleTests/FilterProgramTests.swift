import Foundation
import MapTestSupport
import Testing

@testable import MapStyle

/// What the tree walk answers for a filter: `true` only for `.boolean(true)`, an error does not match.
private func treeMatches(_ filter: StyleFilter, _ ctx: EvaluationContext) -> Bool {
    (try? filter.expression.evaluate(ctx)) == .boolean(true)
}

/// A feature read through ``StyleFeature`` from a context's fields.
private struct ContextFeature: StyleFeature {
    let ctx: EvaluationContext
    func styleProperty(_ key: String) -> ExpressionValue? { ctx.properties[key] }
    var styleProperties: [String: ExpressionValue] { ctx.properties }
    var styleID: ExpressionValue { ctx.featureID }
    var styleGeometryType: StyleGeometryType { ctx.geometryType ?? .point }
}

/// MapLibre's expression suite inside the shared fixtures.
let expressionSuitePath = "maplibre-style-spec/test/integration/expression/tests"

/// Every case of MapLibre's expression suite that compiles as a filter: the compiled program and the tree agree on
/// each of the case's inputs.
@Test(.needsSharedFixtures(expressionSuitePath))
func filterProgramAgreesWithTheTreeOnTheExpressionSuite() throws {
    let dir = try #require(Fixtures.shared(expressionSuitePath))
    var compared = 0
    var compiledInstructions = 0
    for relative in try ExpressionConformance.caseFiles(directory: dir.path) {
        let json = try JSONValue.parse(bytes: Array(Data(contentsOf: dir.appendingPathComponent(relative))))
        guard let expression = json["expression"], let filter = try? StyleFilter.compile(expression) else { continue }
        let program = FilterProgram(filter)
        compiledInstructions += program.code.filter { if case .tree = $0 { false } else { true } }.count
        for input in json["inputs"]?.arrayValue ?? [] {
            let ctx = ExpressionConformance.context(input, test: json)
            let tree = treeMatches(filter, ctx)
            #expect(program.matcher(globals: ctx).matches(ctx) == tree, "\(relative): \(input)")
            compared += 1
        }
    }
    print("filter program: \(compared) inputs compared, \(compiledInstructions) compiled instructions")
    #expect(compared > 300, "only \(compared) inputs compared")
    #expect(compiledInstructions >= 40, "only \(compiledInstructions) compiled instructions")
}

/// The compiled shapes against the tree on generated features: property values of every kind (strings, numbers,
/// booleans, null, missing, arrays) under the filters of the bundled style and filters whose errors decide the
/// result (`!` of a failed ordering, `all`/`any` with an error before or after the deciding argument).
@Test func filterProgramAgreesWithTheTreeOnGeneratedFeatures() throws {
    let style = try JSONValue.parse(
        bytes: Array(Data(contentsOf: Fixtures.data.appendingPathComponent("styles/default.json"))))
    var filters: [JSONValue] = (style["layers"]?.arrayValue ?? []).compactMap { $0["filter"] }
    let extra = [
        #"["!", [">", ["get", "a"], 2]]"#,
        #"["all", [">", ["get", "a"], 2], false]"#,
        #"["all", false, [">", ["get", "a"], 2]]"#,
        #"["any", ["<=", ["get", "a"], "m"], true]"#,
        #"["any", true, ["<=", ["get", "a"], "m"]]"#,
        #"["none", ["==", "a", 1], ["in", "b", "x", "y"], ["!has", "c"]]"#,
        #"["all", ["==", "$type", "Polygon"], ["!=", "a", "x"], [">=", "b", 1]]"#,
        #"["in", ["get", "a"], ["literal", ["x", 1, true, null]]]"#,
        #"["match", ["get", "b"], [1, 2], false, 3, true, false]"#,
        #"["match", ["get", "a"], "x", true, "y", false, true]"#,
        #"["==", ["get", "a"], null]"#,
        #"["!=", true, ["get", "c"]]"#,
        #"[">", 2, ["coalesce", ["get", "b"], 1]]"#,
        #"["<", ["geometry-type"], "Point"]"#,
        #"["all", [">=", ["zoom"], 12], ["==", ["get", "a"], "x"]]"#,
        #"["any", ["<", ["zoom"], ["+", ["get", "b"], 1]], ["has", "a"]]"#,
        #"["<=", ["coalesce", ["get", "b"], 9], ["step", ["zoom"], 2, 14, 6]]"#,
        #"["let", "v", ["get", "a"], ["==", ["var", "v"], "x"]]"#,
        #"["==", ["get", "a"], ["get", "c"]]"#,
        #"["all"]"#, #"["any"]"#, #"["!", ["any"]]"#,
    ]
    for text in extra { filters.append(try JSONValue.parse(bytes: Array(text.utf8))) }
    let values: [ExpressionValue?] = [
        nil, .null, .string("x"), .string("y"), .string("m"), .string("tunnel"), .string("primary"), .string(""),
        .number(0), .number(1), .number(2), .number(3), .number(-0.0), .number(8), .boolean(true), .boolean(false),
        .array([.string("x")]),
    ]
    let keys = ["a", "b", "c", "class", "brunnel", "admin_level", "maritime", "rank", "name", "capital"]
    let geometries: [StyleGeometryType?] = [nil, .point, .lineString, .polygon, .multiPolygon]
    var generator = SystemRandomNumberGenerator()
    var contexts: [EvaluationContext] = []
    for i in 0..<1500 {
        var ctx = EvaluationContext(zoom: [nil, 10, 12, 14, 16.5, 17][i % 6])
        for key in keys {
            if let v = values.randomElement(using: &generator)! { ctx.properties[key] = v }
        }
        if ctx.properties["class"] == .string("x") { ctx.properties["class"] = .string("motorway") }
        ctx.geometryType = geometries[i % geometries.count]
        contexts.append(ctx)
    }
    var compared = 0
    for json in filters {
        let filter = try StyleFilter.compile(json)
        let program = FilterProgram(filter)
        for ctx in contexts {
            var globals = EvaluationContext(zoom: ctx.zoom)
            globals.properties = ["a": .string("not the feature's")]
            let matcher = program.matcher(globals: globals)
            let tree = treeMatches(filter, ctx)
            #expect(matcher.matches(ctx) == tree, "\(json)")
            // Through a `StyleFeature` (as tiles are read), whose geometry type is always known.
            var withType = ctx
            withType.geometryType = ctx.geometryType ?? .point
            let read = EvaluationContext(zoom: ctx.zoom, feature: ContextFeature(ctx: withType))
            #expect(matcher.matches(read) == treeMatches(filter, withType), "\(json)")
            compared += 1
        }
    }
    #expect(compared == filters.count * contexts.count)
}

/// The bundled style's filters compile without falling back to the tree, but for the comparison of zoom with a sum of
/// a property (`[">=", ["zoom"], ["+", ["get", "rank"], 1]]`) and `within` (which reads the feature's geometry),
/// which stay trees.
@Test func bundledStyleFiltersCompileToFlatCode() throws {
    let style = try JSONValue.parse(
        bytes: Array(Data(contentsOf: Fixtures.data.appendingPathComponent("styles/default.json"))))
    let filters = (style["layers"]?.arrayValue ?? []).compactMap { $0["filter"] }
    #expect(filters.count > 40)
    for json in filters {
        let program = FilterProgram(try StyleFilter.compile(json))
        let trees = program.trees.map { "\(type(of: $0))" }
        let text = "\(json)"
        let allowed =
            (text.contains(#"string("+")"#) ? ["ComparisonNode"] : [])
            + (text.contains(#"string("within")"#) ? ["WithinNode"] : [])
        #expect(trees == allowed, "\(json) falls back to the tree")
    }
}

import MapStyle
import MapTestSupport
import Testing

func filter(_ text: String) throws -> StyleFilter { try StyleFilter.compile(json(text)) }

func context(_ properties: [String: ExpressionValue], type: StyleGeometryType = .point, id: ExpressionValue = .null)
    -> EvaluationContext
{
    EvaluationContext(zoom: 14, properties: properties, featureID: id, geometryType: type)
}

@Test(arguments: [
    (#"["==", "class", "park"]"#, ["class": ExpressionValue.string("park")], true),
    (#"["==", "class", "park"]"#, [:], false),
    (#"["!=", "class", "park"]"#, [:], true),
    (#"["<", "rank", 5]"#, ["rank": .number(3)], true),
    (#"["<", "rank", 5]"#, ["rank": .string("3")], false),
    (#"[">=", "rank", 5]"#, ["rank": .number(5)], true),
    (#"["in", "class", "a", "b"]"#, ["class": .string("b")], true),
    (#"["!in", "class", "a", "b"]"#, ["class": .string("b")], false),
    (#"["has", "name"]"#, ["name": .string("x")], true),
    (#"["!has", "name"]"#, ["name": .string("x")], false),
    (#"["all", ["==", "a", 1], ["==", "b", 2]]"#, ["a": .number(1), "b": .number(2)], true),
    (#"["any", ["==", "a", 9], ["==", "b", 2]]"#, ["a": .number(1), "b": .number(2)], true),
    (#"["none", ["==", "a", 9], ["==", "b", 2]]"#, ["a": .number(1), "b": .number(2)], false),
    (#"["all"]"#, [:], true),
    (#"["any"]"#, [:], false),
    (#"["==", "$type", "Polygon"]"#, [:], true),
    (#"["in", "$type", "Point", "LineString"]"#, [:], false),
])
func convertsLegacyFilters(text: String, properties: [String: ExpressionValue], expected: Bool) throws {
    #expect(try filter(text).matches(context(properties, type: .multiPolygon)) == expected, "\(text)")
}

@Test func legacyIdFilters() throws {
    #expect(try filter(#"["==", "$id", 7]"#).matches(context([:], id: .number(7))))
    #expect(try filter(#"["has", "$id"]"#).matches(context([:], id: .number(7))))
    #expect(try !filter(#"["has", "$id"]"#).matches(context([:])))
}

@Test func expressionFiltersPassThrough() throws {
    let f = try filter(#"["match", ["get", "class"], ["motorway", "trunk"], true, false]"#)
    #expect(f.matches(context(["class": .string("trunk")])))
    #expect(!f.matches(context(["class": .string("path")])))
}

func property(_ name: String, _ value: String, diagnostics: inout [StyleDiagnostic]) throws -> StyleProperty {
    let style = Style(
        json: json(
            #"{"version": 8, "sources": {}, "layers": [{"id": "l", "type": "background", "paint": {"\#(name)": \#(value)}}]}"#
        ))
    diagnostics = style.diagnostics
    return try #require(style.layers.first?.property(name))
}

@Test func convertsLegacyZoomFunctions() throws {
    var d: [StyleDiagnostic] = []
    // Exponential base 1 (linear) between z10 → 1 and z20 → 11: z15 → 6.
    let p = try property("background-opacity", #"{"stops": [[10, 0], [20, 1]]}"#, diagnostics: &d)
    #expect(d.isEmpty)
    #expect(isApproximatelyEqual(p.number(EvaluationContext(zoom: 15)), 0.5, tolerance: 1e-12))
    // Interval colour function: step at z5.
    let c = try property(
        "background-color", #"{"type": "interval", "stops": [[0, "red"], [5, "blue"]]}"#, diagnostics: &d)
    #expect(c.color(EvaluationContext(zoom: 4)) == StyleColor(css: "red"))
    #expect(c.color(EvaluationContext(zoom: 6)) == StyleColor(css: "blue"))
}

@Test func convertsLegacyPropertyFunctions() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {
               "circle-color": {"property": "kind", "type": "categorical", "stops": [["a", "#ff0000"], ["b", "#0000ff"]],
                                "default": "#00ff00"},
               "circle-radius": {"property": "pop", "base": 2, "stops": [[0, 0], [2, 3]]}
             }}]}
            """#))
    #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    let layer = try #require(style.layers.first)
    let color = try #require(layer.property("circle-color"))
    #expect(color.color(context(["kind": .string("b")])) == StyleColor(css: "#0000ff"))
    #expect(color.color(context(["kind": .string("z")])) == StyleColor(css: "#00ff00"))
    // Base 2 from 0 to 2 at 1: (2^1 - 1) / (2^2 - 1) = 1/3 → radius 1.
    let radius = try #require(layer.property("circle-radius"))
    #expect(isApproximatelyEqual(radius.number(context(["pop": .number(1)])), 1, tolerance: 1e-12))
}

@Test func expandsTokenStrings() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": "{name} ({ref})"}}]}
            """#))
    let field = try #require(style.layers.first?.property("text-field"))
    #expect(field.string(context(["name": .string("Mannerheimintie"), "ref": .number(1)])) == "Mannerheimintie (1)")
}

@Test(arguments: [
    (#"{}"#, ""),
    (#"[]"#, ""),
    (#"["=", "key", "value"]"#, "[0]"),
    (#"["==", "key"]"#, ""),
    (#"["==", 1, "value"]"#, "[1]"),
    (#"["==", "$type", "Square"]"#, "[2]"),
    (#"[">", "$type", "Point"]"#, ""),
    (#"["has", "a", "b"]"#, "[2]"),
    (#"["none", ["==", "a", 1], ["case", true, true, false]]"#, "[2][0]"),
])
func rejectsMalformedLegacyFilters(text: String, key: String) {
    do {
        _ = try StyleFilter.compile(json(text))
        Issue.record("\(text) compiled")
    } catch {
        #expect(error.errors.first?.key == key, "\(text): \(error)")
    }
}

@Test func mixedFilterSyntaxIsReadAsAnExpressionWithAWarning() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "circle", "source": "s",
                         "filter": ["all", ["==", "$type", "Point"], [">=", ["zoom"], 10]]}]}
            """#))
    #expect(style.errors.isEmpty, "\(style.errors)")
    #expect(style.diagnostics.map(\.path) == ["layers[0].filter[1]"])
    #expect(style.diagnostics.first?.severity == .warning)
    // As an expression, ["==", "$type", "Point"] compares two strings, so the filter never matches (as in MapLibre).
    #expect(style.layers.first?.filter?.matches(context([:], type: .point)) == false)
}

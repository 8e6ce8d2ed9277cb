import FoundationEssentials

/// Runs MapLibre's expression conformance cases (`test/integration/expression/tests/<op>/<case>/test.json` in
/// maplibre-style-spec) against this expression engine.
///
/// A case passes when compilation succeeds or fails as expected; on success the compiled type,
/// `isFeatureConstant` and `isZoomConstant` match, and every output matches: errors where an error is expected,
/// numbers within ``numericTolerance``, colours compared as premultiplied RGBA arrays (as MapLibre's harness prints
/// them). Error wording is not compared.
public enum ExpressionConformance {
    /// Tolerance for numbers, scaled by `max(1, |expected|)` (the fixtures print six significant digits).
    public static let numericTolerance = 1e-5

    /// The result of one case.
    public struct CaseResult: Sendable {
        /// `<op>/<case>`.
        public var name: String
        /// The operator family: the first path component.
        public var family: String
        /// Whether it passed.
        public var passed: Bool
        /// Why it failed; empty when it passed.
        public var reason: String
    }

    /// Runs every case under `directory` (the `tests` folder).
    /// - Parameter directory: path of `…/test/integration/expression/tests`.
    /// - Returns: one result per case, sorted by name.
    /// - Throws: file-system errors listing the folder; a case that cannot be read or parsed counts as failed.
    public static func run(directory: String) throws -> [CaseResult] {
        var results: [CaseResult] = []
        for relative in try caseFiles(directory: directory) {
            let name = String(relative.dropLast("/test.json".count))
            let family = String(name.split(separator: "/").first ?? "")
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + relative))
                let json = try JSONValue.parse(bytes: Array(data))
                let reason = runCase(json)
                results.append(CaseResult(name: name, family: family, passed: reason == nil, reason: reason ?? ""))
            } catch {
                results.append(CaseResult(name: name, family: family, passed: false, reason: "unreadable: \(error)"))
            }
        }
        return results
    }

    /// The `test.json` files under `directory`, relative to it, sorted.
    /// - Parameter directory: path of `…/test/integration/expression/tests`.
    /// - Returns: paths such as `all/basic/test.json`.
    /// - Throws: file-system errors listing a folder.
    package static func caseFiles(directory: String) throws -> [String] {
        let fm = FileManager.default
        var files: [String] = []
        func walk(_ relative: String) throws {
            let path = relative.isEmpty ? directory : directory + "/" + relative
            for entry in try fm.contentsOfDirectory(atPath: path) {
                let child = relative.isEmpty ? entry : relative + "/" + entry
                if entry == "test.json" {
                    files.append(child)
                } else if !entry.contains(".") {
                    try walk(child)
                }
            }
        }
        try walk("")
        return files.sorted()
    }

    /// The evaluation context of one of a case's inputs: `[globals, feature]` as the suite writes them (zoom,
    /// heatmap density, line progress, available images; the feature's properties, id and geometry), with the
    /// case's `globalState`.
    /// - Parameters:
    ///   - input: one element of the case's `inputs`.
    ///   - test: the whole case.
    /// - Returns: the context.
    package static func context(_ input: JSONValue, test: JSONValue) -> EvaluationContext {
        let pair = input.arrayValue ?? []
        let globals = pair.first ?? .object([:])
        let feature = pair.count > 1 ? pair[1] : .object([:])
        var ctx = EvaluationContext()
        ctx.zoom = globals["zoom"]?.numberValue
        ctx.heatmapDensity = globals["heatmapDensity"]?.numberValue
        ctx.lineProgress = globals["lineProgress"]?.numberValue
        if let images = globals["availableImages"]?.arrayValue {
            ctx.availableImages = Set(images.compactMap(\.stringValue))
        }
        if case .object(let props)? = feature["properties"] {
            ctx.properties = props.mapValues(ExpressionValue.init(json:))
        }
        if case .object(let state)? = test["globalState"] {
            ctx.globalState = state.mapValues(ExpressionValue.init(json:))
        }
        if let id = feature["id"] { ctx.featureID = ExpressionValue(json: id) }
        if let g = feature["geometry"]?["type"]?.stringValue { ctx.geometryType = StyleGeometryType(rawValue: g) }
        if let coordinates = feature["geometry"]?["coordinates"] {
            ctx.geometryCoordinates = geometryParts(coordinates, type: ctx.geometryType)
        }
        return ctx
    }

    static func expressionType(_ spec: JSONValue?) -> ExpressionType? {
        guard let spec, let type = spec["type"]?.stringValue else { return nil }
        let simple: [String: ExpressionType] = [
            "color": .color, "string": .string, "number": .number, "enum": .string, "boolean": .boolean,
            "formatted": .formatted, "resolvedImage": .resolvedImage, "padding": .padding,
            "numberArray": .numberArray, "colorArray": .colorArray, "projectionDefinition": .projectionDefinition,
        ]
        if type == "array" {
            let item = spec["value"]?.stringValue.flatMap { simple[$0] } ?? .value
            return .array(item, spec["length"]?.numberValue.map { Int($0) })
        }
        return simple[type]
    }

    /// Returns `nil` when the case passes, else the reason.
    static func runCase(_ test: JSONValue) -> String? {
        guard var expression = test["expression"], let expected = test["expected"] else { return "malformed case" }
        let propertySpec = test["propertySpec"]
        if LegacyConversion.isFunction(expression) {
            let info = LegacyPropertyInfo(
                typeName: propertySpec?["type"]?.stringValue ?? "value",
                itemTypeName: propertySpec?["value"]?.stringValue,
                length: propertySpec?["length"]?.numberValue.map { Int($0) },
                interpolated: propertySpec?["expression"]?["interpolated"]?.boolValue ?? false,
                tokens: propertySpec?["tokens"]?.boolValue ?? false, defaultValue: propertySpec?["default"],
                enumValues: propertySpec?["values"]?.objectValue.map { Array($0.keys).sorted() } ?? [])
            expression = LegacyConversion.convertFunction(expression, info)
        }
        var spec = ExpressionPropertySpec(type: expressionType(propertySpec))
        spec.coercesToString = propertySpec?["type"]?.stringValue == "string"
        if let p = propertySpec {
            if let kind = p["property-type"]?.stringValue {
                spec.isDataDriven = kind == "data-driven" || kind == "cross-faded-data-driven"
            }
            if let e = p["expression"] {
                spec.supportsInterpolation = e["interpolated"]?.boolValue ?? false
                spec.supportsZoom = e["parameters"]?.arrayValue?.contains(.string("zoom")) ?? false
            }
        }
        let compiled = expected["compiled"]
        let expectSuccess = compiled?["result"]?.stringValue == "success"
        let result: StyleExpression
        do {
            result = try StyleExpression.compile(expression, spec: spec)
        } catch {
            return expectSuccess ? "compile error: \(error)" : nil
        }
        if !expectSuccess { return "compiled, but an error was expected" }
        if let t = compiled?["type"]?.stringValue, t != result.type.description {
            return "type \(result.type), expected \(t)"
        }
        if let f = compiled?["isFeatureConstant"]?.boolValue, f != result.isFeatureConstant {
            return "isFeatureConstant \(result.isFeatureConstant), expected \(f)"
        }
        if let z = compiled?["isZoomConstant"]?.boolValue, z != result.isZoomConstant {
            return "isZoomConstant \(result.isZoomConstant), expected \(z)"
        }
        let inputs = test["inputs"]?.arrayValue ?? []
        let outputs = expected["outputs"]?.arrayValue ?? []
        for (i, input) in inputs.enumerated() where i < outputs.count {
            let ctx = context(input, test: test)
            let want = outputs[i]
            let got: ExpressionValue
            do {
                got = try result.evaluate(ctx)
            } catch {
                if want["error"] != nil { continue }
                return "input \(i): evaluation error \(error), expected \(want)"
            }
            if want["error"] != nil, case .object = want { return "input \(i): got \(got.jsonText), expected an error" }
            if !matches(got, want, topLevelType: result.type) {
                return "input \(i): got \(got.jsonText), expected \(want)"
            }
        }
        return nil
    }

    /// GeoJSON coordinates as a list of parts of `[lon, lat]` pairs (points: one part per point).
    static func geometryParts(_ coordinates: JSONValue, type: StyleGeometryType?) -> [[[Double]]] {
        func pair(_ v: JSONValue) -> [Double]? {
            guard let a = v.arrayValue else { return nil }
            let n = a.compactMap(\.numberValue)
            return n.count >= 2 ? n : nil
        }
        func line(_ v: JSONValue) -> [[Double]] { (v.arrayValue ?? []).compactMap(pair) }
        switch type {
        case .point?: return pair(coordinates).map { [[$0]] } ?? []
        case .multiPoint?: return line(coordinates).map { [$0] }
        case .lineString?: return [line(coordinates)]
        case .multiLineString?, .polygon?: return (coordinates.arrayValue ?? []).map(line)
        case .multiPolygon?: return (coordinates.arrayValue ?? []).flatMap { ($0.arrayValue ?? []).map(line) }
        case nil: return []
        }
    }

    static func close(_ a: Double, _ b: Double) -> Bool {
        if a.isNaN && b.isNaN { return true }
        if a == b { return true }
        return abs(a - b) <= numericTolerance * max(1, abs(b))
    }

    static func colorObject(_ c: StyleColor) -> [String: ExpressionValue] {
        let p = c.premultipliedComponents
        return ["r": .number(p[0]), "g": .number(p[1]), "b": .number(p[2]), "a": .number(p[3])]
    }

    static func matches(_ got: ExpressionValue, _ want: JSONValue, topLevelType: ExpressionType? = nil) -> Bool {
        switch (got, want) {
        case (.null, .null): return true
        case (.boolean(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return close(a, b)
        case (.string(let a), .string(let b)): return a == b
        case (.color(let c), .array(let w)):
            let p = c.premultipliedComponents
            return w.count == 4
                && zip(p, w).allSatisfy { pair in pair.1.numberValue.map { n in close(pair.0, n) } ?? false }
        case (.color(let c), .object):
            return matches(.object(colorObject(c)), want)
        case (.color(let c), .string(let s)):
            return StyleColor(css: s) == c
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && b.allSatisfy { key, value in a[key].map { matches($0, value) } ?? false }
        case (.image(let name, let available), .object(let b)):
            return b["name"]?.stringValue == name && (b["available"]?.boolValue ?? available) == available
        case (.image(let name, _), .string(let s)): return name == s
        case (.padding(let v), .object(let b)), (.numberArray(let v), .object(let b)):
            return matches(.array(v.map(ExpressionValue.number)), b["values"] ?? .null)
        case (.colorArray(let c), .object(let b)):
            return matches(.array(c.map { .object(colorObject($0)) }), b["values"] ?? .null)
        case (.projectionTransition(let from, let to, let t), .object(let b)):
            return b["from"]?.stringValue == from && b["to"]?.stringValue == to
                && close(t, b["transition"]?.numberValue ?? .nan)
        case (.formatted(let f), .object(let b)):
            guard let sections = b["sections"]?.arrayValue, sections.count == f.sections.count else { return false }
            for (s, w) in zip(f.sections, sections) {
                var o: [String: ExpressionValue] = [
                    "text": .string(s.text), "image": s.image.map { .string($0) } ?? .null,
                    "scale": s.scale.map(ExpressionValue.number) ?? .null,
                    "fontStack": s.fontStack.map(ExpressionValue.string) ?? .null,
                    "textColor": s.textColor.map { .object(colorObject($0)) } ?? .null,
                    "verticalAlign": s.verticalAlign.map(ExpressionValue.string) ?? .null,
                ]
                guard case .object(var wo) = w else { return false }
                for key in o.keys where wo[key] == nil { o[key] = nil }
                if let imageName = wo["image"]?["name"] { wo["image"] = imageName }
                if !matches(.object(o), .object(wo)) { return false }
            }
            return true
        default: return false
        }
    }
}

import Foundation
import MapStyle

/// Synthetic features shaped like the Helsinki OpenMapTiles layers: class, rank, name, numbers.
func syntheticStyleFeatures(count: Int) -> [(sourceLayer: String, context: EvaluationContext)] {
    let layers: [(String, [String], StyleGeometryType)] = [
        (
            "transportation",
            ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service", "path", "rail"],
            .lineString
        ),
        ("poi", ["restaurant", "cafe", "shop", "museum", "park", "bus", "hotel", "bank"], .point),
        ("landuse", ["residential", "commercial", "hospital", "school", "cemetery"], .polygon),
        ("building", ["building"], .polygon),
        ("place", ["city", "suburb", "neighbourhood"], .point),
        ("places", ["city"], .point),
    ]
    var features: [(String, EvaluationContext)] = []
    features.reserveCapacity(count)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
    for i in 0..<count {
        let (layer, classes, geometry) = layers[next() % layers.count]
        let properties: [String: ExpressionValue] = [
            "class": .string(classes[next() % classes.count]), "rank": .number(Double(1 + next() % 12)),
            "name": .string("Feature \(i)"), "capital": .number(Double(next() % 2)),
            "brunnel": next() % 10 == 0 ? .string("bridge") : .null,
        ]
        features.append(
            (
                layer,
                EvaluationContext(
                    zoom: 15.3, properties: properties, featureID: .number(Double(i)), geometryType: geometry)
            )
        )
    }
    return features
}

/// Loads the repository's default style.
func loadDefaultStyle() throws -> Style {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try Style.load(contentsOfFile: root.appendingPathComponent("Data/styles/default.json").path)
}

/// Evaluates the default style for 10,000 synthetic features: for each feature, every layer of its source-layer
/// runs its filter and, when it matches, evaluates all its paint properties.
struct StyleEvalBenchmark: Benchmark {
    let name = "style-eval"
    let unit = "features"
    var style: Style?
    var features: [(sourceLayer: String, context: EvaluationContext)] = []
    var layersBySource: [String: [(StyleLayer, [StyleProperty])]] = [:]

    mutating func setUp() throws {
        let style = try loadDefaultStyle()
        self.style = style
        features = syntheticStyleFeatures(count: 10_000)
        for layer in style.layers {
            guard let sourceLayer = layer.sourceLayer else { continue }
            let names = StylePropertySpec.all.filter { !$0.isLayout && $0.layerType == layer.type }.map(\.name)
            layersBySource[sourceLayer, default: []].append((layer, names.compactMap { layer.property($0) }))
        }
    }

    func run() throws -> Int {
        var checksum = 0.0
        for (sourceLayer, context) in features {
            for (layer, properties) in layersBySource[sourceLayer] ?? [] {
                if let filter = layer.filter, !filter.matches(context) { continue }
                for property in properties {
                    switch property.evaluate(context) {
                    case .number(let n): checksum += n
                    case .color(let c): checksum += c.red
                    default: checksum += 1
                    }
                }
            }
        }
        blackHole(checksum)
        return features.count
    }
}

/// Evaluates typical data- and zoom-driven expressions 100,000 times each run.
struct ExpressionEvalBenchmark: Benchmark {
    let name = "expression-eval"
    let unit = "evaluations"
    var expressions: [StyleExpression] = []
    var contexts: [EvaluationContext] = []

    mutating func setUp() throws {
        let sources = [
            #"["interpolate", ["exponential", 1.5], ["zoom"], 10, 1, 14, 4, 18, 20]"#,
            ##"["match", ["get", "class"], ["motorway", "trunk"], "#fcd581", "primary", "#fff1b8", "#ffffff"]"##,
            #"["case", ["<=", ["get", "rank"], 3], 14, ["<=", ["get", "rank"], 7], 12, 10]"#,
            #"["coalesce", ["get", "name:latin"], ["get", "name"]]"#,
            #"["all", ["==", ["get", "class"], "primary"], ["!=", ["get", "brunnel"], "tunnel"]]"#,
            #"["interpolate", ["linear"], ["zoom"], 12, ["*", ["get", "rank"], 0.5], 16, ["*", ["get", "rank"], 2]]"#,
            #"["step", ["zoom"], 1, 4, 2, 8, 4, 12, 8]"#,
            #"["concat", ["upcase", ["get", "class"]], " ", ["to-string", ["get", "rank"]]]"#,
        ]
        let specs: [ExpressionType?] = [.number, .color, .number, .string, .boolean, .number, .number, .string]
        for (text, type) in zip(sources, specs) {
            expressions.append(
                try StyleExpression.compile(JSONValue.parse(text), spec: ExpressionPropertySpec(type: type)))
        }
        contexts = syntheticStyleFeatures(count: 12_500).map(\.context)
    }

    func run() throws -> Int {
        var count = 0
        var checksum = 0
        for context in contexts {
            for expression in expressions {
                if case .number = try expression.evaluate(context) { checksum += 1 }
                count += 1
            }
        }
        blackHole(checksum)
        return count
    }
}

#if !FUZZ_SINGLE_MODULE
    import MapStyle
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The bundled styles the rules are applied to, loaded once (the script runs from the repository root).
nonisolated(unsafe) let fuzzBaseStyles: [Style] = ["Data/styles/default.json", "Data/styles/protomaps.json"].compactMap
{
    try? Style.load(contentsOfFile: $0)
}

/// Feature properties the styled properties are evaluated against (classes and kinds of every table row).
let fuzzContexts: [EvaluationContext] = {
    var contexts: [EvaluationContext] = []
    for row in GoogleFeatureTable.rows {
        var props: [String: ExpressionValue] = ["name": .string("x"), "rank": .number(1), "admin_level": .number(2)]
        if case .array(let items)? = row.filter, items.count > 2, case .array(let labels) = items[2],
            let first = labels.first?.stringValue
        {
            props["class"] = .string(first)
            props["kind"] = .string(first)
        }
        for zoom in [3.0, 16.0] { contexts.append(EvaluationContext(zoom: zoom, properties: props)) }
    }
    return contexts
}()

/// Reads the input as a random rule array: each rule a feature type, an element type and 1–4 stylers, with numbers
/// drawn from the bytes (including out-of-range, infinite and NaN values through the JSON path's clamping).
struct FuzzReader {
    var bytes: [UInt8]
    var at = 0
    mutating func next() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func number() -> Double {
        let a = Double(next() ?? 0)
        let b = Double(next() ?? 0)
        return (a * 256 + b) / 65535 * 600 - 300
    }
    mutating func color() -> StyleColor {
        StyleColor(
            red: Double(next() ?? 0) / 255, green: Double(next() ?? 0) / 255, blue: Double(next() ?? 0) / 255)
    }
}

/// libFuzzer entry point: the bytes as Google styling JSON (must parse or throw, never crash), then as a random rule
/// array applied to the bundled styles: every colour a styled layer gives a feature must be a valid colour (finite
/// components in 0…1) and every styled number finite. Build and run with `scripts/fuzz/fuzz-google-style.sh [SECONDS]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGoogleStyle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var rules: [GoogleStyleRule] = []
    if let parsed = try? GoogleMapStyle(jsonBytes: bytes) { rules = parsed.rules }
    var reader = FuzzReader(bytes: bytes)
    while rules.count < 40, let f = reader.next(), let e = reader.next(), let n = reader.next() {
        var stylers: [GoogleStyler] = []
        for _ in 0..<(Int(n) % 4 + 1) {
            switch (reader.next() ?? 0) % 8 {
            case 0: stylers.append(.hue(reader.color()))
            case 1: stylers.append(.lightness(min(100, max(-100, reader.number()))))
            case 2: stylers.append(.saturation(min(100, max(-100, reader.number()))))
            case 3: stylers.append(.gamma(min(10, max(0.01, abs(reader.number()) / 30))))
            case 4: stylers.append(.invertLightness((reader.next() ?? 0) & 1 == 0))
            case 5: stylers.append(.visibility([.on, .off, .simplified][Int(reader.next() ?? 0) % 3]))
            case 6: stylers.append(.color(reader.color()))
            default: stylers.append(.weight(abs(reader.number()) / 10))
            }
        }
        rules.append(
            GoogleStyleRule(
                featureType: GoogleFeatureType.all[Int(f) % GoogleFeatureType.all.count],
                elementType: GoogleElementType.all[Int(e) % GoogleElementType.all.count], stylers: stylers))
    }
    let google = GoogleMapStyle(rules: rules)
    for base in fuzzBaseStyles {
        let styled = google.apply(to: base)
        guard styled.layers.count == base.layers.count else { fatalError("layers lost") }
        for layer in styled.layers {
            for ctx in fuzzContexts {
                _ = layer.filter?.matches(ctx)
                for (name, property) in layer.paint {
                    let v = property.evaluate(ctx)
                    if name.hasSuffix("color"), let c = v.color {
                        for x in [c.red, c.green, c.blue, c.alpha] where !(x.isFinite && x >= 0 && x <= 1) {
                            fatalError("invalid colour \(c) for \(layer.id).\(name)")
                        }
                    }
                    if case .number(let x) = v, !x.isFinite { fatalError("non-finite \(layer.id).\(name)") }
                }
            }
        }
    }
    return 0
}

/// The layer types Waymark renders (style spec "Layers").
public enum StyleLayerType: String, Sendable, Hashable, CaseIterable {
    /// Fills the whole map (`background`).
    case background
    /// Polygon fills (`fill`).
    case fill
    /// Stroked lines (`line`).
    case line
    /// Circles at points (`circle`).
    case circle
    /// Text and icon labels (`symbol`).
    case symbol
    /// Raster tiles (`raster`; paint properties in RasterProperties.swift).
    case raster
    /// Point density coloured through a ramp (`heatmap`; paint properties in LayerTypeProperties.swift).
    case heatmap
    /// Relief shading of a `raster-dem` source (`hillshade`; LayerTypeProperties.swift).
    case hillshade
    /// Polygons raised to 3D (`fill-extrusion`; LayerTypeProperties.swift).
    case fillExtrusion = "fill-extrusion"
}

/// The specification of one paint or layout property: its type, default and what may drive it (a hand-written
/// subset of the style spec's `v8.json`).
public struct StylePropertySpec: Sendable {
    /// The property name, for example `line-width`.
    public let name: String
    /// The layer type it belongs to; `nil` for `visibility`, which every layer has.
    public let layerType: StyleLayerType?
    /// `true` for layout properties, `false` for paint properties.
    public let isLayout: Bool
    /// The spec type name: `number`, `color`, `string`, `enum`, `boolean`, `array`, `formatted`, `resolvedImage`,
    /// `padding`.
    public let typeName: String
    /// The expression type values are checked against.
    public let valueType: ExpressionType
    /// The spec default, or `nil` when the spec has none (for example `fill-outline-color`).
    public let defaultValue: ExpressionValue?
    /// Whether feature data may drive it.
    public let isDataDriven: Bool
    /// Whether zoom curves may interpolate it.
    public let isInterpolated: Bool
    /// Whether legacy `{token}` strings are expanded.
    public let usesTokens: Bool
    /// For enums, the allowed values; else empty.
    public let enumValues: [String]
    /// Smallest allowed number (values are clamped), or `nil`.
    public let minimum: Double?
    /// Largest allowed number (values are clamped), or `nil`.
    public let maximum: Double?

    var defaultJSON: JSONValue? {
        guard let d = defaultValue else { return nil }
        return StylePropertySpec.json(d)
    }

    static func json(_ v: ExpressionValue) -> JSONValue {
        switch v {
        case .null: return .null
        case .boolean(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .color(let c): return .string(c.description)
        case .array(let a): return .array(a.map(json))
        case .object(let o): return .object(o.mapValues(json))
        case .formatted(let f): return .string(f.sections.map(\.text).joined())
        case .image(let name, _): return .string(name)
        case .padding(let v), .numberArray(let v): return .array(v.map(JSONValue.number))
        case .colorArray(let c): return .array(c.map { .string($0.description) })
        case .projectionTransition(let from, let to, let t): return .array([.string(from), .string(to), .number(t)])
        case .collator: return .null
        }
    }

    var expressionSpec: ExpressionPropertySpec {
        ExpressionPropertySpec(
            type: valueType, isDataDriven: isDataDriven, supportsZoom: true, supportsInterpolation: isInterpolated,
            coercesToString: typeName == "string")
    }

    var legacyInfo: LegacyPropertyInfo {
        var item: String?
        var length: Int?
        if case .array(let t, let n) = valueType {
            item = t.description
            length = n
        }
        return LegacyPropertyInfo(
            typeName: typeName, itemTypeName: item, length: length, interpolated: isInterpolated, tokens: usesTokens,
            defaultValue: defaultJSON, enumValues: enumValues)
    }

    /// The spec of a property by name, or `nil` when Waymark does not know it.
    /// - Parameter name: the property name.
    /// - Returns: the spec or `nil`.
    public static func named(_ name: String) -> StylePropertySpec? { table[name] }

    /// Every property Waymark knows, by name.
    public static let all: [StylePropertySpec] = makeAll() + rasterPropertySpecs() + layerTypePropertySpecs()

    static let table: [String: StylePropertySpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // swift-format-ignore
    private static func makeAll() -> [StylePropertySpec] {
        var list: [StylePropertySpec] = []
        func add(
            _ layer: StyleLayerType?, _ layout: Bool, _ name: String, _ type: String, _ def: ExpressionValue?,
            dd: Bool = false, interp: Bool = true, tokens: Bool = false, values: [String] = [],
            min: Double? = nil, max: Double? = nil, item: ExpressionType = .number, length: Int? = nil
        ) {
            let valueType: ExpressionType
            switch type {
            case "number": valueType = .number
            case "color": valueType = .color
            case "string", "enum": valueType = .string
            case "boolean": valueType = .boolean
            case "formatted": valueType = .formatted
            case "resolvedImage": valueType = .resolvedImage
            case "padding": valueType = .padding
            default: valueType = .array(item, length)
            }
            list.append(StylePropertySpec(
                name: name, layerType: layer, isLayout: layout, typeName: type, valueType: valueType,
                defaultValue: def, isDataDriven: dd, isInterpolated: interp && type != "enum" && type != "boolean"
                    && type != "string" && type != "formatted" && type != "resolvedImage",
                usesTokens: tokens, enumValues: values, minimum: min, maximum: max))
        }
        func color(_ css: String) -> ExpressionValue { .color(StyleColor(css: css)!) }
        let zero2: ExpressionValue = .array([.number(0), .number(0)])
        let anchors = ["map", "viewport"]
        let anchor9 = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

        add(nil, true, "visibility", "enum", .string("visible"), interp: false, values: ["visible", "none"])

        add(.background, false, "background-color", "color", color("#000000"))
        add(.background, false, "background-opacity", "number", .number(1), min: 0, max: 1)
        add(.background, false, "background-pattern", "resolvedImage", nil)

        add(.fill, true, "fill-sort-key", "number", nil, dd: true, interp: false)
        add(.fill, false, "fill-antialias", "boolean", .boolean(true))
        add(.fill, false, "fill-opacity", "number", .number(1), dd: true, min: 0, max: 1)
        add(.fill, false, "fill-color", "color", color("#000000"), dd: true)
        add(.fill, false, "fill-outline-color", "color", nil, dd: true)
        add(.fill, false, "fill-translate", "array", zero2, length: 2)
        add(.fill, false, "fill-translate-anchor", "enum", .string("map"), values: anchors)
        add(.fill, false, "fill-pattern", "resolvedImage", nil, dd: true)

        add(.line, true, "line-cap", "enum", .string("butt"), values: ["butt", "round", "square"])
        add(.line, true, "line-join", "enum", .string("miter"), dd: true, values: ["bevel", "round", "miter"])
        add(.line, true, "line-miter-limit", "number", .number(2))
        add(.line, true, "line-round-limit", "number", .number(1.05))
        add(.line, true, "line-sort-key", "number", nil, dd: true, interp: false)
        add(.line, false, "line-opacity", "number", .number(1), dd: true, min: 0, max: 1)
        add(.line, false, "line-color", "color", color("#000000"), dd: true)
        add(.line, false, "line-translate", "array", zero2, length: 2)
        add(.line, false, "line-translate-anchor", "enum", .string("map"), values: anchors)
        add(.line, false, "line-width", "number", .number(1), dd: true, min: 0)
        add(.line, false, "line-gap-width", "number", .number(0), dd: true, min: 0)
        add(.line, false, "line-offset", "number", .number(0), dd: true)
        add(.line, false, "line-blur", "number", .number(0), dd: true, min: 0)
        add(.line, false, "line-dasharray", "array", nil, interp: false)
        add(.line, false, "line-pattern", "resolvedImage", nil, dd: true)
        // A color-ramp over line-progress (evaluated per fragment progress, not per feature).
        add(.line, false, "line-gradient", "color", nil)

        add(.circle, true, "circle-sort-key", "number", nil, dd: true, interp: false)
        add(.circle, false, "circle-radius", "number", .number(5), dd: true, min: 0)
        add(.circle, false, "circle-color", "color", color("#000000"), dd: true)
        add(.circle, false, "circle-blur", "number", .number(0), dd: true)
        add(.circle, false, "circle-opacity", "number", .number(1), dd: true, min: 0, max: 1)
        add(.circle, false, "circle-translate", "array", zero2, length: 2)
        add(.circle, false, "circle-translate-anchor", "enum", .string("map"), values: anchors)
        add(.circle, false, "circle-pitch-scale", "enum", .string("map"), values: anchors)
        add(.circle, false, "circle-pitch-alignment", "enum", .string("viewport"), values: anchors)
        add(.circle, false, "circle-stroke-width", "number", .number(0), dd: true, min: 0)
        add(.circle, false, "circle-stroke-color", "color", color("#000000"), dd: true)
        add(.circle, false, "circle-stroke-opacity", "number", .number(1), dd: true, min: 0, max: 1)

        let alignments = ["map", "viewport", "auto"]
        add(.symbol, true, "symbol-placement", "enum", .string("point"), values: ["point", "line", "line-center"])
        add(.symbol, true, "symbol-spacing", "number", .number(250), min: 1)
        add(.symbol, true, "symbol-avoid-edges", "boolean", .boolean(false))
        add(.symbol, true, "symbol-sort-key", "number", nil, dd: true, interp: false)
        add(.symbol, true, "symbol-z-order", "enum", .string("auto"), values: ["auto", "viewport-y", "source"])
        add(.symbol, true, "icon-allow-overlap", "boolean", .boolean(false))
        add(.symbol, true, "icon-ignore-placement", "boolean", .boolean(false))
        add(.symbol, true, "icon-optional", "boolean", .boolean(false))
        add(.symbol, true, "icon-rotation-alignment", "enum", .string("auto"), values: alignments)
        add(.symbol, true, "icon-pitch-alignment", "enum", .string("auto"), values: alignments)
        add(.symbol, true, "icon-size", "number", .number(1), dd: true, min: 0)
        add(.symbol, true, "icon-image", "resolvedImage", nil, dd: true, tokens: true)
        add(.symbol, true, "icon-rotate", "number", .number(0), dd: true)
        add(.symbol, true, "icon-padding", "padding", .padding([2, 2, 2, 2]), dd: true)
        add(.symbol, true, "icon-keep-upright", "boolean", .boolean(false))
        add(.symbol, true, "icon-offset", "array", zero2, dd: true, length: 2)
        add(.symbol, true, "icon-anchor", "enum", .string("center"), dd: true, values: anchor9)
        add(.symbol, true, "icon-text-fit", "enum", .string("none"), values: ["none", "width", "height", "both"])
        add(.symbol, true, "icon-text-fit-padding", "array", .array([.number(0), .number(0), .number(0), .number(0)]),
            length: 4)
        add(.symbol, true, "text-rotation-alignment", "enum", .string("auto"), values: alignments + ["viewport-glyph"])
        add(.symbol, true, "text-pitch-alignment", "enum", .string("auto"), values: alignments)
        add(.symbol, true, "text-field", "formatted", .string(""), dd: true, tokens: true)
        add(.symbol, true, "text-font", "array", .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")]),
            dd: true, interp: false, item: .string)
        add(.symbol, true, "text-size", "number", .number(16), dd: true, min: 0)
        add(.symbol, true, "text-max-width", "number", .number(10), dd: true, min: 0)
        add(.symbol, true, "text-line-height", "number", .number(1.2))
        add(.symbol, true, "text-letter-spacing", "number", .number(0), dd: true)
        add(.symbol, true, "text-justify", "enum", .string("center"), dd: true, values: ["auto", "left", "center", "right"])
        add(.symbol, true, "text-radial-offset", "number", .number(0), dd: true)
        add(.symbol, true, "text-variable-anchor", "array", nil, interp: false, item: .string)
        add(.symbol, true, "text-variable-anchor-offset", "variableAnchorOffsetCollection", nil, dd: true,
            item: .value)
        add(.symbol, true, "text-anchor", "enum", .string("center"), dd: true, values: anchor9)
        add(.symbol, true, "text-max-angle", "number", .number(45))
        add(.symbol, true, "text-rotate", "number", .number(0), dd: true)
        add(.symbol, true, "text-padding", "number", .number(2), min: 0)
        add(.symbol, true, "text-keep-upright", "boolean", .boolean(true))
        add(.symbol, true, "text-transform", "enum", .string("none"), dd: true, values: ["none", "uppercase", "lowercase"])
        add(.symbol, true, "text-offset", "array", zero2, dd: true, length: 2)
        add(.symbol, true, "text-writing-mode", "array", nil, interp: false, item: .string)
        add(.symbol, true, "text-allow-overlap", "boolean", .boolean(false))
        add(.symbol, true, "text-ignore-placement", "boolean", .boolean(false))
        add(.symbol, true, "text-optional", "boolean", .boolean(false))
        add(.symbol, false, "icon-opacity", "number", .number(1), dd: true, min: 0, max: 1)
        add(.symbol, false, "icon-color", "color", color("#000000"), dd: true)
        add(.symbol, false, "icon-halo-color", "color", color("rgba(0,0,0,0)"), dd: true)
        add(.symbol, false, "icon-halo-width", "number", .number(0), dd: true, min: 0)
        add(.symbol, false, "icon-halo-blur", "number", .number(0), dd: true, min: 0)
        add(.symbol, false, "icon-translate", "array", zero2, length: 2)
        add(.symbol, false, "icon-translate-anchor", "enum", .string("map"), values: anchors)
        add(.symbol, false, "text-opacity", "number", .number(1), dd: true, min: 0, max: 1)
        add(.symbol, false, "text-color", "color", color("#000000"), dd: true)
        add(.symbol, false, "text-halo-color", "color", color("rgba(0,0,0,0)"), dd: true)
        add(.symbol, false, "text-halo-width", "number", .number(0), dd: true, min: 0)
        add(.symbol, false, "text-halo-blur", "number", .number(0), dd: true, min: 0)
        add(.symbol, false, "text-translate", "array", zero2, length: 2)
        add(.symbol, false, "text-translate-anchor", "enum", .string("map"), values: anchors)
        return list
    }
}

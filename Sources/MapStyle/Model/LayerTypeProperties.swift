// The paint properties of the `heatmap`, `hillshade` and `fill-extrusion` layers (MapLibre style spec, "Layers"),
// as the spec's `v8.json` lists them, and the evaluated paint of the two image-producing types.

/// How a `raster-dem` source packs elevations into the red, green and blue channels of its tiles (style spec
/// "Sources › raster-dem › encoding").
public enum DEMEncoding: String, Sendable, Hashable {
    /// Mapbox Terrain-RGB: `-10000 + (R × 65536 + G × 256 + B) × 0.1` metres (the default).
    case mapbox
    /// Terrarium: `R × 256 + G + B / 256 - 32768` metres.
    case terrarium

    /// The weights MapLibre's `hillshade_prepare` shader dots with `(R, G, B, -1)` (channels 0…255) to get metres.
    public var unpackVector: (red: Double, green: Double, blue: Double, offset: Double) {
        switch self {
        case .mapbox: return (6553.6, 25.6, 0.1, 10000)
        case .terrarium: return (256, 1, 1 / 256, 32768)
        }
    }

    /// The elevation in metres of one pixel's channels (each 0…255).
    public func elevation(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        let u = unpackVector
        return Double(red) * u.red + Double(green) * u.green + Double(blue) * u.blue - u.offset
    }
}

/// The `hillshade` layer's paint properties evaluated at one zoom (MapLibre style spec, "Layers › hillshade").
///
/// None is data-driven (a DEM tile has no features); colours are straight (not premultiplied) sRGB.
public struct HillshadePaint: Sendable, Hashable {
    /// `hillshade-illumination-direction`, degrees clockwise from north (map) or the top of the viewport
    /// (viewport), 0…359. Default 335.
    public var illuminationDirection: Double
    /// `hillshade-illumination-anchor` is `viewport` (the default): the direction turns with the map's bearing.
    public var anchorsToViewport: Bool
    /// `hillshade-exaggeration`, 0…1. Default 0.5.
    public var exaggeration: Double
    /// `hillshade-shadow-color`. Default black.
    public var shadowColor: StyleColor
    /// `hillshade-highlight-color`. Default white.
    public var highlightColor: StyleColor
    /// `hillshade-accent-color`. Default black.
    public var accentColor: StyleColor

    /// Evaluates `layer`'s hillshade paint properties at `zoom` (spec defaults for unset ones).
    public init(layer: StyleLayer, zoom: Double) {
        let ctx = EvaluationContext(zoom: zoom)
        func number(_ name: String, _ fallback: Double) -> Double {
            guard let p = layer.property(name), let n = p.evaluate(ctx).number, n.isFinite else { return fallback }
            return n
        }
        func color(_ name: String, _ fallback: StyleColor) -> StyleColor {
            layer.property(name)?.evaluate(ctx).color ?? fallback
        }
        illuminationDirection = min(max(number("hillshade-illumination-direction", 335), 0), 359)
        anchorsToViewport =
            (layer.property("hillshade-illumination-anchor")?.evaluate(ctx).stringRepresentation ?? "viewport")
            != "map"
        exaggeration = min(max(number("hillshade-exaggeration", 0.5), 0), 1)
        shadowColor = color("hillshade-shadow-color", StyleColor(red: 0, green: 0, blue: 0, alpha: 1))
        highlightColor = color("hillshade-highlight-color", StyleColor(red: 1, green: 1, blue: 1, alpha: 1))
        accentColor = color("hillshade-accent-color", StyleColor(red: 0, green: 0, blue: 0, alpha: 1))
    }
}

/// The style's root `light` (style spec "Light"), which lights `fill-extrusion` layers. Values given as functions or
/// expressions, and invalid ones, take the spec defaults.
public struct StyleLight: Sendable, Hashable {
    /// `anchor` is `viewport` (the default): the light turns with the map's bearing; `map`: it stays with the map.
    public var anchorsToViewport = true
    /// `position`: radial coordinate, azimuthal angle (degrees clockwise from north, or from the top of the
    /// viewport) and polar angle (degrees from straight above). Default `[1.15, 210, 30]`.
    public var position = (radial: 1.15, azimuthal: 210.0, polar: 30.0)
    /// `color`. Default white.
    public var color = StyleColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// `intensity`, 0…1. Default 0.5.
    public var intensity = 0.5

    /// The spec defaults.
    public init() {}

    /// Reads the constant values of a root `light` object.
    public init(json: [String: JSONValue]) {
        if json["anchor"]?.stringValue == "map" { anchorsToViewport = false }
        if let p = json["position"]?.arrayValue, p.count == 3, let r = p[0].numberValue, let a = p[1].numberValue,
            let polar = p[2].numberValue
        {
            position = (r, a, polar)
        }
        if let s = json["color"]?.stringValue, let c = StyleColor(css: s) { color = c }
        if let n = json["intensity"]?.numberValue, n >= 0, n <= 1 { intensity = n }
    }

    /// Whether every field is equal.
    public static func == (a: StyleLight, b: StyleLight) -> Bool {
        a.anchorsToViewport == b.anchorsToViewport && a.position == b.position && a.color == b.color
            && a.intensity == b.intensity
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(anchorsToViewport)
        hasher.combine(position.radial)
        hasher.combine(position.azimuthal)
        hasher.combine(position.polar)
        hasher.combine(color)
        hasher.combine(intensity)
    }
}

extension StyleProperty {
    /// MapLibre's default `heatmap-color`: transparent blue at density 0 through royal blue, cyan, lime and yellow to
    /// red at density 1 (the spec's default ramp over `heatmap-density`).
    public static let defaultHeatmapColor: StyleProperty = {
        let ramp: JSONValue = .array([
            .string("interpolate"), .array([.string("linear")]), .array([.string("heatmap-density")]),
            .number(0), .string("rgba(0, 0, 255, 0)"), .number(0.1), .string("royalblue"), .number(0.3),
            .string("cyan"), .number(0.5), .string("lime"), .number(0.7), .string("yellow"), .number(1),
            .string("red"),
        ])
        var ignored: [StyleDiagnostic] = []
        let spec = StylePropertySpec.named("heatmap-color")!
        return StyleProperty.parse(ramp, spec: spec, path: "heatmap-color", diagnostics: &ignored)
            ?? StyleProperty(defaultFor: spec)
    }()
}

extension StylePropertySpec {
    /// The heatmap, hillshade and fill-extrusion layers' paint properties, as the spec's `v8.json` lists them.
    static func layerTypePropertySpecs() -> [StylePropertySpec] {
        func spec(
            _ layer: StyleLayerType, _ name: String, _ typeName: String, _ valueType: ExpressionType,
            _ def: ExpressionValue?, dd: Bool = false, interp: Bool = true, values: [String] = [],
            min: Double? = nil, max: Double? = nil
        ) -> StylePropertySpec {
            StylePropertySpec(
                name: name, layerType: layer, isLayout: false, typeName: typeName, valueType: valueType,
                defaultValue: def, isDataDriven: dd, isInterpolated: interp, usesTokens: false, enumValues: values,
                minimum: min, maximum: max)
        }
        func color(_ css: String) -> ExpressionValue { .color(StyleColor(css: css)!) }
        let anchors = ["map", "viewport"]
        return [
            spec(.heatmap, "heatmap-radius", "number", .number, .number(30), dd: true, min: 1),
            spec(.heatmap, "heatmap-weight", "number", .number, .number(1), dd: true, min: 0),
            spec(.heatmap, "heatmap-intensity", "number", .number, .number(1), min: 0),
            // A ramp over `heatmap-density` (evaluated per pixel density); its default is an expression
            // (``StyleProperty/defaultHeatmapColor``).
            spec(.heatmap, "heatmap-color", "color", .color, nil),
            spec(.heatmap, "heatmap-opacity", "number", .number, .number(1), min: 0, max: 1),
            spec(.hillshade, "hillshade-illumination-direction", "number", .number, .number(335), min: 0, max: 359),
            spec(
                .hillshade, "hillshade-illumination-anchor", "enum", .string, .string("viewport"), interp: false,
                values: anchors),
            spec(.hillshade, "hillshade-exaggeration", "number", .number, .number(0.5), min: 0, max: 1),
            spec(.hillshade, "hillshade-shadow-color", "color", .color, color("#000000")),
            spec(.hillshade, "hillshade-highlight-color", "color", .color, color("#FFFFFF")),
            spec(.hillshade, "hillshade-accent-color", "color", .color, color("#000000")),
            spec(.fillExtrusion, "fill-extrusion-opacity", "number", .number, .number(1), min: 0, max: 1),
            spec(.fillExtrusion, "fill-extrusion-color", "color", .color, color("#000000"), dd: true),
            spec(
                .fillExtrusion, "fill-extrusion-translate", "array", .array(.number, 2),
                .array([.number(0), .number(0)])),
            spec(
                .fillExtrusion, "fill-extrusion-translate-anchor", "enum", .string, .string("map"), interp: false,
                values: anchors),
            spec(
                .fillExtrusion, "fill-extrusion-pattern", "resolvedImage", .resolvedImage, nil, dd: true, interp: false),
            spec(.fillExtrusion, "fill-extrusion-height", "number", .number, .number(0), dd: true, min: 0),
            spec(.fillExtrusion, "fill-extrusion-base", "number", .number, .number(0), dd: true, min: 0),
            spec(
                .fillExtrusion, "fill-extrusion-vertical-gradient", "boolean", .boolean, .boolean(true), interp: false),
        ]
    }
}

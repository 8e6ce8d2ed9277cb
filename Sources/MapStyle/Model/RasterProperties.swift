/// The `raster` layer's paint properties (MapLibre style spec, "Layers › raster"), evaluated at one zoom.
///
/// None of them is data-driven (a raster tile has no features); all but `raster-resampling` interpolate over zoom.
/// Values outside the spec's ranges are clamped when the style loads (`StylePropertySpec.minimum` / `maximum`).
public struct RasterPaint: Sendable, Hashable {
    /// `raster-opacity`, 0…1. Default 1.
    public var opacity: Double
    /// `raster-hue-rotate`, degrees turned about the colour wheel. Default 0.
    public var hueRotate: Double
    /// `raster-brightness-min`, 0…1: the output brightness of black. Default 0.
    public var brightnessMin: Double
    /// `raster-brightness-max`, 0…1: the output brightness of white. Default 1.
    public var brightnessMax: Double
    /// `raster-saturation`, −1…1 (−1 grey, 1 fully saturated). Default 0.
    public var saturation: Double
    /// `raster-contrast`, −1…1. Default 0.
    public var contrast: Double
    /// `raster-resampling`: `linear` (bilinear, the default) or `nearest` when the image is scaled.
    public var resamplesNearest: Bool
    /// `raster-fade-duration`, milliseconds (≥ 0) a newly loaded tile takes to fade in. Default 300.
    public var fadeDurationMilliseconds: Double

    /// The spec defaults.
    public init() {
        opacity = 1
        hueRotate = 0
        brightnessMin = 0
        brightnessMax = 1
        saturation = 0
        contrast = 0
        resamplesNearest = false
        fadeDurationMilliseconds = 300
    }

    /// Evaluates `layer`'s raster paint properties at `zoom` (spec defaults for unset ones).
    public init(layer: StyleLayer, zoom: Double) {
        self.init()
        let ctx = EvaluationContext(zoom: zoom)
        func number(_ name: String, _ fallback: Double) -> Double {
            guard let p = layer.property(name), let n = p.evaluate(ctx).number, n.isFinite else { return fallback }
            return n
        }
        opacity = min(max(number("raster-opacity", 1), 0), 1)
        hueRotate = number("raster-hue-rotate", 0)
        brightnessMin = min(max(number("raster-brightness-min", 0), 0), 1)
        brightnessMax = min(max(number("raster-brightness-max", 1), 0), 1)
        saturation = min(max(number("raster-saturation", 0), -1), 1)
        contrast = min(max(number("raster-contrast", 0), -1), 1)
        resamplesNearest = layer.property("raster-resampling")?.evaluate(ctx).stringRepresentation == "nearest"
        fadeDurationMilliseconds = max(0, number("raster-fade-duration", 300))
    }

    /// Whether the colour properties leave pixels unchanged (no per-pixel pass is needed).
    public var isColorIdentity: Bool {
        hueRotate.truncatingRemainder(dividingBy: 360) == 0 && brightnessMin == 0 && brightnessMax == 1
            && saturation == 0 && contrast == 0
    }
}

extension StylePropertySpec {
    /// The raster layer's paint properties, as the spec's `v8.json` lists them.
    static func rasterPropertySpecs() -> [StylePropertySpec] {
        func number(_ name: String, _ def: Double, min: Double? = nil, max: Double? = nil) -> StylePropertySpec {
            StylePropertySpec(
                name: name, layerType: .raster, isLayout: false, typeName: "number", valueType: .number,
                defaultValue: .number(def), isDataDriven: false, isInterpolated: true, usesTokens: false,
                enumValues: [], minimum: min, maximum: max)
        }
        return [
            number("raster-opacity", 1, min: 0, max: 1),
            number("raster-hue-rotate", 0),
            number("raster-brightness-min", 0, min: 0, max: 1),
            number("raster-brightness-max", 1, min: 0, max: 1),
            number("raster-saturation", 0, min: -1, max: 1),
            number("raster-contrast", 0, min: -1, max: 1),
            number("raster-fade-duration", 300, min: 0),
            StylePropertySpec(
                name: "raster-resampling", layerType: .raster, isLayout: false, typeName: "enum",
                valueType: .string, defaultValue: .string("linear"), isDataDriven: false, isInterpolated: false,
                usesTokens: false, enumValues: ["linear", "nearest"], minimum: nil, maximum: nil),
        ]
    }
}

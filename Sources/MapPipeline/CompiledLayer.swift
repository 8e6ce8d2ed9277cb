import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

/// A property the pipeline reads, held by reference so a lookup copies no ``StyleProperty`` (its spec's strings and
/// arrays would be retained and released per read), with its value when that is the same for every evaluation the
/// pipeline asks of it: a constant, or (``CompiledLayer/fixingFeatureConstants(zoom:)``) a feature-constant value at
/// one zoom.
final class CompiledProperty: Sendable {
    let property: StyleProperty
    /// Whether the value is the same for every feature.
    let isFeatureConstant: Bool
    /// The value every evaluation at ``fixedZoom`` gives; `nil`: evaluate.
    let fixed: ExpressionValue?
    /// The zoom ``fixed`` holds for; `nil` with ``fixed`` set: every zoom (a constant).
    let fixedZoom: Double?

    init(_ property: StyleProperty, fixed: ExpressionValue? = nil, fixedZoom: Double? = nil) {
        self.property = property
        isFeatureConstant = property.isFeatureConstant
        if fixed == nil, case .constant(let v) = property.value {
            self.fixed = v
            self.fixedZoom = nil
        } else {
            self.fixed = fixed
            self.fixedZoom = fixedZoom
        }
    }

    /// ``StyleProperty/evaluate(_:)``, from ``fixed`` when it holds for `ctx`'s zoom.
    @inline(__always)
    func evaluate(_ ctx: EvaluationContext) -> ExpressionValue {
        if let fixed, fixedZoom == nil || fixedZoom == ctx.zoom { return fixed }
        return property.evaluate(ctx)
    }
}

/// A style layer with the properties the pipeline reads resolved once (set values or spec defaults).
struct CompiledLayer {
    let layer: StyleLayer
    let index: Int
    private var props: [String: CompiledProperty] = [:]
    /// Whether no paint or layout property the pipeline reads depends on the feature (sort keys aside: they order
    /// features and style none), so one evaluation per layer and zoom styles every feature alike. A `line-gradient`
    /// reads each feature's clip fractions (`lineClip`), so it counts as feature-driven.
    private(set) var isStyleFeatureConstant = true
    /// The layer's filter compiled once for the filter passes (``filterMatcher(zoom:)``); `nil`: no filter.
    let filterProgram: FilterProgram?

    init(_ layer: StyleLayer, index: Int) {
        self.layer = layer
        self.index = index
        filterProgram = layer.filter.map(FilterProgram.init)
        let names: [String]
        switch layer.type {
        case .background: names = ["background-color", "background-opacity", "background-pattern"]
        case .fill:
            names = [
                "fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-sort-key", "fill-translate",
                "fill-translate-anchor", "fill-pattern",
            ]
        case .line:
            names = [
                "line-color", "line-width", "line-opacity", "line-cap", "line-join", "line-miter-limit",
                "line-dasharray", "line-blur", "line-gap-width", "line-offset", "line-translate",
                "line-translate-anchor", "line-pattern",
                "line-round-limit", "line-sort-key", "line-gradient",
            ]
        case .circle:
            names = [
                "circle-radius", "circle-color", "circle-opacity", "circle-stroke-width", "circle-stroke-color",
                "circle-stroke-opacity", "circle-blur", "circle-translate", "circle-translate-anchor",
                "circle-pitch-scale", "circle-pitch-alignment",
                "circle-sort-key",
            ]
        case .raster, .hillshade: names = []  // RasterPaint and HillshadePaint read the layer's properties
        // `heatmap-color` is read per density by HeatmapColorRamp (HeatmapLayers.swift).
        case .heatmap: names = ["heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-opacity"]
        case .fillExtrusion:
            names = [
                "fill-extrusion-opacity", "fill-extrusion-color", "fill-extrusion-translate",
                "fill-extrusion-translate-anchor", "fill-extrusion-pattern", "fill-extrusion-height",
                "fill-extrusion-base", "fill-extrusion-vertical-gradient",
            ]
        case .symbol:
            names = [
                "text-field", "text-font", "text-size", "text-max-width", "text-line-height", "text-letter-spacing",
                "text-justify", "text-anchor", "text-offset", "text-variable-anchor", "text-variable-anchor-offset",
                "text-radial-offset",
                "text-rotate", "text-padding", "text-allow-overlap", "text-ignore-placement", "text-optional",
                "text-transform", "symbol-placement", "symbol-spacing", "text-max-angle", "text-keep-upright",
                "text-pitch-alignment", "text-rotation-alignment", "symbol-z-order", "text-translate",
                "text-translate-anchor",
                "symbol-sort-key", "text-color", "text-halo-color", "text-halo-width", "text-halo-blur",
                "text-opacity", "icon-image", "icon-size", "icon-anchor", "icon-offset", "icon-padding",
                "icon-allow-overlap", "icon-ignore-placement", "icon-optional", "icon-opacity", "icon-color",
                "icon-halo-color", "icon-halo-width", "icon-halo-blur",
                "icon-text-fit", "icon-text-fit-padding", "icon-rotate", "icon-rotation-alignment", "symbol-z-order",
                "icon-translate", "icon-translate-anchor",
                "text-writing-mode",
            ]
        }
        for name in names {
            if let p = layer.property(name) { props[name] = CompiledProperty(p) }
        }
        isStyleFeatureConstant =
            layer.paint["line-gradient"] == nil
            && props.allSatisfy { $0.key.hasSuffix("-sort-key") || $0.value.isFeatureConstant }
    }

    /// This layer with every feature-constant property that is not a constant evaluated once at `zoom`: evaluations
    /// at exactly that zoom read the stored value (the same one, as it depends on no feature), others evaluate.
    func fixingFeatureConstants(zoom: Double) -> CompiledLayer {
        var copy = self
        let globals = EvaluationContext(zoom: zoom)
        for (name, p) in props where p.fixed == nil && p.isFeatureConstant {
            copy.props[name] = CompiledProperty(p.property, fixed: p.property.evaluate(globals), fixedZoom: zoom)
        }
        return copy
    }

    var id: String { layer.id }
    var type: StyleLayerType { layer.type }

    /// Whether the property is set by the style (not a default).
    func isSet(_ name: String) -> Bool { layer.paint[name] != nil || layer.layout[name] != nil }

    /// Whether property `name` is the same for every feature (true when unset).
    func isFeatureConstant(_ name: String) -> Bool { props[name]?.isFeatureConstant ?? true }

    /// Property `name` looked up once, for reading it per feature without hashing its name each time.
    func property(_ name: String) -> PropertyRef { PropertyRef(props[name]) }

    func number(_ name: String, _ ctx: EvaluationContext, _ fallback: Double = 0) -> Double {
        property(name).number(ctx, fallback)
    }

    func color(_ name: String, _ ctx: EvaluationContext) -> RGBAColor? { property(name).color(ctx) }

    func string(_ name: String, _ ctx: EvaluationContext) -> String { property(name).string(ctx) }

    func bool(_ name: String, _ ctx: EvaluationContext) -> Bool { property(name).bool(ctx) }

    func numbers(_ name: String, _ ctx: EvaluationContext) -> [Double] { property(name).numbers(ctx) }

    func strings(_ name: String, _ ctx: EvaluationContext) -> [String] { property(name).strings(ctx) }

    func value(_ name: String, _ ctx: EvaluationContext) -> ExpressionValue { property(name).value(ctx) }

    /// The filter for many features at one zoom (its zoom-only parts evaluated once); `nil`: every feature passes.
    func filterMatcher(zoom: Double) -> FilterMatcher? {
        filterProgram?.matcher(globals: EvaluationContext(zoom: zoom))
    }
}

/// One property of a ``CompiledLayer`` (``CompiledLayer/property(_:)``), read as the layer's accessors read it: an
/// unset property gives the accessor's fallback.
struct PropertyRef {
    let property: CompiledProperty?

    init(_ property: CompiledProperty?) { self.property = property }

    /// Whether the value is the same for every feature (true when unset).
    var isFeatureConstant: Bool { property?.isFeatureConstant ?? true }

    func number(_ ctx: EvaluationContext, _ fallback: Double = 0) -> Double {
        guard let p = property else { return fallback }
        return p.evaluate(ctx).number ?? fallback
    }

    func color(_ ctx: EvaluationContext) -> RGBAColor? {
        guard let c = property?.evaluate(ctx).color else { return nil }
        return RGBAColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }

    /// As ``StyleProperty/string(_:)``; empty when unset.
    func string(_ ctx: EvaluationContext) -> String { property?.evaluate(ctx).stringRepresentation ?? "" }

    /// As ``StyleProperty/boolean(_:)``; `false` when unset.
    func bool(_ ctx: EvaluationContext) -> Bool {
        guard let p = property else { return false }
        return p.evaluate(ctx).boolean ?? false
    }

    /// As ``StyleProperty/numbers(_:)``; empty when unset.
    func numbers(_ ctx: EvaluationContext) -> [Double] { property?.evaluate(ctx).numbers ?? [] }

    func strings(_ ctx: EvaluationContext) -> [String] {
        guard let p = property else { return [] }
        switch p.evaluate(ctx) {
        case .array(let items): return items.map(\.stringRepresentation)
        case .string(let s): return [s]
        default: return []
        }
    }

    func value(_ ctx: EvaluationContext) -> ExpressionValue { property?.evaluate(ctx) ?? .null }
}

/// `text-font` names → Pango families, weight and slant: "Noto Sans Bold" → (["Noto Sans", "sans-serif"], bold,
/// upright), "Noto Sans Italic" → (["Noto Sans", "sans-serif"], regular, italic); the weight and slant are the first
/// name's.
func fontFamilies(_ stack: [String]) -> (families: [String], weight: TextStyle.Weight, italic: Bool) {
    var families: [String] = []
    var weight = TextStyle.Weight.regular
    var italic = false
    let suffixes: [(String, TextStyle.Weight?)] = [
        (" Regular", nil), (" Bold", .bold), (" Medium", .medium), (" Semibold", .bold), (" Italic", nil),
        (" Oblique", nil), (" Light", nil), (" Book", nil),
    ]
    for (i, var name) in stack.enumerated() {
        var changed = true
        while changed {
            changed = false
            for (suffix, w) in suffixes where name.hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
                if i == 0, let w { weight = w }
                if i == 0, suffix == " Italic" || suffix == " Oblique" { italic = true }
                changed = true
            }
        }
        if !name.isEmpty && !families.contains(name) { families.append(name) }
    }
    families.append("sans-serif")
    return (families, weight, italic)
}

/// Replaces `{token}` references in a legacy `text-field` string with feature properties.
func resolveTokens(_ text: String, _ ctx: EvaluationContext) -> String {
    guard text.contains("{") else { return text }
    var out = ""
    var token = ""
    var inToken = false
    for ch in text {
        if inToken {
            if ch == "}" {
                out += ctx.property(token)?.stringRepresentation ?? ""
                token = ""
                inToken = false
            } else {
                token.append(ch)
            }
        } else if ch == "{" {
            inToken = true
        } else {
            out.append(ch)
        }
    }
    if inToken { out += "{" + token }
    return out
}

extension TextAnchor {
    init(styleName: String) { self = TextAnchor(rawValue: styleName) ?? .center }
}

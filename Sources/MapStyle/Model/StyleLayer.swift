/// A compiled layer filter: a boolean expression (legacy filters are converted first).
///
/// A filter whose evaluation fails does not match (style spec: filters evaluate to `false` on error).
public struct StyleFilter: Sendable {
    /// The compiled boolean expression.
    public let expression: StyleExpression

    /// Whether a feature passes the filter.
    /// - Parameter context: zoom and feature.
    /// - Returns: `true` when the filter evaluates to `true`.
    public func matches(_ context: EvaluationContext) -> Bool {
        (try? expression.evaluate(context)) == .boolean(true)
    }

    /// Compiles a filter in legacy or expression form.
    /// - Parameter json: the filter, for example `["==", "class", "park"]` or `["==", ["get", "class"], "park"]`.
    /// - Returns: the filter.
    /// - Throws: ``ExpressionCompileError`` when the expression is invalid or the legacy filter is malformed.
    public static func compile(_ json: JSONValue) throws(ExpressionCompileError) -> StyleFilter {
        let isExpression =
            LegacyConversion.isExpressionFilter(json) || LegacyConversion.hasUnambiguousExpression(json)
        if !isExpression {
            let problems = LegacyConversion.validateLegacyFilter(json)
            if !problems.isEmpty { throw ExpressionCompileError(errors: problems) }
        }
        let expressionJSON = isExpression ? json : LegacyConversion.convertFilter(json)
        let context = ParsingContext(expectedType: .boolean)
        // Filters may use zoom anywhere (not only in a top-level curve), so compile without the curve rule.
        guard let node = context.parseHere(expressionJSON), context.errors.isEmpty else {
            throw ExpressionCompileError(
                errors: context.errors.isEmpty
                    ? [ExpressionParseError(key: "", message: "Invalid filter.")] : context.errors)
        }
        return StyleFilter(expression: StyleExpression(root: node))
    }
}

/// One layer of a style: what to draw (type, source, filter, zoom range) and how (paint and layout properties).
public struct StyleLayer: Sendable {
    /// The unique layer id.
    public var id: String
    /// The layer type.
    public var type: StyleLayerType
    /// The source name; `nil` only for `background`.
    public var source: String?
    /// The layer inside a vector source (`source-layer`), or `nil`.
    public var sourceLayer: String?
    /// The layer is hidden below this zoom, 0…24. Defaults to 0.
    public var minzoom: Double
    /// The layer is hidden at and above this zoom, 0…24. Defaults to 24.
    public var maxzoom: Double
    /// The filter, or `nil` for all features.
    public var filter: StyleFilter?
    /// `false` when `layout.visibility` is `none`.
    public var isVisible: Bool
    /// The paint properties the style sets, by name (others are at their defaults; see ``property(_:)``).
    public var paint: [String: StyleProperty]
    /// The layout properties the style sets, by name.
    public var layout: [String: StyleProperty]

    /// The property `name` as set, or at its spec default when unset; `nil` when Waymark does not know the name or
    /// it belongs to another layer type. Properties without a spec default (`fill-outline-color`, `*-pattern`,
    /// `icon-image`, `*-sort-key`) evaluate to `.null` when unset: `fill-outline-color` then means "use
    /// `fill-color`", a sort key means "document order".
    /// - Parameter name: a paint or layout property name, for example `line-width`.
    /// - Returns: the property.
    public func property(_ name: String) -> StyleProperty? {
        if let p = paint[name] ?? layout[name] { return p }
        guard let spec = StylePropertySpec.named(name), spec.layerType == type || spec.layerType == nil else {
            return nil
        }
        return StyleProperty(defaultFor: spec)
    }

    /// Whether the layer shows at a zoom level: visible, `minzoom ≤ zoom < maxzoom`. A `minzoom` of 0 hides nothing,
    /// so at the negative style zooms of a camera below zoom 1 (`MapRenderer.styleZoom(for:)`, the zoom convention)
    /// the layers without a positive `minzoom` still show, as in MapLibre GL JS.
    /// - Parameter zoom: the style zoom.
    /// - Returns: `true` when it shows.
    public func isVisible(atZoom zoom: Double) -> Bool {
        isVisible && (minzoom <= 0 || zoom >= minzoom) && zoom < maxzoom
    }
}

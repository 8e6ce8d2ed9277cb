/// What a style property allows of an expression (the style spec's `property-type` and `expression` fields).
public struct ExpressionPropertySpec: Sendable, Equatable {
    /// The value type the property needs, or `nil` to accept any type.
    public var type: ExpressionType?
    /// Whether feature data may drive it (`property-type: data-driven`). Defaults to `true`.
    public var isDataDriven: Bool
    /// Whether `zoom` may drive it (`expression.parameters` contains `zoom`). Defaults to `true`.
    public var supportsZoom: Bool
    /// Whether `interpolate` may be used on zoom (`expression.interpolated`). Defaults to `true`.
    public var supportsInterpolation: Bool
    /// Whether a `value` result is converted with `to-string` (string properties) rather than asserted (enums).
    /// Defaults to `type == .string`.
    public var coercesToString: Bool

    /// Creates a specification.
    /// - Parameters:
    ///   - type: required value type, or `nil` for any. Defaults to `nil`.
    ///   - isDataDriven: whether feature data may drive the value. Defaults to `true`.
    ///   - supportsZoom: whether zoom may drive the value. Defaults to `true`.
    ///   - supportsInterpolation: whether zoom curves may interpolate. Defaults to `true`.
    ///   - coercesToString: whether `value` results are coerced to strings. Defaults to `type == .string`.
    public init(
        type: ExpressionType? = nil, isDataDriven: Bool = true, supportsZoom: Bool = true,
        supportsInterpolation: Bool = true, coercesToString: Bool? = nil
    ) {
        self.coercesToString = coercesToString ?? (type == .string)
        self.type = type
        self.isDataDriven = isDataDriven
        self.supportsZoom = supportsZoom
        self.supportsInterpolation = supportsInterpolation
    }
}

/// All the problems found while compiling one expression.
public struct ExpressionCompileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in the order found; never empty.
    public var errors: [ExpressionParseError]

    /// The problems joined with `; `.
    public var description: String { errors.map(\.description).joined(separator: "; ") }
}

/// A parsed, type-checked expression of the MapLibre style specification, ready to evaluate.
///
/// Immutable and `Sendable`: compile once per style, evaluate from any thread.
/// Source: MapLibre style specification, "Expressions" (https://maplibre.org/maplibre-style-spec/expressions/).
public struct StyleExpression: Sendable {
    let root: ExpressionNode

    /// The static result type.
    public let type: ExpressionType
    /// `true` when the result does not depend on the feature (no `get`, `has`, `properties`, `id`,
    /// `geometry-type`).
    public let isFeatureConstant: Bool
    /// `true` when the result does not depend on the zoom level.
    public let isZoomConstant: Bool

    init(root: ExpressionNode) {
        self.root = root
        self.type = root.type
        self.isFeatureConstant = ExpressionAnalysis.isFeatureConstant(root)
        self.isZoomConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, ["zoom"])
    }

    /// Compiles an expression for a property.
    /// - Parameters:
    ///   - json: the expression, for example `["get", "name"]`; bare strings, numbers, booleans and `null` are
    ///     literals.
    ///   - spec: what the property allows. Defaults to any type, data- and zoom-driven.
    /// - Returns: the compiled expression.
    /// - Throws: ``ExpressionCompileError`` listing every problem with its key (`[1][2]`).
    public static func compile(_ json: JSONValue, spec: ExpressionPropertySpec = ExpressionPropertySpec())
        throws(ExpressionCompileError) -> StyleExpression
    {
        let context = ParsingContext(expectedType: spec.type)
        let node = context.parseHere(json, annotation: spec.coercesToString ? .coerce : nil)
        guard let node, context.errors.isEmpty else {
            let errors =
                context.errors.isEmpty
                ? [ExpressionParseError(key: "", message: "Invalid expression.")] : context.errors
            throw ExpressionCompileError(errors: errors)
        }
        let expression = StyleExpression(root: node)
        func fail(_ message: String) -> ExpressionCompileError {
            ExpressionCompileError(errors: [ExpressionParseError(key: "", message: message)])
        }
        if !expression.isFeatureConstant && !spec.isDataDriven { throw fail("data expressions not supported") }
        if !expression.isZoomConstant && !spec.supportsZoom { throw fail("zoom expressions not supported") }
        switch ExpressionAnalysis.findZoomCurve(node) {
        case .none:
            if !expression.isZoomConstant { throw fail(ExpressionAnalysis.zoomOnlyMessage) }
        case .error(let message): throw fail(message)
        case .curve(let curve):
            if curve is InterpolateNode && !spec.supportsInterpolation {
                throw fail(#""interpolate" expressions cannot be used with this property"#)
            }
        }
        return expression
    }

    /// Evaluates the expression.
    /// - Parameter context: zoom and feature.
    /// - Returns: the value; its type fits ``type`` (or is `null` for `value`-typed results).
    /// - Throws: ``ExpressionEvaluationError`` when a run-time check fails (for example `["number", "a"]`).
    public func evaluate(_ context: EvaluationContext) throws(ExpressionEvaluationError) -> ExpressionValue {
        try root.evaluate(context)
    }

    /// Evaluates with no feature at the given zoom, or `nil` on an evaluation error.
    /// - Parameter zoom: the zoom level. Defaults to 0.
    /// - Returns: the value or `nil`.
    public func evaluate(zoom: Double = 0) -> ExpressionValue? {
        try? root.evaluate(EvaluationContext(zoom: zoom))
    }
}

/// A paint or layout property as a style sets it: a constant, a zoom-driven or a data-driven expression.
///
/// Evaluation never fails: a `null` result, an enum value outside the allowed set, or an evaluation error gives the
/// spec default (style spec "Expressions": a failed evaluation falls back to the property's default); numbers are
/// clamped to the spec's minimum and maximum.
public struct StyleProperty: Sendable {
    /// How the value is given.
    public enum Value: Sendable {
        /// The same value everywhere.
        case constant(ExpressionValue)
        /// An expression (possibly converted from a legacy function).
        case expression(StyleExpression)
    }

    /// The property's specification (type, default, limits).
    public let spec: StylePropertySpec
    /// The value.
    public let value: Value

    /// Creates a property.
    /// - Parameters:
    ///   - spec: the specification.
    ///   - value: the value; constants should already have the spec's type.
    public init(spec: StylePropertySpec, value: Value) {
        self.spec = spec
        self.value = value
    }

    /// A property at its spec default.
    /// - Parameter spec: the specification.
    public init(defaultFor spec: StylePropertySpec) {
        self.spec = spec
        self.value = .constant(spec.defaultValue ?? .null)
    }

    /// The property name.
    public var name: String { spec.name }

    /// `true` when the value depends on neither zoom nor feature.
    public var isConstant: Bool {
        if case .constant = value { return true }
        return false
    }

    /// `true` when the value does not depend on the zoom level.
    public var isZoomConstant: Bool {
        if case .expression(let e) = value { return e.isZoomConstant }
        return true
    }

    /// `true` when the value does not depend on the feature.
    public var isFeatureConstant: Bool {
        if case .expression(let e) = value { return e.isFeatureConstant }
        return true
    }

    /// The constant value, or `nil` when an expression drives the property.
    public var constantValue: ExpressionValue? {
        if case .constant(let v) = value { return v }
        return nil
    }

    /// The value for a zoom and feature (see the type's documentation for fallbacks).
    /// - Parameter context: zoom and feature.
    /// - Returns: the value, or the spec default (`.null` when the spec has none).
    public func evaluate(_ context: EvaluationContext) -> ExpressionValue {
        switch value {
        case .constant(let v): return v
        case .expression(let e):
            guard let v = try? e.evaluate(context) else { return spec.defaultValue ?? .null }
            return normalize(v)
        }
    }

    func normalize(_ v: ExpressionValue) -> ExpressionValue {
        switch v {
        case .null: return spec.defaultValue ?? .null
        case .number(let n):
            if n.isNaN { return spec.defaultValue ?? .null }
            var x = n
            if let lo = spec.minimum { x = Swift.max(lo, x) }
            if let hi = spec.maximum { x = Swift.min(hi, x) }
            return .number(x)
        case .string(let s) where !spec.enumValues.isEmpty:
            return spec.enumValues.contains(s) ? v : (spec.defaultValue ?? .null)
        default: return v
        }
    }

    /// The value as a number (0 when the value is not a number).
    /// - Parameter context: zoom and feature.
    /// - Returns: the number, clamped to the spec's range.
    public func number(_ context: EvaluationContext) -> Double { evaluate(context).number ?? 0 }

    /// The value as a colour (transparent when it is not a colour).
    /// - Parameter context: zoom and feature.
    /// - Returns: the colour.
    public func color(_ context: EvaluationContext) -> StyleColor { evaluate(context).color ?? .transparent }

    /// The value as a string: enums, strings, formatted text (sections joined), image names.
    /// - Parameter context: zoom and feature.
    /// - Returns: the string, empty for `null`.
    public func string(_ context: EvaluationContext) -> String { evaluate(context).stringRepresentation }

    /// The value as a boolean (`false` when it is not a boolean).
    /// - Parameter context: zoom and feature.
    /// - Returns: the boolean.
    public func boolean(_ context: EvaluationContext) -> Bool { evaluate(context).boolean ?? false }

    /// The value as numbers (for `*-translate`, `*-offset`, `line-dasharray`, and `icon-padding` as
    /// `[top, right, bottom, left]`); empty when it is not an array.
    /// - Parameter context: zoom and feature.
    /// - Returns: the numbers.
    public func numbers(_ context: EvaluationContext) -> [Double] { evaluate(context).numbers }

    /// The value as strings (for `text-font`); empty when it is not an array.
    /// - Parameter context: zoom and feature.
    /// - Returns: the strings.
    public func strings(_ context: EvaluationContext) -> [String] {
        guard case .array(let items) = evaluate(context) else { return [] }
        return items.map(\.stringRepresentation)
    }

    /// Parses a property value from style JSON, reporting problems and falling back to the default.
    static func parse(_ json: JSONValue, spec: StylePropertySpec, path: String, diagnostics: inout [StyleDiagnostic])
        -> StyleProperty?
    {
        var expressionJSON = json
        let isFunction = LegacyConversion.isFunction(json)
        if isFunction {
            if json["stops"] == nil && json["type"]?.stringValue != "identity" {
                diagnostics.append(.init(.error, path: path, "missing required property \"stops\"; using the default"))
                return nil
            }
            if spec.typeName == "formatted" || spec.typeName == "resolvedImage",
                json["stops"] == nil, json["property"] == nil
            {
                diagnostics.append(.init(.error, path: path, "a function needs \"stops\" or \"property\""))
                return nil
            }
            expressionJSON = LegacyConversion.convertFunction(json, spec.legacyInfo)
        } else if spec.usesTokens, case .string(let s) = json {
            expressionJSON = LegacyConversion.convertTokenString(s)
        }
        // Non-expression arrays are literals (for example `line-dasharray: [2, 1]`, `text-font: ["Noto Sans"]`).
        if case .array(let items) = expressionJSON, let first = items.first {
            if case .string(let op) = first, ExpressionRegistry.isOperator(op) {
                // an expression
            } else {
                expressionJSON = .array([.string("literal"), expressionJSON])
            }
        } else if case .array(let items) = expressionJSON, items.isEmpty {
            expressionJSON = .array([.string("literal"), expressionJSON])
        }
        do {
            let expression = try StyleExpression.compile(expressionJSON, spec: spec.expressionSpec)
            let property = StyleProperty(spec: spec, value: .expression(expression))
            // Fold constants; `line-progress` and `heatmap-density` vary per fragment, so they are not.
            if expression.isFeatureConstant && expression.isZoomConstant
                && ExpressionAnalysis.isGlobalPropertyConstant(expression.root, ["line-progress", "heatmap-density"])
            {
                do {
                    let v = try expression.evaluate(EvaluationContext())
                    if case .number(let n) = v {
                        if let lo = spec.minimum, n < lo {
                            diagnostics.append(
                                .init(
                                    .error, path: path,
                                    "\(ExpressionValue.formatNumber(n)) is less than the minimum value "
                                        + "\(ExpressionValue.formatNumber(lo)); clamped"))
                        } else if let hi = spec.maximum, n > hi {
                            diagnostics.append(
                                .init(
                                    .error, path: path,
                                    "\(ExpressionValue.formatNumber(n)) is greater than the maximum value "
                                        + "\(ExpressionValue.formatNumber(hi)); clamped"))
                        }
                    }
                    return StyleProperty(spec: spec, value: .constant(property.normalize(v)))
                } catch {
                    diagnostics.append(.init(.error, path: path, "\(error.message); using the default"))
                    return nil
                }
            }
            return property
        } catch {
            // Errors inside a converted legacy function are reported at the property (their expression keys do
            // not exist in the file).
            for e in error.errors {
                diagnostics.append(
                    .init(.error, path: isFunction ? path : path + e.key, "\(e.message); using the default"))
            }
            return nil
        }
    }
}

extension ExpressionRegistry {
    /// Whether `name` is an expression operator (a special form, a compound operator or `feature-state`).
    static func isOperator(_ name: String) -> Bool {
        specialForms[name] != nil || compound[name] != nil || name == "feature-state"
    }
}

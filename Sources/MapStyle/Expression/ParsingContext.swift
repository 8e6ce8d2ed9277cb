/// A problem found while parsing an expression: the key (`[2][1]`, relative to the expression root) and the message.
public struct ExpressionParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the expression, as `[i][j]…` indexes into the nested arrays; empty for the root.
    public var key: String
    /// The message, worded as MapLibre words it where practical.
    public var message: String

    /// `key: message` (or just the message at the root).
    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}

/// How a sub-expression of type `value` is adapted to a required type.
enum TypeAnnotation {
    case assert, coerce, omit
}

/// The state of a parse: the path to the current node, its expected type, the `let` scope and the shared error list.
final class ParsingContext {
    final class ErrorList {
        var errors: [ExpressionParseError] = []
    }

    let path: [Int]
    let expectedType: ExpressionType?
    let scope: [String: ExpressionNode]
    let errorList: ErrorList

    init(
        path: [Int] = [], expectedType: ExpressionType? = nil, scope: [String: ExpressionNode] = [:],
        errorList: ErrorList = ErrorList()
    ) {
        self.path = path
        self.expectedType = expectedType
        self.scope = scope
        self.errorList = errorList
    }

    var errors: [ExpressionParseError] { errorList.errors }
    var key: String { path.map { "[\($0)]" }.joined() }

    /// Records an error at this node (or at `keys` below it) and returns `nil` for convenient `return error(…)`.
    @discardableResult
    func error(_ message: String, _ keys: Int...) -> ExpressionNode? {
        let k = (path + keys).map { "[\($0)]" }.joined()
        errorList.errors.append(ExpressionParseError(key: k, message: message))
        return nil
    }

    /// Checks `t` against `expected`, recording an error when it does not fit; returns the message or `nil`.
    @discardableResult
    func checkSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> String? {
        let message = ExpressionType.checkSubtype(expected, t)
        if let message { error(message) }
        return message
    }

    func concat(_ index: Int, _ expected: ExpressionType?, _ bindings: [(String, ExpressionNode)] = [])
        -> ParsingContext
    {
        var newScope = scope
        for (name, node) in bindings { newScope[name] = node }
        return ParsingContext(path: path + [index], expectedType: expected, scope: newScope, errorList: errorList)
    }

    /// Parses a child at argument `index` with an expected type.
    func parse(
        _ json: JSONValue, _ index: Int, _ expected: ExpressionType? = nil,
        bindings: [(String, ExpressionNode)] = [], annotation: TypeAnnotation? = nil
    ) -> ExpressionNode? {
        concat(index, expected, bindings).parseHere(json, annotation: annotation)
    }

    /// Parses `json` as the node this context describes.
    func parseHere(_ json: JSONValue, annotation: TypeAnnotation? = nil) -> ExpressionNode? {
        var expr = json
        switch json {
        case .null, .string, .bool, .number:
            expr = .array([.string("literal"), json])
        case .object:
            return error(#"Bare objects invalid. Use ["literal", {...}] instead."#)
        case .array:
            break
        }
        guard case .array(let args) = expr else { return nil }
        guard let first = args.first else {
            return error(
                #"Expected an array with at least one element. If you wanted a literal array, use ["literal", []]."#)
        }
        guard case .string(let op) = first else {
            return error(
                "Expression name must be a string, but found \(first.typeName) instead. "
                    + #"If you wanted a literal array, use ["literal", [...]]."#, 0)
        }
        var parsedNode: ExpressionNode?
        if let special = ExpressionRegistry.specialForms[op] {
            parsedNode = special(self, args)
        } else if let overloads = ExpressionRegistry.compound[op] {
            parsedNode = parseCompound(op, overloads, args)
        } else if op == "feature-state" {
            return error(#""feature-state" is not supported: Waymark has no feature state."#, 0)
        } else {
            return error(#"Unknown expression "\#(op)". If you wanted a literal array, use ["literal", [...]]."#, 0)
        }
        guard var parsed = parsedNode else { return nil }
        if let expected = expectedType {
            let actual = parsed.type
            let simple: Set<String> = ["string", "number", "boolean", "object", "array"]
            let coercible: Set<String> = ["color", "formatted", "resolvedImage"]
            let arrayLike: [ExpressionType: Set<String>] = [
                .padding: ["value", "number", "array"], .numberArray: ["value", "number", "array"],
                .colorArray: ["value", "string", "array"], .projectionDefinition: ["value", "string", "array"],
            ]
            if simple.contains(expected.kind) && actual == .value {
                parsed = annotate(parsed, expected, annotation ?? .assert)
            } else if coercible.contains(expected.kind) && (actual == .value || actual == .string) {
                parsed = annotate(parsed, expected, annotation ?? .coerce)
            } else if let kinds = arrayLike[expected], kinds.contains(actual.kind) {
                parsed = annotate(parsed, expected, annotation ?? .coerce)
            } else if checkSubtype(expected, actual) != nil {
                return nil
            }
        }
        if !(parsed is LiteralNode) && parsed.type != .resolvedImage && ExpressionAnalysis.isConstant(parsed) {
            do {
                let value = try parsed.evaluate(EvaluationContext())
                return LiteralNode(value, type: parsed.type)
            } catch {
                return self.error(error.message)
            }
        }
        return parsed
    }

    func annotate(_ node: ExpressionNode, _ type: ExpressionType, _ mode: TypeAnnotation) -> ExpressionNode {
        switch mode {
        case .assert: return AssertionNode(type: type, args: [node])
        case .coerce: return CoercionNode(type: type, args: [node])
        case .omit: return node
        }
    }

    func parseCompound(_ op: String, _ definitions: [ExpressionRegistry.Overload], _ args: [JSONValue])
        -> ExpressionNode?
    {
        let argCount = args.count - 1
        let overloads = definitions.filter {
            if case .fixed(let p) = $0.params { return p.count == argCount }
            return true
        }
        var signatureContext: ParsingContext?
        for overload in overloads {
            let sc = ParsingContext(path: path, expectedType: nil, scope: scope)
            signatureContext = sc
            var parsedArgs: [ExpressionNode] = []
            var failed = false
            for i in 1..<max(1, args.count) where args.count > 1 {
                let expected: ExpressionType
                switch overload.params {
                case .fixed(let p): expected = p[i - 1]
                case .varargs(let t): expected = t
                }
                guard let parsed = sc.parse(args[i], 1 + parsedArgs.count, expected) else {
                    failed = true
                    break
                }
                parsedArgs.append(parsed)
            }
            if failed { continue }
            for (i, arg) in parsedArgs.enumerated() {
                let expected: ExpressionType
                switch overload.params {
                case .fixed(let p): expected = p[i]
                case .varargs(let t): expected = t
                }
                sc.concat(i + 1, nil).checkSubtype(expected, arg.type)
            }
            if sc.errors.isEmpty {
                // `["get", "literal key"]`: a specialised node skips evaluating the key (the hottest operator).
                if op == "get", parsedArgs.count == 1, let key = (parsedArgs[0] as? LiteralNode)?.value.string {
                    return GetPropertyNode(key: key, keyNode: parsedArgs[0], implementation: overload.impl)
                }
                return CompoundNode(name: op, type: overload.result, args: parsedArgs, implementation: overload.impl)
            }
        }
        if overloads.count == 1, let sc = signatureContext {
            errorList.errors.append(contentsOf: sc.errors)
        } else {
            let shown = overloads.isEmpty ? definitions : overloads
            let expected = shown.map { overload -> String in
                switch overload.params {
                case .fixed(let p): return "(" + p.map(\.description).joined(separator: ", ") + ")"
                case .varargs(let t): return "(\(t)...)"
                }
            }.joined(separator: " | ")
            var actual: [String] = []
            for i in 1..<max(1, args.count) where args.count > 1 {
                guard let parsed = parse(args[i], 1 + actual.count) else { return nil }
                actual.append(parsed.type.description)
            }
            error("Expected arguments of type \(expected), but found (\(actual.joined(separator: ", "))) instead.")
        }
        return nil
    }
}

/// Static analyses over parsed trees (constness, zoom curves).
enum ExpressionAnalysis {
    static let featureOps: Set<String> = ["properties", "geometry-type", "id", "filter-type"]

    static func isFeatureConstant(_ node: ExpressionNode) -> Bool {
        if let c = node as? CompoundNode {
            if (c.name == "get" || c.name == "has") && c.args.count == 1 { return false }
            if featureOps.contains(c.name) { return false }
        }
        if node is WithinNode { return false }
        return node.children.allSatisfy(isFeatureConstant)
    }

    static func isGlobalPropertyConstant(_ node: ExpressionNode, _ names: Set<String>) -> Bool {
        if let c = node as? CompoundNode, names.contains(c.name) { return false }
        return node.children.allSatisfy { isGlobalPropertyConstant($0, names) }
    }

    static let globalNames: Set<String> = [
        "zoom", "heatmap-density", "line-progress", "accumulated", "is-supported-script",
    ]

    static func isConstant(_ node: ExpressionNode) -> Bool {
        if let v = node as? VarNode { return isConstant(v.bound) }
        if let c = node as? CompoundNode, c.name == "error" { return false }
        if node is CollatorNode || node is ImageNode || node is GlobalStateNode { return false }
        let isAnnotation = node is AssertionNode || node is CoercionNode
        for child in node.children {
            if isAnnotation ? !isConstant(child) : !(child is LiteralNode) { return false }
        }
        return isFeatureConstant(node) && isGlobalPropertyConstant(node, globalNames)
    }

    static let zoomOnlyMessage =
        #""zoom" expression may only be used as input to a top-level "step" or "interpolate" expression."#

    enum ZoomCurve {
        case none
        case curve(ExpressionNode)
        case error(String)
    }

    /// Finds the single top-level zoom `step`/`interpolate` (style spec: zoom may only drive such a curve).
    static func findZoomCurve(_ node: ExpressionNode) -> ZoomCurve {
        var result = ZoomCurve.none
        if let l = node as? LetNode {
            result = findZoomCurve(l.result)
        } else if let c = node as? CoalesceNode {
            for arg in c.args {
                result = findZoomCurve(arg)
                if case .none = result { continue }
                break
            }
        } else if let s = node as? StepNode, let input = s.input as? CompoundNode, input.name == "zoom" {
            result = .curve(node)
        } else if let s = node as? InterpolateNode, let input = s.input as? CompoundNode, input.name == "zoom" {
            result = .curve(node)
        }
        if case .error = result { return result }
        for child in node.children {
            let childResult = findZoomCurve(child)
            switch (childResult, result) {
            case (.error, _): result = childResult
            case (.curve, .none): result = .error(zoomOnlyMessage)
            case (.curve(let a), .curve(let b)) where a !== b:
                result = .error(
                    #"Only one zoom-based "step" or "interpolate" subexpression may be used in an expression."#)
            default: break
            }
        }
        return result
    }
}

#if canImport(Glibc)
    import Glibc  // libc math: the platform C library, as in WaymarkTime
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operator table: special forms with their own parsers, and signature-checked compound operators.
enum ExpressionRegistry {
    typealias Implementation = @Sendable (EvaluationContext, [ExpressionNode]) throws(EvalError) -> ExpressionValue
    typealias SpecialParser = @Sendable (ParsingContext, [JSONValue]) -> ExpressionNode?

    enum Params {
        case fixed([ExpressionType])
        case varargs(ExpressionType)
    }

    struct Overload {
        let params: Params
        let result: ExpressionType
        let impl: Implementation
    }

    // MARK: Compound operators

    static func number(_ node: ExpressionNode, _ ctx: EvaluationContext) throws(EvalError) -> Double {
        let v = try node.evaluate(ctx)
        guard case .number(let n) = v else {
            throw EvalError("Expected value to be of type number, but found \(v.type) instead.")
        }
        return n
    }

    static func string(_ node: ExpressionNode, _ ctx: EvaluationContext) throws(EvalError) -> String {
        let v = try node.evaluate(ctx)
        guard case .string(let s) = v else {
            throw EvalError("Expected value to be of type string, but found \(v.type) instead.")
        }
        return s
    }

    static func unary(_ f: @escaping @Sendable (Double) -> Double) -> [Overload] {
        [
            Overload(params: .fixed([.number]), result: .number) { (ctx, a) throws(EvalError) in
                .number(f(try number(a[0], ctx)))
            }
        ]
    }

    static func binary(_ f: @escaping @Sendable (Double, Double) -> Double) -> [Overload] {
        [
            Overload(params: .fixed([.number, .number]), result: .number) { (ctx, a) throws(EvalError) in
                .number(f(try number(a[0], ctx), try number(a[1], ctx)))
            }
        ]
    }

    static func constant(_ v: Double) -> [Overload] {
        [Overload(params: .fixed([]), result: .number) { (_, _) throws(EvalError) in .number(v) }]
    }

    static func rgba(_ values: [Double]) throws(EvalError) -> ExpressionValue {
        if let message = CoercionNode.validateRGBA(values) { throw EvalError(message) }
        return .color(
            StyleColor(
                red: values[0] / 255, green: values[1] / 255, blue: values[2] / 255,
                alpha: values.count > 3 ? values[3] : 1))
    }

    static let compound: [String: [Overload]] = {
        var d: [String: [Overload]] = [:]
        d["error"] = [
            Overload(params: .fixed([.string]), result: .error) { (ctx, a) throws(EvalError) in
                throw EvalError(try string(a[0], ctx))
            }
        ]
        d["typeof"] = [
            Overload(params: .fixed([.value]), result: .string) { (ctx, a) throws(EvalError) in
                .string(try a[0].evaluate(ctx).type.description)
            }
        ]
        d["to-rgba"] = [
            Overload(params: .fixed([.color]), result: .array(.number, 4)) { (ctx, a) throws(EvalError) in
                guard case .color(let c) = try a[0].evaluate(ctx) else { throw EvalError("Expected a color.") }
                return .array([.number(c.red * 255), .number(c.green * 255), .number(c.blue * 255), .number(c.alpha)])
            }
        ]
        d["rgb"] = [
            Overload(params: .fixed([.number, .number, .number]), result: .color) { (ctx, a) throws(EvalError) in
                try rgba([try number(a[0], ctx), try number(a[1], ctx), try number(a[2], ctx)])
            }
        ]
        d["rgba"] = [
            Overload(params: .fixed([.number, .number, .number, .number]), result: .color) {
                (ctx, a) throws(EvalError) in
                try rgba([try number(a[0], ctx), try number(a[1], ctx), try number(a[2], ctx), try number(a[3], ctx)])
            }
        ]
        d["has"] = [
            Overload(params: .fixed([.string]), result: .boolean) { (ctx, a) throws(EvalError) in
                .boolean(ctx.property(try string(a[0], ctx)) != nil)
            },
            Overload(params: .fixed([.string, .object]), result: .boolean) { (ctx, a) throws(EvalError) in
                let key = try string(a[0], ctx)
                guard case .object(let o) = try a[1].evaluate(ctx) else { return .boolean(false) }
                return .boolean(o[key] != nil)
            },
        ]
        d["get"] = [
            Overload(params: .fixed([.string]), result: .value) { (ctx, a) throws(EvalError) in
                ctx.property(try string(a[0], ctx)) ?? .null
            },
            Overload(params: .fixed([.string, .object]), result: .value) { (ctx, a) throws(EvalError) in
                let key = try string(a[0], ctx)
                guard case .object(let o) = try a[1].evaluate(ctx) else { return .null }
                return o[key] ?? .null
            },
        ]
        d["properties"] = [
            Overload(params: .fixed([]), result: .object) { (ctx, _) throws(EvalError) in .object(ctx.allProperties) }
        ]
        d["geometry-type"] = [
            Overload(params: .fixed([]), result: .string) { (ctx, _) throws(EvalError) in
                ctx.resolvedGeometryType.map { .string($0.rawValue) } ?? .null
            }
        ]
        // Legacy `$type` filters: the single-part geometry name (MultiPolygon → Polygon).
        d["filter-type"] = [
            Overload(params: .fixed([]), result: .string) { (ctx, _) throws(EvalError) in
                ctx.resolvedGeometryType.map { .string($0.legacyName) } ?? .null
            }
        ]
        d["id"] = [Overload(params: .fixed([]), result: .value) { (ctx, _) throws(EvalError) in ctx.resolvedID }]
        d["zoom"] = [
            Overload(params: .fixed([]), result: .number) { (ctx, _) throws(EvalError) in .number(ctx.zoom ?? 0) }
        ]
        d["heatmap-density"] = [
            Overload(params: .fixed([]), result: .number) { (ctx, _) throws(EvalError) in
                .number(ctx.heatmapDensity ?? 0)
            }
        ]
        d["line-progress"] = [
            Overload(params: .fixed([]), result: .number) { (ctx, _) throws(EvalError) in
                .number(ctx.lineProgress ?? 0)
            }
        ]
        d["+"] = [
            Overload(params: .varargs(.number), result: .number) { (ctx, a) throws(EvalError) in
                var sum = 0.0
                for arg in a { sum += try number(arg, ctx) }
                return .number(sum)
            }
        ]
        d["*"] = [
            Overload(params: .varargs(.number), result: .number) { (ctx, a) throws(EvalError) in
                var product = 1.0
                for arg in a { product *= try number(arg, ctx) }
                return .number(product)
            }
        ]
        d["-"] = [
            Overload(params: .fixed([.number, .number]), result: .number) { (ctx, a) throws(EvalError) in
                .number(try number(a[0], ctx) - number(a[1], ctx))
            },
            Overload(params: .fixed([.number]), result: .number) { (ctx, a) throws(EvalError) in
                .number(-(try number(a[0], ctx)))
            },
        ]
        d["/"] = binary { $0 / $1 }
        d["%"] = binary { $0.truncatingRemainder(dividingBy: $1) }
        d["^"] = binary { pow($0, $1) }
        d["ln2"] = constant(M_LN2)
        d["pi"] = constant(Double.pi)
        d["e"] = constant(M_E)
        d["sqrt"] = unary { $0.squareRoot() }
        d["log10"] = unary { log10($0) }
        d["ln"] = unary { log($0) }
        d["log2"] = unary { log2($0) }
        d["sin"] = unary { sin($0) }
        d["cos"] = unary { cos($0) }
        d["tan"] = unary { tan($0) }
        d["asin"] = unary { asin($0) }
        d["acos"] = unary { acos($0) }
        d["atan"] = unary { atan($0) }
        d["abs"] = unary { abs($0) }
        d["floor"] = unary { $0.rounded(.down) }
        d["ceil"] = unary { $0.rounded(.up) }
        d["round"] = unary { $0.rounded(.toNearestOrAwayFromZero) }
        d["min"] = [
            Overload(params: .varargs(.number), result: .number) { (ctx, a) throws(EvalError) in
                var m = Double.infinity
                for arg in a {
                    let v = try number(arg, ctx)
                    if v.isNaN { return .number(.nan) }
                    m = min(m, v)
                }
                return .number(m)
            }
        ]
        d["max"] = [
            Overload(params: .varargs(.number), result: .number) { (ctx, a) throws(EvalError) in
                var m = -Double.infinity
                for arg in a {
                    let v = try number(arg, ctx)
                    if v.isNaN { return .number(.nan) }
                    m = max(m, v)
                }
                return .number(m)
            }
        ]
        d["!"] = [
            Overload(params: .fixed([.boolean]), result: .boolean) { (ctx, a) throws(EvalError) in
                .boolean(!(try a[0].evaluate(ctx) == .boolean(true)))
            }
        ]
        d["is-supported-script"] = [
            Overload(params: .fixed([.string]), result: .boolean) { (ctx, a) throws(EvalError) in
                _ = try string(a[0], ctx)
                return .boolean(true)  // Pango shapes every script Waymark's fonts cover.
            }
        ]
        d["upcase"] = [
            Overload(params: .fixed([.string]), result: .string) { (ctx, a) throws(EvalError) in
                .string(try string(a[0], ctx).uppercased())
            }
        ]
        d["downcase"] = [
            Overload(params: .fixed([.string]), result: .string) { (ctx, a) throws(EvalError) in
                .string(try string(a[0], ctx).lowercased())
            }
        ]
        d["concat"] = [
            Overload(params: .varargs(.value), result: .string) { (ctx, a) throws(EvalError) in
                var s = ""
                for arg in a { s += try arg.evaluate(ctx).stringRepresentation }
                return .string(s)
            }
        ]
        d["split"] = [
            Overload(params: .fixed([.string, .string]), result: .array(.string, nil)) { (ctx, a) throws(EvalError) in
                let text = try string(a[0], ctx)
                let separator = try string(a[1], ctx)
                if separator.isEmpty { return .array(text.map { .string(String($0)) }) }
                return .array(
                    text.split(separator: separator, omittingEmptySubsequences: false).map { .string(String($0)) })
            }
        ]
        d["join"] = [
            Overload(params: .fixed([.array(.string, nil), .string]), result: .string) { (ctx, a) throws(EvalError) in
                guard case .array(let items) = try a[0].evaluate(ctx) else { throw EvalError("Expected an array.") }
                return .string(items.map(\.stringRepresentation).joined(separator: try string(a[1], ctx)))
            }
        ]
        d["resolved-locale"] = [
            Overload(params: .fixed([.collator]), result: .string) { (ctx, a) throws(EvalError) in
                // Waymark's collator has no locale tailoring (root/English ordering), so that is what it resolves to.
                _ = try a[0].evaluate(ctx)
                return .string("en")
            }
        ]
        return d
    }()

    // MARK: Special forms

    static let specialForms: [String: SpecialParser] = {
        var d: [String: SpecialParser] = [:]
        d["literal"] = parseLiteral
        d["let"] = parseLet
        d["var"] = parseVar
        for name in ["array", "boolean", "number", "string", "object"] { d[name] = parseAssertion }
        for name in ["to-boolean", "to-color", "to-number", "to-string"] { d[name] = parseCoercion }
        d["at"] = parseAt
        d["in"] = parseIn
        d["index-of"] = parseIndexOf
        d["slice"] = parseSlice
        d["length"] = parseLength
        d["case"] = parseCase
        d["match"] = parseMatch
        d["coalesce"] = parseCoalesce
        d["step"] = parseStep
        for name in ["interpolate", "interpolate-hcl", "interpolate-lab"] { d[name] = parseInterpolate }
        for name in ["==", "!=", "<", "<=", ">", ">="] { d[name] = parseComparison }
        d["all"] = { c, a in parseLogical(c, a, isAll: true) }
        d["any"] = { c, a in parseLogical(c, a, isAll: false) }
        d["collator"] = parseCollator
        d["format"] = parseFormat
        d["image"] = parseImage
        d["number-format"] = parseNumberFormat
        d["semiliteral"] = parseSemiliteral
        d["global-state"] = parseGlobalState
        d["within"] = parseWithin
        return d
    }()

    static func parseLiteral(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else {
            return c.error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        let value = ExpressionValue(json: args[1])
        var type = value.type
        if case .array(_, let n) = type, n == 0, let expected = c.expectedType, case .array(_, let en) = expected,
            en == nil || en == 0
        {
            type = expected
        }
        return LiteralNode(value, type: type)
    }

    static func parseSemiliteral(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else {
            return c.error(
                "'semiliteral' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        guard case .array(let elements) = args[1] else { return parseLiteral(c, args) }
        var items: [ExpressionNode] = []
        for (i, element) in elements.enumerated() {
            guard let node = c.concat(1, nil).parse(element, i) else { return nil }
            items.append(node)
        }
        var itemType: ExpressionType?
        for item in items {
            if itemType == nil {
                itemType = item.type
            } else if itemType != item.type {
                itemType = .value
            }
        }
        return ArrayNode(type: .array(itemType ?? .value, items.count), items: items)
    }

    static func parseWithin(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else {
            return c.error("'within' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        guard let polygons = WithinNode.polygons(fromGeoJSON: args[1]) else {
            return c.error(
                "'within' expression requires valid geojson object that contains polygon geometry type.", 1)
        }
        return WithinNode(polygons: polygons)
    }

    static func parseGlobalState(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2, case .string(let key) = args[1] else {
            return c.error("Global state property must be a single string literal.")
        }
        return GlobalStateNode(key: key)
    }

    static func parseLet(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 4 else {
            return c.error("Expected at least 3 arguments, but found \(args.count - 1) instead.")
        }
        var bindings: [(String, ExpressionNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard case .string(let name) = args[i] else {
                return c.error("Expected string, but found \(args[i].typeName) instead.", i)
            }
            if name.isEmpty
                || !name.unicodeScalars.allSatisfy({
                    $0.properties.isASCIIHexDigit
                        || ($0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)))
                })
            {
                return c.error("Variable names must contain only alphanumeric characters or '_'.", i)
            }
            guard let value = c.parse(args[i + 1], i + 1) else { return nil }
            bindings.append((name, value))
            i += 2
        }
        guard let result = c.parse(args[args.count - 1], args.count - 1, c.expectedType, bindings: bindings) else {
            return nil
        }
        return LetNode(bindings: bindings, result: result)
    }

    static func parseVar(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2, case .string(let name) = args[1] else {
            return c.error("'var' expression requires exactly one string literal argument.")
        }
        guard let bound = c.scope[name] else {
            return c.error(
                "Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" "
                    + "expression before using it.", 1)
        }
        return VarNode(name: name, bound: bound)
    }

    static func parseAssertion(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 2, case .string(let name) = args[0] else {
            return c.error("Expected at least one argument.")
        }
        var i = 1
        let type: ExpressionType
        if name == "array" {
            var itemType = ExpressionType.value
            var n: Int?
            if args.count > 2 {
                let names: [String: ExpressionType] = ["string": .string, "number": .number, "boolean": .boolean]
                guard case .string(let t) = args[1], let it = names[t] else {
                    return c.error(#"The item type argument of "array" must be one of string, number, boolean"#, 1)
                }
                itemType = it
                i += 1
            }
            if args.count > 3 {
                if args[2] != .null {
                    guard case .number(let len) = args[2], len >= 0, len == len.rounded(.down), len < 1e9 else {
                        return c.error(#"The length argument to "array" must be a positive integer literal"#, 2)
                    }
                    n = Int(len)
                }
                i += 1
            }
            type = .array(itemType, n)
        } else {
            let names: [String: ExpressionType] = [
                "boolean": .boolean, "number": .number, "string": .string, "object": .object,
            ]
            type = names[name]!
        }
        var parsed: [ExpressionNode] = []
        while i < args.count {
            guard let input = c.parse(args[i], i, .value) else { return nil }
            parsed.append(input)
            i += 1
        }
        return AssertionNode(type: type, args: parsed)
    }

    static func parseCoercion(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 2, case .string(let name) = args[0] else {
            return c.error("Expected at least one argument.")
        }
        let types: [String: ExpressionType] = [
            "to-boolean": .boolean, "to-color": .color, "to-number": .number, "to-string": .string,
        ]
        if (name == "to-boolean" || name == "to-string") && args.count != 2 { return c.error("Expected one argument.") }
        var parsed: [ExpressionNode] = []
        for i in 1..<args.count {
            guard let p = c.parse(args[i], i, .value) else { return nil }
            parsed.append(p)
        }
        return CoercionNode(type: types[name]!, args: parsed)
    }

    static func parseAt(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 3 else { return c.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        guard let index = c.parse(args[1], 1, .number),
            let input = c.parse(args[2], 2, .array(c.expectedType ?? .value, nil))
        else { return nil }
        guard case .array(let item, _) = input.type else { return nil }
        return AtNode(type: item, index: index, input: input)
    }

    static let needleKinds: Set<String> = ["boolean", "string", "number", "null", "value"]

    static func parseIn(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 3 else { return c.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        guard let needle = c.parse(args[1], 1, .value), let haystack = c.parse(args[2], 2, .value) else { return nil }
        if !needleKinds.contains(needle.type.kind) {
            return c.error(
                "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) "
                    + "instead")
        }
        if !["string", "array", "value"].contains(haystack.type.kind) {
            return c.error(
                "Expected second argument to be of type array or string, but found \(haystack.type) instead")
        }
        return InNode(needle: needle, haystack: haystack)
    }

    static func parseIndexOf(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 3 || args.count == 4 else {
            return c.error("Expected 3 or 4 arguments, but found \(args.count - 1) instead.")
        }
        guard let needle = c.parse(args[1], 1, .value), let haystack = c.parse(args[2], 2, .value) else { return nil }
        if !needleKinds.contains(needle.type.kind) {
            return c.error(
                "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) "
                    + "instead")
        }
        var from: ExpressionNode?
        if args.count == 4 {
            guard let f = c.parse(args[3], 3, .number) else { return nil }
            from = f
        }
        return IndexOfNode(needle: needle, haystack: haystack, fromIndex: from)
    }

    static func parseSlice(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 3 || args.count == 4 else {
            return c.error("Expected 3 or 4 arguments, but found \(args.count - 1) instead.")
        }
        guard let input = c.parse(args[1], 1, .value), let begin = c.parse(args[2], 2, .number) else { return nil }
        if !["array", "string", "value"].contains(input.type.kind) {
            return c.error(
                "Expected first argument to be of type array or string, but found \(input.type) instead")
        }
        var end: ExpressionNode?
        if args.count == 4 {
            guard let e = c.parse(args[3], 3, .number) else { return nil }
            end = e
        }
        return SliceNode(type: input.type, input: input, begin: begin, end: end)
    }

    static func parseLength(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else { return c.error("Expected 1 argument, but found \(args.count - 1) instead.") }
        guard let input = c.parse(args[1], 1) else { return nil }
        if !["array", "string", "value"].contains(input.type.kind) {
            return c.error("Expected argument of type string or array, but found \(input.type) instead.")
        }
        return LengthNode(input: input)
    }

    static func outputType(_ c: ParsingContext) -> ExpressionType? {
        if let e = c.expectedType, e != .value { return e }
        return nil
    }

    static func parseCase(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 4 else {
            return c.error("Expected at least 3 arguments, but found only \(args.count - 1).")
        }
        guard args.count % 2 == 0 else { return c.error("Expected an odd number of arguments.") }
        var out = outputType(c)
        var branches: [(ExpressionNode, ExpressionNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard let test = c.parse(args[i], i, .boolean), let result = c.parse(args[i + 1], i + 1, out) else {
                return nil
            }
            branches.append((test, result))
            out = out ?? result.type
            i += 2
        }
        guard let otherwise = c.parse(args[args.count - 1], args.count - 1, out), let type = out else { return nil }
        return CaseNode(type: type, branches: branches, otherwise: otherwise)
    }

    static func parseMatch(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 5 else {
            return c.error("Expected at least 4 arguments, but found only \(args.count - 1).")
        }
        guard args.count % 2 == 1 else { return c.error("Expected an even number of arguments.") }
        var inputType: ExpressionType?
        var out = outputType(c)
        var cases: [MatchLabel: Int] = [:]
        var outputs: [ExpressionNode] = []
        var i = 2
        while i < args.count - 1 {
            var labels: [JSONValue]
            if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
            let labelContext = c.concat(i, nil)
            if labels.isEmpty { return labelContext.error("Expected at least one branch label.") }
            for label in labels {
                let key: MatchLabel
                let labelType: ExpressionType
                switch label {
                case .number(let n):
                    if abs(n) > 9_007_199_254_740_991 {
                        return labelContext.error("Branch labels must be integers no larger than 9007199254740991.")
                    }
                    if n != n.rounded(.down) {
                        return labelContext.error("Numeric branch labels must be integer values.")
                    }
                    key = .number(n)
                    labelType = .number
                case .string(let s):
                    key = .string(s)
                    labelType = .string
                default:
                    return labelContext.error("Branch labels must be numbers or strings.")
                }
                if let it = inputType {
                    if labelContext.checkSubtype(it, labelType) != nil { return nil }
                } else {
                    inputType = labelType
                }
                if cases[key] != nil { return labelContext.error("Branch labels must be unique.") }
                cases[key] = outputs.count
            }
            guard let result = c.parse(args[i + 1], i + 1, out) else { return nil }
            out = out ?? result.type
            outputs.append(result)
            i += 2
        }
        guard let input = c.parse(args[1], 1, .value),
            let otherwise = c.parse(args[args.count - 1], args.count - 1, out), let inType = inputType,
            let outType = out
        else { return nil }
        if input.type != .value && c.concat(1, nil).checkSubtype(inType, input.type) != nil { return nil }
        return MatchNode(
            inputType: inType, outputType: outType, input: input, cases: cases, outputs: outputs, otherwise: otherwise)
    }

    static func parseCoalesce(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 2 else { return c.error("Expectected at least one argument.") }
        var out = outputType(c)
        var parsed: [ExpressionNode] = []
        for i in 1..<args.count {
            guard let p = c.parse(args[i], i, out, annotation: .omit) else { return nil }
            out = out ?? p.type
            parsed.append(p)
        }
        guard let type = out else { return nil }
        if let expected = c.expectedType,
            parsed.contains(where: { ExpressionType.checkSubtype(expected, $0.type) != nil })
        {
            return CoalesceNode(type: .value, args: parsed)
        }
        return CoalesceNode(type: type, args: parsed)
    }

    static func parseStep(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count - 1 >= 4 else {
            return c.error("Expected at least 4 arguments, but found only \(args.count - 1).")
        }
        guard (args.count - 1) % 2 == 0 else { return c.error("Expected an even number of arguments.") }
        guard let input = c.parse(args[1], 1, .number) else { return nil }
        let out = outputType(c)
        guard let stops = parseStops(c, args, from: 1, op: "step", output: out) else { return nil }
        return StepNode(type: stops.type, input: input, labels: stops.labels, outputs: stops.outputs)
    }

    /// The input/output pairs of `step` (from index 1, whose first input is the implicit −∞ in place of a label)
    /// and `interpolate` (from index 3): literal, strictly ascending inputs, outputs parsed against the output type
    /// (`output`, or the first output's type when `nil`). `nil` after recording the error at the offending index.
    private static func parseStops(
        _ c: ParsingContext, _ args: [JSONValue], from start: Int, op: String, output: ExpressionType?
    ) -> (labels: [Double], outputs: [ExpressionNode], type: ExpressionType)? {
        var out = output
        var labels: [Double] = []
        var outputs: [ExpressionNode] = []
        var i = start
        while i < args.count {
            let label: Double
            if op == "step" && i == start {
                label = -.infinity
            } else {
                guard case .number(let n) = args[i] else {
                    _ = c.error(
                        "Input/output pairs for \"\(op)\" expressions must be defined using literal numeric values "
                            + "(not computed expressions) for the input values.", i)
                    return nil
                }
                label = n
            }
            if let last = labels.last, last >= label {
                _ = c.error(
                    "Input/output pairs for \"\(op)\" expressions must be arranged with input values in strictly "
                        + "ascending order.", i)
                return nil
            }
            guard let parsed = c.parse(args[i + 1], i + 1, out) else { return nil }
            out = out ?? parsed.type
            labels.append(label)
            outputs.append(parsed)
            i += 2
        }
        guard let type = out else { return nil }
        return (labels, outputs, type)
    }

    static func parseInterpolate(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard case .string(let op) = args[0] else { return nil }
        guard args.count > 1, case .array(let interpolation) = args[1], case .string(let kind)? = interpolation.first
        else {
            return c.error("Expected an interpolation type expression.", 1)
        }
        let curve: InterpolationCurve
        switch kind {
        case "linear": curve = .linear
        case "exponential":
            guard interpolation.count > 1, case .number(let base) = interpolation[1] else {
                return c.error("Exponential interpolation requires a numeric base.", 1, 1)
            }
            curve = .exponential(base: base)
        case "cubic-bezier":
            let points = interpolation.dropFirst().compactMap(\.numberValue)
            guard interpolation.count == 5, points.count == 4, points.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                return c.error(
                    "Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
            }
            curve = .cubicBezier(points[0], points[1], points[2], points[3])
        default:
            return c.error("Unknown interpolation type \(kind)", 1, 0)
        }
        guard args.count - 1 >= 4 else {
            return c.error("Expected at least 4 arguments, but found only \(args.count - 1).")
        }
        guard (args.count - 1) % 2 == 0 else { return c.error("Expected an even number of arguments.") }
        guard let input = c.parse(args[2], 2, .number) else { return nil }
        let out: ExpressionType? =
            op == "interpolate" ? outputType(c) : (c.expectedType == .colorArray ? .colorArray : .color)
        guard let (labels, outputs, type) = parseStops(c, args, from: 3, op: "interpolate", output: out) else {
            return nil
        }
        let interpolatableTypes: [ExpressionType] = [
            .number, .color, .padding, .numberArray, .colorArray, .projectionDefinition,
        ]
        var interpolatable = interpolatableTypes.contains(type)
        if case .array(.number, let n?) = type, n > 0 { interpolatable = true }
        if !interpolatable {
            return c.error("Type \(type) is not interpolatable.")
        }
        let space: InterpolateNode.ColorSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
        return InterpolateNode(type: type, curve: curve, space: space, input: input, labels: labels, outputs: outputs)
    }

    static func parseComparison(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard case .string(let op) = args[0] else { return nil }
        guard args.count == 3 || args.count == 4 else { return c.error("Expected two or three arguments.") }
        let isOrdering = op != "==" && op != "!="
        func comparable(_ t: ExpressionType) -> Bool {
            isOrdering
                ? ["string", "number", "value"].contains(t.kind)
                : ["boolean", "string", "number", "null", "value"].contains(t.kind)
        }
        guard let lhs = c.parse(args[1], 1, .value) else { return nil }
        if !comparable(lhs.type) {
            return c.concat(1, nil).error("\"\(op)\" comparisons are not supported for type '\(lhs.type)'.")
        }
        guard let rhs = c.parse(args[2], 2, .value) else { return nil }
        if !comparable(rhs.type) {
            return c.concat(2, nil).error("\"\(op)\" comparisons are not supported for type '\(rhs.type)'.")
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            return c.error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
        }
        var collator: ExpressionNode?
        if args.count == 4 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                return c.error("Cannot use collator to compare non-string types.")
            }
            guard let col = c.parse(args[3], 3, .collator) else { return nil }
            collator = col
        }
        return ComparisonNode(op: op, lhs: lhs, rhs: rhs, collator: collator)
    }

    static func parseLogical(_ c: ParsingContext, _ args: [JSONValue], isAll: Bool) -> ExpressionNode? {
        var parsed: [ExpressionNode] = []
        for i in 1..<max(1, args.count) where args.count > 1 {
            guard let p = c.parse(args[i], i, .boolean) else { return nil }
            parsed.append(p)
        }
        return LogicalNode(isAll: isAll, args: parsed)
    }

    static func parseCollator(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else { return c.error("Expected one argument.") }
        guard case .object(let options) = args[1] else {
            return c.error("Collator options argument must be an object.")
        }
        guard let cs = c.parse(options["case-sensitive"] ?? .bool(false), 1, .boolean),
            let ds = c.parse(options["diacritic-sensitive"] ?? .bool(false), 1, .boolean)
        else { return nil }
        var locale: ExpressionNode?
        if let l = options["locale"] {
            guard let p = c.parse(l, 1, .string) else { return nil }
            locale = p
        }
        return CollatorNode(caseSensitive: cs, diacriticSensitive: ds, locale: locale)
    }

    static func parseImage(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 2 else { return c.error("Expected two arguments.") }
        guard let name = c.parse(args[1], 1, .string) else { return nil }
        return ImageNode(name: name)
    }

    static func parseNumberFormat(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count == 3 else { return c.error("Expected two arguments.") }
        guard let number = c.parse(args[1], 1, .number) else { return nil }
        guard case .object(let options) = args[2] else {
            return c.error("NumberFormat options argument must be an object.")
        }
        func option(_ key: String, _ type: ExpressionType) -> (ok: Bool, node: ExpressionNode?) {
            guard let v = options[key] else { return (true, nil) }
            let p = c.parse(v, 1, type)
            return (p != nil, p)
        }
        let locale = option("locale", .string)
        let currency = option("currency", .string)
        let unit = option("unit", .string)
        let minDigits = option("min-fraction-digits", .number)
        let maxDigits = option("max-fraction-digits", .number)
        guard locale.ok, currency.ok, unit.ok, minDigits.ok, maxDigits.ok else { return nil }
        if currency.node != nil && unit.node != nil {
            return c.error("NumberFormat options `currency` and `unit` are mutually exclusive")
        }
        return NumberFormatNode(
            number: number, locale: locale.node, currency: currency.node, unit: unit.node,
            minFractionDigits: minDigits.node, maxFractionDigits: maxDigits.node)
    }

    static func parseFormat(_ c: ParsingContext, _ args: [JSONValue]) -> ExpressionNode? {
        guard args.count >= 2 else { return c.error("Expected at least one argument.") }
        if case .object = args[1] { return c.error("First argument must be an image or text section.") }
        var sections: [FormatNode.Section] = []
        var nextMayBeObject = false
        for i in 1..<args.count {
            if nextMayBeObject, case .object(let options) = args[i] {
                nextMayBeObject = false
                var last = sections.removeLast()
                if let v = options["font-scale"] {
                    guard let p = c.parse(v, 1, .number) else { return nil }
                    last.scale = p
                }
                if let v = options["text-font"] {
                    guard let p = c.parse(v, 1, .array(.string, nil)) else { return nil }
                    last.font = p
                }
                if let v = options["text-color"] {
                    guard let p = c.parse(v, 1, .color) else { return nil }
                    last.textColor = p
                }
                if let v = options["vertical-align"] {
                    guard let p = c.parse(v, 1, .string) else { return nil }
                    last.verticalAlign = p
                }
                sections.append(last)
            } else {
                guard let content = c.parse(args[i], 1, .value) else { return nil }
                if !["string", "value", "null", "resolvedImage"].contains(content.type.kind) {
                    return c.error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                }
                nextMayBeObject = true
                sections.append(FormatNode.Section(content: content))
            }
        }
        return FormatNode(sections: sections)
    }
}

#if canImport(Glibc)
    import Glibc  // libc math (pow, atan2, …): the platform C library, as in WaymarkTime
#elseif canImport(Darwin)
    import Darwin
#endif

/// One node of a parsed, type-checked expression tree.
class ExpressionNode: @unchecked Sendable {
    /// The static result type.
    let type: ExpressionType

    init(type: ExpressionType) { self.type = type }

    func evaluate(_ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> ExpressionValue {
        preconditionFailure("ExpressionNode.evaluate must be overridden by \(Swift.type(of: self))")
    }

    /// The direct sub-expressions, for the constness analyses.
    var children: [ExpressionNode] { [] }
}

typealias EvalError = ExpressionEvaluationError

/// A constant.
final class LiteralNode: ExpressionNode, @unchecked Sendable {
    let value: ExpressionValue
    init(_ value: ExpressionValue, type: ExpressionType) {
        self.value = value
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue { value }
}

/// A call of a signature-checked operator (`+`, `get`, `zoom`, …).
final class CompoundNode: ExpressionNode, @unchecked Sendable {
    let name: String
    let args: [ExpressionNode]
    let implementation: @Sendable (EvaluationContext, [ExpressionNode]) throws(EvalError) -> ExpressionValue
    init(
        name: String, type: ExpressionType, args: [ExpressionNode],
        implementation: @escaping @Sendable (EvaluationContext, [ExpressionNode]) throws(EvalError) -> ExpressionValue
    ) {
        self.name = name
        self.args = args
        self.implementation = implementation
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        try implementation(ctx, args)
    }
    override var children: [ExpressionNode] { args }
}

/// `["get", key]` with a literal key: a feature property lookup. It stays a ``CompoundNode`` named `get` for the
/// constness analyses.
final class GetPropertyNode: ExpressionNode, @unchecked Sendable {
    let key: String
    let node: CompoundNode
    init(
        key: String, keyNode: ExpressionNode,
        implementation: @escaping @Sendable (EvaluationContext, [ExpressionNode]) throws(EvalError) -> ExpressionValue
    ) {
        self.key = key
        self.node = CompoundNode(name: "get", type: .value, args: [keyNode], implementation: implementation)
        super.init(type: .value)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        ctx.property(key) ?? .null
    }
    override var children: [ExpressionNode] { [node] }
}

/// `array`, `boolean`, `number`, `string`, `object`: the first argument whose value has the type, else an error.
final class AssertionNode: ExpressionNode, @unchecked Sendable {
    let args: [ExpressionNode]
    init(type: ExpressionType, args: [ExpressionNode]) {
        self.args = args
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        for (i, arg) in args.enumerated() {
            let value = try arg.evaluate(ctx)
            if ExpressionType.checkSubtype(type, value.type) == nil { return value }
            if i == args.count - 1 {
                throw EvalError(
                    "Expected value to be of type \(type), but found \(value.type) instead.")
            }
        }
        throw EvalError("Expected value to be of type \(type).")
    }
    override var children: [ExpressionNode] { args }
}

/// `to-boolean`, `to-number`, `to-string`, `to-color` and the implicit coercions to `formatted` and `resolvedImage`.
final class CoercionNode: ExpressionNode, @unchecked Sendable {
    let args: [ExpressionNode]
    init(type: ExpressionType, args: [ExpressionNode]) {
        self.args = args
        super.init(type: type)
    }
    override var children: [ExpressionNode] { args }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        switch type {
        case .boolean:
            let v = try args[0].evaluate(ctx)
            return .boolean(CoercionNode.truthy(v))
        case .string:
            return .string(try args[0].evaluate(ctx).stringRepresentation)
        case .number:
            var last: ExpressionValue = .null
            for arg in args {
                last = try arg.evaluate(ctx)
                if last == .null { return .number(0) }
                if let n = CoercionNode.toNumber(last), !n.isNaN { return .number(n) }
            }
            throw EvalError("Could not convert \(last.jsonText) to number.")
        case .color:
            var last: ExpressionValue = .null
            var arrayError: String?
            for arg in args {
                last = try arg.evaluate(ctx)
                arrayError = nil
                switch last {
                case .color: return last
                case .string(let s):
                    if let c = StyleColor(css: s) { return .color(c) }
                case .array(let items) where items.count == 3 || items.count == 4:
                    if let c = try? CoercionNode.colorFromComponents(items) {
                        return .color(c)
                    } else {
                        arrayError = "Invalid rgba value \(last.jsonText)"
                    }
                default: break
                }
            }
            if let arrayError { throw EvalError(arrayError) }
            throw EvalError("Could not parse color from value '\(last.string ?? last.jsonText)'")
        case .formatted:
            let v = try args[0].evaluate(ctx)
            if case .formatted = v { return v }
            if case .image(let name, _) = v {
                return .formatted(FormattedText(sections: [.init(text: "", image: name)]))
            }
            return .formatted(FormattedText(sections: [.init(text: v.stringRepresentation)]))
        case .padding, .numberArray, .colorArray, .projectionDefinition:
            return try CoercionNode.toArrayLike(type, try args[0].evaluate(ctx))
        case .resolvedImage:
            let v = try args[0].evaluate(ctx)
            if case .image = v { return v }
            let name = v.stringRepresentation
            return .image(name: name, available: ctx.availableImages?.contains(name) ?? false)
        default:
            return try args[0].evaluate(ctx)
        }
    }

    /// The coercions to `padding`, `numberArray`, `colorArray` and `projectionDefinition`.
    static func toArrayLike(_ type: ExpressionType, _ v: ExpressionValue) throws(EvalError) -> ExpressionValue {
        func fail() -> EvalError {
            let shown = v.string ?? (v == .null ? "null" : v.jsonText)
            return EvalError("Could not parse \(type) from value '\(shown)'")
        }
        switch (type, v) {
        case (.padding, .padding), (.numberArray, .numberArray), (.colorArray, .colorArray): return v
        case (.projectionDefinition, .projectionTransition), (.projectionDefinition, .string): return v
        case (.padding, .number(let n)): return .padding([n, n, n, n])
        case (.padding, .array(let items)):
            let n = items.compactMap(\.number)
            guard n.count == items.count else { throw fail() }
            switch n.count {
            case 1: return .padding([n[0], n[0], n[0], n[0]])
            case 2: return .padding([n[0], n[1], n[0], n[1]])
            case 3: return .padding([n[0], n[1], n[2], n[1]])
            case 4: return .padding(n)
            default: throw fail()
            }
        case (.numberArray, .number(let n)): return .numberArray([n])
        case (.numberArray, .array(let items)):
            let n = items.compactMap(\.number)
            guard n.count == items.count else { throw fail() }
            return .numberArray(n)
        case (.colorArray, .color(let c)): return .colorArray([c])
        case (.colorArray, .string(let s)):
            guard let c = StyleColor(css: s) else { throw fail() }
            return .colorArray([c])
        case (.colorArray, .array(let items)):
            var colors: [StyleColor] = []
            for item in items {
                if case .color(let c) = item {
                    colors.append(c)
                } else if let s = item.string, let c = StyleColor(css: s) {
                    colors.append(c)
                } else {
                    throw fail()
                }
            }
            return .colorArray(colors)
        case (.projectionDefinition, .array(let items)):
            guard items.count == 3, let from = items[0].string, let to = items[1].string, let t = items[2].number else {
                throw fail()
            }
            return .array([.string(from), .string(to), .number(t)])
        default: throw fail()
        }
    }

    static func truthy(_ v: ExpressionValue) -> Bool {
        switch v {
        case .null: return false
        case .boolean(let b): return b
        case .number(let n): return !(n == 0 || n.isNaN)
        case .string(let s): return !s.isEmpty
        default: return true
        }
    }

    /// JavaScript `Number(value)` for the value kinds that matter.
    static func toNumber(_ v: ExpressionValue) -> Double? {
        switch v {
        case .number(let n): return n
        case .boolean(let b): return b ? 1 : 0
        case .string(let s):
            let t = s.trimmingASCIIWhitespace()
            if t.isEmpty { return 0 }
            if t == "Infinity" || t == "+Infinity" { return .infinity }
            if t == "-Infinity" { return -.infinity }
            if t.lowercased().hasPrefix("0x"), let v = UInt64(t.dropFirst(2), radix: 16) { return Double(v) }
            if t.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) { return nil }
            return Double(t)
        default: return nil
        }
    }

    /// `[r, g, b]` or `[r, g, b, a]` with r, g, b in 0…255 and a in 0…1.
    static func colorFromComponents(_ items: [ExpressionValue]) throws(EvalError) -> StyleColor {
        var values: [Double] = []
        for item in items {
            guard let n = item.number else { throw EvalError("Invalid rgba value") }
            values.append(n)
        }
        if let message = validateRGBA(values) { throw EvalError(message) }
        return StyleColor(
            red: values[0] / 255, green: values[1] / 255, blue: values[2] / 255,
            alpha: values.count == 4 ? values[3] : 1)
    }

    static func validateRGBA(_ v: [Double]) -> String? {
        let list = v.map(ExpressionValue.formatNumber).joined(separator: ", ")
        for c in v.prefix(3) where !(c >= 0 && c <= 255) {
            return "Invalid rgba value [\(list)]: 'r', 'g', and 'b' must be between 0 and 255."
        }
        if v.count == 4 && !(v[3] >= 0 && v[3] <= 1) {
            return "Invalid rgba value [\(list)]: 'a' must be between 0 and 1."
        }
        return nil
    }
}

/// `let`: binds names to sub-expressions for `var`.
final class LetNode: ExpressionNode, @unchecked Sendable {
    let bindings: [(String, ExpressionNode)]
    let result: ExpressionNode
    init(bindings: [(String, ExpressionNode)], result: ExpressionNode) {
        self.bindings = bindings
        self.result = result
        super.init(type: result.type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue { try result.evaluate(ctx) }
    override var children: [ExpressionNode] { bindings.map(\.1) + [result] }
}

/// `var`: the value of a `let` binding (evaluated where it is used).
final class VarNode: ExpressionNode, @unchecked Sendable {
    let name: String
    let bound: ExpressionNode
    init(name: String, bound: ExpressionNode) {
        self.name = name
        self.bound = bound
        super.init(type: bound.type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue { try bound.evaluate(ctx) }
}

/// `case`: the output of the first branch whose condition is true, else the fallback.
final class CaseNode: ExpressionNode, @unchecked Sendable {
    let branches: [(ExpressionNode, ExpressionNode)]
    let otherwise: ExpressionNode
    init(type: ExpressionType, branches: [(ExpressionNode, ExpressionNode)], otherwise: ExpressionNode) {
        self.branches = branches
        self.otherwise = otherwise
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        for (test, output) in branches where try test.evaluate(ctx) == .boolean(true) {
            return try output.evaluate(ctx)
        }
        return try otherwise.evaluate(ctx)
    }
    override var children: [ExpressionNode] { branches.flatMap { [$0.0, $0.1] } + [otherwise] }
}

/// A `match` label: a number or a string.
enum MatchLabel: Hashable {
    case number(Double)
    case string(String)
}

/// `match`: the output whose label equals the input, else the fallback.
final class MatchNode: ExpressionNode, @unchecked Sendable {
    let inputType: ExpressionType
    let input: ExpressionNode
    let cases: [MatchLabel: Int]
    let outputs: [ExpressionNode]
    let otherwise: ExpressionNode
    /// The string labels and their outputs when there are at most ``linearLimit``: compared one by one, which for the
    /// short labels filters use (`"park"`, `"primary"`) is cheaper than hashing the input; `nil` uses ``cases``.
    let stringCases: [(label: String, index: Int)]?
    /// The most string labels searched one by one.
    static let linearLimit = 12
    init(
        inputType: ExpressionType, outputType: ExpressionType, input: ExpressionNode, cases: [MatchLabel: Int],
        outputs: [ExpressionNode], otherwise: ExpressionNode
    ) {
        self.inputType = inputType
        self.input = input
        self.cases = cases
        self.outputs = outputs
        self.otherwise = otherwise
        var strings: [(label: String, index: Int)] = []
        for (label, index) in cases {
            if case .string(let s) = label { strings.append((s, index)) }
        }
        // A fixed order (the dictionary's differs between parses of one style; the engine hashes the structure).
        strings.sort { $0.index != $1.index ? $0.index < $1.index : $0.label < $1.label }
        stringCases =
            inputType == .string && strings.count == cases.count && strings.count <= Self.linearLimit ? strings : nil
        super.init(type: outputType)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let v = try input.evaluate(ctx)
        if let stringCases {
            if case .string(let s) = v {
                for c in stringCases where c.label == s { return try outputs[c.index].evaluate(ctx) }
            }
            return try otherwise.evaluate(ctx)
        }
        let label: MatchLabel?
        switch v {
        case .number(let n) where inputType == .number: label = .number(n)
        case .string(let s) where inputType == .string: label = .string(s)
        default: label = nil
        }
        if let label, let index = cases[label] { return try outputs[index].evaluate(ctx) }
        return try otherwise.evaluate(ctx)
    }
    override var children: [ExpressionNode] { [input] + outputs + [otherwise] }
}

/// `coalesce`: the first non-null argument.
final class CoalesceNode: ExpressionNode, @unchecked Sendable {
    let args: [ExpressionNode]
    init(type: ExpressionType, args: [ExpressionNode]) {
        self.args = args
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        var result: ExpressionValue = .null
        for (i, arg) in args.enumerated() {
            result = try arg.evaluate(ctx)
            if case .image(_, let available) = result, !available, i < args.count - 1 { continue }
            if result != .null { break }
        }
        return result
    }
    override var children: [ExpressionNode] { args }
}

/// `all` / `any` with short-circuit evaluation.
final class LogicalNode: ExpressionNode, @unchecked Sendable {
    let isAll: Bool
    let args: [ExpressionNode]
    init(isAll: Bool, args: [ExpressionNode]) {
        self.isAll = isAll
        self.args = args
        super.init(type: .boolean)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        for arg in args {
            let v = try arg.evaluate(ctx) == .boolean(true)
            if isAll && !v { return .boolean(false) }
            if !isAll && v { return .boolean(true) }
        }
        return .boolean(isAll)
    }
    override var children: [ExpressionNode] { args }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=`, optionally with a collator.
final class ComparisonNode: ExpressionNode, @unchecked Sendable {
    enum Operator {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }
    let op: String
    let kind: Operator
    let isOrdering: Bool
    let lhs: ExpressionNode
    let rhs: ExpressionNode
    let collator: ExpressionNode?
    let hasUntypedArgument: Bool
    init(op: String, lhs: ExpressionNode, rhs: ExpressionNode, collator: ExpressionNode?) {
        self.op = op
        switch op {
        case "==": kind = .equal
        case "!=": kind = .notEqual
        case "<": kind = .less
        case "<=": kind = .lessOrEqual
        case ">": kind = .greater
        default: kind = .greaterOrEqual
        }
        self.isOrdering = op != "==" && op != "!="
        self.lhs = lhs
        self.rhs = rhs
        self.collator = collator
        self.hasUntypedArgument = lhs.type == .value || rhs.type == .value
        super.init(type: .boolean)
    }
    override var children: [ExpressionNode] { [lhs, rhs] + (collator.map { [$0] } ?? []) }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        let a = try lhs.evaluate(ctx)
        let b = try rhs.evaluate(ctx)
        if isOrdering && hasUntypedArgument {
            let ak = a.type.kind
            let bk = b.type.kind
            if ak != bk || !(ak == "string" || ak == "number") {
                throw EvalError(
                    "Expected arguments for \"\(op)\" to be (string, string) or (number, number), but found "
                        + "(\(ak), \(bk)) instead.")
            }
        }
        if let collatorNode = collator {
            guard case .collator(let c) = try collatorNode.evaluate(ctx) else { return .boolean(false) }
            if !isOrdering && hasUntypedArgument {
                guard case .string = a, case .string = b else {
                    return .boolean(kind == .notEqual ? !(a == b) : a == b)
                }
            }
            guard let sa = a.string, let sb = b.string else { return .boolean(false) }
            return .boolean(ComparisonNode.apply(kind, c.compare(sa, sb)))
        }
        switch kind {
        case .equal: return .boolean(a == b)
        case .notEqual: return .boolean(a != b)
        default:
            switch (a, b) {
            case (.number(let x), .number(let y)):
                switch kind {
                case .less: return .boolean(x < y)
                case .lessOrEqual: return .boolean(x <= y)
                case .greater: return .boolean(x > y)
                default: return .boolean(x >= y)
                }
            case (.string(let x), .string(let y)):
                return .boolean(ComparisonNode.apply(kind, ComparisonNode.compareUTF16(x, y)))
            default: return .boolean(false)
            }
        }
    }

    static func apply(_ kind: Operator, _ r: Int) -> Bool {
        switch kind {
        case .equal: return r == 0
        case .notEqual: return r != 0
        case .less: return r < 0
        case .lessOrEqual: return r <= 0
        case .greater: return r > 0
        case .greaterOrEqual: return r >= 0
        }
    }

    /// JavaScript string ordering: by UTF-16 code units.
    static func compareUTF16(_ a: String, _ b: String) -> Int {
        var ia = a.utf16.makeIterator()
        var ib = b.utf16.makeIterator()
        while true {
            let ca = ia.next()
            let cb = ib.next()
            switch (ca, cb) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}

/// `step`: the output of the last stop whose label is ≤ the input.
final class StepNode: ExpressionNode, @unchecked Sendable {
    let input: ExpressionNode
    let labels: [Double]
    let outputs: [ExpressionNode]
    init(type: ExpressionType, input: ExpressionNode, labels: [Double], outputs: [ExpressionNode]) {
        self.input = input
        self.labels = labels
        self.outputs = outputs
        super.init(type: type)
    }
    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        guard case .number(let x) = try input.evaluate(ctx) else {
            return try outputs[0].evaluate(ctx)
        }
        if labels.count == 1 || x < labels[1] { return try outputs[0].evaluate(ctx) }
        return try outputs[StepNode.stopIndex(labels, x)].evaluate(ctx)
    }
    override var children: [ExpressionNode] { [input] + outputs }

    /// Index of the last label ≤ `x` (labels ascending, `x ≥ labels[0]`); binary search.
    static func stopIndex(_ labels: [Double], _ x: Double) -> Int {
        var lo = 0
        var hi = labels.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if labels[mid] <= x { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// How `interpolate` eases between two stops.
enum InterpolationCurve: Sendable, Equatable {
    case linear
    case exponential(base: Double)
    case cubicBezier(Double, Double, Double, Double)

    /// The eased fraction for `x` between `lower` and `upper`.
    func factor(_ x: Double, _ lower: Double, _ upper: Double) -> Double {
        let difference = upper - lower
        let progress = x - lower
        if difference == 0 { return 0 }
        switch self {
        case .linear: return progress / difference
        case .exponential(let base):
            if base == 1 { return progress / difference }
            return (pow(base, progress) - 1) / (pow(base, difference) - 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return UnitBezier(x1, y1, x2, y2).solve(progress / difference)
        }
    }
}

/// `interpolate`, `interpolate-hcl`, `interpolate-lab`.
final class InterpolateNode: ExpressionNode, @unchecked Sendable {
    enum ColorSpace { case rgb, hcl, lab }
    let curve: InterpolationCurve
    let space: ColorSpace
    let input: ExpressionNode
    let labels: [Double]
    let outputs: [ExpressionNode]
    init(
        type: ExpressionType, curve: InterpolationCurve, space: ColorSpace, input: ExpressionNode, labels: [Double],
        outputs: [ExpressionNode]
    ) {
        self.curve = curve
        self.space = space
        self.input = input
        self.labels = labels
        self.outputs = outputs
        super.init(type: type)
    }
    override var children: [ExpressionNode] { [input] + outputs }

    override func evaluate(_ ctx: EvaluationContext) throws(EvalError) -> ExpressionValue {
        guard case .number(let x) = try input.evaluate(ctx) else { return try outputs[0].evaluate(ctx) }
        if labels.count == 1 || x <= labels[0] { return try outputs[0].evaluate(ctx) }
        let last = labels.count - 1
        if x >= labels[last] { return try outputs[last].evaluate(ctx) }
        let i = StepNode.stopIndex(labels, x)
        let t = curve.factor(x, labels[i], labels[i + 1])
        let a = try outputs[i].evaluate(ctx)
        let b = try outputs[i + 1].evaluate(ctx)
        return try InterpolateNode.blend(a, b, t, space: space)
    }

    static func blend(_ a: ExpressionValue, _ b: ExpressionValue, _ t: Double, space: ColorSpace) throws(EvalError)
        -> ExpressionValue
    {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.color(let x), .color(let y)):
            switch space {
            case .rgb: return .color(StyleColor.interpolate(x, y, t))
            case .lab: return .color(LabColor.interpolateLab(x, y, t))
            case .hcl: return .color(LabColor.interpolateHCL(x, y, t))
            }
        case (.padding(let xs), .padding(let ys)):
            return .padding(zip(xs, ys).map { $0 + ($1 - $0) * t })
        case (.numberArray(let xs), .numberArray(let ys)):
            guard xs.count == ys.count else {
                throw EvalError("Cannot interpolate values of different length. from: \(xs), to: \(ys)")
            }
            return .numberArray(zip(xs, ys).map { $0 + ($1 - $0) * t })
        case (.colorArray(let xs), .colorArray(let ys)):
            guard xs.count == ys.count else {
                throw EvalError("Cannot interpolate colour arrays of different lengths.")
            }
            var out: [StyleColor] = []
            for (x, y) in zip(xs, ys) {
                guard case .color(let c) = try blend(.color(x), .color(y), t, space: space) else { continue }
                out.append(c)
            }
            return .colorArray(out)
        case (.string(let from), .string(let to)):
            return .projectionTransition(from: from, to: to, fraction: t)
        case (.array(let xs), .array(let ys)):
            guard xs.count == ys.count else { throw EvalError("Cannot interpolate arrays of different lengths.") }
            var out: [ExpressionValue] = []
            out.reserveCapacity(xs.count)
            for (x, y) in zip(xs, ys) { out.append(try blend(x, y, t, space: space)) }
            return .array(out)
        default:
            return t < 1 ? a : b
        }
    }
}

/// Solver for a CSS cubic-bezier timing curve through (0,0), (x1,y1), (x2,y2), (1,1).
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double
    init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        cx = 3 * p1x
        bx = 3 * (p2x - p1x) - cx
        ax = 1 - cx - bx
        cy = 3 * p1y
        by = 3 * (p2y - p1y) - cy
        ay = 1 - cy - by
    }
    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    func solveCurveX(_ x: Double, epsilon: Double = 1e-6) -> Double {
        var t = x
        for _ in 0..<8 {
            let x2 = sampleX(t) - x
            if abs(x2) < epsilon { return t }
            let d = sampleDerivativeX(t)
            if abs(d) < 1e-6 { break }
            t -= x2 / d
        }
        var lo = 0.0
        var hi = 1.0
        t = x
        if t < lo { return lo }
        if t > hi { return hi }
        while lo < hi {
            let x2 = sampleX(t)
            if abs(x2 - x) < epsilon { return t }
            if x > x2 { lo = t } else { hi = t }
            t = (hi - lo) * 0.5 + lo
            if hi - lo < 1e-12 { break }
        }
        return t
    }

    func solve(_ x: Double) -> Double { sampleY(solveCurveX(x)) }
}

/// CIE Lab / HCL conversions for `interpolate-lab` and `interpolate-hcl`: D50 white point with the Bradford-adapted
/// sRGB matrices, as the style spec's reference implementation (and d3-color) uses.
enum LabColor {
    static let xn = 0.96422
    static let yn = 1.0
    static let zn = 0.82521
    static let t0 = 4.0 / 29
    static let t1 = 6.0 / 29
    static let t2 = 3 * t1 * t1
    static let t3 = t1 * t1 * t1

    static func xyz2lab(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }
    static func lab2xyz(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }
    static func rgb2xyz(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
    static func xyz2rgb(_ x: Double) -> Double {
        let v = x <= 0.00304 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        return min(max(v, 0), 1)
    }

    static func toLab(_ c: StyleColor) -> (l: Double, a: Double, b: Double, alpha: Double) {
        let r = rgb2xyz(c.red)
        let g = rgb2xyz(c.green)
        let b = rgb2xyz(c.blue)
        let y = xyz2lab((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
        var x = y
        var z = y
        if !(r == g && g == b) {
            x = xyz2lab((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
            z = xyz2lab((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
        }
        let l = 116 * y - 16
        return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z), c.alpha)
    }

    static func fromLab(_ l: Double, _ a: Double, _ b: Double, _ alpha: Double) -> StyleColor {
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = yn * lab2xyz(y)
        x = xn * lab2xyz(x)
        z = zn * lab2xyz(z)
        return StyleColor(
            red: xyz2rgb(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
            green: xyz2rgb(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
            blue: xyz2rgb(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
    }

    static func interpolateLab(_ x: StyleColor, _ y: StyleColor, _ t: Double) -> StyleColor {
        let a = toLab(x)
        let b = toLab(y)
        return fromLab(
            a.l + (b.l - a.l) * t, a.a + (b.a - a.a) * t, a.b + (b.b - a.b) * t, a.alpha + (b.alpha - a.alpha) * t)
    }

    static func toHCL(_ c: StyleColor) -> (h: Double, c: Double, l: Double, alpha: Double) {
        let lab = toLab(c)
        let chroma = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        var h = Double.nan
        if (chroma * 10000).rounded() != 0 {
            h = (atan2(lab.b, lab.a) * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
            if h < 0 { h += 360 }
        }
        return (h, chroma, lab.l, lab.alpha)
    }

    static func interpolateHCL(_ x: StyleColor, _ y: StyleColor, _ t: Double) -> StyleColor {
        let a = toHCL(x)
        let b = toHCL(y)
        var hue = Double.nan
        var chroma: Double?
        if !a.h.isNaN && !b.h.isNaN {
            let d = b.h - a.h
            hue = a.h + t * (d > 180 || d < -180 ? d - 360 * (d / 360).rounded() : d)
        } else if !a.h.isNaN {
            hue = a.h
            if b.l == 1 || b.l == 0 { chroma = a.c }
        } else if !b.h.isNaN {
            hue = b.h
            if a.l == 1 || a.l == 0 { chroma = b.c }
        }
        let c = chroma ?? a.c + (b.c - a.c) * t
        let l = a.l + (b.l - a.l) * t
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        let rad = (hue.isNaN ? 0 : hue) * Double.pi / 180
        return fromLab(l, cos(rad) * c, sin(rad) * c, alpha)
    }
}

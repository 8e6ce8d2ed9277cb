// Layer filters compiled to a flat program: the common shapes (`all`/`any`/`!`, `match`/`==`/`!=`/`in` and the
// orderings on a feature property, `has`, `geometry-type`) become instructions that read the feature directly and
// yield true, false or an error without building `ExpressionValue` results node by node; every other sub-expression
// stays a tree the program evaluates through `ExpressionNode.evaluate`. Sub-expressions that no feature drives
// (`zoom`, literals and what is computed from them) are folded once per set of globals (``FilterMatcher``), so a
// tile's filter pass reads only feature data.
//
// The program answers exactly what the tree walk answers, error for error: `all` and `any` stop at the first
// argument that decides them or fails, in argument order, and an error anywhere makes the filter not match (style
// spec: filters are `false` on error) while `!` passes an error on instead of negating it.

/// The result of one step of a filter program: the three outcomes of evaluating a boolean sub-expression.
enum FilterOutcome {
    case no, yes, failed

    init(_ value: Bool) { self = value ? .yes : .no }

    /// A tree's result as a logical argument reads it: `true` only for `.boolean(true)`; a thrown error fails.
    init(_ value: ExpressionValue?) {
        guard let value else {
            self = .failed
            return
        }
        self = value == .boolean(true) ? .yes : .no
    }
}

/// What an instruction reads from the feature.
enum FilterSubject: Sendable {
    /// `["get", key]`: the property, `null` when missing. The key is an index into ``FilterProgram/strings``.
    case property(Int)
    /// `["coalesce", ["get", key], literal]`: the property, or the literal (a slot) when it is missing or `null`.
    case propertyOr(Int, slot: Int)
    /// `["geometry-type"]`.
    case geometryType
    /// The legacy `$type` (`filter-type`): the single-part geometry name.
    case legacyGeometryType

    func read(_ ctx: EvaluationContext, _ program: FilterProgram, _ slots: [ExpressionValue?]) -> ExpressionValue {
        switch self {
        case .property(let key): return ctx.property(program.strings[key]) ?? .null
        case .propertyOr(let key, let slot):
            let v = ctx.property(program.strings[key]) ?? .null
            switch v {
            // `coalesce` passes over `null` and, before its last argument, an unavailable image.
            case .null, .image(_, available: false): return slots[slot] ?? .null
            default: return v
            }
        case .geometryType: return ctx.resolvedGeometryType.map { .string($0.rawValue) } ?? .null
        case .legacyGeometryType: return ctx.resolvedGeometryType.map { .string($0.legacyName) } ?? .null
        }
    }
}

/// One instruction; operands are indices into the program's pools so the code array holds no references.
enum FilterInstruction: Sendable {
    /// The outcome is a constant.
    case constant(Bool)
    /// The outcome is a folded feature-constant sub-expression (a slot: `nil` = it failed).
    case folded(slot: Int)
    /// The outcome of a sub-expression the program does not compile (an index into ``FilterProgram/trees``).
    case tree(Int)
    /// `["has", key]`.
    case has(key: Int)
    /// The subject is a string among `strings[labels]`: `hit` when it is, `!hit` when not (any other value: `!hit`).
    /// `match` on strings with boolean outputs, `==` and `!=` with a string literal.
    case stringIn(FilterSubject, labels: Range<Int>, hit: Bool)
    /// The same for numbers among `numbers[labels]`.
    case numberIn(FilterSubject, labels: Range<Int>, hit: Bool)
    /// `==` (`hit` true) or `!=` (`hit` false) against any other literal or folded value (a slot).
    case equal(FilterSubject, slot: Int, hit: Bool)
    /// `<`, `<=`, `>`, `>=` between the subject and a slot; `subjectFirst` when the subject is the left operand;
    /// `untyped` when an operand's static type is `value` (then mixed or non-orderable kinds fail).
    case order(FilterSubject, ComparisonNode.Operator, slot: Int, subjectFirst: Bool, untyped: Bool)
    /// `["in", subject, literal array]` (the array a slot).
    case inArray(FilterSubject, slot: Int)
    /// `!`: yes ↔ no, a failure stays one.
    case not
    /// Ends an `all` argument: jump to `to` unless the outcome is yes.
    case unlessYes(to: Int)
    /// Ends an `any` argument: jump to `to` unless the outcome is no.
    case unlessNo(to: Int)
}

/// A layer filter compiled for testing many features: a flat program over the feature's properties for the common
/// filter shapes, the expression tree for the rest (see the file's notes); it answers what ``StyleFilter/matches(_:)``
/// answers for every context.
///
/// Immutable: compile once per style layer (compiling walks the filter's tree), then make a ``FilterMatcher`` per
/// set of globals (a tile's zoom) with ``matcher(globals:)``. Thread rule: `Sendable`, use from any thread.
public final class FilterProgram: Sendable {
    let code: [FilterInstruction]
    let strings: [String]
    let numbers: [Double]
    let trees: [ExpressionNode]
    /// Literal operands; the slots of folded sub-expressions hold `nil` until a matcher fills them.
    let slots: [ExpressionValue?]
    /// The feature-constant sub-expressions and the slot each folds into.
    let constants: [(slot: Int, node: ExpressionNode)]

    /// Compiles a filter.
    /// - Parameter filter: the filter.
    public convenience init(_ filter: StyleFilter) { self.init(filter.expression.root) }

    /// Compiles the tree of a boolean expression.
    init(_ root: ExpressionNode) {
        var builder = Builder()
        builder.emit(root)
        code = builder.code
        strings = builder.strings
        numbers = builder.numbers
        trees = builder.trees
        slots = builder.slots
        constants = builder.constants
    }

    /// A matcher for features evaluated under `globals`: the sub-expressions no feature drives are evaluated here,
    /// once.
    /// - Parameter globals: the zoom and other non-feature fields every tested context will carry (its feature
    ///   fields are ignored).
    /// - Returns: the matcher.
    public func matcher(globals: EvaluationContext) -> FilterMatcher { FilterMatcher(self, globals: globals) }

    /// Runs the program for one feature with the folded slots of a matcher.
    func run(_ ctx: EvaluationContext, _ slots: [ExpressionValue?]) -> FilterOutcome {
        var outcome = FilterOutcome.yes
        var pc = 0
        let count = code.count
        while pc < count {
            switch code[pc] {
            case .constant(let b): outcome = FilterOutcome(b)
            case .folded(let slot): outcome = FilterOutcome(slots[slot])
            case .tree(let i): outcome = FilterOutcome(try? trees[i].evaluate(ctx))
            case .has(let key): outcome = FilterOutcome(ctx.property(strings[key]) != nil)
            case .stringIn(let subject, let labels, let hit):
                var found = false
                if case .string(let s) = subject.read(ctx, self, slots) {
                    for i in labels where strings[i] == s {
                        found = true
                        break
                    }
                }
                outcome = FilterOutcome(found == hit)
            case .numberIn(let subject, let labels, let hit):
                var found = false
                if case .number(let n) = subject.read(ctx, self, slots) {
                    for i in labels where numbers[i] == n {
                        found = true
                        break
                    }
                }
                outcome = FilterOutcome(found == hit)
            case .equal(let subject, let slot, let hit):
                if let b = slots[slot] {
                    outcome = FilterOutcome((subject.read(ctx, self, slots) == b) == hit)
                } else {
                    outcome = .failed
                }
            case .order(let subject, let op, let slot, let subjectFirst, let untyped):
                let v = subject.read(ctx, self, slots)
                if let b = slots[slot] {
                    outcome = subjectFirst ? Self.order(v, b, op, untyped) : Self.order(b, v, op, untyped)
                } else {
                    outcome = .failed
                }
            case .inArray(let subject, let slot):
                let n = subject.read(ctx, self, slots)
                switch n {
                case .boolean, .string, .number, .null:
                    if case .array(let items)? = slots[slot] {
                        outcome = FilterOutcome(items.contains(n))
                    } else {
                        outcome = .failed
                    }
                default: outcome = .failed
                }
            case .not:
                switch outcome {
                case .yes: outcome = .no
                case .no: outcome = .yes
                case .failed: break
                }
            case .unlessYes(let to):
                if outcome != .yes {
                    pc = to
                    continue
                }
            case .unlessNo(let to):
                if outcome != .no {
                    pc = to
                    continue
                }
            }
            pc += 1
        }
        return outcome
    }

    /// An ordering comparison as ``ComparisonNode`` evaluates it without a collator.
    static func order(_ a: ExpressionValue, _ b: ExpressionValue, _ op: ComparisonNode.Operator, _ untyped: Bool)
        -> FilterOutcome
    {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .less: return FilterOutcome(x < y)
            case .lessOrEqual: return FilterOutcome(x <= y)
            case .greater: return FilterOutcome(x > y)
            default: return FilterOutcome(x >= y)
            }
        case (.string(let x), .string(let y)):
            return FilterOutcome(ComparisonNode.apply(op, ComparisonNode.compareUTF16(x, y)))
        default:
            // Untyped operands of mixed or non-orderable kinds are an evaluation error; typed ones compare false.
            return untyped ? .failed : .no
        }
    }

    /// Builds the code in one pass over the tree.
    struct Builder {
        var code: [FilterInstruction] = []
        var strings: [String] = []
        var numbers: [Double] = []
        var trees: [ExpressionNode] = []
        var slots: [ExpressionValue?] = []
        var constants: [(slot: Int, node: ExpressionNode)] = []

        mutating func string(_ s: String) -> Int {
            strings.append(s)
            return strings.count - 1
        }

        /// A slot holding a literal, or one a matcher fills by folding `node`; `nil` when `node` depends on the
        /// feature.
        mutating func operand(_ node: ExpressionNode) -> Int? {
            if let literal = node as? LiteralNode {
                slots.append(literal.value)
                return slots.count - 1
            }
            guard Self.isFoldable(node) else { return nil }
            slots.append(nil)
            constants.append((slots.count - 1, node))
            return slots.count - 1
        }

        /// Whether `node` can be evaluated without a feature: feature-constant and no `var` (whose binding may read
        /// the feature; the constness analysis does not follow it).
        static func isFoldable(_ node: ExpressionNode) -> Bool {
            func hasVariable(_ n: ExpressionNode) -> Bool { n is VarNode || n.children.contains(where: hasVariable) }
            return ExpressionAnalysis.isFeatureConstant(node) && !hasVariable(node)
        }

        /// What `node` reads from the feature when it is one of the compiled subjects.
        mutating func subject(_ node: ExpressionNode) -> FilterSubject? {
            if let get = node as? GetPropertyNode { return .property(string(get.key)) }
            if let c = node as? CompoundNode, c.args.isEmpty {
                if c.name == "geometry-type" { return .geometryType }
                if c.name == "filter-type" { return .legacyGeometryType }
            }
            if let c = node as? CoalesceNode, c.args.count == 2, let get = c.args[0] as? GetPropertyNode,
                let literal = c.args[1] as? LiteralNode
            {
                slots.append(literal.value)
                return .propertyOr(string(get.key), slot: slots.count - 1)
            }
            return nil
        }

        /// Appends the code of a boolean sub-expression.
        mutating func emit(_ node: ExpressionNode) {
            if let literal = node as? LiteralNode, case .boolean(let b) = literal.value {
                code.append(.constant(b))
                return
            }
            if let logical = node as? LogicalNode {
                guard !logical.args.isEmpty else {
                    code.append(.constant(logical.isAll))
                    return
                }
                var jumps: [Int] = []
                for (i, arg) in logical.args.enumerated() {
                    emit(arg)
                    if i < logical.args.count - 1 {
                        jumps.append(code.count)
                        code.append(logical.isAll ? .unlessYes(to: 0) : .unlessNo(to: 0))
                    }
                }
                for j in jumps { code[j] = logical.isAll ? .unlessYes(to: code.count) : .unlessNo(to: code.count) }
                return
            }
            if Self.isFoldable(node) {
                slots.append(nil)
                constants.append((slots.count - 1, node))
                code.append(.folded(slot: slots.count - 1))
                return
            }
            if let c = node as? CompoundNode {
                if c.name == "!", c.args.count == 1 {
                    emit(c.args[0])
                    code.append(.not)
                    return
                }
                if c.name == "has", c.args.count == 1, let key = c.args[0] as? LiteralNode,
                    case .string(let k) = key.value
                {
                    code.append(.has(key: string(k)))
                    return
                }
            }
            if let match = node as? MatchNode, let instruction = compile(match) {
                code.append(instruction)
                return
            }
            if let comparison = node as? ComparisonNode, let instruction = compile(comparison) {
                code.append(instruction)
                return
            }
            if let inNode = node as? InNode, let s = subject(inNode.needle),
                let literal = inNode.haystack as? LiteralNode, case .array = literal.value
            {
                slots.append(literal.value)
                code.append(.inArray(s, slot: slots.count - 1))
                return
            }
            trees.append(node)
            code.append(.tree(trees.count - 1))
        }

        /// `match` on a subject with boolean literal outputs: the labels whose output differs from the fallback.
        mutating func compile(_ match: MatchNode) -> FilterInstruction? {
            guard let otherwise = match.otherwise as? LiteralNode, case .boolean(let fallback) = otherwise.value else {
                return nil
            }
            var outputs: [Bool] = []
            for output in match.outputs {
                guard let literal = output as? LiteralNode, case .boolean(let b) = literal.value else { return nil }
                outputs.append(b)
            }
            // Labels in output order (the dictionary's order differs between parses), then by value.
            let hits = match.cases.filter { outputs[$0.value] != fallback }.sorted {
                $0.value != $1.value ? $0.value < $1.value : "\($0.key)" < "\($1.key)"
            }
            switch match.inputType {
            case .string:
                guard let s = subject(match.input) else { return nil }
                let start = strings.count
                for (label, _) in hits {
                    guard case .string(let text) = label else { return nil }
                    strings.append(text)
                }
                return .stringIn(s, labels: start..<strings.count, hit: !fallback)
            case .number:
                guard let s = subject(match.input) else { return nil }
                let start = numbers.count
                for (label, _) in hits {
                    guard case .number(let n) = label else { return nil }
                    numbers.append(n)
                }
                return .numberIn(s, labels: start..<numbers.count, hit: !fallback)
            default: return nil
            }
        }

        /// A comparison without a collator between a subject and a literal or feature-constant operand.
        mutating func compile(_ comparison: ComparisonNode) -> FilterInstruction? {
            guard comparison.collator == nil else { return nil }
            let subjectFirst: Bool
            let other: ExpressionNode
            let s: FilterSubject
            if let left = subject(comparison.lhs) {
                (s, subjectFirst, other) = (left, true, comparison.rhs)
            } else if let right = subject(comparison.rhs) {
                (s, subjectFirst, other) = (right, false, comparison.lhs)
            } else {
                return nil
            }
            let equal = comparison.kind == .equal
            switch comparison.kind {
            case .equal, .notEqual:
                if let literal = other as? LiteralNode {
                    switch literal.value {
                    case .string(let text):
                        let i = string(text)
                        return .stringIn(s, labels: i..<(i + 1), hit: equal)
                    case .number(let n):
                        numbers.append(n)
                        return .numberIn(s, labels: (numbers.count - 1)..<numbers.count, hit: equal)
                    default: break
                    }
                }
                guard let slot = operand(other) else { return nil }
                return .equal(s, slot: slot, hit: equal)
            default:
                guard let slot = operand(other) else { return nil }
                return .order(
                    s, comparison.kind, slot: slot, subjectFirst: subjectFirst,
                    untyped: comparison.hasUntypedArgument)
            }
        }
    }
}

/// A ``FilterProgram`` ready to test many features under one set of globals (zoom, global state, available images):
/// the parts of the filter no feature drives were evaluated once, when the matcher was made.
///
/// Thread rule: a value; use it from any thread. Valid for contexts whose non-feature fields (zoom, heatmap density,
/// line progress, available images, global state) equal those of the globals it was made for.
public struct FilterMatcher: Sendable {
    let program: FilterProgram
    let slots: [ExpressionValue?]

    init(_ program: FilterProgram, globals: EvaluationContext) {
        self.program = program
        var slots = program.slots
        for (slot, node) in program.constants { slots[slot] = try? node.evaluate(globals) }
        self.slots = slots
    }

    /// Whether a feature passes the filter.
    /// - Parameter context: the feature, with the globals the matcher was made for.
    /// - Returns: `true` when the filter evaluates to `true`; `false` when it evaluates to anything else or fails.
    public func matches(_ context: EvaluationContext) -> Bool { program.run(context, slots) == .yes }
}

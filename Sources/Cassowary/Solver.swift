/// Why a ``Solver`` refused a request.
public enum SolverError: Error, Equatable, CustomStringConvertible {
    /// The constraint is already in the solver.
    case duplicateConstraint(Constraint)
    /// The constraint is not in the solver.
    case unknownConstraint(Constraint)
    /// A required constraint conflicts with the required constraints already in the solver; the solver is unchanged.
    case unsatisfiableConstraint(Constraint)
    /// A coefficient or constant is infinite or NaN; the solver is unchanged.
    case nonFiniteConstraint(Constraint)
    /// The variable is already an edit variable.
    case duplicateEditVariable(Variable)
    /// The variable is not an edit variable.
    case unknownEditVariable(Variable)
    /// Edit variables cannot be required.
    case requiredEditVariable(Variable)
    /// The objective has no lower bound or the tableau is inconsistent (a bug; the message names the step).
    case internalError(String)

    /// A one-line explanation naming the constraint or variable.
    public var description: String {
        switch self {
        case .duplicateConstraint(let c): "duplicate constraint: \(c)"
        case .unknownConstraint(let c): "unknown constraint: \(c)"
        case .unsatisfiableConstraint(let c): "unsatisfiable required constraint: \(c)"
        case .nonFiniteConstraint(let c): "constraint with a non-finite coefficient or constant: \(c)"
        case .duplicateEditVariable(let v): "duplicate edit variable: \(v)"
        case .unknownEditVariable(let v): "unknown edit variable: \(v)"
        case .requiredEditVariable(let v): "edit variable with required strength: \(v)"
        case .internalError(let m): "solver internal error: \(m)"
        }
    }
}

/// The Cassowary incremental simplex solver (Badros, Borning and Stuckey, "The Cassowary Linear Arithmetic
/// Constraint Solving Algorithm", ACM TOCHI 2001).
///
/// Required constraints always hold (one that cannot is refused); non-required ones are satisfied as well as
/// possible, minimising the sum over them of `strength weight × error` (the error of `a = b` is `|a − b|`, of
/// `a ≤ b` is `max(0, a − b)`). Adding and removing constraints re-solve incrementally from the current tableau.
/// Edit variables (``addEditVariable(_:strength:)``, ``suggestValue(_:_:)``) and ``updateConstant(of:to:)`` change a
/// constant and re-solve with the dual simplex, without rebuilding, which is what makes dragging and re-layout fast.
/// Read results with ``updateVariables()``. Pivot choices follow Bland's rule (lowest symbol first), so results are
/// deterministic and the simplex cannot cycle.
/// - Thread rules: not thread-safe; use one solver from one thread at a time.
public final class Solver {
    private enum Kind: UInt8 { case external, slack, error, dummy }

    private struct Tag {
        var marker: Int
        var other: Int

        /// The marker, then the other symbol, leaving out invalid ones (without allocating an array).
        var symbols: TagSymbols { TagSymbols(first: marker, second: other) }
    }

    private struct TagSymbols: Sequence, IteratorProtocol {
        var first: Int
        var second: Int

        mutating func next() -> Int? {
            while first != Solver.invalid || second != Solver.invalid {
                let s = first
                first = second
                second = Solver.invalid
                if s != Solver.invalid { return s }
            }
            return nil
        }
    }

    private struct Record {
        /// Held so that its identity (the key) stays unique while it is in the solver.
        let constraint: Constraint
        var tag: Tag
        /// The expression constant in force (changed by ``updateConstant(of:to:)``).
        var constant: Double
    }

    private struct Edit {
        var constraint: Constraint
        var value: Double
    }

    private static let invalid = -1
    private static let epsilon = 1.0e-8

    private var kinds: [Kind] = []
    private var variableSymbols: [ObjectIdentifier: Int] = [:]
    private var variables: [(Variable, Int)] = []
    private var rows = Tableau()
    private var records: [ObjectIdentifier: Record] = [:]
    private var edits: [ObjectIdentifier: Edit] = [:]
    private var objective = Row()
    private var artificial: Row?
    private var infeasible: [Int] = []

    /// Creates an empty solver.
    public init() {}

    /// The number of constraints held (edit constraints included).
    public var constraintCount: Int { records.count }

    /// True when `constraint` is in the solver.
    public func hasConstraint(_ constraint: Constraint) -> Bool { records[ObjectIdentifier(constraint)] != nil }

    /// True when `variable` is an edit variable.
    public func hasEditVariable(_ variable: Variable) -> Bool { edits[ObjectIdentifier(variable)] != nil }

    // MARK: Constraints

    /// Adds `constraint` and re-solves.
    /// - Throws: ``SolverError/duplicateConstraint(_:)``; ``SolverError/nonFiniteConstraint(_:)``;
    ///   ``SolverError/unsatisfiableConstraint(_:)`` for a required constraint that conflicts with the required ones
    ///   held (the solver is left as it was).
    public func addConstraint(_ constraint: Constraint) throws {
        let id = ObjectIdentifier(constraint)
        guard records[id] == nil else { throw SolverError.duplicateConstraint(constraint) }
        guard constraint.expression.constant.isFinite,
            constraint.expression.terms.allSatisfy({ $0.coefficient.isFinite })
        else { throw SolverError.nonFiniteConstraint(constraint) }
        let tag = try insert(constraint, constant: constraint.expression.constant)
        records[id] = Record(constraint: constraint, tag: tag, constant: constraint.expression.constant)
        try optimize(artificialTarget: false)
    }

    /// Puts the constraint's row into the tableau; on failure the tableau is as before.
    private func insert(_ constraint: Constraint, constant: Double) throws -> Tag {
        var (row, tag) = makeRow(constraint, constant: constant)
        var subject = chooseSubject(row, tag)
        if subject == Self.invalid && row.cells.keys.allSatisfy({ kinds[$0] == .dummy }) {
            guard nearZero(row.constant) else {
                removeObjectiveEffects(constraint, tag)
                throw SolverError.unsatisfiableConstraint(constraint)
            }
            subject = tag.marker
        }
        if subject == Self.invalid {
            guard try addWithArtificialVariable(row) else {
                removeObjectiveEffects(constraint, tag)
                throw SolverError.unsatisfiableConstraint(constraint)
            }
        } else {
            row.solve(for: subject)
            substitute(subject, row)
            rows[subject] = row
        }
        return tag
    }

    /// Removes `constraint` and re-solves.
    /// - Throws: ``SolverError/unknownConstraint(_:)``.
    public func removeConstraint(_ constraint: Constraint) throws {
        guard let record = records.removeValue(forKey: ObjectIdentifier(constraint)) else {
            throw SolverError.unknownConstraint(constraint)
        }
        try extract(constraint, record.tag)
        try optimize(artificialTarget: false)
    }

    /// Takes the constraint's equation out of the tableau (its objective terms too).
    private func extract(_ constraint: Constraint, _ tag: Tag) throws {
        removeObjectiveEffects(constraint, tag)
        if rows.removeValue(forKey: tag.marker) == nil {
            let leaving = markerLeavingRow(tag.marker)
            guard leaving != Self.invalid, var row = rows.removeValue(forKey: leaving) else {
                throw SolverError.internalError("no leaving row for a removed constraint's marker")
            }
            row.solve(for: leaving, and: tag.marker)
            substitute(tag.marker, row)
        }
    }

    /// Changes the constant of `constraint`'s expression (`lhs − rhs`, see ``Constraint``) to `constant` and
    /// re-solves incrementally (dual simplex from the current tableau), as Cassowary does for edit constraints.
    /// - Throws: ``SolverError/unknownConstraint(_:)``; ``SolverError/unsatisfiableConstraint(_:)`` when a required
    ///   constraint cannot hold with the new constant (the old constant stays in force).
    public func updateConstant(of constraint: Constraint, to constant: Double) throws {
        let id = ObjectIdentifier(constraint)
        guard var record = records[id] else { throw SolverError.unknownConstraint(constraint) }
        guard constant.isFinite else { throw SolverError.nonFiniteConstraint(constraint) }
        let delta = constant - record.constant
        if delta == 0 { return }
        let tag = record.tag
        if kinds[tag.marker] == .dummy && rows[tag.marker] != nil {
            // A required equation that depends on others: take it out and put it back with the new constant.
            try extract(constraint, tag)
            do {
                record.tag = try insert(constraint, constant: constant)
            } catch {
                record.tag = try insert(constraint, constant: record.constant)
                records[id] = record
                try optimize(artificialTarget: false)
                throw error
            }
            record.constant = constant
            records[id] = record
            try optimize(artificialTarget: false)
            return
        }
        shift(tag, constraint, by: delta)
        do {
            try dualOptimize()
        } catch {
            infeasible = []
            shift(tag, constraint, by: -delta)
            rows.visitRows { basic, row in
                if kinds[basic] != .external && row.constant < 0 { infeasible.append(basic) }
            }
            try dualOptimize()
            throw SolverError.unsatisfiableConstraint(constraint)
        }
        record.constant = constant
        records[id] = record
    }

    /// Moves the constraint's constant by `delta` in the tableau: the marker (or the other error symbol) stands in
    /// for the change, as the marker's original coefficient says.
    private func shift(_ tag: Tag, _ constraint: Constraint, by delta: Double) {
        let markerCoefficient = originalCoefficient(of: tag.marker, tag, constraint)
        if rows.contains(tag.marker) {
            let constant = rows.addToConstant(of: tag.marker, -delta / markerCoefficient)
            if kinds[tag.marker] != .external && constant < 0 { infeasible.append(tag.marker) }
            return
        }
        if tag.other != Self.invalid, rows.contains(tag.other) {
            let constant = rows.addToConstant(
                of: tag.other, -delta / originalCoefficient(of: tag.other, tag, constraint))
            if constant < 0 { infeasible.append(tag.other) }
            return
        }
        let shiftByUnit = delta / markerCoefficient
        for basic in rows.basics(containing: tag.marker) {
            let c = rows.coefficient(of: tag.marker, in: basic)
            guard c != 0 else { continue }
            let constant = rows.addToConstant(of: basic, c * shiftByUnit)
            if kinds[basic] != .external && constant < 0 { infeasible.append(basic) }
        }
    }

    /// The coefficient `makeRow` gave `symbol` (before any sign reversal, which does not matter for an equation).
    private func originalCoefficient(of symbol: Int, _ tag: Tag, _ constraint: Constraint) -> Double {
        switch constraint.relation {
        case .lessThanOrEqual: symbol == tag.marker ? 1 : -1
        case .greaterThanOrEqual: symbol == tag.marker ? -1 : 1
        case .equal: constraint.strength.isRequired ? 1 : (symbol == tag.marker ? -1 : 1)
        }
    }

    // MARK: Edit variables

    /// Makes `variable` an edit variable at `strength` (not required): the solver keeps it as near the last
    /// suggested value (0 at first) as the stronger constraints allow.
    /// - Throws: ``SolverError/duplicateEditVariable(_:)``, ``SolverError/requiredEditVariable(_:)``.
    public func addEditVariable(_ variable: Variable, strength: Strength) throws {
        let id = ObjectIdentifier(variable)
        guard edits[id] == nil else { throw SolverError.duplicateEditVariable(variable) }
        guard !strength.isRequired else { throw SolverError.requiredEditVariable(variable) }
        let constraint = Constraint(Expression(variable), .equal, strength: strength)
        try addConstraint(constraint)
        edits[id] = Edit(constraint: constraint, value: 0)
    }

    /// Stops editing `variable` (its edit constraint is removed).
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public func removeEditVariable(_ variable: Variable) throws {
        guard let edit = edits.removeValue(forKey: ObjectIdentifier(variable)) else {
            throw SolverError.unknownEditVariable(variable)
        }
        try removeConstraint(edit.constraint)
    }

    /// Suggests `value` for the edit variable `variable` and re-solves incrementally.
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public func suggestValue(_ variable: Variable, _ value: Double) throws {
        let id = ObjectIdentifier(variable)
        guard var edit = edits[id] else { throw SolverError.unknownEditVariable(variable) }
        try updateConstant(of: edit.constraint, to: -value)
        edit.value = value
        edits[id] = edit
    }

    // MARK: Results

    /// Writes each variable's solved ``Variable/value``.
    public func updateVariables() {
        for (variable, symbol) in variables {
            let v = rows.constant(of: symbol) ?? 0
            variable.value = v == 0 ? 0 : v
        }
    }

    /// The solved value of `variable` (0 for a variable the solver does not know), without touching ``Variable/value``.
    public func value(of variable: Variable) -> Double {
        guard let symbol = variableSymbols[ObjectIdentifier(variable)] else { return 0 }
        return rows.constant(of: symbol) ?? 0
    }

    // MARK: Tableau

    private func newSymbol(_ kind: Kind) -> Int {
        kinds.append(kind)
        rows.grow(to: kinds.count)
        return kinds.count - 1
    }

    private func symbol(for variable: Variable) -> Int {
        let id = ObjectIdentifier(variable)
        if let s = variableSymbols[id] { return s }
        let s = newSymbol(.external)
        variableSymbols[id] = s
        variables.append((variable, s))
        return s
    }

    private func makeRow(_ constraint: Constraint, constant: Double) -> (Row, Tag) {
        var row = Row(constant: constant)
        for term in constraint.expression.terms where !nearZero(term.coefficient) {
            let s = symbol(for: term.variable)
            if let basic = rows[s] {
                row.insert(basic, term.coefficient)
            } else {
                row.insert(s, term.coefficient)
            }
        }
        var tag = Tag(marker: Self.invalid, other: Self.invalid)
        let strength = constraint.strength
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let coefficient: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            let slack = newSymbol(.slack)
            tag.marker = slack
            row.insert(slack, coefficient)
            if !strength.isRequired {
                let error = newSymbol(.error)
                tag.other = error
                row.insert(error, -coefficient)
                objective.insert(error, strength.weight)
            }
        case .equal:
            if strength.isRequired {
                let dummy = newSymbol(.dummy)
                tag.marker = dummy
                row.insert(dummy, 1)
            } else {
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength.weight)
                objective.insert(minus, strength.weight)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    private func removeObjectiveEffects(_ constraint: Constraint, _ tag: Tag) {
        guard !constraint.strength.isRequired else { return }
        for marker in tag.symbols where kinds[marker] == .error {
            if let row = rows[marker] {
                objective.insert(row, -constraint.strength.weight)
            } else {
                objective.insert(marker, -constraint.strength.weight)
            }
        }
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Int {
        var best = Self.invalid
        for s in row.cells.keys where kinds[s] == .external && (best == Self.invalid || s < best) { best = s }
        if best != Self.invalid { return best }
        for s in tag.symbols where (kinds[s] == .slack || kinds[s] == .error) && row.coefficient(for: s) < 0 {
            return s
        }
        return Self.invalid
    }

    private func addWithArtificialVariable(_ row: Row) throws -> Bool {
        let art = newSymbol(.slack)
        rows[art] = row
        artificial = row
        try optimize(artificialTarget: true)
        let success = nearZero(artificial!.constant)
        artificial = nil
        if !success {
            // The artificial symbol never left the basis, so no other row depends on it: dropping its row restores
            // the system without the new equation.
            rows[art] = nil
            try optimize(artificialTarget: false)
            return false
        }
        if var basic = rows.removeValue(forKey: art) {
            if basic.cells.isEmpty { return true }
            let entering = anyPivotableSymbol(basic)
            guard entering != Self.invalid else { return false }
            basic.solve(for: art, and: entering)
            substitute(entering, basic)
            rows[entering] = basic
        }
        rows.removeSymbol(art)
        objective.remove(art)
        return true
    }

    private func substitute(_ symbol: Int, _ row: Row) {
        rows.substitute(symbol, row) { basic, constant in
            if kinds[basic] != .external && constant < 0 { infeasible.append(basic) }
        }
        objective.substitute(symbol, row)
        artificial?.substitute(symbol, row)
    }

    /// Primal simplex on the objective (or the artificial objective while adding a constraint).
    private func optimize(artificialTarget: Bool) throws {
        while true {
            var entering = Self.invalid
            let target = artificialTarget ? artificial! : objective
            for (s, c) in target.cells where c < 0 && kinds[s] != .dummy && (entering == Self.invalid || s < entering) {
                entering = s
            }
            if entering == Self.invalid { return }
            var leaving = Self.invalid
            var ratio = Double.greatestFiniteMagnitude
            for s in rows.basics(containing: entering) where kinds[s] != .external {
                let c = rows.coefficient(of: entering, in: s)
                guard c < 0, let constant = rows.constant(of: s) else { continue }
                let r = -constant / c
                if r < ratio || (r == ratio && s < leaving) {
                    ratio = r
                    leaving = s
                }
            }
            guard leaving != Self.invalid, var row = rows.removeValue(forKey: leaving) else {
                throw SolverError.internalError("the objective is unbounded")
            }
            row.solve(for: leaving, and: entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    private func dualOptimize() throws {
        while let leaving = infeasible.popLast() {
            guard var row = rows[leaving], row.constant < 0 else { continue }
            var entering = Self.invalid
            var ratio = Double.greatestFiniteMagnitude
            for (s, c) in row.cells where c > 0 && kinds[s] != .dummy {
                let r = objective.coefficient(for: s) / c
                if r < ratio || (r == ratio && s < entering) {
                    ratio = r
                    entering = s
                }
            }
            guard entering != Self.invalid else {
                throw SolverError.internalError("the dual simplex found no entering symbol")
            }
            rows[leaving] = nil
            row.solve(for: leaving, and: entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    private func markerLeavingRow(_ marker: Int) -> Int {
        var r1 = Double.greatestFiniteMagnitude
        var r2 = Double.greatestFiniteMagnitude
        var first = Self.invalid
        var second = Self.invalid
        var third = Self.invalid
        for s in rows.basics(containing: marker) {
            guard let row = rows[s] else { continue }
            let c = row.coefficient(for: marker)
            if c == 0 { continue }
            if kinds[s] == .external {
                if third == Self.invalid || s < third { third = s }
            } else if c < 0 {
                let r = -row.constant / c
                if r < r1 || (r == r1 && s < first) {
                    r1 = r
                    first = s
                }
            } else {
                let r = row.constant / c
                if r < r2 || (r == r2 && s < second) {
                    r2 = r
                    second = s
                }
            }
        }
        return first != Self.invalid ? first : (second != Self.invalid ? second : third)
    }

    private func anyPivotableSymbol(_ row: Row) -> Int {
        var best = Self.invalid
        for s in row.cells.keys where kinds[s] == .slack || kinds[s] == .error {
            if best == Self.invalid || s < best { best = s }
        }
        return best
    }
}

private func nearZero(_ value: Double) -> Bool { abs(value) < 1.0e-8 }

/// One tableau row: `basic = constant + Σ cells[symbol] × symbol`.
private struct Row {
    var cells = Cells()
    var constant: Double = 0

    init(constant: Double = 0) { self.constant = constant }

    func coefficient(for symbol: Int) -> Double { cells[symbol] ?? 0 }

    mutating func insert(_ symbol: Int, _ coefficient: Double) {
        let c = (cells[symbol] ?? 0) + coefficient
        if nearZero(c) {
            cells[symbol] = nil
        } else {
            cells[symbol] = c
        }
    }

    mutating func insert(_ other: Row, _ coefficient: Double) {
        constant += other.constant * coefficient
        for (s, c) in other.cells { insert(s, c * coefficient) }
    }

    mutating func remove(_ symbol: Int) { cells[symbol] = nil }

    /// Adds `coefficient` to `symbol`'s cell (dropping a cell that becomes zero); true when the cell is new.
    mutating func add(_ symbol: Int, _ coefficient: Double) -> Bool {
        if let old = cells[symbol] {
            let c = old + coefficient
            cells[symbol] = nearZero(c) ? nil : c
            return false
        }
        if nearZero(coefficient) { return false }
        cells[symbol] = coefficient
        return true
    }

    mutating func reverseSign() {
        constant = -constant
        cells.scale(by: -1)
    }

    /// Rewrites `0 = constant + … + c × symbol + …` as `symbol = …`.
    mutating func solve(for symbol: Int) {
        guard let c = cells.removeValue(forKey: symbol) else { return }
        let factor = -1 / c
        constant *= factor
        cells.scale(by: factor)
    }

    /// Rewrites `lhs = …` (with `rhs` in it) as `rhs = …`.
    mutating func solve(for lhs: Int, and rhs: Int) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    mutating func substitute(_ symbol: Int, _ row: Row) {
        if let c = cells.removeValue(forKey: symbol) { insert(row, c) }
    }
}

/// The tableau: rows by basic symbol, in an array indexed by symbol, with a column index (for each symbol, the basic
/// symbols of the rows it appears in) so that substitution and the ratio tests visit only the rows that hold the
/// symbol instead of every row. A column is a short unordered array (a symbol is in a handful of rows): appending and
/// a swap-remove after a linear search beat hashing into a `Set` (whose order varied from run to run; a column's order
/// is now deterministic). The ratio tests break ties by symbol whatever the order.
private struct Tableau {
    private var rows: [Row?] = []
    private var columns: [[Int]] = []

    /// Makes room for symbols `0..<count`.
    mutating func grow(to count: Int) {
        while rows.count < count {
            rows.append(nil)
            columns.append([])
        }
    }

    func contains(_ basic: Int) -> Bool { basic < rows.count && rows[basic] != nil }

    /// The constant of `basic`'s row, or nil when the symbol is parametric.
    func constant(of basic: Int) -> Double? { basic < rows.count ? rows[basic]?.constant : nil }

    /// The coefficient of `symbol` in `basic`'s row (0 when either is absent).
    func coefficient(of symbol: Int, in basic: Int) -> Double {
        basic < rows.count ? rows[basic]?.coefficient(for: symbol) ?? 0 : 0
    }

    /// The row of `basic`, or nil when the symbol is parametric; setting re-indexes the row's symbols.
    subscript(basic: Int) -> Row? {
        get { basic < rows.count ? rows[basic] : nil }
        set {
            if let old = rows[basic] {
                for s in old.cells.keys { removeFromColumn(s, basic) }
            }
            rows[basic] = newValue
            if let row = newValue {
                for s in row.cells.keys { columns[s].append(basic) }
            }
        }
    }

    /// Removes and returns the row of `basic`.
    mutating func removeValue(forKey basic: Int) -> Row? {
        guard let row = self[basic] else { return nil }
        self[basic] = nil
        return row
    }

    /// The basic symbols of the rows `symbol` appears in, in no particular order.
    func basics(containing symbol: Int) -> [Int] { symbol < columns.count ? columns[symbol] : [] }

    /// Takes `basic` out of `symbol`'s column (where it must be at most once).
    private mutating func removeFromColumn(_ symbol: Int, _ basic: Int) {
        guard let i = columns[symbol].firstIndex(of: basic) else { return }
        columns[symbol].swapAt(i, columns[symbol].count - 1)
        columns[symbol].removeLast()
    }

    /// Adds `delta` to the constant of `basic`'s row (which must exist) and returns the new constant.
    mutating func addToConstant(of basic: Int, _ delta: Double) -> Double {
        rows[basic]!.constant += delta
        return rows[basic]!.constant
    }

    /// Calls `body` with every row.
    func visitRows(_ body: (Int, Row) -> Void) {
        for (basic, row) in rows.enumerated() {
            if let row { body(basic, row) }
        }
    }

    /// Drops `symbol` from every row.
    mutating func removeSymbol(_ symbol: Int) {
        guard symbol < columns.count else { return }
        for basic in columns[symbol] { rows[basic]!.remove(symbol) }
        columns[symbol].removeAll(keepingCapacity: true)
    }

    /// Replaces `symbol` by `row` in every row that holds it, calling `changed` with each such row's basic symbol and
    /// new constant. `row` must not hold `symbol` or a basic symbol.
    mutating func substitute(_ symbol: Int, _ row: Row, _ changed: (Int, Double) -> Void) {
        guard symbol < columns.count, !columns[symbol].isEmpty else { return }
        let basics = columns[symbol]
        columns[symbol] = []
        for basic in basics {
            guard let c = rows[basic]!.cells.removeValue(forKey: symbol) else { continue }
            rows[basic]!.constant += row.constant * c
            for (s, rc) in row.cells {
                if rows[basic]!.add(s, rc * c) {
                    columns[s].append(basic)
                } else if rows[basic]!.cells[s] == nil {
                    removeFromColumn(s, basic)
                }
            }
            changed(basic, rows[basic]!.constant)
        }
    }
}

/// A row's cells, symbol → non-zero coefficient, in one array sorted by symbol: a row holds a handful of symbols, so
/// a binary search and a short move beat hashing.
private struct Cells: Sequence {
    /// The cells, ascending by symbol.
    private var entries: [(symbol: Int, coefficient: Double)] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The symbols, ascending.
    var keys: LazyMapSequence<[(symbol: Int, coefficient: Double)], Int> { entries.lazy.map(\.symbol) }

    /// Where `symbol` is (true) or would go (false).
    private func position(of symbol: Int) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].symbol < symbol { low = mid + 1 } else { high = mid }
        }
        return (low, low < entries.count && entries[low].symbol == symbol)
    }

    subscript(symbol: Int) -> Double? {
        get {
            let p = position(of: symbol)
            return p.found ? entries[p.index].coefficient : nil
        }
        set {
            let p = position(of: symbol)
            if let value = newValue {
                if p.found {
                    entries[p.index].coefficient = value
                } else {
                    entries.insert((symbol, value), at: p.index)
                }
            } else if p.found {
                entries.remove(at: p.index)
            }
        }
    }

    /// Removes and returns `symbol`'s coefficient.
    mutating func removeValue(forKey symbol: Int) -> Double? {
        let p = position(of: symbol)
        guard p.found else { return nil }
        return entries.remove(at: p.index).coefficient
    }

    /// Multiplies every coefficient by `factor`.
    mutating func scale(by factor: Double) {
        for i in entries.indices { entries[i].coefficient *= factor }
    }

    func makeIterator() -> IndexingIterator<[(symbol: Int, coefficient: Double)]> { entries.makeIterator() }
}

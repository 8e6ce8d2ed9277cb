import Testing

@testable import Cassowary

/// True when `a` and `b` differ by at most 1e-6.
private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 }

@Suite struct SolverTests {
    @Test func requiredEqualitiesChainThroughVariables() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.addConstraint(Constraint(Expression(x), .equal, 20))
        try solver.addConstraint(Constraint(Expression(y), .equal, x + 10))
        solver.updateVariables()
        #expect(close(x.value, 20) && close(y.value, 30), "x \(x.value) y \(y.value)")
    }

    /// The paper's running example (§2): a midpoint `xm` of `xl` and `xr` on a line 0…100, `xl + 10 ≤ xr`, with
    /// `xm` edited. Weak stays keep `xl` at 0 (weight 1) and `xr` at 100 (weight 2), so each suggestion has one
    /// answer, worked by hand below.
    @Test func paperMidpointExampleFollowsEdits() throws {
        let solver = Solver()
        let xl = Variable("xl")
        let xm = Variable("xm")
        let xr = Variable("xr")
        try solver.addConstraint(Constraint(2 * xm, .equal, xl + xr))
        try solver.addConstraint(Constraint(xl + 10, .lessThanOrEqual, Expression(xr)))
        try solver.addConstraint(Constraint(Expression(xr), .lessThanOrEqual, 100))
        try solver.addConstraint(Constraint(Expression(xl), .greaterThanOrEqual, 0))
        try solver.addConstraint(Constraint(Expression(xl), .equal, 0, strength: Strength(1)))
        try solver.addConstraint(Constraint(Expression(xr), .equal, 100, strength: Strength(2)))
        solver.updateVariables()
        #expect(close(xl.value, 0) && close(xm.value, 50) && close(xr.value, 100))

        try solver.addEditVariable(xm, strength: .strong)
        // xm = 60: xl + xr = 120 and xr ≤ 100, so xr stays at 100 and xl = 20.
        try solver.suggestValue(xm, 60)
        solver.updateVariables()
        #expect(
            close(xl.value, 20) && close(xm.value, 60) && close(xr.value, 100), "\(xl.value) \(xm.value) \(xr.value)")
        // xm = 30: xl + xr = 60; moving xr costs 2 a point and xl 1, and xl ≥ 0, so xl = 0 and xr = 60.
        try solver.suggestValue(xm, 30)
        solver.updateVariables()
        #expect(close(xl.value, 0) && close(xm.value, 30) && close(xr.value, 60), "\(xl.value) \(xm.value) \(xr.value)")
        // xm = 110 cannot hold (xm ≤ 95 when xr ≤ 100 and xl ≤ xr − 10): the strong edit gives way at 95.
        try solver.suggestValue(xm, 110)
        solver.updateVariables()
        #expect(
            close(xl.value, 90) && close(xm.value, 95) && close(xr.value, 100), "\(xl.value) \(xm.value) \(xr.value)")
        try solver.removeEditVariable(xm)
        solver.updateVariables()
        #expect(close(xl.value, 0) && close(xr.value, 100), "\(xl.value) \(xr.value)")
    }

    @Test func strongerConstraintWinsAndRemovalRestoresTheWeaker() throws {
        let solver = Solver()
        let x = Variable("x")
        let strong = Constraint(Expression(x), .equal, 10, strength: .strong)
        try solver.addConstraint(Constraint(Expression(x), .equal, 20, strength: .weak))
        try solver.addConstraint(strong)
        solver.updateVariables()
        #expect(close(x.value, 10), "x \(x.value)")
        try solver.removeConstraint(strong)
        solver.updateVariables()
        #expect(close(x.value, 20), "x \(x.value)")
    }

    @Test func conflictingRequiredConstraintIsRefusedAndTheSolverStaysUsable() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.addConstraint(Constraint(Expression(x), .equal, 10))
        try solver.addConstraint(Constraint(Expression(y), .equal, x + 5))
        let conflict = Constraint(Expression(y), .equal, 40)
        #expect(throws: SolverError.unsatisfiableConstraint(conflict)) { try solver.addConstraint(conflict) }
        #expect(!solver.hasConstraint(conflict))
        let inequality = Constraint(Expression(x), .greaterThanOrEqual, Expression(y))
        #expect(throws: SolverError.unsatisfiableConstraint(inequality)) { try solver.addConstraint(inequality) }
        try solver.addConstraint(Constraint(Expression(y), .lessThanOrEqual, 100))
        solver.updateVariables()
        #expect(close(x.value, 10) && close(y.value, 15), "x \(x.value) y \(y.value)")
        #expect(solver.constraintCount == 3)
    }

    @Test func duplicateUnknownAndNonFiniteAreErrors() throws {
        let solver = Solver()
        let x = Variable("x")
        let c = Constraint(Expression(x), .equal, 1)
        try solver.addConstraint(c)
        #expect(throws: SolverError.duplicateConstraint(c)) { try solver.addConstraint(c) }
        let other = Constraint(Expression(x), .equal, 2, strength: .weak)
        #expect(throws: SolverError.unknownConstraint(other)) { try solver.removeConstraint(other) }
        let bad = Constraint(x * .nan, .equal, 1)
        #expect(throws: SolverError.nonFiniteConstraint(bad)) { try solver.addConstraint(bad) }
        #expect(throws: SolverError.requiredEditVariable(x)) { try solver.addEditVariable(x, strength: .required) }
        #expect(throws: SolverError.unknownEditVariable(x)) { try solver.suggestValue(x, 3) }
    }

    /// Changing constants re-solves from the current tableau: an equality, an inequality that starts and stops
    /// binding, and a required change that cannot hold (refused; the old constant stays).
    @Test func updateConstantResolvesIncrementally() throws {
        let solver = Solver()
        let left = Variable("left")
        let width = Variable("width")
        let right = Variable("right")
        try solver.addConstraint(Constraint(Expression(left), .equal, 0))
        let widthIs = Constraint(Expression(width), .equal, 100)
        try solver.addConstraint(widthIs)
        try solver.addConstraint(Constraint(Expression(right), .equal, left + width))
        try solver.updateConstant(of: widthIs, to: -150)
        solver.updateVariables()
        #expect(close(right.value, 150), "right \(right.value)")

        let x = Variable("x")
        let cap = Constraint(Expression(x), .lessThanOrEqual, 50)
        try solver.addConstraint(cap)
        try solver.addConstraint(Constraint(Expression(x), .equal, 100, strength: .weak))
        solver.updateVariables()
        #expect(close(x.value, 50), "x \(x.value)")
        try solver.updateConstant(of: cap, to: -80)
        solver.updateVariables()
        #expect(close(x.value, 80), "x \(x.value)")
        try solver.updateConstant(of: cap, to: -200)
        solver.updateVariables()
        #expect(close(x.value, 100), "x \(x.value)")

        let floor = Constraint(Expression(x), .greaterThanOrEqual, 60)
        try solver.addConstraint(floor)
        try solver.updateConstant(of: cap, to: -70)
        #expect(throws: SolverError.unsatisfiableConstraint(cap)) { try solver.updateConstant(of: cap, to: -40) }
        solver.updateVariables()
        #expect(close(x.value, 70), "x \(x.value)")
    }

    /// A redundant required equation (its marker basic) changes constant by removal and re-insertion.
    @Test func redundantRequiredEquationConstantChange() throws {
        let solver = Solver()
        let a = Variable("a")
        let b = Variable("b")
        try solver.addConstraint(Constraint(Expression(a), .equal, 10))
        let c1 = Constraint(Expression(b), .equal, a + 5)
        try solver.addConstraint(c1)
        let c2 = Constraint(Expression(b), .equal, 15)
        try solver.addConstraint(c2)
        #expect(throws: SolverError.unsatisfiableConstraint(c2)) { try solver.updateConstant(of: c2, to: -20) }
        try solver.removeConstraint(c1)
        try solver.updateConstant(of: c2, to: -20)
        solver.updateVariables()
        #expect(close(a.value, 10) && close(b.value, 20), "a \(a.value) b \(b.value)")
    }

    /// A hand-solved row of three equal boxes in a 320-point container with 8-point gaps and 16-point margins:
    /// each box is (320 − 2·16 − 2·8) / 3 = 90.666… wide, at x = 16, 114.67, 213.33.
    @Test func threeEqualBoxesInARow() throws {
        let solver = Solver()
        let boxes = (0..<3).map { (Variable("l\($0)"), Variable("w\($0)")) }
        try solver.addConstraint(Constraint(Expression(boxes[0].0), .equal, 16))
        try solver.addConstraint(Constraint(boxes[2].0 + boxes[2].1, .equal, 320 - 16))
        for i in 1..<3 {
            try solver.addConstraint(Constraint(Expression(boxes[i].0), .equal, boxes[i - 1].0 + boxes[i - 1].1 + 8))
            try solver.addConstraint(Constraint(Expression(boxes[i].1), .equal, Expression(boxes[0].1)))
        }
        solver.updateVariables()
        let w = (320.0 - 32 - 16) / 3
        #expect(
            close(boxes[0].1.value, w) && close(boxes[1].0.value, 16 + w + 8)
                && close(boxes[2].0.value, 16 + 2 * w + 16))
    }

    /// Weighted competition: a label hugging its 120-point text (weight 250) and a field resisting compression below
    /// 200 (weight 750) in 280 points: the hug gives way (label 80), the field keeps 200.
    @Test func weightsDecideWhichPreferenceGivesWay() throws {
        let solver = Solver()
        let label = Variable("label")
        let field = Variable("field")
        try solver.addConstraint(Constraint(label + field, .equal, 280))
        try solver.addConstraint(Constraint(Expression(label), .greaterThanOrEqual, 120, strength: Strength(250)))
        try solver.addConstraint(Constraint(Expression(field), .greaterThanOrEqual, 200, strength: Strength(750)))
        try solver.addConstraint(Constraint(Expression(label), .greaterThanOrEqual, 0))
        solver.updateVariables()
        #expect(close(label.value, 80) && close(field.value, 200), "label \(label.value) field \(field.value)")
    }

    /// Many incremental changes agree with a fresh solve of the same system.
    @Test func incrementalChangesMatchAFreshSolve() throws {
        func build(_ constants: [Double]) throws -> (Solver, [Variable], [Constraint]) {
            let solver = Solver()
            let xs = (0..<constants.count).map { Variable("x\($0)") }
            var sizes: [Constraint] = []
            try solver.addConstraint(Constraint(Expression(xs[0]), .greaterThanOrEqual, 0))
            for i in 1..<xs.count {
                try solver.addConstraint(Constraint(Expression(xs[i]), .greaterThanOrEqual, xs[i - 1] + 5))
                let size = Constraint(xs[i] - xs[i - 1], .equal, Expression(constant: constants[i]), strength: .medium)
                try solver.addConstraint(size)
                sizes.append(size)
            }
            try solver.addConstraint(Constraint(Expression(xs[xs.count - 1]), .lessThanOrEqual, 300))
            return (solver, xs, sizes)
        }
        var constants = (0..<12).map { Double($0 * 7 % 30) }
        let (solver, xs, sizes) = try build(constants)
        for step in 0..<40 {
            let i = 1 + step * 5 % (constants.count - 1)
            constants[i] = Double((step * 13) % 50)
            try solver.updateConstant(of: sizes[i - 1], to: -constants[i])
        }
        solver.updateVariables()
        let (fresh, freshXs, _) = try build(constants)
        fresh.updateVariables()
        let objective = { (vs: [Variable]) in
            (1..<vs.count).reduce(0.0) { $0 + abs(vs[$1].value - vs[$1 - 1].value - constants[$1]) }
        }
        #expect(close(objective(xs), objective(freshXs)), "incremental \(objective(xs)) fresh \(objective(freshXs))")
    }

    /// A 5 × 10 grid held by 200 required equalities (each edge 8 after its neighbour, each row's first view 60
    /// wide and the others as wide as the grid's first view, heights equal to the row above's), solved by hand: the last view's left edge is 8 + 4 × (60 + 8) = 280 and
    /// its top 8 + 9 × (40 + 8) = 440. Changing the first width re-solves every view that chains through it, and
    /// removing and re-adding the constraint gives the same answer.
    @Test func gridOfTwoHundredConstraintsSolvesAndFollowsOneConstant() throws {
        let solver = Solver()
        var lefts: [[Variable]] = []
        var tops: [[Variable]] = []
        var widths: [[Variable]] = []
        var heights: [[Variable]] = []
        var firstWidth: Constraint?
        for row in 0..<10 {
            lefts.append([])
            tops.append([])
            widths.append([])
            heights.append([])
            for column in 0..<5 {
                let (x, y, w, h) = (Variable("x\(row),\(column)"), Variable("y"), Variable("w"), Variable("h"))
                let left =
                    column == 0 ? Expression(constant: 8) : lefts[row][column - 1] + widths[row][column - 1] + 8
                let top = row == 0 ? Expression(constant: 8) : tops[row - 1][column] + heights[row - 1][column] + 8
                let width = Constraint(Expression(w), .equal, column == 0 ? 60 : Expression(widths[0][0]))
                if row == 0 && column == 0 { firstWidth = width }
                try solver.addConstraint(Constraint(Expression(x), .equal, left))
                try solver.addConstraint(Constraint(Expression(y), .equal, top))
                try solver.addConstraint(width)
                try solver.addConstraint(
                    Constraint(Expression(h), .equal, row == 0 ? 40 : Expression(heights[row - 1][column])))
                lefts[row].append(x)
                tops[row].append(y)
                widths[row].append(w)
                heights[row].append(h)
            }
        }
        #expect(solver.constraintCount == 200)
        solver.updateVariables()
        #expect(close(lefts[9][4].value, 280) && close(tops[9][4].value, 440), "\(lefts[9][4].value)")
        // Every view but the first of each row takes the first view's width: at width 50 the first row's last left
        // edge is 8 + 4 × (50 + 8) = 240, the last row's 8 + (60 + 8) + 3 × (50 + 8) = 250.
        let tunable = try #require(firstWidth)
        try solver.updateConstant(of: tunable, to: -50)
        solver.updateVariables()
        #expect(close(lefts[0][4].value, 240) && close(lefts[9][4].value, 250), "\(lefts[9][4].value)")
        #expect(close(widths[3][2].value, 50) && close(widths[3][0].value, 60) && close(tops[9][4].value, 440))
        try solver.removeConstraint(tunable)
        try solver.addConstraint(tunable)
        solver.updateVariables()
        #expect(close(lefts[9][4].value, 280), "re-added at its first constant: \(lefts[9][4].value)")
    }
}

import Cassowary
import Foundation
import LinuxUIKit

/// A 390 × 844 pt screen of 50 views in a 5 × 10 grid held by exactly 200 constraints: each view's leading and top
/// edge 8 pt after its neighbour (or the screen's edge), the first column 60 pt wide and the others as wide as the
/// first of their row, every view 40 pt high (or, from the second row, as high as the view above). Main actor only.
@MainActor private func makeGridScreen() -> (
    root: UIView, constraints: [NSLayoutConstraint], tunable: NSLayoutConstraint
) {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
    var grid: [[UIView]] = []
    var constraints: [NSLayoutConstraint] = []
    for row in 0..<10 {
        var line: [UIView] = []
        for column in 0..<5 {
            let v = UIView()
            v.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(v)
            constraints.append(
                column == 0
                    ? v.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 8)
                    : v.leadingAnchor.constraint(equalTo: line[column - 1].trailingAnchor, constant: 8))
            constraints.append(
                row == 0
                    ? v.topAnchor.constraint(equalTo: root.topAnchor, constant: 8)
                    : v.topAnchor.constraint(equalTo: grid[row - 1][column].bottomAnchor, constant: 8))
            constraints.append(
                column == 0
                    ? v.widthAnchor.constraint(equalToConstant: 60)
                    : v.widthAnchor.constraint(equalTo: line[0].widthAnchor))
            constraints.append(
                row == 0
                    ? v.heightAnchor.constraint(equalToConstant: 40)
                    : v.heightAnchor.constraint(equalTo: grid[row - 1][column].heightAnchor))
            line.append(v)
        }
        grid.append(line)
    }
    return (root, constraints, constraints[2])
}

/// Activates the 200 constraints of the grid screen and lays it out: a full solve (engine rebuilt, 50 frames
/// written). The budget: at most 1 ms.
struct AutoLayoutSolveBenchmark: Benchmark {
    let name = "autolayout-solve-200"
    let unit = "screens"
    let iterations = 50
    private var screen: (root: UIView, constraints: [NSLayoutConstraint])?

    mutating func setUp() throws {
        screen = MainActor.assumeIsolated {
            let s = makeGridScreen()
            return (s.root, s.constraints)
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let screen else { return 0 }
            NSLayoutConstraint.deactivate(screen.constraints)
            NSLayoutConstraint.activate(screen.constraints)
            screen.root.layoutIfNeeded()
            blackHole(Int(screen.root.subviews[49].frame.maxY))
            return 1
        }
    }
}

/// Changes the constant of the grid's first width constraint (every width follows it) and lays out again: the
/// incremental re-solve (no rebuild) and the 50 frames written. The budget: at most 100 µs.
struct AutoLayoutResolveBenchmark: Benchmark {
    let name = "autolayout-resolve-constant"
    let unit = "re-solves"
    let iterations = 200
    private var screen: (root: UIView, tunable: NSLayoutConstraint)?
    private var step = 0

    mutating func setUp() throws {
        screen = MainActor.assumeIsolated {
            let s = makeGridScreen()
            NSLayoutConstraint.activate(s.constraints)
            s.root.layoutIfNeeded()
            return (s.root, s.tunable)
        }
    }

    mutating func run() throws -> Int {
        step += 1
        let width = CGFloat(50 + step % 20)
        return MainActor.assumeIsolated {
            guard let screen else { return 0 }
            screen.tunable.constant = width
            screen.root.layoutIfNeeded()
            blackHole(Int(screen.root.subviews[49].frame.maxX))
            return 1
        }
    }
}

/// The Cassowary solver alone: 200 constraints of the grid's shape (required edges, equal sizes, and a weak
/// preferred size per view) added to a fresh solver and solved.
struct CassowarySolveBenchmark: Benchmark {
    let name = "cassowary-solve-200"
    let unit = "solves"
    let iterations = 50

    func run() throws -> Int {
        let solver = Solver()
        var lefts: [Variable] = []
        var widths: [Variable] = []
        for i in 0..<50 {
            let left = Variable("l\(i)")
            let width = Variable("w\(i)")
            if i % 5 == 0 {
                try solver.addConstraint(Constraint(Expression(left), .equal, 8))
                try solver.addConstraint(Constraint(Expression(width), .equal, 60))
            } else {
                try solver.addConstraint(Constraint(Expression(left), .equal, lefts[i - 1] + widths[i - 1] + 8))
                try solver.addConstraint(Constraint(Expression(width), .equal, Expression(widths[i - i % 5])))
            }
            try solver.addConstraint(Constraint(Expression(width), .lessThanOrEqual, 100, strength: .medium))
            try solver.addConstraint(Constraint(left + width, .lessThanOrEqual, 390, strength: .strong))
            lefts.append(left)
            widths.append(width)
        }
        blackHole(Int(solver.value(of: lefts[49])))
        return 1
    }
}

/// A real-valued unknown the solver assigns, as in the Cassowary paper (Badros, Borning and Stuckey, 2001).
///
/// Variables compare by identity; ``value`` is written by ``Solver/updateVariables()`` (0 before the first update).
/// - Thread rules: a variable belongs to the solvers it is used in; use it from their thread only.
public final class Variable: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// A name for descriptions and errors; need not be unique.
    public let name: String
    /// The value of the last ``Solver/updateVariables()``; 0 before it.
    public internal(set) var value: Double = 0

    /// Creates a variable named `name` (empty by default).
    public init(_ name: String = "") { self.name = name }

    /// Identity equality.
    public static func == (lhs: Variable, rhs: Variable) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// The name, or `v` and the identity when it has none.
    public var description: String { name.isEmpty ? "v\(UInt(bitPattern: ObjectIdentifier(self).hashValue))" : name }
}

/// `coefficient × variable`, one term of an ``Expression``.
public struct Term: Sendable {
    /// The unknown.
    public var variable: Variable
    /// Its factor; any finite value.
    public var coefficient: Double

    /// Creates `coefficient × variable` (coefficient 1 by default).
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression `Σ coefficientᵢ × variableᵢ + constant`.
///
/// Build with the arithmetic operators: `Expression(x) * 2 + Expression(y) - 10`, or `2 * x + 10` with variables.
/// Terms of the same variable are not merged until the solver reads them.
public struct Expression: Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The terms, in the order written.
    public var terms: [Term]
    /// The constant part.
    public var constant: Double

    /// Creates an expression from terms and a constant (no terms and 0 by default).
    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The expression `1 × variable`.
    public init(_ variable: Variable) { self.init([Term(variable)]) }

    /// A constant expression.
    public init(floatLiteral value: Double) { self.init(constant: value) }

    /// A constant expression.
    public init(integerLiteral value: Int) { self.init(constant: Double(value)) }

    /// The value with the variables' current ``Variable/value``s.
    public var value: Double { terms.reduce(constant) { $0 + $1.coefficient * $1.variable.value } }

    /// The sum of two expressions.
    public static func + (lhs: Expression, rhs: Expression) -> Expression {
        Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
    }

    /// The difference of two expressions.
    public static func - (lhs: Expression, rhs: Expression) -> Expression { lhs + rhs * -1 }

    /// The expression scaled by `factor`.
    public static func * (lhs: Expression, factor: Double) -> Expression {
        Expression(
            lhs.terms.map { Term($0.variable, $0.coefficient * factor) }, constant: lhs.constant * factor)
    }

    /// The expression scaled by `factor`.
    public static func * (factor: Double, rhs: Expression) -> Expression { rhs * factor }

    /// The expression divided by `divisor` (a zero divisor gives non-finite coefficients, which constraints reject).
    public static func / (lhs: Expression, divisor: Double) -> Expression { lhs * (1 / divisor) }

    /// The expression plus a constant.
    public static func + (lhs: Expression, rhs: Double) -> Expression {
        Expression(lhs.terms, constant: lhs.constant + rhs)
    }

    /// The expression minus a constant.
    public static func - (lhs: Expression, rhs: Double) -> Expression { lhs + -rhs }

    /// The negated expression.
    public static prefix func - (operand: Expression) -> Expression { operand * -1 }
}

extension Variable {
    /// `variable + expression`.
    public static func + (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) + rhs }
    /// `variable - expression`.
    public static func - (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) - rhs }
    /// `expression + variable`.
    public static func + (lhs: Expression, rhs: Variable) -> Expression { lhs + Expression(rhs) }
    /// `expression - variable`.
    public static func - (lhs: Expression, rhs: Variable) -> Expression { lhs - Expression(rhs) }
    /// `variable + variable`.
    public static func + (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + Expression(rhs) }
    /// `variable - variable`.
    public static func - (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) - Expression(rhs) }
    /// `factor × variable`.
    public static func * (lhs: Double, rhs: Variable) -> Expression { Expression([Term(rhs, lhs)]) }
    /// `variable × factor`.
    public static func * (lhs: Variable, rhs: Double) -> Expression { Expression([Term(lhs, rhs)]) }
}

/// How the two sides of a ``Constraint`` relate.
public enum Relation: Sendable {
    /// Left side ≤ right side.
    case lessThanOrEqual
    /// Left side = right side.
    case equal
    /// Left side ≥ right side.
    case greaterThanOrEqual
}

/// How much a constraint matters: ``required`` constraints must hold; the others are weighed against each other by
/// ``weight`` (the solver minimises the sum of each weight times its constraint's error).
public struct Strength: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The weight of a non-required constraint's error, `> 0`; ``required`` has `Double.infinity`.
    public let weight: Double

    /// A non-required strength of `weight` (finite values ≤ 0 are raised to `Double.leastNormalMagnitude`;
    /// infinity or NaN means ``required``).
    public init(_ weight: Double) {
        if !weight.isFinite {
            self.weight = .infinity
        } else {
            self.weight = max(weight, .leastNormalMagnitude)
        }
    }

    /// Must hold; a required constraint that cannot is refused with ``SolverError/unsatisfiableConstraint(_:)``.
    public static let required = Strength(.infinity)
    /// Weight 1 000 000.
    public static let strong = Strength(1_000_000)
    /// Weight 1 000.
    public static let medium = Strength(1_000)
    /// Weight 1.
    public static let weak = Strength(1)

    /// True for ``required``.
    public var isRequired: Bool { weight == .infinity }

    /// Orders by weight (``required`` above all).
    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.weight < rhs.weight }

    /// `required` or the weight.
    public var description: String { isRequired ? "required" : "\(weight)" }
}

/// A linear constraint `lhs relation rhs` with a ``Strength``; compares by identity (a solver holds each at most once).
///
/// The constraint is kept as `expression relation 0` with `expression = lhs - rhs`.
public final class Constraint: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// `lhs - rhs`.
    public let expression: Expression
    /// How `expression` relates to 0.
    public let relation: Relation
    /// How much the constraint matters.
    public let strength: Strength

    /// Creates `lhs relation rhs` at `strength` (``Strength/required`` by default).
    public init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression = 0, strength: Strength = .required) {
        expression = lhs - rhs
        self.relation = relation
        self.strength = strength
    }

    /// Identity equality.
    public static func == (lhs: Constraint, rhs: Constraint) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `2*x + -1*y + 10 == 0 (required)`.
    public var description: String {
        let terms = expression.terms.map { "\($0.coefficient)*\($0.variable)" }
        let op: String
        switch relation {
        case .lessThanOrEqual: op = "<="
        case .equal: op = "=="
        case .greaterThanOrEqual: op = ">="
        }
        return (terms + ["\(expression.constant)"]).joined(separator: " + ") + " \(op) 0 (\(strength))"
    }
}

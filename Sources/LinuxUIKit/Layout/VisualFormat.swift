import Foundation

// Auto Layout's visual format language (`NSLayoutConstraint.constraints(withVisualFormat:options:metrics:views:)`),
// as UIKit documents it:
//
//     format     := (("H" | "V") ":")? ("|" connection)? view (connection view)* (connection "|")?
//     view       := "[" name ("(" predicate ("," predicate)* ")")? "]"
//     connection := "" | "-" | "-" predicates "-"        (touching, the standard space, or the predicates)
//     predicates := simple | "(" predicate ("," predicate)* ")"
//     simple     := number | metric name
//     predicate  := ("==" | "<=" | ">=")? (number | metric name | view name) ("@" (number | metric name))?
//
// A view's predicates constrain its width (H) or height (V); a view name there means "the same as that view's". A
// connection's predicates constrain the gap between the two edges it joins; a bare "-" is the standard space, 8 points
// between views and 20 to the superview (UIKit's fixed values before system spacing). Horizontal formats use leading
// and trailing (left and right with `.directionLeftToRight`). A format UIKit would refuse with an exception is
// refused here with one logged message naming the format and the place, and no constraints.

extension NSLayoutConstraint {
    /// What ``constraints(withVisualFormat:options:metrics:views:)`` adds: alignment of every view of the format on
    /// one attribute, and the direction of horizontal formats (UIKit's `NSLayoutConstraint.FormatOptions`).
    public struct FormatOptions: OptionSet, Hashable, Sendable {
        /// The option bits (UIKit's values: alignment bits are 1 << attribute).
        public let rawValue: UInt
        /// Options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Align every view's left edge.
        public static let alignAllLeft = FormatOptions(rawValue: 1 << 1)
        /// Align every view's right edge.
        public static let alignAllRight = FormatOptions(rawValue: 1 << 2)
        /// Align every view's top edge.
        public static let alignAllTop = FormatOptions(rawValue: 1 << 3)
        /// Align every view's bottom edge.
        public static let alignAllBottom = FormatOptions(rawValue: 1 << 4)
        /// Align every view's leading edge.
        public static let alignAllLeading = FormatOptions(rawValue: 1 << 5)
        /// Align every view's trailing edge.
        public static let alignAllTrailing = FormatOptions(rawValue: 1 << 6)
        /// Align every view's horizontal centre.
        public static let alignAllCenterX = FormatOptions(rawValue: 1 << 9)
        /// Align every view's vertical centre.
        public static let alignAllCenterY = FormatOptions(rawValue: 1 << 10)
        /// Align every view's last baseline.
        public static let alignAllLastBaseline = FormatOptions(rawValue: 1 << 11)
        /// Align every view's first baseline.
        public static let alignAllFirstBaseline = FormatOptions(rawValue: 1 << 12)
        /// Horizontal formats run leading to trailing (the default).
        public static let directionLeadingToTrailing = FormatOptions(rawValue: 0 << 16)
        /// Horizontal formats run left to right.
        public static let directionLeftToRight = FormatOptions(rawValue: 1 << 16)
        /// Horizontal formats run right to left.
        public static let directionRightToLeft = FormatOptions(rawValue: 2 << 16)
        /// The bits of the direction.
        public static let directionMask = FormatOptions(rawValue: 0x3 << 16)
    }

    /// The constraints a visual format describes (see VisualFormat.swift's grammar), not yet active: activate them
    /// (`NSLayoutConstraint.activate(_:)` or `view.addConstraints(_:)`).
    ///
    /// `views` maps the names in the format to views; `metrics` maps names to numbers (`NSNumber`, `Int`, `Double`,
    /// `CGFloat`, `Float`). `options` aligns every view of the format on an attribute across the format's direction
    /// (`.alignAllTop` with an `H:` format) and sets the direction of `H:` formats. A format that does not parse, or
    /// names a view or metric that is not given, or aligns along its own direction, gives no constraints and one
    /// logged message naming the format and what is wrong (UIKit raises an exception).
    public class func constraints(
        withVisualFormat format: String, options opts: FormatOptions = [], metrics: [String: Any]?,
        views: [String: Any]
    ) -> [NSLayoutConstraint] {
        var parser = VisualFormatParser(format: format, metrics: metrics ?? [:], views: views, options: opts)
        do {
            return try parser.parse()
        } catch let error as VisualFormatParser.Failure {
            AutoLayoutLog.write(
                "Unable to parse constraint format: \(error.reason)\n\(format)\n"
                    + String(repeating: " ", count: error.offset) + "^")
            return []
        } catch {
            return []
        }
    }
}

/// Reads one visual format into constraints (``NSLayoutConstraint/constraints(withVisualFormat:options:metrics:views:)``).
@MainActor struct VisualFormatParser {
    /// Why a format is refused, and the character offset it was found at.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    /// One predicate: the relation, a constant or a view, and a priority.
    private struct Predicate {
        var relation: NSLayoutConstraint.Relation = .equal
        var constant: CGFloat = 0
        var view: UIView?
        var priority: UILayoutPriority = .required
    }

    /// The standard spaces (UIKit's fixed values): between sibling views, and between a view and its superview.
    static let siblingSpace: CGFloat = 8
    static let superviewSpace: CGFloat = 20

    private let chars: [Character]
    private var index = 0
    private let metrics: [String: Any]
    private let views: [String: Any]
    private let options: NSLayoutConstraint.FormatOptions

    init(format: String, metrics: [String: Any], views: [String: Any], options: NSLayoutConstraint.FormatOptions) {
        chars = Array(format.filter { !$0.isWhitespace })
        self.metrics = metrics
        self.views = views
        self.options = options
    }

    mutating func parse() throws -> [NSLayoutConstraint] {
        var vertical = false
        if chars.count >= 2, chars[1] == ":", chars[0] == "H" || chars[0] == "V" {
            vertical = chars[0] == "V"
            index = 2
        }
        let direction = options.intersection(.directionMask)
        let (leading, trailing): (NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute) =
            vertical
            ? (.top, .bottom)
            : direction == .directionLeftToRight
                ? (.left, .right) : direction == .directionRightToLeft ? (.right, .left) : (.leading, .trailing)
        let size: NSLayoutConstraint.Attribute = vertical ? .height : .width
        // Right to left, a gap runs towards smaller x: its constants are negated and its inequalities turned round.
        let reversed = !vertical && direction == .directionRightToLeft
        func oriented(_ p: Predicate) -> Predicate {
            guard reversed else { return p }
            var q = p
            q.constant = -p.constant
            q.relation =
                p.relation == .lessThanOrEqual
                ? .greaterThanOrEqual : p.relation == .greaterThanOrEqual ? .lessThanOrEqual : .equal
            return q
        }
        func superview(of view: UIView) throws -> UIView {
            guard let superview = view.superview else {
                throw fail("Unable to interpret '|' character, because the related view doesn't have a superview")
            }
            return superview
        }
        var result: [NSLayoutConstraint] = []
        var placed: [UIView] = []
        // The connection read before the next element, and whether it started at the superview's leading edge.
        var gap: [Predicate] = []
        var fromSuperview = false
        if peek("|") {
            index += 1
            fromSuperview = true
            gap = try connection(atSuperview: true)
            guard peek("[") else { throw fail("Expected a view after the superview's edge") }
        }
        while peek("[") {
            let view = try viewElement(size: size, into: &result)
            if let previous = placed.last {
                for p in gap.map(oriented) {
                    result.append(
                        make(view, leading, p.relation, previous, trailing, constant: p.constant, p.priority))
                }
            } else if fromSuperview {
                let edge = try superview(of: view)
                for p in gap.map(oriented) {
                    result.append(make(view, leading, p.relation, edge, leading, constant: p.constant, p.priority))
                }
            }
            placed.append(view)
            if index >= chars.count { break }
            gap = try connection(atSuperview: false)
            if peek("|") {
                index += 1
                let edge = try superview(of: view)
                for p in gap.map(oriented) {
                    result.append(make(edge, trailing, p.relation, view, trailing, constant: p.constant, p.priority))
                }
                break
            }
            guard peek("[") else { throw fail("Expected a view") }
        }
        guard index >= chars.count else { throw fail("Unexpected character") }
        guard !placed.isEmpty else { throw fail("Expected a view") }
        let alignment = try alignmentAttributes(vertical: vertical)
        for attribute in alignment {
            for (a, b) in zip(placed, placed.dropFirst()) {
                result.append(make(a, attribute, .equal, b, attribute, constant: 0, .required))
            }
        }
        return result
    }

    /// Reads a connection (after a view or the leading "|"): none (touching), "-" (the standard space: the
    /// superview's when the connection starts or ends at its edge, else the siblings') or "-predicates-".
    private mutating func connection(atSuperview: Bool) throws -> [Predicate] {
        guard peek("-") else { return [Predicate()] }
        index += 1
        if peek("[") || peek("|") {
            return [Predicate(constant: atSuperview || peek("|") ? Self.superviewSpace : Self.siblingSpace)]
        }
        let predicates: [Predicate]
        if peek("(") {
            index += 1
            predicates = try predicateList(allowViews: false, closing: ")")
        } else {
            predicates = [Predicate(constant: try simpleValue())]
        }
        guard peek("-") else { throw fail("Expected a '-' after the spacing") }
        index += 1
        return predicates
    }

    /// Reads "[name(predicates)]" and adds the view's size constraints.
    private mutating func viewElement(size: NSLayoutConstraint.Attribute, into result: inout [NSLayoutConstraint])
        throws -> UIView
    {
        index += 1
        let name = identifier()
        guard !name.isEmpty else { throw fail("Expected a view name") }
        guard let view = views[name] as? UIView else {
            throw fail("\(name) is not a key in the views dictionary")
        }
        if peek("(") {
            index += 1
            for p in try predicateList(allowViews: true, closing: ")") {
                if let other = p.view {
                    result.append(make(view, size, p.relation, other, size, constant: 0, p.priority))
                } else {
                    let constraint = NSLayoutConstraint(
                        first: view, firstAttribute: size, relation: p.relation, second: nil,
                        secondAttribute: .notAnAttribute, multiplier: 1, constant: p.constant)
                    constraint.priority = p.priority
                    result.append(constraint)
                }
            }
        }
        guard peek("]") else { throw fail("Expected ']'") }
        index += 1
        return view
    }

    /// Reads "predicate(,predicate)*" up to and past `closing`.
    private mutating func predicateList(allowViews: Bool, closing: Character) throws -> [Predicate] {
        var list: [Predicate] = []
        while true {
            var p = Predicate()
            if peek("=") || peek("<") || peek(">") {
                let two = index + 1 < chars.count ? String(chars[index...(index + 1)]) : ""
                switch two {
                case "==": p.relation = .equal
                case "<=": p.relation = .lessThanOrEqual
                case ">=": p.relation = .greaterThanOrEqual
                default: throw fail("Expected a relation (==, <= or >=)")
                }
                index += 2
            }
            if let c = chars[safe: index], c.isLetter || c == "_" {
                let name = identifier()
                if let metric = metricValue(name) {
                    p.constant = metric
                } else if allowViews, let view = views[name] as? UIView {
                    p.view = view
                } else {
                    throw fail("\(name) is not a key in the metrics or views dictionaries")
                }
            } else {
                p.constant = try number()
            }
            if peek("@") {
                index += 1
                p.priority = UILayoutPriority(Float(try simpleValue()))
            }
            list.append(p)
            if peek(",") {
                index += 1
                continue
            }
            guard peek(closing) else { throw fail("Expected '\(closing)'") }
            index += 1
            return list
        }
    }

    /// A number or a metric's value.
    private mutating func simpleValue() throws -> CGFloat {
        if let c = chars[safe: index], c.isLetter || c == "_" {
            let name = identifier()
            guard let value = metricValue(name) else { throw fail("\(name) is not a key in the metrics dictionary") }
            return value
        }
        return try number()
    }

    private mutating func number() throws -> CGFloat {
        let start = index
        if peek("-") || peek("+") { index += 1 }
        while let c = chars[safe: index], c.isNumber || c == "." { index += 1 }
        guard index > start, let value = Double(String(chars[start..<index])), value.isFinite else {
            index = start
            throw fail("Expected a number or a metric name")
        }
        return CGFloat(value)
    }

    private mutating func identifier() -> String {
        let start = index
        while let c = chars[safe: index], c.isLetter || c.isNumber || c == "_" { index += 1 }
        return String(chars[start..<index])
    }

    private func metricValue(_ name: String) -> CGFloat? {
        switch metrics[name] {
        case let n as NSNumber: return CGFloat(n.doubleValue)
        case let n as CGFloat: return n
        case let n as Double: return CGFloat(n)
        case let n as Int: return CGFloat(n)
        case let n as Float: return CGFloat(n)
        default: return nil
        }
    }

    private func peek(_ c: Character) -> Bool { chars[safe: index] == c }

    private func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: min(index, chars.count)) }

    /// The attributes `options` aligns the views on; alignment along the format's own direction is refused.
    private func alignmentAttributes(vertical: Bool) throws -> [NSLayoutConstraint.Attribute] {
        let table: [(NSLayoutConstraint.FormatOptions, NSLayoutConstraint.Attribute, Bool)] = [
            (.alignAllLeft, .left, true), (.alignAllRight, .right, true), (.alignAllLeading, .leading, true),
            (.alignAllTrailing, .trailing, true), (.alignAllCenterX, .centerX, true), (.alignAllTop, .top, false),
            (.alignAllBottom, .bottom, false), (.alignAllCenterY, .centerY, false),
            (.alignAllLastBaseline, .lastBaseline, false), (.alignAllFirstBaseline, .firstBaseline, false),
        ]
        var attributes: [NSLayoutConstraint.Attribute] = []
        for (option, attribute, isHorizontalEdge) in table where options.contains(option) {
            // An H: format aligns vertical attributes (top, centre Y, …); a V: format horizontal ones.
            guard isHorizontalEdge == vertical else {
                throw Failure(
                    reason: "Options mask required views to be aligned on a horizontal edge, which is not allowed for "
                        + "layout that is also horizontal (or vertical for vertical layout)", offset: 0)
            }
            attributes.append(attribute)
        }
        return attributes
    }

    private func make(
        _ a: AnyObject, _ aAttr: NSLayoutConstraint.Attribute, _ relation: NSLayoutConstraint.Relation, _ b: AnyObject,
        _ bAttr: NSLayoutConstraint.Attribute, constant: CGFloat, _ priority: UILayoutPriority
    ) -> NSLayoutConstraint {
        let c = NSLayoutConstraint(
            first: a, firstAttribute: aAttr, relation: relation, second: b, secondAttribute: bAttr, multiplier: 1,
            constant: constant)
        c.priority = priority
        return c
    }
}

extension Array {
    /// The element at `i`, or nil past either end.
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

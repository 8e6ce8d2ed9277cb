import Cassowary
import Foundation

/// How strongly a constraint or a content preference should hold, as UIKit's `UILayoutPriority`: `1...1000`, where
/// 1000 (``required``) must hold and lower values give way to higher ones.
///
/// The solver weighs a non-required priority `p` as `10^(p / 111)` (about 1.02× a step: 1 weighs 1, 250 about 180,
/// 750 about 5.6 million, 999 about 10⁹), so a higher priority wins a contest against a lower one, and many low
/// priorities together can outweigh one slightly higher (Waymark's weighting; UIKit does not document its own).
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable {
    /// The priority, `1...1000` (values outside are clamped when the constraint is solved).
    public var rawValue: Float

    /// Creates a priority from its value.
    public init(rawValue: Float) { self.rawValue = rawValue }

    /// Creates a priority from its value.
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    /// 1000: the constraint must hold.
    public static let required = UILayoutPriority(1000)
    /// 750: a button's compression resistance.
    public static let defaultHigh = UILayoutPriority(750)
    /// 510: a drag that can resize the scene.
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    /// 500: the scene keeps its size.
    public static let sceneSizeStayPut = UILayoutPriority(500)
    /// 490: a drag that cannot resize the scene.
    public static let dragThatCannotResizeScene = UILayoutPriority(490)
    /// 250: a button's content hugging.
    public static let defaultLow = UILayoutPriority(250)
    /// 50: what `systemLayoutSizeFitting(_:)` uses to pull the size towards its target.
    public static let fittingSizeLevel = UILayoutPriority(50)

    /// Orders by value.
    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `priority + amount`.
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue + rhs)
    }

    /// `priority − amount`.
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue - rhs)
    }

    /// The solver strength: required at 1000 and above, else the weight described on the type.
    var strength: Strength {
        let p = Double(min(max(rawValue.isFinite ? rawValue : 1000, 1), 1000))
        return p >= 1000 ? .required : Strength(pow(10, p / 111))
    }
}

/// A linear relation between two layout attributes, as UIKit's `NSLayoutConstraint`:
/// `firstItem.firstAttribute  relation  multiplier × secondItem.secondAttribute + constant` (points).
///
/// Items are views and layout guides. A constraint does nothing until activated (``isActive``,
/// ``activate(_:)``); activating it installs it on the items' nearest common ancestor (see
/// `UIView.constraints`), and the window's layout pass solves every installed constraint with the Cassowary solver
/// and writes the frames of views whose `translatesAutoresizingMaskIntoConstraints` is false. Changing ``constant``
/// re-solves incrementally on the next layout pass. When required constraints conflict, the layout pass logs
/// UIKit's "Unable to simultaneously satisfy constraints" message and breaks (leaves out) the one added last.
///
/// `leading`/`trailing` are `left`/`right` (Waymark lays out left to right only); `firstBaseline` and
/// `lastBaseline` are the top and bottom edges.
/// - Thread rules: main actor only.
@preconcurrency @MainActor
open class NSLayoutConstraint: @MainActor CustomStringConvertible, @MainActor CustomDebugStringConvertible {
    /// A layout attribute of an item, as UIKit's `NSLayoutConstraint.Attribute`.
    public enum Attribute: Int, Sendable {
        /// The left edge.
        case left = 1
        /// The right edge.
        case right = 2
        /// The top edge.
        case top = 3
        /// The bottom edge.
        case bottom = 4
        /// The leading edge (the left edge: left-to-right layout).
        case leading = 5
        /// The trailing edge (the right edge).
        case trailing = 6
        /// The width.
        case width = 7
        /// The height.
        case height = 8
        /// The horizontal centre.
        case centerX = 9
        /// The vertical centre.
        case centerY = 10
        /// The last baseline (the bottom edge in Waymark).
        case lastBaseline = 11
        /// The first baseline (the top edge in Waymark).
        case firstBaseline = 12
        /// The left edge inset by the view's left layout margin.
        case leftMargin = 13
        /// The right edge inset by the right margin.
        case rightMargin = 14
        /// The top edge inset by the top margin.
        case topMargin = 15
        /// The bottom edge inset by the bottom margin.
        case bottomMargin = 16
        /// The leading edge inset by the margin.
        case leadingMargin = 17
        /// The trailing edge inset by the margin.
        case trailingMargin = 18
        /// The horizontal centre of the margins' rectangle.
        case centerXWithinMargins = 19
        /// The vertical centre of the margins' rectangle.
        case centerYWithinMargins = 20
        /// No attribute: the second attribute of a constant size (`width == 100`).
        case notAnAttribute = 0

        /// The same as `.lastBaseline`.
        public static var baseline: Attribute { .lastBaseline }

        /// Whether the attribute lies on the horizontal axis.
        var isHorizontal: Bool {
            switch self {
            case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin, .leadingMargin,
                .trailingMargin, .centerXWithinMargins:
                true
            default: false
            }
        }

        var name: String {
            switch self {
            case .left: "left"
            case .right: "right"
            case .top: "top"
            case .bottom: "bottom"
            case .leading: "leading"
            case .trailing: "trailing"
            case .width: "width"
            case .height: "height"
            case .centerX: "centerX"
            case .centerY: "centerY"
            case .lastBaseline: "lastBaseline"
            case .firstBaseline: "firstBaseline"
            case .leftMargin: "leftMargin"
            case .rightMargin: "rightMargin"
            case .topMargin: "topMargin"
            case .bottomMargin: "bottomMargin"
            case .leadingMargin: "leadingMargin"
            case .trailingMargin: "trailingMargin"
            case .centerXWithinMargins: "centerXWithinMargins"
            case .centerYWithinMargins: "centerYWithinMargins"
            case .notAnAttribute: "notAnAttribute"
            }
        }
    }

    /// How the two sides relate, as UIKit's `NSLayoutConstraint.Relation`.
    public enum Relation: Int, Sendable {
        /// First ≤ second.
        case lessThanOrEqual = -1
        /// First = second.
        case equal = 0
        /// First ≥ second.
        case greaterThanOrEqual = 1
    }

    /// A layout axis, as UIKit's `NSLayoutConstraint.Axis`.
    public enum Axis: Int, Sendable {
        /// Left to right.
        case horizontal = 0
        /// Top to bottom.
        case vertical = 1
    }

    /// The first item (a view or a layout guide); held weakly, as UIKit.
    public private(set) weak var firstItem: AnyObject?
    /// The first item's attribute.
    public let firstAttribute: Attribute
    /// The relation.
    public let relation: Relation
    /// The second item, nil for a constant (`width == 100`); held weakly.
    public private(set) weak var secondItem: AnyObject?
    /// The second item's attribute (`.notAnAttribute` without a second item).
    public let secondAttribute: Attribute
    /// The factor on the second attribute. Defaults to 1.
    public let multiplier: CGFloat

    /// The points added to the second side. Changing it on an active constraint re-solves on the next layout pass
    /// (incrementally: no rebuild).
    open var constant: CGFloat {
        didSet {
            guard constant != oldValue else { return }
            engine?.constantDidChange(self)
        }
    }

    /// How strongly the constraint holds. Defaults to `.required`. As in UIKit, an active constraint cannot switch
    /// between required and not: such a change is logged and ignored.
    open var priority: UILayoutPriority = .required {
        didSet {
            guard priority != oldValue, isActive else { return }
            if (priority >= .required) != (oldValue >= .required) {
                AutoLayoutLog.write(
                    "Mutating a priority from required to not on an installed constraint (or vice-versa) is not "
                        + "supported. You passed priority \(priority.rawValue) and the existing priority was "
                        + "\(oldValue.rawValue).")
                priority = oldValue
                return
            }
            owner.map { LayoutEngine.structureDidChange(at: $0) }
        }
    }

    /// A name shown in descriptions and the unsatisfiable-constraints log. Defaults to nil.
    open var identifier: String?

    /// Whether the constraint takes part in layout. Setting true installs it on the items' nearest common ancestor
    /// (items in different view trees cannot be related: the activation is logged and ignored); false removes it.
    /// Defaults to false.
    open var isActive: Bool {
        get { owner != nil }
        set {
            if newValue { LayoutEngine.install(self) } else { LayoutEngine.uninstall(self) }
        }
    }

    /// Whether the constraint is used to find the first baseline of the first item; stored only. Defaults to false.
    open var shouldBeArchived = false

    /// The view the constraint is installed on (the items' nearest common ancestor) while active.
    weak var owner: UIView?
    /// The engine that solves it, while installed in one.
    weak var engine: LayoutEngine?
    /// The order of activation (earlier constraints win conflicts between required ones).
    var sequence = 0
    /// The constraint's index in its owner's installed list (`ViewLayoutState.constraintSlots`), -1 when not
    /// installed.
    var slot = -1

    /// Creates `view1.attr1  relation  multiplier × view2.attr2 + c` (UIKit's explicit form). `view2` nil (with
    /// `.notAnAttribute`) makes a constant: `view1.attr1 relation c`.
    public convenience init(
        item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation, toItem view2: Any?,
        attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat
    ) {
        self.init(
            first: view1 as AnyObject, firstAttribute: attr1, relation: relation,
            second: view2.map { $0 as AnyObject }, secondAttribute: view2 == nil ? .notAnAttribute : attr2,
            multiplier: multiplier, constant: c)
    }

    /// Creates a constraint between two items (or one and a constant when `second` is nil).
    init(
        first: AnyObject, firstAttribute: Attribute, relation: Relation, second: AnyObject?, secondAttribute: Attribute,
        multiplier: CGFloat, constant: CGFloat
    ) {
        firstItem = first
        self.firstAttribute = firstAttribute
        self.relation = relation
        secondItem = second
        self.secondAttribute = second == nil ? .notAnAttribute : secondAttribute
        self.multiplier = multiplier.isFinite ? multiplier : 1
        self.constant = constant.isFinite ? constant : 0
    }

    /// Activates every constraint of `constraints` (see ``isActive``).
    public class func activate(_ constraints: [NSLayoutConstraint]) {
        for c in constraints { c.isActive = true }
    }

    /// Deactivates every constraint of `constraints`.
    public class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for c in constraints { c.isActive = false }
    }

    /// The first item as a layout item (view or guide).
    var firstLayoutItem: (any LayoutItem)? { Self.layoutItem(firstItem) }
    /// The second item as a layout item.
    var secondLayoutItem: (any LayoutItem)? { Self.layoutItem(secondItem) }

    /// `object` as a layout item: views and layout guides are the only ones, and casts to those classes are much
    /// cheaper than a cast to the protocol (a conformance lookup), which activation and every rebuild do per item.
    static func layoutItem(_ object: AnyObject?) -> (any LayoutItem)? {
        if let view = object as? UIView { return view }
        if let guide = object as? UILayoutGuide { return guide }
        return nil
    }

    /// `<NSLayoutConstraint:0x… 'name' UIView:0x….leading == UIView:0x….leading + 20   (active)>`, as UIKit logs it.
    open var description: String {
        var text = "<NSLayoutConstraint:\(address(of: self))"
        if let identifier { text += " '\(identifier)'" }
        text += " " + Self.describe(firstItem, firstAttribute)
        switch relation {
        case .lessThanOrEqual: text += " <= "
        case .equal: text += " == "
        case .greaterThanOrEqual: text += " >= "
        }
        var rhs = ""
        if secondItem != nil || secondAttribute != .notAnAttribute {
            if multiplier != 1 { rhs += "\(formatNumber(multiplier))*" }
            rhs += Self.describe(secondItem, secondAttribute)
            if constant != 0 { rhs += constant > 0 ? " + \(formatNumber(constant))" : " - \(formatNumber(-constant))" }
        } else {
            rhs = formatNumber(constant)
        }
        text += rhs
        if priority < .required {
            text += "   (\(isActive ? "active" : "inactive"), priority \(formatNumber(CGFloat(priority.rawValue))))>"
        } else {
            text += "   (\(isActive ? "active" : "inactive"))>"
        }
        return text
    }

    /// The same as ``description``.
    open var debugDescription: String { description }

    static func describe(_ item: AnyObject?, _ attribute: Attribute) -> String {
        guard let item else { return attribute.name }
        return describeItem(item) + "." + attribute.name
    }
}

/// `UIView:0x7f…`, or `UILayoutGuide:0x7f…'name'`, as UIKit names items in constraint logs.
@MainActor func describeItem(_ item: AnyObject) -> String {
    if let guide = item as? UILayoutGuide {
        return "UILayoutGuide:\(address(of: guide))'\(guide.identifier)'"
    }
    return "\(type(of: item)):\(address(of: item))"
}

func address(of object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: ObjectIdentifier(object).hashValue), radix: 16)
}

func formatNumber(_ value: CGFloat) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
}

/// Where Auto Layout's messages go: standard error, or a test's handler.
@MainActor enum AutoLayoutLog {
    /// Receives each message; defaults to writing it to standard error.
    static var handler: (String) -> Void = { message in
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func write(_ message: String) { handler("[LayoutConstraints] " + message) }
}

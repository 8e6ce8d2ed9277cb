import Cassowary
import Foundation

/// The four unknowns of a view's or guide's rectangle in its layout engine's space (the root view's bounds space,
/// points).
@MainActor final class ItemVariables {
    let left = Variable("left")
    let top = Variable("top")
    let width = Variable("width")
    let height = Variable("height")
}

/// What a constraint can relate: a view or a layout guide.
@MainActor protocol LayoutItem: AnyObject {
    /// The item's unknowns.
    var layoutVariables: ItemVariables { get }
    /// The view whose tree the item lives in: the view itself, or a guide's owning view.
    var hostView: UIView? { get }
}

/// A rectangle that takes part in Auto Layout without a view, as UIKit's `UILayoutGuide`: spacers, groups, and
/// the views' `safeAreaLayoutGuide` and `layoutMarginsGuide`. Add it to a view with `addLayoutGuide(_:)`, then
/// constrain its anchors like a view's.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UILayoutGuide: LayoutItem, @MainActor CustomStringConvertible {
    /// The view the guide belongs to (set by `addLayoutGuide(_:)`), held weakly.
    public internal(set) weak var owningView: UIView?
    /// A name for logs. Defaults to the empty string.
    open var identifier = ""

    /// The engine's unknowns for this guide.
    let layoutVariables = ItemVariables()
    var hostView: UIView? { owningView }
    /// What the guide stands for when the view made it.
    let role: Role

    enum Role {
        case custom
        case safeArea
        case margins
    }

    /// Creates a guide; add it to a view with `addLayoutGuide(_:)`.
    public init() { role = .custom }

    init(role: Role, identifier: String) {
        self.role = role
        self.identifier = identifier
    }

    /// The guide's rectangle in the owning view's coordinates, points, after the last layout pass (`.zero` before
    /// one, or while the guide takes part in no constraint).
    open var layoutFrame: CGRect {
        guard let view = owningView, let engine = LayoutEngine.engine(of: view), engine.contains(self) else {
            return .zero
        }
        return engine.frame(of: self, in: view)
    }

    /// The left edge.
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .left) }
    /// The right edge.
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .right) }
    /// The leading edge (left: Waymark lays out left to right).
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .leading) }
    /// The trailing edge (right).
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .trailing) }
    /// The horizontal centre.
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .centerX) }
    /// The top edge.
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .top) }
    /// The bottom edge.
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .bottom) }
    /// The vertical centre.
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .centerY) }
    /// The width.
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
    /// The height.
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }

    /// `<UILayoutGuide: 0x…; frame = (0 0; 390 844); identifier = 'UIViewSafeAreaLayoutGuide'>`.
    public var description: String {
        let f = layoutFrame
        return "<UILayoutGuide: \(address(of: self)); frame = (\(formatNumber(f.minX)) \(formatNumber(f.minY)); "
            + "\(formatNumber(f.width)) \(formatNumber(f.height))); identifier = '\(identifier)'>"
    }
}

/// A view's Auto Layout state, made on first use (most views never need it).
@MainActor final class ViewLayoutState {
    lazy var variables = ItemVariables()
    /// The active constraints installed on the view (it is their items' nearest common ancestor) in activation
    /// order, nil where one was removed: each constraint knows its slot (`NSLayoutConstraint.slot`), so adding and
    /// removing are O(1) (amortized), and the holes are squeezed out once they are half the slots.
    private(set) var constraintSlots: [NSLayoutConstraint?] = []
    private var constraintHoles = 0

    /// The active constraints installed on the view, in activation order.
    var constraints: [NSLayoutConstraint] {
        var list: [NSLayoutConstraint] = []
        list.reserveCapacity(constraintSlots.count - constraintHoles)
        for case let c? in constraintSlots { list.append(c) }
        return list
    }

    /// Whether any constraint is installed on the view.
    var hasConstraints: Bool { constraintSlots.count > constraintHoles }

    /// Installs `constraint` last in activation order.
    func appendConstraint(_ constraint: NSLayoutConstraint) {
        constraint.slot = constraintSlots.count
        constraintSlots.append(constraint)
    }

    /// Removes `constraint` when it is installed here (O(1) amortized; the order of the others is kept).
    func removeConstraint(_ constraint: NSLayoutConstraint) {
        let slot = constraint.slot
        guard slot >= 0, slot < constraintSlots.count, constraintSlots[slot] === constraint else { return }
        constraint.slot = -1
        constraintSlots[slot] = nil
        constraintHoles += 1
        while let last = constraintSlots.last, last == nil {
            constraintSlots.removeLast()
            constraintHoles -= 1
        }
        if constraintHoles >= 8 && constraintHoles * 2 >= constraintSlots.count {
            var count = 0
            for i in constraintSlots.indices {
                guard let c = constraintSlots[i] else { continue }
                c.slot = count
                constraintSlots[count] = c
                count += 1
            }
            constraintSlots.removeLast(constraintSlots.count - count)
            constraintHoles = 0
        }
    }
    var guides: [UILayoutGuide] = []
    var safeAreaGuide: UILayoutGuide?
    var marginsGuide: UILayoutGuide?
    /// Content hugging per axis (horizontal, vertical).
    var hugging: [UILayoutPriority] = [.defaultLow, .defaultLow]
    /// Compression resistance per axis.
    var compressionResistance: [UILayoutPriority] = [.defaultHigh, .defaultHigh]
    /// Explicit layout margins; nil uses the default.
    var layoutMargins: UIEdgeInsets?
    var needsUpdateConstraints = false
    /// The engine solving this tree, on a root view.
    var engine: LayoutEngine?
}

extension UIView: LayoutItem {
    var layoutVariables: ItemVariables { autoLayout.variables }
    var hostView: UIView? { self }

    /// The view's Auto Layout state, made on first use.
    var autoLayout: ViewLayoutState {
        if let state = autoLayoutStorage { return state }
        let state = ViewLayoutState()
        autoLayoutStorage = state
        return state
    }
}

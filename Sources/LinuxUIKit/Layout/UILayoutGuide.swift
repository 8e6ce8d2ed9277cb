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
@MainActor open class UILayoutGuide: LayoutItem, @MainActor CustomStringConvertible {
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
    /// The active constraints installed on the view (it is their items' nearest common ancestor).
    var constraints: [NSLayoutConstraint] = []
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

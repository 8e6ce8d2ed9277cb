import Foundation

/// Told about a split view controller's display mode and collapsing, as UIKit's `UISplitViewControllerDelegate`.
/// Every method is optional.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public protocol UISplitViewControllerDelegate: AnyObject {
    /// The display mode is about to change to `displayMode`.
    func splitViewController(
        _ svc: UISplitViewController, willChangeTo displayMode: UISplitViewController.DisplayMode)
    /// The split view is collapsing to one column: return true when the secondary controller needs no showing (the
    /// primary is shown), false to show the secondary. Default: false.
    func splitViewController(
        _ splitViewController: UISplitViewController, collapseSecondary secondaryViewController: UIViewController,
        onto primaryViewController: UIViewController
    ) -> Bool
}

extension UISplitViewControllerDelegate {
    /// Does nothing.
    public func splitViewController(
        _ svc: UISplitViewController, willChangeTo displayMode: UISplitViewController.DisplayMode
    ) {}
    /// False: the secondary controller is shown when collapsed.
    public func splitViewController(
        _ splitViewController: UISplitViewController, collapseSecondary secondaryViewController: UIViewController,
        onto primaryViewController: UIViewController
    ) -> Bool { false }
}

/// A container showing a primary controller (a list) beside a secondary one (its detail), as UIKit's classic
/// `UISplitViewController` (`viewControllers` = [primary, secondary]).
///
/// Wide views (at least ``collapseWidth`` points) show the primary column on the left, ``primaryColumnWidth`` wide,
/// beside the secondary, unless the display mode is `.secondaryOnly`; ``displayModeButtonItem`` toggles the primary
/// column. Narrower views are collapsed: one controller fills the view, the secondary unless the delegate's
/// `collapseSecondary` says otherwise (or there is none). There are no animations and no overlaid column; the
/// column-style API of iOS 14 (`init(style:)`, `setViewController(_:for:)`) is not provided.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISplitViewController: UIViewController {
    /// How the columns are shown, as UIKit's `UISplitViewController.DisplayMode`.
    public enum DisplayMode: Int, Sendable {
        /// Let the split view decide (the primary beside the secondary when wide).
        case automatic = 0
        /// Only the secondary column.
        case secondaryOnly = 1
        /// The primary column beside the secondary.
        case oneBesideSecondary = 2
        /// The primary column over the secondary (shown beside it here).
        case oneOverSecondary = 3
        /// UIKit's older name of ``secondaryOnly``.
        public static var primaryHidden: DisplayMode { .secondaryOnly }
        /// UIKit's older name of ``oneBesideSecondary``.
        public static var allVisible: DisplayMode { .oneBesideSecondary }
        /// UIKit's older name of ``oneOverSecondary``.
        public static var primaryOverlay: DisplayMode { .oneOverSecondary }
    }

    /// UIKit's `automaticDimension` for the column width fraction: 320 points, at most 40 % of the view.
    public static let automaticDimension: CGFloat = -1
    /// Views narrower than this many points are collapsed to one column (Waymark's stand-in for the compact width
    /// size class).
    public static let collapseWidth: CGFloat = 600

    /// Told about display mode changes and collapsing. Defaults to nil.
    public weak var delegate: (any UISplitViewControllerDelegate)?

    /// The display mode asked for. Defaults to `.automatic`.
    public var preferredDisplayMode: DisplayMode = .automatic {
        didSet { modeDidChange(from: oldValue) }
    }

    /// The share of the view's width the primary column takes, 0…1, or ``automaticDimension`` (320 points, at most
    /// 40 %). Defaults to ``automaticDimension``.
    public var preferredPrimaryColumnWidthFraction: CGFloat = automaticDimension {
        didSet { viewIfLoaded?.setNeedsLayout() }
    }

    /// The primary column's width in points when shown.
    public var primaryColumnWidth: CGFloat {
        let width = viewIfLoaded?.bounds.width ?? UIScreen.main.bounds.width
        let fraction = preferredPrimaryColumnWidthFraction
        if fraction >= 0 && fraction.isFinite { return (width * min(fraction, 1)).rounded() }
        return min(320, (width * 0.4).rounded())
    }

    /// Whether one controller fills the view (the view is narrower than ``collapseWidth``).
    public var isCollapsed: Bool { (viewIfLoaded?.bounds.width ?? UIScreen.main.bounds.width) < Self.collapseWidth }

    /// The mode shown now: `.secondaryOnly` when collapsed or asked for, else the primary beside the secondary.
    public var displayMode: DisplayMode {
        if isCollapsed || preferredDisplayMode == .secondaryOnly { return .secondaryOnly }
        return preferredDisplayMode == .automatic ? .oneBesideSecondary : preferredDisplayMode
    }

    /// A bar button item showing or hiding the primary column (put it in the secondary's navigation item), as
    /// UIKit's `displayModeButtonItem`.
    public private(set) lazy var displayModeButtonItem: UIBarButtonItem = UIBarButtonItem(
        image: UIImage(systemName: "sidebar.left"),
        primaryAction: UIAction { [weak self] _ in self?.toggleDisplayMode() })

    /// The primary and, when set, secondary controller, as UIKit's `viewControllers`; setting replaces them.
    public var viewControllers: [UIViewController] {
        get { columns }
        set { setColumns(Array(newValue.prefix(2))) }
    }

    private var columns: [UIViewController] = []
    private let divider = UIView()

    /// Creates an empty split view controller (set ``viewControllers``).
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// Archives are not supported on Linux.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    open override func loadView() {
        let root = UIView(frame: UIScreen.main.bounds)
        root.backgroundColor = .systemBackground
        divider.backgroundColor = .separator
        root.addSubview(divider)
        view = root
        for controller in columns { root.addSubview(controller.view) }
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let bounds = view.bounds
        let primary = columns.first
        let secondary = columns.count > 1 ? columns[1] : nil
        if displayMode == .secondaryOnly {
            divider.isHidden = true
            var shown = secondary ?? primary
            if isCollapsed, let p = primary, let s = secondary,
                delegate?.splitViewController(self, collapseSecondary: s, onto: p) == true
            {
                shown = p
            }
            for controller in columns {
                controller.view.isHidden = controller !== shown
                controller.view.frame = bounds
            }
            return
        }
        let width = primaryColumnWidth
        divider.isHidden = false
        divider.frame = CGRect(x: width, y: 0, width: 1 / max(1, UIScreen.main.scale), height: bounds.height)
        primary?.view.isHidden = false
        primary?.view.frame = CGRect(x: 0, y: 0, width: width, height: bounds.height)
        secondary?.view.isHidden = false
        secondary?.view.frame = CGRect(
            x: width + divider.frame.width, y: 0, width: max(0, bounds.width - width - divider.frame.width),
            height: bounds.height)
    }

    /// Shows `vc` as the secondary controller, replacing the old one, as UIKit's `showDetailViewController(_:sender:)`
    /// in a split view.
    open func showDetail(_ vc: UIViewController) {
        var next = columns
        if next.isEmpty {
            next = [vc]
        } else if next.count == 1 {
            next.append(vc)
        } else {
            next[1] = vc
        }
        setColumns(next)
    }

    /// Shows or hides the primary column (``displayModeButtonItem``'s action).
    public func toggleDisplayMode() {
        preferredDisplayMode = displayMode == .secondaryOnly ? .oneBesideSecondary : .secondaryOnly
    }

    private func modeDidChange(from old: DisplayMode) {
        guard old != preferredDisplayMode else { return }
        delegate?.splitViewController(self, willChangeTo: preferredDisplayMode)
        viewIfLoaded?.setNeedsLayout()
    }

    private func setColumns(_ next: [UIViewController]) {
        for old in columns where !next.contains(where: { $0 === old }) {
            old.willMove(toParent: nil)
            old.viewIfLoaded?.removeFromSuperview()
            old.removeFromParent()
        }
        for controller in next where controller.parent !== self {
            addChild(controller)
            if let root = viewIfLoaded { root.addSubview(controller.view) }
            controller.didMove(toParent: self)
        }
        columns = next
        viewIfLoaded?.setNeedsLayout()
    }
}

extension UIViewController {
    /// The nearest split view controller this controller is in (itself excluded), as UIKit's
    /// `splitViewController`; nil when there is none.
    public var splitViewController: UISplitViewController? {
        var current = parent
        while let controller = current {
            if let split = controller as? UISplitViewController { return split }
            current = controller.parent
        }
        return nil
    }
}

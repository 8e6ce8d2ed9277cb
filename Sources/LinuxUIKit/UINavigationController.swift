import Foundation

/// Told about a navigation controller's transitions, as UIKit's `UINavigationControllerDelegate`. Both methods are
/// optional.
@preconcurrency @MainActor public protocol UINavigationControllerDelegate: AnyObject {
    /// Called before `viewController` is shown (pushed, popped to or set).
    func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    /// Called after `viewController` was shown (after the animation).
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
}

extension UINavigationControllerDelegate {
    /// Does nothing by default.
    public func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool
    ) {}
    /// Does nothing by default.
    public func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool
    ) {}
}

/// A stack of view controllers with a navigation bar, as UIKit's `UINavigationController`.
///
/// The top controller's view fills the area under the 44-point ``navigationBar``; the bar shows the top
/// controller's `navigationItem` and a back button titled after the controller below. Pushing slides the new view
/// in from the right edge while the old one moves a third of the width left; popping reverses it. Animations take
/// ``transitionDuration`` (0.35 s) on the animator's clock (the host clock), ease in and out; the bar's titles and
/// buttons slide and cross-fade with it (the old title towards the back button, the new one in from the right on a
/// push, the other way on a pop). Appearance callbacks run as UIKit's: `viewWillDisappear`/`viewWillAppear` before
/// the animation, `viewDidDisappear`/`viewDidAppear` after it; pushed controllers become ``children``
/// (`willMove`/`didMove(toParent:)`). A push or pop during a transition first completes the running one. When the top
/// item has a `searchController`, its search bar shows under the navigation bar (52 points) and the content starts
/// below it; on an animated push or pop away from it, the bar slides and fades out with the title.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UINavigationController: UIViewController {
    /// Seconds a push or pop animation takes: 0.35.
    public static let transitionDuration: TimeInterval = 0.35

    /// The bar across the top.
    public let navigationBar: UINavigationBar = UINavigationBar(frame: .zero)
    /// The bar along the bottom showing the top controller's `toolbarItems`, as UIKit's `toolbar`; shown only while
    /// ``isToolbarHidden`` is false, 44 points tall above the safe area's bottom, the content ending at its top.
    public private(set) var toolbar: UIToolbar! = UIToolbar(frame: .zero)
    /// Told before and after controllers are shown. Defaults to nil.
    public weak var delegate: (any UINavigationControllerDelegate)?

    private var stack: [UIViewController] = []
    private let contentView = UIView()
    private var transition: Transition?
    private var transitionSerial = 0
    private weak var shownSearchBar: UISearchBar?
    /// The toolbar's colour under it, in the safe area's bottom inset.
    private let toolbarFiller = ToolbarFillerView()

    private struct Transition {
        let serial: Int
        let from: UIViewController?
        let to: UIViewController
        let removed: [UIViewController]
        let animated: Bool
        let toIsNew: Bool
        let isPush: Bool
    }

    /// Creates a navigation controller showing `rootViewController`, as UIKit's initialiser.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        toolbar.isHidden = true
        toolbarFiller.isHidden = true
        setViewControllers([rootViewController], animated: false)
    }

    /// Creates an empty navigation controller (set ``viewControllers`` before showing it).
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
        toolbar.isHidden = true
        toolbarFiller.isHidden = true
    }

    /// Creates an empty navigation controller (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        toolbar.isHidden = true
        toolbarFiller.isHidden = true
    }

    /// The controllers on the stack, bottom (root) to top. Setting it is ``setViewControllers(_:animated:)`` without
    /// animation.
    public var viewControllers: [UIViewController] {
        get { stack }
        set { setViewControllers(newValue, animated: false) }
    }

    /// The controller on top of the stack.
    public var topViewController: UIViewController? { stack.last }

    /// The controller whose view shows: the top controller's presented controller when it presents one, else the
    /// top controller.
    public var visibleViewController: UIViewController? {
        var shown = stack.last
        while let presented = shown?.presentedViewController { shown = presented }
        return shown ?? presentedViewController
    }

    /// Whether the bar is hidden. Defaults to false.
    public var isNavigationBarHidden: Bool {
        get { navigationBar.isHidden }
        set { setNavigationBarHidden(newValue, animated: false) }
    }

    /// Hides or shows the bar; the change is immediate.
    public func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        navigationBar.isHidden = hidden
        viewIfLoaded?.setNeedsLayout()
    }

    /// Whether the toolbar is hidden, as UIKit's property. Defaults to true (a navigation controller shows no
    /// toolbar until asked).
    public var isToolbarHidden: Bool {
        get { toolbar.isHidden }
        set { setToolbarHidden(newValue, animated: false) }
    }

    /// Hides or shows the toolbar, as UIKit's method; the change is immediate (`animated` is accepted for source
    /// compatibility).
    public func setToolbarHidden(_ hidden: Bool, animated: Bool) {
        toolbar.isHidden = hidden
        toolbarFiller.isHidden = hidden
        viewIfLoaded?.setNeedsLayout()
    }

    /// Called when `controller`'s `toolbarItems` changed: the toolbar follows the top controller's.
    func toolbarItemsChanged(by controller: UIViewController) {
        if controller === stack.last { syncBarItems() }
    }

    /// Replaces the stack, as UIKit's method: with animation a push (new top not on the old stack) or pop
    /// transition to the new top. Controllers leaving the stack leave ``children``.
    public func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        completeTransition()
        var unique: [UIViewController] = []
        for controller in viewControllers where !unique.contains(where: { $0 === controller }) {
            unique.append(controller)
        }
        let old = stack
        let oldTop = old.last
        let removed = old.filter { c in !unique.contains { $0 === c } }
        var added: [UIViewController] = []
        for controller in unique where controller.parent !== self {
            addChild(controller)
            added.append(controller)
        }
        stack = unique
        syncBarItems()
        for controller in added where controller !== unique.last { controller.didMove(toParent: self) }
        guard let newTop = unique.last, newTop !== oldTop else {
            finishRemoval(removed)
            return
        }
        let isPush = !old.contains { $0 === newTop }
        let toIsNew = added.contains { $0 === newTop }
        begin(from: oldTop, to: newTop, removed: removed, animated: animated, isPush: isPush, toIsNew: toIsNew)
    }

    /// Pushes `viewController` on top and shows it, as UIKit's method; a controller already on the stack is
    /// ignored (UIKit raises).
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        completeTransition()
        guard !stack.contains(where: { $0 === viewController }) else {
            UIKitLog.warning("pushViewController: \(type(of: viewController)) is already on the stack; ignored")
            return
        }
        setViewControllers(stack + [viewController], animated: animated)
    }

    /// Pops the top controller and shows the one below, as UIKit's method.
    /// - Returns: the popped controller, or nil when only the root is left.
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        completeTransition()
        guard stack.count > 1, let top = stack.last else { return nil }
        setViewControllers(Array(stack.dropLast()), animated: animated)
        return top
    }

    /// Pops every controller above the root, as UIKit's method.
    /// - Returns: the popped controllers (bottom to top), or nil when only the root was there.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        completeTransition()
        guard stack.count > 1 else { return nil }
        let popped = Array(stack.dropFirst())
        setViewControllers([stack[0]], animated: animated)
        return popped
    }

    /// Pops the controllers above `viewController`, as UIKit's method.
    /// - Returns: the popped controllers, or nil when `viewController` is not on the stack.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        completeTransition()
        guard let index = stack.firstIndex(where: { $0 === viewController }) else { return nil }
        let popped = Array(stack[(index + 1)...])
        if !popped.isEmpty { setViewControllers(Array(stack[...index]), animated: animated) }
        return popped
    }

    /// Makes the container view with the bar and the content area.
    open override func loadView() {
        let root = NavigationContainerView(frame: UIScreen.main.bounds)
        root.controller = self
        root.backgroundColor = .systemBackground
        contentView.clipsToBounds = true
        root.addSubview(contentView)
        navigationBar.navigationController = self
        root.addSubview(navigationBar)
        toolbarFiller.toolbar = toolbar
        root.addSubview(toolbarFiller)
        root.addSubview(toolbar)
        view = root
        if let top = stack.last, transition == nil { install(top, at: 0) }
    }

    /// Forwards to the top controller.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if transition == nil { topViewController?.viewWillAppear(animated) }
    }

    /// Forwards to the top controller.
    open override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        if transition == nil { topViewController?.viewDidAppear(animated) }
    }

    /// Forwards to the top controller.
    open override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        topViewController?.viewWillDisappear(animated)
    }

    /// Forwards to the top controller.
    open override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        topViewController?.viewDidDisappear(animated)
    }

    /// The search controller whose bar shows under the navigation bar: the top item's, while the bar shows.
    private var shownSearchController: UISearchController? {
        navigationBar.isHidden ? nil : stack.last?.navigationItem.searchController
    }

    /// The area under the bar and the search bar (the whole view when the bar is hidden), in the container's
    /// coordinates.
    private var contentFrame: CGRect {
        guard let root = viewIfLoaded else { return .zero }
        var top = navigationBar.isHidden ? 0 : root.safeAreaInsets.top + UINavigationBar.height
        if shownSearchController != nil { top += UISearchBar.navigationHeight }
        let bottom = toolbar.isHidden ? root.bounds.height : toolbarFrame(in: root).minY
        return CGRect(x: 0, y: top, width: root.bounds.width, height: max(0, bottom - top))
    }

    /// The toolbar's frame: 44 points tall, its bottom on the safe area's bottom.
    private func toolbarFrame(in root: UIView) -> CGRect {
        let bottom = root.bounds.height - root.safeAreaInsets.bottom
        return CGRect(x: 0, y: bottom - UIToolbar.height, width: root.bounds.width, height: UIToolbar.height)
    }

    /// Where an active search's cover goes: the content area under the search bar.
    var searchCoverFrame: CGRect { contentFrame }

    /// Lays out the bar and the content area (the container view's `layoutSubviews`).
    func layoutContainer() {
        guard let root = viewIfLoaded else { return }
        navigationBar.frame = CGRect(
            x: 0, y: root.safeAreaInsets.top, width: root.bounds.width, height: UINavigationBar.height)
        layoutSearchBar(in: root)
        if !toolbar.isHidden {
            let bar = toolbarFrame(in: root)
            toolbar.setFrameIfChanged(bar)
            toolbarFiller.setFrameIfChanged(
                CGRect(x: 0, y: bar.maxY, width: bar.width, height: max(0, root.bounds.height - bar.maxY)))
        }
        let frame = contentFrame
        if contentView.frame != frame { contentView.frame = frame }
        if transition == nil, let top = stack.last?.viewIfLoaded, top.superview === contentView,
            top.frame != contentView.bounds
        {
            top.frame = contentView.bounds
        }
    }

    /// Shows the top item's search bar under the navigation bar (and removes one no longer shown).
    private func layoutSearchBar(in root: UIView) {
        let controller = shownSearchController
        if let shown = shownSearchBar, shown !== controller?.searchBar {
            shown.searchController?.hostingNavigationController = nil
            shown.searchController?.viewIfLoaded?.removeFromSuperview()
            shownSearchBar = nil
            if let transition, transition.animated, shown.superview === root {
                // An animated push or pop: the outgoing search bar slides and fades with the bar's title, then
                // leaves (unless it is shown again meanwhile).
                let frame = shown.frame
                let dx = transition.isPush ? -root.bounds.width / 3 : root.bounds.width
                UIView.animate(
                    withDuration: UINavigationController.transitionDuration, delay: 0, options: [.curveEaseInOut],
                    animations: {
                        shown.alpha = 0
                        shown.frame = frame.offsetBy(dx: dx, dy: 0)
                    },
                    completion: { [weak self, weak shown] _ in
                        guard let shown, self?.shownSearchBar !== shown else { return }
                        shown.removeFromSuperview()
                        shown.isInNavigationBar = false
                        shown.alpha = 1
                    })
            } else {
                shown.removeFromSuperview()
                shown.isInNavigationBar = false
            }
        }
        guard let controller else { return }
        let bar = controller.searchBar
        controller.hostingNavigationController = self
        bar.isInNavigationBar = true
        bar.alpha = 1
        if bar.superview !== root { root.insertSubview(bar, belowSubview: navigationBar) }
        shownSearchBar = bar
        bar.frame = CGRect(
            x: 0, y: navigationBar.frame.maxY, width: root.bounds.width, height: UISearchBar.navigationHeight)
        controller.placeCover()
    }

    private func syncBarItems() {
        navigationBar.items = stack.map(\.navigationItem)
        toolbar.items = stack.last?.toolbarItems
    }

    /// Adds `controller`'s view to the content area, `offset` widths to the right.
    private func install(_ controller: UIViewController, at offset: CGFloat) {
        guard let view = controller.view else { return }
        let bounds = contentView.bounds
        view.frame = bounds.offsetBy(dx: offset * bounds.width, dy: 0)
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        if view.superview !== contentView { contentView.addSubview(view) }
    }

    private func begin(
        from: UIViewController?, to: UIViewController, removed: [UIViewController], animated: Bool, isPush: Bool,
        toIsNew: Bool
    ) {
        transitionSerial += 1
        let serial = transitionSerial
        let shown = isViewLoaded && view.window != nil
        let animate = animated && shown && from != nil
        transition = Transition(
            serial: serial, from: from, to: to, removed: removed, animated: animate, toIsNew: toIsNew,
            isPush: isPush)
        delegate?.navigationController(self, willShow: to, animated: animate)
        guard isViewLoaded else {
            completeTransition()
            return
        }
        layoutContainer()
        if shown {
            from?.viewWillDisappear(animate)
            to.viewWillAppear(animate)
        }
        if isPush {
            install(to, at: animate ? 1 : 0)
        } else {
            install(to, at: animate ? -1.0 / 3 : 0)
            if let fromView = from?.viewIfLoaded { contentView.bringSubviewToFront(fromView) }
        }
        guard animate else {
            completeTransition()
            return
        }
        let width = contentView.bounds.width
        let bounds = contentView.bounds
        navigationBar.animateItemChange(isPush: isPush, duration: UINavigationController.transitionDuration)
        UIView.animate(
            withDuration: UINavigationController.transitionDuration, delay: 0, options: [.curveEaseInOut],
            animations: {
                to.view.frame = bounds
                from?.viewIfLoaded?.frame = bounds.offsetBy(dx: isPush ? -width / 3 : width, dy: 0)
            },
            completion: { [weak self] _ in
                guard let self, self.transition?.serial == serial else { return }
                self.completeTransition()
            })
    }

    /// Ends the running transition at once: the old view leaves, callbacks after the animation run.
    private func completeTransition() {
        guard let transition else { return }
        self.transition = nil
        navigationBar.finishItemChange()
        let shown = isViewLoaded && view.window != nil
        if let fromView = transition.from?.viewIfLoaded, transition.from !== stack.last,
            fromView.superview === contentView
        {
            fromView.removeFromSuperview()
        }
        if let toView = transition.to.viewIfLoaded, toView.superview === contentView {
            toView.frame = contentView.bounds
        }
        if shown {
            transition.from?.viewDidDisappear(transition.animated)
            transition.to.viewDidAppear(transition.animated)
        }
        finishRemoval(transition.removed)
        if transition.toIsNew, transition.to.parent === self { transition.to.didMove(toParent: self) }
        delegate?.navigationController(self, didShow: transition.to, animated: transition.animated)
    }

    private func finishRemoval(_ removed: [UIViewController]) {
        for controller in removed where controller.parent === self {
            controller.willMove(toParent: nil)
            if let view = controller.viewIfLoaded, view.superview === contentView { view.removeFromSuperview() }
            controller.removeFromParent()
        }
    }

    /// Whether a push or pop animation is running (Waymark's own, for tests and hosts).
    package var isTransitioning: Bool { transition != nil }
}

/// The toolbar's background in the safe area under it (drawn in the toolbar's colour).
@MainActor final class ToolbarFillerView: UIView {
    weak var toolbar: UIToolbar?

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.setFillColor((toolbar?.barTintColor ?? UINavigationBar.defaultBarColor).cgColor)
        context.fill(bounds)
    }
}

/// The navigation controller's root view: lays out the bar and the content area.
@MainActor final class NavigationContainerView: UIView {
    weak var controller: UINavigationController?

    override func layoutSubviews() { controller?.layoutContainer() }
}

import Foundation

/// A view controller's links to other controllers: its parent and children (containment), the controllers it
/// presents and is presented by, and its navigation item (made on first use).
struct ControllerLinks {
    weak var parent: UIViewController?
    var children: [UIViewController] = []
    weak var presenting: UIViewController?
    var presented: UIViewController?
    var navigationItem: UINavigationItem?
    var presentation = PresentationState()
}

extension UIViewController {
    /// The controller this one inherits traits from when its view is not shown: its parent, else its presenter.
    var inheritanceParent: UIViewController? { links.parent ?? links.presenting }

    /// The container controller this one is a child of (a navigation controller for the controllers on its stack),
    /// or nil, as UIKit's `parent`.
    public var parent: UIViewController? { links.parent }

    /// The child controllers in the order they were added, as UIKit's `children`.
    public var children: [UIViewController] { links.children }

    /// Adds `childController` as a child, as UIKit's `addChild(_:)`: removes it from its old parent, calls its
    /// `willMove(toParent:)` with this controller and appends it to ``children``. Adding its view and calling
    /// `didMove(toParent:)` are the container's job. Adding a controller to itself is ignored.
    public func addChild(_ childController: UIViewController) {
        guard childController !== self else { return }
        if childController.links.parent === self { return }
        childController.removeFromParent()
        childController.willMove(toParent: self)
        links.children.append(childController)
        childController.links.parent = self
    }

    /// Removes the controller from its parent, as UIKit's `removeFromParent()`: it leaves the parent's ``children``
    /// and hears `didMove(toParent: nil)`. The caller calls `willMove(toParent: nil)` first and removes the view, as
    /// in UIKit. Nothing happens without a parent.
    public func removeFromParent() {
        guard let parent = links.parent else { return }
        parent.links.children.removeAll { $0 === self }
        links.parent = nil
        didMove(toParent: nil)
    }

    /// The item a navigation bar shows for this controller (title, bar button items), as UIKit's `navigationItem`;
    /// made on first use with the controller's ``title``.
    public var navigationItem: UINavigationItem {
        if let item = links.navigationItem { return item }
        let item = UINavigationItem(title: title ?? "")
        if title == nil { item.title = nil }
        links.navigationItem = item
        return item
    }

    /// The nearest navigation controller this controller is on or in (itself excluded), as UIKit's
    /// `navigationController`; nil when there is none.
    public var navigationController: UINavigationController? {
        var current = links.parent
        while let controller = current {
            if let navigation = controller as? UINavigationController { return navigation }
            current = controller.links.parent
        }
        return nil
    }

    /// Shows `vc` the way the nearest container shows new content, as UIKit's `show(_:sender:)`: pushed on the
    /// navigation controller this controller is on (animated), else presented modally by this controller.
    public func show(_ vc: UIViewController, sender: Any?) {
        if let navigation = self as? UINavigationController ?? navigationController {
            navigation.pushViewController(vc, animated: true)
        } else {
            present(vc, animated: true, completion: nil)
        }
    }

    /// Shows `vc` as detail content, as UIKit's `showDetailViewController(_:sender:)`: the secondary controller of
    /// the split view controller this one is (or is in), else ``show(_:sender:)``.
    public func showDetailViewController(_ vc: UIViewController, sender: Any?) {
        if let split = self as? UISplitViewController ?? splitViewController {
            split.showDetail(vc)
        } else {
            show(vc, sender: sender)
        }
    }
}

import Foundation

/// Views compare and hash by identity, as UIKit's `NSObject` subclasses do: `subviews.contains(view)`,
/// `firstIndex(of:)`, sets of views.
extension UIView: @MainActor Hashable {
    /// True when both are the same view.
    public static func == (lhs: UIView, rhs: UIView) -> Bool { lhs === rhs }
    /// Hashes the view's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// View controllers compare and hash by identity, as UIKit's: `viewControllers.contains(controller)`.
extension UIViewController: @MainActor Hashable {
    /// True when both are the same controller.
    public static func == (lhs: UIViewController, rhs: UIViewController) -> Bool { lhs === rhs }
    /// Hashes the controller's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

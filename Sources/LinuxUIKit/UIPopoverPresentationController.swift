import Foundation

/// The directions a popover's arrow may point, as UIKit's `UIPopoverArrowDirection`.
public struct UIPopoverArrowDirection: OptionSet, Hashable, Sendable {
    /// The direction bits.
    public let rawValue: UInt
    /// Creates directions from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Up.
    public static let up = UIPopoverArrowDirection(rawValue: 1 << 0)
    /// Down.
    public static let down = UIPopoverArrowDirection(rawValue: 1 << 1)
    /// Left.
    public static let left = UIPopoverArrowDirection(rawValue: 1 << 2)
    /// Right.
    public static let right = UIPopoverArrowDirection(rawValue: 1 << 3)
    /// Any direction.
    public static let any: UIPopoverArrowDirection = [.up, .down, .left, .right]
    /// Not known yet.
    public static let unknown = UIPopoverArrowDirection(rawValue: UInt.max)
}

/// Where a popover points, as UIKit's `UIPopoverPresentationController`.
///
/// A controller has one only while its ``UIViewController/modalPresentationStyle`` is `.popover` (an action-sheet
/// alert controller's style on iPad); Waymark lays out as an iPhone does, so every other style gives nil, as on
/// iPhone, and `sheet.popoverPresentationController?.sourceView = view` compiles and does nothing. The anchor is
/// stored and read back: Linux presents a popover-style controller over the whole window, without an arrow.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIPopoverPresentationController {
    /// The controller presented in the popover.
    public private(set) weak var presentedViewController: UIViewController?

    /// The view the popover points at, or nil. Held weakly, as on iOS.
    open weak var sourceView: UIView?
    /// The rectangle in ``sourceView`` the popover points at, points. Defaults to `.zero`.
    open var sourceRect: CGRect = .zero
    /// The bar button item the popover points at instead of a view, or nil.
    open var barButtonItem: UIBarButtonItem?
    /// The directions the arrow may point. Defaults to `.any`.
    open var permittedArrowDirections: UIPopoverArrowDirection = .any
    /// The direction the arrow points once presented: `.unknown` on Linux, which draws no arrow.
    open var arrowDirection: UIPopoverArrowDirection { .unknown }

    /// Creates the popover controller for `presented`.
    init(presented: UIViewController) { presentedViewController = presented }
}

extension UIViewController {
    /// The popover presentation controller, as UIKit's property: one (kept for the controller's life) while
    /// ``modalPresentationStyle`` is `.popover`, otherwise nil (as on iPhone, the idiom Waymark lays out as).
    public var popoverPresentationController: UIPopoverPresentationController? {
        guard modalPresentationStyle == .popover else { return nil }
        if let popover = links.presentation.popover { return popover }
        let popover = UIPopoverPresentationController(presented: self)
        links.presentation.popover = popover
        return popover
    }

    /// Insets added to the safe area of the controller's view, points, as UIKit's property. Defaults to `.zero`.
    /// Stored and read back: Linux windows have no safe-area insets and Waymark does not add these to
    /// `safeAreaInsets` either.
    public var additionalSafeAreaInsets: UIEdgeInsets {
        get { links.presentation.additionalSafeAreaInsets }
        set { links.presentation.additionalSafeAreaInsets = newValue }
    }
}

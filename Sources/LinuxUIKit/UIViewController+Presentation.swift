import Foundation

/// How a presented controller covers the screen, as UIKit's `UIModalPresentationStyle`. Waymark lays out as an
/// iPhone: `.automatic`, `.pageSheet` and `.formSheet` present as a sheet (a card from the bottom edge, see
/// ``UISheetPresentationController``); the other styles cover the window, and `.fullScreen` and `.currentContext`
/// also tell the presenter its view disappears.
public enum UIModalPresentationStyle: Int, Sendable {
    /// The system's choice: `.pageSheet`.
    case automatic = -2
    /// No presentation style (for `UIAdaptivePresentationControllerDelegate`).
    case none = -1
    /// Covers the window; the presenter's view disappears.
    case fullScreen = 0
    /// A sheet: a card over the presenter (``UISheetPresentationController``).
    case pageSheet = 1
    /// A sheet, as `.pageSheet` (an iPhone has no centred form sheet).
    case formSheet = 2
    /// Covers the presenter's context; the presenter's view disappears.
    case currentContext = 3
    /// Presented by a custom presentation controller (covers the window here).
    case custom = 4
    /// Covers the window; the presenter's view stays below (alerts).
    case overFullScreen = 5
    /// Covers the presenter's context; its view stays below.
    case overCurrentContext = 6
    /// A popover (covers the window here).
    case popover = 7
}

/// How a presentation animates, as UIKit's `UIModalTransitionStyle`.
public enum UIModalTransitionStyle: Int, Sendable {
    /// Slides up from the bottom edge (down again when dismissed).
    case coverVertical = 0
    /// Drawn as `.crossDissolve`.
    case flipHorizontal = 1
    /// Fades in (out when dismissed).
    case crossDissolve = 2
    /// Drawn as `.coverVertical`.
    case partialCurl = 3
}

/// A controller's presentation state.
struct PresentationState {
    var style: UIModalPresentationStyle = .automatic
    var transitionStyle: UIModalTransitionStyle = .coverVertical
    var isBeingPresented = false
    var isBeingDismissed = false
    var popover: UIPopoverPresentationController?
    var sheet: UISheetPresentationController?
    var isModalInPresentation = false
    var additionalSafeAreaInsets = UIEdgeInsets.zero
}

extension UIViewController {
    /// Seconds a presentation or dismissal animation takes on the animator's clock: 0.35 (0.2 for a cross-dissolve).
    static func presentationDuration(_ style: UIModalTransitionStyle) -> TimeInterval {
        style == .crossDissolve || style == .flipHorizontal ? 0.2 : 0.35
    }

    /// How the controller covers the screen when presented. Defaults to `.automatic`.
    public var modalPresentationStyle: UIModalPresentationStyle {
        get { links.presentation.style }
        set { links.presentation.style = newValue }
    }

    /// How the controller's presentation animates. Defaults to `.coverVertical`.
    public var modalTransitionStyle: UIModalTransitionStyle {
        get { links.presentation.transitionStyle }
        set { links.presentation.transitionStyle = newValue }
    }

    /// The controller this one presents (or its container presents), as UIKit's property; nil when none.
    public var presentedViewController: UIViewController? { links.presented ?? topContainer.links.presented }

    /// The controller that presented this one (or its container), as UIKit's property; nil when not presented.
    public var presentingViewController: UIViewController? { links.presenting ?? topContainer.links.presenting }

    /// For a `.currentContext` or `.overCurrentContext` presentation: this controller or the nearest parent whose
    /// `definesPresentationContext` is true and whose view is in a window; nil for other styles or when none does.
    private func contextPresenter(for style: UIModalPresentationStyle) -> UIViewController? {
        guard style == .currentContext || style == .overCurrentContext else { return nil }
        var current: UIViewController? = self
        while let controller = current {
            if controller.definesPresentationContext, controller.viewIfLoaded?.window != nil { return controller }
            current = controller.links.parent
        }
        return nil
    }

    /// Whether the controller is being presented right now (between `present` and the end of its animation).
    public var isBeingPresented: Bool { links.presentation.isBeingPresented }
    /// Whether the controller is being dismissed right now.
    public var isBeingDismissed: Bool { links.presentation.isBeingDismissed }

    /// The outermost container of this controller (itself when it has no parent): the one that presents.
    private var topContainer: UIViewController {
        var top = self
        while let parent = top.links.parent { top = parent }
        return top
    }

    /// Presents `viewControllerToPresent` over this controller's window, as UIKit's method: as a sheet (a card at its
    /// ``UIViewController/sheetPresentationController``'s detent, sliding up from the bottom edge) for `.automatic`,
    /// `.pageSheet` and `.formSheet`, else its view covers the window (added on top, sized to it) and appears with
    /// `modalTransitionStyle`'s animation; animations take ``presentationDuration(_:)`` when `animated`;
    /// `viewWillAppear`, then after the animation `viewDidAppear` and `completion`. The presenter is this controller's
    /// outermost container, except that a `.currentContext` or `.overCurrentContext` presentation is presented by
    /// the nearest controller (this one or a parent) whose `definesPresentationContext` is true, covering that
    /// controller's view only. As in UIKit, presenting while already presenting, presenting a controller that is already
    /// presented, or presenting from a controller whose view is not in a window logs a warning and does nothing
    /// (`completion` is not called).
    public func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) {
        let context = contextPresenter(for: viewControllerToPresent.modalPresentationStyle)
        let presenter = context ?? topContainer
        let presented = viewControllerToPresent
        if let current = presenter.links.presented {
            UIKitLog.warning(
                "Attempt to present \(type(of: presented)) on \(type(of: presenter)) which is already presenting "
                    + "\(type(of: current))")
            return
        }
        guard presented.links.presenting == nil, presented !== presenter, presented.parent == nil else {
            UIKitLog.warning("Attempt to present \(type(of: presented)) which is already presented or contained")
            return
        }
        guard let window = presenter.viewIfLoaded?.window else {
            UIKitLog.warning(
                "Attempt to present \(type(of: presented)) on \(type(of: presenter)) whose view is not in the window "
                    + "hierarchy")
            return
        }
        presenter.links.presented = presented
        presented.links.presenting = presenter
        presented.links.presentation.isBeingPresented = true
        let coversPresenter = [.fullScreen, .currentContext].contains(presented.modalPresentationStyle)
        guard let view = presented.view else { return }
        view.alpha = 1
        let sheet = presented.sheetPresentationController
        if let sheet {
            _ = sheet.install(in: window, presenter: presenter, animated: flag)
        } else if let contextView = context?.viewIfLoaded {
            // Covers the context controller's view only (as UIKit's current-context presentations).
            view.frame = contextView.convert(contextView.bounds, to: window)
            view.autoresizingMask = []
            window.addSubview(view)
        } else {
            view.frame = window.bounds
            view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            window.addSubview(view)
        }
        if coversPresenter { presenter.viewWillDisappear(flag) }
        presented.viewWillAppear(flag)
        let finish = { [weak presenter, weak presented] in
            guard let presented else { return }
            presented.links.presentation.isBeingPresented = false
            if coversPresenter { presenter?.viewDidDisappear(flag) }
            presented.viewDidAppear(flag)
            completion?()
        }
        guard flag else {
            finish()
            return
        }
        let style = presented.modalTransitionStyle
        if let sheet {
            UIView.animate(
                withDuration: UIViewController.presentationDuration(.coverVertical), delay: 0, options: [.curveEaseOut],
                animations: { sheet.layout() }, completion: { _ in finish() })
            return
        }
        let bounds = view.frame
        if style == .crossDissolve || style == .flipHorizontal {
            view.alpha = 0
        } else {
            view.frame = bounds.offsetBy(dx: 0, dy: bounds.height)
        }
        UIView.animate(
            withDuration: UIViewController.presentationDuration(style), delay: 0, options: [.curveEaseOut],
            animations: {
                view.alpha = 1
                view.frame = bounds
            }, completion: { _ in finish() })
    }

    /// Dismisses the controller this one presents, or — when it presents none — this controller (or its
    /// container) from its presenter, as UIKit's method: anything presented above goes too, `viewWillDisappear`,
    /// the reverse animation when `animated`, then the view leaves the window, `viewDidDisappear` and `completion`.
    /// Does nothing (and does not call `completion`) when nothing is presented. Called on an active
    /// ``UISearchController`` or its results controller that presents nothing, it ends the search (as
    /// `isActive = false`: Cancel, caret and cover go) and calls `completion`, as iOS does.
    public func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        let top = links.presented != nil ? self : topContainer
        let presenter: UIViewController
        if top.links.presented != nil {
            presenter = top
        } else if let presenting = top.links.presenting {
            presenter = presenting
        } else {
            if let search = top as? UISearchController, search.isActive {
                search.isActive = false
                completion?()
            }
            return
        }
        guard let presented = presenter.links.presented, !presented.links.presentation.isBeingDismissed else {
            return
        }
        if presented.links.presented != nil { presented.dismiss(animated: false) }
        presented.links.presentation.isBeingDismissed = true
        let coversPresenter = [.fullScreen, .currentContext].contains(presented.modalPresentationStyle)
        presented.viewWillDisappear(flag)
        if coversPresenter { presenter.viewWillAppear(flag) }
        let sheet = presented.links.presentation.sheet.flatMap { $0.container == nil ? nil : $0 }
        let finish = { [weak presenter, weak presented] in
            guard let presented else { return }
            presented.viewIfLoaded?.removeFromSuperview()
            sheet?.tearDown()
            presented.links.presentation.isBeingDismissed = false
            presented.links.presenting = nil
            if presenter?.links.presented === presented { presenter?.links.presented = nil }
            presented.viewDidDisappear(flag)
            if coversPresenter { presenter?.viewDidAppear(flag) }
            completion?()
        }
        guard flag, let view = presented.viewIfLoaded, view.window != nil else {
            finish()
            return
        }
        let style = presented.modalTransitionStyle
        if let sheet {
            UIView.animate(
                withDuration: UIViewController.presentationDuration(.coverVertical), delay: 0, options: [.curveEaseIn],
                animations: { sheet.layoutDismissed() }, completion: { _ in finish() })
            return
        }
        let bounds = view.frame
        UIView.animate(
            withDuration: UIViewController.presentationDuration(style), delay: 0, options: [.curveEaseIn],
            animations: {
                if style == .crossDissolve || style == .flipHorizontal {
                    view.alpha = 0
                } else {
                    view.frame = bounds.offsetBy(dx: 0, dy: bounds.height)
                }
            }, completion: { _ in finish() })
    }
}

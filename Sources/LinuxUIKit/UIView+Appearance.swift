import Foundation

/// A view's appearance state: its style override, the traits it was last told about, and the dynamic colour behind
/// its background (re-resolved when the traits change).
struct ViewAppearance {
    var overrideStyle: UIUserInterfaceStyle = .unspecified
    var reportedTraits = UITraitCollection(userInterfaceStyle: UITraitCollection.systemStyle)
    var backgroundSource: UIColor?
    var backgroundResolved: CGColor?
}

/// A view controller's appearance state.
struct ControllerAppearance {
    var overrideStyle: UIUserInterfaceStyle = .unspecified
    var reportedTraits = UITraitCollection(userInterfaceStyle: UITraitCollection.systemStyle)
}

extension UIView: UITraitEnvironment {
    /// The appearance this view and its subviews use whatever they inherit, as UIKit's property: `.light` or `.dark`
    /// forces it, `.unspecified` (the default) inherits. On a ``UIWindow`` it sets the whole window's appearance.
    /// Setting it calls ``traitCollectionDidChange(_:)`` on every view below whose traits change.
    public var overrideUserInterfaceStyle: UIUserInterfaceStyle {
        get { appearance.overrideStyle }
        set {
            guard newValue != appearance.overrideStyle else { return }
            appearance.overrideStyle = newValue
            updateTraitsInSubtree()
        }
    }

    /// The view's effective traits (see ``UITraitCollection``): its own ``overrideUserInterfaceStyle`` over what it
    /// inherits — from its view controller when it is one's root view, else from its superview, else (a window or a
    /// detached view) from the screen.
    public var traitCollection: UITraitCollection {
        let inherited: UITraitCollection
        if let controller = owningViewController {
            inherited = controller.traitCollection
        } else if let superview {
            inherited = superview.traitCollection
        } else {
            inherited = UIScreen.main.traitCollection
        }
        return inherited.overriding(appearance.overrideStyle)
    }

    /// Re-resolves the traits of this view and everything below it (view controllers first, then their views,
    /// top-down), calling `traitCollectionDidChange(_:)` where they changed and re-resolving dynamic backgrounds.
    package func updateTraitsInSubtree() {
        let inherited = superview?.traitCollection ?? UIScreen.main.traitCollection
        propagateTraits(inherited: inherited)
    }

    private func propagateTraits(inherited: UITraitCollection) {
        var base = inherited
        if let controller = owningViewController {
            base = controller.baseTraits(inheritedFromView: base).overriding(controller.appearance.overrideStyle)
            controller.noteTraits(base)
        }
        let traits = base.overriding(appearance.overrideStyle)
        let previous = appearance.reportedTraits
        if traits != previous {
            appearance.reportedTraits = traits
            if let source = appearance.backgroundSource, layer.backgroundColor == appearance.backgroundResolved {
                let resolved = source.resolvedColor(with: traits).cgColor
                appearance.backgroundResolved = resolved
                layer.backgroundColor = resolved
            }
            setNeedsDisplay()
            UITraitCollection.with(traits) { traitCollectionDidChange(previous) }
        }
        for sub in subviews { sub.propagateTraits(inherited: traits) }
    }

    /// The background colour as the layer takes it: a dynamic colour resolved for this view's traits (and kept to
    /// re-resolve when they change).
    func layerBackground(for color: UIColor?) -> CGColor? {
        guard let color else {
            appearance.backgroundSource = nil
            appearance.backgroundResolved = nil
            return nil
        }
        guard color.isDynamic else {
            appearance.backgroundSource = nil
            appearance.backgroundResolved = nil
            return color.cgColor
        }
        let resolved = color.resolvedColor(with: traitCollection).cgColor
        appearance.backgroundSource = color
        appearance.backgroundResolved = resolved
        return resolved
    }

    /// The background colour as set: the dynamic colour while the layer still shows its resolution, else the layer's.
    var backgroundColorAsSet: UIColor? {
        if let source = appearance.backgroundSource, let shown = layer.backgroundColor,
            shown == appearance.backgroundResolved
        {
            return source
        }
        return layer.backgroundColor.map(UIColor.init(cgColor:))
    }
}

extension UIViewController: UITraitEnvironment {
    /// The appearance of this controller, its children and their views whatever they inherit, as UIKit's property:
    /// `.light` or `.dark` forces it, `.unspecified` (the default) inherits. Setting it calls
    /// `traitCollectionDidChange(_:)` on the controller and the views below whose traits change.
    public var overrideUserInterfaceStyle: UIUserInterfaceStyle {
        get { appearance.overrideStyle }
        set {
            guard newValue != appearance.overrideStyle else { return }
            appearance.overrideStyle = newValue
            if let view = viewIfLoaded {
                view.updateTraitsInSubtree()
            } else {
                noteTraits(traitCollection)
            }
        }
    }

    /// The controller's effective traits (see ``UITraitCollection``): its own ``overrideUserInterfaceStyle`` over
    /// what it inherits — from the view its root view is shown in, else its parent or presenting controller, else the
    /// screen.
    public var traitCollection: UITraitCollection {
        let inherited = viewIfLoaded?.superview?.traitCollection
        return baseTraits(inheritedFromView: inherited).overriding(appearance.overrideStyle)
    }

    /// What the controller inherits: `fromView` (the traits where its root view is shown) when it has one, else its
    /// parent's or presenting controller's, else the screen's; at the elevated level when the controller is
    /// presented without covering its presenter (a sheet, popover or alert: any style but `.fullScreen` and
    /// `.currentContext`), as on iOS.
    func baseTraits(inheritedFromView fromView: UITraitCollection?) -> UITraitCollection {
        let base: UITraitCollection
        if let fromView {
            base = fromView
        } else if let up = inheritanceParent {
            base = up.traitCollection
        } else {
            base = UIScreen.main.traitCollection
        }
        guard links.presenting != nil, parent == nil else { return base }
        let covers = [.fullScreen, .currentContext].contains(modalPresentationStyle) && !(self is UIAlertController)
        return covers ? base : base.elevated()
    }

    /// Records the controller's traits, calling `traitCollectionDidChange(_:)` when they changed.
    func noteTraits(_ traits: UITraitCollection) {
        let previous = appearance.reportedTraits
        guard traits != previous else { return }
        appearance.reportedTraits = traits
        UITraitCollection.with(traits) { traitCollectionDidChange(previous) }
    }
}

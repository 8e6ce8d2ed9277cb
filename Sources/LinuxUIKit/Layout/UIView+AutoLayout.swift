import Foundation

/// Auto Layout on views, as UIKit's: anchors, installed constraints, layout guides, margins, content priorities,
/// the update-constraints pass and fitting sizes. The engine is `LayoutEngine` (one per view tree, solved during
/// the layout pass before drawing).
extension UIView {
    // MARK: Anchors

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
    /// The first baseline (the top edge in Waymark).
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .firstBaseline) }
    /// The last baseline (the bottom edge in Waymark).
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .lastBaseline) }
    /// The width.
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
    /// The height.
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }

    // MARK: Installed constraints

    /// The active constraints installed on this view (it is their items' nearest common ancestor), in activation
    /// order.
    public var constraints: [NSLayoutConstraint] { autoLayoutStorage?.constraints ?? [] }

    /// Activates `constraint` (UIKit's older form; it is installed on the items' nearest common ancestor, which
    /// should be this view).
    public func addConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = true }

    /// Activates each of `constraints`.
    public func addConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.activate(constraints) }

    /// Deactivates `constraint` when it is installed on this view.
    public func removeConstraint(_ constraint: NSLayoutConstraint) {
        if constraint.owner === self { constraint.isActive = false }
    }

    /// Deactivates each of `constraints` installed on this view.
    public func removeConstraints(_ constraints: [NSLayoutConstraint]) {
        for c in constraints { removeConstraint(c) }
    }

    // MARK: Update pass

    /// Asks for ``updateConstraints()`` before the next layout pass.
    public func setNeedsUpdateConstraints() {
        autoLayout.needsUpdateConstraints = true
        LayoutEngine.constraintsNeedUpdate(at: self)
    }

    /// Whether ``updateConstraints()`` is due.
    public func needsUpdateConstraints() -> Bool { autoLayoutStorage?.needsUpdateConstraints ?? false }

    /// Runs the update-constraints pass of this view's tree now if any view asked for it.
    public func updateConstraintsIfNeeded() { LayoutEngine.engine(of: self)?.runUpdateConstraintsPass() }

    // MARK: Content size

    /// Tells the layout engine that ``intrinsicContentSize`` changed (subclasses call it when their content
    /// changes; labels do for text, font and line count). The next layout pass re-reads it.
    public func invalidateIntrinsicContentSize() {
        LayoutEngine.engine(of: self)?.contentSizeDidChange(self)
    }

    /// How strongly the view resists growing beyond its content size on `axis`. Defaults to `.defaultLow` (250);
    /// a ``UISwitch``'s is `.defaultHigh` (750), as on iOS.
    public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        autoLayoutStorage?.hugging[axis.rawValue] ?? .defaultLow
    }

    /// Sets the content hugging priority on `axis`.
    public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        guard autoLayout.hugging[axis.rawValue] != priority else { return }
        autoLayout.hugging[axis.rawValue] = priority
        if LayoutEngine.engine(of: self) != nil { LayoutEngine.structureDidChange(at: self) }
    }

    /// How strongly the view resists shrinking below its content size on `axis`. Defaults to `.defaultHigh` (750).
    public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        autoLayoutStorage?.compressionResistance[axis.rawValue] ?? .defaultHigh
    }

    /// Sets the compression resistance priority on `axis`.
    public func setContentCompressionResistancePriority(
        _ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis
    ) {
        guard autoLayout.compressionResistance[axis.rawValue] != priority else { return }
        autoLayout.compressionResistance[axis.rawValue] = priority
        if LayoutEngine.engine(of: self) != nil { LayoutEngine.structureDidChange(at: self) }
    }

    // MARK: Guides and margins

    /// The layout guides added to this view (the safe-area and margins guides are not listed until used).
    public var layoutGuides: [UILayoutGuide] { autoLayoutStorage?.guides ?? [] }

    /// Adds `layoutGuide` to this view (moving it from its previous view).
    public func addLayoutGuide(_ layoutGuide: UILayoutGuide) {
        if let old = layoutGuide.owningView, old !== self { old.removeLayoutGuide(layoutGuide) }
        guard layoutGuide.owningView !== self else { return }
        layoutGuide.owningView = self
        autoLayout.guides.append(layoutGuide)
    }

    /// Removes `layoutGuide`, deactivating the constraints that use it.
    public func removeLayoutGuide(_ layoutGuide: UILayoutGuide) {
        guard layoutGuide.owningView === self else { return }
        var v: UIView? = self
        while let current = v {
            for c in current.constraints where c.firstItem === layoutGuide || c.secondItem === layoutGuide {
                c.isActive = false
            }
            v = current.superview
        }
        autoLayoutStorage?.guides.removeAll { $0 === layoutGuide }
        layoutGuide.owningView = nil
    }

    /// The guide for the area not covered by bars or rounded corners (the bounds inset by ``safeAreaInsets``;
    /// the whole bounds on Linux windows).
    public var safeAreaLayoutGuide: UILayoutGuide {
        if let guide = autoLayoutStorage?.safeAreaGuide { return guide }
        let guide = UILayoutGuide(role: .safeArea, identifier: "UIViewSafeAreaLayoutGuide")
        autoLayout.safeAreaGuide = guide
        addLayoutGuide(guide)
        return guide
    }

    /// The guide for the bounds inset by the safe area and ``layoutMargins``.
    public var layoutMarginsGuide: UILayoutGuide {
        if let guide = autoLayoutStorage?.marginsGuide { return guide }
        let guide = UILayoutGuide(role: .margins, identifier: "UIViewLayoutMarginsGuide")
        autoLayout.marginsGuide = guide
        addLayoutGuide(guide)
        return guide
    }

    /// The margins of ``layoutMarginsGuide`` and the margin attributes, points. Defaults to 8 on every edge; a
    /// view controller's root view defaults to UIKit's system minimum: 16 left and right in a compact width (under
    /// 600 points), 20 in a regular one, 0 top and bottom.
    public var layoutMargins: UIEdgeInsets {
        get {
            if let margins = autoLayoutStorage?.layoutMargins { return margins }
            if owningViewController != nil {
                let side: CGFloat = bounds.width < 600 ? 16 : 20
                return UIEdgeInsets(top: 0, left: side, bottom: 0, right: side)
            }
            return UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        }
        set {
            autoLayout.layoutMargins = newValue
            setNeedsLayout()
        }
    }

    /// The layout margins by layout direction, as UIKit's `directionalLayoutMargins`: `leading` is
    /// ``layoutMargins``' left and `trailing` its right (Waymark lays out left to right only). The two properties
    /// are one value: setting either changes both.
    public var directionalLayoutMargins: NSDirectionalEdgeInsets {
        get {
            let m = layoutMargins
            return NSDirectionalEdgeInsets(top: m.top, leading: m.left, bottom: m.bottom, trailing: m.right)
        }
        set {
            layoutMargins = UIEdgeInsets(
                top: newValue.top, left: newValue.leading, bottom: newValue.bottom, right: newValue.trailing)
        }
    }

    // MARK: Fitting

    /// The smallest size Auto Layout allows: `(0, 0)` as a fitting target.
    public static let layoutFittingCompressedSize = CGSize(width: 0, height: 0)
    /// The largest size as a fitting target (Waymark: 100 000 × 100 000 points).
    public static let layoutFittingExpandedSize = CGSize(width: 100_000, height: 100_000)

    /// The size that satisfies the constraints of this view's subtree and comes closest to `targetSize` (both
    /// axes pulled at `.fittingSizeLevel`, 50), rounded up to the screen's pixels. The view's frame is not changed.
    public func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize {
        systemLayoutSizeFitting(
            targetSize, withHorizontalFittingPriority: .fittingSizeLevel, verticalFittingPriority: .fittingSizeLevel)
    }

    /// The size that satisfies the subtree's constraints and comes closest to `targetSize`, each axis pulled at
    /// its priority (`.required` fixes that axis to the target).
    public func systemLayoutSizeFitting(
        _ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
        verticalFittingPriority: UILayoutPriority
    ) -> CGSize {
        updateConstraintsIfNeeded()
        let engine = LayoutEngine(
            root: self, fitting: (targetSize, horizontalFittingPriority, verticalFittingPriority))
        return engine.solvedRootSize()
    }
}

import Foundation

/// Lays out a row or column of views with Auto Layout, as UIKit's `UIStackView`.
///
/// The stack makes and keeps constraints between its ``arrangedSubviews`` and its edges (or its
/// `layoutMarginsGuide` when ``isLayoutMarginsRelativeArrangement``), named as UIKit names them (`UISV-spacing`,
/// `UISV-canvas-connection`, …) and installed on the stack. Position the stack itself with constraints (or a
/// frame); its size along an unconstrained axis follows the arranged views' content sizes. Arranged views get
/// `translatesAutoresizingMaskIntoConstraints = false`. Hidden arranged views collapse: zero length on the axis and
/// no spacing, and they do not widen the stack across the axis. Changing any property, the arranged views or their `isHidden` re-arranges in the next layout pass.
///
/// With `.fill`, when the views do not fill the stack the one with the lowest content hugging priority grows
/// (views without a content size count lowest); among equals, the last one. Baseline alignments align the top
/// (`.firstBaseline`) or bottom (`.lastBaseline`) edges.
/// - Thread rules: main actor only.
open class UIStackView: UIView {
    /// How arranged views share the stack's length, as UIKit's `UIStackView.Distribution`.
    public enum Distribution: Int, Sendable {
        /// Views keep their content sizes; the lowest-hugging view grows (or the lowest compression-resistance
        /// view shrinks) to fill.
        case fill = 0
        /// Every view gets the same length.
        case fillEqually = 1
        /// Lengths are proportional to the views' content sizes.
        case fillProportionally = 2
        /// Views keep their content sizes; the gaps between them are equal (at least ``UIStackView/spacing``).
        case equalSpacing = 3
        /// The centres are equally far apart; gaps are at least ``UIStackView/spacing``.
        case equalCentering = 4
    }

    /// Where arranged views sit across the axis, as UIKit's `UIStackView.Alignment`.
    public enum Alignment: Int, Sendable {
        /// Views span the stack's width (vertical stack) or height (horizontal stack).
        case fill = 0
        /// Views hug the leading edge (vertical stack) or the top (horizontal stack: `.top`).
        case leading = 1
        /// Horizontal stacks: the first baselines line up (the top edges in Waymark).
        case firstBaseline = 2
        /// Views are centred across the axis.
        case center = 3
        /// Views hug the trailing edge (vertical stack) or the bottom (horizontal stack: `.bottom`).
        case trailing = 4
        /// Horizontal stacks: the last baselines line up (the bottom edges in Waymark).
        case lastBaseline = 5

        /// The same as `.leading`.
        public static var top: Alignment { .leading }
        /// The same as `.trailing`.
        public static var bottom: Alignment { .trailing }
    }

    /// ``setCustomSpacing(_:after:)`` with this value returns to ``spacing``.
    public static let spacingUseDefault: CGFloat = .greatestFiniteMagnitude
    /// The system spacing: 8 points in Waymark.
    public static let spacingUseSystem: CGFloat = -.greatestFiniteMagnitude

    /// The views the stack arranges, in order (each is also a subview).
    public private(set) var arrangedSubviews: [UIView] = []

    /// The layout direction. Defaults to `.horizontal`.
    open var axis: NSLayoutConstraint.Axis = .horizontal {
        didSet { if axis != oldValue { arrangementDidChange() } }
    }
    /// How views share the length. Defaults to `.fill`.
    open var distribution: Distribution = .fill {
        didSet { if distribution != oldValue { arrangementDidChange() } }
    }
    /// How views sit across the axis. Defaults to `.fill`.
    open var alignment: Alignment = .fill {
        didSet { if alignment != oldValue { arrangementDidChange() } }
    }
    /// Points between adjacent views (the minimum for the equal distributions). Defaults to 0.
    open var spacing: CGFloat = 0 {
        didSet { if spacing != oldValue { arrangementDidChange() } }
    }
    /// Whether the views are arranged within `layoutMarginsGuide` instead of the bounds. Defaults to false.
    open var isLayoutMarginsRelativeArrangement = false {
        didSet { if isLayoutMarginsRelativeArrangement != oldValue { arrangementDidChange() } }
    }
    /// Whether vertical spacing is measured between baselines; stored only (Waymark measures between edges).
    /// Defaults to false.
    open var isBaselineRelativeArrangement = false

    private var customSpacings: [ObjectIdentifier: CGFloat] = [:]
    private var arrangement: [NSLayoutConstraint] = []
    private var spacers: [UILayoutGuide] = []

    /// Creates an empty horizontal stack.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Creates a horizontal stack of `views` (added as subviews).
    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    /// Creates an empty stack (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Appends `view` to the arranged views (and to the subviews when it is not one).
    open func addArrangedSubview(_ view: UIView) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` into the arranged views at `stackIndex` (clamped), adding it as a subview when needed.
    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        guard view !== self else { return }
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(stackIndex, 0), arrangedSubviews.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        arrangementDidChange()
    }

    /// Removes `view` from the arranged views; it stays a subview (call `removeFromSuperview()` to remove it
    /// from the stack altogether).
    open func removeArrangedSubview(_ view: UIView) {
        guard arrangedSubviews.contains(where: { $0 === view }) else { return }
        arrangedSubviews.removeAll { $0 === view }
        customSpacings[ObjectIdentifier(view)] = nil
        arrangementDidChange()
    }

    /// Sets the gap after `arrangedSubview` to `spacing` points (``spacingUseDefault`` returns to ``spacing``).
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings[ObjectIdentifier(arrangedSubview)] = spacing == Self.spacingUseDefault ? nil : spacing
        arrangementDidChange()
    }

    /// The gap after `arrangedSubview`: its custom spacing, or ``spacingUseDefault`` when it has none.
    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? Self.spacingUseDefault
    }

    override func subviewArrangementDidChange(_ subview: UIView) {
        guard arrangedSubviews.contains(where: { $0 === subview }) else { return }
        if subview.superview !== self {
            arrangedSubviews.removeAll { $0 === subview }
        }
        arrangementDidChange()
    }

    private func arrangementDidChange() { setNeedsUpdateConstraints() }

    /// Rebuilds the arrangement constraints, then calls super.
    open override func updateConstraints() {
        arrange()
        super.updateConstraints()
    }

    private func gap(after view: UIView) -> CGFloat {
        let custom = customSpacings[ObjectIdentifier(view)] ?? spacing
        return custom == Self.spacingUseSystem ? 8 : custom
    }

    /// Replaces the arrangement constraints with ones for the current views and properties.
    private func arrange() {
        NSLayoutConstraint.deactivate(arrangement)
        for guide in spacers { removeLayoutGuide(guide) }
        arrangement = []
        spacers = []
        arrangedSubviews.removeAll { $0.superview !== self }
        let container: AnyObject = isLayoutMarginsRelativeArrangement ? layoutMarginsGuide : self
        let horizontal = axis == .horizontal
        let start: NSLayoutConstraint.Attribute = horizontal ? .leading : .top
        let end: NSLayoutConstraint.Attribute = horizontal ? .trailing : .bottom
        let length: NSLayoutConstraint.Attribute = horizontal ? .width : .height
        let middle: NSLayoutConstraint.Attribute = horizontal ? .centerX : .centerY
        let crossStart: NSLayoutConstraint.Attribute = horizontal ? .top : .leading
        let crossEnd: NSLayoutConstraint.Attribute = horizontal ? .bottom : .trailing
        let crossMiddle: NSLayoutConstraint.Attribute = horizontal ? .centerY : .centerX
        let crossLength: NSLayoutConstraint.Attribute = horizontal ? .height : .width
        var made: [NSLayoutConstraint] = []
        func add(
            _ a: AnyObject, _ aa: NSLayoutConstraint.Attribute, _ relation: NSLayoutConstraint.Relation,
            _ b: AnyObject?, _ ba: NSLayoutConstraint.Attribute, multiplier: CGFloat = 1, _ constant: CGFloat = 0,
            priority: UILayoutPriority = .required, id identifier: String
        ) {
            let c = NSLayoutConstraint(
                first: a, firstAttribute: aa, relation: relation, second: b, secondAttribute: ba,
                multiplier: multiplier, constant: constant)
            c.priority = priority
            c.identifier = identifier
            made.append(c)
        }

        let visible = arrangedSubviews.filter { !$0.isHidden }
        for view in arrangedSubviews where view.isHidden {
            add(view, length, .equal, nil, .notAnAttribute, 0, id: "UISV-hiding")
            add(view, start, .equal, container, start, id: "UISV-hiding")
        }
        if let first = visible.first, let last = visible.last {
            add(first, start, .equal, container, start, id: "UISV-canvas-connection")
            add(last, end, .equal, container, end, id: "UISV-canvas-connection")
        }
        for (i, view) in visible.enumerated().dropFirst() {
            let previous = visible[i - 1]
            let gap = gap(after: previous)
            switch distribution {
            case .fill, .fillEqually, .fillProportionally:
                add(view, start, .equal, previous, end, gap, id: "UISV-spacing")
            case .equalSpacing, .equalCentering:
                add(view, start, .greaterThanOrEqual, previous, end, gap, id: "UISV-spacing")
                let spacer = UILayoutGuide()
                spacer.identifier = "UISV-distributing"
                addLayoutGuide(spacer)
                spacers.append(spacer)
                let centred = distribution == .equalCentering
                add(spacer, start, .equal, previous, centred ? middle : end, id: "UISV-distributing-edge")
                add(spacer, end, .equal, view, centred ? middle : start, id: "UISV-distributing-edge")
                if spacers.count > 1 {
                    add(
                        spacer, length, .equal, spacers[0], length,
                        priority: centred ? UILayoutPriority(999) : .required,
                        id: centred ? "UISV-equal-centering" : "UISV-fill-equally")
                }
            }
        }
        switch distribution {
        case .fillEqually:
            for view in visible.dropFirst() {
                add(view, length, .equal, visible[0], length, id: "UISV-fill-equally")
            }
        case .fillProportionally:
            let sizes = visible.map { view -> CGFloat in
                let s = view.intrinsicContentSize
                return max(0, horizontal ? s.width : s.height)
            }
            let total = sizes.reduce(0, +)
            let gaps = visible.dropLast().reduce(CGFloat(0)) { $0 + gap(after: $1) }
            if total > 0 {
                for (view, size) in zip(visible, sizes) {
                    let share = size / total
                    add(
                        view, length, .equal, container, length, multiplier: share, -share * gaps,
                        priority: UILayoutPriority(999), id: "UISV-fill-proportionally")
                }
            }
        case .fill:
            // Ties: every view but the chosen one is pulled (very weakly) towards zero length, so the chosen one
            // alone takes the slack.
            let hugs = visible.map { view -> Float in
                let s = view.intrinsicContentSize
                return (horizontal ? s.width : s.height) >= 0 ? view.contentHuggingPriority(for: axis).rawValue : 0
            }
            if visible.count > 1, let lowest = hugs.min(), let stretch = hugs.lastIndex(of: lowest) {
                for (i, view) in visible.enumerated() where i != stretch {
                    add(
                        view, length, .lessThanOrEqual, nil, .notAnAttribute, 0, priority: UILayoutPriority(1),
                        id: "UISV-fill-order")
                }
            }
        case .equalSpacing, .equalCentering:
            break
        }

        for view in arrangedSubviews {
            switch alignment {
            case .fill:
                add(view, crossStart, .equal, container, crossStart, id: "UISV-alignment")
                add(view, crossEnd, .equal, container, crossEnd, id: "UISV-alignment")
            case .leading, .firstBaseline:
                add(view, crossStart, .equal, container, crossStart, id: "UISV-alignment")
                if !view.isHidden {
                    add(view, crossEnd, .lessThanOrEqual, container, crossEnd, id: "UISV-spanning-boundary")
                }
            case .trailing, .lastBaseline:
                add(view, crossEnd, .equal, container, crossEnd, id: "UISV-alignment")
                if !view.isHidden {
                    add(view, crossStart, .greaterThanOrEqual, container, crossStart, id: "UISV-spanning-boundary")
                }
            case .center:
                add(view, crossMiddle, .equal, container, crossMiddle, id: "UISV-alignment")
                if !view.isHidden {
                    add(view, crossStart, .greaterThanOrEqual, container, crossStart, id: "UISV-spanning-boundary")
                }
            }
            if alignment != .fill, !view.isHidden {
                add(
                    container, crossLength, .lessThanOrEqual, view, crossLength, priority: UILayoutPriority(49),
                    id: "UISV-canvas-fit")
            }
        }
        arrangement = made
        NSLayoutConstraint.activate(made)
    }
}

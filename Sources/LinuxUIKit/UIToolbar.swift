import Foundation

/// A bar of buttons along the bottom of the screen, as UIKit's `UIToolbar`; a navigation controller shows one when
/// ``UINavigationController/isToolbarHidden`` is false.
///
/// The bar is 44 points tall, drawn in the same bar colour as ``UINavigationBar`` (light `#F9F9F9`, dark `#1C1C1E`,
/// or ``barTintColor``) with a hairline along its top. Its ``items`` are laid out from the leading edge, 16 points
/// in and 8 points apart, as UIKit's: a fixed space (`UIBarButtonItem.fixedSpace(_:)`) takes its `width`, flexible
/// spaces (`UIBarButtonItem.flexibleSpace()`) share the room left over equally (so one flexible space between two
/// items pushes the second to the trailing edge). Buttons take ``tintColor`` (inherited: `.systemBlue`) and run
/// their item's primary action (or show its menu) when a tap lifts inside them.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIToolbar: UIView {
    /// The bar's height in points.
    public static let height: CGFloat = 44

    /// The buttons, leading to trailing, spaces included. Defaults to nil.
    open var items: [UIBarButtonItem]? {
        didSet {
            for item in oldValue ?? [] where item.toolbar === self { item.toolbar = nil }
            for item in items ?? [] { item.toolbar = self }
            setNeedsItemViews()
        }
    }
    /// The bar's background colour; nil uses the default bar colour. Defaults to nil.
    open var barTintColor: UIColor? { didSet { setNeedsDisplay() } }
    /// Whether the bar is translucent; stored only. Defaults to true.
    open var isTranslucent = true

    private var itemViewsDirty = true
    /// The views of the items, spaces included, in item order (for layout and tests).
    private(set) var itemViews: [BarButtonView] = []

    /// Creates a bar.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Creates a bar (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Sets ``items``; `animated` is accepted for source compatibility (the change is immediate).
    open func setItems(_ items: [UIBarButtonItem]?, animated: Bool) { self.items = items }

    /// The bar's natural size: the width given, 44 points tall.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: UIToolbar.height)
    }

    func setNeedsItemViews() {
        itemViewsDirty = true
        setNeedsLayout()
        setNeedsDisplay()
    }

    private func rebuildItemViews() {
        itemViewsDirty = false
        for view in itemViews { view.removeFromSuperview() }
        itemViews = (items ?? []).filter { !$0.isHidden }.map { BarButtonView(item: $0) }
        for view in itemViews where view.item?.systemItem == .flexibleSpace || view.item?.systemItem == .fixedSpace {
            view.isUserInteractionEnabled = false
        }
        for view in itemViews { addSubview(view) }
    }

    /// Places the items from the leading edge (16 points in, 8 apart), flexible spaces sharing the room left.
    open override func layoutSubviews() {
        if itemViewsDirty { rebuildItemViews() }
        let h = min(bounds.height, UIToolbar.height)
        let margin: CGFloat = 16
        let gap: CGFloat = 8
        var widths: [CGFloat] = []
        var flexible = 0
        for view in itemViews {
            if view.item?.systemItem == .flexibleSpace {
                flexible += 1
                widths.append(0)
            } else {
                widths.append(view.sizeThatFits(CGSize(width: bounds.width / 2, height: h)).width)
            }
        }
        let used = widths.reduce(0, +) + gap * CGFloat(max(0, itemViews.count - 1))
        let spare = max(0, bounds.width - 2 * margin - used)
        let share = flexible > 0 ? spare / CGFloat(flexible) : 0
        var x = margin
        for (index, view) in itemViews.enumerated() {
            let width = view.item?.systemItem == .flexibleSpace ? share : widths[index]
            view.setFrameIfChanged(CGRect(x: x, y: 0, width: width, height: h))
            x += width + gap
        }
    }

    /// Draws the bar colour and the hairline along the top.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.setFillColor((barTintColor ?? UINavigationBar.defaultBarColor).cgColor)
        context.fill(bounds)
        context.setFillColor(UIColor.separator.cgColor)
        context.fill(CGRect(x: 0, y: 0, width: bounds.width, height: 0.5))
    }
}

import CCairo
import Foundation

/// The bar across the top of a navigation controller, as UIKit's `UINavigationBar`: the top item's title (or title
/// view) in the middle, its left items or a back button on the left, its right items on the right.
///
/// The bar is 44 points tall, drawn in the bar colour of its appearance (light `#F9F9F9`, dark `#1C1C1E`, or
/// ``barTintColor``) with a hairline under it. Buttons take ``tintColor`` (inherited: `.systemBlue`); the title is
/// `.label`, 17 pt semibold. Tapping the back button pops the navigation controller.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UINavigationBar: UIView {
    /// The bar's height in points (without a prompt or large title, which are not drawn).
    public static let height: CGFloat = 44

    /// The stack of items, bottom to top. Defaults to nil (set by the navigation controller).
    open var items: [UINavigationItem]? {
        didSet {
            for item in oldValue ?? [] where item.bar === self { item.bar = nil }
            for item in items ?? [] { item.bar = self }
            setNeedsItemViews()
        }
    }
    /// The item on top (the one shown).
    public var topItem: UINavigationItem? { items?.last }
    /// The item under the top one (the back button's target).
    public var backItem: UINavigationItem? {
        guard let items, items.count > 1 else { return nil }
        return items[items.count - 2]
    }

    /// The bar's background colour; nil uses the appearance's default. Defaults to nil.
    open var barTintColor: UIColor? { didSet { setNeedsDisplay() } }
    /// Whether the bar is translucent; stored only. Defaults to true.
    open var isTranslucent = true
    /// Whether the bar asks for large titles; stored only (large titles are not drawn). Defaults to false.
    open var prefersLargeTitles = false
    /// Attributes for the title (`.font`, `.foregroundColor`); nil uses 17 pt semibold `.label`. Defaults to nil.
    open var titleTextAttributes: [NSAttributedString.Key: Any]? { didSet { setNeedsItemViews() } }
    /// The appearance for the standard height, as UIKit's `standardAppearance`: its background colour and title
    /// attributes are drawn.
    open var standardAppearance = UINavigationBarAppearance() { didSet { setNeedsItemViews() } }
    /// The appearance when content is scrolled to the edge; stored only. Defaults to nil.
    open var scrollEdgeAppearance: UINavigationBarAppearance?
    /// The appearance in compact height; stored only. Defaults to nil.
    open var compactAppearance: UINavigationBarAppearance?

    /// The navigation controller the bar belongs to (its back button pops it).
    weak var navigationController: UINavigationController?

    private var itemViewsDirty = true
    /// The views of the top item's buttons, for layout and tests: the back button first when shown, then left
    /// items, then right items.
    private(set) var buttonViews: [BarButtonView] = []
    private(set) var backButtonView: BarButtonView?
    private let titleLabel = UILabel()
    private var shownTitleView: UIView?

    /// Creates a bar.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        titleLabel.textAlignment = .center
        addSubview(titleLabel)
    }

    /// Creates a bar (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        titleLabel.textAlignment = .center
        addSubview(titleLabel)
    }

    /// Views of the item leaving during an animated push or pop; removed when the animation ends.
    private var leavingViews: [UIView] = []
    private var itemChangeSerial = 0

    /// Animates the change to the new top item over `duration` seconds on the animator's clock, as iOS's bar does
    /// during a push or pop: on a push the old title slides left towards the back button and fades out while the new
    /// title slides in from the right and fades in; a pop reverses the directions; the bar buttons (back button
    /// included) cross-fade. Call after ``items`` changed, before the views were rebuilt (the bar's current views
    /// still show the old item).
    func animateItemChange(isPush: Bool, duration: TimeInterval) {
        finishItemChange()
        guard bounds.width > 0 else { return }
        let w = bounds.width
        var leaving: [UIView] = []
        if shownTitleView == nil, let text = titleLabel.text, !text.isEmpty {
            let copy = UILabel(frame: titleLabel.frame)
            copy.text = text
            copy.font = titleLabel.font
            copy.textColor = titleLabel.textColor
            copy.textAlignment = titleLabel.textAlignment
            copy.isUserInteractionEnabled = false
            addSubview(copy)
            leaving.append(copy)
        }
        let oldTitle = leaving.first
        for view in buttonViews {
            view.isUserInteractionEnabled = false
            leaving.append(view)
        }
        buttonViews = []
        backButtonView = nil
        rebuildItemViews()
        layoutSubviews()
        let newTitle: UIView = shownTitleView ?? titleLabel
        let titleFinal = newTitle.frame
        newTitle.frame = titleFinal.offsetBy(dx: isPush ? w / 2 : -w / 3, dy: 0)
        newTitle.alpha = 0
        let arriving = buttonViews
        for view in arriving { view.alpha = 0 }
        leavingViews = leaving
        itemChangeSerial += 1
        let serial = itemChangeSerial
        UIView.animate(
            withDuration: duration, delay: 0, options: [.curveEaseInOut],
            animations: {
                newTitle.frame = titleFinal
                newTitle.alpha = 1
                for view in arriving { view.alpha = 1 }
                if let oldTitle { oldTitle.frame = oldTitle.frame.offsetBy(dx: isPush ? -w / 3 : w / 2, dy: 0) }
                for view in leaving { view.alpha = 0 }
            },
            completion: { [weak self] _ in
                guard let self, self.itemChangeSerial == serial else { return }
                self.finishItemChange()
            })
    }

    /// Removes the leaving item's views at once (the animation ended or another one starts).
    func finishItemChange() {
        for view in leavingViews { view.removeFromSuperview() }
        leavingViews = []
    }

    /// Sets the item stack; `animated` is accepted for source compatibility (the change is immediate).
    public func setItems(_ items: [UINavigationItem]?, animated: Bool) { self.items = items }

    /// The bar's natural size: the width given, 44 points tall.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: UINavigationBar.height)
    }

    func setNeedsItemViews() {
        navigationController?.viewIfLoaded?.setNeedsLayout()
        itemViewsDirty = true
        setNeedsLayout()
        setNeedsDisplay()
    }

    private func rebuildItemViews() {
        itemViewsDirty = false
        for view in buttonViews { view.removeFromSuperview() }
        shownTitleView?.removeFromSuperview()
        shownTitleView = nil
        buttonViews = []
        backButtonView = nil
        guard let top = topItem else {
            titleLabel.text = nil
            return
        }
        let left = (top.leftBarButtonItems ?? []).filter { !$0.isHidden }
        if let back = backItem, !top.hidesBackButton, left.isEmpty || top.leftItemsSupplementBackButton {
            let view = BarButtonView(backTitle: back.backTitle) { [weak self] in
                self?.navigationController?.popViewController(animated: true)
            }
            backButtonView = view
            buttonViews.append(view)
        }
        for item in left {
            item.bar = self
            buttonViews.append(BarButtonView(item: item))
        }
        for item in (top.rightBarButtonItems ?? []).filter({ !$0.isHidden }) {
            item.bar = self
            let view = BarButtonView(item: item)
            view.isRightSide = true
            buttonViews.append(view)
        }
        for view in buttonViews { addSubview(view) }
        if let titleView = top.titleView {
            shownTitleView = titleView
            addSubview(titleView)
            titleLabel.text = nil
        } else {
            let attributes =
                standardAppearance.titleTextAttributes.isEmpty
                ? titleTextAttributes ?? [:] : standardAppearance.titleTextAttributes
            titleLabel.font = attributes[.font] as? UIFont ?? .systemFont(ofSize: 17, weight: .semibold)
            titleLabel.textColor = attributes[.foregroundColor] as? UIColor ?? .label
            titleLabel.text = top.title
        }
    }

    /// Places the buttons from both edges inwards (8 points in, 8 apart) and the title between them, as UIKit's:
    /// centred on the bar when it fits there, else moved into the room between the buttons. When the title does
    /// not fit between the back button and the right items, the back button's title is shortened to "Back", then
    /// to the chevron alone. A title view with an intrinsic width (a segmented control) gets that width when it
    /// fits, else the room left.
    open override func layoutSubviews() {
        if itemViewsDirty { rebuildItemViews() }
        let h = bounds.height
        var rightX = bounds.width - 8
        for view in buttonViews where view.isRightSide {
            let size = view.sizeThatFits(CGSize(width: bounds.width / 2, height: h))
            // Frames are set only when they change, so a layout pass keeps a running title or button animation.
            view.setFrameIfChanged(CGRect(x: rightX - size.width, y: 0, width: size.width, height: h))
            rightX -= size.width + 8
        }
        let titleWidth = wantedTitleWidth(height: h)
        var leftX: CGFloat = 8
        if let back = backButtonView, let full = backItem?.backTitle {
            // The longest back title that leaves the title its width: the full one, "Back", the chevron alone.
            let otherLeft = buttonViews.filter { !$0.isRightSide && $0 !== back }.reduce(CGFloat(0)) {
                $0 + $1.sizeThatFits(CGSize(width: bounds.width / 2, height: h)).width + 8
            }
            var chosen = ""
            for candidate in [full, "Back", ""] {
                back.setBackTitle(candidate)
                let width = back.sizeThatFits(CGSize(width: bounds.width / 2, height: h)).width
                chosen = candidate
                // The title stays centred on the bar when it can; the back button must end before it.
                if 8 + width + 8 + otherLeft <= min(bounds.midX - titleWidth / 2, rightX - titleWidth) { break }
            }
            back.setBackTitle(chosen)
        }
        for view in buttonViews where !view.isRightSide {
            let size = view.sizeThatFits(CGSize(width: bounds.width / 2, height: h))
            view.setFrameIfChanged(CGRect(x: leftX, y: 0, width: size.width, height: h))
            leftX += size.width + 8
        }
        let room = CGRect(x: leftX, y: 0, width: max(0, rightX - leftX), height: h)
        let width = min(titleWidth, room.width)
        // Centred on the bar when that fits between the buttons, else as near the centre as the room allows.
        let x = min(max(bounds.midX - width / 2, room.minX), room.maxX - width)
        if let titleView = shownTitleView {
            var height = titleView.intrinsicContentSize.height
            if height <= 0 { height = titleView.bounds.height }
            if height <= 0 { height = titleView.sizeThatFits(room.size).height }
            height = min(height, h)
            titleView.setFrameIfChanged(CGRect(x: x, y: (h - height) / 2, width: width, height: height))
        } else {
            titleLabel.setFrameIfChanged(CGRect(x: x, y: 0, width: width, height: h))
        }
    }

    /// The width the title or title view would like: a title view's intrinsic width (else its frame's, else what it
    /// fits in the bar), the title's text width.
    private func wantedTitleWidth(height h: CGFloat) -> CGFloat {
        if let titleView = shownTitleView {
            let intrinsic = titleView.intrinsicContentSize.width
            if intrinsic > 0 { return intrinsic }
            if titleView.bounds.width > 0 { return titleView.bounds.width }
            return titleView.sizeThatFits(CGSize(width: bounds.width, height: h)).width
        }
        guard let text = titleLabel.text, !text.isEmpty else { return 0 }
        return titleLabel.sizeThatFits(CGSize(width: bounds.width, height: h)).width.rounded(.up)
    }

    /// The bar colour: ``barTintColor``, else the appearance's background colour, else light `#F9F9F9` / dark
    /// `#1C1C1E`.
    static let defaultBarColor = UIColor {
        $0.userInterfaceStyle == .dark
            ? UIColor(red: 28.0 / 255, green: 28.0 / 255, blue: 30.0 / 255, alpha: 1)
            : UIColor(red: 249.0 / 255, green: 249.0 / 255, blue: 249.0 / 255, alpha: 1)
    }

    /// Draws the bar colour and the hairline under it.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let color = barTintColor ?? standardAppearance.backgroundColor ?? UINavigationBar.defaultBarColor
        context.setFillColor(color.cgColor)
        context.fill(bounds)
        if standardAppearance.shadowColor != .clear, topItem?.searchController == nil {
            context.setFillColor((standardAppearance.shadowColor ?? .separator).cgColor)
            context.fill(CGRect(x: 0, y: bounds.height - 0.5, width: bounds.width, height: 0.5))
        }
    }
}

extension UIView {
    /// Sets ``frame`` only when it differs (setting a property outside an animation block ends its animation).
    func setFrameIfChanged(_ frame: CGRect) {
        if self.frame != frame { self.frame = frame }
    }
}

/// The look of a navigation bar, as UIKit's `UINavigationBarAppearance`: background colour, hairline colour and
/// title attributes.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UINavigationBarAppearance {
    /// The bar's background colour; nil uses the default bar colour. Defaults to nil.
    open var backgroundColor: UIColor?
    /// The hairline's colour; nil uses `.separator`, `.clear` hides it. Defaults to nil.
    open var shadowColor: UIColor?
    /// Attributes of the title (`.font`, `.foregroundColor`). Defaults to none.
    open var titleTextAttributes: [NSAttributedString.Key: Any] = [:]
    /// Attributes of large titles; stored only. Defaults to none.
    open var largeTitleTextAttributes: [NSAttributedString.Key: Any] = [:]

    /// An appearance with the defaults.
    public init() {}

    /// The default look: the default bar colour with a hairline.
    public func configureWithDefaultBackground() {
        backgroundColor = nil
        shadowColor = nil
    }

    /// An opaque bar in `.systemBackground` with a hairline.
    public func configureWithOpaqueBackground() {
        backgroundColor = .systemBackground
        shadowColor = nil
    }

    /// A clear bar without a hairline.
    public func configureWithTransparentBackground() {
        backgroundColor = .clear
        shadowColor = .clear
    }
}

/// A bar button as drawn in a navigation bar: a bar button item's title, image, glyph or custom view, or the back
/// button. Taps that lift inside run the item.
@MainActor final class BarButtonView: UIView, UITouchResponder {
    let item: UIBarButtonItem?
    private let backAction: (() -> Void)?
    private let label = UILabel()
    private var imageView: UIImageView?
    var isRightSide = false
    private var highlighted = false {
        didSet { alpha = highlighted ? 0.35 : 1 }
    }

    init(item: UIBarButtonItem) {
        self.item = item
        backAction = nil
        super.init(frame: .zero)
        isOpaque = false
        configure()
    }

    init(backTitle: String, action: @escaping () -> Void) {
        item = nil
        backAction = action
        super.init(frame: .zero)
        isOpaque = false
        label.text = backTitle
        label.textColor = tintColor
        addSubview(label)
    }

    required init?(coder: NSCoder) { nil }

    private var isBack: Bool { backAction != nil }

    /// The back button's title as shown (shortened by the bar when the title needs the room).
    var backTitle: String? { isBack ? label.text : nil }

    /// Sets the back button's shown title ("" shows the chevron alone).
    func setBackTitle(_ title: String) {
        guard isBack, label.text != title else { return }
        label.text = title
        setNeedsLayout()
    }

    private func configure() {
        guard let item else { return }
        if let custom = item.customView {
            addSubview(custom)
            return
        }
        if let image = item.image {
            let view = UIImageView(image: image)
            view.contentMode = .center
            if let tint = item.tintColor { view.tintColor = tint }
            imageView = view
            addSubview(view)
            return
        }
        if let title = item.displayTitle {
            label.text = title
            label.font = .systemFont(ofSize: 17, weight: item.style == .done ? .semibold : .regular)
            label.textColor = item.isEnabled ? (item.tintColor ?? tintColor) : .systemGray
            addSubview(label)
        }
    }

    override func tintColorDidChange() {
        if item?.tintColor == nil, item?.isEnabled ?? true { label.textColor = tintColor }
    }

    override func sizeThatFits(_ size: CGSize) -> CGSize {
        if let item {
            if item.systemItem == .flexibleSpace { return CGSize(width: 0, height: size.height) }
            if item.width > 0 { return CGSize(width: item.width, height: size.height) }
            if let custom = item.customView {
                let natural = custom.bounds.size == .zero ? custom.sizeThatFits(size) : custom.bounds.size
                return CGSize(width: natural.width, height: size.height)
            }
            if let image = item.image { return CGSize(width: max(image.size.width, 28), height: size.height) }
            if label.superview == nil { return CGSize(width: 28, height: size.height) }
        }
        let text = label.sizeThatFits(CGSize(width: size.width, height: size.height))
        return CGSize(width: min(size.width, text.width + (isBack ? 20 : 0)), height: size.height)
    }

    override func layoutSubviews() {
        let textX: CGFloat = isBack ? 20 : 0
        label.frame = CGRect(x: textX, y: 0, width: max(0, bounds.width - textX), height: bounds.height)
        imageView?.frame = bounds
        if let custom = item?.customView {
            let size = custom.bounds.size == .zero ? custom.sizeThatFits(bounds.size) : custom.bounds.size
            custom.frame = CGRect(
                x: 0, y: (bounds.height - size.height) / 2, width: bounds.width, height: min(size.height, bounds.height)
            )
        }
    }

    /// Draws the back chevron and the glyphs of built-in items, in the tint colour.
    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let color = item?.isEnabled == false ? UIColor.systemGray : (item?.tintColor ?? tintColor ?? .systemBlue)
        context.setStrokeColor(color.cgColor)
        context.setFillColor(color.cgColor)
        context.setLineWidth(2.5)
        cairo_set_line_cap(context.cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context.cairo, CAIRO_LINE_JOIN_ROUND)
        let midY = bounds.midY
        if isBack {
            context.move(to: CGPoint(x: 12, y: midY - 10))
            context.addLine(to: CGPoint(x: 3, y: midY))
            context.addLine(to: CGPoint(x: 12, y: midY + 10))
            context.strokePath()
            return
        }
        guard let item, item.image == nil, item.customView == nil, item.displayTitle == nil else { return }
        let c = CGPoint(x: bounds.midX, y: midY)
        context.setLineWidth(2)
        switch item.systemItem {
        case .add:
            context.move(to: CGPoint(x: c.x - 9, y: c.y))
            context.addLine(to: CGPoint(x: c.x + 9, y: c.y))
            context.move(to: CGPoint(x: c.x, y: c.y - 9))
            context.addLine(to: CGPoint(x: c.x, y: c.y + 9))
            context.strokePath()
        case .stop, .close:
            context.move(to: CGPoint(x: c.x - 7, y: c.y - 7))
            context.addLine(to: CGPoint(x: c.x + 7, y: c.y + 7))
            context.move(to: CGPoint(x: c.x + 7, y: c.y - 7))
            context.addLine(to: CGPoint(x: c.x - 7, y: c.y + 7))
            context.strokePath()
        case .search:
            context.strokeEllipse(in: CGRect(x: c.x - 8, y: c.y - 8, width: 12, height: 12))
            context.move(to: CGPoint(x: c.x + 2.5, y: c.y + 2.5))
            context.addLine(to: CGPoint(x: c.x + 8, y: c.y + 8))
            context.strokePath()
        case .refresh:
            context.addArc(center: c, radius: 8, startAngle: -.pi / 2, endAngle: .pi * 1.2, clockwise: false)
            context.strokePath()
            context.move(to: CGPoint(x: c.x - 1, y: c.y - 12))
            context.addLine(to: CGPoint(x: c.x + 4, y: c.y - 8))
            context.addLine(to: CGPoint(x: c.x - 1, y: c.y - 4))
            context.strokePath()
        case .play:
            context.move(to: CGPoint(x: c.x - 6, y: c.y - 8))
            context.addLine(to: CGPoint(x: c.x + 8, y: c.y))
            context.addLine(to: CGPoint(x: c.x - 6, y: c.y + 8))
            context.closePath()
            context.fillPath()
        case .pause:
            context.fill(CGRect(x: c.x - 7, y: c.y - 8, width: 4, height: 16))
            context.fill(CGRect(x: c.x + 3, y: c.y - 8, width: 4, height: 16))
        default:
            break
        }
    }

    /// The tap target: the bounds grown to at least 44 points wide.
    override func point(inside point: CGPoint, with event: AnyObject?) -> Bool {
        let grow = max(0, (44 - bounds.width) / 2)
        return bounds.insetBy(dx: -grow, dy: 0).contains(point)
    }

    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard item?.isEnabled ?? true else { return }
        highlighted = true
    }

    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard item?.isEnabled ?? true, let touch = touches.first else { return }
        highlighted = self.point(inside: touch.location(in: self), with: nil)
    }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        let wasHighlighted = highlighted
        highlighted = false
        guard wasHighlighted, let touch = touches.first, self.point(inside: touch.location(in: self), with: nil)
        else { return }
        if let backAction {
            backAction()
        } else {
            item?.performTap(from: self)
        }
    }

    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { highlighted = false }
}

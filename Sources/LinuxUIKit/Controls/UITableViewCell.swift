import Foundation

/// One row of a table view, as UIKit's `UITableViewCell`: a ``contentView`` holding either the style's
/// ``textLabel``, ``detailTextLabel`` and ``imageView`` or, once ``contentConfiguration`` is set, the view that
/// configuration makes; an accessory at the trailing edge; a white background drawn grey while selected.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UITableViewCell: UIView {
    /// The classic layouts, as UIKit's `UITableViewCell.CellStyle`.
    public enum CellStyle: Int, Sendable {
        /// A text label (and optional image view); no detail label.
        case `default` = 0
        /// A text label with a grey detail label right-aligned at the trailing edge.
        case value1
        /// A blue right-aligned text label beside a detail label (drawn as `.value1` on Linux).
        case value2
        /// A text label with a smaller grey detail label under it.
        case subtitle
    }

    /// The trailing decoration, as UIKit's `UITableViewCell.AccessoryType`.
    public enum AccessoryType: Int, Sendable {
        /// None.
        case none = 0
        /// A grey chevron.
        case disclosureIndicator
        /// An info button and a chevron.
        case detailDisclosureButton
        /// A tinted checkmark.
        case checkmark
        /// An info button.
        case detailButton
    }

    /// How a selected cell looks, as UIKit's `UITableViewCell.SelectionStyle`.
    public enum SelectionStyle: Int, Sendable {
        /// No change.
        case none = 0
        /// Grey (the same as `.gray` since iOS 7).
        case blue
        /// Grey.
        case gray
        /// Grey.
        case `default`
    }

    /// The identifier the table view reuses the cell under, or nil.
    public private(set) var reuseIdentifier: String?
    /// The identifier cells created by a registered class receive when they pass nil (set by the table view
    /// around the creation).
    static var pendingReuseIdentifier: String?

    /// The layout the cell was created with.
    public let style: CellStyle
    /// The view holding the cell's content; add custom subviews here. It fills the cell less the accessory.
    public let contentView = UIView()
    private let ownTextLabel = UILabel()
    private let ownDetailTextLabel: UILabel?
    private let ownImageView = UIImageView()

    /// The primary text label of the classic styles.
    open var textLabel: UILabel? { ownTextLabel }
    /// The secondary label of the `.value1`, `.value2` and `.subtitle` styles; nil for `.default`.
    open var detailTextLabel: UILabel? { ownDetailTextLabel }
    /// The leading image view of the classic styles.
    open var imageView: UIImageView? { ownImageView }

    /// The trailing decoration. Defaults to `.none`.
    open var accessoryType: AccessoryType = .none {
        didSet {
            setNeedsLayout()
            accessoryGlyph.setNeedsDisplay()
        }
    }
    /// A view shown at the trailing edge instead of ``accessoryType``. Defaults to nil.
    open var accessoryView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            accessoryView.map(addSubview)
            setNeedsLayout()
            accessoryGlyph.setNeedsDisplay()
        }
    }
    /// How the cell looks while selected or highlighted: `.none` shows nothing, the others iOS's grey
    /// (`systemGray4`: light `#D1D1D6`, dark `#3A3A3C`) behind the content. Defaults to `.default`.
    open var selectionStyle: SelectionStyle = .default {
        didSet { updateSelectionBackground(animated: false) }
    }
    /// Whether the cell is selected (drawn grey). Set by the table view.
    open var isSelected: Bool {
        get { selectedFlag }
        set { setSelected(newValue, animated: false) }
    }
    /// Whether the cell is highlighted (drawn as selected): the table view sets it while a finger is down on the
    /// row.
    open var isHighlighted = false {
        didSet { updateSelectionBackground(animated: false) }
    }
    private var selectedFlag = false
    /// The grey behind the content while selected or highlighted (its alpha fades when deselected with animation).
    let selectionBackground = UIView()
    private let accessoryGlyph = CellAccessoryGlyphView()

    /// The content configuration; setting it replaces the classic labels with the view it makes (or updates that
    /// view when it is of the same kind). Defaults to nil.
    open var contentConfiguration: (any UIContentConfiguration)? {
        didSet { installConfiguration() }
    }
    private var configuredView: (any UIView & UIContentView)?

    /// Inset of the separator drawn under the cell, points. Defaults to 16 at the left; while left at the default, a
    /// cell showing an image (``imageView``) starts its separator where its text starts, as iOS's.
    open var separatorInset = UIEdgeInsets(top: 0, left: 16, bottom: 0, right: 0) {
        didSet { separatorInsetWasSet = true }
    }
    private var separatorInsetWasSet = false
    /// The classic labels' leading edge at the last layout.
    private var drawnTextX: CGFloat = 16
    /// Whether the table draws the separator under this cell.
    var showsSeparator = true

    /// Creates a cell of `style` that a table view reuses under `reuseIdentifier`.
    public init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier ?? Self.pendingReuseIdentifier
        ownDetailTextLabel = style == .default ? nil : UILabel()
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        setUp()
    }

    /// Creates a `.default` cell without reuse identifier (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        style = .default
        ownDetailTextLabel = nil
        super.init(coder: coder)
        setUp()
    }

    /// Creates a `.default` cell; registered cell classes are created this way (it calls
    /// ``init(style:reuseIdentifier:)``, which subclasses override).
    public required convenience init() {
        self.init(style: .default, reuseIdentifier: nil)
    }

    private func setUp() {
        defer { addSubview(accessoryGlyph) }
        backgroundColor = .systemBackground
        selectionBackground.backgroundColor = .systemGray4
        selectionBackground.isUserInteractionEnabled = false
        selectionBackground.alpha = 0
        addSubview(selectionBackground)
        accessoryGlyph.isOpaque = false
        accessoryGlyph.isUserInteractionEnabled = false
        contentView.isOpaque = false
        // The content view follows the cell's size at once (not only at the cell's next layout), so Auto Layout
        // inside it never sees a stale height.
        contentView.frame = bounds
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
        ownTextLabel.font = .systemFont(ofSize: 17)
        contentView.addSubview(ownImageView)
        contentView.addSubview(ownTextLabel)
        if let detail = ownDetailTextLabel {
            switch style {
            case .subtitle:
                detail.font = .systemFont(ofSize: 12)
                detail.textColor = .label
            default:
                detail.font = .systemFont(ofSize: 17)
                detail.textColor = .secondaryLabel
                detail.textAlignment = .right
            }
            contentView.addSubview(detail)
        }
    }

    /// Sets ``isSelected``; with `animated`, the grey fades out over 0.25 s when the cell stops being selected (as
    /// `deselectRow(at:animated:)` does on iOS).
    open func setSelected(_ selected: Bool, animated: Bool) {
        selectedFlag = selected
        updateSelectionBackground(animated: animated)
    }

    /// Sets ``isHighlighted``; with `animated`, the grey fades out over 0.25 s when the highlight ends.
    open func setHighlighted(_ highlighted: Bool, animated: Bool) {
        guard highlighted != isHighlighted else { return }
        if animated {
            let old = isHighlighted
            isHighlighted = highlighted
            if old { updateSelectionBackground(animated: true) }
        } else {
            isHighlighted = highlighted
        }
    }

    /// Called before the table view hands the cell out again: clears selection and highlight. Overrides call
    /// super.
    open func prepareForReuse() {
        selectedFlag = false
        isHighlighted = false
        updateSelectionBackground(animated: false)
    }

    /// Shows or hides the selection grey; hiding fades over 0.25 s when `animated`.
    private func updateSelectionBackground(animated: Bool) {
        let shown = (selectedFlag || isHighlighted) && selectionStyle != .none
        let target: CGFloat = shown ? 1 : 0
        guard selectionBackground.alpha != target else { return }
        if animated && !shown {
            UIView.animate(withDuration: 0.25) { self.selectionBackground.alpha = 0 }
        } else {
            selectionBackground.alpha = target
        }
    }

    /// The content configuration of the cell's style: `.cell()`, `.subtitleCell()` or `.valueCell()`.
    open func defaultContentConfiguration() -> UIListContentConfiguration {
        switch style {
        case .default: .cell()
        case .subtitle: .subtitleCell()
        case .value1, .value2: .valueCell()
        }
    }

    private func installConfiguration() {
        guard let configuration = contentConfiguration else {
            configuredView?.removeFromSuperview()
            configuredView = nil
            for view in [ownTextLabel, ownDetailTextLabel, ownImageView] { view?.isHidden = false }
            return
        }
        if let view = configuredView, type(of: view.configuration) == type(of: configuration) {
            view.configuration = configuration
        } else {
            configuredView?.removeFromSuperview()
            let view = configuration.makeContentView()
            view.isUserInteractionEnabled = false
            contentView.addSubview(view)
            configuredView = view
        }
        for view in [ownTextLabel, ownDetailTextLabel, ownImageView] { view?.isHidden = true }
        setNeedsLayout()
    }

    /// The height the cell's content needs at `width` points wide, for a self-sizing row
    /// (``UITableView/automaticDimension``), as UIKit sizes cells: a content configuration's view by its texts and
    /// margins; a ``contentView`` whose subviews are placed with Auto Layout by its fitting size
    /// (`systemLayoutSizeFitting` at the content width, required, and the compressed height; 44 points when the
    /// constraints leave the height at zero); the classic labels by their wrapped texts with 11 points above and
    /// below. Configurations and classic labels are at least 44 points high. Rounded up to whole points.
    func selfSizingHeight(width: CGFloat) -> CGFloat {
        let contentWidth = max(0, width - accessoryWidth)
        if let configuredView {
            return max(44, configuredView.sizeThatFits(CGSize(width: contentWidth, height: 0)).height.rounded(.up))
        }
        if LayoutEngine.subtreeHasConstraints(contentView) {
            let size = contentView.systemLayoutSizeFitting(
                CGSize(width: contentWidth, height: UIView.layoutFittingCompressedSize.height),
                withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel)
            return size.height > 0 && size.height.isFinite ? size.height.rounded(.up) : 44
        }
        let textWidth = classicTextWidth(contentWidth: contentWidth)
        let t = ownTextLabel.sizeThatFits(CGSize(width: textWidth, height: 0))
        let detail = ownDetailTextLabel
        let d = detail?.text?.isEmpty == false ? detail!.sizeThatFits(CGSize(width: textWidth, height: 0)) : .zero
        let image = ownImageView.image?.size.height ?? 0
        let text = style == .subtitle ? t.height + d.height : max(t.height, d.height)
        return max(44, (max(text, image) + 22).rounded(.up))
    }

    /// The width of the classic labels' column in a content view `contentWidth` wide.
    private func classicTextWidth(contentWidth: CGFloat) -> CGFloat {
        var x: CGFloat = 16
        if let image = ownImageView.image { x += image.size.width + 16 }
        let right = contentWidth - (accessoryWidth > 0 ? 0 : 16)
        return max(1, right - x)
    }

    private var accessoryWidth: CGFloat {
        if let accessoryView { return accessoryView.frame.width + 16 }
        switch accessoryType {
        case .none: return 0
        case .disclosureIndicator, .checkmark, .detailButton: return 36
        case .detailDisclosureButton: return 60
        }
    }

    /// Lays out the content view, the classic labels or the configured view, and the accessory view.
    open override func layoutSubviews() {
        selectionBackground.frame = bounds
        if accessoryGlyph.frame != bounds {
            accessoryGlyph.frame = bounds
            accessoryGlyph.setNeedsDisplay()
        }
        contentView.frame = CGRect(x: 0, y: 0, width: max(0, bounds.width - accessoryWidth), height: bounds.height)
        if let accessoryView {
            let s = accessoryView.frame.size
            accessoryView.frame = CGRect(
                x: bounds.width - 16 - s.width, y: bounds.midY - s.height / 2, width: s.width, height: s.height)
        }
        let area = contentView.bounds
        if let configuredView {
            configuredView.frame = area
            return
        }
        var x: CGFloat = 16
        if let image = ownImageView.image {
            let s = image.size
            ownImageView.frame = CGRect(x: x, y: area.midY - s.height / 2, width: s.width, height: s.height)
            x = ownImageView.frame.maxX + 16
        } else {
            ownImageView.frame = .zero
        }
        if x != drawnTextX {
            // The separator follows the text when there is an image.
            drawnTextX = x
            setNeedsDisplay()
        }
        let right = area.maxX - (accessoryWidth > 0 ? 0 : 16)
        let width = max(0, right - x)
        let t = ownTextLabel.sizeThatFits(CGSize(width: width, height: 0))
        let detail = ownDetailTextLabel
        let d = detail?.text?.isEmpty == false ? detail!.sizeThatFits(CGSize(width: width, height: 0)) : .zero
        switch style {
        case .default:
            ownTextLabel.frame = CGRect(x: x, y: area.minY, width: width, height: area.height)
        case .subtitle:
            let top = area.midY - (t.height + d.height) / 2
            ownTextLabel.frame = CGRect(x: x, y: top, width: width, height: t.height)
            detail?.frame = CGRect(x: x, y: top + t.height, width: width, height: d.height)
        case .value1, .value2:
            let dw = min(d.width, width / 2)
            detail?.frame = CGRect(x: right - dw, y: area.minY, width: dw, height: area.height)
            ownTextLabel.frame = CGRect(x: x, y: area.minY, width: max(0, width - dw - 8), height: area.height)
        }
    }

    /// Where the separator starts: ``separatorInset``'s left, or the text's leading edge for a cell with an image
    /// whose inset was not set.
    var separatorLeft: CGFloat {
        if !separatorInsetWasSet, configuredView == nil, ownImageView.image != nil { return ownTextLabel.frame.minX }
        return separatorInset.left
    }

    /// Draws the separator (the selection grey and the accessory glyph are subviews).
    open override func draw(_ rect: CGRect) {
        if showsSeparator {
            let left = separatorLeft
            UIColor.control(light: .lightSeparator, dark: .darkSeparator).setFill()
            UIRectFill(
                CGRect(
                    x: left, y: bounds.maxY - 1, width: max(0, bounds.width - left - separatorInset.right),
                    height: 1))
        }
    }
}

/// The standard accessory glyphs (chevron, checkmark, info button) of a cell, drawn above its selection grey.
@MainActor final class CellAccessoryGlyphView: UIView {
    /// Draws the cell's ``UITableViewCell/accessoryType``.
    override func draw(_ rect: CGRect) {
        guard let cell = superview as? UITableViewCell, cell.accessoryView == nil else { return }
        let accessoryType = cell.accessoryType
        let midY = bounds.midY
        var right = bounds.maxX - 16
        if accessoryType == .disclosureIndicator || accessoryType == .detailDisclosureButton {
            UIColor.control(light: .lightTertiaryLabel, dark: UIColor(white: 0.36, alpha: 1)).setStroke()
            let chevron = UIBezierPath()
            chevron.lineWidth = 2
            chevron.move(to: CGPoint(x: right - 6, y: midY - 6))
            chevron.addLine(to: CGPoint(x: right, y: midY))
            chevron.addLine(to: CGPoint(x: right - 6, y: midY + 6))
            chevron.stroke()
            right -= 20
        }
        if accessoryType == .checkmark {
            tintColor.setStroke()
            let check = UIBezierPath()
            check.lineWidth = 2
            check.move(to: CGPoint(x: right - 14, y: midY))
            check.addLine(to: CGPoint(x: right - 9, y: midY + 5))
            check.addLine(to: CGPoint(x: right, y: midY - 6))
            check.stroke()
        }
        if accessoryType == .detailButton || accessoryType == .detailDisclosureButton {
            tintColor.setStroke()
            let circle = UIBezierPath(ovalIn: CGRect(x: right - 22, y: midY - 11, width: 22, height: 22))
            circle.lineWidth = 1.5
            circle.stroke()
            tintColor.setFill()
            UIRectFill(CGRect(x: right - 12, y: midY - 2, width: 2, height: 8))
            UIRectFill(CGRect(x: right - 12, y: midY - 6, width: 2, height: 2))
        }
    }
}

import Foundation

/// One row of a table view, as UIKit's `UITableViewCell`: a ``contentView`` holding either the style's
/// ``textLabel``, ``detailTextLabel`` and ``imageView`` or, once ``contentConfiguration`` is set, the view that
/// configuration makes; an accessory at the trailing edge; a white background drawn grey while selected.
/// - Thread rules: main actor only.
@MainActor open class UITableViewCell: UIView {
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
        didSet { setNeedsLayout() }
    }
    /// A view shown at the trailing edge instead of ``accessoryType``. Defaults to nil.
    open var accessoryView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            accessoryView.map(addSubview)
            setNeedsLayout()
        }
    }
    /// How the cell looks while selected. Defaults to `.default`.
    open var selectionStyle: SelectionStyle = .default
    /// Whether the cell is selected (drawn grey). Set by the table view.
    open var isSelected: Bool {
        get { selectedFlag }
        set { setSelected(newValue, animated: false) }
    }
    /// Whether the cell is highlighted (drawn as selected).
    open var isHighlighted = false {
        didSet { setNeedsDisplay() }
    }
    private var selectedFlag = false

    /// The content configuration; setting it replaces the classic labels with the view it makes (or updates that
    /// view when it is of the same kind). Defaults to nil.
    open var contentConfiguration: (any UIContentConfiguration)? {
        didSet { installConfiguration() }
    }
    private var configuredView: (any UIView & UIContentView)?

    /// Inset of the separator drawn under the cell, points. Defaults to 16 at the left.
    open var separatorInset = UIEdgeInsets(top: 0, left: 16, bottom: 0, right: 0)
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
        backgroundColor = .systemBackground
        contentView.isOpaque = false
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

    /// Sets ``isSelected``; `animated` is accepted.
    open func setSelected(_ selected: Bool, animated: Bool) {
        selectedFlag = selected
        setNeedsDisplay()
    }

    /// Sets ``isHighlighted``; `animated` is accepted.
    open func setHighlighted(_ highlighted: Bool, animated: Bool) { isHighlighted = highlighted }

    /// Called before the table view hands the cell out again: clears selection and highlight. Overrides call
    /// super.
    open func prepareForReuse() {
        selectedFlag = false
        isHighlighted = false
        setNeedsDisplay()
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
        let right = area.maxX - (accessoryWidth > 0 ? 0 : 16)
        let width = max(0, right - x)
        let t = ownTextLabel.sizeThatFits(.zero)
        let detail = ownDetailTextLabel
        let d = detail?.text?.isEmpty == false ? detail!.sizeThatFits(.zero) : .zero
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

    /// Draws the selection, the separator and the accessory.
    open override func draw(_ rect: CGRect) {
        if (selectedFlag || isHighlighted) && selectionStyle != .none {
            UIColor.control(light: .lightGray4, dark: UIColor(white: 0.23, alpha: 1)).setFill()
            UIRectFill(bounds)
        }
        if showsSeparator {
            UIColor.control(light: .lightSeparator, dark: .darkSeparator).setFill()
            UIRectFill(
                CGRect(
                    x: separatorInset.left, y: bounds.maxY - 1,
                    width: max(0, bounds.width - separatorInset.left - separatorInset.right), height: 1))
        }
        guard accessoryView == nil else { return }
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

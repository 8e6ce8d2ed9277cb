import Foundation

/// The state a configuration is updated for, as UIKit's `UIConfigurationState`.
@preconcurrency @MainActor public protocol UIConfigurationState {}

/// A cell's state, as UIKit's `UICellConfigurationState`.
public struct UICellConfigurationState: UIConfigurationState, Hashable, Sendable {
    /// The cell is selected.
    public var isSelected = false
    /// The cell is highlighted.
    public var isHighlighted = false
    /// The cell is disabled.
    public var isDisabled = false
    /// The cell is editing.
    public var isEditing = false
    /// Creates a state with every flag false.
    public init() {}
}

/// A description of a view's content, as UIKit's `UIContentConfiguration`: it makes the view that shows it.
@preconcurrency @MainActor public protocol UIContentConfiguration {
    /// A new view showing this configuration.
    func makeContentView() -> any UIView & UIContentView
    /// This configuration adjusted for `state`.
    func updated(for state: any UIConfigurationState) -> Self
}

/// A view that shows a content configuration, as UIKit's `UIContentView`.
@preconcurrency @MainActor public protocol UIContentView: AnyObject {
    /// The configuration shown; setting it updates the view.
    var configuration: any UIContentConfiguration { get set }
}

/// The content of a list cell or header: an image, a text and a secondary text, as UIKit's
/// `UIListContentConfiguration`. Made by `.cell()` (text only), `.subtitleCell()` (secondary text under the text),
/// `.valueCell()` (secondary text at the trailing edge), or a cell's `defaultContentConfiguration()`.
public struct UIListContentConfiguration: UIContentConfiguration, Sendable {
    /// How a text is drawn.
    public struct TextProperties: Sendable {
        /// The font.
        public var font: UIFont
        /// The colour.
        public var color: UIColor
        /// The most lines (0: no limit). Defaults to 0.
        public var numberOfLines = 0
        /// The alignment. Defaults to `.natural`.
        public var alignment: NSTextAlignment = .natural
    }

    /// How the image is drawn.
    public struct ImageProperties: Sendable {
        /// The tint for template images; nil uses the view's tint. Defaults to nil.
        public var tintColor: UIColor?
        /// The largest size the image is drawn at; `.zero` means its own size. Defaults to `.zero`.
        public var maximumSize: CGSize = .zero
    }

    package enum Layout: Sendable { case stacked, sideBySide, header }

    package var layout: Layout

    /// The primary text. Defaults to nil.
    public var text: String?
    /// The secondary text. Defaults to nil.
    public var secondaryText: String?
    /// The image before the texts. Defaults to nil.
    public var image: UIImage?
    /// How the primary text is drawn (17 pt black for cells).
    public var textProperties: TextProperties
    /// How the secondary text is drawn (15 pt grey for subtitles, 17 pt grey for values).
    public var secondaryTextProperties: TextProperties
    /// How the image is drawn.
    public var imageProperties = ImageProperties()
    /// Points between the image and the texts. Defaults to 16.
    public var imageToTextPadding: CGFloat = 16
    /// Points between the text and the secondary text. Defaults to 2 (stacked) or 8 (side by side).
    public var textToSecondaryTextVerticalPadding: CGFloat = 2
    /// The margins around the content, points. Defaults to 11 above and below, 16 at the sides (20 for cells'
    /// leading edge as UIKit's 20-point table inset is approximated by 16 plus the separator).
    public var directionalLayoutMargins = NSDirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
    /// Whether the secondary text sits beside the text. True for `.valueCell()`.
    public var prefersSideBySideTextAndSecondaryText: Bool

    package init(layout: Layout) {
        self.layout = layout
        prefersSideBySideTextAndSecondaryText = layout == .sideBySide
        textProperties = TextProperties(font: .systemFont(ofSize: 17), color: .label)
        switch layout {
        case .stacked:
            secondaryTextProperties = TextProperties(
                font: .systemFont(ofSize: 15), color: .secondaryLabel)
        case .sideBySide:
            secondaryTextProperties = TextProperties(
                font: .systemFont(ofSize: 17), color: .secondaryLabel)
        case .header:
            textProperties = TextProperties(
                font: .systemFont(ofSize: 13), color: .secondaryLabel)
            secondaryTextProperties = textProperties
            directionalLayoutMargins = NSDirectionalEdgeInsets(top: 6, leading: 16, bottom: 6, trailing: 16)
        }
    }

    /// A cell with one text.
    public static func cell() -> UIListContentConfiguration { UIListContentConfiguration(layout: .stacked) }
    /// A cell with a secondary text under the text.
    public static func subtitleCell() -> UIListContentConfiguration { UIListContentConfiguration(layout: .stacked) }
    /// A cell with a secondary text at the trailing edge.
    public static func valueCell() -> UIListContentConfiguration { UIListContentConfiguration(layout: .sideBySide) }
    /// A plain-style section header.
    public static func plainHeader() -> UIListContentConfiguration { UIListContentConfiguration(layout: .header) }
    /// A grouped-style section header.
    public static func groupedHeader() -> UIListContentConfiguration { UIListContentConfiguration(layout: .header) }

    /// A new ``UIListContentView`` showing this configuration.
    public func makeContentView() -> any UIView & UIContentView { UIListContentView(configuration: self) }

    /// This configuration (the cell draws its selected state itself).
    public func updated(for state: any UIConfigurationState) -> UIListContentConfiguration { self }
}

/// The view that shows a ``UIListContentConfiguration``, as UIKit's `UIListContentView`: an image view and two
/// labels laid out within the configuration's margins.
@preconcurrency @MainActor open class UIListContentView: UIView, UIContentView {
    private let imageView = UIImageView()
    private let textLabel = UILabel()
    private let secondaryLabel = UILabel()
    private var list: UIListContentConfiguration

    /// Creates a view showing `configuration`.
    public init(configuration: UIListContentConfiguration) {
        list = configuration
        super.init(frame: .zero)
        isOpaque = false
        for view in [imageView, textLabel, secondaryLabel] {
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
        apply()
    }

    /// Creates a view showing an empty cell configuration (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        list = .cell()
        super.init(coder: coder)
        apply()
    }

    /// The configuration shown; a configuration of another type is ignored.
    open var configuration: any UIContentConfiguration {
        get { list }
        set {
            guard let new = newValue as? UIListContentConfiguration else { return }
            list = new
            apply()
        }
    }

    private func apply() {
        textLabel.text = list.text
        textLabel.font = list.textProperties.font
        textLabel.textColor = list.textProperties.color
        textLabel.numberOfLines = list.textProperties.numberOfLines
        secondaryLabel.text = list.secondaryText
        secondaryLabel.font = list.secondaryTextProperties.font
        secondaryLabel.textColor = list.secondaryTextProperties.color
        secondaryLabel.numberOfLines = list.secondaryTextProperties.numberOfLines
        secondaryLabel.textAlignment = list.prefersSideBySideTextAndSecondaryText ? .right : .natural
        imageView.image = list.image
        imageView.tintColor = list.imageProperties.tintColor
        imageView.contentMode = .scaleAspectFit
        setNeedsLayout()
    }

    private var imageSize: CGSize {
        guard let image = list.image else { return .zero }
        let max = list.imageProperties.maximumSize
        guard max.width > 0, max.height > 0 else { return image.size }
        let s = min(1, min(max.width / image.size.width, max.height / image.size.height))
        return CGSize(width: image.size.width * s, height: image.size.height * s)
    }

    /// Places the image and texts within the margins.
    open override func layoutSubviews() {
        let m = list.directionalLayoutMargins
        let area = CGRect(
            x: m.leading, y: m.top, width: max(0, bounds.width - m.leading - m.trailing),
            height: max(0, bounds.height - m.top - m.bottom))
        let i = imageSize
        imageView.frame = CGRect(x: area.minX, y: bounds.midY - i.height / 2, width: i.width, height: i.height)
        let x = i.width > 0 ? imageView.frame.maxX + list.imageToTextPadding : area.minX
        let width = max(0, area.maxX - x)
        let t = textLabel.sizeThatFits(CGSize(width: width, height: 0))
        let hasSecondary = list.secondaryText?.isEmpty == false
        let s = hasSecondary ? secondaryLabel.sizeThatFits(CGSize(width: width, height: 0)) : .zero
        if list.prefersSideBySideTextAndSecondaryText {
            let sw = min(s.width, width / 2)
            secondaryLabel.frame = CGRect(x: area.maxX - sw, y: bounds.midY - s.height / 2, width: sw, height: s.height)
            textLabel.frame = CGRect(
                x: x, y: bounds.midY - t.height / 2, width: min(t.width, max(0, width - sw - 8)), height: t.height)
        } else {
            let gap = hasSecondary ? list.textToSecondaryTextVerticalPadding : 0
            let top = bounds.midY - (t.height + gap + s.height) / 2
            textLabel.frame = CGRect(x: x, y: top, width: min(t.width, width), height: t.height)
            secondaryLabel.frame = CGRect(x: x, y: top + t.height + gap, width: min(s.width, width), height: s.height)
        }
        secondaryLabel.isHidden = !hasSecondary
    }

    /// The texts' stacked height plus the margins, the texts wrapped at `size.width` less the margins and image (at
    /// their natural width when `size.width` is not positive). Table views make cells at least 44 points high.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let m = list.directionalLayoutMargins
        let i = imageSize
        var width: CGFloat = 0
        if size.width > 0 && size.width.isFinite {
            width = max(1, size.width - m.leading - m.trailing - (i.width > 0 ? i.width + list.imageToTextPadding : 0))
        }
        let t = textLabel.sizeThatFits(CGSize(width: width, height: 0))
        let s =
            list.secondaryText?.isEmpty == false ? secondaryLabel.sizeThatFits(CGSize(width: width, height: 0)) : .zero
        let h =
            list.prefersSideBySideTextAndSecondaryText
            ? max(t.height, s.height)
            : t.height + s.height + (s.height > 0 ? list.textToSecondaryTextVerticalPadding : 0)
        return CGSize(width: size.width, height: max(h, i.height) + m.top + m.bottom)
    }
}

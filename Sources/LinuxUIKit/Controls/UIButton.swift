import Foundation

/// A control that runs an action when tapped, as UIKit's `UIButton`, in both of UIKit's styles: the classic
/// per-state setters (``setTitle(_:for:)``, ``setTitleColor(_:for:)``, ``setImage(_:for:)``) and, since iOS 15,
/// a ``Configuration`` (`.filled()`, `.tinted()`, `.gray()`, `.plain()`).
///
/// A tap (touch up inside) sends `.touchUpInside` and then `.primaryActionTriggered`; `UIButton(primaryAction:)`
/// registers its action for `.primaryActionTriggered` and shows its title and image. The title is drawn by
/// ``titleLabel`` and the image by ``imageView``, laid out side by side (image leading) and centred in the content
/// area (the bounds less ``Configuration/contentInsets`` or ``contentEdgeInsets``).
///
/// Looks: a `.system` button draws its title and template images in the ``UIView/tintColor`` (faded to 20 % while
/// highlighted, grey when disabled); a `.custom` button draws white titles unless told otherwise. A configured
/// button draws its background (filled: the tint; tinted: the tint at 15 %; gray: `secondarySystemFill`; plain:
/// none) as a rounded rectangle, darkened while highlighted.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIButton: UIControl {
    /// The kind of button, as UIKit's `UIButton.ButtonType`.
    public enum ButtonType: Int, Sendable {
        /// No styling: white titles, images as given.
        case custom = 0
        /// The tinted text button of iOS 7 and later.
        case system = 1
        /// An "i" in a circle, tinted (drawn as `.system` with an "i" title on Linux).
        case detailDisclosure = 2
        /// An "i" in a circle (light).
        case infoLight = 3
        /// An "i" in a circle (dark).
        case infoDark = 4
        /// A "+" in a circle.
        case contactAdd = 5
        /// A plain button without a background (iOS 15).
        case plain = 6
        /// A close ("×") button.
        case close = 7
        /// The old name of `.system`.
        public static var roundedRect: ButtonType { .system }
    }

    /// The kind of button, fixed at creation. `.custom` for `UIButton(frame:)`.
    public private(set) var buttonType: ButtonType = .custom

    /// The label that draws the title; always present (its text is set from the current state). Change its font
    /// for classic buttons; configured buttons take the font from the configuration.
    public private(set) var titleLabel: UILabel?
    /// The view that draws the image; always present, empty without an image.
    public private(set) var imageView: UIImageView?

    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    private var backgroundImages: [UInt: UIImage] = [:]

    /// The space around the title and image of a classic button, points. Defaults to `.zero`.
    open var contentEdgeInsets: UIEdgeInsets = .zero {
        didSet { updateLook() }
    }

    /// The button's configuration (iOS 15 style); nil for a classic button. Setting it restyles the button.
    open var configuration: Configuration? {
        didSet { updateLook() }
    }

    /// Called whenever the button's state changes, to adjust ``configuration`` for it (iOS 15). Defaults to nil.
    open var configurationUpdateHandler: (@MainActor (UIButton) -> Void)?

    /// Whether a tap toggles ``UIControl/isSelected`` before the primary action runs (iOS 15). Defaults to false.
    open var changesSelectionAsPrimaryAction = false

    /// Creates a `.custom` button with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUpSubviews()
    }

    /// Creates an empty `.custom` button (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUpSubviews()
    }

    /// Creates a button of the given type with a zero frame (size it with `sizeToFit()` or a frame).
    public convenience init(type buttonType: ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
        switch buttonType {
        case .detailDisclosure, .infoLight, .infoDark: titles[0] = "ⓘ"
        case .contactAdd: titles[0] = "⊕"
        case .close: titles[0] = "✕"
        default: break
        }
        updateLook()
    }

    /// Creates a button of `buttonType` (default `.system`) whose tap runs `primaryAction`, titled with the action's
    /// title and image.
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction { adopt(primaryAction) }
    }

    /// Creates a `.custom` button with `frame` whose tap runs `primaryAction`.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { adopt(primaryAction) }
    }

    /// Creates a `.system` button drawn by `configuration`, whose tap runs `primaryAction` (its title and image
    /// fill the configuration's when those are nil).
    public convenience init(configuration: Configuration, primaryAction: UIAction? = nil) {
        self.init(type: .system)
        var configuration = configuration
        if let primaryAction {
            if configuration.title == nil, !primaryAction.title.isEmpty { configuration.title = primaryAction.title }
            if configuration.image == nil { configuration.image = primaryAction.image }
            addAction(primaryAction, for: .primaryActionTriggered)
        }
        self.configuration = configuration
        updateLook()  // property observers do not run for assignments inside an initialiser
    }

    private func adopt(_ action: UIAction) {
        if !action.title.isEmpty { titles[0] = action.title }
        if let image = action.image { images[0] = image }
        addAction(action, for: .primaryActionTriggered)
        updateLook()
    }

    private func setUpSubviews() {
        let label = UILabel()
        label.font = .systemFont(ofSize: 15)
        label.textAlignment = .center
        label.isUserInteractionEnabled = false
        let image = UIImageView()
        image.contentMode = .center
        image.isUserInteractionEnabled = false
        addSubview(image)
        addSubview(label)
        titleLabel = label
        imageView = image
        isOpaque = false
        updateLook()
    }

    // MARK: Per-state values

    /// Sets the title shown in `state` (`.normal` is the fallback for states without one). Nil removes it.
    open func setTitle(_ title: String?, for state: State) {
        titles[state.rawValue] = title
        updateLook()
    }

    /// The title set for `state`, else the `.normal` one.
    open func title(for state: State) -> String? { titles[state.rawValue] ?? titles[0] }

    /// Sets the title colour for `state` (`.normal` is the fallback). Nil removes it.
    open func setTitleColor(_ color: UIColor?, for state: State) {
        titleColors[state.rawValue] = color
        updateLook()
    }

    /// The title colour set for `state`, else the `.normal` one, else the type's default (nil when none was set).
    open func titleColor(for state: State) -> UIColor? { titleColors[state.rawValue] ?? titleColors[0] }

    /// Sets the image for `state` (`.normal` is the fallback). System buttons draw images as templates in the tint
    /// unless their rendering mode is `.alwaysOriginal`.
    open func setImage(_ image: UIImage?, for state: State) {
        images[state.rawValue] = image
        updateLook()
    }

    /// The image set for `state`, else the `.normal` one.
    open func image(for state: State) -> UIImage? { images[state.rawValue] ?? images[0] }

    /// Sets the image stretched behind the content in `state` (`.normal` is the fallback).
    open func setBackgroundImage(_ image: UIImage?, for state: State) {
        backgroundImages[state.rawValue] = image
        updateLook()
    }

    /// The background image set for `state`, else the `.normal` one.
    open func backgroundImage(for state: State) -> UIImage? {
        backgroundImages[state.rawValue] ?? backgroundImages[0]
    }

    /// The title shown now (the configuration's, else the current state's).
    open var currentTitle: String? { configuration.map { $0.title } ?? title(for: state) }
    /// The title colour shown now.
    open var currentTitleColor: UIColor { foregroundColor }
    /// The image shown now.
    open var currentImage: UIImage? { configuration.map { $0.image } ?? image(for: state) }

    // MARK: Look

    /// Restyles for the new state (and runs ``configurationUpdateHandler``).
    open override func stateDidChange() {
        configurationUpdateHandler?(self)
        updateLook()
    }

    /// Restyles for the new tint.
    open override func tintColorDidChange() { updateLook() }

    /// Re-applies the configuration (calls ``configurationUpdateHandler``).
    open func setNeedsUpdateConfiguration() {
        configurationUpdateHandler?(self)
        updateLook()
    }

    private var isSystemLike: Bool { buttonType != .custom }

    private var foregroundColor: UIColor {
        if let configuration {
            if !isEnabled { return UIColor(white: 0.6, alpha: 1) }
            let base = configuration.baseForegroundColor ?? (configuration.style == .filled ? .white : tintColor!)
            return configuration.style == .plain && isHighlighted ? base.withAlphaComponent(0.3) : base
        }
        if let color = titleColor(for: state) { return color }
        guard isSystemLike else { return isEnabled ? .white : UIColor(white: 1, alpha: 0.5) }
        if !isEnabled { return UIColor(white: 0.6, alpha: 1) }
        return isHighlighted ? tintColor.withAlphaComponent(0.2) : tintColor
    }

    /// The configured background colour for the current state, or nil.
    private var backgroundFill: UIColor? {
        guard let configuration else { return nil }
        let tint = configuration.baseBackgroundColor ?? tintColor!
        var fill: UIColor?
        switch configuration.style {
        case .plain: fill = configuration.baseBackgroundColor
        case .filled: fill = isEnabled ? tint : .tertiarySystemFill
        case .tinted: fill = tint.withAlphaComponent(0.15)
        case .gray:
            fill =
                configuration.baseBackgroundColor
                ?? .secondarySystemFill
        }
        guard let f = fill, isHighlighted else { return fill }
        let c = f.rgba
        return UIColor(red: c.red * 0.8, green: c.green * 0.8, blue: c.blue * 0.8, alpha: c.alpha)
    }

    private var cornerRadius: CGFloat {
        guard let configuration else { return 0 }
        switch configuration.cornerStyle {
        case .fixed: return 0
        case .small: return 4
        case .medium: return 8
        case .large: return 12
        case .capsule: return bounds.height / 2
        case .dynamic:
            switch configuration.buttonSize {
            case .mini, .small: return 6
            case .medium: return 8
            case .large: return 12
            }
        }
    }

    private var shownTitle: String? { configuration.map { $0.title } ?? title(for: state) }
    private var shownImage: UIImage? { configuration.map { $0.image } ?? image(for: state) }

    private var contentInsets: UIEdgeInsets {
        if let c = configuration?.contentInsets {
            return UIEdgeInsets(top: c.top, left: c.leading, bottom: c.bottom, right: c.trailing)
        }
        // Classic buttons: UIKit's 6-point padding above and below a title (a 15 pt title gives a 30-point button).
        let pad: CGFloat = shownTitle?.isEmpty == false ? 6 : 0
        let e = contentEdgeInsets
        return UIEdgeInsets(top: e.top + pad, left: e.left, bottom: e.bottom + pad, right: e.right)
    }

    private var imagePadding: CGFloat {
        guard shownImage != nil, shownTitle?.isEmpty == false else { return 0 }
        return configuration?.imagePadding ?? 0
    }

    private func updateLook() {
        guard let titleLabel, let imageView else { return }
        titleLabel.text = shownTitle
        if let configuration { titleLabel.font = configuration.buttonSize.font }
        let fg = foregroundColor
        titleLabel.textColor = fg
        if let image = shownImage {
            let template = (isSystemLike || configuration != nil) && image.renderingMode != .alwaysOriginal
            imageView.image = template ? image.withRenderingMode(.alwaysTemplate) : image
        } else {
            imageView.image = nil
        }
        imageView.tintColor = fg
        setNeedsLayout()
        setNeedsDisplay()
    }

    private var titleSize: CGSize {
        guard let titleLabel, titleLabel.text?.isEmpty == false else { return .zero }
        return titleLabel.sizeThatFits(.zero)
    }

    /// The size of the title and image side by side plus the content insets, points.
    open override var intrinsicContentSize: CGSize {
        let t = titleSize
        let i = shownImage?.size ?? .zero
        let insets = contentInsets
        return CGSize(
            width: (t.width + i.width + imagePadding + insets.left + insets.right).rounded(.up),
            height: (max(t.height, i.height) + insets.top + insets.bottom).rounded(.up))
    }

    /// The ``intrinsicContentSize`` whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    /// Places the image and the title side by side, centred in the content area.
    open override func layoutSubviews() {
        guard let titleLabel, let imageView else { return }
        let area = bounds.inset(by: contentInsets)
        let t = titleSize
        let i = shownImage?.size ?? .zero
        let total = i.width + imagePadding + min(t.width, max(0, area.width - i.width - imagePadding))
        var x = area.minX + (area.width - total) / 2
        imageView.frame = CGRect(x: x, y: area.midY - i.height / 2, width: i.width, height: i.height)
        x += i.width + imagePadding
        titleLabel.frame = CGRect(
            x: x, y: area.midY - t.height / 2, width: max(0, area.maxX - x), height: t.height)
        if titleLabel.frame.width > t.width { titleLabel.frame.size.width = t.width }
    }

    /// Draws the background image or the configured background.
    open override func draw(_ rect: CGRect) {
        if let image = backgroundImage(for: state) { image.draw(in: bounds) }
        guard let fill = backgroundFill else { return }
        fill.setFill()
        UIBezierPath(roundedRect: bounds, cornerRadius: min(cornerRadius, bounds.height / 2)).fill()
    }

    override func touchUpInsideDidFire(_ touch: UITouch) {
        if changesSelectionAsPrimaryAction { isSelected.toggle() }
        sendActions(for: .primaryActionTriggered)
    }
}

extension UIButton {
    /// How a button draws itself since iOS 15, as UIKit's `UIButton.Configuration`: a style (`.plain()`, `.tinted()`,
    /// `.gray()`, `.filled()`), a title and image, colours, insets and corners.
    public struct Configuration: Sendable {
        /// The background style a configuration was made with.
        package enum Style: Hashable, Sendable { case plain, tinted, gray, filled }

        /// How rounded a configured button's background is, as UIKit's `UIButton.Configuration.CornerStyle`.
        public enum CornerStyle: Hashable, Sendable {
            /// Square corners (no background corner radius on Linux).
            case fixed
            /// Rounded by the button size: 6 points for small buttons, 8 for medium, 12 for large.
            case dynamic
            /// 4-point corners.
            case small
            /// 8-point corners.
            case medium
            /// 12-point corners.
            case large
            /// Half the height: a pill.
            case capsule
        }

        /// A configured button's size class, as UIKit's `UIButton.Configuration.Size`: it sets the title font (12,
        /// 15, 17, 17 points) and the default insets.
        public enum Size: Hashable, Sendable {
            /// The smallest: 12-point titles.
            case mini
            /// 15-point titles.
            case small
            /// 17-point titles (the default).
            case medium
            /// 17-point titles with wide insets.
            case large

            var font: UIFont {
                switch self {
                case .mini: .systemFont(ofSize: 12)
                case .small: .systemFont(ofSize: 15)
                case .medium, .large: .systemFont(ofSize: 17)
                }
            }

            var insets: NSDirectionalEdgeInsets {
                switch self {
                case .mini: NSDirectionalEdgeInsets(top: 2, leading: 6, bottom: 2, trailing: 6)
                case .small: NSDirectionalEdgeInsets(top: 5, leading: 10, bottom: 5, trailing: 10)
                case .medium: NSDirectionalEdgeInsets(top: 7, leading: 12, bottom: 7, trailing: 12)
                case .large: NSDirectionalEdgeInsets(top: 14, leading: 20, bottom: 14, trailing: 20)
                }
            }
        }

        package var style: Style

        /// The title; nil shows none. Defaults to nil.
        public var title: String?
        /// A second line under the title (stored; Waymark draws the title only). Defaults to nil.
        public var subtitle: String?
        /// The image, drawn before the title as a template in the foreground colour (unless `.alwaysOriginal`).
        /// Defaults to nil.
        public var image: UIImage?
        /// Points between the image and the title. Defaults to 0.
        public var imagePadding: CGFloat = 0
        /// Where the image sits relative to the title (stored; Waymark draws it leading). Defaults to `.leading`.
        public var imagePlacement: NSDirectionalRectEdge = .leading
        /// The title and image colour; nil uses the style's (white on filled, else the tint). Defaults to nil.
        public var baseForegroundColor: UIColor?
        /// The background colour; nil uses the style's (the tint for filled and tinted, `secondarySystemFill` for
        /// gray, none for plain). Defaults to nil.
        public var baseBackgroundColor: UIColor?
        /// The space between the bounds and the content, points. Defaults to the ``buttonSize``'s: 7 above and
        /// below and 12 at the sides for `.medium`.
        public var contentInsets: NSDirectionalEdgeInsets
        /// How rounded the background is. Defaults to `.dynamic`.
        public var cornerStyle: CornerStyle = .dynamic
        /// The size class; setting it resets ``contentInsets`` to the size's. Defaults to `.medium`.
        public var buttonSize: Size = .medium {
            didSet { contentInsets = buttonSize.insets }
        }
        /// Whether an activity indicator replaces the image (stored only). Defaults to false.
        public var showsActivityIndicator = false

        package init(style: Style) {
            self.style = style
            contentInsets = Size.medium.insets
        }

        /// No background; tinted title.
        public static func plain() -> Configuration { Configuration(style: .plain) }
        /// A light wash of the tint behind a tinted title.
        public static func tinted() -> Configuration { Configuration(style: .tinted) }
        /// A light grey background behind a tinted title.
        public static func gray() -> Configuration { Configuration(style: .gray) }
        /// A solid tint background behind a white title.
        public static func filled() -> Configuration { Configuration(style: .filled) }
        /// The same as ``plain()``.
        public static func borderless() -> Configuration { plain() }
        /// The same as ``gray()``.
        public static func bordered() -> Configuration { gray() }
        /// The same as ``tinted()``.
        public static func borderedTinted() -> Configuration { tinted() }
        /// The same as ``filled()``.
        public static func borderedProminent() -> Configuration { filled() }

        /// This configuration as it applies to `button`'s state (returned unchanged: the button applies state
        /// itself).
        @preconcurrency @MainActor public func updated(for button: UIButton) -> Configuration { self }
    }
}

import Foundation

/// A button of an alert or action sheet, as UIKit's `UIAlertAction`: a title, a style and the handler a tap runs.
/// - Thread rules: main actor only; the handler runs on the main thread.
@preconcurrency @MainActor open class UIAlertAction {
    /// How an action looks and where it goes, as UIKit's `UIAlertAction.Style`.
    public enum Style: Int, Sendable {
        /// A plain button in the tint colour.
        case `default` = 0
        /// The cancel button: semibold, last (or left of two side by side); an action sheet shows it apart. At most
        /// one per alert.
        case cancel = 1
        /// A red button: the action destroys data.
        case destructive = 2
    }

    /// The button's title.
    public let title: String?
    /// The button's style.
    public let style: Style
    /// Whether the button can be tapped; a disabled one is grey. Defaults to true.
    open var isEnabled = true { didSet { onChange?() } }

    let handler: (@MainActor (UIAlertAction) -> Void)?
    var onChange: (() -> Void)?

    /// Creates an action, as UIKit's initialiser; `handler` runs after the alert was dismissed.
    public init(title: String?, style: Style, handler: (@MainActor (UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

/// An alert or action sheet, as UIKit's `UIAlertController`: a title, a message, text fields (alerts only) and
/// buttons (``UIAlertAction``), presented with `present(_:animated:completion:)`.
///
/// An alert is a 270-point box in the middle of the window over a dimmed background; its text fields sit under the
/// message, stacked; two actions sit side by side (cancel on the left), more are stacked (cancel last). An action
/// sheet sits at the bottom of the window, its cancel action in a box of its own below the others. Tapping an
/// enabled action dismisses the controller and then runs the action's handler (the text fields keep their text for
/// it). Tapping outside an action sheet acts as its cancel action when it has one.
///
/// Text fields: the first one becomes the first responder as the alert appears, so typed text (a window's keys,
/// `UIHeadlessHost.type(_:)`) goes into it; a tap moves editing to another field. The return key, once the field's
/// delegate agrees (`textFieldShouldReturn(_:)`), taps the ``preferredAction``, or when there is none the only action
/// that is not `.cancel` (Waymark's rule for UIKit's undocumented choice); a disabled action is not tapped. Editing
/// ends when the alert is dismissed.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIAlertController: UIViewController {
    /// The kind of alert, as UIKit's `UIAlertController.Style`.
    public enum Style: Int, Sendable {
        /// A sheet of actions at the bottom of the screen.
        case actionSheet = 0
        /// A box in the middle of the screen.
        case alert = 1
    }

    /// The text under the title. Defaults to nil.
    open var message: String? { didSet { alertView?.rebuild() } }
    /// The style chosen at creation.
    public private(set) var preferredStyle: Style = .alert
    /// The actions in the order added.
    public private(set) var actions: [UIAlertAction] = []
    /// The action drawn semibold (an alert's "return key" action) instead of the cancel action; must be one of
    /// ``actions``. Defaults to nil (the cancel action is semibold).
    open var preferredAction: UIAlertAction? { didSet { alertView?.rebuild() } }

    /// The text fields in the order added (empty until ``addTextField(configurationHandler:)`` adds one), as UIKit's
    /// property. They are instances of a private `UITextField` subclass that draws the alert's field look, as UIKit's
    /// are.
    public var textFields: [UITextField]? { fields }
    private(set) var fields: [UITextField] = []

    private var alertView: AlertView? { viewIfLoaded as? AlertView }

    /// Creates an alert or action sheet, as UIKit's initialiser.
    public convenience init(title: String?, message: String?, preferredStyle: Style) {
        self.init(nibName: nil, bundle: nil)
        self.title = title
        self.message = message
        self.preferredStyle = preferredStyle
    }

    /// Creates an alert with no title, message or actions.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
        modalPresentationStyle = .overFullScreen
        modalTransitionStyle = .crossDissolve
    }

    /// Archives are not supported on Linux: an empty alert.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        modalPresentationStyle = .overFullScreen
        modalTransitionStyle = .crossDissolve
    }

    /// Adds a button. A second `.cancel` action is a programmer error in UIKit; here it is ignored with a warning.
    public func addAction(_ action: UIAlertAction) {
        if action.style == .cancel, actions.contains(where: { $0.style == .cancel }) {
            UIKitLog.warning("UIAlertController can only have one action with a style of UIAlertActionStyleCancel")
            return
        }
        actions.append(action)
        action.onChange = { [weak self] in self?.alertView?.rebuild() }
        alertView?.rebuild()
    }

    /// Adds a text field under the message, as UIKit's method: a 13-point field with the alert's look, handed to
    /// `configurationHandler` (set its placeholder, text, `isSecureTextEntry`, delegate, actions) before it is shown.
    /// Only alerts have text fields: UIKit raises an exception for an action sheet; Waymark logs UIKit's message and
    /// adds nothing.
    public func addTextField(configurationHandler: (@MainActor (UITextField) -> Void)? = nil) {
        guard preferredStyle == .alert else {
            UIKitLog.warning(
                "Text fields can only be added to an alert controller of style UIAlertControllerStyleAlert")
            return
        }
        let field = AlertTextField(frame: .zero)
        field.addAction(
            UIAction { [weak self] _ in self?.returnKeyPressed() }, for: .primaryActionTriggered)
        fields.append(field)
        configurationHandler?(field)
        alertView?.rebuild()
    }

    /// The return key in a text field: the preferred action, else the only non-cancel action.
    private func returnKeyPressed() {
        let others = actions.filter { $0.style != .cancel }
        guard let action = preferredAction ?? (others.count == 1 ? others[0] : nil) else { return }
        tap(action)
    }

    /// The first text field starts editing as the alert appears.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        fields.first?.becomeFirstResponder()
    }

    /// Editing ends as the alert goes.
    open override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        viewIfLoaded?.endEditing(true)
    }

    /// Makes the alert's view: the dimmed backdrop with the box or sheet.
    open override func loadView() {
        let view = AlertView(frame: UIScreen.main.bounds)
        view.controller = self
        self.view = view
        view.rebuild()
    }

    /// A tap on `action`'s button (Waymark's own entry point, used by the buttons): nothing when disabled; else the
    /// alert is dismissed with animation and the handler runs after it.
    package func tap(_ action: UIAlertAction) {
        guard action.isEnabled, actions.contains(where: { $0 === action }), !isBeingDismissed else { return }
        dismiss(animated: true) { action.handler?(action) }
    }

    /// The frame of `action`'s button in window coordinates (Waymark's own, for scripted taps); nil when the view is
    /// not loaded or the action is not the alert's.
    package func buttonFrame(for action: UIAlertAction) -> CGRect? {
        guard let view = alertView, let button = view.buttons.first(where: { $0.action === action }) else {
            return nil
        }
        view.layoutIfNeeded()
        return button.convert(button.bounds, to: nil)
    }

    /// Whether `action`'s button title is semibold, or nil when the alert is not built (tests).
    package func buttonIsBold(for action: UIAlertAction) -> Bool? {
        alertView?.buttons.first(where: { $0.action === action })?.isBold
    }
}

/// The alert's whole-window view: a dimmed backdrop and the box (or sheet) with labels and buttons.
@MainActor final class AlertView: UIView, UITouchResponder {
    weak var controller: UIAlertController?
    private let box = UIView()
    private let cancelBox = UIView()
    private let titleLabel = UILabel()
    private let messageLabel = UILabel()
    private(set) var buttons: [AlertButton] = []
    private var separators: [UIView] = []

    static let boxColor = UIColor {
        $0.userInterfaceStyle == .dark
            ? UIColor(red: 44.0 / 255, green: 44.0 / 255, blue: 46.0 / 255, alpha: 1)
            : UIColor(red: 242.0 / 255, green: 242.0 / 255, blue: 242.0 / 255, alpha: 1)
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0, alpha: 0.2)
        for b in [box, cancelBox] {
            b.backgroundColor = AlertView.boxColor
            b.layer.cornerRadius = 14
            b.clipsToBounds = true
            addSubview(b)
        }
        titleLabel.textAlignment = .center
        titleLabel.numberOfLines = 0
        messageLabel.textAlignment = .center
        messageLabel.numberOfLines = 0
        box.addSubview(titleLabel)
        box.addSubview(messageLabel)
    }

    required init?(coder: NSCoder) { nil }

    private var isSheet: Bool { controller?.preferredStyle == .actionSheet }

    /// The actions in display order: cancel last (left of two side by side in an alert).
    private var orderedActions: [UIAlertAction] {
        guard let controller else { return [] }
        let others = controller.actions.filter { $0.style != .cancel }
        let cancel = controller.actions.filter { $0.style == .cancel }
        if !isSheet, controller.actions.count == 2 { return cancel + others }
        return others + cancel
    }

    func rebuild() {
        guard let controller else { return }
        for b in buttons { b.removeFromSuperview() }
        for s in separators { s.removeFromSuperview() }
        buttons = []
        separators = []
        titleLabel.text = controller.title
        messageLabel.text = controller.message
        let sheet = isSheet
        titleLabel.font = UIFont.systemFont(ofSize: sheet ? 13 : 17, weight: .semibold)
        titleLabel.textColor = sheet ? UIColor.secondaryLabel : UIColor.label
        messageLabel.font = UIFont.systemFont(ofSize: 13)
        messageLabel.textColor = sheet ? UIColor.secondaryLabel : UIColor.label
        for field in controller.fields where field.superview !== box { box.addSubview(field) }
        for action in orderedActions {
            // Semibold: the preferred action when there is one, else the cancel action (as on iOS).
            let bold = controller.preferredAction.map { $0 === action } ?? (action.style == .cancel)
            let button = AlertButton(action: action, bold: bold)
            button.onTap = { [weak controller] in controller?.tap(action) }
            buttons.append(button)
            (sheet && action.style == .cancel ? cancelBox : box).addSubview(button)
        }
        cancelBox.isHidden = !(sheet && controller.actions.contains { $0.style == .cancel })
        setNeedsLayout()
        setNeedsDisplay()
    }

    private func separator(in parent: UIView, _ frame: CGRect) {
        let line = UIView(frame: frame)
        line.backgroundColor = .separator
        parent.addSubview(line)
        separators.append(line)
    }

    override func layoutSubviews() {
        for s in separators { s.removeFromSuperview() }
        separators = []
        let sheet = isSheet
        let width: CGFloat = sheet ? min(bounds.width - 16, 400) : 270
        let textWidth = width - 32
        var y: CGFloat = (titleLabel.text ?? "").isEmpty && (messageLabel.text ?? "").isEmpty ? 0 : (sheet ? 14 : 20)
        for label in [titleLabel, messageLabel] {
            guard let text = label.text, !text.isEmpty else {
                label.frame = .zero
                continue
            }
            let size = label.sizeThatFits(CGSize(width: textWidth, height: 1000))
            label.frame = CGRect(x: 16, y: y, width: textWidth, height: size.height)
            y += size.height + 4
        }
        if y > 0 { y += sheet ? 10 : 16 }
        if let fields = controller?.fields, !fields.isEmpty, !sheet {
            if y == 0 { y = 16 }
            for field in fields {
                field.frame = CGRect(x: 16, y: y, width: textWidth, height: AlertTextField.height)
                y += AlertTextField.height - 0.5  // neighbouring fields share a border line
            }
            y += 16.5
        }
        let rowHeight: CGFloat = sheet ? 57 : 44
        let inBox = buttons.filter { $0.superview === box }
        if !sheet, inBox.count == 2 {
            separator(in: box, CGRect(x: 0, y: y, width: width, height: 0.5))
            inBox[0].frame = CGRect(x: 0, y: y, width: width / 2, height: rowHeight)
            inBox[1].frame = CGRect(x: width / 2, y: y, width: width / 2, height: rowHeight)
            separator(in: box, CGRect(x: width / 2, y: y, width: 0.5, height: rowHeight))
            y += rowHeight
        } else {
            for (i, button) in inBox.enumerated() {
                if y > 0 || i > 0 { separator(in: box, CGRect(x: 0, y: y, width: width, height: 0.5)) }
                button.frame = CGRect(x: 0, y: y, width: width, height: rowHeight)
                y += rowHeight
            }
        }
        let boxHeight = y
        let cancelButtons = buttons.filter { $0.superview === cancelBox }
        if sheet {
            let cancelHeight: CGFloat = cancelButtons.isEmpty ? 0 : rowHeight
            for b in cancelButtons { b.frame = CGRect(x: 0, y: 0, width: width, height: rowHeight) }
            let bottom = bounds.height - safeAreaInsets.bottom - 8
            cancelBox.frame = CGRect(
                x: (bounds.width - width) / 2, y: bottom - cancelHeight, width: width, height: cancelHeight)
            let boxBottom = cancelHeight > 0 ? cancelBox.frame.minY - 8 : bottom
            box.frame = CGRect(x: (bounds.width - width) / 2, y: boxBottom - boxHeight, width: width, height: boxHeight)
        } else {
            box.frame = CGRect(
                x: ((bounds.width - width) / 2).rounded(), y: ((bounds.height - boxHeight) / 2).rounded(),
                width: width, height: boxHeight)
        }
        box.isHidden = boxHeight == 0
    }

    /// Touches outside the box: an action sheet's cancel action.
    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isSheet, let controller, let touch = touches.first else { return }
        let p = touch.location(in: self)
        guard !box.frame.contains(p), !cancelBox.frame.contains(p),
            let cancel = controller.actions.first(where: { $0.style == .cancel })
        else { return }
        controller.tap(cancel)
    }
}

/// A text field of an alert: 13-point text in a 26-point box with a hairline border, on the system background.
@MainActor final class AlertTextField: UITextField {
    /// The field's height, points.
    static let height: CGFloat = 26

    override init(frame: CGRect) {
        super.init(frame: frame)
        font = .systemFont(ofSize: 13)
        backgroundColor = .systemBackground
        layer.borderWidth = 0.5
        updateBorder()
    }

    required init?(coder: NSCoder) { nil }

    private func updateBorder() {
        layer.borderColor = UIColor.separator.resolvedColor(with: traitCollection).cgColor
    }

    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        updateBorder()
    }

    /// The text 5 points in from the edges (and clear of the overlay views).
    override func textRect(forBounds bounds: CGRect) -> CGRect {
        super.textRect(forBounds: bounds.insetBy(dx: 5, dy: 0))
    }
}

/// One action's button in an alert.
@MainActor final class AlertButton: UIView, UITouchResponder {
    let action: UIAlertAction
    var onTap: (() -> Void)?
    private let label = UILabel()
    /// Whether the title is semibold.
    var isBold: Bool { label.font.weight.rawValue >= UIFont.Weight.semibold.rawValue }
    private var highlighted = false {
        didSet { backgroundColor = highlighted ? UIColor.systemFill : nil }
    }

    init(action: UIAlertAction, bold: Bool) {
        self.action = action
        super.init(frame: .zero)
        isOpaque = false
        label.text = action.title
        label.textAlignment = .center
        label.font = .systemFont(ofSize: 17, weight: bold ? .semibold : .regular)
        let color: UIColor = action.style == .destructive ? .systemRed : tintColor
        label.textColor = action.isEnabled ? color : UIColor.systemGray
        addSubview(label)
    }

    required init?(coder: NSCoder) { nil }

    override func tintColorDidChange() {
        if action.isEnabled, action.style != .destructive { label.textColor = tintColor }
    }

    override func layoutSubviews() { label.frame = bounds.insetBy(dx: 8, dy: 0) }

    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        highlighted = action.isEnabled
    }

    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard action.isEnabled, let touch = touches.first else { return }
        highlighted = bounds.contains(touch.location(in: self))
    }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        let wasHighlighted = highlighted
        highlighted = false
        guard wasHighlighted, let touch = touches.first, bounds.contains(touch.location(in: self)) else { return }
        onTap?()
    }

    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { highlighted = false }
}

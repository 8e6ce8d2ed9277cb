import Foundation

/// What a text field's delegate is asked and told, as UIKit's `UITextFieldDelegate`. Every method has a default:
/// the `should` methods return true, the others do nothing.
@preconcurrency @MainActor public protocol UITextFieldDelegate: AnyObject {
    /// Whether the field may begin editing (become first responder).
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    /// The field became first responder.
    func textFieldDidBeginEditing(_ textField: UITextField)
    /// Whether the field may end editing (resign first responder).
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    /// The field resigned first responder.
    func textFieldDidEndEditing(_ textField: UITextField)
    /// The field resigned first responder, and why; the default calls ``textFieldDidEndEditing(_:)``.
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason)
    /// Whether typing may replace the UTF-16 `range` of the text with `string` (`""` for a deletion).
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String)
        -> Bool
    /// Whether the clear button may empty the field.
    func textFieldShouldClear(_ textField: UITextField) -> Bool
    /// The return key was pressed; return whether the field should process it (send its primary action).
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
    /// The insertion point or the text changed.
    func textFieldDidChangeSelection(_ textField: UITextField)
}

extension UITextFieldDelegate {
    /// Returns true.
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    /// Does nothing.
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    /// Returns true.
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    /// Does nothing.
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    /// Calls ``textFieldDidEndEditing(_:)``.
    public func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) {
        textFieldDidEndEditing(textField)
    }
    /// Returns true.
    public func textField(
        _ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String
    ) -> Bool { true }
    /// Returns true.
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
    /// Returns true.
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
    /// Does nothing.
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
}

/// A single line of editable text, as UIKit's `UITextField`.
///
/// A tap makes the field the first responder (``becomeFirstResponder()``), after which the window's typed text
/// goes into it (SDL text input in a window; `UIHeadlessHost.type(_:)` headless). Typing asks the delegate's
/// `textField(_:shouldChangeCharactersIn:replacementString:)`, changes ``text``, sends `.editingChanged` and posts
/// ``textDidChangeNotification``; setting ``text`` in code sends nothing. The return key asks
/// `textFieldShouldReturn(_:)`; when it agrees, `.primaryActionTriggered` is sent, and `.editingDidEndOnExit` too
/// when an action is registered for it (the field then resigns). Editing always happens at the end of the text:
/// Linux has no caret movement or selection.
///
/// Drawn: the border of ``borderStyle``, the text (or the grey ``placeholder``) vertically centred after a
/// 7-point inset, a caret after the text while editing, the clear button by ``clearButtonMode``, and
/// ``leftView``/``rightView`` by their modes.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UITextField: UIControl, UIKeyInput {
    /// The placeholder's colour: iOS's `placeholderText` (light `#3C3C43`, dark `#EBEBF5`, both at 30 %).
    static let placeholderColor = UIColor.placeholderText
    /// A rounded-rect field's fill: white light, `#1C1C1E` dark.
    static let fieldBackground = UIColor.control(
        light: .white, dark: UIColor(red: 28 / 255, green: 28 / 255, blue: 30 / 255, alpha: 1))
    /// A disabled rounded-rect field's fill: `#F5F5F5` light, `#2C2C2E` dark.
    static let disabledFieldBackground = UIColor.control(
        white: 0.96, dark: UIColor(red: 44 / 255, green: 44 / 255, blue: 46 / 255, alpha: 1))

    /// The field's border, as UIKit's `UITextField.BorderStyle`.
    public enum BorderStyle: Int, Sendable {
        /// No border.
        case none = 0
        /// A thin black rectangle.
        case line
        /// A grey bezel.
        case bezel
        /// A rounded white rectangle with a light grey edge.
        case roundedRect
    }

    /// When an overlay view (clear button, left or right view) shows, as UIKit's `UITextField.ViewMode`.
    public enum ViewMode: Int, Sendable {
        /// Never.
        case never = 0
        /// While the field is editing.
        case whileEditing
        /// While the field is not editing.
        case unlessEditing
        /// Always.
        case always
    }

    /// Why editing ended, as UIKit's `UITextField.DidEndEditingReason`.
    public enum DidEndEditingReason: Int, Sendable {
        /// The field resigned first responder.
        case committed = 0
    }

    /// Posted (object: the field) after typing changed the text.
    public static let textDidChangeNotification = Notification.Name("UITextFieldTextDidChangeNotification")
    /// Posted (object: the field) when the field became first responder.
    public static let textDidBeginEditingNotification = Notification.Name(
        "UITextFieldTextDidBeginEditingNotification")
    /// Posted (object: the field) when the field resigned first responder.
    public static let textDidEndEditingNotification = Notification.Name("UITextFieldTextDidEndEditingNotification")

    private var storage = ""

    /// The text; never nil when read (setting nil empties it). Defaults to "". Setting it sends no event.
    open var text: String? {
        get { storage }
        set {
            storage = newValue ?? ""
            setNeedsDisplay()
        }
    }
    /// Grey text shown while the field is empty. Defaults to nil.
    open var placeholder: String? {
        didSet { setNeedsDisplay() }
    }
    /// The text's font. Defaults to the 17 pt system font; setting nil restores it.
    open var font: UIFont? = .systemFont(ofSize: 17) {
        didSet {
            if font == nil { font = .systemFont(ofSize: 17) }
            setNeedsDisplay()
        }
    }
    /// The text's colour. Defaults to `.label` (black in light mode, white in dark mode); setting nil restores it.
    open var textColor: UIColor? = .label {
        didSet {
            if textColor == nil { textColor = .label }
            setNeedsDisplay()
        }
    }
    /// Horizontal alignment of the text. Defaults to `.natural` (left).
    open var textAlignment: NSTextAlignment = .natural {
        didSet { setNeedsDisplay() }
    }
    /// The border. Defaults to `.none`.
    open var borderStyle: BorderStyle = .none {
        didSet { setNeedsDisplay() }
    }
    /// When the clear button shows (only while the field has text). Defaults to `.never`.
    open var clearButtonMode: ViewMode = .never {
        didSet { setNeedsLayout() }
    }
    /// A view at the left edge (a search icon). Defaults to nil.
    open var leftView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            leftView.map(addSubview)
            setNeedsLayout()
        }
    }
    /// When ``leftView`` shows. Defaults to `.never`.
    open var leftViewMode: ViewMode = .never {
        didSet { setNeedsLayout() }
    }
    /// A view at the right edge. Defaults to nil.
    open var rightView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            rightView.map(addSubview)
            setNeedsLayout()
        }
    }
    /// When ``rightView`` shows. Defaults to `.never`.
    open var rightViewMode: ViewMode = .never {
        didSet { setNeedsLayout() }
    }
    /// Whether beginning to edit empties the field. Defaults to false.
    open var clearsOnBeginEditing = false
    /// Whether the text is drawn as bullets. Defaults to false.
    open var isSecureTextEntry = false {
        didSet { setNeedsDisplay() }
    }
    /// The keyboard kind; stored only (Linux has no on-screen keyboard). Defaults to `.default`.
    open var keyboardType: UIKeyboardType = .default
    /// The return key kind; stored only. Defaults to `.default`.
    open var returnKeyType: UIReturnKeyType = .default
    /// Automatic capitalisation; stored only. Defaults to `.sentences`.
    open var autocapitalizationType: UITextAutocapitalizationType = .sentences
    /// Automatic correction; stored only. Defaults to `.default`.
    open var autocorrectionType: UITextAutocorrectionType = .default
    /// The content kind; stored only. Defaults to nil.
    open var textContentType: UITextContentType?
    /// The delegate, held weakly. Defaults to nil.
    open weak var delegate: (any UITextFieldDelegate)?

    /// Whether the field is the first responder.
    public private(set) var isEditing = false

    /// Creates an empty field with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    /// Creates an empty field (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isOpaque = false
    }

    // MARK: First responder

    /// Whether the field takes keyboard input now.
    open var isFirstResponder: Bool { KeyboardFocus.current === self }
    /// Whether the field can become first responder: when enabled.
    open var canBecomeFirstResponder: Bool { isEnabled }
    /// Whether the field lets go of first responder: what the delegate's `textFieldShouldEndEditing(_:)` says.
    open var canResignFirstResponder: Bool { delegate?.textFieldShouldEndEditing(self) ?? true }

    /// Starts editing: asks the delegate, makes the current first responder resign (false when it refuses), then
    /// `textFieldDidBeginEditing(_:)` and `.editingDidBegin`.
    /// - Returns: whether the field is the first responder afterwards.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard canBecomeFirstResponder, delegate?.textFieldShouldBeginEditing(self) ?? true else { return false }
        if let other = KeyboardFocus.current, !other.endEditing(false) { return false }
        KeyboardFocus.current = self
        isEditing = true
        if clearsOnBeginEditing { storage = "" }
        setNeedsLayout()
        setNeedsDisplay()
        delegate?.textFieldDidBeginEditing(self)
        sendActions(for: .editingDidBegin)
        NotificationCenter.default.post(name: Self.textDidBeginEditingNotification, object: self)
        return true
    }

    /// Ends editing when the delegate agrees: `textFieldDidEndEditing(_:reason:)` and `.editingDidEnd`.
    /// - Returns: whether the field is no longer the first responder.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return true }
        guard canResignFirstResponder else { return false }
        finishEditing()
        return true
    }

    /// Ends editing without asking the delegate.
    func finishEditing() {
        guard isFirstResponder else { return }
        KeyboardFocus.current = nil
        isEditing = false
        setNeedsLayout()
        setNeedsDisplay()
        delegate?.textFieldDidEndEditing(self, reason: .committed)
        sendActions(for: .editingDidEnd)
        NotificationCenter.default.post(name: Self.textDidEndEditingNotification, object: self)
    }

    // MARK: Typing

    /// Whether the field holds text.
    open var hasText: Bool { !storage.isEmpty }

    /// Typed text: `"\n"` is the return key (see the type); other text is appended when the delegate allows.
    open func insertText(_ text: String) {
        if text == "\n" || text == "\r" {
            guard delegate?.textFieldShouldReturn(self) ?? true else { return }
            sendActions(for: .primaryActionTriggered)
            if allControlEvents.contains(.editingDidEndOnExit) {
                sendActions(for: .editingDidEndOnExit)
                resignFirstResponder()
            }
            return
        }
        let clean = text.filter { $0 != "\n" && $0 != "\r" }
        guard !clean.isEmpty else { return }
        replace(NSRange(location: storage.utf16.count, length: 0), with: clean)
    }

    /// Deletes the last character when the delegate allows.
    open func deleteBackward() {
        guard let last = storage.last else { return }
        let length = String(last).utf16.count
        replace(NSRange(location: storage.utf16.count - length, length: length), with: "")
    }

    private func replace(_ range: NSRange, with string: String) {
        guard delegate?.textField(self, shouldChangeCharactersIn: range, replacementString: string) ?? true else {
            return
        }
        storage = (storage as NSString).replacingCharacters(in: range, with: string)
        setNeedsDisplay()
        delegate?.textFieldDidChangeSelection(self)
        sendActions(for: .editingChanged)
        NotificationCenter.default.post(name: Self.textDidChangeNotification, object: self)
    }

    // MARK: Layout

    private func shows(_ mode: ViewMode) -> Bool {
        switch mode {
        case .never: false
        case .always: true
        case .whileEditing: isEditing
        case .unlessEditing: !isEditing
        }
    }

    private var showsClearButton: Bool { hasText && shows(clearButtonMode) }

    /// The clear button's frame in bounds coordinates (19 points, 7 from the right edge).
    open func clearButtonRect(forBounds bounds: CGRect) -> CGRect {
        let right = rightView != nil && shows(rightViewMode) ? rightViewRect(forBounds: bounds).minX : bounds.maxX
        return CGRect(x: right - 7 - 19, y: bounds.midY - 9.5, width: 19, height: 19)
    }

    /// The left view's frame: its own size at the left edge, vertically centred.
    open func leftViewRect(forBounds bounds: CGRect) -> CGRect {
        let s = leftView?.frame.size ?? .zero
        return CGRect(x: bounds.minX, y: bounds.midY - s.height / 2, width: s.width, height: s.height)
    }

    /// The right view's frame: its own size at the right edge, vertically centred.
    open func rightViewRect(forBounds bounds: CGRect) -> CGRect {
        let s = rightView?.frame.size ?? .zero
        return CGRect(x: bounds.maxX - s.width, y: bounds.midY - s.height / 2, width: s.width, height: s.height)
    }

    /// The area the text is drawn in: the bounds less the border inset and the overlay views.
    open func textRect(forBounds bounds: CGRect) -> CGRect {
        let inset: CGFloat = borderStyle == .none ? 0 : 7
        var left = bounds.minX + inset
        var right = bounds.maxX - inset
        if leftView != nil, shows(leftViewMode) { left = max(left, leftViewRect(forBounds: bounds).maxX + 4) }
        if rightView != nil, shows(rightViewMode) { right = min(right, rightViewRect(forBounds: bounds).minX - 4) }
        if showsClearButton { right = min(right, clearButtonRect(forBounds: bounds).minX - 4) }
        return CGRect(x: left, y: bounds.minY, width: max(0, right - left), height: bounds.height)
    }

    /// The area editing text is drawn in: the same as ``textRect(forBounds:)``.
    open func editingRect(forBounds bounds: CGRect) -> CGRect { textRect(forBounds: bounds) }

    /// The area the placeholder is drawn in: the same as ``textRect(forBounds:)``.
    open func placeholderRect(forBounds bounds: CGRect) -> CGRect { textRect(forBounds: bounds) }

    /// Places and shows the overlay views.
    open override func layoutSubviews() {
        if let leftView {
            leftView.isHidden = !shows(leftViewMode)
            leftView.frame = leftViewRect(forBounds: bounds)
        }
        if let rightView {
            rightView.isHidden = !shows(rightViewMode)
            rightView.frame = rightViewRect(forBounds: bounds)
        }
    }

    /// The text's (or placeholder's) one-line size plus the border insets; a rounded field is at least 34 points
    /// high for 17-point text.
    open override var intrinsicContentSize: CGSize {
        let font = self.font ?? .systemFont(ofSize: 17)
        let sample = storage.isEmpty ? (placeholder ?? "") : shownText
        let w = sample.size(withAttributes: [.font: font]).width
        let inset: CGFloat = borderStyle == .none ? 0 : 7
        let pad: CGFloat = borderStyle == .roundedRect ? 7 : (borderStyle == .none ? 0 : 4)
        return CGSize(width: (w + 2 * inset).rounded(.up), height: (font.lineHeight + 2 * pad).rounded(.up))
    }

    /// The ``intrinsicContentSize`` whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    private var shownText: String { isSecureTextEntry ? String(repeating: "•", count: storage.count) : storage }

    // MARK: Touches and drawing

    override func touchUpInsideDidFire(_ touch: UITouch) {
        let p = touch.location(in: self)
        if showsClearButton, clearButtonRect(forBounds: bounds).insetBy(dx: -6, dy: -6).contains(p) {
            guard delegate?.textFieldShouldClear(self) ?? true else { return }
            storage = ""
            setNeedsDisplay()
            sendActions(for: .editingChanged)
            NotificationCenter.default.post(name: Self.textDidChangeNotification, object: self)
            if !isEditing { becomeFirstResponder() }
            return
        }
        becomeFirstResponder()
    }

    /// Draws the border, the text or placeholder, the caret while editing, and the clear button.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        switch borderStyle {
        case .none: break
        case .line:
            UIColor.label.setStroke()
            let path = UIBezierPath(rect: b.insetBy(dx: 0.5, dy: 0.5))
            path.stroke()
        case .bezel:
            UIColor(white: 0.6, alpha: 1).setStroke()
            let path = UIBezierPath(rect: b.insetBy(dx: 0.5, dy: 0.5))
            path.stroke()
        case .roundedRect:
            (isEnabled ? Self.fieldBackground : Self.disabledFieldBackground).setFill()
            UIBezierPath(roundedRect: b, cornerRadius: 5).fill()
            UIColor.control(white: 0.8, dark: .darkSeparator).setStroke()
            let edge = UIBezierPath(roundedRect: b.insetBy(dx: 0.5, dy: 0.5), cornerRadius: 5)
            edge.lineWidth = 1
            edge.stroke()
        }
        let area = textRect(forBounds: b)
        let font = self.font ?? .systemFont(ofSize: 17)
        let showsPlaceholder = storage.isEmpty
        let string = showsPlaceholder ? (placeholder ?? "") : shownText
        let color = showsPlaceholder ? Self.placeholderColor : (textColor ?? .label)
        let attrs: [NSAttributedString.Key: Any] = [
            .font: font, .foregroundColor: isEnabled ? color : color.withAlphaComponent(0.5),
        ]
        let size = string.size(withAttributes: attrs)
        var x = area.minX
        switch textAlignment {
        case .center: x = area.midX - size.width / 2
        case .right: x = area.maxX - size.width
        default: break
        }
        let textWidth = showsPlaceholder ? 0 : size.width
        if isEditing && x + textWidth + 2 > area.maxX { x = area.maxX - 2 - textWidth }  // keep the end in view
        let y = b.midY - font.lineHeight / 2
        context.saveGState()
        context.clip(to: area.insetBy(dx: 0, dy: -2))
        if !string.isEmpty { string.draw(at: CGPoint(x: x, y: y), withAttributes: attrs) }
        if isEditing {
            tintColor.setFill()
            UIRectFill(CGRect(x: (x + textWidth).rounded(), y: y, width: 2, height: font.lineHeight))
        }
        context.restoreGState()
        if showsClearButton {
            let r = clearButtonRect(forBounds: b)
            UIColor(white: 0.75, alpha: 1).setFill()
            UIBezierPath(ovalIn: r).fill()
            UIColor.white.setStroke()
            let cross = UIBezierPath()
            cross.lineWidth = 1.5
            cross.move(to: CGPoint(x: r.midX - 3.5, y: r.midY - 3.5))
            cross.addLine(to: CGPoint(x: r.midX + 3.5, y: r.midY + 3.5))
            cross.move(to: CGPoint(x: r.midX + 3.5, y: r.midY - 3.5))
            cross.addLine(to: CGPoint(x: r.midX - 3.5, y: r.midY + 3.5))
            cross.stroke()
        }
    }
}

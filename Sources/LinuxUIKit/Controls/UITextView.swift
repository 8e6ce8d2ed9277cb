import Foundation

/// What a text view tells its delegate, as UIKit's `UITextViewDelegate`. Every method has a default: `should`
/// methods return true, the others do nothing.
@preconcurrency @MainActor public protocol UITextViewDelegate: UIScrollViewDelegate {
    /// Whether the view may begin editing.
    func textViewShouldBeginEditing(_ textView: UITextView) -> Bool
    /// The view became first responder.
    func textViewDidBeginEditing(_ textView: UITextView)
    /// Whether the view may end editing.
    func textViewShouldEndEditing(_ textView: UITextView) -> Bool
    /// The view resigned first responder.
    func textViewDidEndEditing(_ textView: UITextView)
    /// Whether typing may replace the UTF-16 `range` of the text with `text` (`""` for a deletion).
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
    /// Typing changed the text.
    func textViewDidChange(_ textView: UITextView)
}

extension UITextViewDelegate {
    /// Returns true.
    public func textViewShouldBeginEditing(_ textView: UITextView) -> Bool { true }
    /// Does nothing.
    public func textViewDidBeginEditing(_ textView: UITextView) {}
    /// Returns true.
    public func textViewShouldEndEditing(_ textView: UITextView) -> Bool { true }
    /// Does nothing.
    public func textViewDidEndEditing(_ textView: UITextView) {}
    /// Returns true.
    public func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String)
        -> Bool
    { true }
    /// Does nothing.
    public func textViewDidChange(_ textView: UITextView) {}
}

/// Scrollable, multi-line text that can be edited, as UIKit's `UITextView` (a ``UIScrollView``).
///
/// The text wraps to the width less ``textContainerInset`` (8 points above and below, 5 at the sides); its height
/// sets ``UIScrollView/contentSize``, so long text scrolls by dragging. A tap on an editable view makes it the first
/// responder; typed text is appended (the return key inserts a new line) after the delegate's
/// `textView(_:shouldChangeTextIn:replacementText:)`, then `textViewDidChange(_:)` and
/// ``textDidChangeNotification``. Setting ``text`` in code tells no one. The delegate is the scroll view's
/// ``UIScrollView/delegate`` when it is a ``UITextViewDelegate``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UITextView: UIScrollView, UIKeyInput {
    /// Posted (object: the view) after typing changed the text.
    public static let textDidChangeNotification = Notification.Name("UITextViewTextDidChangeNotification")

    /// The text. Defaults to "". Setting nil empties it.
    open var text: String! = "" {
        didSet {
            if text == nil { text = "" }
            textChanged()
        }
    }
    /// The text's font. Defaults to the 12 pt system font, as UIKit's; setting nil restores it.
    open var font: UIFont? = .systemFont(ofSize: 12) {
        didSet {
            if font == nil { font = .systemFont(ofSize: 12) }
            textChanged()
        }
    }
    /// The text colour. Defaults to black; setting nil restores it.
    open var textColor: UIColor? = .black {
        didSet {
            if textColor == nil { textColor = .black }
            setNeedsDisplay()
        }
    }
    /// Horizontal alignment. Defaults to `.natural` (left).
    open var textAlignment: NSTextAlignment = .natural {
        didSet { setNeedsDisplay() }
    }
    /// Whether a tap starts editing. Defaults to true.
    open var isEditable = true {
        didSet { if !isEditable { resignFirstResponder() } }
    }
    /// Stored only (no selection on Linux). Defaults to true.
    open var isSelectable = true
    /// Space between the bounds and the text, points. Defaults to 8 above and below, 0 at the sides (plus 5 points
    /// of line padding).
    open var textContainerInset = UIEdgeInsets(top: 8, left: 0, bottom: 8, right: 0) {
        didSet { textChanged() }
    }
    /// The keyboard kind; stored only. Defaults to `.default`.
    open var keyboardType: UIKeyboardType = .default
    /// The return key kind; stored only. Defaults to `.default`.
    open var returnKeyType: UIReturnKeyType = .default

    private var textDelegate: (any UITextViewDelegate)? { delegate as? any UITextViewDelegate }

    /// Creates an empty text view with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .white
    }

    /// Creates an empty text view (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        backgroundColor = .white
    }

    private var textArea: CGRect {
        let i = textContainerInset
        return CGRect(
            x: i.left + 5, y: i.top, width: max(0, bounds.width - i.left - i.right - 10),
            height: max(0, bounds.height - i.top - i.bottom))
    }

    private var attributes: [NSAttributedString.Key: Any] {
        let style = NSMutableParagraphStyle()
        style.alignment = textAlignment
        return [
            .font: font ?? .systemFont(ofSize: 12), .foregroundColor: textColor ?? .black, .paragraphStyle: style,
        ]
    }

    private func textHeight(width: CGFloat) -> CGFloat {
        guard let text, !text.isEmpty else { return 0 }
        let request = NSAttributedString(string: text, attributes: attributes).drawingRequest(
            width: width, height: nil)
        return TextLayout.layout(request, canvas: nil).size.height
    }

    private func textChanged() {
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// Sets ``UIScrollView/contentSize`` to the wrapped text's height plus the insets.
    open override func layoutSubviews() {
        let i = textContainerInset
        contentSize = CGSize(width: bounds.width, height: textHeight(width: textArea.width) + i.top + i.bottom)
    }

    /// The size of the wrapped text within `size`'s width plus the insets.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let i = textContainerInset
        let width = size.width > 0 && size.width.isFinite ? size.width : bounds.width
        return CGSize(width: width, height: textHeight(width: max(0, width - i.left - i.right - 10)) + i.top + i.bottom)
    }

    // MARK: Editing

    /// Whether the view takes keyboard input now.
    open var isFirstResponder: Bool { KeyboardFocus.current === self }

    /// Starts editing an editable view when the delegate agrees (`textViewDidBeginEditing(_:)`).
    /// - Returns: whether the view is the first responder afterwards.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard isEditable, textDelegate?.textViewShouldBeginEditing(self) ?? true else { return false }
        if let other = KeyboardFocus.current, !other.endEditing(false) { return false }
        KeyboardFocus.current = self
        setNeedsDisplay()
        textDelegate?.textViewDidBeginEditing(self)
        return true
    }

    /// Ends editing when the delegate agrees (`textViewDidEndEditing(_:)`).
    /// - Returns: whether the view is no longer the first responder.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return true }
        guard textDelegate?.textViewShouldEndEditing(self) ?? true else { return false }
        finishEditing()
        return true
    }

    func finishEditing() {
        guard isFirstResponder else { return }
        KeyboardFocus.current = nil
        setNeedsDisplay()
        textDelegate?.textViewDidEndEditing(self)
    }

    /// Whether the view holds text.
    open var hasText: Bool { !(text ?? "").isEmpty }

    /// Appends typed text (`"\r"` becomes a new line) when the delegate allows.
    open func insertText(_ text: String) {
        let typed = text.replacingOccurrences(of: "\r", with: "\n")
        replace(NSRange(location: (self.text ?? "").utf16.count, length: 0), with: typed)
    }

    /// Deletes the last character when the delegate allows.
    open func deleteBackward() {
        guard let last = text?.last else { return }
        let length = String(last).utf16.count
        replace(NSRange(location: text.utf16.count - length, length: length), with: "")
    }

    private func replace(_ range: NSRange, with string: String) {
        guard textDelegate?.textView(self, shouldChangeTextIn: range, replacementText: string) ?? true else { return }
        text = ((text ?? "") as NSString).replacingCharacters(in: range, with: string)
        layoutIfNeeded()
        scrollRectToVisible(CGRect(x: 0, y: contentSize.height - 1, width: 1, height: 1), animated: false)
        textDelegate?.textViewDidChange(self)
        NotificationCenter.default.post(name: Self.textDidChangeNotification, object: self)
    }

    override func contentTapped(at point: CGPoint) {
        if isEditable { becomeFirstResponder() }
    }

    /// Draws the wrapped text, and a caret line under it while editing.
    open override func draw(_ rect: CGRect) {
        let area = textArea
        let height = textHeight(width: area.width)
        if let text, !text.isEmpty {
            NSAttributedString(string: text, attributes: attributes).draw(
                in: CGRect(x: area.minX, y: area.minY, width: area.width, height: max(height, area.height) + 1))
        }
        if isFirstResponder {
            let lineHeight = (font ?? .systemFont(ofSize: 12)).lineHeight
            let endsWithNewLine = text?.last == "\n"
            let lastLine = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init)
            let lastWidth = endsWithNewLine ? 0 : (lastLine ?? "").size(withAttributes: attributes).width
            let y = area.minY + max(0, height - (endsWithNewLine ? 0 : lineHeight))
            tintColor.setFill()
            UIRectFill(CGRect(x: area.minX + min(lastWidth, area.width), y: y, width: 2, height: lineHeight))
        }
    }
}

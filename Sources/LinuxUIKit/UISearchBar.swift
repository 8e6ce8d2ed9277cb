import Foundation

/// Told about a search bar's editing and buttons, as UIKit's `UISearchBarDelegate`. Every method is optional.
/// - Thread rules: main actor only; called on the main actor.
@preconcurrency @MainActor public protocol UISearchBarDelegate: AnyObject {
    /// Asked before editing starts (a tap on the field); return false to refuse. Default: true.
    func searchBarShouldBeginEditing(_ searchBar: UISearchBar) -> Bool
    /// Editing started.
    func searchBarTextDidBeginEditing(_ searchBar: UISearchBar)
    /// Asked before editing ends; return false to keep editing. Default: true.
    func searchBarShouldEndEditing(_ searchBar: UISearchBar) -> Bool
    /// Editing ended.
    func searchBarTextDidEndEditing(_ searchBar: UISearchBar)
    /// The text changed by typing, deleting or the clear button (not by setting ``UISearchBar/text``).
    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String)
    /// Asked before typed `text` replaces `range` (UTF-16) of the text; return false to refuse. Default: true.
    func searchBar(_ searchBar: UISearchBar, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
    /// The return (search) key was pressed.
    func searchBarSearchButtonClicked(_ searchBar: UISearchBar)
    /// The Cancel button was tapped.
    func searchBarCancelButtonClicked(_ searchBar: UISearchBar)
}

extension UISearchBarDelegate {
    /// Returns true.
    public func searchBarShouldBeginEditing(_ searchBar: UISearchBar) -> Bool { true }
    /// Does nothing.
    public func searchBarTextDidBeginEditing(_ searchBar: UISearchBar) {}
    /// Returns true.
    public func searchBarShouldEndEditing(_ searchBar: UISearchBar) -> Bool { true }
    /// Does nothing.
    public func searchBarTextDidEndEditing(_ searchBar: UISearchBar) {}
    /// Does nothing.
    public func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) {}
    /// Returns true.
    public func searchBar(_ searchBar: UISearchBar, shouldChangeTextIn range: NSRange, replacementText text: String)
        -> Bool
    { true }
    /// Does nothing.
    public func searchBarSearchButtonClicked(_ searchBar: UISearchBar) {}
    /// Does nothing.
    public func searchBarCancelButtonClicked(_ searchBar: UISearchBar) {}
}

/// The text field inside a search bar, as UIKit's `UISearchTextField`: a `UITextField` drawn as iOS's rounded grey
/// search field (`tertiarySystemFill`, corner radius 10) with a magnifying glass on the left and the clear button
/// while editing.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISearchTextField: UITextField {
    /// Creates a search field with the given frame (points).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        configureSearchLook()
    }

    /// Creates a search field (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        configureSearchLook()
    }

    private func configureSearchLook() {
        font = .systemFont(ofSize: 17)
        clearButtonMode = .whileEditing
        returnKeyType = .search
        leftView = MagnifierView(frame: CGRect(x: 0, y: 0, width: 28, height: 22))
        leftViewMode = .always
    }

    /// The magnifier 6 points in from the left edge.
    open override func leftViewRect(forBounds bounds: CGRect) -> CGRect {
        super.leftViewRect(forBounds: bounds).offsetBy(dx: 6, dy: 0)
    }

    /// Draws the rounded grey fill, then the text, placeholder, caret and clear button as a text field.
    open override func draw(_ rect: CGRect) {
        UIColor.tertiarySystemFill.setFill()
        UIBezierPath(roundedRect: bounds, cornerRadius: 10).fill()
        super.draw(rect)
    }
}

/// The magnifying glass of a search field, in `secondaryLabel`.
@MainActor final class MagnifierView: UIView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        isUserInteractionEnabled = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        UIColor.secondaryLabel.setStroke()
        let c = CGPoint(x: bounds.midX - 1.5, y: bounds.midY - 1.5)
        let ring = UIBezierPath(ovalIn: CGRect(x: c.x - 6, y: c.y - 6, width: 12, height: 12))
        ring.lineWidth = 2
        ring.stroke()
        let handle = UIBezierPath()
        handle.lineWidth = 2.2
        handle.move(to: CGPoint(x: c.x + 4.5, y: c.y + 4.5))
        handle.addLine(to: CGPoint(x: c.x + 9, y: c.y + 9))
        handle.stroke()
    }
}

/// A bar with a search field and an optional Cancel button, as UIKit's `UISearchBar`.
///
/// Layout: the field (``searchTextField``, 36 points tall) spans the bar 8 points in from each side, vertically
/// centred; when ``showsCancelButton`` is true a "Cancel" button in the tint colour sits at the right and the field
/// ends 8 points before it. The bar's natural height is 56 points (52 under a navigation bar). Typing into the field
/// (a tap, then the window's keys or the headless host's `type(_:)`) changes ``text`` and calls the ``delegate``'s
/// `searchBar(_:textDidChange:)`; the return key calls `searchBarSearchButtonClicked(_:)`; Cancel calls
/// `searchBarCancelButtonClicked(_:)`. A bar owned by a ``UISearchController`` also drives it (activation, results
/// updates, Cancel ends the search).
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISearchBar: UIView {
    /// The look of the bar's background, as UIKit's `UISearchBar.Style`.
    public enum Style: UInt, Sendable {
        /// `.prominent`.
        case `default` = 0
        /// The bar colour behind the field.
        case prominent = 1
        /// No background behind the field.
        case minimal = 2
    }

    /// The bar's natural height, points: 56.
    public static let standardHeight: CGFloat = 56
    /// The bar's height under a navigation bar, points: 52.
    static let navigationHeight: CGFloat = 52

    /// The field the text is typed into.
    public let searchTextField = UISearchTextField(frame: .zero)
    /// Told about editing and the buttons; held weakly. Defaults to nil.
    open weak var delegate: (any UISearchBarDelegate)?
    /// The background look. Defaults to `.default`.
    open var searchBarStyle: Style = .default { didSet { setNeedsDisplay() } }
    /// The background colour behind the field; nil uses the navigation bar colour. Defaults to nil.
    open var barTintColor: UIColor? { didSet { setNeedsDisplay() } }
    /// Whether the Cancel button shows. Defaults to false (a search controller shows it while active).
    open var showsCancelButton = false {
        didSet {
            cancelButton.isHidden = !showsCancelButton
            setNeedsLayout()
        }
    }

    /// The search controller that owns the bar, if any.
    weak var searchController: UISearchController?
    /// Whether a navigation controller shows the bar under its navigation bar (then it draws no hairline of its
    /// own above, and is 52 points tall).
    var isInNavigationBar = false

    private let cancelButton = UIButton(type: .system)
    private let fieldDelegate = SearchFieldDelegate()

    /// Creates a bar with the given frame (points).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    /// Creates a bar with a zero frame; size it with `sizeToFit()`, a frame or constraints.
    public convenience init() { self.init(frame: .zero) }

    /// Creates a bar (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        isOpaque = false
        fieldDelegate.bar = self
        searchTextField.delegate = fieldDelegate
        searchTextField.addAction(
            UIAction { [weak self] _ in self?.textChangedByTyping() }, for: .editingChanged)
        searchTextField.addAction(
            UIAction { [weak self] _ in self?.editingBegan() }, for: .editingDidBegin)
        searchTextField.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.delegate?.searchBarTextDidEndEditing(self)
            }, for: .editingDidEnd)
        addSubview(searchTextField)
        cancelButton.setTitle("Cancel", for: .normal)
        cancelButton.isHidden = true
        cancelButton.addAction(UIAction { [weak self] _ in self?.cancelTapped() }, for: .touchUpInside)
        addSubview(cancelButton)
    }

    /// The text in the field; nil reads as "". Setting it does not call the delegate. Defaults to "".
    open var text: String? {
        get { searchTextField.text ?? "" }
        set {
            searchTextField.text = newValue
            searchController?.textDidChange()
        }
    }

    /// The grey text shown while the field is empty. Defaults to nil (iOS shows "Search" in a search controller's
    /// bar; Waymark does too).
    open var placeholder: String? {
        get { searchTextField.placeholder }
        set { searchTextField.placeholder = newValue }
    }

    /// Shows or hides the Cancel button; `animated` is accepted for source compatibility (the change is immediate).
    open func setShowsCancelButton(_ showsCancelButton: Bool, animated: Bool) {
        self.showsCancelButton = showsCancelButton
    }

    /// Makes the field the first responder (starts editing), as UIKit's search bar does.
    /// - Returns: whether the field is the first responder afterwards.
    @discardableResult
    open func becomeFirstResponder() -> Bool { searchTextField.becomeFirstResponder() }

    /// Ends editing of the field.
    /// - Returns: whether the field is no longer the first responder.
    @discardableResult
    open func resignFirstResponder() -> Bool { searchTextField.resignFirstResponder() }

    /// Whether the field is the first responder.
    open var isFirstResponder: Bool { searchTextField.isFirstResponder }

    /// The given width and the bar's natural height (56 points).
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: isInNavigationBar ? Self.navigationHeight : Self.standardHeight)
    }

    /// No intrinsic width; 56 points tall.
    open override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: Self.standardHeight)
    }

    /// Places the field and the Cancel button.
    open override func layoutSubviews() {
        let b = bounds
        var right = b.width - 8
        if showsCancelButton {
            let size = cancelButton.sizeThatFits(CGSize(width: b.width / 3, height: 36))
            cancelButton.frame = CGRect(
                x: b.width - 8 - size.width, y: (b.height - 36) / 2, width: size.width, height: 36)
            right = cancelButton.frame.minX - 8
        }
        searchTextField.frame = CGRect(x: 8, y: (b.height - 36) / 2, width: max(0, right - 8), height: 36)
    }

    /// Draws the bar colour (unless `.minimal`).
    open override func draw(_ rect: CGRect) {
        guard searchBarStyle != .minimal else { return }
        (barTintColor ?? (isInNavigationBar ? UINavigationBar.defaultBarColor : .systemBackground)).setFill()
        UIRectFill(bounds)
    }

    // MARK: Events from the field and the button

    func shouldBeginEditing() -> Bool { delegate?.searchBarShouldBeginEditing(self) ?? true }
    func shouldEndEditing() -> Bool { delegate?.searchBarShouldEndEditing(self) ?? true }
    func shouldChange(_ range: NSRange, _ text: String) -> Bool {
        delegate?.searchBar(self, shouldChangeTextIn: range, replacementText: text) ?? true
    }

    private func editingBegan() {
        delegate?.searchBarTextDidBeginEditing(self)
        searchController?.fieldBeganEditing()
    }

    private func textChangedByTyping() {
        delegate?.searchBar(self, textDidChange: text ?? "")
        searchController?.textDidChange()
    }

    func searchButtonPressed() { delegate?.searchBarSearchButtonClicked(self) }

    private func cancelTapped() {
        delegate?.searchBarCancelButtonClicked(self)
        searchController?.cancel()
    }

    /// The Cancel button's frame in the bar (Waymark's own, for tests and hosts); nil while hidden.
    package var cancelButtonFrame: CGRect? { showsCancelButton ? cancelButton.frame : nil }
}

/// Forwards the field's delegate questions to its search bar.
@MainActor final class SearchFieldDelegate: UITextFieldDelegate {
    weak var bar: UISearchBar?

    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { bar?.shouldBeginEditing() ?? true }
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { bar?.shouldEndEditing() ?? true }
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String)
        -> Bool
    { bar?.shouldChange(range, string) ?? true }
    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        bar?.searchButtonPressed()
        return true
    }
}

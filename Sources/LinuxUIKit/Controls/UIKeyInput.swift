import Foundation

/// A view that takes typed text, as UIKit's `UIKeyInput`: the window sends the first responder's typed characters
/// to ``insertText(_:)`` (the return key as `"\n"`) and the backspace key to ``deleteBackward()``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public protocol UIKeyInput: AnyObject {
    /// Whether the view holds any text.
    var hasText: Bool { get }
    /// Inserts typed text at the insertion point (the end of the text on Linux).
    func insertText(_ text: String)
    /// Deletes the character before the insertion point.
    func deleteBackward()
}

/// The keyboard's kind, as UIKit's `UIKeyboardType`. Linux has no on-screen keyboard: stored only.
public enum UIKeyboardType: Int, Sendable {
    /// The default keyboard.
    case `default` = 0
    /// Letters and punctuation.
    case asciiCapable = 1
    /// Digits and punctuation.
    case numbersAndPunctuation = 2
    /// A URL keyboard.
    case URL = 3
    /// A number pad.
    case numberPad = 4
    /// A phone pad.
    case phonePad = 5
    /// A name and phone keyboard.
    case namePhonePad = 6
    /// An e-mail keyboard.
    case emailAddress = 7
    /// A number pad with a decimal point.
    case decimalPad = 8
    /// A Twitter keyboard.
    case twitter = 9
    /// A web search keyboard.
    case webSearch = 10
    /// A number pad with ASCII digits.
    case asciiCapableNumberPad = 11
}

/// The return key's title, as UIKit's `UIReturnKeyType`. Stored only on Linux.
public enum UIReturnKeyType: Int, Sendable {
    /// "return".
    case `default` = 0
    /// "Go".
    case go
    /// "Google".
    case google
    /// "Join".
    case join
    /// "Next".
    case next
    /// "Route".
    case route
    /// "Search".
    case search
    /// "Send".
    case send
    /// "Yahoo".
    case yahoo
    /// "Done".
    case done
    /// "Emergency Call".
    case emergencyCall
    /// "Continue".
    case `continue`
}

/// Automatic capitalisation, as UIKit's `UITextAutocapitalizationType`. Stored only on Linux.
public enum UITextAutocapitalizationType: Int, Sendable {
    /// None.
    case none = 0
    /// Each word.
    case words
    /// Each sentence.
    case sentences
    /// Every character.
    case allCharacters
}

/// Automatic correction, as UIKit's `UITextAutocorrectionType`. Stored only on Linux.
public enum UITextAutocorrectionType: Int, Sendable {
    /// The system's choice.
    case `default` = 0
    /// Off.
    case no
    /// On.
    case yes
}

/// The kind of content a text input holds, as UIKit's `UITextContentType`. Stored only on Linux.
public struct UITextContentType: Hashable, Sendable, RawRepresentable {
    /// The type's name.
    public let rawValue: String
    /// Creates a content type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A full street address.
    public static let fullStreetAddress = UITextContentType(rawValue: "address")
    /// A location name.
    public static let location = UITextContentType(rawValue: "location")
    /// A person's name.
    public static let name = UITextContentType(rawValue: "name")
    /// A URL.
    public static let URL = UITextContentType(rawValue: "url")
    /// An e-mail address.
    public static let emailAddress = UITextContentType(rawValue: "email")
    /// A telephone number.
    public static let telephoneNumber = UITextContentType(rawValue: "tel")
    /// A password.
    public static let password = UITextContentType(rawValue: "password")
}

/// The view that takes keyboard input: at most one in the process (Waymark runs one window). Package plumbing
/// between text views, the window hosts and ``UIView/endEditing(_:)``.
@MainActor package enum KeyboardFocus {
    /// The first responder, a view that is ``UIKeyInput``.
    package static weak var current: UIView?

    /// The first responder as key input, or nil.
    package static var input: (any UIKeyInput)? { current as? any UIKeyInput }
}

extension UIView {
    /// Makes the first responder resign when it is this view or one of its descendants, as UIKit's
    /// `endEditing(_:)`. With `force` false the responder may refuse (its delegate's should-end-editing).
    /// - Returns: true when no descendant is the first responder afterwards.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        guard let responder = KeyboardFocus.current, responder.isDescendant(of: self) else { return true }
        if let field = responder as? UITextField {
            if !field.resignFirstResponder() && force { field.finishEditing() }
        } else if let textView = responder as? UITextView {
            if !textView.resignFirstResponder() && force { textView.finishEditing() }
        }
        return KeyboardFocus.current?.isDescendant(of: self) != true
    }
}

extension WindowHost {
    /// Whether a view of this window takes typed text now (the SDL backend then sends keys as text).
    package var hasTextInputFocus: Bool { KeyboardFocus.current?.window === window }

    /// Types `text` into the first responder (one ``UIKeyInput/insertText(_:)`` call); ignored without one.
    package func insertText(_ text: String) {
        guard hasTextInputFocus, let input = KeyboardFocus.input, !text.isEmpty else { return }
        input.insertText(text)
        dirty = true
    }

    /// The backspace key for the first responder; ignored without one.
    package func deleteBackward() {
        guard hasTextInputFocus, let input = KeyboardFocus.input else { return }
        input.deleteBackward()
        dirty = true
    }
}

extension UIHeadlessHost {
    /// Types `text` into the window's first responder, one character a frame, as a keyboard would (Waymark's own):
    /// each character is one `insertText(_:)` call (`"\n"` is the return key), and `"\u{8}"` (backspace) is
    /// `deleteBackward()`. Characters typed while no text field or text view of the window is the first responder
    /// are dropped, as keys are on iOS without a keyboard.
    public func type(_ text: String) {
        for character in text {
            if character == "\u{8}" || character == "\u{7F}" {
                host.deleteBackward()
            } else {
                host.insertText(String(character))
            }
            advance(by: Self.frameInterval)
        }
    }
}

import Foundation

/// A menu element that runs a closure, as UIKit's `UIAction`: the closure form controls and bar buttons take in
/// place of target/selector pairs, which cannot exist on Linux.
///
/// A control runs the handler with ``sender`` set to itself (`UIControl.addAction(_:for:)`); the handler receives the
/// action, so it reads `action.sender` to find the control.
/// - Thread rules: main actor only.
@MainActor open class UIAction {
    /// A stable name for an action; a control keeps one action per identifier and event set.
    public struct Identifier: Hashable, Sendable, RawRepresentable {
        /// The identifier's string.
        public let rawValue: String
        /// Creates an identifier from its string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates an identifier from its string.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// The title shown for the action in menus and as a button's title (`UIButton(primaryAction:)`). Defaults to "".
    open var title: String
    /// The image shown beside the title. Defaults to nil.
    open var image: UIImage?
    /// The action's identifier; a new unique one when none was given.
    public let identifier: Identifier
    /// The object that ran the action (the control, for control actions); nil before the first run.
    public internal(set) var sender: Any?

    /// The closure run when the action is performed.
    package let handler: @MainActor (UIAction) -> Void

    /// Creates an action running `handler`.
    /// - Parameters:
    ///   - title: shown in menus and on buttons made from the action. Defaults to "".
    ///   - image: shown beside the title. Defaults to nil.
    ///   - identifier: the action's name; nil gives a unique one.
    ///   - handler: run on the main actor with the action whenever it is performed.
    public init(
        title: String = "", image: UIImage? = nil, identifier: Identifier? = nil,
        handler: @escaping @MainActor (UIAction) -> Void
    ) {
        self.title = title
        self.image = image
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.handler = handler
    }

    /// Runs the handler with ``sender`` set to `sender`.
    package func perform(sender: Any?) {
        self.sender = sender
        handler(self)
    }
}

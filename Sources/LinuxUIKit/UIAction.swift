import Foundation

/// The closure an action runs, as UIKit's `UIActionHandler`: called on the main thread with the action.
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// An item of a menu, as UIKit's `UIMenuElement`: the common part of ``UIAction`` and ``UIMenu``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIMenuElement {
    /// The title shown for the element. Defaults to `""`.
    open var title: String
    /// A second line under the title; nil for none. Defaults to nil.
    open var subtitle: String?
    /// An image shown beside the title; nil for none. Defaults to nil.
    open var image: UIImage?

    /// Creates an element (subclasses call it).
    init(title: String, subtitle: String?, image: UIImage?) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    /// How an element looks and behaves, as UIKit's `UIMenuElement.Attributes`.
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// The attribute bits.
        public let rawValue: UInt
        /// Creates attributes from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Shown but cannot be chosen; a disabled action's handler is never run.
        public static let disabled = Attributes(rawValue: 1 << 0)
        /// Shown in red: the action destroys data.
        public static let destructive = Attributes(rawValue: 1 << 1)
        /// Not shown.
        public static let hidden = Attributes(rawValue: 1 << 2)
        /// Choosing it leaves the menu open.
        public static let keepsMenuPresented = Attributes(rawValue: 1 << 3)
    }

    /// An element's check-mark state, as UIKit's `UIMenuElement.State`.
    public enum State: Int, Sendable {
        /// Not checked.
        case off = 0
        /// Checked.
        case on = 1
        /// Partly checked (a dash).
        case mixed = 2
    }
}

/// A titled action with a handler, as UIKit's `UIAction` (iOS 14's closure form of target–action): given to a
/// control's `addAction(_:for:)`, a bar button item's `primaryAction`, or a ``UIMenu``. Objective-C selectors do not
/// exist on Linux, so actions are the way controls call code.
/// - Thread rules: main actor only; the handler runs on the main thread.
@preconcurrency @MainActor open class UIAction: UIMenuElement {
    /// A name that identifies an action, as UIKit's `UIAction.Identifier`.
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        /// The name.
        public let rawValue: String
        /// Creates an identifier from a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates an identifier from a name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// The action's identity: actions with the same identifier replace each other on a control. Defaults to a new
    /// unique identifier.
    public let identifier: Identifier
    /// A longer title for discoverability UI; stored only. Defaults to nil.
    open var discoverabilityTitle: String?
    /// Whether the action is disabled, destructive, hidden. Defaults to `[]`.
    open var attributes: Attributes
    /// The check-mark state. Defaults to `.off`.
    open var state: State
    /// An image for the selected state; stored only. Defaults to nil.
    open var selectedImage: UIImage?
    /// What performed the action (the control, bar button item or menu) while the handler runs; nil otherwise.
    public private(set) var sender: Any?

    private let handler: UIActionHandler

    /// Creates an action, as UIKit's initialiser. `identifier` nil makes a unique one.
    public init(
        title: String = "", subtitle: String? = nil, image: UIImage? = nil, selectedImage: UIImage? = nil,
        identifier: Identifier? = nil, discoverabilityTitle: String? = nil, attributes: Attributes = [],
        state: State = .off, handler: @escaping UIActionHandler
    ) {
        self.identifier = identifier ?? Identifier(rawValue: "waymark.action.\(UUID().uuidString)")
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        self.selectedImage = selectedImage
        self.handler = handler
        super.init(title: title, subtitle: subtitle, image: image)
    }

    /// Runs the handler with ``sender`` set to `sender` (nil again afterwards). Does nothing for a `.disabled`
    /// action. The controls, bar button items and menus call it; Waymark's own entry point for anything that
    /// performs actions.
    package func perform(sender: Any?) {
        guard !attributes.contains(.disabled) else { return }
        self.sender = sender
        defer { self.sender = nil }
        handler(self)
    }
}

/// A titled group of actions and submenus, as UIKit's `UIMenu`: the `menu` of a bar button item or button.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIMenu: UIMenuElement {
    /// A name that identifies a menu, as UIKit's `UIMenu.Identifier`.
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        /// The name.
        public let rawValue: String
        /// Creates an identifier from a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates an identifier from a name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// How a menu shows its children, as UIKit's `UIMenu.Options`.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Creates options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The children show inline in the parent menu, set off by separators.
        public static let displayInline = Options(rawValue: 1 << 0)
        /// The menu's title is shown in red.
        public static let destructive = Options(rawValue: 1 << 1)
        /// At most one child action is `.on`: choosing one turns the others off.
        public static let singleSelection = Options(rawValue: 1 << 5)
        /// The children show as a row of images.
        public static let displayAsPalette = Options(rawValue: 1 << 7)
    }

    /// The menu's identity. Defaults to a new unique identifier.
    public let identifier: Identifier
    /// How the children show. Defaults to `[]`.
    public let options: Options
    /// The actions and submenus, in order. Defaults to `[]`.
    public private(set) var children: [UIMenuElement]

    /// Creates a menu, as UIKit's initialiser. `identifier` nil makes a unique one.
    public init(
        title: String = "", subtitle: String? = nil, image: UIImage? = nil, identifier: Identifier? = nil,
        options: Options = [], children: [UIMenuElement] = []
    ) {
        self.identifier = identifier ?? Identifier(rawValue: "waymark.menu.\(UUID().uuidString)")
        self.options = options
        self.children = children
        super.init(title: title, subtitle: subtitle, image: image)
    }

    /// A copy of the menu with `newChildren`, as UIKit's `replacingChildren(_:)`.
    public func replacingChildren(_ newChildren: [UIMenuElement]) -> UIMenu {
        UIMenu(
            title: title, subtitle: subtitle, image: image, identifier: identifier, options: options,
            children: newChildren)
    }

    /// The actions a user can choose, depth first through submenus: not hidden, not disabled. Waymark's own, for
    /// hosts that show menus and for scripted choices.
    package var choosableActions: [UIAction] {
        children.flatMap { element -> [UIAction] in
            if let action = element as? UIAction {
                return action.attributes.contains(.hidden) || action.attributes.contains(.disabled) ? [] : [action]
            }
            return (element as? UIMenu)?.choosableActions ?? []
        }
    }

    /// Chooses `action` as a user would (Waymark's own): with `.singleSelection`, it becomes `.on` and its siblings
    /// `.off`; then its handler runs with `sender`.
    package func choose(_ action: UIAction, sender: Any?) {
        if options.contains(.singleSelection) {
            for case let sibling as UIAction in children { sibling.state = sibling === action ? .on : .off }
        }
        action.perform(sender: sender)
    }
}

import Foundation

/// Light or dark appearance, as UIKit's `UIUserInterfaceStyle`.
public enum UIUserInterfaceStyle: Int, Sendable, CustomStringConvertible {
    /// No preference: inherit (as an override) or light (as the app's style).
    case unspecified = 0
    /// Dark text on light backgrounds.
    case light = 1
    /// Light text on dark backgrounds.
    case dark = 2

    /// `unspecified`, `light` or `dark`.
    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .light: "light"
        case .dark: "dark"
        }
    }

    /// Reads `"dark"` or `"light"` (any case, surrounding spaces ignored); nil for anything else. Waymark's own, for
    /// the `--appearance` switch and `WAYMARK_APPEARANCE`.
    package init?(launchValue: String) {
        switch launchValue.trimmingCharacters(in: .whitespaces).lowercased() {
        case "dark": self = .dark
        case "light": self = .light
        default: return nil
        }
    }
}

/// The visual level of content, as UIKit's `UIUserInterfaceLevel`: `.elevated` for content presented above
/// other content (sheets, form sheets, popovers, alerts), whose dark system backgrounds are lighter so they stand
/// out from what is below.
public enum UIUserInterfaceLevel: Int, Sendable, CustomStringConvertible {
    /// No level given: inherit (resolves as `.base`).
    case unspecified = -1
    /// The window's main content.
    case base = 0
    /// Content presented above the main content.
    case elevated = 1

    /// `unspecified`, `base` or `elevated`.
    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .base: "base"
        case .elevated: "elevated"
        }
    }
}

/// The traits of an interface environment, as UIKit's `UITraitCollection`: here the appearance
/// (``userInterfaceStyle``), the trait that a map screen's colours follow, and the level (``userInterfaceLevel``):
/// a presented controller that does not cover its presenter (a sheet, form sheet, popover, or alert) and what it
/// shows are `.elevated`, so the dark system backgrounds resolve to their elevated variants, as on iOS.
///
/// Every view, view controller and window has one (``UITraitEnvironment/traitCollection``): its own
/// `overrideUserInterfaceStyle` when set, else inherited — a window from the screen (the app's style, see
/// ``UIScreen/userInterfaceStyle``), a view controller's root view from its controller, a controller from the view it
/// is shown in (or its parent or presenting controller), any other view from its superview. When an environment's
/// effective traits change, `traitCollectionDidChange(_:)` is called on it, window first, then each view controller
/// before its root view, then the subviews, top-down.
///
/// Immutable and `Sendable`.
public final class UITraitCollection: Hashable, Sendable, CustomStringConvertible {
    /// The appearance; `.unspecified` in a collection made without one.
    public let userInterfaceStyle: UIUserInterfaceStyle
    /// The level; `.unspecified` in a collection made without one (the screen's too), which resolves as `.base`.
    public let userInterfaceLevel: UIUserInterfaceLevel

    /// A collection with every trait unspecified.
    public init() {
        userInterfaceStyle = .unspecified
        userInterfaceLevel = .unspecified
    }

    /// A collection that specifies only the appearance, as UIKit's `init(userInterfaceStyle:)`.
    public init(userInterfaceStyle: UIUserInterfaceStyle) {
        self.userInterfaceStyle = userInterfaceStyle
        userInterfaceLevel = .unspecified
    }

    /// A collection that specifies only the level, as UIKit's `init(userInterfaceLevel:)`.
    public init(userInterfaceLevel: UIUserInterfaceLevel) {
        userInterfaceStyle = .unspecified
        self.userInterfaceLevel = userInterfaceLevel
    }

    /// A collection with both traits.
    init(userInterfaceStyle: UIUserInterfaceStyle, userInterfaceLevel: UIUserInterfaceLevel) {
        self.userInterfaceStyle = userInterfaceStyle
        self.userInterfaceLevel = userInterfaceLevel
    }

    /// Combines collections, as UIKit's `init(traitsFrom:)`: each trait takes the last specified value.
    public convenience init(traitsFrom traitCollections: [UITraitCollection]) {
        let style = traitCollections.last { $0.userInterfaceStyle != .unspecified }?.userInterfaceStyle
        let level = traitCollections.last { $0.userInterfaceLevel != .unspecified }?.userInterfaceLevel
        self.init(userInterfaceStyle: style ?? .unspecified, userInterfaceLevel: level ?? .unspecified)
    }

    /// Whether every trait specified in `trait` has the same value here, as UIKit's `containsTraits(in:)`; nil
    /// gives false.
    public func containsTraits(in trait: UITraitCollection?) -> Bool {
        guard let trait else { return false }
        return (trait.userInterfaceStyle == .unspecified || trait.userInterfaceStyle == userInterfaceStyle)
            && (trait.userInterfaceLevel == .unspecified || trait.userInterfaceLevel == userInterfaceLevel)
    }

    /// Whether dynamic colours may resolve differently under `traitCollection` (the appearance or the level
    /// differs), as UIKit's `hasDifferentColorAppearance(comparedTo:)`; nil counts as different.
    public func hasDifferentColorAppearance(comparedTo traitCollection: UITraitCollection?) -> Bool {
        traitCollection?.userInterfaceStyle != userInterfaceStyle
            || traitCollection?.userInterfaceLevel != userInterfaceLevel
    }

    /// Runs `actions` with this collection as ``current`` (restored afterwards), as UIKit's `performAsCurrent(_:)`.
    public func performAsCurrent(_ actions: () throws -> Void) rethrows {
        let previous = UITraitCollection.threadCurrent
        UITraitCollection.threadCurrent = self
        defer { UITraitCollection.threadCurrent = previous }
        try actions()
    }

    /// The traits dynamic colours resolve against on the calling thread, as UIKit's `current`. Views set it to their
    /// own ``UITraitEnvironment/traitCollection`` while they lay out, draw and handle a trait change; elsewhere it is
    /// the screen's (the app's style). Setting it affects only the calling thread.
    public class var current: UITraitCollection {
        get { threadCurrent ?? UITraitCollection(userInterfaceStyle: systemStyle) }
        set { threadCurrent = newValue }
    }

    private static let threadKey = "waymark.UITraitCollection.current"

    private static var threadCurrent: UITraitCollection? {
        get { Thread.current.threadDictionary[threadKey] as? UITraitCollection }
        set { Thread.current.threadDictionary[threadKey] = newValue }
    }

    /// Runs `body` with `traits` as ``current`` on this thread (the view machinery's form of ``performAsCurrent(_:)``).
    static func with<R>(_ traits: UITraitCollection, _ body: () throws -> R) rethrows -> R {
        let previous = threadCurrent
        threadCurrent = traits
        defer { threadCurrent = previous }
        return try body()
    }

    /// The app's style, never `.unspecified` (light when nothing chose one).
    package static var systemStyle: UIUserInterfaceStyle {
        let style = styleBox.withLock { $0 }
        return style == .unspecified ? .light : style
    }

    /// The app's style as chosen (`--appearance`, `WAYMARK_APPEARANCE`, ``UIScreen/userInterfaceStyle``).
    static let styleBox = LockedBox<UIUserInterfaceStyle>(.unspecified)

    /// `<UITraitCollection: userInterfaceStyle = dark>`, with `; userInterfaceLevel = elevated` when the level is
    /// specified.
    public var description: String {
        let level = userInterfaceLevel == .unspecified ? "" : "; userInterfaceLevel = \(userInterfaceLevel)"
        return "<UITraitCollection: userInterfaceStyle = \(userInterfaceStyle)\(level)>"
    }

    /// Equal when every trait is equal.
    public static func == (lhs: UITraitCollection, rhs: UITraitCollection) -> Bool {
        lhs.userInterfaceStyle == rhs.userInterfaceStyle && lhs.userInterfaceLevel == rhs.userInterfaceLevel
    }

    /// Hashes the traits.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(userInterfaceStyle)
        hasher.combine(userInterfaceLevel)
    }

    /// This collection with `style` on top when `style` is specified.
    func overriding(_ style: UIUserInterfaceStyle) -> UITraitCollection {
        style == .unspecified || style == userInterfaceStyle
            ? self : UITraitCollection(userInterfaceStyle: style, userInterfaceLevel: userInterfaceLevel)
    }

    /// This collection at the elevated level.
    func elevated() -> UITraitCollection {
        userInterfaceLevel == .elevated
            ? self : UITraitCollection(userInterfaceStyle: userInterfaceStyle, userInterfaceLevel: .elevated)
    }
}

/// Something with traits that are told when they change, as UIKit's `UITraitEnvironment`: views, view controllers
/// and windows.
@preconcurrency @MainActor public protocol UITraitEnvironment: AnyObject {
    /// The effective traits (see ``UITraitCollection``).
    var traitCollection: UITraitCollection { get }
    /// Called after the effective traits changed; `previousTraitCollection` is the traits before.
    func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?)
}

extension UIScreen {
    /// The screen's traits, as UIKit's `UIScreen.traitCollection`: the app's style (light unless dark was chosen).
    public var traitCollection: UITraitCollection {
        UITraitCollection(userInterfaceStyle: UITraitCollection.systemStyle)
    }

    /// The system appearance every window inherits (Waymark's own: a desktop has no Settings app). Set at launch from
    /// `--appearance dark|light` or `WAYMARK_APPEARANCE` (see `UIApplicationHostOptions`); `.unspecified` (the default)
    /// means light. Setting it re-resolves every window's traits, calling `traitCollectionDidChange(_:)` where they
    /// change, as switching dark mode on a phone does.
    public var userInterfaceStyle: UIUserInterfaceStyle {
        get { UITraitCollection.styleBox.withLock { $0 } }
        set {
            UITraitCollection.styleBox.withLock { $0 = newValue }
            for window in UIApplication.shared.windows { window.updateTraitsInSubtree() }
        }
    }
}

import Foundation

/// A button for a navigation bar, as UIKit's `UIBarButtonItem`: a title, an image or a system item, and what a tap
/// does — run ``primaryAction``, or show ``menu`` when there is no primary action.
///
/// Objective-C selectors do not exist on Linux, so the target–action initialisers are replaced by iOS 14's
/// `primaryAction:` and `menu:` forms. A disabled item (``isEnabled`` false) is drawn grey and ignores taps.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIBarButtonItem {
    /// The look of an item with a title, as UIKit's `UIBarButtonItem.Style`.
    public enum Style: Int, Sendable {
        /// Regular weight.
        case plain = 0
        /// Deprecated in UIKit; drawn as `.plain`.
        case bordered = 1
        /// Semibold: the action that completes a task.
        case done = 2
    }

    /// The built-in items, as UIKit's `UIBarButtonItem.SystemItem`: a localised title (English) or a glyph.
    public enum SystemItem: Int, Sendable {
        /// "Done", semibold.
        case done = 0
        /// "Cancel".
        case cancel = 1
        /// "Edit".
        case edit = 2
        /// "Save", semibold.
        case save = 3
        /// A plus glyph.
        case add = 4
        /// Flexible space between items (not drawn).
        case flexibleSpace = 5
        /// Fixed space of ``UIBarButtonItem/width`` (not drawn).
        case fixedSpace = 6
        /// A compose glyph (drawn as "Compose").
        case compose = 7
        /// A reply glyph (drawn as "Reply").
        case reply = 8
        /// A share glyph (drawn as "Share").
        case action = 9
        /// An organise glyph (drawn as "Organize").
        case organize = 10
        /// A bookmarks glyph (drawn as "Bookmarks").
        case bookmarks = 11
        /// A magnifying glass.
        case search = 12
        /// A circular arrow.
        case refresh = 13
        /// A cross.
        case stop = 14
        /// A camera glyph (drawn as "Camera").
        case camera = 15
        /// A bin glyph (drawn as "Delete").
        case trash = 16
        /// A play triangle.
        case play = 17
        /// Two pause bars.
        case pause = 18
        /// A rewind glyph (drawn as "Rewind").
        case rewind = 19
        /// A fast-forward glyph (drawn as "Forward").
        case fastForward = 20
        /// "Undo".
        case undo = 21
        /// "Redo".
        case redo = 22
        /// A close cross.
        case close = 24
    }

    /// The title shown when there is no image. Defaults to nil.
    open var title: String? { didSet { changed() } }
    /// The image shown (template images take ``tintColor``). Defaults to nil.
    open var image: UIImage? { didSet { changed() } }
    /// The item's look. Defaults to `.plain`.
    open var style: Style = .plain { didSet { changed() } }
    /// Whether taps do anything; a disabled item is drawn grey. Defaults to true.
    open var isEnabled = true { didSet { changed() } }
    /// The colour of the title or template image; nil takes the bar's tint. Defaults to nil.
    open var tintColor: UIColor? { didSet { changed() } }
    /// A number for the app's own use. Defaults to 0.
    open var tag = 0
    /// Points wide for a fixed space, or the item's width when positive. Defaults to 0 (its natural width).
    open var width: CGFloat = 0 { didSet { changed() } }
    /// A view shown instead of the title or image. Defaults to nil.
    open var customView: UIView? { didSet { changed() } }
    /// Whether the item is left out of the bar (iOS 16). Defaults to false.
    open var isHidden = false { didSet { changed() } }
    /// The action a tap runs; its title and image fill in a nil ``title`` and ``image``. Defaults to nil.
    open var primaryAction: UIAction? { didSet { changed() } }
    /// The menu a tap shows when there is no ``primaryAction`` (a long press otherwise). Defaults to nil.
    open var menu: UIMenu? { didSet { changed() } }
    /// A label for assistive technologies; stored only.
    open var accessibilityLabel: String?

    /// The built-in item, if made with one.
    public private(set) var systemItem: SystemItem?

    /// Creates an empty plain item.
    public init() {}

    /// Creates an item with a title, an image, an action and a menu, as UIKit's iOS 14 initialiser; a nil title or
    /// image takes the action's.
    public convenience init(
        title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil
    ) {
        self.init()
        self.title = title ?? primaryAction.map(\.title).flatMap { $0.isEmpty ? nil : $0 }
        self.image = image ?? primaryAction?.image
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// Creates a built-in item with an action and a menu, as UIKit's `init(systemItem:primaryAction:menu:)`.
    public convenience init(systemItem: SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init()
        self.systemItem = systemItem
        if systemItem == .done || systemItem == .save { style = .done }
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// Creates an item showing `customView`, as UIKit's `init(customView:)`.
    public convenience init(customView: UIView) {
        self.init()
        self.customView = customView
    }

    /// A fixed space `width` points wide, as UIKit's `fixedSpace(_:)`.
    public static func fixedSpace(_ width: CGFloat) -> UIBarButtonItem {
        let item = UIBarButtonItem(systemItem: .fixedSpace)
        item.width = width
        return item
    }

    /// A space that takes the room left over, as UIKit's `flexibleSpace()`.
    public static func flexibleSpace() -> UIBarButtonItem { UIBarButtonItem(systemItem: .flexibleSpace) }

    /// The bar showing the item, told when the item changes.
    weak var bar: UINavigationBar?
    /// The toolbar showing the item, told when the item changes.
    weak var toolbar: UIToolbar?

    private func changed() {
        bar?.setNeedsItemViews()
        toolbar?.setNeedsItemViews()
    }

    /// The text an item shows: its title, else its built-in item's word; nil for glyphs, images and spaces.
    var displayTitle: String? {
        if customView != nil || image != nil { return nil }
        if let title { return title }
        switch systemItem {
        case .done: return "Done"
        case .cancel: return "Cancel"
        case .edit: return "Edit"
        case .save: return "Save"
        case .undo: return "Undo"
        case .redo: return "Redo"
        case .compose: return "Compose"
        case .reply: return "Reply"
        case .action: return "Share"
        case .organize: return "Organize"
        case .bookmarks: return "Bookmarks"
        case .camera: return "Camera"
        case .trash: return "Delete"
        case .rewind: return "Rewind"
        case .fastForward: return "Forward"
        default: return nil
        }
    }

    /// Performs a tap (Waymark's own entry point, used by the bar's buttons): nothing when disabled; else the
    /// primary action with the item as sender, else the menu, shown from `sourceView`.
    package func performTap(from sourceView: UIView?) {
        guard isEnabled else { return }
        if let primaryAction {
            primaryAction.perform(sender: self)
        } else if let menu, let sourceView {
            MenuOverlayView.show(menu, from: sourceView, sender: self)
        }
    }
}

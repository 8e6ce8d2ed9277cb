import Foundation

/// What a navigation bar shows for one view controller, as UIKit's `UINavigationItem`: the title (or a title view),
/// the bar button items on each side and the back button the next controller shows.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UINavigationItem {
    /// The title in the middle of the bar. Defaults to the controller's title.
    open var title: String? { didSet { changed() } }
    /// A view shown instead of the title. Defaults to nil.
    open var titleView: UIView? { didSet { changed() } }
    /// A line above the title; stored only (the bar has no prompt row). Defaults to nil.
    open var prompt: String?
    /// The title of the back button that controllers pushed above this one show; nil uses the title ("Back" when
    /// that is nil or longer than 12 characters). Defaults to nil.
    open var backButtonTitle: String? { didSet { changed() } }
    /// An item whose title the back button above this one shows. Defaults to nil.
    open var backBarButtonItem: UIBarButtonItem? { didSet { changed() } }
    /// Whether the back button is hidden while this item is on top. Defaults to false.
    open var hidesBackButton = false { didSet { changed() } }
    /// Whether left items show beside the back button rather than replacing it. Defaults to false.
    open var leftItemsSupplementBackButton = false { didSet { changed() } }
    /// Whether the bar shows a large title for this item; stored only. Defaults to `.automatic`.
    open var largeTitleDisplayMode: LargeTitleDisplayMode = .automatic

    /// Items on the left, left to right. Defaults to nil.
    open var leftBarButtonItems: [UIBarButtonItem]? { didSet { changed() } }
    /// Items on the right, right to left (the first is at the right edge). Defaults to nil.
    open var rightBarButtonItems: [UIBarButtonItem]? { didSet { changed() } }

    /// The first left item; setting it replaces all left items.
    open var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The first right item; setting it replaces all right items.
    open var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    /// When a large title shows, as UIKit's `UINavigationItem.LargeTitleDisplayMode`.
    public enum LargeTitleDisplayMode: Int, Sendable {
        /// As the previous item.
        case automatic = 0
        /// Always large.
        case always = 1
        /// Never large.
        case never = 2
    }

    /// Creates an item with `title`.
    public init(title: String) { self.title = title }

    /// Sets the left item; `animated` is accepted for source compatibility (the change is immediate).
    public func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }
    /// Sets the right item; the change is immediate.
    public func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }
    /// Sets the left items; the change is immediate.
    public func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { leftBarButtonItems = items }
    /// Sets the right items; the change is immediate.
    public func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { rightBarButtonItems = items }
    /// Hides or shows the back button; the change is immediate.
    public func setHidesBackButton(_ hidesBackButton: Bool, animated: Bool) { self.hidesBackButton = hidesBackButton }

    /// The bar showing the item, told when it changes.
    weak var bar: UINavigationBar?

    /// The search controller shown under the bar and its option (see `searchController`).
    var search = NavigationSearch()

    private func changed() { bar?.setNeedsItemViews() }

    /// A navigation item's search controller (held strongly, as on iOS) and whether its bar hides on scroll.
    struct NavigationSearch {
        var controller: UISearchController?
        var hidesWhenScrolling = true
    }

    /// The title a back button pointing at this item shows when there is room (the bar shortens it to "Back", then
    /// to the chevron alone, when the title needs the room).
    var backTitle: String {
        if let backButtonTitle { return backButtonTitle }
        if let title = backBarButtonItem?.title { return title }
        guard let title, !title.isEmpty else { return "Back" }
        return title
    }
}

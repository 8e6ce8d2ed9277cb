import Foundation

/// Updates search results as the search text changes, as UIKit's `UISearchResultsUpdating`.
/// - Thread rules: main actor only; called on the main actor.
@preconcurrency @MainActor public protocol UISearchResultsUpdating: AnyObject {
    /// The search became active or inactive, or its text changed: read `searchController.searchBar.text`.
    func updateSearchResults(for searchController: UISearchController)
}

/// Told when a search controller activates and deactivates, as UIKit's `UISearchControllerDelegate`. Every method is
/// optional.
/// - Thread rules: main actor only; called on the main actor.
@preconcurrency @MainActor public protocol UISearchControllerDelegate: AnyObject {
    /// The search is about to become active.
    func willPresentSearchController(_ searchController: UISearchController)
    /// The search became active.
    func didPresentSearchController(_ searchController: UISearchController)
    /// The search is about to end.
    func willDismissSearchController(_ searchController: UISearchController)
    /// The search ended.
    func didDismissSearchController(_ searchController: UISearchController)
}

extension UISearchControllerDelegate {
    /// Does nothing.
    public func willPresentSearchController(_ searchController: UISearchController) {}
    /// Does nothing.
    public func didPresentSearchController(_ searchController: UISearchController) {}
    /// Does nothing.
    public func willDismissSearchController(_ searchController: UISearchController) {}
    /// Does nothing.
    public func didDismissSearchController(_ searchController: UISearchController) {}
}

/// A search bar and the results it drives, as UIKit's `UISearchController`.
///
/// Show it with `navigationItem.searchController = controller` (the navigation controller puts ``searchBar`` under
/// its navigation bar, 52 points tall, and the content below it) or place ``searchBar`` in your own views. Tapping the
/// field makes the search active (``isActive``): the Cancel button shows, and the area under the bar is covered by
/// this controller's view — the results controller's view once text has been typed
/// (``automaticallyShowsSearchResultsController``), and until then, when
/// ``obscuresBackgroundDuringPresentation`` is true, a dimming layer (black at 20 %) that ends the search when
/// tapped. ``searchResultsUpdater`` is asked to update on activation, on every text change and on deactivation.
/// Cancel (or setting ``isActive`` to false) ends editing, clears the text and removes the cover. Waymark does not
/// route the activation through `present(_:animated:)`: `presentingViewController` stays nil, and there is no
/// animation.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISearchController: UIViewController {
    /// The search bar; its text is the query.
    public let searchBar = UISearchBar(frame: CGRect(x: 0, y: 0, width: 320, height: UISearchBar.standardHeight))
    /// The controller whose view shows the results, or nil to show them in the searched controller itself.
    public let searchResultsController: UIViewController?
    /// Asked to update the results when the search activates, its text changes, or it ends; held weakly.
    /// Defaults to nil.
    open weak var searchResultsUpdater: (any UISearchResultsUpdating)?
    /// Told when the search activates and ends; held weakly. Defaults to nil.
    open weak var delegate: (any UISearchControllerDelegate)?
    /// Whether the content under the bar is dimmed (and not touchable) while the search is active and no results
    /// show. Defaults to true.
    open var obscuresBackgroundDuringPresentation = true { didSet { updateCover() } }
    /// Stored for source compatibility (iOS's older name of ``obscuresBackgroundDuringPresentation``'s behaviour).
    /// Defaults to true.
    open var dimsBackgroundDuringPresentation = true
    /// Whether the navigation bar hides while the search is active; stored only (the bar stays). Defaults to true.
    open var hidesNavigationBarDuringPresentation = true
    /// Whether the Cancel button shows while the search is active. Defaults to true.
    open var automaticallyShowsCancelButton = true
    /// Whether the results controller's view shows by itself once text has been typed. Defaults to true.
    open var automaticallyShowsSearchResultsController = true { didSet { updateCover() } }
    /// Whether the results controller's view shows now; setting it true shows it even for empty text.
    open var showsSearchResultsController = false { didSet { updateCover() } }

    /// The navigation controller showing the bar under its navigation bar, if any.
    weak var hostingNavigationController: UINavigationController?

    private var active = false
    private var dimming: SearchDimmingView?

    /// Creates a search controller whose results show in `searchResultsController`'s view (nil: in the searched
    /// controller, which reads the text through ``searchResultsUpdater``).
    public init(searchResultsController: UIViewController?) {
        self.searchResultsController = searchResultsController
        super.init(nibName: nil, bundle: nil)
        searchBar.searchController = self
        searchBar.placeholder = "Search"
    }

    /// Creates a search controller without a results controller.
    public convenience init() { self.init(searchResultsController: nil) }

    /// Creates a search controller without a results controller.
    public override convenience init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        self.init(searchResultsController: nil)
    }

    /// Archives are not supported on Linux: always nil.
    public required init?(coder: NSCoder) { nil }

    /// The cover shown under the bar while active: transparent, holding the dimming layer and the results view.
    open override func loadView() {
        let cover = UIView(frame: UIScreen.main.bounds)
        cover.isOpaque = false
        view = cover
    }

    /// Whether the search is active. Setting it true shows the Cancel button and the cover and asks the updater;
    /// setting it false ends editing, clears the text, removes the cover and asks the updater.
    open var isActive: Bool {
        get { active }
        set {
            guard newValue != active else { return }
            if newValue { activate() } else { deactivate() }
        }
    }

    private func activate() {
        delegate?.willPresentSearchController(self)
        active = true
        if automaticallyShowsCancelButton { searchBar.showsCancelButton = true }
        if let results = searchResultsController, results.parent == nil { addChild(results) }
        updateCover()
        searchResultsUpdater?.updateSearchResults(for: self)
        delegate?.didPresentSearchController(self)
    }

    private func deactivate() {
        delegate?.willDismissSearchController(self)
        active = false
        searchBar.searchTextField.finishEditing()
        searchBar.searchTextField.text = ""
        if automaticallyShowsCancelButton { searchBar.showsCancelButton = false }
        updateCover()
        searchResultsUpdater?.updateSearchResults(for: self)
        delegate?.didDismissSearchController(self)
    }

    func fieldBeganEditing() { isActive = true }

    func textDidChange() {
        guard active else { return }
        updateCover()
        searchResultsUpdater?.updateSearchResults(for: self)
    }

    func cancel() { isActive = false }

    /// Whether the results controller's view shows now.
    private var resultsShown: Bool {
        guard active, searchResultsController != nil else { return false }
        if showsSearchResultsController { return true }
        return automaticallyShowsSearchResultsController && !(searchBar.text ?? "").isEmpty
    }

    /// Adds, updates or removes the cover under the bar.
    func updateCover() {
        guard active else {
            viewIfLoaded?.removeFromSuperview()
            return
        }
        let cover = view!
        if dimming == nil {
            let dim = SearchDimmingView()
            dim.controller = self
            cover.addSubview(dim)
            dimming = dim
        }
        dimming?.isHidden = !obscuresBackgroundDuringPresentation || resultsShown
        if let results = searchResultsController?.view {
            if results.superview !== cover { cover.addSubview(results) }
            results.isHidden = !resultsShown
        }
        cover.isUserInteractionEnabled = obscuresBackgroundDuringPresentation || resultsShown
        placeCover()
    }

    /// Puts the cover under the bar: in the navigation controller's view showing the bar, else in the bar's window.
    func placeCover() {
        guard active, let cover = viewIfLoaded else { return }
        if let navigation = hostingNavigationController, let root = navigation.viewIfLoaded {
            if cover.superview !== root { root.insertSubview(cover, belowSubview: navigation.navigationBar) }
            cover.frame = navigation.searchCoverFrame
        } else if let window = searchBar.window {
            if cover.superview !== window { window.addSubview(cover) }
            let top = searchBar.convert(CGPoint(x: 0, y: searchBar.bounds.maxY), to: window).y
            cover.frame = CGRect(x: 0, y: top, width: window.bounds.width, height: max(0, window.bounds.height - top))
        }
        dimming?.frame = cover.bounds
        if let results = searchResultsController?.viewIfLoaded { results.frame = cover.bounds }
    }
}

/// The dimming layer under an active search with no results shown: black at 20 %; a tap ends the search.
@MainActor final class SearchDimmingView: UIView, UITouchResponder {
    weak var controller: UISearchController?

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0, alpha: 0.2)
    }

    required init?(coder: NSCoder) { nil }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { controller?.cancel() }
}

extension UINavigationItem {
    /// The search controller whose bar the navigation controller shows under the navigation bar while this item is
    /// on top, as UIKit's property. Defaults to nil.
    public var searchController: UISearchController? {
        get { search.controller }
        set {
            search.controller = newValue
            bar?.setNeedsItemViews()
        }
    }

    /// Whether the search bar hides when the content scrolls, as UIKit's property. Defaults to true. Stored only:
    /// Waymark keeps the bar shown.
    public var hidesSearchBarWhenScrolling: Bool {
        get { search.hidesWhenScrolling }
        set { search.hidesWhenScrolling = newValue }
    }
}

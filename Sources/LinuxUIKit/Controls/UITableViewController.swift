import Foundation

/// A controller whose view is a table it feeds and listens to, as UIKit's `UITableViewController`.
///
/// Its ``tableView`` is its ``UIViewController/view``: ``loadView()`` makes a ``UITableView`` of the style given to
/// ``init(style:)`` and makes the controller its data source and delegate. Subclasses override the data source and
/// delegate methods below (`override func tableView(_:numberOfRowsInSection:)`, as on iOS). The defaults: no rows,
/// one section, no titles, the table's row and header heights, every row selectable.
/// - Thread rules: main actor only.
@preconcurrency @MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    /// The style the table is created with.
    private let style: UITableView.Style

    /// Whether ``viewWillAppear(_:)`` deselects the selected row (as when coming back to a list). Defaults to true.
    open var clearsSelectionOnViewWillAppear = true

    /// Creates a controller whose table will have `style`.
    public init(style: UITableView.Style) {
        self.style = style
        super.init(nibName: nil, bundle: nil)
    }

    /// Creates a controller with a `.plain` table; nib names and bundles are ignored on Linux.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        style = .plain
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// Creates a controller with a `.plain` table (archives are not supported on Linux; `coder` is ignored).
    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
    }

    /// The table: the controller's ``UIViewController/view`` (loading it on first use). Setting it replaces the
    /// view; a view that is not a table reads back as nil.
    open var tableView: UITableView! {
        get { view as? UITableView }
        set { view = newValue }
    }

    /// Makes a table of the controller's style, the size of the screen, with the controller as its data source and
    /// delegate.
    open override func loadView() {
        let table = UITableView(frame: UIScreen.main.bounds, style: style)
        table.dataSource = self
        table.delegate = self
        view = table
    }

    /// Deselects the selected row when ``clearsSelectionOnViewWillAppear`` is true.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if clearsSelectionOnViewWillAppear, let table = viewIfLoaded as? UITableView,
            let row = table.indexPathForSelectedRow
        {
            table.deselectRow(at: row, animated: animated)
        }
    }

    // MARK: UITableViewDataSource

    /// The number of rows in `section`. Returns 0; override it.
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }

    /// The cell for the row at `indexPath`. Returns an empty default-style cell; override it.
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: nil)
    }

    /// The number of sections. Returns 1.
    open func numberOfSections(in tableView: UITableView) -> Int { 1 }

    /// The header title of `section`. Returns nil.
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }

    /// The footer title of `section`. Returns nil.
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }

    // MARK: UITableViewDelegate

    /// The height of the row at `indexPath`, points. Returns the table's ``UITableView/rowHeight``.
    open func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        tableView.rowHeight
    }

    /// The height of `section`'s header, points. Returns the table's ``UITableView/sectionHeaderHeight``.
    open func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat {
        tableView.sectionHeaderHeight
    }

    /// A custom header view for `section`. Returns nil (the title, if any, is shown).
    open func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }

    /// The row about to be selected by a tap. Returns `indexPath`.
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }

    /// A tap selected the row at `indexPath`. Does nothing.
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}

    /// A tap on another row deselected the row at `indexPath`. Does nothing.
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}

    /// Whether a tap may highlight the row. Returns true.
    open func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }

    /// The cell is about to be shown for the row at `indexPath`. Does nothing.
    open func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}

    // MARK: UIScrollViewDelegate

    /// The table scrolled. Does nothing.
    open func scrollViewDidScroll(_ scrollView: UIScrollView) {}

    /// A drag began. Does nothing.
    open func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}

    /// A drag ended. Does nothing.
    open func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}

    /// An animated scroll finished. Does nothing.
    open func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
}

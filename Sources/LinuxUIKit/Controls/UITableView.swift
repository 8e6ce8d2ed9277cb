import Foundation

/// Where a table view's rows come from, as UIKit's `UITableViewDataSource`. `numberOfSections(in:)` defaults to 1
/// and the titles to nil.
@preconcurrency @MainActor public protocol UITableViewDataSource: AnyObject {
    /// The number of rows in `section`.
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for the row at `indexPath` (usually from `dequeueReusableCell(withIdentifier:for:)`).
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    /// The number of sections. Defaults to 1.
    func numberOfSections(in tableView: UITableView) -> Int
    /// The header title of `section`, or nil for none. Defaults to nil.
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
    /// The footer title of `section`, or nil for none. Defaults to nil.
    func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String?
}

extension UITableViewDataSource {
    /// Returns 1.
    public func numberOfSections(in tableView: UITableView) -> Int { 1 }
    /// Returns nil.
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// Returns nil.
    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
}

/// What a table view asks and tells its delegate, as UIKit's `UITableViewDelegate` (a scroll view delegate too).
/// Every method has a default: heights return the table's ``UITableView/rowHeight`` or
/// ``UITableView/automaticDimension``, `willSelectRowAt` returns the row, `shouldHighlightRowAt` true, the others do
/// nothing.
@preconcurrency @MainActor public protocol UITableViewDelegate: UIScrollViewDelegate {
    /// The height of the row at `indexPath`, points.
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
    /// The height of `section`'s header, points (``UITableView/automaticDimension``: by its title).
    func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat
    /// A custom header view for `section`, or nil for the title (or nothing).
    func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView?
    /// The row about to be selected by a tap; return another index path or nil to select nothing.
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// A tap selected the row at `indexPath`.
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    /// A tap on another row deselected the row at `indexPath`.
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    /// Whether a tap may highlight (and so select) the row.
    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool
    /// The cell is about to be shown for the row at `indexPath`.
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
}

extension UITableViewDelegate {
    /// Returns the table's row height (``UITableView/automaticDimension``, its default, sizes the row by its cell).
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        tableView.rowHeight
    }
    /// Returns the table's section header height.
    public func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat {
        tableView.sectionHeaderHeight
    }
    /// Returns nil.
    public func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }
    /// Returns `indexPath`.
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Does nothing.
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    /// Does nothing.
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    /// Returns true.
    public func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }
    /// Does nothing.
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
}

/// Rows in sections, scrolled vertically, as UIKit's `UITableView` (a ``UIScrollView``).
///
/// The table asks its ``dataSource`` for the counts and, only for the rows in view, for cells; cells that scroll out
/// are kept for ``dequeueReusableCell(withIdentifier:for:)`` (reset with `prepareForReuse()`). Section headers show
/// the data source's titles (28 points high, grey text) or the delegate's header views; they scroll with the rows
/// (no sticky headers on Linux). Rows are ``rowHeight`` high unless the delegate says otherwise; rows of
/// ``automaticDimension`` (the default) size themselves by their cell's content, as on iOS: a row starts at
/// ``estimatedRowHeight`` and takes its cell's height when the cell is made for display (see ``rowHeight``).
///
/// Touches: dragging scrolls (see ``UIScrollView``); a tap on a row asks `willSelectRowAt`, deselects the previous
/// row (`didDeselectRowAt`), selects the new one and calls `didSelectRowAt`. The delegate is the scroll view's
/// ``UIScrollView/delegate`` when it is a ``UITableViewDelegate``. Row insertions, deletions and reloads reload the
/// whole table (no row animations on Linux).
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UITableView: UIScrollView {
    /// The table's look, as UIKit's `UITableView.Style`.
    public enum Style: Int, Sendable {
        /// Rows edge to edge on white.
        case plain = 0
        /// Sections separated by grey space.
        case grouped
        /// Grouped sections inset from the edges by 16 points.
        case insetGrouped
    }

    /// Where ``scrollToRow(at:at:animated:)`` puts the row, as UIKit's `UITableView.ScrollPosition`.
    public enum ScrollPosition: Int, Sendable {
        /// The least scrolling that shows it.
        case none = 0
        /// At the top.
        case top
        /// In the middle.
        case middle
        /// At the bottom.
        case bottom
    }

    /// How row changes animate, as UIKit's `UITableView.RowAnimation` (accepted; Linux reloads without animation).
    public enum RowAnimation: Int, Sendable {
        /// Fade.
        case fade = 0
        /// Slide right.
        case right
        /// Slide left.
        case left
        /// Slide from the top.
        case top
        /// Slide from the bottom.
        case bottom
        /// No animation.
        case none
        /// Keep the middle.
        case middle
        /// The system's choice.
        case automatic = 100
    }

    /// Separator lines, as UIKit's `UITableViewCell.SeparatorStyle`.
    public enum SeparatorStyle: Int, Sendable {
        /// No separators.
        case none = 0
        /// A line under each row.
        case singleLine
    }

    /// The "size by content" value for heights: -1. Rows of this height size themselves by their cells (see
    /// ``rowHeight``); headers are 28 points when they have a title.
    public static let automaticDimension: CGFloat = -1

    /// The look, fixed at creation.
    public let style: Style
    /// The data source, held weakly. Setting it reloads the table. Defaults to nil.
    open weak var dataSource: (any UITableViewDataSource)? {
        didSet { reloadData() }
    }
    /// The row height for rows the delegate does not size, points. Defaults to ``automaticDimension``: self-sizing
    /// rows, as on iOS. A self-sizing row is ``estimatedRowHeight`` high until its cell is made for display; then
    /// it is the cell's fitting height at the row's width: a content configuration's texts and margins, a content
    /// view laid out with Auto Layout (`systemLayoutSizeFitting`), or the classic labels' texts, at least 44
    /// points for the last two kinds of default content (see `UITableViewCell`). The delegate's
    /// `tableView(_:heightForRowAt:)` wins over all of this; it too may return ``automaticDimension``.
    open var rowHeight: CGFloat = UITableView.automaticDimension {
        didSet { reloadData() }
    }
    /// The height self-sizing rows have before their cells are measured, points. Defaults to
    /// ``automaticDimension`` (44 points). 0 turns self-sizing off, as on iOS: ``automaticDimension`` rows are then
    /// 44 points.
    open var estimatedRowHeight: CGFloat = UITableView.automaticDimension {
        didSet { reloadData() }
    }
    /// The section header height for sections the delegate does not size. Defaults to ``automaticDimension``.
    open var sectionHeaderHeight: CGFloat = UITableView.automaticDimension {
        didSet { reloadData() }
    }
    /// Separator lines. Defaults to `.singleLine`.
    open var separatorStyle: SeparatorStyle = .singleLine {
        didSet { setNeedsLayout() }
    }
    /// Whether taps select rows. Defaults to true.
    open var allowsSelection = true
    /// A view above the first section (its height kept, its width the table's). Defaults to nil.
    open var tableHeaderView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            tableHeaderView.map(addSubview)
            reloadData()
        }
    }
    /// A view below the last section. Defaults to nil.
    open var tableFooterView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            tableFooterView.map(addSubview)
            reloadData()
        }
    }

    private var tableDelegate: (any UITableViewDelegate)? { delegate as? any UITableViewDelegate }

    private struct SectionLayout {
        var headerTop: CGFloat
        var headerHeight: CGFloat
        var title: String?
        var rowTops: [CGFloat]
        var rowHeights: [CGFloat]
        /// Whether each row sizes itself by its cell.
        var selfSizing: [Bool]
    }
    /// The measured heights of self-sizing rows since the last reload.
    private var measuredHeights: [IndexPath: CGFloat] = [:]
    /// The table width the heights were measured at.
    private var measuredWidth: CGFloat = 0
    private var sections: [SectionLayout] = []
    private var needsReload = true
    private var visible: [IndexPath: UITableViewCell] = [:]
    private var headers: [Int: UIView] = [:]
    private var reusePool: [String: [UITableViewCell]] = [:]
    private var registered: [String: UITableViewCell.Type] = [:]
    private var selected: IndexPath?

    /// A grouped table's background: iOS's `systemGroupedBackground` (light `#F2F2F7`, dark black).
    static let groupedBackground = UIColor.systemGroupedBackground
    /// A plain table's section header background: `#F5F5F5` light, `#1C1C1E` dark.
    static let plainHeaderBackground = UIColor.control(
        white: 0.96, dark: UIColor(red: 28 / 255, green: 28 / 255, blue: 30 / 255, alpha: 1))

    /// Creates a table of `style`.
    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
        backgroundColor = style == .plain ? .systemBackground : Self.groupedBackground
        alwaysBounceVertical = true
    }

    /// Creates a `.plain` table.
    public override convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    /// Creates a `.plain` table (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
        backgroundColor = .systemBackground
        alwaysBounceVertical = true
    }

    // MARK: Cells

    /// Registers the class whose cells ``dequeueReusableCell(withIdentifier:for:)`` creates for `identifier`
    /// (`UITableViewCell` subclasses, created with their `init(style: .default, reuseIdentifier:)`); nil removes
    /// the registration. Other classes are ignored.
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UITableViewCell.Type
    }

    /// A cell kept for reuse under `identifier`, or a new one of the registered class, or nil.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        guard let type = registered[identifier] else { return nil }
        UITableViewCell.pendingReuseIdentifier = identifier
        defer { UITableViewCell.pendingReuseIdentifier = nil }
        return type.init()
    }

    /// A cell for the row at `indexPath`: reused or new of the class registered for `identifier`. UIKit raises an
    /// exception for an unregistered identifier; Waymark logs the error and returns a `.default` cell.
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        if let cell = dequeueReusableCell(withIdentifier: identifier) { return cell }
        FileHandle.standardError.write(
            Data("UITableView: no cell class registered for reuse identifier \"\(identifier)\"\n".utf8))
        return UITableViewCell(style: .default, reuseIdentifier: identifier)
    }

    // MARK: Data

    /// Asks the data source for everything again: counts, heights and the visible cells.
    open func reloadData() {
        needsReload = true
        placedFor = nil
        measuredHeights = [:]
        for (_, cell) in visible { recycle(cell) }
        visible = [:]
        for (_, header) in headers { header.removeFromSuperview() }
        headers = [:]
        setNeedsLayout()
    }

    /// Reloads the table (no animation on Linux).
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Reloads the table (no animation on Linux).
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Reloads the table (no animation on Linux).
    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Reloads the table (no animation on Linux).
    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Reloads the table (no animation on Linux).
    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Reloads the table (no animation on Linux).
    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Does nothing (changes reload at once).
    open func beginUpdates() {}
    /// Reloads the table.
    open func endUpdates() { reloadData() }
    /// Runs `updates`, reloads the table, then `completion(true)`.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        reloadData()
        completion?(true)
    }

    private func recycle(_ cell: UITableViewCell) {
        cell.removeFromSuperview()
        if let id = cell.reuseIdentifier { reusePool[id, default: []].append(cell) }
    }

    private func loadModel() {
        needsReload = false
        sections = []
        var y = tableHeaderView?.frame.height ?? 0
        guard let dataSource else {
            contentSize = CGSize(width: bounds.width, height: y)
            selected = nil
            return
        }
        let count = max(0, dataSource.numberOfSections(in: self))
        for section in 0..<count {
            let title = dataSource.tableView(self, titleForHeaderInSection: section)
            var headerHeight = tableDelegate?.tableView(self, heightForHeaderInSection: section) ?? sectionHeaderHeight
            if headerHeight == Self.automaticDimension || !headerHeight.isFinite || headerHeight < 0 {
                let custom = tableDelegate?.tableView(self, viewForHeaderInSection: section) != nil
                headerHeight = title != nil || custom ? (style == .plain ? 28 : 38) : (style == .plain ? 0 : 18)
            }
            var layout = SectionLayout(
                headerTop: y, headerHeight: headerHeight, title: title, rowTops: [], rowHeights: [], selfSizing: [])
            y += headerHeight
            let rows = max(0, dataSource.tableView(self, numberOfRowsInSection: section))
            for row in 0..<rows {
                let path = IndexPath(row: row, section: section)
                var h = tableDelegate?.tableView(self, heightForRowAt: path) ?? rowHeight
                var sizesItself = false
                if h == Self.automaticDimension && estimatedRowHeight != 0 {
                    sizesItself = true
                    let estimate = estimatedRowHeight
                    h = measuredHeights[path] ?? (estimate.isFinite && estimate > 0 ? estimate : 44)
                } else if h == Self.automaticDimension || !h.isFinite || h < 0 {
                    h = 44
                }
                layout.rowTops.append(y)
                layout.rowHeights.append(h)
                layout.selfSizing.append(sizesItself)
                y += h
            }
            sections.append(layout)
        }
        if let footer = tableFooterView {
            footer.frame = CGRect(x: 0, y: y, width: bounds.width, height: footer.frame.height)
            y += footer.frame.height
        }
        contentSize = CGSize(width: bounds.width, height: y)
        if let s = selected, !hasRow(s) { selected = nil }
    }

    /// Whether the row exists (the data loaded first when a reload is pending).
    private func contains(_ indexPath: IndexPath) -> Bool {
        if needsReload { loadModel() }
        return hasRow(indexPath)
    }

    private func hasRow(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && sections.indices.contains(indexPath.section)
            && sections[indexPath.section].rowTops.indices.contains(indexPath.row)
    }

    /// The number of sections (from the data source at the last reload).
    open var numberOfSections: Int {
        if needsReload { loadModel() }
        return sections.count
    }

    /// The number of rows in `section`, or 0 for a section that does not exist.
    open func numberOfRows(inSection section: Int) -> Int {
        if needsReload { loadModel() }
        return sections.indices.contains(section) ? sections[section].rowTops.count : 0
    }

    /// The row's rectangle in content coordinates, or `.zero` for a row that does not exist.
    open func rectForRow(at indexPath: IndexPath) -> CGRect {
        if needsReload { loadModel() }
        guard contains(indexPath) else { return .zero }
        let s = sections[indexPath.section]
        let inset: CGFloat = style == .insetGrouped ? 16 : 0
        return CGRect(
            x: inset, y: s.rowTops[indexPath.row], width: max(0, bounds.width - 2 * inset),
            height: s.rowHeights[indexPath.row])
    }

    /// The row at `point` (content coordinates), or nil.
    open func indexPathForRow(at point: CGPoint) -> IndexPath? {
        if needsReload { loadModel() }
        for (si, s) in sections.enumerated() {
            for (ri, top) in s.rowTops.enumerated() where point.y >= top && point.y < top + s.rowHeights[ri] {
                return IndexPath(row: ri, section: si)
            }
        }
        return nil
    }

    /// The cell shown for the row, or nil when the row is not in view. Like UIKit's, it first brings the visible
    /// cells up to date when a reload or scroll has not been laid out yet.
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        updateVisibleCellsIfNeeded()
        return visible[indexPath]
    }

    /// The cells in view, top to bottom (brought up to date first, as ``cellForRow(at:)``).
    open var visibleCells: [UITableViewCell] { indexPathsForVisibleRows?.compactMap { visible[$0] } ?? [] }

    /// The rows in view, top to bottom (brought up to date first, as ``cellForRow(at:)``).
    open var indexPathsForVisibleRows: [IndexPath]? {
        updateVisibleCellsIfNeeded()
        return visible.keys.sorted()
    }

    /// The offset and size the visible cells were last placed for; nil after a reload.
    private var placedFor: (offset: CGPoint, size: CGSize)?

    /// Places the cells in view now when the data was reloaded or the table scrolled or resized since they were
    /// placed: what UIKit does before answering which cells are visible, so the answer never lags a layout pass.
    private func updateVisibleCellsIfNeeded() {
        guard needsReload || placedFor?.offset != bounds.origin || placedFor?.size != bounds.size else { return }
        placeVisibleCells()
    }

    // MARK: Selection

    /// The selected row, or nil.
    open var indexPathForSelectedRow: IndexPath? { selected }

    /// Selects the row in code (no delegate calls, as on iOS) and scrolls by `scrollPosition`; nil deselects.
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        if let old = selected { visible[old]?.setSelected(false, animated: animated) }
        guard let indexPath, contains(indexPath) else {
            selected = nil
            return
        }
        selected = indexPath
        visible[indexPath]?.setSelected(true, animated: animated)
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects the row in code (no delegate calls); ignored when it is not the selected row. With `animated`, the
    /// row's grey fades out over 0.25 s, as on iOS.
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        guard selected == indexPath else { return }
        selected = nil
        visible[indexPath]?.setSelected(false, animated: animated)
    }

    /// Scrolls so the row shows at `scrollPosition`, clamped to the content.
    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        let r = rectForRow(at: indexPath)
        guard r != .zero else { return }
        var o = contentOffset
        switch scrollPosition {
        case .top: o.y = r.minY
        case .middle: o.y = r.midY - bounds.height / 2
        case .bottom: o.y = r.maxY - bounds.height
        case .none:
            scrollRectToVisible(r, animated: animated)
            return
        }
        setContentOffset(clamp(o), animated: animated)
    }

    /// The row a finger is down on, drawn highlighted until the finger lifts or drags.
    private var highlighted: IndexPath?

    /// Highlights the row under the finger (when selection is allowed and the delegate's `shouldHighlightRowAt`
    /// agrees), as iOS shows a pressed row, then tracks the touch as a scroll view.
    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        super.touchesBegan(touches, with: event)
        guard highlighted == nil, allowsSelection, let touch = touches.first,
            let path = indexPathForRow(at: touch.location(in: self)),
            tableDelegate?.tableView(self, shouldHighlightRowAt: path) ?? true
        else { return }
        highlighted = path
        visible[path]?.setHighlighted(true, animated: false)
    }

    /// Ends the highlight once the touch becomes a drag.
    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        super.touchesMoved(touches, with: event)
        if isDragging { endHighlight() }
    }

    /// Ends the highlight, then selects the row when the touch was a tap.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        endHighlight()
        super.touchesEnded(touches, with: event)
    }

    /// Ends the highlight.
    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        endHighlight()
        super.touchesCancelled(touches, with: event)
    }

    private func endHighlight() {
        guard let path = highlighted else { return }
        highlighted = nil
        visible[path]?.setHighlighted(false, animated: false)
    }

    override func contentTapped(at point: CGPoint) {
        guard allowsSelection, let path = indexPathForRow(at: point),
            tableDelegate?.tableView(self, shouldHighlightRowAt: path) ?? true
        else { return }
        let asked: IndexPath? = tableDelegate.map { $0.tableView(self, willSelectRowAt: path) } ?? path
        guard let target = asked, contains(target) else { return }
        let old = selected
        if let old, old != target {
            selected = nil
            visible[old]?.setSelected(false, animated: false)
            tableDelegate?.tableView(self, didDeselectRowAt: old)
        }
        selected = target
        visible[target]?.setSelected(true, animated: false)
        tableDelegate?.tableView(self, didSelectRowAt: target)
    }

    // MARK: Layout

    /// Creates the cells and headers in view and recycles the ones that left it.
    open override func layoutSubviews() { placeVisibleCells() }

    private func placeVisibleCells() {
        if !measuredHeights.isEmpty && measuredWidth != bounds.width {
            // The cells were measured at another width: measure again.
            reloadData()
        }
        if needsReload { loadModel() }
        measuredWidth = bounds.width
        // Measuring self-sizing cells can move the rows below and so bring others into view: place again until
        // the rows in view are all measured (bounded, so content that keeps changing its height cannot hang).
        var passes = 0
        while placeVisibleCellsOnce() {
            restack()
            passes += 1
            if passes == 16 {
                _ = placeVisibleCellsOnce()
                break
            }
        }
    }

    /// Recomputes the row and header tops, the footer and the content size from the row heights.
    private func restack() {
        var y = tableHeaderView?.frame.height ?? 0
        for si in sections.indices {
            sections[si].headerTop = y
            y += sections[si].headerHeight
            for ri in sections[si].rowTops.indices {
                sections[si].rowTops[ri] = y
                y += sections[si].rowHeights[ri]
            }
        }
        for (section, view) in headers {
            let s = sections[section]
            view.frame = CGRect(x: view.frame.minX, y: s.headerTop, width: view.frame.width, height: s.headerHeight)
        }
        if let footer = tableFooterView {
            footer.frame = CGRect(x: 0, y: y, width: bounds.width, height: footer.frame.height)
            y += footer.frame.height
        }
        contentSize = CGSize(width: bounds.width, height: y)
    }

    /// Places the cells and headers in view once; true when a self-sizing cell's measured height changed its row.
    private func placeVisibleCellsOnce() -> Bool {
        var heightsChanged = false
        placedFor = (bounds.origin, bounds.size)
        if let header = tableHeaderView {
            header.frame = CGRect(x: 0, y: 0, width: bounds.width, height: header.frame.height)
        }
        let top = contentOffset.y
        let bottom = top + bounds.height
        var wanted: Set<IndexPath> = []
        var wantedHeaders: Set<Int> = []
        let inset: CGFloat = style == .insetGrouped ? 16 : 0
        for (si, s) in sections.enumerated() {
            if s.headerHeight > 0 && s.headerTop < bottom && s.headerTop + s.headerHeight > top {
                wantedHeaders.insert(si)
            }
            for (ri, rowTop) in s.rowTops.enumerated() where rowTop < bottom && rowTop + s.rowHeights[ri] > top {
                wanted.insert(IndexPath(row: ri, section: si))
            }
        }
        for (path, cell) in visible where !wanted.contains(path) {
            visible[path] = nil
            recycle(cell)
        }
        for (section, view) in headers where !wantedHeaders.contains(section) {
            headers[section] = nil
            view.removeFromSuperview()
        }
        for section in wantedHeaders.sorted() where headers[section] == nil {
            let s = sections[section]
            let view = tableDelegate?.tableView(self, viewForHeaderInSection: section) ?? makeHeader(title: s.title)
            view.frame = CGRect(x: inset, y: s.headerTop, width: bounds.width - 2 * inset, height: s.headerHeight)
            addSubview(view)
            headers[section] = view
        }
        guard let dataSource else { return false }
        for path in wanted.sorted() {
            let s = sections[path.section]
            let cell: UITableViewCell
            if let existing = visible[path] {
                cell = existing
            } else if heightsChanged {
                // A row above changed its height: the rows in view are known after the restack.
                continue
            } else {
                cell = dataSource.tableView(self, cellForRowAt: path)
                cell.setSelected(path == selected, animated: false)
                // A cell still on its default background takes the style's, as on iOS (the same white in light mode).
                if style != .plain, cell.backgroundColor === UIColor.systemBackground {
                    cell.backgroundColor = .secondarySystemGroupedBackground
                }
                if s.selfSizing[path.row], measuredHeights[path] == nil {
                    let h = cell.selfSizingHeight(width: max(0, bounds.width - 2 * inset))
                    measuredHeights[path] = h
                    if h != s.rowHeights[path.row] {
                        sections[path.section].rowHeights[path.row] = h
                        heightsChanged = true
                    }
                }
                tableDelegate?.tableView(self, willDisplay: cell, forRowAt: path)
                insertSubview(cell, at: 0)
                visible[path] = cell
            }
            let placed = sections[path.section]
            cell.showsSeparator =
                separatorStyle == .singleLine && path.row < placed.rowTops.count - 1 || style == .plain
            cell.frame = CGRect(
                x: inset, y: placed.rowTops[path.row], width: max(0, bounds.width - 2 * inset),
                height: placed.rowHeights[path.row])
            if style == .insetGrouped {
                // As iOS: the section is a card with 10-point corners; the first and last rows' backgrounds and
                // highlights are clipped to them.
                var corners: CACornerMask = []
                if path.row == 0 { corners.formUnion([.layerMinXMinYCorner, .layerMaxXMinYCorner]) }
                if path.row == placed.rowTops.count - 1 {
                    corners.formUnion([.layerMinXMaxYCorner, .layerMaxXMaxYCorner])
                }
                cell.layer.cornerRadius = corners.isEmpty ? 0 : Self.insetGroupedCornerRadius
                cell.layer.maskedCorners = corners
                cell.layer.masksToBounds = !corners.isEmpty
                cell.setNeedsDisplay()
            }
        }
        return heightsChanged
    }

    /// The corner radius of an `.insetGrouped` section's card, points: 10, as iOS.
    static let insetGroupedCornerRadius: CGFloat = 10

    private func makeHeader(title: String?) -> UIView {
        var configuration = style == .plain ? UIListContentConfiguration.plainHeader() : .groupedHeader()
        configuration.text = style == .plain ? title : title?.uppercased()
        let view = UIListContentView(configuration: configuration)
        view.backgroundColor = style == .plain ? Self.plainHeaderBackground : nil
        return view
    }
}

import Foundation

/// The sections and items a diffable data source shows, by identifier, as UIKit's
/// `NSDiffableDataSourceSnapshot`. Identifiers are unique across the snapshot: appending one that is already there
/// is ignored with a logged error (UIKit raises an exception).
public struct NSDiffableDataSourceSnapshot<
    SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable
>:
    Sendable
{
    private var sections: [SectionIdentifierType] = []
    private var items: [[ItemIdentifierType]] = []
    private var reloaded: Set<ItemIdentifierType> = []

    /// An empty snapshot.
    public init() {}

    /// The number of items in every section.
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }
    /// The number of sections.
    public var numberOfSections: Int { sections.count }
    /// The section identifiers, in order.
    public var sectionIdentifiers: [SectionIdentifierType] { sections }
    /// Every item identifier, section by section.
    public var itemIdentifiers: [ItemIdentifierType] { items.flatMap { $0 } }
    /// The items marked by ``reloadItems(_:)`` or ``reconfigureItems(_:)``.
    public var reloadedItemIdentifiers: [ItemIdentifierType] { itemIdentifiers.filter { reloaded.contains($0) } }

    /// The number of items in `identifier`'s section (0 when it is not in the snapshot).
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: identifier).count
    }

    /// The items of `identifier`'s section, in order (empty when it is not in the snapshot).
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        indexOfSection(identifier).map { items[$0] } ?? []
    }

    /// The section holding `identifier`, or nil.
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        items.firstIndex { $0.contains(identifier) }.map { sections[$0] }
    }

    /// The position of `identifier` among all items, or nil.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? { itemIdentifiers.firstIndex(of: identifier) }

    /// The position of `identifier` among the sections, or nil.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? { sections.firstIndex(of: identifier) }

    private func report(_ what: String) {
        FileHandle.standardError.write(Data("NSDiffableDataSourceSnapshot: \(what)\n".utf8))
    }

    /// Adds sections at the end (identifiers already present are ignored, logged).
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        for id in identifiers {
            guard !sections.contains(id) else {
                report("section \(id) is already in the snapshot")
                continue
            }
            sections.append(id)
            items.append([])
        }
    }

    /// Inserts sections before `toIdentifier` (ignored, logged, when it is not in the snapshot).
    public mutating func insertSections(
        _ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType
    ) {
        guard let i = indexOfSection(toIdentifier) else {
            return report("section \(toIdentifier) is not in the snapshot")
        }
        let fresh = identifiers.filter { !sections.contains($0) }
        sections.insert(contentsOf: fresh, at: i)
        items.insert(contentsOf: fresh.map { _ in [] }, at: i)
    }

    /// Inserts sections after `toIdentifier` (ignored, logged, when it is not in the snapshot).
    public mutating func insertSections(
        _ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType
    ) {
        guard let i = indexOfSection(toIdentifier) else {
            return report("section \(toIdentifier) is not in the snapshot")
        }
        let fresh = identifiers.filter { !sections.contains($0) }
        sections.insert(contentsOf: fresh, at: i + 1)
        items.insert(contentsOf: fresh.map { _ in [] }, at: i + 1)
    }

    /// Adds items at the end of `sectionIdentifier`'s section (the last section when nil). Without sections, or
    /// for a section not in the snapshot, nothing is added (logged); items already present are ignored (logged).
    public mutating func appendItems(
        _ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil
    ) {
        let index = sectionIdentifier.map(indexOfSection) ?? (sections.isEmpty ? nil : sections.count - 1)
        guard let index else { return report("there is no section to append items to") }
        var present = Set(itemIdentifiers)
        for id in identifiers {
            guard present.insert(id).inserted else {
                report("item \(id) is already in the snapshot")
                continue
            }
            items[index].append(id)
        }
    }

    /// Inserts items before `beforeIdentifier` (ignored, logged, when it is not in the snapshot).
    public mutating func insertItems(
        _ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType
    ) {
        insert(identifiers, near: beforeIdentifier, after: false)
    }

    /// Inserts items after `afterIdentifier` (ignored, logged, when it is not in the snapshot).
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType)
    {
        insert(identifiers, near: afterIdentifier, after: true)
    }

    private mutating func insert(_ identifiers: [ItemIdentifierType], near anchor: ItemIdentifierType, after: Bool) {
        guard let s = items.firstIndex(where: { $0.contains(anchor) }), let i = items[s].firstIndex(of: anchor) else {
            return report("item \(anchor) is not in the snapshot")
        }
        let present = Set(itemIdentifiers)
        items[s].insert(contentsOf: identifiers.filter { !present.contains($0) }, at: after ? i + 1 : i)
    }

    /// Removes the given items (absent ones are ignored).
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        let gone = Set(identifiers)
        for i in items.indices { items[i].removeAll { gone.contains($0) } }
    }

    /// Removes every section and item.
    public mutating func deleteAllItems() {
        sections = []
        items = []
    }

    /// Removes the given sections with their items.
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        for id in identifiers {
            guard let i = indexOfSection(id) else { continue }
            sections.remove(at: i)
            items.remove(at: i)
        }
    }

    /// Marks items to be asked for again at the next apply.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) { reloaded.formUnion(identifiers) }

    /// Marks items to be reconfigured at the next apply (the same as ``reloadItems(_:)`` on Linux).
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) { reloaded.formUnion(identifiers) }

    /// Marks sections to be asked for again (the table reloads wholly on apply anyway).
    public mutating func reloadSections(_ identifiers: [SectionIdentifierType]) {}
}

/// A table data source driven by snapshots of identifiers, as UIKit's `UITableViewDiffableDataSource`.
///
/// Creating it makes it the table's data source (keep a strong reference: the table holds it weakly). ``apply(_:animatingDifferences:completion:)``
/// stores the snapshot and reloads the table (no row animations on Linux); cells come from the cell provider with
/// each item's identifier. Subclass it to give section titles.
/// - Thread rules: main actor only.
@MainActor
open class UITableViewDiffableDataSource<
    SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable
>: UITableViewDataSource {
    /// Makes the cell for an item (nil gives an empty `.default` cell).
    public typealias CellProvider = (UITableView, IndexPath, ItemIdentifierType) -> UITableViewCell?

    private weak var tableView: UITableView?
    private let cellProvider: CellProvider
    private var current = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>()

    /// The row animation of applied changes; accepted (changes reload without animation). Defaults to
    /// `.automatic`.
    public var defaultRowAnimation: UITableView.RowAnimation = .automatic

    /// Creates the data source and makes it `tableView`'s data source.
    public init(tableView: UITableView, cellProvider: @escaping CellProvider) {
        self.tableView = tableView
        self.cellProvider = cellProvider
        tableView.dataSource = self
    }

    /// A copy of the snapshot shown.
    public func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> { current }

    /// Shows `snapshot`: the table reloads, then `completion` runs. `animatingDifferences` is accepted.
    open func apply(
        _ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
        animatingDifferences: Bool = true, completion: (() -> Void)? = nil
    ) {
        current = snapshot
        tableView?.reloadData()
        completion?()
    }

    /// Shows `snapshot` by reloading the table, then runs `completion`.
    open func applySnapshotUsingReloadData(
        _ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
        completion: (() -> Void)? = nil
    ) {
        apply(snapshot, animatingDifferences: false, completion: completion)
    }

    /// The item at `indexPath`, or nil.
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        guard indexPath.count == 2, current.sectionIdentifiers.indices.contains(indexPath.section) else { return nil }
        let items = current.itemIdentifiers(inSection: current.sectionIdentifiers[indexPath.section])
        return items.indices.contains(indexPath.row) ? items[indexPath.row] : nil
    }

    /// The index path of `itemIdentifier`, or nil.
    open func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? {
        guard let section = current.sectionIdentifier(containingItem: itemIdentifier),
            let s = current.indexOfSection(section),
            let row = current.itemIdentifiers(inSection: section).firstIndex(of: itemIdentifier)
        else { return nil }
        return IndexPath(row: row, section: s)
    }

    /// The section at `index`, or nil.
    open func sectionIdentifier(for index: Int) -> SectionIdentifierType? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// The snapshot's section count.
    open func numberOfSections(in tableView: UITableView) -> Int { current.numberOfSections }

    /// The item count of the section.
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        sectionIdentifier(for: section).map { current.numberOfItems(inSection: $0) } ?? 0
    }

    /// The cell provider's cell for the item.
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        guard let item = itemIdentifier(for: indexPath), let cell = cellProvider(tableView, indexPath, item) else {
            return UITableViewCell(style: .default, reuseIdentifier: nil)
        }
        return cell
    }

    /// No header titles; subclasses override.
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }

    /// No footer titles; subclasses override.
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
}

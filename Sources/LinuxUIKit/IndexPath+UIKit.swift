import Foundation

/// The table and collection view coordinates of an index path, as UIKit adds them to Foundation's `IndexPath` on
/// Apple platforms (swift-corelibs-foundation lacks them).
extension IndexPath {
    /// An index path of two elements, `[section, row]` (a table view's row).
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

    /// An index path of two elements, `[section, item]` (a collection view's item).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The first element: the section. An empty index path is a programmer error, as on iOS.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second element: the row within the section.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second element: the item within the section (the same as ``row``).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}

/// A point in the quadtree's plane (google-maps-ios-utils' `GQTPoint`). For map data the plane is
/// ``GMSMapPoint``'s: x and y in [−1, 1].
public struct GQTPoint: Equatable, Sendable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate (up is positive in ``GMSMapPoint`` space).
    public var y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle of the quadtree's plane (google-maps-ios-utils' `GQTBounds`); edges are inclusive.
public struct GQTBounds: Equatable, Sendable {
    /// The left edge.
    public var minX: Double
    /// The bottom edge.
    public var minY: Double
    /// The right edge.
    public var maxX: Double
    /// The top edge.
    public var maxY: Double

    /// The rectangle from (`minX`, `minY`) to (`maxX`, `maxY`).
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

/// An object a ``GQTPointQuadTree`` can hold (google-maps-ios-utils' `GQTPointQuadTreeItem`): it has a fixed point.
/// Items are told apart by identity.
public protocol GQTPointQuadTreeItem: AnyObject {
    /// The item's point. It must not change while the item is in a tree.
    func point() -> GQTPoint
}

/// A point quadtree (google-maps-ios-utils' `GQTPointQuadTree`): items with points inside fixed bounds, found by
/// rectangle.
///
/// A leaf holds up to 64 items before it splits into four, down to depth 30 (Google's limits): any number of items
/// at one point is allowed, they share a leaf. Adding, removing and searching cost O(log n) for spread-out points.
/// - Thread rules: not thread-safe; use from one thread at a time (any thread).
public final class GQTPointQuadTree {
    private var tree: PointIndexTree
    /// The items by id; nil for a removed one. Ids are reused.
    private var items: [(any GQTPointQuadTreeItem)?] = []
    private var freeIDs: [Int32] = []

    /// The number of items in the tree.
    public var count: Int { tree.count }

    /// An empty tree over `bounds` (edges inclusive); items outside it are refused.
    ///
    /// Not failable, as in the library's version 6: code for the Objective-C versions, where it is imported as
    /// `init!` and unwrapped with `guard let` or `!`, drops the unwrapping. Both cannot be had in one initializer.
    public init(bounds: GQTBounds) {
        tree = PointIndexTree(bounds: bounds)
    }

    /// An empty tree over (−1, −1)…(1, 1), the ``GMSMapPoint`` plane.
    public convenience init() {
        self.init(bounds: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1))
    }

    /// Adds `item` at its ``GQTPointQuadTreeItem/point()``. Returns false (and stores nothing) when `item` is nil or
    /// its point is outside the bounds (or NaN). Adding the same object twice stores it twice.
    @discardableResult
    public func add(item: (any GQTPointQuadTreeItem)?) -> Bool {
        guard let item else { return false }
        let p = item.point()
        guard tree.contains(x: p.x, y: p.y) else { return false }
        let id: Int32
        if let reused = freeIDs.popLast() {
            id = reused
            items[Int(id)] = item
        } else {
            id = Int32(items.count)
            items.append(item)
        }
        tree.insert(id: id, x: p.x, y: p.y)
        return true
    }

    /// Removes `item` (found by identity at its point). Returns false when it is not in the tree.
    @discardableResult
    public func remove(item: any GQTPointQuadTreeItem) -> Bool {
        let p = item.point()
        var removedID: Int32 = -1
        let removed = tree.remove(x: p.x, y: p.y) { id in
            guard items[Int(id)] === item else { return false }
            removedID = id
            return true
        }
        if removed {
            items[Int(removedID)] = nil
            freeIDs.append(removedID)
        }
        return removed
    }

    /// Removes every item.
    public func clear() {
        tree.removeAll()
        items.removeAll()
        freeIDs.removeAll()
    }

    /// The items whose points lie inside `searchBounds` (edges included), in no particular order.
    public func search(withBounds searchBounds: GQTBounds) -> [any GQTPointQuadTreeItem] {
        var result: [any GQTPointQuadTreeItem] = []
        tree.forEach(in: searchBounds) { entry in
            if let item = items[Int(entry.id)] { result.append(item) }
        }
        return result
    }

    /// The number of items (the same as ``count``).
    public func getCount() -> Int { count }

    /// ``add(item:)`` as the Objective-C library (versions before 6) is seen from Swift: `add(_:)`.
    @discardableResult
    public func add(_ item: (any GQTPointQuadTreeItem)?) -> Bool { add(item: item) }

    /// ``remove(item:)`` as the Objective-C library (versions before 6) is seen from Swift: `remove(_:)`. Returns
    /// false for nil.
    @discardableResult
    public func remove(_ item: (any GQTPointQuadTreeItem)?) -> Bool {
        guard let item else { return false }
        return remove(item: item)
    }

    /// ``search(withBounds:)`` as the Objective-C library (versions before 6) is seen from Swift: `search(with:)`,
    /// the items as `Any` (an `NSArray` there; cast them to the item type).
    public func search(with bounds: GQTBounds) -> [Any] { search(withBounds: bounds) }
}

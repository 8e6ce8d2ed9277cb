import GoogleMaps
import Synchronization

/// The items an algorithm holds, in insertion order, with their projected points: the storage the clustering
/// algorithms share. Removal leaves a hole that is compacted away once holes outnumber items. The range searches of
/// a clustering go through a ``ClusterGrid`` made on the first clustering after a change.
struct ClusterItemStore {
    /// The items by id (insertion order); nil for a removed one.
    private(set) var items: [(any GMUClusterItem)?] = []
    /// Each id's ``GMSMapPoint`` (x, y), NaN for an item whose position is not a valid coordinate.
    private(set) var xs: [Double] = []
    private(set) var ys: [Double] = []
    /// The first id of each object, for removal by identity.
    private var idOf: [ObjectIdentifier: Int32] = [:]
    /// Whether some object was added more than once (removal then scans every id).
    private var hasDuplicates = false
    /// Items held (ids minus holes).
    private(set) var count = 0
    /// The grid over the points, nil until a clustering needs it after a change.
    private var cachedGrid: ClusterGrid?

    /// The grid over the points (made now if a change dropped it).
    mutating func grid() -> ClusterGrid {
        if let cachedGrid { return cachedGrid }
        let grid = ClusterGrid(items: items, xs: xs, ys: ys)
        cachedGrid = grid
        return grid
    }

    /// The ``GMSMapPoint`` of `position`; y clamped to [−1, 1] (latitudes beyond ±85.0511° sit on the edge), NaN
    /// for an invalid coordinate.
    static func project(_ position: CLLocationCoordinate2D) -> (Double, Double) {
        guard CLLocationCoordinate2DIsValid(position) else { return (.nan, .nan) }
        let p = GMSProject(position)
        return (p.x, min(max(p.y, -1), 1))
    }

    mutating func add(_ newItems: [any GMUClusterItem]) {
        cachedGrid = nil
        // Grow geometrically (adding one item at a time must not reallocate every time).
        let needed = items.count + newItems.count
        if needed > items.capacity {
            let capacity = max(needed, items.capacity * 2)
            items.reserveCapacity(capacity)
            xs.reserveCapacity(capacity)
            ys.reserveCapacity(capacity)
        }
        if idOf.count + newItems.count > idOf.capacity {
            idOf.reserveCapacity(max(idOf.count + newItems.count, idOf.capacity * 2))
        }
        for item in newItems {
            let id = Int32(items.count)
            let (x, y) = Self.project(item.position)
            items.append(item)
            xs.append(x)
            ys.append(y)
            let key = ObjectIdentifier(item)
            if idOf[key] == nil { idOf[key] = id } else { hasDuplicates = true }
            count += 1
        }
    }

    mutating func remove(_ item: any GMUClusterItem) {
        let key = ObjectIdentifier(item)
        guard let first = idOf.removeValue(forKey: key) else { return }
        cachedGrid = nil
        removeID(Int(first))
        if hasDuplicates {
            for id in Int(first) + 1..<items.count where items[id] === item { removeID(id) }
        }
        if items.count > 1024 && count < items.count / 2 { compact() }
    }

    private mutating func removeID(_ id: Int) {
        items[id] = nil
        count -= 1
    }

    mutating func removeAll() {
        self = ClusterItemStore()
    }

    /// Renumbers the items without holes (keeping their order).
    private mutating func compact() {
        let live = items.compactMap { $0 }
        removeAll()
        add(live)
    }

    /// Bytes held for the items (arrays' capacity, the identity table, the grid), for the memory benchmark.
    var bytesHeld: Int {
        items.capacity * MemoryLayout<(any GMUClusterItem)?>.stride + xs.capacity * 8 + ys.capacity * 8
            + idOf.capacity * 4 / 3 * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<Int32>.stride)
            + (cachedGrid?.bytesHeld ?? 0)
    }

    /// The clusters from each id's cluster number (`owner`, −1 for none): cluster `c` at `position(c)` (none when
    /// nil), with its members in insertion order. One cluster object per cluster and one array of ids in all; the
    /// clusters share the items array (copy-on-write), so no item is retained per cluster. With `centre`, a cluster
    /// whose only member is its centre item (`centre(c)`, an id) is a ``SingleItemCluster`` (no allocation).
    func makeClusters(
        owner: [Int32], clusterCount k: Int, centre: ((Int) -> Int32)? = nil,
        position: (Int) -> CLLocationCoordinate2D?
    ) -> [any GMUCluster] {
        // The ids sorted by cluster (a counting sort, so each cluster's ids stay in insertion order): count each
        // cluster's ids, sum the counts so that start[c] is where cluster c ends (start[k] the total), then place the
        // ids last to first, which leaves start[c] where cluster c begins.
        var start = [Int32](repeating: 0, count: k + 1)
        var order: [Int32] = []
        owner.withUnsafeBufferPointer { owner in
            start.withUnsafeMutableBufferPointer { start in
                for o in owner where o >= 0 { start[Int(o)] += 1 }
                for c in 0..<k { start[c + 1] += start[c] }
                order = [Int32](repeating: 0, count: Int(start[k]))
                order.withUnsafeMutableBufferPointer { order in
                    for id in stride(from: owner.count - 1, through: 0, by: -1) where owner[id] >= 0 {
                        let o = Int(owner[id])
                        start[o] -= 1
                        order[Int(start[o])] = Int32(id)
                    }
                }
            }
        }
        let membership = ClusterMembership(itemsByID: items, order: order)
        var result: [any GMUCluster] = []
        result.reserveCapacity(k)
        items.withUnsafeBufferPointer { items in
            order.withUnsafeBufferPointer { order in
                start.withUnsafeBufferPointer { start in
                    for c in 0..<k {
                        let lo = start[c]
                        let hi = start[c + 1]
                        if let centre, hi - lo == 1, order[Int(lo)] == centre(c), let item = items[Int(centre(c))] {
                            result.append(SingleItemCluster(item: item))
                            continue
                        }
                        guard let at = position(c) else { continue }
                        result.append(GMUStaticCluster(position: at, membership: membership, range: lo..<hi))
                    }
                }
            }
        }
        return result
    }
}

/// Google's default clustering (google-maps-ios-utils' `GMUNonHierarchicalDistanceBasedAlgorithm`, the same as
/// android-maps-utils' `NonHierarchicalDistanceBasedAlgorithm`): not hierarchical; Google's searches a quadtree,
/// this one a grid made for each call (the same points found), about O(n) for spread-out points.
///
/// Items are visited in the order they were added. An item not yet in a cluster starts one at its own position;
/// every item within ``clusterDistancePoints`` points of it (a square, in screen points at the zoom) joins it unless
/// it is already in a cluster whose centre is strictly closer. Clusters sit on their first item (not the centroid).
/// Searches do not wrap across the antimeridian (as Google's). Items with an invalid position (NaN, beyond
/// ±90°/±180°) each form a cluster of their own; latitudes beyond ±85.0511° cluster on the map's edge.
/// - Thread rules: not thread-safe; one thread at a time (any thread; ``GMSMarker`` items only on the main thread).
public final class GMUNonHierarchicalDistanceBasedAlgorithm: GMUClusterAlgorithm {
    private var store = ClusterItemStore()
    /// Each id's cluster in the last clustering, and each cluster's first id: scratch kept between clusterings (no
    /// new memory to fault in each time).
    private var owner: [Int32] = []
    private var centres: [Int32] = []
    /// The cluster radius in screen points. Defaults to 100.
    private let clusterDistancePoints: UInt

    /// An algorithm clustering items within 100 points of each other.
    public convenience init() {
        self.init(clusterDistancePoints: 100)
    }

    /// An algorithm clustering items within `clusterDistancePoints` screen points of each other.
    public init(clusterDistancePoints: UInt) {
        self.clusterDistancePoints = clusterDistancePoints
    }

    /// Adds `items`, after those already added.
    public func addItems(_ items: [any GMUClusterItem]) {
        store.add(items)
    }

    /// Removes `item` (every copy, by identity); nothing if it is not there.
    public func removeItem(_ item: any GMUClusterItem) {
        store.remove(item)
    }

    /// Removes every item.
    public func clearItems() {
        store.removeAll()
        owner = []
        centres = []
    }

    /// Bytes held for the items (Waymark's own, for the memory benchmark; the items themselves not counted).
    package var bytesHeld: Int {
        store.bytesHeld + owner.capacity * 4 + centres.capacity * 4
    }

    /// The clusters at `zoom`, in the order of their first items. A cluster of one item alone is a value of its own
    /// (no allocation); the others are ``GMUStaticCluster``s.
    ///
    /// The range searches go through a grid of the points (made on the first call after items change, kept until
    /// the next change): it finds exactly the points the quadtree's inclusive search finds, and the result is the
    /// same.
    public func clusters(atZoom zoom: Float) -> [any GMUCluster] {
        // The radius in GMSMapPoint units: the world (2 units) is 256 × 2^zoom points wide.
        let radius = Double(clusterDistancePoints) * 2 / pow(2, Double(zoom) + 8)
        let grid = store.grid()
        centres.removeAll(keepingCapacity: true)
        grid.cluster(radius: radius, xs: store.xs, ys: store.ys, owner: &owner, centres: &centres)
        let items = store.items
        return centres.withUnsafeBufferPointer { centres in
            store.makeClusters(owner: owner, clusterCount: centres.count, centre: { c in centres[c] }) { c in
                items[Int(centres[c])]?.position
            }
        }
    }
}

/// Clusters by a grid of 100 × 100-point cells (google-maps-ios-utils' `GMUGridBasedClusterAlgorithm`): each
/// non-empty cell is one cluster at the cell's centre. Items with an invalid position are left out of every
/// cluster, with one logged warning per call.
/// - Thread rules: not thread-safe; one thread at a time.
public final class GMUGridBasedClusterAlgorithm: GMUClusterAlgorithm {
    private var store = ClusterItemStore()
    /// The cell side in screen points (Google's `kGMUGridCellSizePoints`).
    private let cellSizePoints = 100.0

    /// An empty algorithm.
    public init() {}

    /// Adds `items`.
    public func addItems(_ items: [any GMUClusterItem]) { store.add(items) }
    /// Removes `item` (every copy, by identity).
    public func removeItem(_ item: any GMUClusterItem) { store.remove(item) }
    /// Removes every item.
    public func clearItems() { store.removeAll() }

    /// One cluster per non-empty cell at `zoom`, at the cell's centre, in the order of their first items.
    public func clusters(atZoom zoom: Float) -> [any GMUCluster] {
        let numCells = max(1, Int(ceil(256 * pow(2, Double(min(max(zoom, 0), 30))) / cellSizePoints)))
        var cellCluster: [Int: Int32] = [:]
        var centres: [(col: Int, row: Int)] = []
        var owner = [Int32](repeating: -1, count: store.items.count)
        var invalid = 0
        for id in 0..<store.items.count where store.items[id] != nil {
            let x = store.xs[id]
            let y = store.ys[id]
            guard x.isFinite && y.isFinite else {
                invalid += 1
                continue
            }
            let col = min(max(Int(Double(numCells) * (1 + x) / 2), 0), numCells - 1)
            let row = min(max(Int(Double(numCells) * (1 + y) / 2), 0), numCells - 1)
            let key = row * numCells + col
            if let c = cellCluster[key] {
                owner[id] = c
            } else {
                let c = Int32(centres.count)
                cellCluster[key] = c
                centres.append((col, row))
                owner[id] = c
            }
        }
        if invalid > 0 {
            GMSLogUtils.warning(
                "GMUGridBasedClusterAlgorithm: \(invalid) items with invalid positions left unclustered")
        }
        let n = Double(numCells)
        return store.makeClusters(owner: owner, clusterCount: centres.count) { c in
            let cell = centres[c]
            return GMSUnproject(
                GMSMapPoint(x: (Double(cell.col) + 0.5) * 2 / n - 1, y: (Double(cell.row) + 0.5) * 2 / n - 1))
        }
    }
}

/// A demonstration algorithm (google-maps-ios-utils' `GMUSimpleClusterAlgorithm`; not for production): ten
/// clusters at the positions of the first ten items, the other items dealt round them in turn. As Google's, the
/// first ten items only place the clusters and are in none of them.
/// - Thread rules: not thread-safe; one thread at a time.
public final class GMUSimpleClusterAlgorithm: GMUClusterAlgorithm {
    private var items: [any GMUClusterItem] = []
    private let clusterCount = 10

    /// An empty algorithm.
    public init() {}

    /// Adds `items`.
    public func addItems(_ items: [any GMUClusterItem]) { self.items.append(contentsOf: items) }
    /// Removes `item` (every copy, by identity).
    public func removeItem(_ item: any GMUClusterItem) { items.removeAll { $0 === item } }
    /// Removes every item.
    public func clearItems() { items.removeAll() }

    /// The ten clusters (fewer with fewer items); `zoom` is ignored.
    public func clusters(atZoom zoom: Float) -> [any GMUCluster] {
        let clusters = items.prefix(clusterCount).map { GMUStaticCluster(position: $0.position) }
        for (i, item) in items.dropFirst(clusterCount).enumerated() { clusters[i % clusterCount].addItem(item) }
        return clusters
    }
}

/// The library's log: one line to standard error per message, the newest ``keptMessages`` kept for tests. Any
/// thread.
enum GMSLogUtils {
    /// How many of the newest messages ``messages`` keeps.
    static let keptMessages = 1_000
    private static let store = Mutex<[String]>([])

    /// The messages logged so far, the newest ``keptMessages``.
    static var messages: [String] { store.withLock { $0 } }

    static func warning(_ message: String) {
        store.withLock { messages in
            messages.append(message)
            if messages.count > keptMessages { messages.removeFirst(messages.count - keptMessages) }
        }
        FileHandle.standardError.write(Data("GoogleMapsUtils warning: \(message)\n".utf8))
    }
}

/// A dynamic point quadtree over the unit square (normalised Web Mercator world space), for finding the points
/// inside a rectangle quickly: the map's marker hit testing.
///
/// Points are identified by a caller-chosen id, a small non-negative `Int32` (the tree keeps a table indexed by id
/// to find a point's leaf, so ids should be dense, as slot numbers are), and carry a caller-chosen 32-bit ``Entry/tag``
/// (the map stores each marker's drawing rank there, so a query can rank candidates without leaving the leaf).
/// Coordinates outside [0, 1] are clamped onto the square's edge for bucketing (queries compare the stored, unclamped
/// values, so results are exact). Leaves split when they hold more than `bucketCapacity` points, down to
/// `maximumDepth` levels (deeper leaves just grow, so many points at one spot never recurse forever).
///
/// Insertions and removals are batched and applied at the next query (queries are therefore `mutating`): insertions in
/// Z order, so a million points go in at memory speed; a large batch of removals in one pass over the leaves.
///
/// Layout: each leaf holds one contiguous array of 24-byte entries (x, y, id, tag) in ascending tag order; node bounds
/// are derived while descending, not stored. Memory: about 24 bytes a point in the leaves (plus array growth slack), 4 in the id
/// table, and 8 a node. Non-finite coordinates and negative ids are refused by ``insert(id:x:y:tag:)``.
/// - Complexity: insert and remove O(depth + bucketCapacity); a rectangle query O(depth + nodes visited + points in
///   the leaves visited).
public struct PointQuadtree: Sendable {
    /// One stored point.
    public struct Entry: Sendable, Equatable {
        /// World x as inserted (not clamped).
        public var x: Double
        /// World y as inserted (not clamped).
        public var y: Double
        /// The caller's id.
        public var id: Int32
        /// The caller's tag (0 unless set).
        public var tag: UInt32
    }

    /// Per node: index of the first of four children (NW, NE, SW, SE), or -1 for a leaf.
    private var firstChild: [Int32]
    /// Per node: the leaf's bucket index in ``buckets`` (-1 for inner nodes).
    private var bucketOfNode: [Int32]
    /// Per node: an upper bound of the tags below it (exact after ``retag(_:)``; removals leave it high).
    private var maxTag: [UInt32]
    private var buckets: [[Entry]]
    /// Per id: the node holding it (≥ 0), or ``absent``, ``pendingInsert``, ``pendingRemoval``.
    private var nodeOfID: [Int32] = []
    /// Points inserted since the last query, applied in Z order (neighbours together, so the leaves are visited
    /// in memory order: inserting a million points one by one otherwise spends most of its time in cache misses).
    private var pending: [Entry] = []
    /// (id, node) of points removed since the last query whose entries are still in their leaves.
    private var removals: [(id: Int32, node: Int32)] = []
    private static let absent: Int32 = -1
    private static let pendingInsert: Int32 = -2
    private static let pendingRemoval: Int32 = -3
    private static let chosen: Int32 = -4
    /// Most points a leaf holds before it splits (at least 1).
    public let bucketCapacity: Int
    /// Deepest level a leaf splits to.
    public let maximumDepth: Int
    /// Number of points stored.
    public private(set) var count = 0

    /// An empty tree over the unit square.
    /// - Parameters:
    ///   - bucketCapacity: points per leaf before it splits; values below 1 become 1. Defaults to 48.
    ///   - maximumDepth: deepest split level (0…30). Defaults to 24 (cells of about 2 m at the equator).
    public init(bucketCapacity: Int = 48, maximumDepth: Int = 24) {
        self.bucketCapacity = max(1, bucketCapacity)
        self.maximumDepth = min(max(0, maximumDepth), 30)
        firstChild = [-1]
        bucketOfNode = [0]
        maxTag = [0]
        buckets = [[]]
    }

    @inline(__always) private static func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }

    /// The leaf containing (x, y) and its depth and bounds.
    private mutating func leaf(x: Double, y: Double, raisingMaxTagTo tag: UInt32) -> (
        node: Int, depth: Int, minX: Double, minY: Double, size: Double
    ) {
        let cx = Self.clamp(x)
        let cy = Self.clamp(y)
        var node = 0
        var depth = 0
        var minX = 0.0
        var minY = 0.0
        var size = 1.0
        if maxTag[0] < tag { maxTag[0] = tag }
        while firstChild[node] >= 0 {
            size *= 0.5
            var quadrant = 0
            if cx >= minX + size {
                quadrant += 1
                minX += size
            }
            if cy >= minY + size {
                quadrant += 2
                minY += size
            }
            node = Int(firstChild[node]) + quadrant
            depth += 1
            if maxTag[node] < tag { maxTag[node] = tag }
        }
        return (node, depth, minX, minY, size)
    }

    /// Whether `id` is stored.
    public func contains(id: Int32) -> Bool {
        guard id >= 0, Int(id) < nodeOfID.count else { return false }
        let state = nodeOfID[Int(id)]
        return state >= 0 || state == Self.pendingInsert
    }

    /// Adds a point (an id already stored is moved: its old point is removed first). Returns `false` (storing
    /// nothing) when a coordinate is NaN or infinite or `id` is negative. The point reaches its leaf at the next query
    /// (insertions are batched).
    @discardableResult
    public mutating func insert(id: Int32, x: Double, y: Double, tag: UInt32 = 0) -> Bool {
        guard x.isFinite, y.isFinite, id >= 0 else { return false }
        if contains(id: id) { remove(id: id) }
        if Int(id) >= nodeOfID.count {
            nodeOfID.append(contentsOf: repeatElement(Self.absent, count: Int(id) + 1 - nodeOfID.count))
        }
        pending.append(Entry(x: x, y: y, id: id, tag: tag))
        nodeOfID[Int(id)] = Self.pendingInsert
        count += 1
        return true
    }

    /// Applies the batched removals and insertions (every query does this first).
    public mutating func flush() {
        if !removals.isEmpty { applyRemovals() }
        if !pending.isEmpty { applyInsertions() }
    }

    private mutating func applyRemovals() {
        if removals.count < 256 {
            for (id, node) in removals {
                let b = Int(bucketOfNode[Int(node)])
                if let i = buckets[b].firstIndex(where: { $0.id == id }) { buckets[b].remove(at: i) }
            }
        } else {
            // Many removals (a map cleared, say): one pass keeps each leaf's live entries, in order.
            let ids = nodeOfID
            for node in bucketOfNode.indices where bucketOfNode[node] >= 0 {
                buckets[Int(bucketOfNode[node])].removeAll { ids[Int($0.id)] != Int32(node) }
            }
        }
        removals.removeAll(keepingCapacity: false)
    }

    private mutating func applyInsertions() {
        // The latest pending entry of each id wins (an id re-inserted before the flush appears more than once).
        var batch: [(key: UInt64, entry: Entry)] = []
        batch.reserveCapacity(pending.count)
        for e in pending.reversed() where nodeOfID[Int(e.id)] == Self.pendingInsert {
            nodeOfID[Int(e.id)] = Self.chosen
            batch.append((Self.zOrder(e.x, e.y), e))
        }
        pending.removeAll(keepingCapacity: false)
        batch.sort { $0.key < $1.key || ($0.key == $1.key && $0.entry.tag < $1.entry.tag) }
        for (_, e) in batch { place(e) }
    }

    /// The Z-order (Morton) code of a point's clamped position: 32 bits of x and y interleaved.
    private static func zOrder(_ x: Double, _ y: Double) -> UInt64 {
        func spread(_ v: Double) -> UInt64 {
            var b = UInt64(min(clamp(v) * 4_294_967_295, 4_294_967_295))
            b = (b | (b << 16)) & 0x0000_FFFF_0000_FFFF
            b = (b | (b << 8)) & 0x00FF_00FF_00FF_00FF
            b = (b | (b << 4)) & 0x0F0F_0F0F_0F0F_0F0F
            b = (b | (b << 2)) & 0x3333_3333_3333_3333
            b = (b | (b << 1)) & 0x5555_5555_5555_5555
            return b
        }
        return spread(x) | (spread(y) << 1)
    }

    /// Puts `e` into its leaf (ascending tag order), splitting a full leaf.
    private mutating func place(_ e: Entry) {
        let l = leaf(x: e.x, y: e.y, raisingMaxTagTo: e.tag)
        let b = Int(bucketOfNode[l.node])
        if let last = buckets[b].last, last.tag > e.tag {
            var lo = 0
            var hi = buckets[b].count
            while lo < hi {
                let mid = (lo + hi) / 2
                if buckets[b][mid].tag <= e.tag { lo = mid + 1 } else { hi = mid }
            }
            buckets[b].insert(e, at: lo)
        } else {
            buckets[b].append(e)
        }
        nodeOfID[Int(e.id)] = Int32(l.node)
        if buckets[b].count > bucketCapacity && l.depth < maximumDepth {
            split(l.node, depth: l.depth, minX: l.minX, minY: l.minY, size: l.size)
        }
    }

    private mutating func split(_ node: Int, depth: Int, minX: Double, minY: Double, size: Double) {
        let b = Int(bucketOfNode[node])
        let entries = buckets[b]
        buckets[b] = []
        let first = firstChild.count
        firstChild[node] = Int32(first)
        bucketOfNode[node] = -1
        // The parent's bucket is reused by the first child.
        var childBuckets = [b]
        for _ in 1..<4 {
            childBuckets.append(buckets.count)
            buckets.append([])
        }
        for c in 0..<4 {
            firstChild.append(-1)
            bucketOfNode.append(Int32(childBuckets[c]))
            maxTag.append(0)
        }
        let half = size / 2
        for e in entries {
            let quadrant = (Self.clamp(e.x) >= minX + half ? 1 : 0) + (Self.clamp(e.y) >= minY + half ? 2 : 0)
            buckets[childBuckets[quadrant]].append(e)
            nodeOfID[Int(e.id)] = Int32(first + quadrant)
            maxTag[first + quadrant] = max(maxTag[first + quadrant], e.tag)
        }
        for c in 0..<4 where buckets[childBuckets[c]].count > bucketCapacity && depth + 1 < maximumDepth {
            split(
                first + c, depth: depth + 1, minX: minX + (c & 1 == 1 ? half : 0),
                minY: minY + (c & 2 == 2 ? half : 0), size: half)
        }
    }

    /// Removes the point `id`. Returns `false` when it is not stored.
    @discardableResult
    public mutating func remove(id: Int32) -> Bool {
        guard contains(id: id) else { return false }
        let state = nodeOfID[Int(id)]
        if state >= 0 { removals.append((id, state)) }
        nodeOfID[Int(id)] = state >= 0 ? Self.pendingRemoval : Self.absent
        count -= 1
        return true
    }

    /// Removes the point `id` stored at exactly (`x`, `y`). Returns `false` when no such point is stored.
    @discardableResult
    public mutating func remove(id: Int32, x: Double, y: Double) -> Bool {
        guard let e = entry(id: id), e.x == x, e.y == y else { return false }
        return remove(id: id)
    }

    /// The stored point `id`, or nil.
    public mutating func entry(id: Int32) -> Entry? {
        flush()
        guard contains(id: id) else { return nil }
        return buckets[Int(bucketOfNode[Int(nodeOfID[Int(id)])])].first { $0.id == id }
    }

    /// Sets the tag of every stored point to `tag(id)` (O(points · log bucketCapacity)).
    public mutating func retag(_ tag: (Int32) -> UInt32) {
        flush()
        for b in buckets.indices {
            for i in buckets[b].indices { buckets[b][i].tag = tag(buckets[b][i].id) }
            buckets[b].sort { $0.tag < $1.tag }
        }
        // Children come after their parent: one backward pass makes every bound exact.
        for node in firstChild.indices.reversed() {
            let first = Int(firstChild[node])
            maxTag[node] =
                first >= 0
                ? max(max(maxTag[first], maxTag[first + 1]), max(maxTag[first + 2], maxTag[first + 3]))
                : buckets[Int(bucketOfNode[node])].last?.tag ?? 0
        }
    }

    /// The point with the highest tag below `limit` among those with `minX ≤ x ≤ maxX` and `minY ≤ y ≤ maxY` (the
    /// first inserted of equal tags is not guaranteed), or nil. Best first: subtrees are visited highest bound first
    /// and skipped once their bound cannot beat the best found, so the cost hardly depends on how many points the
    /// rectangle holds.
    public mutating func topEntry(
        inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, below limit: UInt64 = .max
    ) -> Entry? {
        flush()
        guard minX <= maxX, minY <= maxY, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            return nil
        }
        var best: Entry?
        var bestTag: Int64 = -1
        withUnsafeTemporaryAllocation(of: (Int32, Double, Double, Double).self, capacity: 4 * 32) { stack in
            stack[0] = (0, 0, 0, 1)
            var top = 1
            while top > 0 {
                top -= 1
                let (node, nx, ny, size) = stack[top]
                let n = Int(node)
                guard Int64(maxTag[n]) > bestTag else { continue }
                let lo = (x: nx <= 0 ? -Double.infinity : nx, y: ny <= 0 ? -Double.infinity : ny)
                let hi = (
                    x: nx + size >= 1 ? Double.infinity : nx + size, y: ny + size >= 1 ? Double.infinity : ny + size
                )
                guard lo.x <= maxX, hi.x >= minX, lo.y <= maxY, hi.y >= minY else { continue }
                let first = firstChild[n]
                if first >= 0 {
                    // Push the children lowest bound first, so the highest is visited next.
                    let half = size / 2
                    var order = (Int32(0), Int32(1), Int32(2), Int32(3))
                    withUnsafeMutableBytes(of: &order) { raw in
                        let o = raw.bindMemory(to: Int32.self)
                        for i in 1..<4 {
                            var j = i
                            while j > 0 && maxTag[Int(first + o[j])] < maxTag[Int(first + o[j - 1])] {
                                o.swapAt(j, j - 1)
                                j -= 1
                            }
                        }
                        for c in o {
                            stack[top] = (first + c, nx + (c & 1 == 1 ? half : 0), ny + (c & 2 == 2 ? half : 0), half)
                            top += 1
                        }
                    }
                    continue
                }
                buckets[Int(bucketOfNode[n])].withUnsafeBufferPointer { entries in
                    var i = entries.count - 1
                    while i >= 0 {
                        let e = entries[i]
                        if Int64(e.tag) <= bestTag { break }
                        if UInt64(e.tag) < limit && e.x >= minX && e.x <= maxX && e.y >= minY && e.y <= maxY {
                            best = e
                            bestTag = Int64(e.tag)
                            break
                        }
                        i -= 1
                    }
                }
            }
        }
        return best
    }

    /// Calls `body` with the entries of every leaf that may hold points with `minX ≤ x ≤ maxX` and
    /// `minY ≤ y ≤ maxY`, in ascending tag order (the caller filters the entries; a leaf's buffer is valid only during
    /// the call; walking it backwards finds a leaf's highest-tagged match first). An empty or
    /// non-finite rectangle visits nothing. The fast path of ``forEach(inMinX:minY:maxX:maxY:_:)``.
    public mutating func forEachLeaf(
        inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UnsafeBufferPointer<Entry>) -> Void
    ) {
        flush()
        guard minX <= maxX, minY <= maxY, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return }
        // (node, minX, minY, size): at most 3 pending siblings a level.
        withUnsafeTemporaryAllocation(of: (Int32, Double, Double, Double).self, capacity: 4 * 32) { stack in
            var top = 0
            stack[0] = (0, 0, 0, 1)
            top = 1
            while top > 0 {
                top -= 1
                let (node, nx, ny, size) = stack[top]
                // Points outside [0, 1] live in edge cells; widen the edge cells so they are found.
                let lo = (x: nx <= 0 ? -Double.infinity : nx, y: ny <= 0 ? -Double.infinity : ny)
                let hi = (
                    x: nx + size >= 1 ? Double.infinity : nx + size, y: ny + size >= 1 ? Double.infinity : ny + size
                )
                guard lo.x <= maxX, hi.x >= minX, lo.y <= maxY, hi.y >= minY else { continue }
                let first = firstChild[Int(node)]
                if first >= 0 {
                    let half = size / 2
                    for c in 0..<4 {
                        stack[top] = (
                            first + Int32(c), nx + (c & 1 == 1 ? half : 0), ny + (c & 2 == 2 ? half : 0), half
                        )
                        top += 1
                    }
                    continue
                }
                buckets[Int(bucketOfNode[Int(node)])].withUnsafeBufferPointer(body)
            }
        }
    }

    /// Calls `body` with the id and coordinates of every point with `minX ≤ x ≤ maxX` and `minY ≤ y ≤ maxY`, in no
    /// particular order. An empty or non-finite rectangle finds nothing.
    public mutating func forEach(
        inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32, Double, Double) -> Void
    ) {
        forEachLeaf(inMinX: minX, minY: minY, maxX: maxX, maxY: maxY) { entries in
            for e in entries where e.x >= minX && e.x <= maxX && e.y >= minY && e.y <= maxY { body(e.id, e.x, e.y) }
        }
    }

    /// Calls `body` with every stored entry, in no particular order.
    public mutating func forEachEntry(_ body: (Entry) -> Void) {
        flush()
        for bucket in buckets { for e in bucket { body(e) } }
    }
}

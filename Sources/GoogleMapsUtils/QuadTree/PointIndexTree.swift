/// The point quadtree behind ``GQTPointQuadTree`` and the clustering and heatmap code: ids with their points, in
/// nodes kept in one array (no object per node or entry).
///
/// Google's rules: a leaf splits when it holds 64 entries and is shallower than depth 30; a point goes to the top
/// half when `y > midY` and to the right half when `x > midX`; searches are inclusive on every edge.
struct PointIndexTree {
    /// One stored point.
    struct Entry {
        var x: Double
        var y: Double
        var id: Int32
    }

    /// A node: a leaf with entries, or an inner node whose four children start at `firstChild` (top-right,
    /// top-left, bottom-right, bottom-left).
    private struct Node {
        var firstChild: Int32 = -1
        var entries: [Entry] = []
    }

    /// Entries a leaf holds before it splits (Google's `kMaxElements`).
    static let maxElements = 64
    /// Depth below which leaves never split (Google's `kMaxDepth`).
    static let maxDepth = 30

    /// The extent; points outside it are refused.
    let bounds: GQTBounds
    private var nodes: [Node] = [Node()]
    /// Entries stored.
    private(set) var count = 0

    init(bounds: GQTBounds) {
        self.bounds = bounds
    }

    /// Whether `(x, y)` lies inside ``bounds`` (edges included; NaN is outside).
    func contains(x: Double, y: Double) -> Bool {
        x >= bounds.minX && x <= bounds.maxX && y >= bounds.minY && y <= bounds.maxY
    }

    /// Removes every entry.
    mutating func removeAll() {
        nodes = [Node()]
        count = 0
    }

    /// Adds `id` at `(x, y)`; false (nothing stored) when the point is outside ``bounds``.
    @discardableResult
    mutating func insert(id: Int32, x: Double, y: Double) -> Bool {
        guard contains(x: x, y: y) else { return false }
        insert(Entry(x: x, y: y, id: id), node: 0, bounds: bounds, depth: 0)
        count += 1
        return true
    }

    private mutating func insert(_ entry: Entry, node start: Int, bounds start0: GQTBounds, depth start1: Int) {
        var node = start
        var b = start0
        var depth = start1
        while true {
            let first = nodes[node].firstChild
            if first < 0 {
                if nodes[node].entries.count >= Self.maxElements && depth < Self.maxDepth {
                    split(node, bounds: b)
                    continue
                }
                nodes[node].entries.append(entry)
                return
            }
            let (q, cb) = Self.quadrant(of: entry.x, entry.y, in: b)
            node = Int(first) + q
            b = cb
            depth += 1
        }
    }

    private mutating func split(_ node: Int, bounds b: GQTBounds) {
        let first = nodes.count
        nodes.append(contentsOf: repeatElement(Node(), count: 4))
        nodes[node].firstChild = Int32(first)
        let moved = nodes[node].entries
        nodes[node].entries = []
        for e in moved {
            let (q, _) = Self.quadrant(of: e.x, e.y, in: b)
            nodes[first + q].entries.append(e)
        }
        // A child that got every entry splits on its next insertion (depth permitting), as Google's re-adding does.
    }

    /// The child index (0 top-right, 1 top-left, 2 bottom-right, 3 bottom-left) and its bounds.
    @inline(__always)
    private static func quadrant(of x: Double, _ y: Double, in b: GQTBounds) -> (Int, GQTBounds) {
        let midX = (b.minX + b.maxX) / 2
        let midY = (b.minY + b.maxY) / 2
        if y > midY {
            if x > midX { return (0, GQTBounds(minX: midX, minY: midY, maxX: b.maxX, maxY: b.maxY)) }
            return (1, GQTBounds(minX: b.minX, minY: midY, maxX: midX, maxY: b.maxY))
        }
        if x > midX { return (2, GQTBounds(minX: midX, minY: b.minY, maxX: b.maxX, maxY: midY)) }
        return (3, GQTBounds(minX: b.minX, minY: b.minY, maxX: midX, maxY: midY))
    }

    /// Removes the first entry stored at `(x, y)` (the point it was added with) whose id `matches`; false when
    /// there is none.
    @discardableResult
    mutating func remove(x: Double, y: Double, where matches: (Int32) -> Bool) -> Bool {
        guard contains(x: x, y: y) else { return false }
        var node = 0
        var b = bounds
        while true {
            let first = nodes[node].firstChild
            if first < 0 {
                guard let i = nodes[node].entries.firstIndex(where: { matches($0.id) }) else { return false }
                nodes[node].entries.remove(at: i)
                count -= 1
                return true
            }
            let (q, cb) = Self.quadrant(of: x, y, in: b)
            node = Int(first) + q
            b = cb
        }
    }

    /// Calls `body` for every entry inside `search` (edges included), in no particular order.
    @inline(__always)
    func forEach(in search: GQTBounds, _ body: (Entry) -> Void) {
        visit(0, bounds, search, body)
    }

    private func visit(_ node: Int, _ b: GQTBounds, _ s: GQTBounds, _ body: (Entry) -> Void) {
        let first = nodes[node].firstChild
        if first < 0 {
            for e in nodes[node].entries where e.x >= s.minX && e.x <= s.maxX && e.y >= s.minY && e.y <= s.maxY {
                body(e)
            }
            return
        }
        let midX = (b.minX + b.maxX) / 2
        let midY = (b.minY + b.maxY) / 2
        let f = Int(first)
        // Children's bounds share their edges (inclusive intersection, as Google's).
        if s.maxY >= midY {
            if s.maxX >= midX { visit(f, GQTBounds(minX: midX, minY: midY, maxX: b.maxX, maxY: b.maxY), s, body) }
            if s.minX <= midX { visit(f + 1, GQTBounds(minX: b.minX, minY: midY, maxX: midX, maxY: b.maxY), s, body) }
        }
        if s.minY <= midY {
            if s.maxX >= midX { visit(f + 2, GQTBounds(minX: midX, minY: b.minY, maxX: b.maxX, maxY: midY), s, body) }
            if s.minX <= midX { visit(f + 3, GQTBounds(minX: b.minX, minY: b.minY, maxX: midX, maxY: midY), s, body) }
        }
    }

    /// Bytes held by the tree's nodes and entries (capacity included), for the memory benchmark.
    var bytesHeld: Int {
        nodes.capacity * MemoryLayout<Node>.stride
            + nodes.reduce(0) {
                $0 + $1.entries.capacity * MemoryLayout<Entry>.stride + ($1.entries.capacity > 0 ? 32 : 0)
            }
    }
}

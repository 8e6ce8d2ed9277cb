/// A dynamic point quadtree over the unit square (normalised Web Mercator world space), for finding the points
/// inside a rectangle quickly: the map's marker hit testing and culling.
///
/// Points are identified by a caller-chosen `Int32` id and stored with their coordinates; coordinates outside
/// [0, 1] are clamped onto the square's edge for bucketing (queries compare the stored, unclamped values). Leaves
/// split when they hold more than `bucketCapacity` points, down to `maximumDepth` levels (deeper leaves just grow,
/// so many points at one spot never recurse forever). Memory: 12 bytes a point plus about 40 bytes a node.
/// Non-finite coordinates are refused by ``insert(id:x:y:)`` (it returns `false`).
/// - Complexity: insert and remove O(depth + bucketCapacity); a rectangle query O(depth + nodes visited + hits).
public struct PointQuadtree: Sendable {
    struct Node: Sendable {
        var minX: Double
        var minY: Double
        var size: Double
        var depth: Int
        /// Index of the first of four children (NW, NE, SW, SE), or -1 for a leaf.
        var firstChild: Int32 = -1
        var ids: [Int32] = []
        var xs: [Double] = []
        var ys: [Double] = []
    }

    private(set) var nodes: [Node]
    /// Most points a leaf holds before it splits (at least 1).
    public let bucketCapacity: Int
    /// Deepest level a leaf splits to.
    public let maximumDepth: Int
    /// Number of points stored.
    public private(set) var count = 0

    /// An empty tree over the unit square.
    /// - Parameters:
    ///   - bucketCapacity: points per leaf before it splits; values below 1 become 1. Defaults to 32.
    ///   - maximumDepth: deepest split level (0…30). Defaults to 24 (cells of about 2 m at the equator).
    public init(bucketCapacity: Int = 32, maximumDepth: Int = 24) {
        self.bucketCapacity = max(1, bucketCapacity)
        self.maximumDepth = min(max(0, maximumDepth), 30)
        nodes = [Node(minX: 0, minY: 0, size: 1, depth: 0)]
    }

    private static func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }

    private func childIndex(of node: Node, x: Double, y: Double) -> Int32 {
        let half = node.size / 2
        let cx = Self.clamp(x) >= node.minX + half ? 1 : 0
        let cy = Self.clamp(y) >= node.minY + half ? 2 : 0
        return node.firstChild + Int32(cx + cy)
    }

    private func leaf(x: Double, y: Double) -> Int {
        var index = 0
        while nodes[index].firstChild >= 0 { index = Int(childIndex(of: nodes[index], x: x, y: y)) }
        return index
    }

    /// Adds a point. Returns `false` (storing nothing) when a coordinate is NaN or infinite.
    @discardableResult
    public mutating func insert(id: Int32, x: Double, y: Double) -> Bool {
        guard x.isFinite, y.isFinite else { return false }
        let index = leaf(x: x, y: y)
        nodes[index].ids.append(id)
        nodes[index].xs.append(x)
        nodes[index].ys.append(y)
        count += 1
        if nodes[index].ids.count > bucketCapacity && nodes[index].depth < maximumDepth { split(index) }
        return true
    }

    private mutating func split(_ index: Int) {
        let node = nodes[index]
        let half = node.size / 2
        let first = Int32(nodes.count)
        for (dy, dx) in [(0.0, 0.0), (0, 1), (1, 0), (1, 1)] {
            nodes.append(
                Node(minX: node.minX + dx * half, minY: node.minY + dy * half, size: half, depth: node.depth + 1))
        }
        nodes[index].firstChild = first
        nodes[index].ids = []
        nodes[index].xs = []
        nodes[index].ys = []
        for i in node.ids.indices {
            let c = Int(childIndex(of: nodes[index], x: node.xs[i], y: node.ys[i]))
            nodes[c].ids.append(node.ids[i])
            nodes[c].xs.append(node.xs[i])
            nodes[c].ys.append(node.ys[i])
        }
        for c in Int(first)..<Int(first) + 4
        where nodes[c].ids.count > bucketCapacity && nodes[c].depth < maximumDepth {
            split(c)
        }
    }

    /// Removes the point `id` stored at exactly (`x`, `y`). Returns `false` when no such point is stored.
    @discardableResult
    public mutating func remove(id: Int32, x: Double, y: Double) -> Bool {
        guard x.isFinite, y.isFinite else { return false }
        let index = leaf(x: x, y: y)
        guard let i = nodes[index].ids.firstIndex(of: id) else { return false }
        nodes[index].ids.swapAt(i, nodes[index].ids.count - 1)
        nodes[index].xs.swapAt(i, nodes[index].xs.count - 1)
        nodes[index].ys.swapAt(i, nodes[index].ys.count - 1)
        nodes[index].ids.removeLast()
        nodes[index].xs.removeLast()
        nodes[index].ys.removeLast()
        count -= 1
        return true
    }

    /// Calls `body` with the id and coordinates of every point with `minX ≤ x ≤ maxX` and `minY ≤ y ≤ maxY`, in no
    /// particular order. An empty or non-finite rectangle finds nothing.
    public func forEach(
        inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32, Double, Double) -> Void
    ) {
        guard minX <= maxX, minY <= maxY, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return }
        var stack: [Int] = [0]
        while let index = stack.popLast() {
            let node = nodes[index]
            // Points outside [0, 1] live in edge cells; widen the edge cells so they are found.
            let lo = (
                x: node.minX <= 0 ? -Double.infinity : node.minX, y: node.minY <= 0 ? -Double.infinity : node.minY
            )
            let hi = (
                x: node.minX + node.size >= 1 ? Double.infinity : node.minX + node.size,
                y: node.minY + node.size >= 1 ? Double.infinity : node.minY + node.size
            )
            guard lo.x <= maxX, hi.x >= minX, lo.y <= maxY, hi.y >= minY else { continue }
            if node.firstChild >= 0 {
                for c in 0..<4 { stack.append(Int(node.firstChild) + c) }
                continue
            }
            for i in node.ids.indices {
                let x = node.xs[i]
                let y = node.ys[i]
                if x >= minX && x <= maxX && y >= minY && y <= maxY { body(node.ids[i], x, y) }
            }
        }
    }
}

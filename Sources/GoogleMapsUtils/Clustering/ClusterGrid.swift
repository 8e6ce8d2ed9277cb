/// A uniform grid over a ``ClusterItemStore``'s points: the points sorted by cell (row by row), so the points of a
/// run of cells in one row lie together. Made by the store on the first clustering after a change, kept until the
/// next change.
///
/// Cells are square, sized to the points' extent for about ``cellsPerPoint`` cells a point, whatever the zoom: a
/// square search reads one run of cells per row it crosses. A search compares every candidate with the square's
/// edges exactly as ``PointIndexTree`` does (inclusive), so it finds the same points. Points outside the
/// (−1, −1)…(1, 1) plane are not indexed, as the quadtree refuses them.
///
/// Each indexed point is one 32-byte ``GridRecord`` (its coordinates, its id, and the cluster claiming it in the
/// clustering under way), the records aligned to 64 bytes: a candidate of a search costs one cache line. A copy of
/// the grid shares the records; one clustering at a time.
struct ClusterGrid {
    /// Marks in ``slotOf``: a removed id, and an id whose point is not indexed (invalid or outside the plane).
    static let removed: Int32 = -2
    static let notIndexed: Int32 = -1
    /// Cells a point, about, over the points' extent.
    static let cellsPerPoint = 2.0

    /// The indexed points, by slot (sorted by cell).
    private let records: GridRecords
    /// Each id's slot, or ``removed`` / ``notIndexed``.
    private let slotOf: [Int32]
    /// The first slot of each cell; one more entry than cells, the last the number of slots.
    private var start: [Int32] = []
    /// Cells across and down.
    private var columns = 1
    private var rows = 1
    /// The lower-left corner of the grid and the cell side (GMSMapPoint units).
    private var originX = 0.0
    private var originY = 0.0
    private var cell = 1.0

    /// The grid over the live points of `items` at (`xs`, `ys`).
    init(items: [(any GMUClusterItem)?], xs: [Double], ys: [Double]) {
        let n = items.count
        var slots = [Int32](repeating: Self.removed, count: n)
        var count = 0
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        items.withUnsafeBufferPointer { items in
            xs.withUnsafeBufferPointer { xs in
                ys.withUnsafeBufferPointer { ys in
                    slots.withUnsafeMutableBufferPointer { slots in
                        for id in 0..<n where items[id] != nil {
                            let x = xs[id]
                            let y = ys[id]
                            // PointIndexTree.contains: NaN and points off the plane are outside.
                            guard x >= -1 && x <= 1 && y >= -1 && y <= 1 else {
                                slots[id] = Self.notIndexed
                                continue
                            }
                            slots[id] = 0
                            count += 1
                            minX = min(minX, x)
                            minY = min(minY, y)
                            maxX = max(maxX, x)
                            maxY = max(maxY, y)
                        }
                    }
                }
            }
        }
        records = GridRecords(count: count)
        guard count > 0 else {
            slotOf = slots
            start = [0, 0]
            return
        }
        let width = maxX - minX
        let height = maxY - minY
        let target = max(Double(count) * Self.cellsPerPoint, 1)
        let side = max((width * height / target).squareRoot(), max(width, height) / target)
        let most = Int(target) + 1
        var columns = 1
        var rows = 1
        var cell = 1.0
        if side > 0 {
            cell = side
            columns = min(Int(width / side) + 1, most)
            rows = min(Int(height / side) + 1, most)
        }
        // Counting sort of the points by cell.
        let cells = columns * rows
        var start = [Int32](repeating: 0, count: cells + 1)
        var cellOf = [Int32](repeating: 0, count: n)
        let records = self.records.base
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                slots.withUnsafeMutableBufferPointer { slots in
                    start.withUnsafeMutableBufferPointer { start in
                        cellOf.withUnsafeMutableBufferPointer { cellOf in
                            for id in 0..<n where slots[id] >= 0 {
                                let col = Swift.min(Int((xs[id] - minX) / cell), columns - 1)
                                let row = Swift.min(Int((ys[id] - minY) / cell), rows - 1)
                                let c = row * columns + col
                                cellOf[id] = Int32(c)
                                start[c + 1] += 1
                            }
                            for c in 0..<cells { start[c + 1] += start[c] }
                            var next = Array(start[0..<cells])
                            next.withUnsafeMutableBufferPointer { next in
                                for id in 0..<n where slots[id] >= 0 {
                                    let c = Int(cellOf[id])
                                    let slot = next[c]
                                    next[c] = slot + 1
                                    records[Int(slot)] = GridRecord(
                                        x: xs[id], y: ys[id], distance: 0, owner: -1, id: Int32(id))
                                    slots[id] = slot
                                }
                            }
                        }
                    }
                }
            }
        }
        slotOf = slots
        self.start = start
        self.columns = columns
        self.rows = rows
        self.cell = cell
        originX = minX
        originY = minY
    }

    /// Bytes held (arrays' capacity), for the memory benchmark.
    var bytesHeld: Int {
        records.count * MemoryLayout<GridRecord>.stride + slotOf.capacity * 4 + start.capacity * 4
    }

    /// The first column (or row) a search edge at `q` cells from the origin can reach (0 for NaN).
    @inline(__always)
    private static func low(_ q: Double, _ count: Int) -> Int {
        q >= 0 ? (q < Double(count - 1) ? Int(q) : count - 1) : 0
    }

    /// The last column (or row) a search edge at `q` cells from the origin can reach (the last for NaN).
    @inline(__always)
    private static func high(_ q: Double, _ count: Int) -> Int {
        q < Double(count - 1) ? (q >= 0 ? Int(q) : 0) : count - 1
    }

    /// Google's non-hierarchical clustering over the grid: ids in order; an id not yet in a cluster starts cluster
    /// `centres.count` (appending the id) and takes every indexed point in the square of `radius` about it that is
    /// not in a strictly closer cluster. Sets `owner[id]` to each id's cluster (−1 for none; `owner` is resized to
    /// the ids, and kept by the caller between calls).
    func cluster(radius: Double, xs: [Double], ys: [Double], owner: inout [Int32], centres: inout [Int32]) {
        let n = slotOf.count
        let records = self.records.base
        for k in 0..<self.records.count { records[k].owner = -1 }
        if owner.count == n {
            owner.withUnsafeMutableBufferPointer { owner in owner.update(repeating: -1) }
        } else {
            owner = [Int32](repeating: -1, count: n)
        }
        let searches = !radius.isNaN
        slotOf.withUnsafeBufferPointer { slotOf in
            xs.withUnsafeBufferPointer { xs in
                ys.withUnsafeBufferPointer { ys in
                    start.withUnsafeBufferPointer { start in
                        owner.withUnsafeMutableBufferPointer { owner in
                            for id in 0..<n {
                                // Every point a cluster took has its owner by id (set below), so this reads in order.
                                if owner[id] >= 0 || slotOf[id] == Self.removed { continue }
                                let c = Int32(centres.count)
                                centres.append(Int32(id))
                                let x = xs[id]
                                let y = ys[id]
                                guard x.isFinite && y.isFinite else {
                                    owner[id] = c
                                    continue
                                }
                                guard searches else { continue }
                                let minX = x - radius
                                let maxX = x + radius
                                let minY = y - radius
                                let maxY = y + radius
                                let c0 = Self.low((minX - originX) / cell, columns)
                                let c1 = Self.high((maxX - originX) / cell, columns)
                                let r0 = Self.low((minY - originY) / cell, rows)
                                let r1 = Self.high((maxY - originY) / cell, rows)
                                if c0 > c1 || r0 > r1 { continue }
                                for row in r0...r1 {
                                    let lo = Int(start[row * columns + c0])
                                    let hi = Int(start[row * columns + c1 + 1])
                                    for k in lo..<hi {
                                        let e = records[k]
                                        guard e.x >= minX && e.x <= maxX && e.y >= minY && e.y <= maxY else {
                                            continue
                                        }
                                        let dx = e.x - x
                                        let dy = e.y - y
                                        let d = dx * dx + dy * dy
                                        if e.owner >= 0 && e.distance < d { continue }
                                        records[k].distance = d
                                        records[k].owner = c
                                        owner[Int(e.id)] = c
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A point of a ``ClusterGrid``: where it is (GMSMapPoint units), its id, and during a clustering the cluster
/// claiming it (−1 for none) and the squared distance to that cluster's centre. 32 bytes.
struct GridRecord {
    var x: Double
    var y: Double
    var distance: Double
    var owner: Int32
    var id: Int32
}

/// A ``ClusterGrid``'s records, in memory aligned to 64 bytes (a record never straddles two cache lines).
final class GridRecords {
    let base: UnsafeMutablePointer<GridRecord>
    let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(
            byteCount: max(count, 1) * MemoryLayout<GridRecord>.stride, alignment: 64
        ).bindMemory(to: GridRecord.self, capacity: max(count, 1))
        base.initialize(repeating: GridRecord(x: 0, y: 0, distance: 0, owner: -1, id: 0), count: count)
    }

    deinit {
        base.deallocate()
    }
}

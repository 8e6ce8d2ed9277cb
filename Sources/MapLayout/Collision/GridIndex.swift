/// A uniform-grid spatial index of axis-aligned boxes and circles in screen space (points), for label collision.
///
/// The indexed region `[originX, originX + width] × [originY, originY + height]` is cut into square cells of
/// ``cellSize`` points. Each entry is stored once in flat storage (four `Double`s: a box's `minX, minY, maxX, maxY`,
/// or a circle's `x, y, radius, 0`), and its index (`UInt32`) is appended to the list of every cell its bounding box
/// touches. Entries and queries reaching outside the region are clamped to the border cells, so they are still found
/// (the border cells just get crowded). Queries stop at the first hit when only a yes/no answer is needed.
///
/// Intersection is strict: two boxes intersect when their open x intervals and open y intervals both overlap (the
/// rule of `RenderRect.intersects`, so boxes touching along an edge do not); two circles when the distance between
/// their centres is less than the sum of their radii; a circle and a box when the distance from the centre to the
/// nearest point of the box is less than the radius.
///
/// Default cell size 32 points: a typical 10–16 pt label (about 20 × 100 pt with padding) spans 2 × 4 cells, which
/// keeps both the per-insert cell writes and the per-query candidate lists short. Non-finite entries are ignored
/// and non-finite queries report no intersection; callers reject non-finite labels before querying.
///
/// Source: the idea of MapLibre's grid index (`maplibre-native:src/mbgl/util/grid_index.hpp`,
/// `maplibre-gl-js:src/symbol/grid_index.ts`), written from scratch. Thread rules: a value type; mutate from one
/// thread at a time.
public struct GridIndex: Sendable {
    /// The left edge of the indexed region, in points.
    public let originX: Double
    /// The top edge of the indexed region, in points.
    public let originY: Double
    /// The width of the indexed region in points (at least one cell).
    public let width: Double
    /// The height of the indexed region in points (at least one cell).
    public let height: Double
    /// The side of a square cell in points, `> 0`.
    public let cellSize: Double
    /// Cells across.
    let columns: Int
    /// Cells down.
    let rows: Int
    /// Four `Double`s per entry (box: minX, minY, maxX, maxY; circle: x, y, radius, 0).
    private var geometry: ContiguousArray<Double> = []
    /// One flag per entry: `true` for a circle.
    private var isCircle: ContiguousArray<Bool> = []
    /// The caller's key per entry.
    private var entryKeys: ContiguousArray<UInt32> = []
    /// Per cell (row-major), the indices of the entries touching it.
    private var cells: [ContiguousArray<UInt32>]

    /// Creates an empty index over a region.
    /// - Parameters:
    ///   - originX: left edge of the region in points. Defaults to 0.
    ///   - originY: top edge of the region in points. Defaults to 0.
    ///   - width: region width in points; non-finite or smaller values count as one cell.
    ///   - height: region height in points; non-finite or smaller values count as one cell.
    ///   - cellSize: cell side in points. Defaults to 32.
    /// - Precondition: `cellSize` is finite and `> 0`; the region has at most 4,194,304 cells.
    public init(originX: Double = 0, originY: Double = 0, width: Double, height: Double, cellSize: Double = 32) {
        precondition(cellSize.isFinite && cellSize > 0, "GridIndex cell size must be finite and > 0, got \(cellSize)")
        self.originX = originX.isFinite ? originX : 0
        self.originY = originY.isFinite ? originY : 0
        self.cellSize = cellSize
        let w = width.isFinite ? max(width, cellSize) : cellSize
        let h = height.isFinite ? max(height, cellSize) : cellSize
        precondition(
            (w / cellSize) * (h / cellSize) <= 4_194_304, "GridIndex region of \(w)×\(h) pt has too many cells")
        self.width = w
        self.height = h
        columns = Int((w / cellSize).rounded(.up))
        rows = Int((h / cellSize).rounded(.up))
        cells = Array(repeating: [], count: columns * rows)
    }

    /// The number of entries inserted since creation or the last ``removeAll()``.
    public var count: Int { entryKeys.count }

    /// Reserves flat storage for `entryCount` entries, so inserting that many does not reallocate it.
    public mutating func reserve(_ entryCount: Int) {
        guard entryCount > 0 else { return }
        geometry.reserveCapacity(entryCount * 4)
        isCircle.reserveCapacity(entryCount)
        entryKeys.reserveCapacity(entryCount)
    }

    /// Removes every entry and keeps the allocated storage (cell lists included) for the next frame.
    /// - Complexity: O(cells + entries).
    public mutating func removeAll() {
        geometry.removeAll(keepingCapacity: true)
        isCircle.removeAll(keepingCapacity: true)
        entryKeys.removeAll(keepingCapacity: true)
        for i in cells.indices where !cells[i].isEmpty { cells[i].removeAll(keepingCapacity: true) }
    }

    /// Inserts an axis-aligned box in points; a box with non-finite or inverted edges is ignored.
    /// - Parameters:
    ///   - minX: left edge.
    ///   - minY: top edge.
    ///   - maxX: right edge (`≥ minX`).
    ///   - maxY: bottom edge (`≥ minY`).
    ///   - key: the caller's identifier, returned by ``keysIntersecting(minX:minY:maxX:maxY:)``.
    /// - Returns: `true` when inserted, `false` when the box was ignored.
    /// - Complexity: O(cells covered by the box).
    @discardableResult
    public mutating func insertBox(minX: Double, minY: Double, maxX: Double, maxY: Double, key: UInt32) -> Bool {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX <= maxX, minY <= maxY else {
            return false
        }
        append(minX, minY, maxX, maxY, circle: false, key: key, bounds: (minX, minY, maxX, maxY))
        return true
    }

    /// Inserts a circle in points; a circle with a non-finite centre or a negative or non-finite radius is ignored.
    /// - Parameters:
    ///   - x: centre, points right.
    ///   - y: centre, points down.
    ///   - radius: `≥ 0` points.
    ///   - key: the caller's identifier, returned by ``keysIntersecting(minX:minY:maxX:maxY:)``.
    /// - Returns: `true` when inserted, `false` when the circle was ignored.
    /// - Complexity: O(cells covered by the circle's bounding box).
    @discardableResult
    public mutating func insertCircle(x: Double, y: Double, radius: Double, key: UInt32) -> Bool {
        guard x.isFinite, y.isFinite, radius.isFinite, radius >= 0 else { return false }
        append(x, y, radius, 0, circle: true, key: key, bounds: (x - radius, y - radius, x + radius, y + radius))
        return true
    }

    private mutating func append(
        _ a: Double, _ b: Double, _ c: Double, _ d: Double, circle: Bool, key: UInt32,
        bounds: (Double, Double, Double, Double)
    ) {
        precondition(entryKeys.count < Int(UInt32.max), "GridIndex holds at most 2^32 − 1 entries")
        let index = UInt32(entryKeys.count)
        geometry.append(a)
        geometry.append(b)
        geometry.append(c)
        geometry.append(d)
        isCircle.append(circle)
        entryKeys.append(key)
        let r = cellRange(bounds.0, bounds.1, bounds.2, bounds.3)
        for row in r.row0...r.row1 {
            let base = row * columns
            for column in r.column0...r.column1 { cells[base + column].append(index) }
        }
    }

    /// `true` when the box intersects any entry (see the type's rule).
    /// - Complexity: O(entries listed in the cells the box covers); stops at the first hit.
    public func intersectsBox(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX <= maxX, minY <= maxY else {
            return false
        }
        return firstHit(box: (minX, minY, maxX, maxY), circle: nil, bounds: (minX, minY, maxX, maxY)) != nil
    }

    /// `true` when the circle intersects any entry (see the type's rule).
    /// - Complexity: O(entries listed in the cells the circle's bounding box covers); stops at the first hit.
    public func intersectsCircle(x: Double, y: Double, radius: Double) -> Bool {
        guard x.isFinite, y.isFinite, radius.isFinite, radius >= 0 else { return false }
        return firstHit(box: nil, circle: (x, y, radius), bounds: (x - radius, y - radius, x + radius, y + radius))
            != nil
    }

    /// The keys of every entry the box overlaps, one per entry, in insertion order.
    /// - Complexity: O(k log k) for the k entries listed in the cells the box covers.
    public func keysIntersecting(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [UInt32] {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX <= maxX, minY <= maxY else {
            return []
        }
        return allHits(box: (minX, minY, maxX, maxY), circle: nil, bounds: (minX, minY, maxX, maxY))
    }

    /// The keys of every entry the circle overlaps, one per entry, in insertion order.
    /// - Complexity: O(k log k) for the k entries listed in the cells the circle's bounding box covers.
    public func keysIntersecting(circleX x: Double, y: Double, radius: Double) -> [UInt32] {
        guard x.isFinite, y.isFinite, radius.isFinite, radius >= 0 else { return [] }
        return allHits(box: nil, circle: (x, y, radius), bounds: (x - radius, y - radius, x + radius, y + radius))
    }

    // MARK: - Internals

    private func cellRange(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> (
        column0: Int, row0: Int, column1: Int, row1: Int
    ) {
        // Clamp in floating point first: converting a huge Double to Int would trap.
        func cell(_ v: Double, _ origin: Double, _ count: Int) -> Int {
            Int(min(max(((v - origin) / cellSize).rounded(.down), 0), Double(count - 1)))
        }
        return (
            cell(minX, originX, columns), cell(minY, originY, rows), cell(maxX, originX, columns),
            cell(maxY, originY, rows)
        )
    }

    /// Whether entry `i` overlaps the query (exactly one of `box`/`circle` is set).
    @inline(__always)
    private func overlaps(
        _ i: Int, _ g: UnsafeBufferPointer<Double>, box: (Double, Double, Double, Double)?,
        circle: (Double, Double, Double)?
    ) -> Bool {
        let a = g[4 * i]
        let b = g[4 * i + 1]
        let c = g[4 * i + 2]
        let d = g[4 * i + 3]
        if isCircle[i] {
            if let q = box { return circleOverlapsBox(a, b, c, q) }
            let q = circle!
            let dx = a - q.0
            let dy = b - q.1
            let r = c + q.2
            return dx * dx + dy * dy < r * r
        }
        if let q = box { return a < q.2 && q.0 < c && b < q.3 && q.1 < d }
        let q = circle!
        return circleOverlapsBox(q.0, q.1, q.2, (a, b, c, d))
    }

    private func firstHit(
        box: (Double, Double, Double, Double)?, circle: (Double, Double, Double)?,
        bounds: (Double, Double, Double, Double)
    ) -> UInt32? {
        guard !entryKeys.isEmpty else { return nil }
        let r = cellRange(bounds.0, bounds.1, bounds.2, bounds.3)
        return geometry.withUnsafeBufferPointer { g -> UInt32? in
            for row in r.row0...r.row1 {
                for column in r.column0...r.column1 {
                    for index in cells[row * columns + column] where overlaps(Int(index), g, box: box, circle: circle) {
                        return entryKeys[Int(index)]
                    }
                }
            }
            return nil
        }
    }

    private func allHits(
        box: (Double, Double, Double, Double)?, circle: (Double, Double, Double)?,
        bounds: (Double, Double, Double, Double)
    ) -> [UInt32] {
        guard !entryKeys.isEmpty else { return [] }
        let r = cellRange(bounds.0, bounds.1, bounds.2, bounds.3)
        var found: [UInt32] = []
        geometry.withUnsafeBufferPointer { g in
            for row in r.row0...r.row1 {
                for column in r.column0...r.column1 {
                    for index in cells[row * columns + column] where overlaps(Int(index), g, box: box, circle: circle) {
                        found.append(index)
                    }
                }
            }
        }
        found.sort()
        var keys: [UInt32] = []
        keys.reserveCapacity(found.count)
        var previous: UInt32?
        for index in found where index != previous {
            keys.append(entryKeys[Int(index)])
            previous = index
        }
        return keys
    }
}

/// Whether the box `(minX, minY, maxX, maxY)` comes closer than `r` to the point `(x, y)`.
@inline(__always)
func circleOverlapsBox(_ x: Double, _ y: Double, _ r: Double, _ box: (Double, Double, Double, Double)) -> Bool {
    let nx = min(max(x, box.0), box.2) - x
    let ny = min(max(y, box.1), box.3) - y
    return nx * nx + ny * ny < r * r
}

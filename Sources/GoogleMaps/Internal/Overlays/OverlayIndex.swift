import MapGeometry

/// A loose multi-level grid over the world square for the overlay stage: each of an overlay's boxes (its bounds, or
/// for long lines the bounds of runs of points) is filed at the finest level (0…24, level L having 2^L × 2^L cells) at
/// which it spans at most two cells each way, in the cell of its top-left corner (x wrapped). A box query visits, per level, the cells that can hold an overlay meeting the
/// box (its range grown by two cells on the low side), or that level's whole member list when that is shorter, then
/// keeps the overlays whose bounds really meet the box on some world copy.
/// - Complexity: insert and remove O(cell size); a small query O(25 levels × 3 × 3 cells + hits).
struct OverlayIndex {
    static let maximumLevel = 24
    private struct Filed {
        var level: Int
        var key: Int
    }
    private var cells: [[Int: [(ObjectIdentifier, OverlayBounds)]]] = Array(repeating: [:], count: maximumLevel + 1)
    private var members: [[ObjectIdentifier: [OverlayBounds]]] = Array(repeating: [:], count: maximumLevel + 1)
    private var boxCount = [Int](repeating: 0, count: maximumLevel + 1)
    private var filed: [ObjectIdentifier: [Filed]] = [:]

    /// Number of overlays indexed.
    var count: Int { filed.count }

    private static func key(_ x: Int, _ y: Int, level: Int) -> Int {
        let n = 1 << level
        return (((y % n) + n) % n) * n + (((x % n) + n) % n)
    }

    /// Files `id` under `boxes` (replacing an earlier filing).
    mutating func insert(_ id: ObjectIdentifier, boxes: [OverlayBounds]) {
        remove(id)
        var filings: [Filed] = []
        for bounds in boxes {
            let w = max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY)
            var level = 0
            if w > 0 && w.isFinite {
                // 2^L · w ≤ 1 cell of extent beyond the corner cell: at most two cells each way.
                level = min(Self.maximumLevel, max(0, Int((-log2(w)).rounded(.down))))
            } else if w == 0 {
                level = Self.maximumLevel
            }
            let n = Double(1 << level)
            let cx = Int((bounds.minX * n).rounded(.down))
            let cy = min(max(Int((bounds.minY * n).rounded(.down)), 0), (1 << level) - 1)
            let key = Self.key(cx, cy, level: level)
            cells[level][key, default: []].append((id, bounds))
            members[level][id, default: []].append(bounds)
            boxCount[level] += 1
            filings.append(Filed(level: level, key: key))
        }
        filed[id] = filings
    }

    /// Forgets `id`.
    mutating func remove(_ id: ObjectIdentifier) {
        guard let filings = filed.removeValue(forKey: id) else { return }
        for f in filings {
            cells[f.level][f.key]?.removeAll { $0.0 == id }
            if cells[f.level][f.key]?.isEmpty == true { cells[f.level][f.key] = nil }
            if let removed = members[f.level].removeValue(forKey: id) { boxCount[f.level] -= removed.count }
        }
    }

    /// Forgets everything.
    mutating func removeAll() { self = OverlayIndex() }

    /// Whether `b` meets the box on some world copy.
    static func meets(_ b: OverlayBounds, _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> Bool {
        guard b.maxY >= minY, b.minY <= maxY else { return false }
        return (minX - b.maxX).rounded(.up) <= (maxX - b.minX).rounded(.down)
    }

    /// The overlays with a box meeting the query box (world units, x unwrapped) on some world copy, each once, in no
    /// order.
    func query(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [ObjectIdentifier] {
        var seen = Set<ObjectIdentifier>()
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return [] }
        for level in 0...Self.maximumLevel where boxCount[level] > 0 {
            let n = Double(1 << level)
            let x0 = Int((minX * n).rounded(.down)) - 2
            let x1 = Int((maxX * n).rounded(.down))
            let y0 = max(Int((minY * n).rounded(.down)) - 2, 0)
            let y1 = min(Int((maxY * n).rounded(.down)), (1 << level) - 1)
            let columns = min(x1 - x0 + 1, 1 << level)
            let rows = y1 - y0 + 1
            guard rows > 0 else { continue }
            if columns * rows > boxCount[level] {
                for (id, boxes) in members[level] where !seen.contains(id) {
                    if boxes.contains(where: { Self.meets($0, minX, minY, maxX, maxY) }) { seen.insert(id) }
                }
                continue
            }
            for y in y0...y1 {
                for x in x0..<(x0 + columns) {
                    guard let filed = cells[level][Self.key(x, y, level: level)] else { continue }
                    for (id, b) in filed where Self.meets(b, minX, minY, maxX, maxY) { seen.insert(id) }
                }
            }
        }
        return Array(seen)
    }
}

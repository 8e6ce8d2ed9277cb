// A static 3-d tree over unit vectors for nearest-neighbour and radius queries on the sphere.

/// A static k-d tree (k = 3) over points on the unit sphere, answering nearest-neighbour and within-radius queries by
/// chord length, which orders points exactly as great-circle distance does (see ``UnitVector``).
///
/// Layout (as in kdbush, one flat array): the points are permuted so that every range `[lo, hi]` of the array is a
/// node whose median element `m = (lo + hi) / 2` splits the range on axis `depth % 3`: elements of `[lo, m)` are ≤ it
/// on that axis and elements of `(m, hi]` are ≥ it. Ranges of at most ``leafSize`` points are scanned linearly.
///
/// Ties (equal chord length) go to the point with the smaller original index, so answers are deterministic and equal
/// to a brute-force scan with the same rule.
/// - Thread rules: immutable after `init`; safe to query from any thread.
package struct KDTree: Sendable {
    /// Ranges this small are leaves, scanned linearly.
    package static let leafSize = 8

    /// Point coordinates in tree order, x y z interleaved.
    private var coordinates: [Double]
    /// Original index of each point in tree order.
    private var indices: [Int32]

    /// Number of points.
    package var count: Int { indices.count }

    /// Builds the tree from `points`; the answers refer to positions in this array.
    /// - Complexity: O(n log n) expected.
    /// - Precondition: fewer than 2³¹ points.
    package init(points: [UnitVector]) {
        precondition(points.count < Int(Int32.max), "KDTree: too many points (\(points.count))")
        var coords = [Double](repeating: 0, count: points.count * 3)
        var ids = [Int32](repeating: 0, count: points.count)
        for (i, p) in points.enumerated() {
            coords[3 * i] = p.x
            coords[3 * i + 1] = p.y
            coords[3 * i + 2] = p.z
            ids[i] = Int32(i)
        }
        coordinates = coords
        indices = ids
        if !points.isEmpty {
            coordinates.withUnsafeMutableBufferPointer { c in
                indices.withUnsafeMutableBufferPointer { ix in
                    Self.build(c, ix, lo: 0, hi: points.count - 1, axis: 0)
                }
            }
        }
    }

    private static func build(
        _ c: UnsafeMutableBufferPointer<Double>, _ ix: UnsafeMutableBufferPointer<Int32>, lo: Int, hi: Int, axis: Int
    ) {
        if hi - lo < leafSize { return }
        let m = (lo + hi) >> 1
        select(c, ix, k: m, lo: lo, hi: hi, axis: axis)
        build(c, ix, lo: lo, hi: m - 1, axis: (axis + 1) % 3)
        build(c, ix, lo: m + 1, hi: hi, axis: (axis + 1) % 3)
    }

    /// Quickselect: rearranges `[lo, hi]` so that element `k` is the one a sort on `axis` would put there, with
    /// smaller-or-equal values before it and greater-or-equal after it. Deterministic (median-of-three pivot).
    private static func select(
        _ c: UnsafeMutableBufferPointer<Double>, _ ix: UnsafeMutableBufferPointer<Int32>, k: Int, lo: Int, hi: Int,
        axis: Int
    ) {
        var lo = lo
        var hi = hi
        @inline(__always) func key(_ i: Int) -> Double { c[3 * i + axis] }
        @inline(__always) func swapAt(_ i: Int, _ j: Int) {
            if i == j { return }
            for a in 0..<3 { c.swapAt(3 * i + a, 3 * j + a) }
            ix.swapAt(i, j)
        }
        while hi > lo {
            let mid = (lo + hi) >> 1
            // Median of three into position `hi` as the pivot.
            if key(mid) < key(lo) { swapAt(mid, lo) }
            if key(hi) < key(lo) { swapAt(hi, lo) }
            if key(mid) < key(hi) { swapAt(mid, hi) }
            let pivot = key(hi)
            var store = lo
            for i in lo..<hi where key(i) < pivot {
                swapAt(i, store)
                store += 1
            }
            swapAt(store, hi)
            if store == k { return }
            if store < k { lo = store + 1 } else { hi = store - 1 }
        }
    }

    /// The nearest point to `query` by chord length, if any lies within `maxSquaredChord`.
    /// - Parameters:
    ///   - query: the query point.
    ///   - maxSquaredChord: the largest squared chord accepted, in [0, 4]; 4 (the default) accepts any point.
    /// - Returns: the original index of the nearest point and its squared chord, or `nil` when the tree is empty or
    ///   nothing lies within the limit. Ties go to the smaller index.
    /// - Complexity: O(log n) expected for well-spread points.
    package func nearest(to query: UnitVector, maxSquaredChord: Double = 4) -> (index: Int, squaredChord: Double)? {
        guard !indices.isEmpty else { return nil }
        var bestIndex: Int32 = -1
        var best = maxSquaredChord
        let q = (query.x, query.y, query.z)
        coordinates.withUnsafeBufferPointer { c in
            indices.withUnsafeBufferPointer { ix in
                func consider(_ i: Int) {
                    let dx = c[3 * i] - q.0
                    let dy = c[3 * i + 1] - q.1
                    let dz = c[3 * i + 2] - q.2
                    let d = dx * dx + dy * dy + dz * dz
                    if d < best || (d == best && (bestIndex < 0 || ix[i] < bestIndex)) {
                        best = d
                        bestIndex = ix[i]
                    }
                }
                func visit(lo: Int, hi: Int, axis: Int) {
                    if hi - lo < Self.leafSize {
                        if lo <= hi { for i in lo...hi { consider(i) } }
                        return
                    }
                    let m = (lo + hi) >> 1
                    consider(m)
                    let qa = axis == 0 ? q.0 : (axis == 1 ? q.1 : q.2)
                    let delta = qa - c[3 * m + axis]
                    let next = (axis + 1) % 3
                    if delta <= 0 {
                        visit(lo: lo, hi: m - 1, axis: next)
                        if delta * delta <= best { visit(lo: m + 1, hi: hi, axis: next) }
                    } else {
                        visit(lo: m + 1, hi: hi, axis: next)
                        if delta * delta <= best { visit(lo: lo, hi: m - 1, axis: next) }
                    }
                }
                visit(lo: 0, hi: indices.count - 1, axis: 0)
            }
        }
        return bestIndex < 0 ? nil : (Int(bestIndex), best)
    }

    /// Calls `body` with every point whose squared chord to `query` is at most `maxSquaredChord`, in tree order.
    /// - Parameters:
    ///   - maxSquaredChord: the squared radius, in [0, 4].
    ///   - query: the query point.
    ///   - body: receives the original index and the squared chord of each point found.
    /// - Complexity: O(log n + k) expected for k points found.
    package func forEach(
        within maxSquaredChord: Double, of query: UnitVector, _ body: (_ index: Int, _ squaredChord: Double) -> Void
    ) {
        guard !indices.isEmpty else { return }
        let q = (query.x, query.y, query.z)
        coordinates.withUnsafeBufferPointer { c in
            indices.withUnsafeBufferPointer { ix in
                func consider(_ i: Int) {
                    let dx = c[3 * i] - q.0
                    let dy = c[3 * i + 1] - q.1
                    let dz = c[3 * i + 2] - q.2
                    let d = dx * dx + dy * dy + dz * dz
                    if d <= maxSquaredChord { body(Int(ix[i]), d) }
                }
                func visit(lo: Int, hi: Int, axis: Int) {
                    if hi - lo < Self.leafSize {
                        if lo <= hi { for i in lo...hi { consider(i) } }
                        return
                    }
                    let m = (lo + hi) >> 1
                    consider(m)
                    let qa = axis == 0 ? q.0 : (axis == 1 ? q.1 : q.2)
                    let delta = qa - c[3 * m + axis]
                    let next = (axis + 1) % 3
                    if delta <= 0 || delta * delta <= maxSquaredChord { visit(lo: lo, hi: m - 1, axis: next) }
                    if delta >= 0 || delta * delta <= maxSquaredChord { visit(lo: m + 1, hi: hi, axis: next) }
                }
                visit(lo: 0, hi: indices.count - 1, axis: 0)
            }
        }
    }
}

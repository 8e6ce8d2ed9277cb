// The scan converter of ``ExtrusionRaster``'s faces, shared by the plain fill (FillExtrusionLayers.swift) and the
// patterned one (ExtrusionPatterns.swift): which device pixels a planar face covers (pixel centres inside its rings,
// even-odd, not anti-aliased), and the affine functions of the screen position it interpolates over them.

extension ExtrusionRaster {
    /// A ring edge as the scan converter walks it: its first end point in ring order and its extent to the second (the
    /// crossing with a row is computed from them), and the rows whose centres it crosses.
    struct ScanEdge {
        var px: Double
        var py: Double
        /// The second end point less the first (`q − p`), worked out once for the rows it crosses.
        var dx: Double
        var dy: Double
        var first: Int
        var last: Int
    }

    /// The smallest integer `≥ v`, for finite `v` of magnitude below 2^62 (`ceil` without the library call).
    @inline(__always) static func ceiling(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) < v ? t + 1 : t
    }

    /// The largest integer `≤ v`, for finite `v` of magnitude below 2^62.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    /// The vertices (`0`, `i`, `j`) that span the largest triangle with the first vertex (among the first 64 pairs'
    /// rows for longer rings), or `nil` when the face has about no area: its plane is fitted to them.
    static func spanningTriangle(_ all: UnsafeBufferPointer<Vertex>) -> (Int, Int, Int)? {
        guard all.count >= 3 else { return nil }
        var best = (0, 1, 2, 0.0)
        let p0 = all[0]
        for i in 1..<all.count {
            for j in (i + 1)..<all.count {
                let area = abs((all[i].x - p0.x) * (all[j].y - p0.y) - (all[j].x - p0.x) * (all[i].y - p0.y))
                if area > best.3 { best = (0, i, j, area) }
            }
            if all.count > 64 { break }
        }
        return best.3 > 1e-9 ? (best.0, best.1, best.2) : nil
    }

    /// The affine function `f = px · x + py · y + p0` of the screen position that takes the values `fa`, `fb`, `fc`
    /// at `a`, `b`, `c`, as `(px, py, p0)`.
    @inline(__always) static func plane(
        _ a: Vertex, _ b: Vertex, _ c: Vertex, _ fa: Double, _ fb0: Double, _ fc0: Double
    ) -> (Double, Double, Double) {
        let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
        let fb = fb0 - fa
        let fc = fc0 - fa
        let px = (fb * (c.y - a.y) - fc * (b.y - a.y)) / det
        let py = ((b.x - a.x) * fc - (c.x - a.x) * fb) / det
        return (px, py, fa - px * a.x - py * a.y)
    }

    /// The frame's rows whose pixel centres the face's vertices span, or `nil` when it covers no pixel of the frame:
    /// none of those rows, or it lies more than a pixel left or right of the frame (a crossing interpolated between
    /// two vertices lies between them up to rounding), or a vertex is not finite.
    func rows(of all: UnsafeBufferPointer<Vertex>) -> ClosedRange<Int>? {
        Self.rows(of: all, width: width, height: height)
    }

    /// ``rows(of:)`` in a `width × height` frame.
    static func rows(of all: UnsafeBufferPointer<Vertex>, width: Int, height: Int) -> ClosedRange<Int>? {
        guard let first = all.first else { return nil }
        var (lowX, highX, lowY, highY) = (first.x, first.x, first.y, first.y)
        for v in all {
            lowX = min(lowX, v.x)
            highX = max(highX, v.x)
            lowY = min(lowY, v.y)
            highY = max(highY, v.y)
        }
        guard lowX.isFinite, highX.isFinite, lowY.isFinite, highY.isFinite, highX > -0.5,
            lowX < Double(width) + 0.5, highY > -1, lowY < Double(height) + 1
        else { return nil }
        let minY = lowY - 0.5 <= 0 ? 0 : Self.ceiling(lowY - 0.5)
        let maxY = highY - 0.5 >= Double(height - 1) ? height - 1 : Self.floor(highY - 0.5)
        return minY <= maxY ? minY...maxY : nil
    }

    /// Calls `span(row, cy, x0, x1)` for every run `x0...x1` of the frame's pixels in `rows` whose centres
    /// (`x + 0.5`, `cy = row + 0.5`) lie inside the rings of `all` ending at `ends` (even-odd), with the raster's
    /// own scratch storage (``scanScratch``): ``scan(_:_:rows:width:scratch:_:)``.
    @inline(__always) func scan(
        _ all: UnsafeBufferPointer<Vertex>, _ ends: UnsafeBufferPointer<Int>, rows: ClosedRange<Int>,
        _ span: (_ row: Int, _ cy: Double, _ x0: Int, _ x1: Int) -> Void
    ) {
        Self.scan(all, ends, rows: rows, width: width, scratch: scanScratch, span)
    }

    /// Calls `span(row, cy, x0, x1)` for every run `x0...x1` of a `width`-pixel frame's pixels in `rows` whose
    /// centres (`x + 0.5`, `cy = row + 0.5`) lie inside the rings of `all` ending at `ends` (even-odd): between the
    /// first and second crossing of the row with the rings' edges, the third and fourth, and so on. `scratch` is
    /// used by this call alone while it runs (one per thread scanning).
    ///
    /// Each edge's crossing with a row is `p.x + (cy − p.y) / (q.y − p.y) · (q.x − p.x)` for its end points in ring
    /// order, computed only for the rows the edge crosses (`min(p.y, q.y) ≤ cy < max(p.y, q.y)`); a run is the pixels
    /// from `⌈a − ½⌉` to `⌈b − ½⌉ − 1` of crossings `a ≤ b`.
    @inline(__always) static func scan(
        _ all: UnsafeBufferPointer<Vertex>, _ ends: UnsafeBufferPointer<Int>, rows: ClosedRange<Int>, width: Int,
        scratch: ScanScratch, _ span: (_ row: Int, _ cy: Double, _ x0: Int, _ x1: Int) -> Void
    ) {
        let (minY, maxY) = (rows.lowerBound, rows.upperBound)
        // A ring of n vertices has at most n edges: room for all of them, those crossing a row and its crossings.
        scratch.reserve(all.count)
        let edges = scratch.edges
        var edgeCount = 0
        var start = 0
        for end in ends {
            if end - start >= 2 {
                var p = all[end - 1]
                for k in start..<end {
                    let q = all[k]
                    defer { p = q }
                    let lo = min(p.y, q.y)
                    let hi = max(p.y, q.y)
                    guard lo < hi else { continue }
                    // The first row whose centre is at or below `lo`, the last one whose centre is above `hi`
                    // (estimated, then settled with the comparison the crossing test makes).
                    var first = lo - 0.5 <= Double(minY) ? minY : Self.ceiling(min(lo - 0.5, Double(maxY + 1)))
                    while first > minY && Double(first - 1) + 0.5 >= lo { first -= 1 }
                    while first <= maxY && Double(first) + 0.5 < lo { first += 1 }
                    var last = hi - 0.5 > Double(maxY) ? maxY : Self.ceiling(max(hi - 0.5, Double(minY - 1))) - 1
                    while last < maxY && Double(last + 1) + 0.5 < hi { last += 1 }
                    while last >= minY && Double(last) + 0.5 >= hi { last -= 1 }
                    guard first <= last else { continue }
                    edges[edgeCount] = ScanEdge(
                        px: p.x, py: p.y, dx: q.x - p.x, dy: q.y - p.y, first: first, last: last)
                    edgeCount += 1
                }
            }
            start = end
        }
        guard edgeCount >= 2 else { return }
        // By first row (insertion sort: faces have few edges, and those of a roof come mostly in order).
        for i in 1..<edgeCount {
            let e = edges[i]
            var j = i
            while j > 0 && edges[j - 1].first > e.first {
                edges[j] = edges[j - 1]
                j -= 1
            }
            edges[j] = e
        }
        @inline(__always) func run(_ a: Double, _ b: Double, _ row: Int, _ cy: Double) {
            let l = a - 0.5
            let r = b - 0.5
            let x0 = l <= 0 ? 0 : l >= Double(width) ? width : Self.ceiling(l)
            let x1 = r > Double(width) ? width - 1 : r <= 0 ? -1 : Self.ceiling(r) - 1
            if x0 <= x1 { span(row, cy, x0, x1) }
        }
        // The active edges and the row's crossings (a row crosses at most all the edges).
        let active = scratch.active
        let crossings = scratch.crossings
        var next = 0
        var count = 0
        for row in minY...maxY {
            let cy = Double(row) + 0.5
            var kept = 0
            for j in 0..<count where edges[active[j]].last >= row {
                active[kept] = active[j]
                kept += 1
            }
            count = kept
            while next < edgeCount && edges[next].first == row {
                active[count] = next
                count += 1
                next += 1
            }
            // `p.x + (cy − p.y) / (q.y − p.y) · (q.x − p.x)`.
            @inline(__always) func crossing(_ e: ScanEdge) -> Double {
                e.px + (cy - e.py) / e.dy * e.dx
            }
            if count == 2 {
                let a = crossing(edges[active[0]])
                let b = crossing(edges[active[1]])
                run(min(a, b), max(a, b), row, cy)
                continue
            }
            guard count > 2 else { continue }
            for n in 0..<count {
                let x = crossing(edges[active[n]])
                var k = n
                while k > 0 && crossings[k - 1] > x {
                    crossings[k] = crossings[k - 1]
                    k -= 1
                }
                crossings[k] = x
            }
            var k = 0
            while k + 1 < count {
                run(crossings[k], crossings[k + 1], row, cy)
                k += 2
            }
        }
    }

    /// The scan converter's scratch storage (``scan(_:_:rows:width:scratch:_:)``): a face's edges, those crossing
    /// the row, and the row's crossings, room for ``capacity`` each. Used by one thread at a time: each thread
    /// drawing bands has its own (``BandWorker``).
    final class ScanScratch {
        private(set) var edges = UnsafeMutablePointer<ScanEdge>.allocate(capacity: 1)
        private(set) var active = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        private(set) var crossings = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        private(set) var capacity = 1

        init() {}

        deinit {
            edges.deallocate()
            active.deallocate()
            crossings.deallocate()
        }

        /// Makes room for at least `count` of each (what was in them is dropped).
        @inline(__always) func reserve(_ count: Int) {
            guard count > capacity else { return }
            grow(count)
        }

        private func grow(_ count: Int) {
            edges.deallocate()
            active.deallocate()
            crossings.deallocate()
            capacity = max(count, 2 * capacity)
            edges = .allocate(capacity: capacity)
            active = .allocate(capacity: capacity)
            crossings = .allocate(capacity: capacity)
        }
    }
}

extension ExtrusionProjector {
    /// Whether the solid over the tile-unit box `minX…maxX × minY…maxY` from `base` to `height` metres, shifted on
    /// the ground by `ground` world points, certainly covers no pixel of a `width × height` device-pixel frame at
    /// `scale`: the box's eight corners are in front of the near plane and project more than a pixel outside one of
    /// the frame's sides (a solid in front of the camera projects inside the hull of its box's corners).
    func missesFrame(
        minX: Double, minY: Double, maxX: Double, maxY: Double, base: Double, height: Double,
        ground: (Double, Double), scale: Double, frameWidth: Int, frameHeight: Int
    ) -> Bool {
        let near = nearDepth
        let d = camera.distance
        let (ocx, ocy) = (camera.opticalCenter.x, camera.opticalCenter.y)
        var (lowX, highX, lowY, highY) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for corner in 0..<8 {
            let p = cameraPoint(
                corner & 1 == 0 ? minX : maxX, corner & 2 == 0 ? minY : maxY,
                meters: corner & 4 == 0 ? base : height, ground: ground)
            guard p.depth >= near, p.depth.isFinite else { return false }
            let k = d / p.depth
            let x = (ocx + p.x * k) * scale
            let y = (ocy + p.y * k) * scale
            lowX = min(lowX, x)
            highX = max(highX, x)
            lowY = min(lowY, y)
            highY = max(highY, y)
        }
        return highX < -1 || lowX > Double(frameWidth) + 1 || highY < -1 || lowY > Double(frameHeight) + 1
    }
}

/// Clips a decoded geometry to the square `−buffer … extent + buffer` (tile units, both axes, edges inclusive).
///
/// Tiles carry geometry past their edge (the *buffer*, typically 64–128 units of a 4096 extent) so strokes and labels
/// join across tiles; a renderer clips to the extent plus the buffer it draws with.
/// - Points outside the square are dropped.
/// - Line strings are clipped segment by segment (Liang–Barsky); a line that leaves and re-enters the square becomes
///   several line strings. Line strings left with < 2 distinct points are dropped.
/// - Polygon rings are clipped with Sutherland–Hodgman against the four edges, which keeps each ring's winding;
///   rings left with < 3 distinct points or zero area are dropped, and a polygon whose exterior ring disappears is
///   dropped with its holes. A concave ring crossing the square twice may gain zero-width edges along the border,
///   which fill correctly with the non-zero or even-odd rule.
///
/// New vertices on the border are rounded to the nearest tile unit.
/// - Parameters:
///   - geometry: geometry in tile units (as decoded).
///   - extent: the layer extent, ≥ 1.
///   - buffer: the margin in tile units kept beyond each edge, ≥ 0 (use 0 to clip exactly to the tile).
/// - Returns: the clipped geometry of the same kind (possibly with empty arrays).
/// - Precondition: `1 <= extent <= Int32.max` and `0 <= buffer <= Int32.max`.
public func clipGeometry(_ geometry: VectorTileGeometry, extent: Int, buffer: Int) -> VectorTileGeometry {
    precondition(
        extent >= 1 && extent <= Int(Int32.max) && buffer >= 0 && buffer <= Int(Int32.max),
        "clipGeometry needs 1 ≤ extent ≤ Int32.max and 0 ≤ buffer ≤ Int32.max")
    return clip(geometry, box: ClipBox(min: Double(-buffer), max: Double(extent + buffer)), increasing: true) {
        (Double($0.x), Double($0.y))
    }
}

/// Maps an ancestor tile's geometry into an over-zoomed descendant's tile coordinates and clips it there.
///
/// Each point `p` becomes `p · scale − offset · extent` (see ``OverzoomTransform``), computed in `Double`, then the
/// result is clipped to `−buffer … extent + buffer` exactly as ``clipGeometry(_:extent:buffer:)`` does, so the output
/// stays in `Int32` however deep the over-zoom. Vertices are rounded to whole units of the descendant tile.
/// - Parameters:
///   - geometry: geometry decoded from `transform.source`, in its tile units.
///   - transform: from ``overzoomPlan(for:minZoom:maxZoom:)``.
///   - extent: the layer extent, `1...Int32.max`.
///   - buffer: the margin kept beyond each edge of the requested tile, in its units, `0...Int32.max`.
/// - Returns: the part of the geometry that falls in the requested tile (plus buffer), in its coordinates.
public func overzoomGeometry(
    _ geometry: VectorTileGeometry, transform: OverzoomTransform, extent: Int, buffer: Int
) -> VectorTileGeometry {
    precondition(
        extent >= 1 && extent <= Int(Int32.max) && buffer >= 0 && buffer <= Int(Int32.max),
        "overzoomGeometry needs 1 ≤ extent ≤ Int32.max and 0 ≤ buffer ≤ Int32.max")
    let box = ClipBox(min: Double(-buffer), max: Double(extent + buffer))
    return clip(geometry, box: box, increasing: transform.scale > 0) {
        transform.apply(x: Double($0.x), y: Double($0.y), extent: extent)
    }
}

/// `increasing`: `map` increases along each axis, so lines and rings can be dropped by their bounds.
private func clip(
    _ geometry: VectorTileGeometry, box: ClipBox, increasing: Bool, map: (VectorTilePoint) -> (Double, Double)
) -> VectorTileGeometry {
    switch geometry {
    case .unknown:
        return .unknown
    case .points(let points):
        return .points(points.map(map).filter { box.contains($0) }.map { ClipBox.point($0.0, $0.1) })
    case .lineStrings(let lines):
        // A line whose bounds stay a unit or more outside the box has no segment in it (over-zoomed tiles: most of
        // the ancestor's lines), so it is dropped without being mapped point by point.
        return .lineStrings(
            lines.flatMap { line in
                guard increasing, let bounds = ClipBox.bounds(of: line, map: map) else {
                    return box.clipLine(line.map(map))
                }
                if box.isOutside(bounds, by: 1) { return [] }
                // Wholly inside: every segment is kept whole, so the clip is the rounding alone.
                return box.holds(bounds) ? ClipBox.roundedLine(line.map(map)) : box.clipLine(line.map(map))
            })
    case .polygons(let polygons):
        var result: [[[VectorTilePoint]]] = []
        for polygon in polygons {
            guard let exterior = polygon.first, let clipped = box.clipRing(exterior, increasing: increasing, map: map)
            else { continue }
            var out = [clipped]
            for hole in polygon.dropFirst() {
                if let h = box.clipRing(hole, increasing: increasing, map: map) { out.append(h) }
            }
            result.append(out)
        }
        return .polygons(result)
    }
}

struct ClipBox {
    var min: Double
    var max: Double

    func contains(_ p: (Double, Double)) -> Bool {
        p.0 >= min && p.0 <= max && p.1 >= min && p.1 <= max
    }

    /// The bounds of `points` mapped, as its lowest and highest corners, or `nil` for no points. `map` must increase
    /// along each axis (a positive scale and a shift, as both callers' maps are), so the bounds of the raw points map
    /// to the bounds of the mapped ones.
    static func bounds(of points: [VectorTilePoint], map: (VectorTilePoint) -> (Double, Double))
        -> (low: (Double, Double), high: (Double, Double))?
    {
        guard var minX = points.first?.x, var minY = points.first?.y else { return nil }
        var maxX = minX
        var maxY = minY
        for p in points {
            if p.x < minX { minX = p.x } else if p.x > maxX { maxX = p.x }
            if p.y < minY { minY = p.y } else if p.y > maxY { maxY = p.y }
        }
        return (map(VectorTilePoint(x: minX, y: minY)), map(VectorTilePoint(x: maxX, y: maxY)))
    }

    /// Whether every point within `bounds` lies more than `margin` beyond one and the same edge of the box.
    func isOutside(_ bounds: (low: (Double, Double), high: (Double, Double)), by margin: Double) -> Bool {
        bounds.high.0 < min - margin || bounds.low.0 > max + margin || bounds.high.1 < min - margin
            || bounds.low.1 > max + margin
    }

    /// Whether every point within `bounds` is inside the box (edges included), so no clip edge cuts it.
    func holds(_ bounds: (low: (Double, Double), high: (Double, Double))) -> Bool {
        bounds.low.0 >= min && bounds.high.0 <= max && bounds.low.1 >= min && bounds.high.1 <= max
    }

    static func point(_ x: Double, _ y: Double) -> VectorTilePoint {
        VectorTilePoint(x: Int32(clamping: Int64(rounded(x))), y: Int32(clamping: Int64(rounded(y))))
    }

    /// `v.rounded()`, bit for bit, without the C library call (``Double/roundedHalfAwayFromZero``).
    @inline(__always) static func rounded(_ v: Double) -> Double { v.roundedHalfAwayFromZero }

    /// A line with every segment inside the box, as ``clipLine(_:)`` leaves it: its points rounded, repeats
    /// dropped, and nothing when fewer than two remain.
    static func roundedLine(_ line: [(Double, Double)]) -> [[VectorTilePoint]] {
        var current: [VectorTilePoint] = []
        current.reserveCapacity(line.count)
        for (x, y) in line {
            let p = point(x, y)
            if current.last != p { current.append(p) }
        }
        return current.count >= 2 ? [current] : []
    }

    /// `ring` mapped and clipped (``clipRing(_:)``); with an increasing `map`, a ring wholly beyond one edge is
    /// dropped before mapping (that edge's pass would clip it all away) and one wholly inside skips the passes
    /// (they would keep every point).
    func clipRing(_ ring: [VectorTilePoint], increasing: Bool, map: (VectorTilePoint) -> (Double, Double))
        -> [VectorTilePoint]?
    {
        guard increasing, let bounds = Self.bounds(of: ring, map: map) else { return clipRing(ring.map(map)) }
        if isOutside(bounds, by: 0) { return nil }
        if holds(bounds) {
            var points = ring.map(map)
            if points.count > 1 && points.first! == points.last! { points.removeLast() }
            return Self.closedRing(points)
        }
        return clipRing(ring.map(map))
    }

    /// Liang–Barsky: the parameter interval `t0...t1` of segment a→b inside the box, or `nil`.
    func clipSegment(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double)? {
        let (x0, y0) = a
        let dx = b.0 - x0
        let dy = b.1 - y0
        var t0 = 0.0
        var t1 = 1.0
        // The four edges in turn (left, right, top, bottom); `false` when the segment misses the box.
        func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return !(q < 0) }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return false }
                if r < t1 { t1 = r }
            }
            return true
        }
        guard edge(-dx, x0 - min), edge(dx, max - x0), edge(-dy, y0 - min), edge(dy, max - y0) else { return nil }
        return (t0, t1)
    }

    func clipLine(_ line: [(Double, Double)]) -> [[VectorTilePoint]] {
        var result: [[VectorTilePoint]] = []
        var current: [VectorTilePoint] = []
        func flush() {
            if current.count >= 2 { result.append(current) }
            current = []
        }
        guard line.count >= 2 else { return [] }
        for i in 0..<(line.count - 1) {
            let a = line[i]
            let b = line[i + 1]
            guard let (t0, t1) = clipSegment(a, b) else {
                flush()
                continue
            }
            let dx = b.0 - a.0
            let dy = b.1 - a.1
            let start = t0 == 0 ? Self.point(a.0, a.1) : Self.point(a.0 + t0 * dx, a.1 + t0 * dy)
            let end = t1 == 1 ? Self.point(b.0, b.1) : Self.point(a.0 + t1 * dx, a.1 + t1 * dy)
            if current.last != start {
                flush()
                current.append(start)
            }
            if current.last != end { current.append(end) }
            if t1 < 1 { flush() }
        }
        flush()
        return result
    }

    /// Sutherland–Hodgman against the four edges; returns a closed ring or `nil` when degenerate.
    func clipRing(_ ring: [(Double, Double)]) -> [VectorTilePoint]? {
        var points = ring
        if points.count > 1 && points.first! == points.last! { points.removeLast() }
        // Each edge: (inside test, intersection with the edge line).
        let edges: [(inside: ((Double, Double)) -> Bool, axis: Int, value: Double)] = [
            ({ $0.0 >= min }, 0, min), ({ $0.0 <= max }, 0, max),
            ({ $0.1 >= min }, 1, min), ({ $0.1 <= max }, 1, max),
        ]
        for edge in edges {
            guard !points.isEmpty else { break }
            var output: [(Double, Double)] = []
            output.reserveCapacity(points.count + 4)
            var previous = points[points.count - 1]
            for current in points {
                let curIn = edge.inside(current)
                let prevIn = edge.inside(previous)
                if curIn != prevIn {
                    output.append(Self.intersect(previous, current, axis: edge.axis, value: edge.value))
                }
                if curIn { output.append(current) }
                previous = current
            }
            points = output
        }
        return Self.closedRing(points)
    }

    /// The clipped ring's points rounded to whole units, repeats dropped, closed; `nil` when fewer than three
    /// distinct points or no area remain.
    static func closedRing(_ points: [(Double, Double)]) -> [VectorTilePoint]? {
        var result: [VectorTilePoint] = []
        result.reserveCapacity(points.count + 1)
        for (x, y) in points {
            let p = Self.point(x, y)
            if result.last != p { result.append(p) }
        }
        if result.count > 1 && result.first == result.last { result.removeLast() }
        guard result.count >= 3 else { return nil }
        result.append(result[0])
        guard signedDoubleArea(result) != 0 else { return nil }
        return result
    }

    static func intersect(_ a: (Double, Double), _ b: (Double, Double), axis: Int, value: Double) -> (Double, Double) {
        if axis == 0 {
            let t = (value - a.0) / (b.0 - a.0)
            return (value, a.1 + t * (b.1 - a.1))
        } else {
            let t = (value - a.1) / (b.1 - a.1)
            return (a.0 + t * (b.0 - a.0), value)
        }
    }
}

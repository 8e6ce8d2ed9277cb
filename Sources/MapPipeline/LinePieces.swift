import MapData

/// Over-zooms line strings into a descendant tile and clips them to it plus `buffer` (as `overzoomGeometry` does),
/// keeping each piece's distance from the start of its whole line: a piece that starts `D` units along its line gets
/// a lead-in vertex `D` units back along its first segment's direction, so the line tessellator's distances (dash and
/// pattern phase) match MapLibre's, which measures along the ancestor tile's whole line. The lead-in lies outside the
/// clip box, on the far side of where the line enters it (collinear, so no join shows); tiles are clipped to their
/// bounds when drawn.
///
/// Points are mapped with `transform` in `Double` and rounded to whole units; a lead-in that would leave
/// `±2^30` units is left out (the piece then starts at 0). Pieces with fewer than 2 distinct points are dropped.
/// - Parameters:
///   - lines: the ancestor's line strings in its tile units.
///   - transform: the over-zoom transform (any scale ≥ 1).
///   - extent: the layer extent, `1...2^24`.
///   - buffer: the margin kept beyond each edge of the requested tile, in its units, `≥ 0`.
/// - Returns: the pieces in the requested tile's units.
func overzoomLinesKeepingDistance(
    _ lines: [[VectorTilePoint]], transform: OverzoomTransform, extent: Int, buffer: Int
) -> [[VectorTilePoint]] {
    let lo = Double(-buffer)
    let hi = Double(extent + buffer)
    let limit = Double(1 << 30)
    func rounded(_ x: Double, _ y: Double) -> VectorTilePoint {
        VectorTilePoint(x: Int32(min(max(x.rounded(), -limit), limit)), y: Int32(min(max(y.rounded(), -limit), limit)))
    }
    var out: [[VectorTilePoint]] = []
    for line in lines {
        guard line.count >= 2 else { continue }
        // A line whose bounds stay a unit or more outside the box has no segment in it (most of an ancestor's lines
        // in any one descendant): dropped before mapping its points.
        if transform.scale > 0 {
            var minX = line[0].x
            var maxX = minX
            var minY = line[0].y
            var maxY = minY
            for p in line {
                if p.x < minX { minX = p.x } else if p.x > maxX { maxX = p.x }
                if p.y < minY { minY = p.y } else if p.y > maxY { maxY = p.y }
            }
            let low = transform.apply(x: Double(minX), y: Double(minY), extent: extent)
            let high = transform.apply(x: Double(maxX), y: Double(maxY), extent: extent)
            if high.x < lo - 1 || low.x > hi + 1 || high.y < lo - 1 || low.y > hi + 1 { continue }
        }
        let pts = line.map { transform.apply(x: Double($0.x), y: Double($0.y), extent: extent) }
        var piece: [VectorTilePoint] = []
        var along = 0.0
        func flush() {
            if piece.count >= 2 { out.append(piece) }
            piece = []
        }
        for i in 1..<pts.count {
            let (ax, ay) = pts[i - 1]
            let (bx, by) = pts[i]
            let dx = bx - ax
            let dy = by - ay
            let length = (dx * dx + dy * dy).squareRoot()
            defer { along += length }
            guard length > 0, length.isFinite else { continue }
            // Liang–Barsky against the box.
            var t0 = 0.0
            var t1 = 1.0
            var inside = true
            // The four edges in turn (left, right, top, bottom).
            func edge(_ p: Double, _ q: Double) {
                if p == 0 {
                    if q < 0 { inside = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
            edge(-dx, ax - lo)
            edge(dx, hi - ax)
            edge(-dy, ay - lo)
            edge(dy, hi - ay)
            guard inside, t0 <= t1 else {
                flush()
                continue
            }
            let start = rounded(ax + t0 * dx, ay + t0 * dy)
            if piece.isEmpty || piece.last != start || t0 > 0 {
                flush()
                let d = along + t0 * length
                if d > 0 {
                    let bx0 = ax + t0 * dx - dx / length * d
                    let by0 = ay + t0 * dy - dy / length * d
                    if abs(bx0) < limit && abs(by0) < limit { piece.append(rounded(bx0, by0)) }
                }
                piece.append(start)
            }
            let end = rounded(ax + t1 * dx, ay + t1 * dy)
            if piece.last != end { piece.append(end) }
            if t1 < 1 { flush() }
        }
        flush()
    }
    return out
}

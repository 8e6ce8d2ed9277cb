import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Anchors of line-placed symbols as MapLibre Native chooses them when it lays out a tile (`getAnchors`,
// `getCenterAnchor` and `checkMaxAngle` in its `get_anchors.cpp`, `check_max_angle.cpp`): along the line in the
// tile's own pixels, so they stay put while the camera moves and continue across tile edges.

/// A candidate anchor on a line in tile pixels (see ``tileLineAnchors(_:spacing:maxAngle:labelLength:angleWindow:tileSize:overscaling:fixedOffset:)``).
struct TileLineAnchor: Equatable {
    /// The anchor's position in tile pixels.
    var x: Double
    var y: Double
    /// The index of the line's segment holding it (segment `i` runs from vertex `i` to `i + 1`).
    var segment: Int
    /// Distance from the line's first vertex, in tile pixels.
    var distance: Double
}

/// The angle window of `text-max-angle` in tile pixels: 3/5 of the text size (MapLibre's `getAngleWindowSize`),
/// 0 (no test) for a label without text width.
func maxAngleWindow(textWidth: Double, textSize: Double) -> Double {
    textWidth != 0 ? 0.6 * textSize : 0
}

/// `true` when the label of `labelLength` centred at `anchor` has room on the line on both sides and the line turns
/// by at most `maxAngle` radians (sum of the absolute turns) within every stretch of `window` under the label
/// (MapLibre's `checkMaxAngle`).
func passesMaxAngle(
    _ xs: [Double], _ ys: [Double], anchor: TileLineAnchor, labelLength: Double, window: Double, maxAngle: Double
) -> Bool {
    var index = anchor.segment + 1
    var px = anchor.x
    var py = anchor.y
    var anchorDistance = 0.0
    // Back to the first segment the label lies on.
    while anchorDistance > -labelLength / 2 {
        if index == 0 { return false }
        index -= 1
        anchorDistance -= hypot(xs[index] - px, ys[index] - py)
        px = xs[index]
        py = ys[index]
    }
    anchorDistance += hypot(xs[index + 1] - xs[index], ys[index + 1] - ys[index])
    index += 1
    var corners: [(distance: Double, turn: Double)] = []
    var first = 0
    var sum = 0.0
    while anchorDistance < labelLength / 2 {
        if index + 1 >= xs.count { return false }
        let before = atan2(ys[index - 1] - ys[index], xs[index - 1] - xs[index])
        let after = atan2(ys[index] - ys[index + 1], xs[index] - xs[index + 1])
        var delta = (before - after + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi)
        if delta < 0 { delta += 2 * .pi }
        let turn = abs(delta - .pi)
        corners.append((anchorDistance, turn))
        sum += turn
        while anchorDistance - corners[first].distance > window {
            sum -= corners[first].turn
            first += 1
        }
        if sum > maxAngle { return false }
        index += 1
        anchorDistance += hypot(xs[index] - xs[index - 1], ys[index] - ys[index - 1])
    }
    return true
}

/// Anchors every `spacing` tile pixels along a line (MapLibre's `getAnchors`).
///
/// The first anchor lies at `offset` from the line's start: for a line continued from beyond the tile's edge (its
/// first vertex on an edge) half the spacing (times `overscaling`, modulo the spacing), else half the label plus
/// `fixedOffset` (MapLibre's two glyph sizes, against crowding at T junctions), times `overscaling`, modulo the
/// spacing. A spacing less than 1¼ label lengths becomes the label length plus a quarter of the spacing. Anchors
/// outside the tile (`0 ..< tileSize` on both axes), where the label does not fit on the line, or that fail the
/// `text-max-angle` test (`window` > 0) are dropped. When none is left and the line is not continued, one anchor
/// at the middle of the line is tried.
/// - Parameters:
///   - xs: the line's x coordinates in tile pixels (at the tile's zoom, origin at the tile's north-west corner).
///   - ys: the line's y coordinates.
///   - spacing: `symbol-spacing` in tile pixels.
///   - maxAngle: `text-max-angle` in radians.
///   - labelLength: the label's length along the line in tile pixels (the wider of text and icon).
///   - window: the `text-max-angle` window in tile pixels; 0 skips the test.
///   - tileSize: the tile's side in tile pixels.
///   - overscaling: the tile's over-zoom factor (1 at or below the source's maximum zoom).
///   - fixedOffset: the extra start offset of a line that is not continued, in tile pixels.
/// - Returns: the anchors in order along the line.
func tileLineAnchors(
    xs: [Double], ys: [Double], spacing: Double, maxAngle: Double, labelLength: Double, window: Double,
    tileSize: Double, overscaling: Double = 1, fixedOffset: Double
) -> [TileLineAnchor] {
    guard xs.count >= 2, xs.count == ys.count, spacing.isFinite, spacing > 0, labelLength.isFinite else { return [] }
    let continued = xs[0] == 0 || xs[0] == tileSize || ys[0] == 0 || ys[0] == tileSize
    var step = spacing
    if step - labelLength < step / 4 { step = labelLength + step / 4 }
    let offset =
        continued
        ? (step / 2 * overscaling).truncatingRemainder(dividingBy: step)
        : ((labelLength / 2 + fixedOffset) * overscaling).truncatingRemainder(dividingBy: step)
    return resampleLine(
        xs, ys, offset: offset, spacing: step, window: window, maxAngle: maxAngle, labelLength: labelLength,
        tileSize: tileSize, continued: continued, atMiddle: false)
}

/// The anchor at the middle of the line when the label fits there (MapLibre's `getCenterAnchor`, for
/// `symbol-placement: line-center`), else `nil`. Arguments as ``tileLineAnchors(xs:ys:spacing:maxAngle:labelLength:window:tileSize:overscaling:fixedOffset:)``.
func tileCenterAnchor(
    xs: [Double], ys: [Double], maxAngle: Double, labelLength: Double, window: Double
) -> TileLineAnchor? {
    guard xs.count >= 2, xs.count == ys.count else { return nil }
    var length = 0.0
    for i in 1..<xs.count { length += hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]) }
    guard labelLength <= length else { return nil }
    let middle = length / 2
    var travelled = 0.0
    for i in 0..<(xs.count - 1) {
        let d = hypot(xs[i + 1] - xs[i], ys[i + 1] - ys[i])
        if travelled + d > middle {
            let t = (middle - travelled) / d
            let anchor = TileLineAnchor(
                x: xs[i] + (xs[i + 1] - xs[i]) * t, y: ys[i] + (ys[i + 1] - ys[i]) * t, segment: i, distance: middle)
            if window > 0
                && !passesMaxAngle(xs, ys, anchor: anchor, labelLength: labelLength, window: window, maxAngle: maxAngle)
            {
                return nil
            }
            return anchor
        }
        travelled += d
    }
    return nil
}

private func resampleLine(
    _ xs: [Double], _ ys: [Double], offset: Double, spacing: Double, window: Double, maxAngle: Double,
    labelLength: Double, tileSize: Double, continued: Bool, atMiddle: Bool
) -> [TileLineAnchor] {
    var length = 0.0
    for i in 1..<xs.count { length += hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]) }
    let half = labelLength / 2
    var distance = 0.0
    var marked = offset - spacing
    var anchors: [TileLineAnchor] = []
    for i in 0..<(xs.count - 1) {
        let d = hypot(xs[i + 1] - xs[i], ys[i + 1] - ys[i])
        while marked + spacing < distance + d {
            marked += spacing
            let t = (marked - distance) / d
            let x = xs[i] + (xs[i + 1] - xs[i]) * t
            let y = ys[i] + (ys[i + 1] - ys[i]) * t
            if x >= 0 && x < tileSize && y >= 0 && y < tileSize && marked - half >= 0 && marked + half <= length {
                let anchor = TileLineAnchor(x: x, y: y, segment: i, distance: marked)
                if window == 0
                    || passesMaxAngle(
                        xs, ys, anchor: anchor, labelLength: labelLength, window: window, maxAngle: maxAngle)
                {
                    anchors.append(anchor)
                }
            }
            if anchors.count >= 10_000 { return anchors }
        }
        distance += d
    }
    if !atMiddle && anchors.isEmpty && !continued {
        return resampleLine(
            xs, ys, offset: distance / 2, spacing: spacing, window: window, maxAngle: maxAngle,
            labelLength: labelLength, tileSize: tileSize, continued: continued, atMiddle: true)
    }
    return anchors
}

/// One piece of a line clipped to its layout tile, with the anchors laid out on it.
struct AnchoredRun {
    /// The piece in world units (in the line's own world copy).
    var points: [WorldPoint]
    /// The anchors on it, in world units, in order along the piece.
    var anchors: [WorldPoint]
    /// The index of the piece's segment holding each anchor.
    var segments: [Int]
}

/// Splits `points` into the pieces that lie inside the square `0 ... side` (MapLibre's `clipLines`: each segment is
/// cut on its own, and a new piece starts wherever a cut segment does not continue the previous one).
func clipLineToSquare(xs: [Double], ys: [Double], side: Double) -> [(xs: [Double], ys: [Double])] {
    var pieces: [(xs: [Double], ys: [Double])] = []
    var cx: [Double] = []
    var cy: [Double] = []
    for i in 0..<max(xs.count - 1, 0) {
        var t0 = 0.0
        var t1 = 1.0
        let dx = xs[i + 1] - xs[i]
        let dy = ys[i + 1] - ys[i]
        // Liang–Barsky against the four edges.
        var inside = true
        for (p, q) in [(-dx, xs[i]), (dx, side - xs[i]), (-dy, ys[i]), (dy, side - ys[i])] {
            if p == 0 {
                if q < 0 { inside = false }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            }
        }
        guard inside, t0 <= t1 else { continue }
        let ax = xs[i] + dx * t0
        let ay = ys[i] + dy * t0
        let bx = xs[i] + dx * t1
        let by = ys[i] + dy * t1
        if let lx = cx.last, let ly = cy.last, lx == ax, ly == ay {
            cx.append(bx)
            cy.append(by)
        } else {
            if cx.count >= 2 { pieces.append((cx, cy)) }
            cx = [ax, bx]
            cy = [ay, by]
        }
    }
    if cx.count >= 2 { pieces.append((cx, cy)) }
    return pieces
}

/// The anchors of a `line` or `line-center` symbol laid out as MapLibre lays them out in `tile`
/// (``tileLineAnchors(xs:ys:spacing:maxAngle:labelLength:window:tileSize:overscaling:fixedOffset:)``,
/// ``tileCenterAnchor(xs:ys:maxAngle:labelLength:window:)``), with every length in the tile's pixels.
/// - Parameters:
///   - points: the line in world units.
///   - tile: the tile laying it out; with `overscaling` > 1 the anchors cover its ancestor that many times larger
///     (the source's tile), as MapLibre's over-zoomed tiles do.
///   - tileSize: the tile's side in points at its zoom.
///   - overscaling: the tile's over-zoom factor, `≥ 1`.
///   - spacing: `symbol-spacing` in tile pixels.
///   - maxAngle: `text-max-angle` in radians.
///   - labelLength: the label's length along the line in tile pixels.
///   - window: the `text-max-angle` window in tile pixels; 0 skips the test.
///   - fixedOffset: the extra start offset of a line that is not continued, in tile pixels.
///   - center: `line-center` (one anchor at the middle of the whole line) instead of `line`.
/// - Returns: the clipped pieces (`line`) or the whole line (`line-center`) with their anchors.
func anchoredRuns(
    _ points: [WorldPoint], tile: TileID, tileSize: Double, overscaling: Double, spacing: Double, maxAngle: Double,
    labelLength: Double, window: Double, fixedOffset: Double, center: Bool
) -> [AnchoredRun] {
    guard points.count >= 2, tileSize > 0, tileSize.isFinite else { return [] }
    let o = overscaling.isFinite ? min(max(overscaling, 1), 1_048_576.0) : 1
    let nw = tile.northWest
    let size = tile.worldSize
    let ancestorSize = size * o
    let originX = (nw.x / ancestorSize).rounded(.down) * ancestorSize
    let originY = (nw.y / ancestorSize).rounded(.down) * ancestorSize
    // The line in the tile's world copy.
    let wrap = (points[0].x - (nw.x + size / 2)).rounded()
    let scale = tileSize / size
    let xs = points.map { ($0.x - wrap - originX) * scale }
    let ys = points.map { ($0.y - originY) * scale }
    func world(_ x: Double, _ y: Double) -> WorldPoint {
        WorldPoint(x: originX + x / scale + wrap, y: originY + y / scale)
    }
    if center {
        guard
            let a = tileCenterAnchor(xs: xs, ys: ys, maxAngle: maxAngle, labelLength: labelLength, window: window)
        else { return [] }
        return [AnchoredRun(points: points, anchors: [world(a.x, a.y)], segments: [a.segment])]
    }
    var runs: [AnchoredRun] = []
    for piece in clipLineToSquare(xs: xs, ys: ys, side: tileSize * o) {
        let anchors = tileLineAnchors(
            xs: piece.xs, ys: piece.ys, spacing: spacing, maxAngle: maxAngle, labelLength: labelLength,
            window: window, tileSize: tileSize * o, overscaling: o, fixedOffset: fixedOffset)
        guard !anchors.isEmpty else { continue }
        runs.append(
            AnchoredRun(
                points: zip(piece.xs, piece.ys).map { world($0, $1) }, anchors: anchors.map { world($0.x, $0.y) },
                segments: anchors.map { $0.segment }))
    }
    return runs
}

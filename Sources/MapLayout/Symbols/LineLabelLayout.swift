import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Line labels: candidate anchors along a projected line, the text-max-angle test, and per-cluster placements that
// follow the line and stay upright. Everything here is in screen points (top-left origin, y down); angles are radians
// clockwise on screen (atan2 of a screen-space direction).

/// A polyline in screen points with the cumulative distance at each vertex.
struct ScreenPolyline {
    private(set) var xs: [Double] = []
    private(set) var ys: [Double] = []
    /// `cumulative[i]`: distance along the line from the first vertex to vertex `i`, in points.
    private(set) var cumulative: [Double] = []

    /// Builds the polyline, dropping non-finite points and repeated vertices.
    init(_ points: some Sequence<(x: Double, y: Double)>) {
        let expected = points.underestimatedCount
        xs.reserveCapacity(expected)
        ys.reserveCapacity(expected)
        cumulative.reserveCapacity(expected)
        for p in points { add(p) }
    }

    /// Builds the polyline of `points` projected by `project`, dropping non-finite points and repeated vertices.
    init<Point>(_ points: [Point], projectedBy project: (Point) -> (x: Double, y: Double)) {
        xs.reserveCapacity(points.count)
        ys.reserveCapacity(points.count)
        cumulative.reserveCapacity(points.count)
        for p in points { add(project(p)) }
    }

    /// Appends `p` unless it is not finite or repeats the last vertex.
    private mutating func add(_ p: (x: Double, y: Double)) {
        guard p.x.isFinite && p.y.isFinite else { return }
        if let lx = xs.last, let ly = ys.last {
            let d = ((p.x - lx) * (p.x - lx) + (p.y - ly) * (p.y - ly)).squareRoot()
            if d <= 1e-9 { return }
            cumulative.append(cumulative[cumulative.count - 1] + d)
        } else {
            cumulative.append(0)
        }
        xs.append(p.x)
        ys.append(p.y)
    }

    /// Total length in points.
    var length: Double { cumulative.last ?? 0 }
    /// Vertex count.
    var count: Int { xs.count }

    /// The point at `distance` along the line (clamped to the ends) and the direction of the segment there.
    func sample(at distance: Double) -> (x: Double, y: Double, angle: Double) {
        precondition(count >= 2, "ScreenPolyline.sample needs at least two vertices")
        // The segment [i, i+1] holding the distance: binary search on the cumulative distances.
        var low = 0
        var high = count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if cumulative[mid] <= distance { low = mid } else { high = mid - 1 }
        }
        let i = low
        let segment = cumulative[i + 1] - cumulative[i]
        let t = min(max((distance - cumulative[i]) / segment, 0), 1)
        let dx = xs[i + 1] - xs[i]
        let dy = ys[i + 1] - ys[i]
        return (xs[i] + dx * t, ys[i] + dy * t, atan2(dy, dx))
    }

    /// The distance along the line of the point of the line nearest to `(x, y)`, and how far that point is from it.
    func locate(x: Double, y: Double) -> (distance: Double, error: Double) {
        // Read through buffer pointers: this runs for every anchor against every segment of its run, each frame.
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                cumulative.withUnsafeBufferPointer { cumulative in
                    var best = (distance: 0.0, error: Double.infinity)
                    for i in 0..<max(xs.count - 1, 0) {
                        let dx = xs[i + 1] - xs[i]
                        let dy = ys[i + 1] - ys[i]
                        let length2 = dx * dx + dy * dy
                        let t = length2 > 0 ? min(max(((x - xs[i]) * dx + (y - ys[i]) * dy) / length2, 0), 1) : 0
                        let px = xs[i] + dx * t
                        let py = ys[i] + dy * t
                        let e = ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
                        if e < best.error { best = (cumulative[i] + (cumulative[i + 1] - cumulative[i]) * t, e) }
                    }
                    return best
                }
            }
        }
    }

    /// The absolute turn at interior vertex `i` (0 < i < count − 1), in radians `[0, π]`.
    func turn(at i: Int) -> Double {
        let a = atan2(ys[i] - ys[i - 1], xs[i] - xs[i - 1])
        let b = atan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
        return abs(normalizedAngle(b - a))
    }
}

/// `angle` wrapped into `(−π, π]`.
func normalizedAngle(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
    if a <= -.pi { a += 2 * .pi }
    if a > .pi { a -= 2 * .pi }
    return a
}

/// The most candidate anchors one projected line gets; a smaller spacing is widened to keep to it.
let maximumLineAnchors = 1000

/// Distances along a line of `length` points where a label of `labelLength` points may be centred.
///
/// `.line`: at `spacing / 2 + k · spacing` (k = 0, 1, …) wherever the whole label fits on the line; when none fits
/// but the line is long enough for the label, one anchor at the middle. `.lineCenter`: only the middle. A line
/// shorter than the label gets none.
func lineAnchorDistances(length: Double, labelLength: Double, spacing: Double, center: Bool) -> [Double] {
    guard length.isFinite, labelLength.isFinite, length >= labelLength, length > 0 else { return [] }
    if center { return [length / 2] }
    // At most `maximumLineAnchors` candidates per line, whatever the spacing.
    let step = max(spacing.isFinite ? spacing : 250, 1, length / Double(maximumLineAnchors))
    let low = labelLength / 2
    let high = length - labelLength / 2
    var result: [Double] = []
    var d = step / 2
    while d <= high {
        if d >= low { result.append(d) }
        d += step
    }
    return result.isEmpty ? [length / 2] : result
}

/// `true` when the line turns by more than `maxAngle` radians (sum of absolute turns) within some stretch of
/// `window` points lying between `start` and `end` (distances along the line). This is `text-max-angle`'s test; the
/// window is the caller's (3/5 of the text size, as MapLibre's angle window).
func bendsTooMuch(_ line: ScreenPolyline, from start: Double, to end: Double, window: Double, maxAngle: Double)
    -> Bool
{
    guard line.count >= 3 else { return false }
    var inside: [(distance: Double, turn: Double)] = []
    for i in 1..<(line.count - 1) where line.cumulative[i] > start && line.cumulative[i] < end {
        inside.append((line.cumulative[i], line.turn(at: i)))
    }
    var sum = 0.0
    var first = 0
    for j in inside.indices {
        sum += inside[j].turn
        while inside[j].distance - inside[first].distance > window {
            sum -= inside[first].turn
            first += 1
        }
        if sum > maxAngle + 1e-9 { return true }
    }
    return false
}

/// One cluster of a line label with its advance (points, unscaled).
struct LabelCluster {
    /// The cluster's text.
    let text: String
    /// Unscaled advance in points.
    var advance: Double
    /// `true` when every character of `text` is whitespace: the cluster takes up space but gets no placement
    /// (worked out once here rather than for every layout of every frame).
    let isBlank: Bool

    init(text: String, advance: Double) {
        self.text = text
        self.advance = advance
        isBlank = text.allSatisfy(\.isWhitespace)
    }
}

/// The laid-out glyphs of one line label and its collision circles.
struct LineLabelGeometry {
    /// Placements in reading order.
    var glyphs: [GlyphPlacement]
    /// Collision circle centres in points: evenly spread along the label at most `circleSpacing` apart, on the line
    /// shifted by the text offset.
    var centers: [(x: Double, y: Double)]
    /// `true` when keep-upright reversed the direction of reading along the line.
    var flipped: Bool
}

/// Places `clusters` along `line`, centred at `anchor` (distance along the line).
/// - Parameters:
///   - clusters: the label's grapheme clusters in reading order with their unscaled advances in points; whitespace
///     clusters take up space but get no placement.
///   - line: the projected line, in screen points.
///   - anchor: the label's centre as a distance along `line` from its first vertex, in points.
///   - scale: multiplies advances and `letterSpacing` (perspective ratio).
///   - letterSpacing: points between clusters (unscaled).
///   - baselineShift: distance in points from the line to the baseline along the glyphs' downward normal (already
///     scaled), `baseline − height / 2 + offset`.
///   - centerShift: distance from the line to the box centre along the same normal (the `text-offset` shift).
///   - keepUpright: reverse the reading direction when the label would read right to left.
///   - circleSpacing: largest distance between collision circle centres, in points (half the line height).
///   - flip: the caller's keep-upright decision, used instead of the line's own direction when `keepUpright` is set
///     (text laid on the ground under pitch is kept upright as it reads on the screen). Default `nil`.
/// - Returns: the placements and collision circles, or `nil` when the label does not fit on the line at `anchor`
///   (or `line` has fewer than 2 points or `clusters` is empty).
func layoutLineLabel(
    _ clusters: [LabelCluster], on line: ScreenPolyline, anchor: Double, scale: Double, letterSpacing: Double,
    baselineShift: Double, centerShift: Double, keepUpright: Bool, circleSpacing: Double, flip: Bool? = nil
) -> LineLabelGeometry? {
    guard line.count >= 2, !clusters.isEmpty else { return nil }
    let spacing = letterSpacing * scale
    let length = clusters.reduce(0) { $0 + $1.advance * scale } + spacing * Double(clusters.count - 1)
    let start = anchor - length / 2
    let end = anchor + length / 2
    guard start >= -1e-9, end <= line.length + 1e-9 else { return nil }
    var flipped = false
    if keepUpright, let flip {
        flipped = flip
    } else if keepUpright {
        let a = line.sample(at: start)
        let b = line.sample(at: end)
        flipped = abs(atan2(b.y - a.y, b.x - a.x)) > .pi / 2 + 1e-12
    }
    var glyphs: [GlyphPlacement] = []
    glyphs.reserveCapacity(clusters.count)
    var cursor = 0.0
    for cluster in clusters {
        let advance = cluster.advance * scale
        let middle = cursor + advance / 2
        cursor += advance + spacing
        // A blank cluster only moves the cursor (its sample and angle would be thrown away).
        if cluster.isBlank { continue }
        let distance = flipped ? end - middle : start + middle
        let p = line.sample(at: distance)
        let angle = flipped ? normalizedAngle(p.angle + .pi) : p.angle
        let nx = -sin(angle)
        let ny = cos(angle)
        glyphs.append(
            GlyphPlacement(
                text: cluster.text,
                position: ScreenPoint(x: p.x + nx * baselineShift, y: p.y + ny * baselineShift),
                rotation: angle * 180 / .pi))
    }
    let circleCount = max(1, Int((length / max(circleSpacing, 0.5)).rounded(.up)))
    var centers: [(x: Double, y: Double)] = []
    centers.reserveCapacity(circleCount)
    for k in 0..<circleCount {
        let p = line.sample(at: start + (Double(k) + 0.5) * length / Double(circleCount))
        let angle = flipped ? p.angle + .pi : p.angle
        centers.append((p.x - sin(angle) * centerShift, p.y + cos(angle) * centerShift))
    }
    return LineLabelGeometry(glyphs: glyphs, centers: centers, flipped: flipped)
}

/// The pole of inaccessibility of a polygon: the inside point farthest from its outline, found as MapLibre Native
/// does (mapbox/polylabel: a quadtree of square cells searched best-first, seeded with the exterior ring's area
/// centroid and the bounding-box centre).
/// - Parameters:
///   - rings: the exterior ring first, then its holes; each ring a list of `(x, y)` points in any units (closed or
///     not). Rings of fewer than 1 point are ignored.
///   - precision: stop refining once no cell can beat the best distance by more than this, in the rings' units
///     (> 0; MapLibre uses one pixel of a 512-pixel tile).
/// - Returns: the point; the exterior ring's first point when the ring is degenerate (zero width or height);
///   `nil` when there is no exterior ring.
func poleOfInaccessibility(_ rings: [[(x: Double, y: Double)]], precision: Double) -> (x: Double, y: Double)? {
    guard let outer = rings.first, let first = outer.first else { return nil }
    var minX = first.x
    var minY = first.y
    var maxX = first.x
    var maxY = first.y
    for p in outer {
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
    }
    let width = maxX - minX
    let height = maxY - minY
    let cellSize = min(width, height)
    guard cellSize > 0 else { return first }
    let step = max(precision, 1e-9)

    struct Cell {
        var x: Double
        var y: Double
        var h: Double
        var d: Double
        var max: Double
    }
    func cell(_ x: Double, _ y: Double, _ h: Double) -> Cell {
        let d = signedDistance(x, y, rings)
        return Cell(x: x, y: y, h: h, d: d, max: d + h * 2.0.squareRoot())
    }
    // A max-heap on `max`.
    var heap: [Cell] = []
    func push(_ c: Cell) {
        heap.append(c)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[parent].max < heap[i].max else { break }
            heap.swapAt(parent, i)
            i = parent
        }
    }
    func pop() -> Cell {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < heap.count, heap[l].max > heap[m].max { m = l }
                if r < heap.count, heap[r].max > heap[m].max { m = r }
                if m == i { break }
                heap.swapAt(m, i)
                i = m
            }
        }
        return top
    }

    let h = cellSize / 2
    var x = minX
    while x < maxX {
        var y = minY
        while y < maxY {
            push(cell(x + h, y + h, h))
            y += cellSize
        }
        x += cellSize
    }
    // The exterior ring's area centroid (its first point when the area is zero).
    var area = 0.0
    var cx = 0.0
    var cy = 0.0
    var j = outer.count - 1
    for i in 0..<outer.count {
        let a = outer[i]
        let b = outer[j]
        let f = a.x * b.y - b.x * a.y
        cx += (a.x + b.x) * f
        cy += (a.y + b.y) * f
        area += f * 3
        j = i
    }
    var best = area == 0 ? cell(first.x, first.y, 0) : cell(cx / area, cy / area, 0)
    let boxCell = cell(minX + width / 2, minY + height / 2, 0)
    if boxCell.d > best.d { best = boxCell }

    var iterations = 0
    while !heap.isEmpty && iterations < 100_000 {
        iterations += 1
        let c = pop()
        if c.d > best.d { best = c }
        if c.max - best.d <= step { continue }
        let half = c.h / 2
        push(cell(c.x - half, c.y - half, half))
        push(cell(c.x + half, c.y - half, half))
        push(cell(c.x - half, c.y + half, half))
        push(cell(c.x + half, c.y + half, half))
    }
    return (best.x, best.y)
}

/// Distance from `(x, y)` to the nearest ring edge: positive inside the polygon (even-odd over all rings), negative
/// outside.
private func signedDistance(_ x: Double, _ y: Double, _ rings: [[(x: Double, y: Double)]]) -> Double {
    var inside = false
    var minDistSq = Double.infinity
    for ring in rings where !ring.isEmpty {
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[j]
            if (a.y > y) != (b.y > y) && x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            minDistSq = min(minDistSq, segmentDistanceSquared(x, y, a, b))
            j = i
        }
    }
    return (inside ? 1 : -1) * minDistSq.squareRoot()
}

private func segmentDistanceSquared(
    _ px: Double, _ py: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)
) -> Double {
    var x = a.x
    var y = a.y
    let dx = b.x - x
    let dy = b.y - y
    if dx != 0 || dy != 0 {
        let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
        if t > 1 {
            x = b.x
            y = b.y
        } else if t > 0 {
            x += dx * t
            y += dy * t
        }
    }
    let ex = px - x
    let ey = py - y
    return ex * ex + ey * ey
}

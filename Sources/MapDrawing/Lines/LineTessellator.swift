// Polylines → line triangle meshes, with the join and cap rules of MapLibre's `LineBucket.addLine`
// (maplibre-native src/mbgl/renderer/buckets/line_bucket.cpp, maplibre-gl-js src/data/bucket/line_bucket.ts).
//
// Space: the tessellator works in whatever planar units its input uses; MapLibre works in tile units, and
// `sharpCornerOffset` must be given in the input's units (15 pixels at the tile's zoom in MapLibre). Every decision it
// takes depends only on angles and on segment lengths compared with `sharpCornerOffset`, so tessellating in tile
// units and then mapping centres through a similarity (a flat camera: scale + rotation) and extrusions through its
// rotation gives exactly MapLibre's geometry. The caller does that mapping (MapPipeline's `drawLine`).
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds a ``LineMesh`` from polylines the way MapLibre's line bucket does.
///
/// Per polyline (``addLine(_:closed:)``): equal consecutive points are dropped; an open line needs 2 distinct points
/// and a closed ring (a polygon outline, drawn with butt "caps" where it starts and ends at its first point) 3.
/// Each inner vertex gets a join:
/// - `miter`: one vertex pair on the bisector, `1/cos(θ/2)` long; when that exceeds ``miterLimit`` a bevel instead,
///   and beyond 2 (what MapLibre's byte extrusion can hold) a *flip bevel* (the pair is flipped across the corner, so
///   the inside of the turn folds over itself).
/// - `bevel`: the miter limit becomes 1.05; the outside of the turn is cut by one triangle.
/// - `round`: a miter when the miter length is below ``roundLimit`` (default 1.05), a *fake round* (a bevel fanned
///   in steps of about 20° with round-off-free vertices) up to miter length 2, else a real round join: butt ends on
///   both segments with round-flagged vertices that the fragment fade turns into a disc.
/// Caps: `butt` (a vertex pair on the end point), `square` (pushed out by half the width), `round` (round-flagged
/// pair pushed out by half the width). Corners sharper than 75° next to segments longer than twice
/// ``sharpCornerOffset`` get an extra vertex pair ``sharpCornerOffset`` before and after the corner so the fold stays
/// local. Extrusions are quantised to 1/63 (MapLibre's `EXTRUDE_SCALE`, one signed byte per component).
///
/// Non-finite input points make the whole polyline draw nothing. Thread rules: a value type; use one per thread.
public struct LineTessellator: Sendable {
    /// Extrusion quantisation: components are stored as `round(63 × e) / 63` (MapLibre `EXTRUDE_SCALE`).
    public static let extrudeScale = 63.0
    /// Corners whose half-angle cosine is below this (turns sharper than 75°) are "sharp" (`COS_HALF_SHARP_CORNER`).
    static let cosHalfSharpCorner = cos(75.0 / 2 * Double.pi / 180)
    /// Degrees of turn per triangle of a fake round join (`DEG_PER_TRIANGLE`).
    static let degreesPerTriangle = 20.0

    /// The join shape at inner vertices (`line-join`). Default miter.
    public var join: LineJoin
    /// The cap shape at the ends of open lines (`line-cap`). Default butt.
    public var cap: LineCap
    /// `line-miter-limit`: longest miter as a multiple of the width, `> 0`. Default 2.
    public var miterLimit: Double
    /// `line-round-limit`: round joins with a shorter miter are drawn as miters. Default 1.05.
    public var roundLimit: Double
    /// Length, in input units, of the segment pieces split off next to corners sharper than 75°; `0` disables the
    /// split (MapLibre: 15 pixels at the tile's zoom, 0 when the tile is over-scaled more than 16×). Default 0.
    public var sharpCornerOffset: Double
    /// Whether the vertices split off at sharp corners are rounded to whole input units (MapLibre rounds them to
    /// its integer tile grid, extent 8192). Default false.
    public var roundsSplitVertices: Bool
    /// The triangles built so far.
    public private(set) var mesh = LineMesh()

    private var distance = 0.0
    private var e1 = -1
    private var e2 = -1

    /// Creates an empty tessellator; see the properties for defaults.
    public init(
        join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 2, roundLimit: Double = 1.05,
        sharpCornerOffset: Double = 0, roundsSplitVertices: Bool = false
    ) {
        self.roundsSplitVertices = roundsSplitVertices
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
        self.roundLimit = roundLimit
        self.sharpCornerOffset = sharpCornerOffset
    }

    /// Adds one polyline given as points. See ``addLine(coordinates:closed:)``.
    public mutating func addLine(_ points: [ScreenPoint], closed: Bool = false) {
        var flat: [Double] = []
        flat.reserveCapacity(points.count * 2)
        for p in points {
            flat.append(p.x)
            flat.append(p.y)
        }
        addLine(coordinates: flat, closed: closed)
    }

    /// Adds one polyline given as flat coordinates `[x0, y0, x1, y1, …]` in the tessellator's units.
    /// - Parameters:
    ///   - coordinates: the points; an odd trailing value is ignored.
    ///   - closed: a ring (polygon outline): the last point joins the first, whether or not it repeats it.
    /// Distances (`LineMeshVertex.distance`) restart at 0 for every polyline; ``LineMesh/progressLength`` becomes
    /// the length of the longest polyline added.
    public mutating func addLine(coordinates: [Double], closed: Bool = false) {
        var n = coordinates.count / 2
        guard n >= 2 else { return }
        for v in coordinates.prefix(2 * n) where !v.isFinite { return }
        var pts: [P] = []
        pts.reserveCapacity(n + 1)
        for i in 0..<n { pts.append(P(coordinates[2 * i], coordinates[2 * i + 1])) }
        if closed && pts[0] != pts[n - 1] {
            pts.append(pts[0])
            n += 1
        }
        tessellate(pts, closed: closed)
    }

    // MARK: - The line bucket

    private struct P: Equatable {
        var x: Double
        var y: Double
        init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
        static func + (a: P, b: P) -> P { P(a.x + b.x, a.y + b.y) }
        static func - (a: P, b: P) -> P { P(a.x - b.x, a.y - b.y) }
        static func * (a: P, k: Double) -> P { P(a.x * k, a.y * k) }
        var length: Double { (x * x + y * y).squareRoot() }
        var unit: P {
            let l = length
            return l > 0 ? P(x / l, y / l) : self
        }
        /// Perpendicular `(-y, x)`: to the right of the direction on a y-down screen.
        var perp: P { P(-y, x) }
        func dist(_ o: P) -> Double { (self - o).length }
    }

    private enum Join { case miter, bevel, flipBevel, round, fakeRound, butt, square }

    private mutating func tessellate(_ vertices: [P], closed isPolygon: Bool) {
        var len = vertices.count
        while len >= 2 && vertices[len - 1] == vertices[len - 2] { len -= 1 }
        var first = 0
        while first < len - 1 && vertices[first] == vertices[first + 1] { first += 1 }
        guard len >= (isPolygon ? 3 : 2), len - first >= 2 else { return }

        let miterLimit = join == .bevel ? 1.05 : (miterLimit.isFinite && miterLimit > 0 ? miterLimit : 2)
        let roundLimit = roundLimit.isFinite ? roundLimit : 1.05
        let sharpOffset = sharpCornerOffset.isFinite && sharpCornerOffset > 0 ? sharpCornerOffset : 0
        distance = 0
        e1 = -1
        e2 = -1

        var current: P? = nil
        var prev: P? = nil
        var next: P? = nil
        var prevNormal: P? = nil
        var nextNormal: P? = nil
        if isPolygon {
            current = vertices[len - 2]
            nextNormal = (vertices[first] - current!).unit.perp
        }
        var i = first
        while i < len {
            defer { i += 1 }
            next = i == len - 1 ? (isPolygon ? vertices[first + 1] : nil) : vertices[i + 1]
            // Skip a vertex equal to the next one.
            if let nv = next, vertices[i] == nv { continue }
            if let nn = nextNormal { prevNormal = nn }
            if let c = current { prev = c }
            var cur = vertices[i]
            // The normal towards the next vertex; at the end the line is taken to go on straight.
            nextNormal = next.map { ($0 - cur).unit.perp } ?? prevNormal
            // At the start of an open line: a straight "join".
            if prevNormal == nil { prevNormal = nextNormal }
            guard let pN = prevNormal, let nN = nextNormal else { continue }

            // The bisector of the two segments' normals; zero for a 180° turn (then the miter is infinite).
            var joinNormal = pN + nN
            if joinNormal.x != 0 || joinNormal.y != 0 { joinNormal = joinNormal.unit }
            let cosAngle = pN.x * nN.x + pN.y * nN.y
            let cosHalfAngle = joinNormal.x * nN.x + joinNormal.y * nN.y
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : Double.infinity
            let approxAngle = 2 * (max(0, 2 - 2 * cosHalfAngle)).squareRoot()
            let isSharpCorner = cosHalfAngle < Self.cosHalfSharpCorner && prev != nil && next != nil
            let turnsLeft = pN.x * nN.y - pN.y * nN.x > 0

            if isSharpCorner && i > first, let pv = prev {
                let segment = cur.dist(pv)
                if segment > 2 * sharpOffset && sharpOffset > 0 {
                    let newPrev = cur - split((cur - pv) * (sharpOffset / segment))
                    distance += newPrev.dist(pv)
                    addCurrentVertex(newPrev, pN, 0, 0)
                    prev = newPrev
                }
            }

            let middle = prev != nil && next != nil
            var j: Join
            if middle {
                switch join {
                case .miter: j = .miter
                case .bevel: j = .bevel
                case .round: j = .round
                }
            } else if isPolygon {
                j = .butt
            } else {
                switch cap {
                case .butt: j = .butt
                case .square: j = .square
                case .round: j = .round
                }
            }
            if middle && j == .round {
                if miterLength < roundLimit {
                    j = .miter
                } else if miterLength <= 2 {
                    j = .fakeRound
                }
            }
            if j == .miter && miterLength > miterLimit { j = .bevel }
            if j == .bevel {
                // The byte extrusion holds at most 2 widths: longer bevels are drawn flipped.
                if miterLength > 2 { j = .flipBevel }
                // A bevel too small to see: a miter saves a triangle.
                if miterLength < miterLimit { j = .miter }
            }

            if let pv = prev { distance += cur.dist(pv) }

            switch j {
            case .miter:
                addCurrentVertex(cur, joinNormal * miterLength, 0, 0)
            case .flipBevel:
                var normal: P
                if miterLength > 100 {
                    // Almost parallel segments.
                    normal = nN * -1
                } else {
                    let bevelLength = miterLength * (pN + nN).length / (pN - nN).length
                    normal = joinNormal.perp * (bevelLength * (turnsLeft ? -1 : 1))
                }
                addCurrentVertex(cur, normal, 0, 0)
                addCurrentVertex(cur, normal * -1, 0, 0)
            case .bevel, .fakeRound:
                let offset = -(max(0, miterLength * miterLength - 1)).squareRoot()
                let offsetA = turnsLeft ? offset : 0
                let offsetB = turnsLeft ? 0 : offset
                // Close the previous segment with a bevel.
                if prev != nil { addCurrentVertex(cur, pN, offsetA, offsetB) }
                if j == .fakeRound {
                    // A fan of pie slices approximating a round join.
                    let n = Int((approxAngle * 180 / Double.pi / Self.degreesPerTriangle).rounded())
                    if n > 1 {
                        for m in 1..<n {
                            var t = Double(m) / Double(n)
                            if t != 0.5 {
                                // Approximate spherical interpolation of the normals.
                                let t2 = t - 0.5
                                let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                                let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                                t += t * t2 * (t - 1) * (a * t2 * t2 + b)
                            }
                            let extrude = ((nN - pN) * t + pN).unit * (turnsLeft ? -1 : 1)
                            addHalfVertex(cur, extrude, round: false, up: turnsLeft, direction: 0)
                        }
                    }
                }
                // Start the next segment.
                if next != nil { addCurrentVertex(cur, nN, -offsetA, -offsetB) }
            case .butt:
                addCurrentVertex(cur, joinNormal, 0, 0)
            case .square:
                let offset: Double = prev != nil ? 1 : -1
                addCurrentVertex(cur, joinNormal, offset, offset)
            case .round:
                if prev != nil {
                    // End the previous segment with a butt, then the round cap or join.
                    addCurrentVertex(cur, pN, 0, 0)
                    addCurrentVertex(cur, pN, 1, 1, round: true)
                }
                if next != nil {
                    addCurrentVertex(cur, nN, -1, -1, round: true)
                    addCurrentVertex(cur, nN, 0, 0)
                }
            }

            if isSharpCorner && i < len - 1, let nv = next {
                let segment = cur.dist(nv)
                if segment > 2 * sharpOffset && sharpOffset > 0 {
                    let newCurrent = cur + split((nv - cur) * (sharpOffset / segment))
                    distance += newCurrent.dist(cur)
                    addCurrentVertex(newCurrent, nN, 0, 0)
                    cur = newCurrent
                }
            }
            current = cur
        }
        mesh.progressLength = max(mesh.progressLength, distance)
    }

    /// The step to a sharp-corner split vertex, rounded like MapLibre's `_round()` when asked.
    private func split(_ step: P) -> P {
        roundsSplitVertices ? P(step.x.rounded(), step.y.rounded()) : step
    }

    /// A vertex pair at `p`: the left one at `normal` turned forward by `endLeft`, the right one at `−normal` turned
    /// by `endRight` (MapLibre `addCurrentVertex`).
    private mutating func addCurrentVertex(
        _ p: P, _ normal: P, _ endLeft: Double, _ endRight: Double, round: Bool = false
    ) {
        let left = P(normal.x + normal.y * endLeft, normal.y - normal.x * endLeft)
        let right = P(-normal.x + normal.y * endRight, -normal.y - normal.x * endRight)
        addHalfVertex(p, left, round: round, up: false, direction: endLeft)
        addHalfVertex(p, right, round: round, up: true, direction: -endRight)
    }

    /// One vertex; with the previous left and right vertices it closes a triangle (MapLibre `addHalfVertex`).
    private mutating func addHalfVertex(_ p: P, _ extrude: P, round: Bool, up: Bool, direction: Double) {
        @inline(__always) func quantise(_ v: Double) -> Double {
            min(127, max(-128, (v * Self.extrudeScale).rounded())) / Self.extrudeScale
        }
        let e = mesh.vertices.count
        mesh.vertices.append(
            LineMeshVertex(
                center: ScreenPoint(x: p.x, y: p.y),
                extrude: ScreenPoint(x: quantise(extrude.x), y: quantise(extrude.y)), round: round, up: up,
                direction: direction == 0 ? 0 : (direction < 0 ? -1 : 1), distance: distance))
        if e1 >= 0 && e2 >= 0 {
            mesh.indices.append(UInt32(e1))
            mesh.indices.append(UInt32(e2))
            mesh.indices.append(UInt32(e))
        }
        if up { e2 = e } else { e1 = e }
    }
}

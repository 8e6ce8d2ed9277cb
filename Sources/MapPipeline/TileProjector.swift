import MapData
import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps one tile's local coordinates (extent units, origin top-left) to screen points.
///
/// Flat cameras (pitch 0) and tile images use an affine map. Pitched cameras project each vertex through the camera
/// (perspective); before that, geometry is clipped to the ground strip the camera can show, between the near plane
/// (depth ≥ ``nearDepthFactor`` × camera distance) and the horizon limit (depth ≤ `CameraTransform.maximumDepthFactor`
/// × distance), so nothing behind the camera or beyond the horizon is drawn.
struct TileProjector {
    /// Points nearer than this many camera distances are clipped away; at the largest pitch (65°) the bottom edge of
    /// the view lies at about 0.55 D, so nothing visible is lost.
    static let nearDepthFactor = 0.1

    enum Mode {
        case affine(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
        case perspective(CameraTransform, nwX: Double, nwY: Double, unit: Double)
    }

    let mode: Mode
    /// depth(x, y) = depthX · x + depthY · y + depth0 in tile units (perspective only).
    private let depthX: Double
    private let depthY: Double
    private let depth0: Double
    /// Perspective only: the camera's projection of the tile's ground plane as affine numerators over the depth,
    /// `screen = origin + (numX, numY) / max(depth, minimumDepth)` (`CameraState.screenPoint(forUnwrapped:)`'s formula
    /// with the tile's offset folded in), so a vertex costs a few multiply-adds and one division.
    private var numX = (x: 0.0, y: 0.0, c: 0.0)
    private var numY = (x: 0.0, y: 0.0, c: 0.0)
    private var origin = ScreenPoint.zero
    private var minimumDepth = 0.0
    private let nearDepth: Double
    private let farDepth: Double
    /// Screen points per tile unit near the tile (for choosing buffers and simplification); 1 for tile images.
    let pointsPerUnit: Double
    /// The bearing of an affine map made from a camera (0 for tile images).
    var affineBearing = 0.0
    /// For a tile image: the bearing the image is turned by when composed (its frame is north-up), else `nil`.
    var imageBearing: Double?

    /// The affine map of a tile under a flat camera (also used for tile images by passing a plain affine).
    init(affine a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double) {
        self.init(
            mode: .affine(a: a, b: b, c: c, d: d, tx: tx, ty: ty), depthX: 0, depthY: 0, depth0: 1,
            nearDepth: -.infinity, farDepth: .infinity, pointsPerUnit: (a * a + b * b).squareRoot())
    }

    /// The map of `tile` (extent `extent`) through `camera`: affine when the camera is flat, else perspective.
    init(tile: TileID, extent: Int, camera: CameraTransform) {
        let n = Double(1 << tile.z)
        let unit = 1 / (n * Double(extent))
        let nwX = Double(tile.unwrappedX) / n
        let nwY = Double(tile.y) / n
        let e = Double(extent)
        let p0 = camera.screenPoint(forUnwrapped: WorldPoint(x: nwX, y: nwY))
        let px = camera.screenPoint(forUnwrapped: WorldPoint(x: nwX + unit * e, y: nwY))
        let py = camera.screenPoint(forUnwrapped: WorldPoint(x: nwX, y: nwY + unit * e))
        if camera.state.pitch == 0 {
            self.init(
                affine: (px.x - p0.x) / e, (px.y - p0.y) / e, (py.x - p0.x) / e, (py.y - p0.y) / e, p0.x, p0.y)
            affineBearing = camera.state.bearing
            return
        }
        // The camera's formulas (CameraState.screenPoint(forUnwrapped:), depth(of:)) in the tile's units: the turned
        // ground offsets rx, ry and the depth are affine in (x, y).
        let w = camera.worldSize
        let b = camera.state.bearing * .pi / 180
        let p = camera.state.pitch * .pi / 180
        let (sb, cb, sp, cp) = (sin(b), cos(b), sin(p), cos(p))
        let ox = (nwX - camera.centerWorld.x) * w
        let oy = (nwY - camera.centerWorld.y) * w
        let u = unit * w
        let rx = (x: u * cb, y: u * sb, c: ox * cb + oy * sb)
        let ry = (x: -u * sb, y: u * cb, c: -ox * sb + oy * cb)
        let dist = camera.distance
        self.init(
            mode: .perspective(camera, nwX: nwX, nwY: nwY, unit: unit), depthX: -ry.x * sp, depthY: -ry.y * sp,
            depth0: dist - ry.c * sp, nearDepth: dist * Self.nearDepthFactor,
            farDepth: dist * CameraTransform.maximumDepthFactor, pointsPerUnit: camera.worldSize * unit)
        numX = (rx.x * dist, rx.y * dist, rx.c * dist)
        numY = (ry.x * cp * dist, ry.y * cp * dist, ry.c * cp * dist)
        origin = ScreenPoint(x: camera.opticalCenter.x, y: camera.opticalCenter.y)
        minimumDepth = dist * 1e-9
    }

    private init(
        mode: Mode, depthX: Double, depthY: Double, depth0: Double, nearDepth: Double, farDepth: Double,
        pointsPerUnit: Double
    ) {
        self.mode = mode
        self.depthX = depthX
        self.depthY = depthY
        self.depth0 = depth0
        self.nearDepth = nearDepth
        self.farDepth = farDepth
        self.pointsPerUnit = pointsPerUnit
    }

    /// The camera bearing in degrees (0 for tile images, which the compositor turns).
    var bearing: Double {
        if case .perspective(let camera, _, _, _) = mode { return camera.state.bearing }
        return affineBearing
    }

    /// `D / depth` at a tile-unit point under perspective (1 when flat).
    func perspectiveScale(_ x: Double, _ y: Double) -> Double {
        guard case .perspective(let camera, _, _, _) = mode else { return 1 }
        return camera.distance / max(depthX * x + depthY * y + depth0, camera.distance * 1e-3)
    }

    var isPerspective: Bool {
        if case .perspective = mode { return true }
        return false
    }

    @inline(__always) func project(_ x: Double, _ y: Double) -> ScreenPoint {
        switch mode {
        case .affine(let a, let b, let c, let d, let tx, let ty):
            return ScreenPoint(x: a * x + c * y + tx, y: b * x + d * y + ty)
        case .perspective:
            let k = 1 / max(depthX * x + depthY * y + depth0, minimumDepth)
            return ScreenPoint(
                x: origin.x + (numX.x * x + numX.y * y + numX.c) * k,
                y: origin.y + (numY.x * x + numY.y * y + numY.c) * k)
        }
    }

    /// Whether every point of the tile-unit box lies in the visible depth range (always true when flat): geometry
    /// inside needs no clipping before it is projected.
    func containsDepthRange(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        guard isPerspective else { return true }
        // Depth is affine: its extremes over the box are at corners.
        for (x, y) in [(minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY)] {
            let d = depthX * x + depthY * y + depth0
            guard d >= nearDepth, d <= farDepth else { return false }
        }
        return true
    }

    /// The map of tile units to screen points as one homography: exact for both modes (under perspective the
    /// projection of the tile's ground plane, the weight being the depth; ``project(_:_:)`` is this map with the
    /// depth kept above a tiny minimum).
    var homography: RenderHomography {
        switch mode {
        case .affine(let a, let b, let c, let d, let tx, let ty):
            return RenderHomography(a, c, tx, b, d, ty, 0, 0, 1)
        case .perspective:
            let o = origin
            return RenderHomography(
                numX.x + o.x * depthX, numX.y + o.x * depthY, numX.c + o.x * depth0, numY.x + o.y * depthX,
                numY.y + o.y * depthY, numY.c + o.y * depth0, depthX, depthY, depth0)
        }
    }

    /// The tile's square `0…extent` clipped to the visible depth range, as a convex polygon in tile units (empty when
    /// none of it is visible; the whole square when flat).
    func visibleSquare(extent: Double) -> [ScreenPoint] {
        var pts = [0, 0, extent, 0, extent, extent, 0, extent]
        if isPerspective {
            pts = clipPolygon(pts, sign: 1, limit: nearDepth)
            pts = clipPolygon(pts, sign: -1, limit: -farDepth)
        }
        return stride(from: 0, to: pts.count - 1, by: 2).map { ScreenPoint(x: pts[$0], y: pts[$0 + 1]) }
    }

    /// The depth range of the visible part of the tile's square (perspective; `nil` when flat or nothing is
    /// visible): for choosing a tile image's resolution.
    func visibleDepths(extent: Double) -> ClosedRange<Double>? {
        guard isPerspective else { return nil }
        let depths = visibleSquare(extent: extent).map { depthX * $0.x + depthY * $0.y + depth0 }
        guard let lo = depths.min(), let hi = depths.max() else { return nil }
        return lo...hi
    }

    // MARK: Clipping to the visible depth range (perspective only)

    /// The rings of a polygon clipped to the visible depth range, as flat `[x0, y0, x1, y1, …]` arrays (open rings).
    func clipRing(_ ring: [VectorTilePoint], map: (VectorTilePoint) -> (Double, Double)) -> [Double] {
        var pts: [Double] = []
        pts.reserveCapacity(ring.count * 2)
        for p in ring {
            let (x, y) = map(p)
            pts.append(x)
            pts.append(y)
        }
        return clipRing(pts)
    }

    /// A ring of tile units (x, y pairs) clipped the same way.
    func clipRing(_ pts: [Double]) -> [Double] {
        guard isPerspective else { return pts }
        return clipPolygon(clipPolygon(pts, sign: 1, limit: nearDepth), sign: -1, limit: -farDepth)
    }

    /// Sutherland–Hodgman against `sign · depth ≥ limit`.
    private func clipPolygon(_ pts: [Double], sign: Double, limit: Double) -> [Double] {
        let n = pts.count / 2
        guard n >= 3 else { return [] }
        @inline(__always) func f(_ i: Int) -> Double {
            sign * (depthX * pts[2 * i] + depthY * pts[2 * i + 1] + depth0) - limit
        }
        var allInside = true
        for i in 0..<n where f(i) < 0 {
            allInside = false
            break
        }
        if allInside { return pts }
        var out: [Double] = []
        out.reserveCapacity(pts.count + 8)
        var prev = n - 1
        var fPrev = f(prev)
        for i in 0..<n {
            let fi = f(i)
            if (fi >= 0) != (fPrev >= 0) {
                let t = fPrev / (fPrev - fi)
                out.append(pts[2 * prev] + t * (pts[2 * i] - pts[2 * prev]))
                out.append(pts[2 * prev + 1] + t * (pts[2 * i + 1] - pts[2 * prev + 1]))
            }
            if fi >= 0 {
                out.append(pts[2 * i])
                out.append(pts[2 * i + 1])
            }
            prev = i
            fPrev = fi
        }
        return out.count >= 6 ? out : []
    }

    /// A line clipped to the visible depth range: zero or more flat polylines.
    func clipLine(_ line: [VectorTilePoint], map: (VectorTilePoint) -> (Double, Double)) -> [[Double]] {
        var pts: [Double] = []
        pts.reserveCapacity(line.count * 2)
        for p in line {
            let (x, y) = map(p)
            pts.append(x)
            pts.append(y)
        }
        guard isPerspective else { return pts.count >= 4 ? [pts] : [] }
        var result: [[Double]] = []
        for piece in clipPolyline(pts, sign: 1, limit: nearDepth) {
            result.append(contentsOf: clipPolyline(piece, sign: -1, limit: -farDepth))
        }
        return result
    }

    private func clipPolyline(_ pts: [Double], sign: Double, limit: Double) -> [[Double]] {
        let n = pts.count / 2
        guard n >= 2 else { return [] }
        @inline(__always) func f(_ i: Int) -> Double {
            sign * (depthX * pts[2 * i] + depthY * pts[2 * i + 1] + depth0) - limit
        }
        var result: [[Double]] = []
        var current: [Double] = []
        var fPrev = f(0)
        if fPrev >= 0 { current = [pts[0], pts[1]] }
        for i in 1..<n {
            let fi = f(i)
            if (fi >= 0) != (fPrev >= 0) {
                let t = fPrev / (fPrev - fi)
                let x = pts[2 * (i - 1)] + t * (pts[2 * i] - pts[2 * (i - 1)])
                let y = pts[2 * (i - 1) + 1] + t * (pts[2 * i + 1] - pts[2 * (i - 1) + 1])
                current.append(x)
                current.append(y)
                if fi < 0 {
                    if current.count >= 4 { result.append(current) }
                    current = []
                }
            }
            if fi >= 0 {
                current.append(pts[2 * i])
                current.append(pts[2 * i + 1])
            }
            fPrev = fi
        }
        if current.count >= 4 { result.append(current) }
        return result
    }

    /// Whether a tile-unit point lies in the visible depth range (always true when flat).
    func isVisible(_ x: Double, _ y: Double) -> Bool {
        guard isPerspective else { return true }
        let d = depthX * x + depthY * y + depth0
        return d >= nearDepth && d <= farDepth
    }

    /// The world point of a tile-unit point of `tile` with extent `extent`.
    static func world(_ x: Double, _ y: Double, tile: TileID, extent: Int) -> WorldPoint {
        let n = Double(1 << tile.z)
        return WorldPoint(
            x: (Double(tile.unwrappedX) + x / Double(extent)) / n, y: (Double(tile.y) + y / Double(extent)) / n)
    }
}

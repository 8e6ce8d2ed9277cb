// Software rasterisation of line meshes with GL semantics: MapLibre's line.vertex.glsl / line.fragment.glsl on a
// CPU, into premultiplied BGRA pixels (the byte order of RasterImage and Cairo's ARGB32 on little-endian machines).
import MapGeometry

/// A premultiplied BGRA pixel buffer the rasteriser writes into (not owned).
///
/// `base` points at the top-left pixel; row `y` starts `y × bytesPerRow` bytes later; each pixel is 4 bytes
/// B, G, R, A (premultiplied alpha). The caller keeps the memory alive and writable during the draw.
public struct LinePixelTarget {
    /// The top-left pixel.
    public var base: UnsafeMutablePointer<UInt8>
    /// Width in pixels, `≥ 0`.
    public var width: Int
    /// Height in pixels, `≥ 0`.
    public var height: Int
    /// Bytes from one row to the next, `≥ 4 × width`.
    public var bytesPerRow: Int

    /// Wraps a buffer; see the properties.
    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }
}

/// An integer device-pixel rectangle `[minX, maxX) × [minY, maxY)`.
public struct PixelRect: Hashable, Sendable {
    /// First column inside.
    public var minX: Int
    /// First row inside.
    public var minY: Int
    /// First column past the right edge.
    public var maxX: Int
    /// First row past the bottom edge.
    public var maxY: Int

    /// Creates a rectangle from its edges; an inverted rectangle is empty.
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Whether no pixel is inside.
    public var isEmpty: Bool { maxX <= minX || maxY <= minY }

    /// The overlap of two rectangles (possibly empty).
    public func intersection(_ o: PixelRect) -> PixelRect {
        PixelRect(minX: max(minX, o.minX), minY: max(minY, o.minY), maxX: min(maxX, o.maxX), maxY: min(maxY, o.maxY))
    }

    /// The smallest rectangle holding both (an empty one's edges count as any other's).
    public func union(_ o: PixelRect) -> PixelRect {
        PixelRect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
}

/// Draws ``LineMeshCommand``s into pixels the way MapLibre's line shaders and GL do.
///
/// - Geometry (`line.vertex.glsl`): every vertex is put at `center + offset2 + extrude × outset` in points (see
///   ``LineMeshCommand``), then through `transform` into device pixels.
/// - Coverage: a pixel is drawn by a triangle when its centre lies inside it, with the top-left rule on edges (a pixel
///   centre exactly on an edge shared by two triangles is drawn by exactly one). Vertices are snapped to 1/256 pixel
///   (GL sub-pixel precision) so the edge tests are exact. No coverage anti-aliasing: only the fade below softens the
///   sides, so butt ends and join edges are hard, as in MapLibre.
/// - Fade (`line.fragment.glsl`): `v_normal` is interpolated linearly over the triangle;
///   `alpha = clamp(min(|v_normal|·outset − (inset − blur2), outset − |v_normal|·outset) / blur2, 0, 1)`.
/// - Colour: the paint's straight colour, premultiplied, × alpha × opacity, blended source-over onto the pixel
///   (`ONE, ONE_MINUS_SRC_ALPHA`), triangle by triangle, so overlapping triangles of a translucent line darken.
///
/// Triangles with a non-finite vertex or a vertex more than 2²¹ pixels from the clip are skipped. Thread rules:
/// stateless; concurrent draws into different buffers are fine.
public enum LineRasterizer {
    /// Sub-pixel precision of vertex positions: 1/256 pixel (8 bits, as common GL implementations).
    static let subpixel = 256.0
    /// Vertices farther than this from the clip origin (device pixels) make their triangle draw nothing.
    static let maxCoordinate = Double(1 << 21)

    /// Draws `command` into `target`.
    /// - Parameters:
    ///   - command: the mesh and its paint; a width, gap, blur or opacity that is not finite draws nothing.
    ///   - target: the pixels, premultiplied BGRA.
    ///   - transform: points → device pixels of `target` (pixel `(i, j)` covers `[i, i+1) × [j, j+1)`).
    ///   - clip: device pixels that may change; intersected with the target's bounds.
    ///   - pixelRatio: device pixels per point of the style (the display list's scale), `> 0`; sets the ½-pixel
    ///     anti-aliasing outset and the 1-pixel fade. Non-positive or non-finite means 1.
    public static func draw(
        _ command: LineMeshCommand, into target: LinePixelTarget, transform: RenderTransform, clip: PixelRect,
        pixelRatio: Double
    ) {
        let clip = clip.intersection(PixelRect(minX: 0, minY: 0, maxX: target.width, maxY: target.height))
        guard !clip.isEmpty, !command.mesh.isEmpty else { return }
        let ratio = pixelRatio.isFinite && pixelRatio > 0 ? pixelRatio : 1
        let width = command.width
        let gap = command.gapWidth
        let offset = command.offset
        let blur = command.blur
        let opacity = command.opacity
        guard width.isFinite, gap.isFinite, offset.isFinite, blur.isFinite, opacity.isFinite, transform.isFinite
        else { return }
        let opacity01 = min(1, max(0, opacity))
        guard opacity01 > 0, width >= 0 else { return }
        // A transparent uniform colour draws nothing.
        if let c = command.paint.uniformColor, min(1, max(0, c.alpha)) == 0 { return }

        // line.vertex.glsl
        let aa = 0.5 / ratio
        let halfGap = max(0, gap) / 2
        let halfWidth = width / 2
        let inset = halfGap + (halfGap > 0 ? aa : 0)
        let outset = halfGap + halfWidth * (halfGap > 0 ? 2 : 1) + (halfWidth == 0 ? 0 : aa)
        let blur2 = max(0, blur) + 1 / ratio
        guard outset > 0 else { return }

        // Device positions of every vertex.
        let mesh = command.mesh
        let count = mesh.vertices.count
        var xs = [Double](repeating: .nan, count: count)
        var ys = [Double](repeating: .nan, count: count)
        let ox = Double(clip.minX)
        let oy = Double(clip.minY)
        for (k, v) in mesh.vertices.enumerated() {
            let e = v.extrude
            let ny: Double = v.up ? 1 : -1
            var px = v.center.x + e.x * outset
            var py = v.center.y + e.y * outset
            if offset != 0 {
                // offset2 = −offset × extrude × normal.y × mat2(t, −u, u, t), u = direction / 2.
                let u = 0.5 * v.direction
                let t = 1 - abs(u)
                let s = -offset * ny
                px += s * (e.x * t - e.y * u)
                py += s * (e.x * u + e.y * t)
            }
            let dx = transform.a * px + transform.c * py + transform.tx - ox
            let dy = transform.b * px + transform.d * py + transform.ty - oy
            if dx.isFinite && dy.isFinite && abs(dx) < maxCoordinate && abs(dy) < maxCoordinate {
                xs[k] = roundedSubpixel(dx * subpixel)
                ys[k] = roundedSubpixel(dy * subpixel)
            }
        }

        // The clip polygon's edges, oriented so that inside is positive.
        var clipEdges: [Edge] = []
        if !command.clipPolygon.isEmpty {
            let poly = command.clipPolygon
            guard poly.count >= 3 else { return }
            var qx: [Double] = []
            var qy: [Double] = []
            for p in poly {
                let dx = transform.a * p.x + transform.c * p.y + transform.tx - ox
                let dy = transform.b * p.x + transform.d * p.y + transform.ty - oy
                guard dx.isFinite, dy.isFinite, abs(dx) < maxCoordinate, abs(dy) < maxCoordinate else { return }
                qx.append((dx * subpixel).rounded())
                qy.append((dy * subpixel).rounded())
            }
            var area = 0.0
            for k in qx.indices {
                let n = (k + 1) % qx.count
                area += qx[k] * qy[n] - qx[n] * qy[k]
            }
            guard area != 0 else { return }
            for k in qx.indices {
                let n = (k + 1) % qx.count
                if qx[k] == qx[n] && qy[k] == qy[n] { continue }
                clipEdges.append(
                    area > 0
                        ? Edge(qx[k], qy[k], qx[n], qy[n]) : Edge(qx[n], qy[n], qx[k], qy[k]))
            }
        }

        var raster = TriangleRaster(
            target: target, clip: clip, clipEdges: clipEdges, inset: inset, outset: outset, blur2: blur2,
            opacity: opacity01,
            paint: command.paint, progressStart: mesh.progressStart, progressLength: mesh.progressLength)
        let indices = mesh.indices
        var i = 0
        while i + 2 < indices.count {
            let a = Int(indices[i])
            let b = Int(indices[i + 1])
            let c = Int(indices[i + 2])
            i += 3
            guard a < count, b < count, c < count else { continue }
            guard !xs[a].isNaN, !xs[b].isNaN, !xs[c].isNaN else { continue }
            raster.draw(
                (xs[a], ys[a], mesh.vertices[a]), (xs[b], ys[b], mesh.vertices[b]), (xs[c], ys[c], mesh.vertices[c]))
        }
    }

    /// The 1/256-pixel snap of a vertex coordinate: `v.rounded()`, bit for bit (``Double/roundedHalfAwayFromZero``).
    @inline(__always) static func roundedSubpixel(_ v: Double) -> Double { v.roundedHalfAwayFromZero }

    /// Draws `command` into a ``RasterImage`` (tests, small hosts); see
    /// ``draw(_:into:transform:clip:pixelRatio:)``. `clip` defaults to the whole image.
    public static func draw(
        _ command: LineMeshCommand, into image: inout RasterImage, transform: RenderTransform,
        clip: PixelRect? = nil, pixelRatio: Double
    ) {
        let w = image.width
        let h = image.height
        guard w > 0, h > 0 else { return }
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            draw(
                command, into: LinePixelTarget(base: base, width: w, height: h, bytesPerRow: w * 4),
                transform: transform, clip: clip ?? PixelRect(minX: 0, minY: 0, maxX: w, maxY: h),
                pixelRatio: pixelRatio)
        }
    }

    /// The device-pixel bounds of what `command` can touch under `transform` (rounded outwards), or `nil` when
    /// it draws nothing or a value is not finite.
    public static func deviceBounds(of command: LineMeshCommand, transform: RenderTransform, pixelRatio: Double)
        -> PixelRect?
    {
        let ratio = pixelRatio.isFinite && pixelRatio > 0 ? pixelRatio : 1
        guard !command.mesh.isEmpty, command.width.isFinite, command.gapWidth.isFinite, command.offset.isFinite
        else { return nil }
        let reach =
            max(0, command.gapWidth) / 2 + max(0, command.width) * (command.gapWidth > 0 ? 1 : 0.5) + 0.5 / ratio
            + abs(command.offset)
        // Extrusions are at most ~2.03 long; an offset bent at a join at most twice that.
        let r = 2.05 * reach * 2
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for v in command.mesh.vertices {
            minX = min(minX, v.center.x)
            maxX = max(maxX, v.center.x)
            minY = min(minY, v.center.y)
            maxY = max(maxY, v.center.y)
        }
        minX -= r
        minY -= r
        maxX += r
        maxY += r
        let corners = [(minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY)].map {
            transform.apply(to: ScreenPoint(x: $0.0, y: $0.1))
        }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
            [x0, x1, y0, y1].allSatisfy(\.isFinite), max(abs(x0), abs(x1), abs(y0), abs(y1)) < 1e9
        else { return nil }
        return PixelRect(
            minX: Int(x0.rounded(.down)) - 1, minY: Int(y0.rounded(.down)) - 1, maxX: Int(x1.rounded(.up)) + 1,
            maxY: Int(y1.rounded(.up)) + 1)
    }
}

/// The per-command state of the triangle loop.
private struct TriangleRaster {
    let target: LinePixelTarget
    let clip: PixelRect
    let clipEdges: [Edge]
    let inset: Double
    let outset: Double
    let blur2: Double
    let invBlur2: Double
    let opacity: Double
    let paint: LinePaint
    /// A uniform paint's colour, premultiplied and times the opacity (`0…1`), with the bytes of a fully covered pixel
    /// when it is opaque; `nil` for a paint that varies per fragment.
    let uniform: (r: Double, g: Double, b: Double, a: Double, solid: UInt32?)?
    /// Whether a partly covered fragment of the opaque uniform colour leaves a pixel that already holds its
    /// ``uniform`` `solid` bytes unchanged, so the blend can be skipped there (see ``keepsSolid(_:)``).
    let solidIsKept: Bool
    let progressStart: Double
    let progressLength: Double

    init(
        target: LinePixelTarget, clip: PixelRect, clipEdges: [Edge], inset: Double, outset: Double, blur2: Double,
        opacity: Double,
        paint: LinePaint, progressStart: Double, progressLength: Double
    ) {
        self.target = target
        self.clip = clip
        self.clipEdges = clipEdges
        self.inset = inset
        self.outset = outset
        self.blur2 = blur2
        invBlur2 = 1 / blur2
        self.opacity = opacity
        self.paint = paint
        if let c = paint.uniformColor {
            let alpha = min(1, max(0, c.alpha))
            let r = c.red * alpha * opacity
            let g = c.green * alpha * opacity
            let b = c.blue * alpha * opacity
            let a = alpha * opacity
            // The bytes B, G, R, 255 in memory order (little-endian ARGB32).
            @inline(__always) func byte(_ v: Double) -> UInt32 { UInt32(UInt8(min(255, max(0, v * 255 + 0.5)))) }
            let solid: UInt32? =
                a >= 1 ? (byte(b) | byte(g) << 8 | byte(r) << 16 | 0xff00_0000).littleEndian : nil
            uniform = (r, g, b, a, solid)
            solidIsKept = solid != nil && Self.keepsSolid(r) && Self.keepsSolid(g) && Self.keepsSolid(b)
        } else {
            uniform = nil
            solidIsKept = false
        }
        self.progressStart = progressStart
        self.progressLength = progressLength
    }

    /// Whether blending a channel of value `c` (`0…1`, opaque colour) at any coverage `0 < k < 1` over a pixel
    /// whose channel already holds `c`'s byte `n` (`⌊255c + ½⌋`) gives `n` again.
    ///
    /// The blend gives `⌊(c·k)·255 + n·(1 − k) + ½⌋ = ⌊n − k·e + ½ + ε⌋` with `e = n − 255c` and `|ε| < 10⁻¹²`
    /// (a few roundings of values below 256), which is `n` whenever `|e| ≤ 0.49`: true for every colour given in
    /// bytes (`c = n / 255`), false only for a channel within 0.01 of a half byte (or outside `0…1`). The alpha
    /// channel (`1` over `255`) always stays 255.
    static func keepsSolid(_ c: Double) -> Bool {
        let v = c * 255
        guard v >= 0, v <= 255 else { return false }
        let n = Double(UInt8(v + 0.5))
        return abs(n - v) <= 0.49
    }

    typealias V = (x: Double, y: Double, v: LineMeshVertex)

    /// Rasterises one triangle; positions are in 1/256 device pixels relative to the clip origin.
    mutating func draw(_ a: V, _ b: V, _ c: V) {
        let p0 = a
        var p1 = b
        var p2 = c
        // The whole 1/256-pixel positions as integers, converted once (every vertex is within 2²¹ pixels).
        let i0 = (x: Int64(p0.x), y: Int64(p0.y))
        var i1 = (x: Int64(p1.x), y: Int64(p1.y))
        var i2 = (x: Int64(p2.x), y: Int64(p2.y))
        // Orient so that the edge functions are positive inside (twice the signed area, exactly).
        let area = (i1.x - i0.x) * (i2.y - i0.y) - (i1.y - i0.y) * (i2.x - i0.x)
        if area == 0 { return }
        if area < 0 {
            swap(&p1, &p2)
            swap(&i1, &i2)
        }
        let sub = LineRasterizer.subpixel
        // Bounding rows (pixel centres at (j + ½)·256).
        let minY = min(i0.y, i1.y, i2.y)
        let maxY = max(i0.y, i1.y, i2.y)
        let minX = min(i0.x, i1.x, i2.x)
        let maxX = max(i0.x, i1.x, i2.x)
        let width = clip.maxX - clip.minX
        let height = clip.maxY - clip.minY
        // ⌊(v − 128) / 256⌋ and ⌈(v − 128) / 256⌉ of whole 1/256-pixel values, by arithmetic shifts (exact).
        @inline(__always) func floorPixel(_ v: Int64) -> Int { Int(truncatingIfNeeded: (v - 128) >> 8) }
        @inline(__always) func ceilPixel(_ v: Int64) -> Int { Int(truncatingIfNeeded: -((128 - v) >> 8)) }
        // Only the pixel centres within the bounding box can be inside (or on an edge), so a triangle between two
        // rows or columns of centres (a hairline's sliver) draws nothing and no edge is set up for it.
        let rowStart = max(ceilPixel(minY), 0)
        let rowEnd = min(floorPixel(maxY), height - 1)
        let colLimit0 = max(ceilPixel(minX), 0)
        let colLimit1 = min(floorPixel(maxX), width - 1)
        guard rowStart <= rowEnd, colLimit0 <= colLimit1 else { return }

        // Edges as exact integer edge functions.
        let edges = (Edge(i1.x, i1.y, i2.x, i2.y), Edge(i2.x, i2.y, i0.x, i0.y), Edge(i0.x, i0.y, i1.x, i1.y))
        // The clip polygon's edges this triangle crosses (bit i: edge i): an edge with every vertex strictly inside
        // passes every pixel centre of the triangle, one with every vertex strictly outside passes none.
        var clipMask: UInt64 = 0
        let clipsAll = clipEdges.count > 64
        if !clipEdges.isEmpty {
            for (i, e) in clipEdges.enumerated() {
                let v0 = e.value(p0.x, p0.y)
                let v1 = e.value(p1.x, p1.y)
                let v2 = e.value(p2.x, p2.y)
                if v0 > 0 && v1 > 0 && v2 > 0 { continue }
                if v0 < 0 && v1 < 0 && v2 < 0 { return }
                clipMask |= i < 64 ? 1 << UInt64(i) : 0
            }
        }

        // Attribute planes over device pixels: value(x, y) = ax·x + ay·y + a0 with x, y in pixels.
        let x0 = p0.x / sub
        let y0 = p0.y / sub
        let x1 = p1.x / sub
        let y1 = p1.y / sub
        let x2 = p2.x / sub
        let y2 = p2.y / sub
        let det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        guard det != 0, det.isFinite else { return }
        @inline(__always) func plane(_ f0: Double, _ f1: Double, _ f2: Double) -> (Double, Double, Double) {
            let dx = ((f1 - f0) * (y2 - y0) - (f2 - f0) * (y1 - y0)) / det
            let dy = ((f2 - f0) * (x1 - x0) - (f1 - f0) * (x2 - x0)) / det
            return (dx, dy, f0 - dx * x0 - dy * y0)
        }
        // No round vertex (most of a line's triangles): the distance is |across| alone, no square root per pixel
        // (for binary floating point √fl(y²) = |y| exactly, so the pixels are the same).
        let straight = !p0.v.round && !p1.v.round && !p2.v.round
        if straight, clipMask == 0, !clipsAll, let u = uniform {
            // The across plane is set up at the first row with a pixel (a hairline's sliver may have none).
            drawStraightUniform(
                edges, rows: rowStart...rowEnd, columns: colLimit0...colLimit1,
                across: AcrossPlane(
                    x0: x0, y0: y0, x1: x1, y1: y1, x2: x2, y2: y2, det: det, f0: p0.v.up ? 1 : -1,
                    f1: p1.v.up ? 1 : -1, f2: p2.v.up ? 1 : -1), u)
            return
        }
        let ny = plane(p0.v.up ? 1 : -1, p1.v.up ? 1 : -1, p2.v.up ? 1 : -1)
        // The round plane is read only when a vertex is round.
        let nx = straight ? (0, 0, 0) : plane(p0.v.round ? 1 : 0, p1.v.round ? 1 : 0, p2.v.round ? 1 : 0)
        let dist = uniform == nil ? plane(p0.v.distance, p1.v.distance, p2.v.distance) : (0, 0, 0)

        let base = target.base
        let stride = target.bytesPerRow
        // alpha = min(dist − (inset − blur2), outset − dist) / blur2
        let innerEdge = blur2 - inset
        // Each edge's boundary column, walked row by row (exact integer steps, no per-row search).
        var walks = TriangleWalk(edges, row: rowStart)
        for row in rowStart...rowEnd {
            var lo = colLimit0
            var hi = colLimit1
            walks.nextRow(lo: &lo, hi: &hi)
            if clipMask != 0 || clipsAll {
                for (i, e) in clipEdges.enumerated() where lo <= hi && (clipsAll || clipMask & (1 << UInt64(i)) != 0) {
                    e.limit(row: row, lo: &lo, hi: &hi)
                }
            }
            if lo > hi { continue }
            let yc = Double(row) + 0.5
            let xc = Double(lo) + 0.5
            var vx = nx.0 * xc + nx.1 * yc + nx.2
            var vy = ny.0 * xc + ny.1 * yc + ny.2
            var vd = dist.0 * xc + dist.1 * yc + dist.2
            var p = base + (clip.minY + row) * stride + (clip.minX + lo) * 4
            if let u = uniform {
                // One colour (premultiplied by opacity once); fully covered opaque pixels are stored directly.
                for _ in lo...hi {
                    let d = (straight ? abs(vy) : (vx * vx + vy * vy).squareRoot()) * outset
                    let alpha = min(d + innerEdge, outset - d) * invBlur2
                    if alpha >= 1, let solid = u.solid {
                        UnsafeMutableRawPointer(p).storeBytes(of: solid, as: UInt32.self)
                    } else if alpha > 0 {
                        let k = min(alpha, 1)
                        blend(p, u.r * k, u.g * k, u.b * k, u.a * k)
                    }
                    vx += nx.0
                    vy += ny.0
                    p += 4
                }
                continue
            }
            for _ in lo...hi {
                let d = (straight ? abs(vy) : (vx * vx + vy * vy).squareRoot()) * outset
                var alpha = min(d + innerEdge, outset - d) * invBlur2
                alpha = alpha < 0 ? 0 : (alpha > 1 ? 1 : alpha)
                if alpha > 0 {
                    let k = alpha * opacity
                    let progress = progressLength > 0 ? min(1, max(0, (vd + progressStart) / progressLength)) : 0
                    let col = paint.color(at: LineFragment(distance: vd, across: vy, progress: progress))
                    let ca = min(1, max(0, col.alpha)) * k
                    blend(p, col.red * ca, col.green * ca, col.blue * ca, ca)
                }
                vx += nx.0
                vy += ny.0
                vd += dist.0
                p += 4
            }
        }
    }

    /// The common triangle, specialised: no round vertex, one colour, no clip polygon edge across it (a fill
    /// outline's segment, most of a line's body). The same walks, plane and per-pixel arithmetic as the general loop
    /// in ``draw(_:_:_:)``, without its per-row and per-pixel choices, so every pixel gets the same value.
    private func drawStraightUniform(
        _ edges: (Edge, Edge, Edge), rows: ClosedRange<Int>, columns: ClosedRange<Int>,
        across: AcrossPlane, _ u: (r: Double, g: Double, b: Double, a: Double, solid: UInt32?)
    ) {
        var ny = (0.0, 0.0, 0.0)
        var hasPlane = false
        let base = target.base
        let stride = target.bytesPerRow
        let innerEdge = blur2 - inset
        let outset = outset
        let invBlur2 = invBlur2
        let solidIsKept = solidIsKept
        let keptSolid = u.solid ?? 0
        var walks = TriangleWalk(edges, row: rows.lowerBound, steps: rows.count > 1)
        var rowPointer = base + (clip.minY + rows.lowerBound) * stride + clip.minX * 4
        // Plain counting loops (no range iterators): a hairline's triangle has a pixel or two a row.
        var row = rows.lowerBound
        let lastRow = rows.upperBound
        while row <= lastRow {
            var lo = columns.lowerBound
            var hi = columns.upperBound
            walks.nextRow(lo: &lo, hi: &hi)
            defer {
                rowPointer += stride
                row &+= 1
            }
            if lo > hi { continue }
            if !hasPlane {
                ny = across.plane
                hasPlane = true
            }
            let yc = Double(row) + 0.5
            let xc = Double(lo) + 0.5
            var vy = ny.0 * xc + ny.1 * yc + ny.2
            var p = rowPointer + lo * 4
            var remaining = hi &- lo &+ 1
            while remaining > 0 {
                remaining &-= 1
                let d = abs(vy) * outset
                let alpha = min(d + innerEdge, outset - d) * invBlur2
                if alpha >= 1, let solid = u.solid {
                    UnsafeMutableRawPointer(p).storeBytes(of: solid, as: UInt32.self)
                } else if alpha > 0 {
                    // A pixel already holding the opaque colour keeps it (``keepsSolid(_:)``): a fill's outline
                    // over its own fill, the shared edges of a polygon cut in pieces.
                    if !(solidIsKept && UnsafeRawPointer(p).loadUnaligned(as: UInt32.self) == keptSolid) {
                        let k = min(alpha, 1)
                        blend(p, u.r * k, u.g * k, u.b * k, u.a * k)
                    }
                }
                vy += ny.0
                p += 4
            }
        }
    }

    /// Source-over of a premultiplied colour (components `0…1`) onto a BGRA pixel.
    @inline(__always) private func blend(
        _ p: UnsafeMutablePointer<UInt8>, _ r: Double, _ g: Double, _ b: Double, _ a: Double
    ) {
        if a >= 1 {
            p[0] = roundedByte(b * 255)
            p[1] = roundedByte(g * 255)
            p[2] = roundedByte(r * 255)
            p[3] = 255
            return
        }
        let keep = 1 - a
        @inline(__always) func mix(_ s: Double, _ d: UInt8) -> UInt8 { roundedByte(s * 255 + Double(d) * keep) }
        p[0] = mix(b, p[0])
        p[1] = mix(g, p[1])
        p[2] = mix(r, p[2])
        p[3] = mix(a, p[3])
    }

}

/// What a triangle's attribute plane is made from (``TriangleRaster/draw(_:_:_:)``'s `plane`), set up only when used.
private struct AcrossPlane {
    let x0, y0, x1, y1, x2, y2, det, f0, f1, f2: Double

    /// The same arithmetic as the triangle loop's `plane(f0, f1, f2)`, so the same values.
    @inline(__always) var plane: (Double, Double, Double) {
        let dx = ((f1 - f0) * (y2 - y0) - (f2 - f0) * (y1 - y0)) / det
        let dy = ((f2 - f0) * (x1 - x0) - (f1 - f0) * (x2 - x0)) / det
        return (dx, dy, f0 - dx * x0 - dy * y0)
    }
}

/// One triangle edge as `E(X, Y) = A·X + B·Y + C`, positive inside, in exact integer 1/256-pixel units (vertices
/// within 2²¹ pixels keep every term below 2⁶⁰).
private struct Edge {
    let a: Int64
    let b: Int64
    let c: Int64
    /// Top-left edges include pixel centres on the edge (`E ≥ 0`), the others exclude them (`E > 0`).
    let bias: Int64

    /// The edge from `(x0, y0)` to `(x1, y1)` (whole 1/256 pixels); inside is to its right on a y-down screen.
    init(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        self.init(Int64(x0), Int64(y0), Int64(x1), Int64(y1))
    }

    /// The edge from `(x0, y0)` to `(x1, y1)` in whole 1/256 pixels, as integers.
    init(_ x0: Int64, _ y0: Int64, _ x1: Int64, _ y1: Int64) {
        a = y0 - y1
        b = x1 - x0
        c = x0 * y1 - x1 * y0
        bias = (a > 0 || (a == 0 && b > 0)) ? 1 : 0
    }

    /// `E` at a vertex `(x, y)` (whole 1/256 pixels), without the bias: positive strictly inside.
    @inline(__always) func value(_ x: Double, _ y: Double) -> Int64 { a * Int64(x) + b * Int64(y) + c }

    /// Narrows the columns `lo…hi` to those whose centre satisfies the edge on the row `row`.
    @inline(__always) func limit(row: Int, lo: inout Int, hi: inout Int) {
        let walk = EdgeWalk(self, row: row)
        walk.limit(lo: &lo, hi: &hi)
    }
}

/// A triangle's three edge walks: each row's columns inside all three, then on to the next row.
private struct TriangleWalk {
    var walks: (EdgeWalk, EdgeWalk, EdgeWalk)

    /// The walks of `edges` from `row`; without `steps` (a triangle of one row) they do not move on.
    init(_ edges: (Edge, Edge, Edge), row: Int, steps: Bool = true) {
        walks = (
            EdgeWalk(edges.0, row: row, steps: steps), EdgeWalk(edges.1, row: row, steps: steps),
            EdgeWalk(edges.2, row: row, steps: steps)
        )
    }

    /// Narrows `lo…hi` to the current row's columns inside the triangle, and steps every edge to the next row.
    @inline(__always) mutating func nextRow(lo: inout Int, hi: inout Int) {
        walks.0.limit(lo: &lo, hi: &hi)
        walks.1.limit(lo: &lo, hi: &hi)
        walks.2.limit(lo: &lo, hi: &hi)
        walks.0.advance()
        walks.1.advance()
        walks.2.advance()
    }
}

/// One edge's boundary column on successive rows, exactly: the first column inside (`a > 0`) or the last (`a < 0`)
/// is `q + 1` or `q` for the floor quotient `q = ⌊n / d⌋` of a numerator that changes by a fixed amount a row, so the
/// walk steps quotient and remainder instead of searching each row.
private struct EdgeWalk {
    /// −1: inside for columns ≥ `q + 1`; 1: inside for columns ≤ `q`; 0: the edge is horizontal (`k` decides).
    let kind: Int8
    /// The floor quotient and its remainder `0 ≤ r < d`.
    var q: Int64
    var r: Int64
    let d: Int64
    /// The per-row step of the numerator as quotient and remainder of `d`.
    let stepQ: Int64
    let stepR: Int64
    /// For a horizontal edge: `k = b·Y + c + bias` on the current row and its per-row step.
    var k: Int64
    let stepK: Int64

    /// The walk of `e` from `row`; without `steps` its per-row step is not worked out (it stays on `row`).
    init(_ e: Edge, row: Int, steps: Bool = true) {
        // Inside ⟺ a·X + k > 0 with k = b·Y + c + bias, X = 256·col + 128, Y = 256·row + 128.
        let k = e.b * (Int64(row) * 256 + 128) + e.c + e.bias
        self.k = k
        stepK = e.b * 256
        if e.a == 0 {
            kind = 0
            q = 0
            r = 0
            d = 1
            stepQ = 0
            stepR = 0
            return
        }
        let n: Int64
        let step: Int64
        if e.a > 0 {
            // 256a·col > −k − 128a ⟺ col ≥ ⌊(−k − 128a) / 256a⌋ + 1; the numerator falls by 256b a row.
            kind = -1
            d = 256 * e.a
            n = -k - 128 * e.a
            step = -256 * e.b
        } else {
            // 256|a|·col < k − 128|a| ⟺ col ≤ ⌊(k + 128a − 1) / 256|a|⌋; the numerator rises by 256b a row.
            kind = 1
            d = -256 * e.a
            n = k + 128 * e.a - 1
            step = 256 * e.b
        }
        (q, r) = Self.floorDivision(n, d)
        // One row: no step (the walk does not move on).
        (stepQ, stepR) = steps ? Self.floorDivision(step, d) : (0, 0)
    }

    @inline(__always) static func floorDivision(_ n: Int64, _ d: Int64) -> (Int64, Int64) {
        var q = n / d
        var r = n - q * d
        if r < 0 {
            q -= 1
            r += d
        }
        return (q, r)
    }

    /// Narrows `lo…hi` to the columns inside the edge on the current row.
    @inline(__always) func limit(lo: inout Int, hi: inout Int) {
        if kind < 0 {
            let first = q + 1
            if first > Int64(lo) { lo = Int(truncatingIfNeeded: first) }
        } else if kind > 0 {
            if q < Int64(hi) { hi = Int(truncatingIfNeeded: q) }
        } else if k <= 0 {
            hi = lo - 1
        }
    }

    /// Moves to the next row.
    @inline(__always) mutating func advance() {
        q &+= stepQ
        r &+= stepR
        if r >= d {
            r &-= d
            q &+= 1
        }
        k &+= stepK
    }
}

import CCairo
import CPrefetch
import CairoGraphics
import Dispatch
import MapDrawing
import MapGeometry

/// Executes ``DrawCommand/projectedImage(_:)`` in Swift on an ARGB32 image surface's pixels.
///
/// Every device pixel whose centre lies inside a command's area (scanline spans of the convex polygon, half-open on
/// both axes, so two areas sharing an edge own each pixel once) is mapped through the inverse of device ← image-pixel
/// (the current matrix composed with the command's homography): numerator and denominator are linear along a row: exact
/// every 16 pixels, linear in between (perspective-correct spans). The image is sampled bilinearly in 8-bit fixed point
/// (or the nearest pixel), clamped at its edges, and blended source-over (premultiplied). Where the image is strongly
/// minified (a pixel's footprint at least twice ``MipLevels/minimumStep`` texels, judged once per span) a bilinear
/// command reads a box-filtered level of it instead (``MipLevels``), so far parts of a pitched frame read fewer texels.
/// Consecutive commands are drawn together in one pass over blocks of rows, the blocks shared out between threads when
/// the commands cover many pixels; within a row the commands are drawn in their order, so each pixel sees them in the
/// list's order.
extension CairoBackend {
    func projectedImages(_ batch: [ProjectedImageCommand], _ cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let ctm = RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        var prepared: [PreparedProjection] = []
        var bounds: PixelRect? = nil
        for command in batch {
            guard let p = prepare(command, ctm: ctm) else { continue }
            prepared.append(p)
            bounds = bounds?.union(p.bounds) ?? p.bounds
        }
        guard let bounds else { return }
        withDevicePixels(cr, matrix: m, bounds: bounds) { pixels, dx, dy, clip in
            let shift = RenderHomography(1, 0, dx, 0, 1, dy, 0, 0, 1)
            let jobs = prepared.compactMap { p -> ProjectiveBlit.Job? in
                guard let inverse = shift.concatenating(after: p.toDevice).inverse else { return nil }
                let polygon = p.deviceArea.map { ScreenPoint(x: $0.x + dx, y: $0.y + dy) }
                var levels = [p.source]
                let deepest = p.nearest ? 0 : MipLevels.deepestLevel(polygon, inverse: inverse)
                if deepest > 0 {
                    let chain = mipLevels[p.id] ?? MipLevels(p.source)
                    mipLevels[p.id] = chain
                    chain.extend(to: deepest)
                    levels = chain.levels
                }
                return ProjectiveBlit.Job(
                    levels: levels, deepest: deepest, inverse: inverse, polygon: polygon, alpha: p.alpha,
                    nearest: p.nearest)
            }
            ProjectiveBlit.draw(
                jobs,
                into: BlitTarget(
                    base: pixels.base, width: pixels.width, height: pixels.height, bytesPerRow: pixels.bytesPerRow),
                clip: clip)
        }
    }

    /// A command checked and mapped to device pixels (before the offset of the pixels drawn into).
    struct PreparedProjection {
        /// The image's ``ImageHandle/id``.
        let id: Int
        let source: BlitSource
        /// Device ← image pixel.
        let toDevice: RenderHomography
        let deviceArea: [ScreenPoint]
        let bounds: PixelRect
        let alpha: Int
        let nearest: Bool
    }

    /// `command` under the current matrix `ctm`; `nil` when it draws nothing (transparent, unknown image, degenerate
    /// or non-finite area).
    private func prepare(_ command: ProjectedImageCommand, ctm: RenderTransform) -> PreparedProjection? {
        let opacity = clamp01(command.opacity)
        guard opacity > 0, let surface = images[command.image.id], command.area.count >= 3,
            command.area.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
        else { return nil }
        guard let source = BlitSource(surface) else { return nil }
        let imageScale = command.image.scale > 0 ? command.image.scale : 1
        let toDevice = RenderHomography(ctm).concatenating(after: command.homography).concatenating(
            after: RenderHomography(1 / imageScale, 0, 0, 0, 1 / imageScale, 0, 0, 0, 1))
        let deviceArea = command.area.map { ctm.apply(to: $0) }
        guard let minX = deviceArea.map(\.x).min(), let maxX = deviceArea.map(\.x).max(),
            let minY = deviceArea.map(\.y).min(), let maxY = deviceArea.map(\.y).max(),
            [minX, maxX, minY, maxY].allSatisfy({ abs($0) < 1e7 })
        else { return nil }
        return PreparedProjection(
            id: command.image.id, source: source, toDevice: toDevice, deviceArea: deviceArea,
            bounds: PixelRect(
                minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)), maxX: Int(maxX.rounded(.up)) + 1,
                maxY: Int(maxY.rounded(.up)) + 1),
            alpha: Int((opacity * 256).rounded()), nearest: command.nearestNeighbor)
    }
}

/// Premultiplied ARGB32 pixels read by the blit (native-endian 32-bit words).
struct BlitSource: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int

    init(base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// The pixels of an ARGB32 image surface (flushed first); `nil` for an empty surface or one without pixels.
    init?(_ surface: CairoSurface) {
        cairo_surface_flush(surface.pointer)
        guard surface.width > 0, surface.height > 0, let data = cairo_image_surface_get_data(surface.pointer) else {
            return nil
        }
        self.init(
            base: UnsafePointer(data), width: surface.width, height: surface.height,
            bytesPerRow: Int(cairo_image_surface_get_stride(surface.pointer)))
    }
}

/// Premultiplied ARGB32 pixels written by the blit; bands of rows are disjoint between threads.
struct BlitTarget: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
}

enum ProjectiveBlit {
    /// Batches covering at least this many pixels are drawn on several threads.
    static let parallelPixels = 65_536
    /// Rows in a block shared out to one thread.
    static let blockRows = 16

    /// One image to draw: every target pixel whose centre lies in the convex `polygon` (target pixels) samples
    /// `source` at `inverse` (target pixel → source pixel) of the centre; `alpha` is the opacity in 1/256.
    struct Job: @unchecked Sendable {
        /// The image (level 0) and its box-filtered halvings (``MipLevels``), level `n` a texel per 2^n × 2^n.
        let levels: [BlitSource]
        /// The deepest level this area reads (its corners' need, ``MipLevels/deepestLevel(_:inverse:)``), however
        /// many were made with the image, so what it draws does not depend on them.
        let deepest: Int
        let inverse: RenderHomography
        let edges: [Edge]
        /// Rows with a pixel centre inside the polygon's vertical extent.
        let rows: Range<Int>
        /// Width of the polygon's bounding box in pixels.
        let width: Int
        let alpha: Int
        let nearest: Bool

        init(
            levels: [BlitSource], deepest: Int, inverse: RenderHomography, polygon: [ScreenPoint], alpha: Int,
            nearest: Bool
        ) {
            self.levels = levels
            self.deepest = min(max(0, deepest), levels.count - 1)
            self.inverse = inverse
            self.alpha = alpha
            self.nearest = nearest
            edges = ProjectiveBlit.edges(polygon)
            let ys = polygon.map(\.y)
            let xs = polygon.map(\.x)
            if let top = ys.min(), let bottom = ys.max(), let left = xs.min(), let right = xs.max(), !edges.isEmpty {
                // Rows whose centre y + 0.5 lies in [top, bottom).
                let first = Int((top - 0.5).rounded(.up))
                rows = first..<max(first, Int((bottom - 0.5).rounded(.up)))
                width = Int(right - left) + 1
            } else {
                rows = 0..<0
                width = 0
            }
        }
    }

    /// Draws `jobs` into the pixels of `clip`, in order per pixel.
    ///
    /// The rows go in blocks of ``blockRows``, and each job's part of a block in columns of ``blockColumns`` pixels
    /// (whole spans, by the pixel they start at), so the texels one block reads stay in the caches while it is drawn
    /// (a row of a turned, pitched image walks across many texel rows). Blocks are shared out between threads when
    /// the jobs cover many pixels; a block draws its jobs in order, so each pixel sees them in order.
    static func draw(_ jobs: [Job], into target: BlitTarget, clip: PixelRect) {
        guard clip.maxX > clip.minX else { return }
        let rows = clip.minY..<clip.maxY
        let jobs = jobs.filter { $0.rows.overlaps(rows) }
        guard let first = jobs.first?.rows else { return }
        let union = jobs.dropFirst().reduce(first) {
            min($0.lowerBound, $1.rows.lowerBound)..<max($0.upperBound, $1.rows.upperBound)
        }
        .clamped(to: rows)
        let width = clip.maxX - clip.minX
        let pixels = jobs.reduce(0) { $0 + $1.rows.clamped(to: rows).count * min(width, $1.width) }
        let blocks = (union.count + blockRows - 1) / blockRows
        @Sendable func drawBlock(_ b: Int) {
            let y0 = union.lowerBound + b * blockRows
            let block = y0..<min(y0 + blockRows, union.upperBound)
            for job in jobs where job.rows.overlaps(block) {
                ProjectiveBlit.block(job.rows.clamped(to: block), job, target: target, clip: clip)
            }
        }
        if pixels >= parallelPixels && blocks >= 2 {
            DispatchQueue.concurrentPerform(iterations: blocks) { drawBlock($0) }
        } else {
            for b in 0..<blocks { drawBlock(b) }
        }
    }

    /// A polygon edge ordered by (y, x) of its endpoints, so two polygons sharing the edge compute the same crossing.
    struct Edge {
        let x0: Double
        let y0: Double
        let x1: Double
        let y1: Double
    }

    static func edges(_ polygon: [ScreenPoint]) -> [Edge] {
        var out: [Edge] = []
        for i in polygon.indices {
            var a = polygon[i]
            var b = polygon[(i + 1) % polygon.count]
            guard a.y != b.y else { continue }
            if (b.y, b.x) < (a.y, a.x) { swap(&a, &b) }
            out.append(Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y))
        }
        return out
    }

    /// Perspective-correct spans: exact source positions every `span` pixels, linear in between.
    static let span = 16

    /// Columns of a block drawn together (a multiple of ``span``).
    static let blockColumns = 64

    /// Rows `rows` of one job: each row's run of pixel centres inside the polygon, cut in spans of ``span`` from its
    /// first pixel, drawn column by column of ``blockColumns``.
    static func block(_ rows: Range<Int>, _ job: Job, target: BlitTarget, clip: PixelRect) {
        guard !rows.isEmpty else { return }
        withUnsafeTemporaryAllocation(of: (first: Int, end: Int).self, capacity: rows.count) { runs in
            var low = Int.max
            var high = Int.min
            for (i, y) in rows.enumerated() {
                let yc = Double(y) + 0.5
                var left = Double.infinity
                var right = -Double.infinity
                for e in job.edges where yc >= e.y0 && yc < e.y1 {
                    let x = e.x0 + (yc - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0)
                    left = min(left, x)
                    right = max(right, x)
                }
                // Pixels whose centre x + 0.5 lies in [left, right).
                var first = 0
                var end = 0
                if left < right {
                    first = max(clip.minX, Int((left - 0.5).rounded(.up)))
                    end = min(clip.maxX, Int((right - 0.5).rounded(.up)))
                }
                runs[i] = first < end ? (first, end) : (0, 0)
                if first < end {
                    low = min(low, first)
                    high = max(high, end)
                }
            }
            guard low < high else { return }
            var column = low
            while column < high {
                let next = column + blockColumns
                for (i, y) in rows.enumerated() where runs[i].first < runs[i].end {
                    let run = runs[i]
                    // The first span of the run starting at or after `column`.
                    var x = run.first
                    if x < column { x += (column - x + span - 1) / span * span }
                    if x < min(next, run.end) {
                        spans(y, from: x, below: min(next, run.end), end: run.end, job, target: target)
                    }
                }
                column = next
            }
        }
    }

    /// The spans of row `y` starting at `x` up to (not including) `limit`, each ending at the next span or `end`.
    @inline(__always)
    static func spans(_ y: Int, from x: Int, below limit: Int, end: Int, _ job: Job, target: BlitTarget) {
        let h = job.inverse
        let source = job.levels[0]
        let yc = Double(y) + 0.5
        let dst = UnsafeMutableRawPointer(target.base + y * target.bytesPerRow).assumingMemoryBound(to: UInt32.self)
        let maxU = Double(source.width) + 1
        let maxV = Double(source.height) + 1
        /// The source position of a pixel centre in 1/65536 source pixels (clamped a pixel beyond the edges), or
        /// `nil` behind the camera.
        @inline(__always) func position(_ x: Int) -> (Int, Int)? {
            let xc = Double(x) + 0.5
            let w = h.m31 * xc + h.m32 * yc + h.m33
            guard w > 0 else { return nil }
            let k = 1 / w
            let u = min(max((h.m11 * xc + h.m12 * yc + h.m13) * k, -1), maxU)
            let v = min(max((h.m21 * xc + h.m22 * yc + h.m23) * k, -1), maxV)
            return (Int((u * 65536).rounded(.down)), Int((v * 65536).rounded(.down)))
        }
        var x = x
        var start = position(x)
        while x < limit {
            let stop = min(x + span, end)
            let next = position(stop)
            guard let (u0, v0) = start, let (u1, v1) = next else {
                // A span reaching behind the camera (not inside a visible area): pixel by pixel.
                for px in x..<stop {
                    guard let (u, v) = position(px) else { continue }
                    spanPixels(dst + px, count: 1, u: u, v: v, du: 0, dv: 0, source: source, job: job)
                }
                x = stop
                start = next
                continue
            }
            let n = stop - x
            let level = job.deepest > 0 ? min(job.deepest, mipLevel(at: x + n / 2, yc, h)) : 0
            spanPixels(
                dst + x, count: n, u: u0 >> level, v: v0 >> level, du: ((u1 - u0) / n) >> level,
                dv: ((v1 - v0) / n) >> level, source: job.levels[level], job: job)
            x = stop
            start = next
        }
    }

    /// The level a span samples: the largest `n` at which the pixel's footprint (the longer of the source steps from
    /// one pixel to the next along x and along y) still covers at least ``MipLevels/minimumStep`` texels, so
    /// magnified and mildly minified areas (near the camera) read the image itself.
    @inline(__always)
    static func mipLevel(at x: Int, _ yc: Double, _ h: RenderHomography) -> Int {
        let xc = Double(x) + 0.5
        let w = h.m31 * xc + h.m32 * yc + h.m33
        guard w > 0 else { return 0 }
        let k = 1 / w
        let u = (h.m11 * xc + h.m12 * yc + h.m13) * k
        let v = (h.m21 * xc + h.m22 * yc + h.m23) * k
        let ux = (h.m11 - u * h.m31) * k
        let vx = (h.m21 - v * h.m31) * k
        let uy = (h.m12 - u * h.m32) * k
        let vy = (h.m22 - v * h.m32) * k
        let step2 =
            max(ux * ux + vx * vx, uy * uy + vy * vy) / (MipLevels.minimumStep * MipLevels.minimumStep)
        guard step2 >= 4, step2.isFinite else { return 0 }
        // floor(log2(step)) = floor(log2(step²) / 2).
        return Int(step2.exponent) >> 1
    }

    /// Blends `count` pixels from `dst` on, the first sampling `source` at (`u`, `v`) (1/65536 source pixels), each
    /// next one (`du`, `dv`) further.
    @inline(__always)
    static func spanPixels(
        _ dst: UnsafeMutablePointer<UInt32>, count: Int, u: Int, v: Int, du: Int, dv: Int, source: BlitSource,
        job: Job
    ) {
        let sw = source.width
        let sh = source.height
        let stride = source.bytesPerRow
        let src = UnsafeRawPointer(source.base)
        let alpha = UInt32(job.alpha)
        var u = u
        var v = v
        if job.nearest {
            for i in 0..<count {
                prefetchTexels(src, u: u &+ prefetchDistance &* du, v: v &+ prefetchDistance &* dv, source: source)
                let ix = min(max(u >> 16, 0), sw - 1)
                let iy = min(max(v >> 16, 0), sh - 1)
                blend(src.load(fromByteOffset: iy * stride + ix * 4, as: UInt32.self), alpha, into: dst + i)
                u &+= du
                v &+= dv
            }
            return
        }
        // Texel centres at half-integers: the position less ½ texel, weights in 1/256. When every sample of the span
        // has its four texels inside the image (the ends do: the positions are linear), no clamping is needed.
        // The texels asked for ahead are those the sample there reads (its position less ½ texel: its upper row is
        // the texel row above the position's in half the samples).
        let aheadU = prefetchDistance &* du &- 32768
        let aheadV = prefetchDistance &* dv &- 32768
        let lastU = u &+ (count - 1) &* du
        let lastV = v &+ (count - 1) &* dv
        let inside = { (p: Int, size: Int) in
            let i = ((p >> 8) - 128) >> 8
            return i >= 0 && i < size - 1
        }
        if inside(u, sw) && inside(lastU, sw) && inside(v, sh) && inside(lastV, sh) {
            for i in 0..<count {
                prefetchTexels(src, u: u &+ aheadU, v: v &+ aheadV, source: source)
                let fu = (u >> 8) &- 128
                let fv = (v >> 8) &- 128
                let o = (fv >> 8) &* stride &+ (fu >> 8) &* 4
                let p00 = src.load(fromByteOffset: o, as: UInt32.self)
                let p10 = src.load(fromByteOffset: o &+ 4, as: UInt32.self)
                let p01 = src.load(fromByteOffset: o &+ stride, as: UInt32.self)
                let p11 = src.load(fromByteOffset: o &+ stride &+ 4, as: UInt32.self)
                let s: UInt32
                if p00 == p10 && p00 == p01 && p00 == p11 {
                    s = p00
                } else {
                    let wx = UInt32(truncatingIfNeeded: fu & 255)
                    s = bilinear(p00, p10, p01, p11, wx, UInt32(truncatingIfNeeded: fv & 255))
                }
                blend(s, alpha, into: dst + i)
                u &+= du
                v &+= dv
            }
            return
        }
        for i in 0..<count {
            prefetchTexels(src, u: u &+ aheadU, v: v &+ aheadV, source: source)
            let fu = (u >> 8) - 128
            let fv = (v >> 8) - 128
            let (ix, wx) = clampedTexel(fu, size: sw)
            let (iy, wy) = clampedTexel(fv, size: sh)
            let o = iy * stride + ix * 4
            let p00 = src.load(fromByteOffset: o, as: UInt32.self)
            let p10 = wx == 0 ? p00 : src.load(fromByteOffset: o + 4, as: UInt32.self)
            let p01 = wy == 0 ? p00 : src.load(fromByteOffset: o + stride, as: UInt32.self)
            let p11 = wy == 0 ? p10 : (wx == 0 ? p01 : src.load(fromByteOffset: o + stride + 4, as: UInt32.self))
            let s = p00 == p10 && p00 == p01 && p00 == p11 ? p00 : bilinear(p00, p10, p01, p11, wx, wy)
            blend(s, alpha, into: dst + i)
            u += du
            v += dv
        }
    }

    /// How many pixels ahead ``spanPixels`` asks for the texels it will read (``prefetchTexels``). A turned,
    /// pitched image is read along a diagonal of its rows, so nearly every pixel's two texel rows are in cache lines
    /// no earlier pixel of the row touched, and the hardware prefetcher cannot guess them: without the hint each
    /// sample waited for memory (80 % of a pitched frame's time in two loads). 16 (one span) measured best of 4, 8,
    /// 16 and 32 on `pipeline-pitched-frame` (BENCHMARKS.md, issue 17), and again better than 24 once the bilinear
    /// loops asked for the texel rows their samples read (issue 33: before, half the samples had their upper row
    /// above the one asked for, and waited for it).
    static let prefetchDistance = 16

    /// Asks the caches for the texel at (`u`, `v`) (1/65536 source pixels; clamped to the image, so any position
    /// will do) and the one below it: what a nearest sample at (`u`, `v`) reads, or a bilinear sample at
    /// (`u` + ½, `v` + ½) texel (its four texels are in those two rows). A hint: the pixels drawn never depend on it.
    @inline(__always)
    static func prefetchTexels(_ src: UnsafeRawPointer, u: Int, v: Int, source: BlitSource) {
        let x = min(max(u >> 16, 0), source.width - 1)
        let y = min(max(v >> 16, 0), source.height - 1)
        let texel = src + (y &* source.bytesPerRow &+ x &* 4)
        waymark_prefetch_read(texel)
        waymark_prefetch_read(y + 1 < source.height ? texel + source.bytesPerRow : texel)
    }

    /// The first texel and the weight of the second (1/256) of a bilinear sample at `f` (1/256 texels, less ½ texel)
    /// along an axis of `size` texels, clamped at the edges: beyond either end the edge texel alone (weight 0).
    @inline(__always)
    static func clampedTexel(_ f: Int, size: Int) -> (Int, UInt32) {
        let i = f >> 8
        if i < 0 { return (0, 0) }
        if i >= size - 1 { return (size - 1, 0) }
        return (i, UInt32(truncatingIfNeeded: f & 255))
    }

    /// Blends `s` at opacity `alpha` (1/256) source-over into `*d`: opaque samples replace it, transparent ones
    /// leave it.
    @inline(__always)
    static func blend(_ s: UInt32, _ alpha: UInt32, into d: UnsafeMutablePointer<UInt32>) {
        let s = alpha < 256 ? scaled(s, alpha) : s
        if s >> 24 == 255 {
            d.pointee = s
        } else if s != 0 {
            d.pointee = over(s, d.pointee)
        }
    }

    /// The bilinear blend of four pixels, `wx` and `wy` the weights (1/256) of the right and the lower pair: per
    /// channel `lerp(lerp(p00, p10, wx), lerp(p01, p11, wx), wy)` (``lerp(_:_:_:)``), the same bytes, with the four
    /// channels spread over 16-bit lanes of one 64-bit word so each step is two multiplies, not four (no lane
    /// overflows: `255·256 + 128 < 2¹⁶`).
    @inline(__always)
    static func bilinear(
        _ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ wx: UInt32, _ wy: UInt32
    ) -> UInt32 {
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF
        let half: UInt64 = 0x0080_0080_0080_0080
        // Lanes B, R, G, A (bits 0, 16, 32, 48).
        @inline(__always) func spread(_ p: UInt32) -> UInt64 {
            UInt64(p & 0x00FF_00FF) | UInt64(p & 0xFF00_FF00) << 24
        }
        let x = UInt64(wx)
        let ix = 256 - x
        let top = ((spread(p00) &* ix &+ spread(p10) &* x &+ half) >> 8) & mask
        let bottom = ((spread(p01) &* ix &+ spread(p11) &* x &+ half) >> 8) & mask
        let y = UInt64(wy)
        let s = ((top &* (256 - y) &+ bottom &* y &+ half) >> 8) & mask
        return UInt32(truncatingIfNeeded: s & 0x00FF_00FF) | UInt32(truncatingIfNeeded: (s >> 24) & 0xFF00_FF00)
    }

    /// `a + (b − a)·w/256` on each 8-bit channel (premultiplied, so no channel exceeds alpha afterwards).
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        let iw = 256 - w
        let mask: UInt32 = 0x00FF_00FF
        let half: UInt32 = 0x0080_0080
        let rbSum: UInt32 = (a & mask) &* iw &+ (b & mask) &* w &+ half
        let agSum: UInt32 = ((a >> 8) & mask) &* iw &+ ((b >> 8) & mask) &* w &+ half
        let rb = (rbSum >> 8) & mask
        let ag = (agSum >> 8) & mask
        return rb | (ag << 8)
    }

    /// Each channel times `k`/256, `k` in 0…256.
    @inline(__always)
    static func scaled(_ p: UInt32, _ k: UInt32) -> UInt32 {
        let rb = (((p & 0x00FF_00FF) &* k) >> 8) & 0x00FF_00FF
        let ag = ((((p >> 8) & 0x00FF_00FF) &* k) >> 8) & 0x00FF_00FF
        return rb | (ag << 8)
    }
}

/// Box-filtered halvings of an image, for the projected images that sample it minified: level `n` has a texel per
/// 2^n × 2^n texels of the image (sides halved and rounded up, each texel the rounded mean of its four texels of
/// the level above, premultiplied), kept until the image is unregistered. An image whose display list says it is
/// drawn minified (a pitched frame's tile image) has every level made with it, on the thread that renders it
/// (``all(of:)``); any other image gets each level when a command first needs it. A command reads only the levels
/// its area needs, so its pixels do not depend on which were made before.
final class MipLevels {
    /// Texels a pixel's footprint keeps at least at the level it reads: level 1 is read only where the footprint
    /// spans 7 texels of the image or more (bilinear sampling there reads 2 of every 7 texel rows and aliases).
    /// Pitched tile images are made so that their footprint is 2–4 texels where the tile is nearest the camera,
    /// which the `line-pitch` render tests need, and the far rows of those tests stay as they are with 3.5; with
    /// 3 (`line-pitch/pitch30` 0.000160) or 2 (all three 0.00021–0.00035) they fail (BENCHMARKS.md).
    static let minimumStep = 3.5
    /// Levels past the image itself, at most.
    static let maximumLevels = 8

    private(set) var levels: [BlitSource]
    private var buffers: [UnsafeMutablePointer<UInt32>] = []

    init(_ image: BlitSource) { levels = [image] }

    /// Every level of `surface` (an ARGB32 image surface whose pixels no longer change), made now: for an image
    /// drawn minified, made on the thread that rendered it (``MapDrawing/DisplayList/drawnMinified``). `nil` for an
    /// empty surface.
    static func all(of surface: CairoSurface) -> MipLevels? {
        guard let image = BlitSource(surface) else { return nil }
        let chain = MipLevels(image)
        chain.extend(to: maximumLevels)
        return chain
    }

    /// Bytes of the levels past the image itself.
    var byteCount: Int { levels.dropFirst().reduce(0) { $0 + $1.bytesPerRow * $1.height } }

    deinit { for b in buffers { b.deallocate() } }

    /// Makes the levels up to `level` (at most ``maximumLevels``; none past a level of 1 × 1).
    func extend(to level: Int) {
        while levels.count <= min(level, Self.maximumLevels), let last = levels.last, last.width > 1 || last.height > 1
        {
            let w = (last.width + 1) / 2
            let h = (last.height + 1) / 2
            let out = UnsafeMutablePointer<UInt32>.allocate(capacity: w * h)
            buffers.append(out)
            let src = UnsafeRawPointer(last.base)
            for y in 0..<h {
                let r0 = src + 2 * y * last.bytesPerRow
                let r1 = 2 * y + 1 < last.height ? r0 + last.bytesPerRow : r0
                let row = out + y * w
                for x in 0..<w {
                    let o0 = 8 * x
                    let o1 = 2 * x + 1 < last.width ? o0 + 4 : o0
                    row[x] = Self.mean(
                        r0.load(fromByteOffset: o0, as: UInt32.self), r0.load(fromByteOffset: o1, as: UInt32.self),
                        r1.load(fromByteOffset: o0, as: UInt32.self), r1.load(fromByteOffset: o1, as: UInt32.self))
                }
            }
            levels.append(
                BlitSource(
                    base: UnsafeRawPointer(out).assumingMemoryBound(to: UInt8.self), width: w, height: h,
                    bytesPerRow: 4 * w))
        }
    }

    /// The rounded mean of four premultiplied pixels, channel by channel.
    @inline(__always)
    static func mean(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        let m: UInt32 = 0x00FF_00FF
        let rb = ((a & m) &+ (b & m) &+ (c & m) &+ (d & m) &+ 0x0002_0002) >> 2
        let ag = (((a >> 8) & m) &+ ((b >> 8) & m) &+ ((c >> 8) & m) &+ ((d >> 8) & m) &+ 0x0002_0002) >> 2
        return (rb & m) | ((ag & m) << 8)
    }

    /// The deepest level a projected image needs: the level (``ProjectiveBlit/mipLevel(at:_:_:)``) at the corners of
    /// its area `polygon` (target pixels, where the footprint is largest), `inverse` mapping target pixels to
    /// image pixels.
    static func deepestLevel(_ polygon: [ScreenPoint], inverse: RenderHomography) -> Int {
        polygon.reduce(0) { deepest, p in
            let x = Int(p.x.rounded(.down))
            return max(deepest, ProjectiveBlit.mipLevel(at: min(max(x, -1 << 30), 1 << 30), p.y, inverse))
        }
    }
}

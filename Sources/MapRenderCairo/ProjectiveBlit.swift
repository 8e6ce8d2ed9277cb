import CCairo
import CairoGraphics
import Dispatch
import MapRender

/// Executes ``DrawCommand/projectedImage(_:)`` in Swift on an ARGB32 image surface's pixels.
///
/// Every device pixel whose centre lies inside the command's area (scanline spans of the convex polygon, half-open
/// on both axes, so two areas sharing an edge own each pixel once) is mapped through the inverse of
/// device ← image-pixel (the current matrix composed with the command's homography): numerator and denominator are
/// linear along a row: exact every 16 pixels, linear in between (perspective-correct spans). The image is sampled bilinearly in 8-bit fixed point (or the
/// nearest pixel), clamped at its edges, and blended source-over (premultiplied). Large areas are split into two bands
/// of rows drawn on two threads.
extension CairoBackend {
    func projectedImage(_ command: ProjectedImageCommand, _ cr: OpaquePointer) {
        let opacity = clamp01(command.opacity)
        guard opacity > 0, let surface = images[command.image.id], command.area.count >= 3,
            command.area.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
        else { return }
        cairo_surface_flush(surface.pointer)
        guard let sourceData = cairo_image_surface_get_data(surface.pointer) else { return }
        let source = BlitSource(
            base: UnsafePointer(sourceData), width: surface.width, height: surface.height,
            bytesPerRow: Int(cairo_image_surface_get_stride(surface.pointer)))
        guard source.width > 0, source.height > 0 else { return }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let ctm = RenderTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        let imageScale = command.image.scale > 0 ? command.image.scale : 1
        // Device ← image pixel.
        let toDevice = RenderHomography(ctm).concatenating(after: command.homography).concatenating(
            after: RenderHomography(1 / imageScale, 0, 0, 0, 1 / imageScale, 0, 0, 0, 1))
        let deviceArea = command.area.map { ctm.apply(to: $0) }
        guard let minX = deviceArea.map(\.x).min(), let maxX = deviceArea.map(\.x).max(),
            let minY = deviceArea.map(\.y).min(), let maxY = deviceArea.map(\.y).max(),
            [minX, maxX, minY, maxY].allSatisfy({ abs($0) < 1e7 })
        else { return }
        let bounds = PixelRect(
            minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)), maxX: Int(maxX.rounded(.up)) + 1,
            maxY: Int(maxY.rounded(.up)) + 1)
        let alpha = Int((opacity * 256).rounded())
        withDevicePixels(cr, matrix: m, bounds: bounds) { pixels, dx, dy, clip in
            let shift = RenderHomography(1, 0, dx, 0, 1, dy, 0, 0, 1)
            guard let inverse = shift.concatenating(after: toDevice).inverse else { return }
            let polygon = deviceArea.map { RenderPoint(x: $0.x + dx, y: $0.y + dy) }
            ProjectiveBlit.draw(
                source: source,
                into: BlitTarget(
                    base: pixels.base, width: pixels.width, height: pixels.height, bytesPerRow: pixels.bytesPerRow),
                inverse: inverse, polygon: polygon, clip: clip, alpha: alpha, nearest: command.nearestNeighbor)
        }
    }
}

/// Premultiplied ARGB32 pixels read by the blit (native-endian 32-bit words).
struct BlitSource: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
}

/// Premultiplied ARGB32 pixels written by the blit; bands of rows are disjoint between threads.
struct BlitTarget: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
}

enum ProjectiveBlit {
    /// Areas of at least this many pixels are drawn in two bands on two threads.
    static let parallelPixels = 65_536

    /// Draws into `target` every pixel of `clip` whose centre lies in the convex `polygon` (target pixels), sampling
    /// `source` at `inverse` (target pixel → source pixel) of the centre; `alpha` is the opacity in 1/256.
    static func draw(
        source: BlitSource, into target: BlitTarget, inverse: RenderHomography, polygon: [RenderPoint],
        clip: PixelRect, alpha: Int, nearest: Bool
    ) {
        let rows = clip.maxY - clip.minY
        guard rows > 0, clip.maxX > clip.minX else { return }
        let edges = Self.edges(polygon)
        guard !edges.isEmpty else { return }
        if rows * (clip.maxX - clip.minX) >= parallelPixels && rows >= 2 {
            let middle = clip.minY + rows / 2
            DispatchQueue.concurrentPerform(iterations: 2) { band in
                let y0 = band == 0 ? clip.minY : middle
                let y1 = band == 0 ? middle : clip.maxY
                for y in y0..<y1 {
                    row(
                        y, source: source, target: target, inverse: inverse, edges: edges, clip: clip, alpha: alpha,
                        nearest: nearest)
                }
            }
        } else {
            for y in clip.minY..<clip.maxY {
                row(
                    y, source: source, target: target, inverse: inverse, edges: edges, clip: clip, alpha: alpha,
                    nearest: nearest)
            }
        }
    }

    /// A polygon edge ordered by (y, x) of its endpoints, so two polygons sharing the edge compute the same crossing.
    struct Edge {
        let x0: Double
        let y0: Double
        let x1: Double
        let y1: Double
    }

    static func edges(_ polygon: [RenderPoint]) -> [Edge] {
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

    /// One row: the span of pixel centres inside the polygon, then the mapped samples.
    @inline(__always)
    static func row(
        _ y: Int, source: BlitSource, target: BlitTarget, inverse h: RenderHomography, edges: [Edge], clip: PixelRect,
        alpha: Int, nearest: Bool
    ) {
        let yc = Double(y) + 0.5
        var left = Double.infinity
        var right = -Double.infinity
        for e in edges where yc >= e.y0 && yc < e.y1 {
            let x = e.x0 + (yc - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0)
            left = min(left, x)
            right = max(right, x)
        }
        guard left < right else { return }
        // Pixels whose centre x + 0.5 lies in [left, right).
        let first = max(clip.minX, Int((left - 0.5).rounded(.up)))
        let end = min(clip.maxX, Int((right - 0.5).rounded(.up)))
        guard first < end else { return }
        let sw = source.width
        let sh = source.height
        let stride = source.bytesPerRow
        let src = UnsafeRawPointer(source.base)
        let dst = UnsafeMutableRawPointer(target.base + y * target.bytesPerRow).assumingMemoryBound(to: UInt32.self)
        let maxU = Double(sw) + 1
        let maxV = Double(sh) + 1
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
        // Perspective-correct spans: exact positions every `span` pixels, linear in between.
        let span = 16
        var x = first
        var start = position(x)
        while x < end {
            let stop = min(x + span, end)
            let next = position(stop)
            guard let (u0, v0) = start, let (u1, v1) = next else {
                // A span reaching behind the camera (not inside a visible area): pixel by pixel.
                for px in x..<stop {
                    guard let (u, v) = position(px) else { continue }
                    put(px, u, v)
                }
                x = stop
                start = next
                continue
            }
            let n = stop - x
            let du = (u1 - u0) / n
            let dv = (v1 - v0) / n
            var u = u0
            var v = v0
            for px in x..<stop {
                put(px, u, v)
                u += du
                v += dv
            }
            x = stop
            start = next
        }

        /// Samples the source at (`u`, `v`) (1/65536 pixels) and blends it into pixel `px` of the row.
        @inline(__always) func put(_ px: Int, _ u: Int, _ v: Int) {
            var s: UInt32
            if nearest {
                let ix = min(max(u >> 16, 0), sw - 1)
                let iy = min(max(v >> 16, 0), sh - 1)
                s = src.load(fromByteOffset: iy * stride + ix * 4, as: UInt32.self)
            } else {
                // Texel centres at half-integers: the position less ½ texel, weights in 1/256.
                let fu = (u >> 8) - 128
                let fv = (v >> 8) - 128
                var ix = fu >> 8
                var iy = fv >> 8
                var wx = UInt32(truncatingIfNeeded: fu & 255)
                var wy = UInt32(truncatingIfNeeded: fv & 255)
                if ix < 0 {
                    ix = 0
                    wx = 0
                } else if ix >= sw - 1 {
                    ix = sw - 1
                    wx = 0
                }
                if iy < 0 {
                    iy = 0
                    wy = 0
                } else if iy >= sh - 1 {
                    iy = sh - 1
                    wy = 0
                }
                let o = iy * stride + ix * 4
                let p00 = src.load(fromByteOffset: o, as: UInt32.self)
                let p10 = wx == 0 ? p00 : src.load(fromByteOffset: o + 4, as: UInt32.self)
                let p01 = wy == 0 ? p00 : src.load(fromByteOffset: o + stride, as: UInt32.self)
                let p11 =
                    wy == 0 ? p10 : (wx == 0 ? p01 : src.load(fromByteOffset: o + stride + 4, as: UInt32.self))
                if p00 == p10 && p00 == p01 && p00 == p11 {
                    s = p00
                } else {
                    s = lerp(lerp(p00, p10, wx), lerp(p01, p11, wx), wy)
                }
            }
            if alpha < 256 { s = scaled(s, UInt32(alpha)) }
            let a = s >> 24
            if a == 255 {
                dst[px] = s
            } else if s != 0 {
                dst[px] = over(s, dst[px])
            }
        }
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

import CCairo
import Foundation

/// The premultiplied ARGB32 pixels of a still image prepared for blitting: each row split into runs of opaque
/// pixels (copied) and translucent ones (blended), fully transparent pixels skipped. Waymark's own (package access):
/// the map draws thousands of marker icons a frame from these.
package final class BlitSprite {
    /// One horizontal run of pixels in a row.
    struct Run {
        /// Index of the run's first pixel in ``pixels``.
        var offset: Int32
        var row: Int32
        var column: Int32
        var length: Int32
        /// Every pixel of the run has alpha 255 (OVER is a copy).
        var opaque: Bool
    }

    /// Adjacent runs of one row merged: `lead` translucent pixels, then `opaque` opaque ones, then `trail`
    /// translucent ones (an icon's row is usually one of these: anti-aliased edges around an opaque body).
    struct Segment {
        var offset: Int32
        var row: Int32
        var column: Int32
        var lead: Int32
        var opaque: Int32
        var trail: Int32
    }

    /// Width and height in pixels.
    package let width: Int
    package let height: Int
    let pixels: [UInt32]
    let runs: [Run]
    let segments: [Segment]

    /// The sprite of `image`'s first bitmap, or nil for animated images, empty images and surfaces that are not
    /// ARGB32.
    package convenience init?(image: UIImage) {
        guard image.images == nil, let surface = image.cairoSurface else { return nil }
        self.init(surface: surface)
    }

    init?(surface: OpaquePointer) {
        guard cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 else { return nil }
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface))
        let h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, let data = cairo_image_surface_get_data(surface) else { return nil }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(w * h)
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            pixels.append(contentsOf: UnsafeBufferPointer(start: row, count: w))
        }
        var runs: [Run] = []
        for y in 0..<h {
            var x = 0
            while x < w {
                let alpha = pixels[y * w + x] >> 24
                if alpha == 0 {
                    x += 1
                    continue
                }
                let opaque = alpha == 255
                var end = x + 1
                while end < w {
                    let a = pixels[y * w + end] >> 24
                    if a == 0 || (a == 255) != opaque { break }
                    end += 1
                }
                runs.append(
                    Run(
                        offset: Int32(y * w + x), row: Int32(y), column: Int32(x), length: Int32(end - x),
                        opaque: opaque))
                x = end
            }
        }
        var segments: [Segment] = []
        for run in runs {
            let n = run.length
            if var last = segments.last, last.row == run.row,
                last.column + last.lead + last.opaque + last.trail == run.column
            {
                // Extends the segment when the pattern allows: translucent → opaque → translucent.
                if !run.opaque && last.opaque == 0 {
                    last.lead += n
                } else if run.opaque && last.trail == 0 {
                    last.opaque += n
                } else if !run.opaque && last.trail == 0 {
                    last.trail += n
                } else {
                    segments.append(Self.segment(run))
                    continue
                }
                segments[segments.count - 1] = last
            } else {
                segments.append(Self.segment(run))
            }
        }
        width = w
        height = h
        self.pixels = pixels
        self.runs = runs
        self.segments = segments
    }

    private static func segment(_ run: Run) -> Segment {
        Segment(
            offset: run.offset, row: run.row, column: run.column, lead: run.opaque ? 0 : run.length,
            opaque: run.opaque ? run.length : 0, trail: 0)
    }
}

/// Direct access to the pixels of a context's ARGB32 image surface, for compositing many sprites without a Cairo call
/// each (see ``CGContext/withPixelTarget(deviceScale:_:)``). Waymark's own (package access).
package struct PixelTarget {
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    /// Size in device pixels.
    package let width: Int
    package let height: Int
    let surface: OpaquePointer

    /// Composites `sprite` with Cairo's OVER operator, its top-left at device pixel (`x`, `y`), clipped to the
    /// surface. The result is byte-identical to `cairo_set_source_surface` + `cairo_fill` at an integer offset (the
    /// same rounding as pixman's OVER).
    package func blit(_ sprite: BlitSprite, x: Int, y: Int) {
        guard x < width, y < height, x + sprite.width > 0, y + sprite.height > 0 else { return }
        sprite.pixels.withUnsafeBufferPointer { src in
            if x >= 0, y >= 0, x + sprite.width <= width, y + sprite.height <= height {
                // Wholly inside (the common case): no clipping a run; short opaque runs copied inline.
                let origin = base + y * stride + x
                for segment in sprite.segments {
                    var d = origin + Int(segment.row) * stride + Int(segment.column)
                    var s = src.baseAddress! + Int(segment.offset)
                    let lead = Int(segment.lead)
                    for i in 0..<lead { d[i] = over(s[i], d[i]) }
                    d += lead
                    s += lead
                    let n = Int(segment.opaque)
                    if n <= 16 {
                        for i in 0..<n { d[i] = s[i] }
                    } else {
                        d.update(from: s, count: n)
                    }
                    d += n
                    s += n
                    for i in 0..<Int(segment.trail) { d[i] = over(s[i], d[i]) }
                }
                return
            }
            for run in sprite.runs {
                let dy = y + Int(run.row)
                guard dy >= 0, dy < height else { continue }
                var sx = Int(run.offset)
                var dx = x + Int(run.column)
                var n = Int(run.length)
                if dx < 0 {
                    n += dx
                    sx -= dx
                    dx = 0
                }
                if dx + n > width { n = width - dx }
                guard n > 0 else { continue }
                let d = base + dy * stride + dx
                let s = src.baseAddress! + sx
                if run.opaque {
                    d.update(from: s, count: n)
                } else {
                    for i in 0..<n { d[i] = over(s[i], d[i]) }
                }
            }
        }
    }
}

/// Premultiplied `source OVER destination` for one ARGB32 pixel, rounded as pixman does (x·a/255 rounded to nearest,
/// saturating add).
@inline(__always) func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
    let ia = 255 &- (s >> 24)
    var rb = (d & 0x00ff_00ff) &* ia &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
    var ag = ((d >> 8) & 0x00ff_00ff) &* ia &+ 0x0080_0080
    ag = ((ag &+ ((ag >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
    rb = rb &+ (s & 0x00ff_00ff)
    rb = (rb | (0x1000_0100 &- ((rb >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
    ag = ag &+ ((s >> 8) & 0x00ff_00ff)
    ag = (ag | (0x1000_0100 &- ((ag >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
    return rb | (ag << 8)
}

extension CGContext {
    /// Runs `body` with direct access to this context's pixels when they can be written as device pixels at
    /// `deviceScale`: the target is an ARGB32 image surface (not a group) without device offset, the current matrix
    /// is exactly a scale by `deviceScale`, and nothing is clipped; otherwise `body` gets nil. The surface is flushed
    /// before and marked dirty after; call ``PixelTarget`` methods only inside `body`, and call
    /// ``markPixelsDirty(_:)`` before drawing through Cairo inside it.
    package func withPixelTarget<R>(deviceScale: CGFloat, _ body: (PixelTarget?) -> R) -> R {
        let cr = cairo
        let surface = cairo_get_group_target(cr)!
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        var ox = 0.0
        var oy = 0.0
        cairo_surface_get_device_offset(surface, &ox, &oy)
        let s = Double(deviceScale)
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32, cairo_get_target(cr) == surface,
            ox == 0, oy == 0, m.xx == s, m.yy == s, m.xy == 0, m.yx == 0, m.x0 == 0, m.y0 == 0,
            cairo_get_operator(cr) == CAIRO_OPERATOR_OVER, let data = cairo_image_surface_get_data(surface)
        else { return body(nil) }
        let w = Int(cairo_image_surface_get_width(surface))
        let h = Int(cairo_image_surface_get_height(surface))
        // Unclipped: the clip is the one rectangle of the whole surface.
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return body(nil) }
        defer { cairo_rectangle_list_destroy(list) }
        let r = list.pointee.rectangles
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1, let r,
            r.pointee.x * s <= 0, r.pointee.y * s <= 0, (r.pointee.x + r.pointee.width) * s >= Double(w),
            (r.pointee.y + r.pointee.height) * s >= Double(h)
        else { return body(nil) }
        cairo_surface_flush(surface)
        let target = PixelTarget(
            base: UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
            stride: Int(cairo_image_surface_get_stride(surface)) / 4, width: w, height: h, surface: surface)
        defer { cairo_surface_mark_dirty(surface) }
        return body(target)
    }

    /// Tells Cairo that `target`'s pixels were written directly (before drawing through Cairo again).
    package func markPixelsDirty(_ target: PixelTarget) { cairo_surface_mark_dirty(target.surface) }
}

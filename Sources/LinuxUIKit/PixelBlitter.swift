import CCairo
import CairoGraphics
import Foundation

/// Direct access to the pixels of a context's ARGB32 image surface, for compositing many icons without a Cairo call
/// each (see ``CGContext/withPixelTarget(deviceScale:_:)``). Waymark's own (package access).
package struct PixelTarget {
    let base: UnsafeMutablePointer<UInt32>
    /// Row stride, pixels.
    let stride: Int
    /// Size in device pixels.
    package let width: Int
    package let height: Int
    let surface: OpaquePointer
}

/// Many icons of an atlas (``SpriteAtlas``) composited in one go, bottom to top, with the bytes Cairo's OVER operator
/// writes drawing them one by one, but without drawing what ends up hidden: a pass from the top down keeps a bit per
/// device pixel covered by an opaque icon pixel above, and records for each icon only the spans no icon above covers
/// (OVER with an opaque source is a copy, so whatever lies under the topmost opaque pixel never shows); a second pass
/// from the bottom up copies the visible opaque spans from the atlas pages and blends the visible translucent ones
/// (four pixels at a time). Draws that are not icons (Cairo drawing: rotated icons, opacity, icon views) keep their
/// place in the order through ``addExternal(_:)``: they are drawn by the caller's callback and hide nothing.
///
/// Waymark's own (package access). Reusable: ``composite(into:external:)`` empties the batch, keeping its storage
/// for the next frame, and ends the atlas's frame. Not thread-safe (one frame at a time).
package final class SpriteBatch {
    /// One draw: an icon (its record's index and serial) at a device pixel, or an external draw (`icon < 0`, the
    /// caller's id `~icon`).
    fileprivate struct Item {
        var x: Int32
        var y: Int32
        var icon: Int32
        var serial: UInt32
        var spanStart: Int32 = 0
        var spanEnd: Int32 = 0
    }
    /// A visible run of an icon's row: `count > 0` pixels copied, `count < 0` blended; `src` indexes the icon's page.
    fileprivate struct Span {
        var dst: Int32
        var src: Int32
        var count: Int32
    }

    /// The icons this batch draws.
    package let atlas: SpriteAtlas
    private var items: [Item] = []
    private var spans: [Span] = []
    /// One bit a device pixel of the target, `(width + 63) / 64` words a row: covered by an opaque pixel above.
    private var mask: UnsafeMutablePointer<UInt64>
    private var maskCapacity = 0

    /// An empty batch drawing icons of `atlas` (a new default atlas when nil).
    package init(atlas: SpriteAtlas? = nil) {
        self.atlas = atlas ?? SpriteAtlas()
        mask = .allocate(capacity: 1)
    }

    deinit { mask.deallocate() }

    /// Number of draws added since the last composite.
    package var count: Int { items.count }

    /// Adds draws in one go: `body` gets an ``Appender`` over the batch's storage (one access to it for the whole
    /// run instead of one a draw: each access to a class's stored property is checked for exclusivity).
    package func append<R>(_ body: (inout Appender) -> R) -> R {
        var appender = Appender(items: items)
        items = []
        defer { items = appender.items }
        return body(&appender)
    }

    /// Adds `icon` with its top-left at device pixel (`x`, `y`) above everything added before (see
    /// ``Appender/add(_:x:y:)``).
    package func add(_ icon: SpriteAtlas.Icon, x: Int, y: Int) { append { $0.add(icon, x: x, y: y) } }

    /// Adds a draw the caller makes itself above everything added before (see ``Appender/addExternal(_:)``).
    package func addExternal(_ id: Int) { append { $0.addExternal(id) } }

    /// The batch's draws while ``append(_:)`` runs.
    package struct Appender {
        fileprivate var items: [Item]

        /// Adds `icon` (of the batch's atlas) with its top-left at device pixel (`x`, `y`) above everything added
        /// before. Positions beyond ±2³⁰ pixels are skipped (nothing of the icon could be on a surface); so is an
        /// icon removed from the atlas by the time the batch is composited.
        package mutating func add(_ icon: SpriteAtlas.Icon, x: Int, y: Int) {
            guard abs(x) < 1 << 30, abs(y) < 1 << 30 else { return }
            items.append(Item(x: Int32(x), y: Int32(y), icon: icon.index, serial: icon.serial))
        }

        /// Adds a draw the caller makes itself (through Cairo) above everything added before:
        /// ``SpriteBatch/composite(into:external:)`` calls its `external` callback with `id` (≥ 0) in its place in
        /// the order.
        package mutating func addExternal(_ id: Int) {
            guard id >= 0, id < Int(Int32.max) else { return }
            items.append(Item(x: 0, y: 0, icon: ~Int32(id), serial: 0))
        }
    }

    /// Composites everything added, bottom to top, into `target` (clipped to it), calling `external` for each
    /// external draw in its place (after the icons below it are written; the callback must mark the surface dirty
    /// before drawing through Cairo, ``CGContext/markPixelsDirty(_:)``). Empties the batch and ends the atlas's
    /// frame (icons not looked up since may be removed when the atlas needs room).
    package func composite(into target: PixelTarget, external: (Int) -> Void) {
        // Local copies (uniquely referenced once the properties are emptied): no exclusivity checks in the loops.
        var items = self.items
        var spans = self.spans
        self.items = []
        self.spans = []
        defer {
            items.removeAll(keepingCapacity: true)
            spans.removeAll(keepingCapacity: true)
            self.items = items
            self.spans = spans
            atlas.endFrame()
        }
        guard !items.isEmpty else { return }
        let wordsPerRow = (target.width + 63) >> 6
        // One spare word after the last row (rows are read two words at a time).
        let words = wordsPerRow * target.height + 1
        if maskCapacity < words {
            mask.deallocate()
            mask = .allocate(capacity: words)
            maskCapacity = words
        }
        mask.update(repeating: 0, count: words)
        let records = atlas.records
        let pages = atlas.pages
        Self.findVisibleSpans(
            items: &items, records: records, pageStrides: pages.map(\.width), spans: &spans, mask: mask,
            wordsPerRow: wordsPerRow, width: target.width, height: target.height, stride: target.stride)
        let base = target.base
        spans.withUnsafeBufferPointer { spans in
            for item in items {
                guard item.icon >= 0 else {
                    external(Int(~item.icon))
                    continue
                }
                guard item.spanStart < item.spanEnd else { continue }
                let src = pages[Int(records[Int(item.icon)].page)].pixels
                for i in Int(item.spanStart)..<Int(item.spanEnd) {
                    let span = spans[i]
                    let d = base + Int(span.dst)
                    let s = src + Int(span.src)
                    if span.count > 0 {
                        copyPixels(d, s, Int(span.count))
                    } else {
                        blendPixels(d, s, Int(-span.count))
                    }
                }
            }
        }
    }

    /// The first pass: from the top item down, each icon row's visible spans (pixels no opaque icon pixel above
    /// covers) recorded, then the row's opaque pixels marked covered in `mask` (cleared by the caller). Items whose
    /// icon was removed from the atlas get no spans.
    private static func findVisibleSpans(
        items: inout [Item], records: [SpriteAtlas.Record], pageStrides: [Int], spans: inout [Span],
        mask: UnsafeMutablePointer<UInt64>, wordsPerRow: Int, width: Int, height: Int, stride: Int
    ) {
        // The hot loop of a frame (a few hundred thousand icon rows, most of them hidden): plain while loops and
        // wrapping arithmetic on values bounded by the surface, icon and page sizes.
        var index = items.count
        while index > 0 {
            index &-= 1
            let item = items[index]
            guard item.icon >= 0, Int(item.icon) < records.count else { continue }
            let icon = records[Int(item.icon)]
            guard icon.serial == item.serial, let segments = icon.segments, let rowStart = icon.rowStart else {
                continue
            }
            let iconWidth = Int(icon.width)
            let x = Int(item.x)
            let y = Int(item.y)
            items[index].spanStart = Int32(spans.count)
            defer { items[index].spanEnd = Int32(spans.count) }
            guard x < width, y < height, x &+ iconWidth > 0, y &+ Int(icon.height) > 0 else { continue }
            let pageStride = pageStrides[Int(icon.page)]
            var row = max(0, -y)
            let endRow = min(Int(icon.height), height &- y)
            var bits = mask + (y &+ row) &* wordsPerRow
            var rowBase = (y &+ row) &* stride
            // The icon's first pixel in the page minus `x`: plus a row's offset in the page and a frame column, the
            // pixel's index in the page (worked out for visible rows alone: one variable fewer in the row loops).
            let srcOrigin = icon.origin &- x
            if let narrow = icon.narrowRows, let masks = icon.narrowMasks, x >= 0, x &+ iconWidth <= width {
                // A narrow icon wholly inside horizontally (most pins): the 64 coverage bits from the icon's
                // column 0 tell a hidden row with one mask (the word and shift are the icon's, not the row's).
                let iconWord = x &>> 6
                let iconShift = UInt64(x & 63)
                while row < endRow {
                    let rowMask = masks[row]
                    // Both shifts by up to 64 (a shift by 64 is no shift in Swift's masking shifts).
                    let iconWindow =
                        (bits[iconWord] &>> iconShift) | ((bits[iconWord &+ 1] &<< 1) &<< (63 &- iconShift))
                    if rowMask != 0 && iconWindow & rowMask != rowMask {
                        let r = narrow[row]
                        let a = x &+ Int(r.segment.column)
                        let word = a &>> 6
                        let shift = UInt64(a & 63)
                        let covered = (iconWindow & rowMask) &>> UInt64(r.segment.column)
                        do {
                            let leadEnd = a &+ Int(r.segment.lead)
                            let opaqueEnd = leadEnd &+ Int(r.segment.opaque)
                            let srcBase = srcOrigin &+ row &* pageStride
                            let rowBase = rowBase
                            var free = ~covered & r.all
                            while free != 0 {
                                let start = free.trailingZeroBitCount
                                let length = (~(free &>> UInt64(start))).trailingZeroBitCount
                                appendSpans(
                                    &spans, a &+ start, a &+ start &+ length, leadEnd: leadEnd, opaqueEnd: opaqueEnd,
                                    rowBase: rowBase, srcBase: srcBase)
                                free &= start &+ length >= 64 ? 0 : ~UInt64(0) &<< UInt64(start &+ length)
                            }
                            let m = r.opaqueMask
                            bits[word] |= m &<< shift
                            bits[word &+ 1] |= (m &>> 1) &>> (63 &- shift)
                        }
                    }
                    row &+= 1
                    bits += wordsPerRow
                    rowBase &+= stride
                }
                continue
            }
            while row < endRow {
                var k = Int(rowStart[row])
                let kEnd = Int(rowStart[row &+ 1])
                while k < kEnd {
                    let seg = segments[k]
                    k &+= 1
                    let c0 = x &+ Int(seg.column)
                    let leadEnd = c0 &+ Int(seg.lead)
                    let opaqueEnd = leadEnd &+ Int(seg.opaque)
                    let end = opaqueEnd &+ Int(seg.trail)
                    let a = max(c0, 0)
                    let b = min(end, width)
                    guard a < b else { continue }
                    let n = b &- a
                    let srcBase = srcOrigin &+ row &* pageStride
                    let rowBase = rowBase
                    /// Records the visible run `u..<v`, split at the segment's parts: translucent (blended), opaque
                    /// (copied), translucent.
                    @inline(__always) func emit(_ u: Int, _ v: Int) {
                        appendSpans(
                            &spans, u, v, leadEnd: leadEnd, opaqueEnd: opaqueEnd, rowBase: rowBase, srcBase: srcBase)
                    }
                    guard n <= 64 else {
                        forEachClearRun(bits, from: a, to: b, emit)
                        setBits(bits, from: max(leadEnd, 0), to: min(opaqueEnd, width))
                        continue
                    }
                    // Up to 64 pixels (an icon's row, usually): the coverage bits of `a..<b` as one word, from the
                    // two words they lie in (the mask has a spare word after its last row).
                    let word = a &>> 6
                    let shift = UInt64(a & 63)
                    let window = shift == 0 ? bits[word] : (bits[word] &>> shift) | (bits[word &+ 1] &<< (64 &- shift))
                    let all: UInt64 = n == 64 ? ~0 : (1 &<< UInt64(n)) &- 1
                    let covered = window & all
                    // Wholly hidden: its opaque pixels are covered already.
                    if covered == all { continue }
                    if covered == 0 {
                        emit(a, b)
                    } else {
                        var free = ~covered & all
                        while free != 0 {
                            let start = free.trailingZeroBitCount
                            let length = (~(free &>> UInt64(start))).trailingZeroBitCount
                            emit(a &+ start, a &+ start &+ length)
                            free &= start &+ length >= 64 ? 0 : ~UInt64(0) &<< UInt64(start &+ length)
                        }
                    }
                    let oa = max(leadEnd, a)
                    let ob = min(opaqueEnd, b)
                    if oa < ob {
                        let m = (ob &- oa == 64 ? ~UInt64(0) : (1 &<< UInt64(ob &- oa)) &- 1) &<< UInt64(oa &- a)
                        bits[word] |= m &<< shift
                        if shift != 0 { bits[word &+ 1] |= m &>> (64 &- shift) }
                    }
                }
                row &+= 1
                bits += wordsPerRow
                rowBase &+= stride
            }
        }
    }
}

/// Records the visible run `u..<v` of a segment (the frame's pixels `rowBase + u ..< rowBase + v`, the page's
/// `srcBase + u …`), split at the segment's parts: translucent before `leadEnd` (blended), opaque before `opaqueEnd`
/// (copied), translucent after.
@inline(__always) private func appendSpans(
    _ spans: inout [SpriteBatch.Span], _ u: Int, _ v: Int, leadEnd: Int, opaqueEnd: Int, rowBase: Int, srcBase: Int
) {
    let l = min(v, leadEnd)
    if u < l {
        spans.append(SpriteBatch.Span(dst: Int32(rowBase &+ u), src: Int32(srcBase &+ u), count: Int32(u &- l)))
    }
    let ou = max(u, leadEnd)
    let ov = min(v, opaqueEnd)
    if ou < ov {
        spans.append(SpriteBatch.Span(dst: Int32(rowBase &+ ou), src: Int32(srcBase &+ ou), count: Int32(ov &- ou)))
    }
    let tu = max(u, opaqueEnd)
    if tu < v {
        spans.append(SpriteBatch.Span(dst: Int32(rowBase &+ tu), src: Int32(srcBase &+ tu), count: Int32(tu &- v)))
    }
}

/// Calls `body(u, v)` for each maximal run `u..<v` of clear bits of the bit row `bits` within `a..<b`.
@inline(__always) private func forEachClearRun(
    _ bits: UnsafeMutablePointer<UInt64>, from a: Int, to b: Int, _ body: (Int, Int) -> Void
) {
    var pos = a
    while pos < b {
        // The next clear bit at or after `pos`.
        var wi = pos >> 6
        var free = ~bits[wi] & (~UInt64(0) << UInt64(pos & 63))
        while free == 0 {
            wi += 1
            guard wi << 6 < b else { return }
            free = ~bits[wi]
        }
        let start = (wi << 6) + free.trailingZeroBitCount
        guard start < b else { return }
        // The next set bit after `start`.
        var wj = start >> 6
        var used = bits[wj] & (~UInt64(0) << UInt64(start & 63))
        while used == 0 {
            wj += 1
            if wj << 6 >= b { break }
            used = bits[wj]
        }
        let stop = used == 0 ? b : min(b, (wj << 6) + used.trailingZeroBitCount)
        body(start, stop)
        pos = stop
    }
}

/// Sets the bits `a..<b` of the bit row `bits` (nothing when `a >= b`).
@inline(__always) private func setBits(_ bits: UnsafeMutablePointer<UInt64>, from a: Int, to b: Int) {
    guard a < b else { return }
    let wa = a >> 6
    let wb = (b - 1) >> 6
    let head = ~UInt64(0) << UInt64(a & 63)
    let tail = ~UInt64(0) >> UInt64(63 - ((b - 1) & 63))
    if wa == wb {
        bits[wa] |= head & tail
        return
    }
    bits[wa] |= head
    var w = wa + 1
    while w < wb {
        bits[w] = ~0
        w += 1
    }
    bits[wb] |= tail
}

/// Copies `n` pixels (short runs inline, long ones through `memmove`).
@inline(__always) private func copyPixels(_ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, _ n: Int) {
    if n <= 16 {
        for i in 0..<n { d[i] = s[i] }
    } else {
        d.update(from: s, count: n)
    }
}

/// `s OVER d` for `n` pixels, four at a time (``over4(_:_:)``), the rest one by one.
@inline(__always) private func blendPixels(_ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, _ n: Int) {
    var i = 0
    while i + 4 <= n {
        let sv = UnsafeRawPointer(s + i).loadUnaligned(as: SIMD4<UInt32>.self)
        let dv = UnsafeRawPointer(d + i).loadUnaligned(as: SIMD4<UInt32>.self)
        UnsafeMutableRawPointer(d + i).storeBytes(of: over4(sv, dv), as: SIMD4<UInt32>.self)
        i += 4
    }
    while i < n {
        d[i] = over(s[i], d[i])
        i += 1
    }
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

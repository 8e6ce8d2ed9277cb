import CairoGraphics
import Foundation

/// Still images prepared for blitting, packed into premultiplied ARGB32 atlas pages: each page one contiguous
/// buffer, each image ("icon") a rectangle in a page plus its rows split into segments of translucent pixels
/// (blended), opaque ones (copied) and translucent ones again, fully transparent pixels skipped. A ``SpriteBatch``
/// composites icons of its atlas by handle (``Icon``).
///
/// Packing: rows of icons ("shelves") from the top of a page down; an icon goes into the first shelf of a page it fits
/// (no taller than the shelf, at most a quarter taller than the icon, room left at the shelf's end), else into a new
/// shelf under the last one, else into a new page. Pages are `pageWidth` pixels wide and grow downwards (their buffer
/// doubled, up to `pageHeight` rows) as shelves are added; an icon wider or taller than a page gets a page of its own,
/// its size. Icons are looked up by image (``icon(for:)``, the image kept so its identity stays unique) and stamped
/// with the frame that looked them up last (a ``SpriteBatch/composite(into:external:)`` ends a frame). When the
/// atlas holds ``maximumImages`` images or ``pageByteBudget`` bytes of pages and needs room for another, every icon
/// not looked up in the current frame is removed; a removed icon leaves a hole in its shelf, and when a new page
/// would be needed while holes make up a quarter of the pages' area or more, the pages are rebuilt with the live
/// icons alone (packed again tallest first; handles stay valid, only their rectangles move). Handles of removed icons
/// are refused (their draws skipped), never taken for the icon that reuses their number.
///
/// Waymark's own (package access), for the map's marker icons. Not thread-safe (one frame at a time, the thread that
/// draws).
package final class SpriteAtlas {
    /// An icon of the atlas, valid until the icon is removed (see ``SpriteAtlas``).
    package struct Icon: Equatable, Sendable {
        /// Index of the icon's record.
        let index: Int32
        /// The record's serial when the handle was made (a removed icon's record gets another).
        let serial: UInt32
    }

    /// Adjacent runs of one row merged: `lead` translucent pixels, then `opaque` opaque ones, then `trail`
    /// translucent ones from `column` (an icon's row is usually one of these: anti-aliased edges around an opaque
    /// body). Columns count from the icon's left edge.
    struct Segment {
        var column: Int32
        var lead: Int32
        var opaque: Int32
        var trail: Int32
    }

    /// A row of a narrow icon (at most 64 pixels wide, at most one segment a row): the segment with its pixels as bit
    /// masks relative to its first column, so a row is tested against the coverage mask with one word.
    struct NarrowRow {
        /// Bits `0..<lead + opaque + trail` (0: the row is empty).
        var all: UInt64
        /// The opaque pixels' bits.
        var opaqueMask: UInt64
        var segment: Segment
    }

    /// One icon: where its pixels lie and its row data (the pointers owned by the atlas; nil segments: a free record).
    struct Record {
        var page: Int32 = 0
        /// Index of the icon's top-left pixel in its page's buffer.
        var origin: Int = 0
        /// Top-left pixel in the page.
        var x: Int32 = 0
        var y: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        /// The segments, row by row, left to right.
        var segments: UnsafeMutablePointer<Segment>?
        /// Per row: index of its first segment; `rowStart[height]` is the segment count (`height + 1` entries).
        var rowStart: UnsafeMutablePointer<Int32>?
        /// Per row, when the icon is narrow (at most 64 pixels wide, at most one segment a row: marker pins).
        var narrowRows: UnsafeMutablePointer<NarrowRow>?
        /// Per row of a narrow icon: its pixels' bits relative to the icon's column 0 (`NarrowRow.all` shifted by the
        /// segment's column), so a hidden row is told from one coverage window an icon.
        var narrowMasks: UnsafeMutablePointer<UInt64>?
        /// Changes whenever the record is freed (handles carry it).
        var serial: UInt32 = 1
        /// The frame that last looked the icon up.
        var lastUse: UInt32 = 0
    }

    /// A row of icons in a page.
    struct Shelf {
        var y: Int
        var height: Int
        /// First free column.
        var next: Int
    }

    /// One page: `width × rows` pixels (the row stride is `width`), shelves down to `used`.
    struct Page {
        var pixels: UnsafeMutablePointer<UInt32>
        let width: Int
        /// Most rows the page grows to.
        let maxRows: Int
        /// Rows allocated.
        var rows: Int
        /// Rows taken by shelves.
        var used = 0
        var shelves: [Shelf] = []
        /// Pixels of the icons placed in the page, live or removed.
        var placed = 0
        /// Pixels of the live icons.
        var live = 0
    }

    /// Width of a page, pixels.
    package let pageWidth: Int
    /// Most rows of a page.
    package let pageHeight: Int
    /// Most images looked up (with or without an icon) before unused icons are removed.
    package let maximumImages: Int
    /// Bytes of pages beyond which unused icons are removed before another page is added.
    package let pageByteBudget: Int

    private(set) var records: [Record] = []
    private var freeRecords: [Int32] = []
    private(set) var pages: [Page] = []
    /// By image: the image (kept) and its icon (nil: it cannot be blitted).
    private var byImage: [ObjectIdentifier: (image: UIImage, icon: Icon?)] = [:]
    /// The current frame.
    private var frame: UInt32 = 1

    /// An empty atlas. `pageWidth` and `pageHeight` (pixels, 1 to 32,768 wide, a page at most 2³¹ pixels; default
    /// 1024 × 1024: 4 MiB a full page), `maximumImages` (default 512) and `pageByteBudget` (default 16 MiB) are soft
    /// limits: a frame that needs more icons than they allow gets them.
    package init(
        pageWidth: Int = 1024, pageHeight: Int = 1024, maximumImages: Int = 512, pageByteBudget: Int = 16 << 20
    ) {
        self.pageWidth = min(max(1, pageWidth), 1 << 15)
        // Page indices fit 32 bits.
        self.pageHeight = min(max(1, pageHeight), Int(Int32.max) / self.pageWidth)
        self.maximumImages = max(1, maximumImages)
        self.pageByteBudget = max(0, pageByteBudget)
    }

    deinit {
        for r in records { Self.free(r) }
        for p in pages { p.pixels.deallocate() }
    }

    /// Number of pages.
    package var pageCount: Int { pages.count }
    /// Number of live icons.
    package var iconCount: Int { records.count - freeRecords.count }
    /// Bytes of the pages' buffers.
    package var pageBytes: Int { pages.reduce(0) { $0 + $1.width * $1.rows * 4 } }

    /// The icon of `image`'s first bitmap, added on first use, or nil for animated images, empty images and images
    /// whose pixels are not ARGB32. Marks the icon used by the current frame (it stays until a later frame needs room).
    package func icon(for image: UIImage) -> Icon? {
        let key = ObjectIdentifier(image)
        if let hit = byImage[key] {
            if let icon = hit.icon { records[Int(icon.index)].lastUse = frame }
            return hit.icon
        }
        if byImage.count >= maximumImages || pageBytes >= pageByteBudget { removeUnused() }
        var icon: Icon?
        if image.images == nil, let surface = image.surface { icon = add(surface) }
        byImage[key] = (image, icon)
        return icon
    }

    /// Where `icon` lies: its page and rectangle in it, pixels (nil for a removed icon).
    package func placement(of icon: Icon) -> (page: Int, x: Int, y: Int, width: Int, height: Int)? {
        guard let r = record(icon) else { return nil }
        return (Int(r.page), Int(r.x), Int(r.y), Int(r.width), Int(r.height))
    }

    /// The pixel at (`x`, `y`) of `icon` as its page holds it (nil outside the icon or for a removed icon).
    package func pixel(of icon: Icon, x: Int, y: Int) -> UInt32? {
        guard let r = record(icon), x >= 0, y >= 0, x < Int(r.width), y < Int(r.height) else { return nil }
        let page = pages[Int(r.page)]
        return page.pixels[r.origin + y * page.width + x]
    }

    /// Ends the current frame: icons looked up from now on belong to the next one.
    func endFrame() { frame &+= 1 }

    /// The live record of `icon`, or nil.
    func record(_ icon: Icon) -> Record? {
        guard icon.index >= 0, Int(icon.index) < records.count else { return nil }
        let r = records[Int(icon.index)]
        return r.serial == icon.serial && r.segments != nil ? r : nil
    }

    /// Removes every icon not looked up in the current frame.
    private func removeUnused() {
        let frame = frame
        byImage = byImage.filter { entry in
            guard let icon = entry.value.icon else { return false }
            guard records[Int(icon.index)].lastUse != frame else { return true }
            remove(icon.index)
            return false
        }
    }

    private func remove(_ index: Int32) {
        let r = records[Int(index)]
        Self.free(r)
        let area = Int(r.width) * Int(r.height)
        pages[Int(r.page)].live -= area
        if pages[Int(r.page)].live == 0 {
            // An empty page starts over (its buffer kept).
            pages[Int(r.page)].shelves.removeAll()
            pages[Int(r.page)].used = 0
            pages[Int(r.page)].placed = 0
        }
        records[Int(index)] = Record(serial: r.serial &+ 1)
        freeRecords.append(index)
    }

    private static func free(_ r: Record) {
        r.segments?.deallocate()
        r.rowStart?.deallocate()
        r.narrowRows?.deallocate()
        r.narrowMasks?.deallocate()
    }

    /// Adds the pixels of an ARGB32 surface (read through CairoGraphics' pixel access) as an icon, or nil for an
    /// empty surface or one of another format.
    private func add(_ surface: CairoSurface) -> Icon? {
        let w = surface.width
        let h = surface.height
        let rowWords = surface.stride / 4
        guard w > 0, h > 0, rowWords >= w, w < 1 << 24, h < 1 << 24, w * h <= Int(Int32.max) else { return nil }
        var record = surface.withPixels { Self.rowData(of: $0.baseAddress!, rowWords: rowWords, width: w, height: h) }
        let (page, x, y) = place(width: w, height: h)
        let stride = pages[page].width
        let origin = y * stride + x
        surface.withPixels { source in
            for row in 0..<h {
                (pages[page].pixels + origin + row * stride).update(
                    from: source.baseAddress! + row * rowWords, count: w)
            }
        }
        record.page = Int32(page)
        record.origin = origin
        record.x = Int32(x)
        record.y = Int32(y)
        let index: Int32
        if let free = freeRecords.popLast() {
            index = free
            record.serial = records[Int(index)].serial
        } else {
            index = Int32(records.count)
            records.append(Record())
        }
        record.lastUse = frame
        records[Int(index)] = record
        return Icon(index: index, serial: record.serial)
    }

    /// A rectangle of `width × height` pixels for a new icon (counted placed and live): in a page that has room,
    /// else in the pages rebuilt without their holes when those make up a quarter of them, else in a new page.
    private func place(width w: Int, height h: Int) -> (page: Int, x: Int, y: Int) {
        if let spot = findRoom(width: w, height: h) { return spot }
        let area = pages.reduce(0) { $0 + $1.width * $1.maxRows }
        let holes = pages.reduce(0) { $0 + $1.placed - $1.live }
        if holes > 0, holes * 4 >= area {
            compact()
            if let spot = findRoom(width: w, height: h) { return spot }
        }
        let own = w > pageWidth || h > pageHeight
        pages.append(
            Page(
                pixels: .allocate(capacity: 0), width: own ? w : pageWidth, maxRows: own ? h : pageHeight, rows: 0))
        return findRoom(width: w, height: h, in: pages.count - 1)!
    }

    /// Room for `w × h` in the first page that has it.
    private func findRoom(width w: Int, height h: Int) -> (page: Int, x: Int, y: Int)? {
        for p in pages.indices {
            if let spot = findRoom(width: w, height: h, in: p) { return spot }
        }
        return nil
    }

    /// Room for `w × h` in page `p`: a shelf it fits, or a new shelf (the page's buffer grown to hold it).
    private func findRoom(width w: Int, height h: Int, in p: Int) -> (page: Int, x: Int, y: Int)? {
        guard w <= pages[p].width, h <= pages[p].maxRows else { return nil }
        var spot: (Int, Int)?
        if let s = pages[p].shelves.firstIndex(where: {
            h <= $0.height && $0.height <= h + h / 4 && $0.next + w <= pages[p].width
        }) {
            spot = (pages[p].shelves[s].next, pages[p].shelves[s].y)
            pages[p].shelves[s].next += w
        } else if pages[p].used + h <= pages[p].maxRows {
            let y = pages[p].used
            pages[p].shelves.append(Shelf(y: y, height: h, next: w))
            pages[p].used += h
            if pages[p].used > pages[p].rows {
                let rows = min(pages[p].maxRows, max(pages[p].used, pages[p].rows * 2, 64))
                let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: rows * pages[p].width)
                pixels.update(from: pages[p].pixels, count: pages[p].rows * pages[p].width)
                pages[p].pixels.deallocate()
                pages[p].pixels = pixels
                pages[p].rows = rows
            }
            spot = (0, y)
        }
        guard let (x, y) = spot else { return nil }
        pages[p].placed += w * h
        pages[p].live += w * h
        return (p, x, y)
    }

    /// Rebuilds the pages with the live icons alone, tallest first (records keep their index and serial).
    private func compact() {
        let old = pages
        pages = []
        let live = records.indices.filter { records[$0].segments != nil }.sorted {
            (records[$0].height, records[$0].width) > (records[$1].height, records[$1].width)
        }
        for i in live {
            let r = records[i]
            let w = Int(r.width)
            let h = Int(r.height)
            let (page, x, y) = place(width: w, height: h)
            let stride = pages[page].width
            let origin = y * stride + x
            let from = old[Int(r.page)]
            for row in 0..<h {
                (pages[page].pixels + origin + row * stride).update(
                    from: from.pixels + r.origin + row * from.width, count: w)
            }
            records[i].page = Int32(page)
            records[i].origin = origin
            records[i].x = Int32(x)
            records[i].y = Int32(y)
        }
        for p in old { p.pixels.deallocate() }
    }

    /// The segments (and narrow rows) of `width × height` premultiplied pixels, rows `rowWords` apart.
    private static func rowData(of pixels: UnsafePointer<UInt32>, rowWords: Int, width w: Int, height h: Int) -> Record
    {
        var segments: [Segment] = []
        var rowStart: [Int32] = []
        for y in 0..<h {
            rowStart.append(Int32(segments.count))
            let row = pixels + y * rowWords
            var x = 0
            while x < w {
                let alpha = row[x] >> 24
                if alpha == 0 {
                    x += 1
                    continue
                }
                // One run of pixels of one kind (opaque or translucent), then merged into the row's last segment
                // when the pattern allows: translucent → opaque → translucent.
                let opaque = alpha == 255
                var end = x + 1
                while end < w {
                    let a = row[end] >> 24
                    if a == 0 || (a == 255) != opaque { break }
                    end += 1
                }
                let n = Int32(end - x)
                if var last = segments.last, Int(rowStart[y]) < segments.count, last.trail == 0,
                    Int(last.column + last.lead + last.opaque) == x
                {
                    if !opaque && last.opaque == 0 {
                        last.lead += n
                    } else if opaque {
                        last.opaque += n
                    } else {
                        last.trail += n
                    }
                    segments[segments.count - 1] = last
                } else {
                    segments.append(
                        Segment(column: Int32(x), lead: opaque ? 0 : n, opaque: opaque ? n : 0, trail: 0))
                }
                x = end
            }
        }
        rowStart.append(Int32(segments.count))
        var record = Record(width: Int32(w), height: Int32(h))
        let segmentBuffer = UnsafeMutablePointer<Segment>.allocate(capacity: max(segments.count, 1))
        segmentBuffer.initialize(from: segments, count: segments.count)
        record.segments = segmentBuffer
        let rowBuffer = UnsafeMutablePointer<Int32>.allocate(capacity: rowStart.count)
        rowBuffer.initialize(from: rowStart, count: rowStart.count)
        record.rowStart = rowBuffer
        if w <= 64, (0..<h).allSatisfy({ rowStart[$0 + 1] - rowStart[$0] <= 1 }) {
            let rows = UnsafeMutablePointer<NarrowRow>.allocate(capacity: h)
            let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: h)
            for y in 0..<h {
                guard rowStart[y] < rowStart[y + 1] else {
                    rows[y] = NarrowRow(
                        all: 0, opaqueMask: 0, segment: Segment(column: 0, lead: 0, opaque: 0, trail: 0))
                    masks[y] = 0
                    continue
                }
                let seg = segments[Int(rowStart[y])]
                let n = Int(seg.lead + seg.opaque + seg.trail)
                let opaque = Int(seg.opaque)
                rows[y] = NarrowRow(
                    all: n == 64 ? ~0 : (1 << UInt64(n)) - 1,
                    opaqueMask: (opaque == 64 ? ~0 : (1 << UInt64(opaque)) - 1) << UInt64(seg.lead), segment: seg)
                masks[y] = rows[y].all << UInt64(seg.column)
            }
            record.narrowRows = rows
            record.narrowMasks = masks
        }
        return record
    }
}

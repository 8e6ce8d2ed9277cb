import CCairo
import CPangoCairo
import CairoGraphics
import Foundation

extension NSAttributedString.Key {
    /// The ``UIFont`` of a run of text (UIKit's `NSAttributedString.Key.font`).
    public static let font = NSAttributedString.Key("NSFont")
    /// The ``UIColor`` of a run of text (UIKit's `NSAttributedString.Key.foregroundColor`).
    public static let foregroundColor = NSAttributedString.Key("NSColor")
}

/// How text is aligned horizontally within its box, as UIKit's `NSTextAlignment`.
public enum NSTextAlignment: Int, Sendable {
    /// Flush left.
    case left = 0
    /// Centred.
    case center = 1
    /// Flush right.
    case right = 2
    /// Both edges flush (last line flush left).
    case justified = 3
    /// The script's natural alignment: left for left-to-right text.
    case natural = 4
}

/// What happens to text that does not fit its box, as UIKit's `NSLineBreakMode`.
public enum NSLineBreakMode: Int, Sendable {
    /// Wrap at word boundaries (long words break between characters).
    case byWordWrapping = 0
    /// Wrap between any characters.
    case byCharWrapping = 1
    /// Do not draw past the edge.
    case byClipping = 2
    /// Replace the start of the last visible line with an ellipsis.
    case byTruncatingHead = 3
    /// Replace the end of the last visible line with an ellipsis (`…`).
    case byTruncatingTail = 4
    /// Replace the middle of the last visible line with an ellipsis.
    case byTruncatingMiddle = 5
}

/// Pango text layout shared by `UILabel` and `NSString`-style drawing.
enum TextLayout {
    /// The cairo font options every layout uses: grey antialiasing, no hinting, unhinted metrics, so text metrics do
    /// not depend on the device scale and golden images are stable.
    static func applyFontOptions(_ context: OpaquePointer?) { PangoFontOptions.apply(to: context) }

    /// Ascent and descent of `font` in points.
    static func fontMetrics(_ font: UIFont) -> (ascent: CGFloat, descent: CGFloat) {
        let map = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(map)
        applyFontOptions(context)
        let desc = font.makePangoDescription()
        let metrics = pango_context_get_metrics(context, desc, nil)
        let ascent = CGFloat(pango_font_metrics_get_ascent(metrics)) / CGFloat(PANGO_SCALE)
        let descent = CGFloat(pango_font_metrics_get_descent(metrics)) / CGFloat(PANGO_SCALE)
        pango_font_metrics_unref(metrics)
        pango_font_description_free(desc)
        g_object_unref(UnsafeMutableRawPointer(context))
        return (ascent, descent)
    }

    /// A description of what to lay out and how.
    struct Request {
        var text: NSAttributedString
        var font: UIFont
        var color: UIColor
        var alignment: NSTextAlignment
        var numberOfLines: Int
        var lineBreakMode: NSLineBreakMode
        /// Available width in points; `nil` for unconstrained.
        var width: CGFloat?
        /// Available height in points for `numberOfLines == 0`; `nil` for unconstrained.
        var height: CGFloat?
    }

    /// A laid-out paragraph: the Pango layout plus the size of the visible lines.
    final class Result {
        let layout: OpaquePointer
        /// Size of the visible lines' logical extents, in points.
        let size: CGSize
        /// Extra x offset to apply when the layout has no width to align within.
        let unalignedWidth: Bool
        /// The baselines of the visible lines, points below the top of the box, when they come from the runs' glyph
        /// extents instead of Pango's line metrics (a run without a font, see ``clearFontlessRunOffsets(_:)``); nil
        /// when Pango places the lines.
        let glyphBaselines: [CGFloat]?
        init(layout: OpaquePointer, size: CGSize, unalignedWidth: Bool, glyphBaselines: [CGFloat]? = nil) {
            self.layout = layout
            self.size = size
            self.unalignedWidth = unalignedWidth
            self.glyphBaselines = glyphBaselines
        }
        deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

        /// True when Pango replaced some text with an ellipsis.
        var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }
        /// The number of lines Pango produced (visible or not).
        var lineCount: Int { Int(pango_layout_get_line_count(layout)) }
    }

    /// Lays `request` out for drawing into `cr` (or a scratch context when `cr` is nil).
    static func layout(_ request: Request, cr: OpaquePointer?) -> Result {
        var scratchSurface: OpaquePointer?
        var scratch: OpaquePointer?
        if cr == nil {
            scratchSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
            scratch = cairo_create(scratchSurface)
        }
        defer {
            if let scratch { cairo_destroy(scratch) }
            if let scratchSurface { cairo_surface_destroy(scratchSurface) }
        }
        let layout = pango_cairo_create_layout(cr ?? scratch)!
        applyFontOptions(pango_layout_get_context(layout))
        pango_layout_context_changed(layout)

        let string = request.text.string
        pango_layout_set_text(layout, string, -1)
        let desc = request.font.makePangoDescription()
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        let attributeList = attributes(for: request.text)
        pango_layout_set_attributes(layout, attributeList)
        pango_attr_list_unref(attributeList)

        let truncating: Bool
        let ellipsize: PangoEllipsizeMode
        switch request.lineBreakMode {
        case .byTruncatingTail: (truncating, ellipsize) = (true, PANGO_ELLIPSIZE_END)
        case .byTruncatingHead: (truncating, ellipsize) = (true, PANGO_ELLIPSIZE_START)
        case .byTruncatingMiddle: (truncating, ellipsize) = (true, PANGO_ELLIPSIZE_MIDDLE)
        default: (truncating, ellipsize) = (false, PANGO_ELLIPSIZE_NONE)
        }
        pango_layout_set_wrap(layout, request.lineBreakMode == .byCharWrapping ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR)
        let pangoWidth = request.width.map { Int32(max(0, $0) * CGFloat(PANGO_SCALE)) }
        var unaligned = false
        if request.numberOfLines == 1 && !truncating || pangoWidth == nil {
            pango_layout_set_width(layout, -1)
            unaligned = true
        } else if let pangoWidth {
            pango_layout_set_width(layout, pangoWidth)
            // Pango ellipsizes only within a height limit; without one (no line limit, unbounded height) every line
            // shows and nothing is cut.
            if truncating && request.numberOfLines > 0 {
                pango_layout_set_ellipsize(layout, ellipsize)
                pango_layout_set_height(layout, -Int32(request.numberOfLines))
            } else if truncating, let h = request.height {
                pango_layout_set_ellipsize(layout, ellipsize)
                pango_layout_set_height(layout, Int32(max(0, h) * CGFloat(PANGO_SCALE)))
            }
        }
        switch request.alignment {
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .justified:
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layout, 1)
        case .left, .natural: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        }

        clearFontlessRunOffsets(layout)
        // Size of the first `numberOfLines` lines (all when 0).
        let lineCount = Int(pango_layout_get_line_count(layout))
        let visible = request.numberOfLines > 0 ? min(lineCount, request.numberOfLines) : lineCount
        var width: Int32 = 0
        var bottom: Int32 = 0
        // The same lines stacked from their runs' glyph extents: baselines and running bottom, Pango units.
        var baselines: [Int32] = []
        var glyphBottom: Int32 = 0
        var fontless = false
        if let iter = pango_layout_get_iter(layout) {
            var index = 0
            repeat {
                guard index < visible else { break }
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                width = max(width, logical.width)
                bottom = max(bottom, logical.y + logical.height)
                let glyphs = glyphLineExtents(pango_layout_iter_get_line_readonly(iter))
                fontless = fontless || glyphs.fontless
                baselines.append(glyphBottom + glyphs.ascent)
                glyphBottom += glyphs.ascent + glyphs.descent
                index += 1
            } while pango_layout_iter_next_line(iter) != 0
            pango_layout_iter_free(iter)
        }
        let scale = CGFloat(PANGO_SCALE)
        guard fontless else {
            let size = CGSize(width: CGFloat(width) / scale, height: CGFloat(bottom) / scale)
            return Result(layout: layout, size: size, unalignedWidth: unaligned)
        }
        let size = CGSize(width: CGFloat(width) / scale, height: CGFloat(glyphBottom) / scale)
        let glyphBaselines = baselines.map { CGFloat($0) / scale }
        return Result(layout: layout, size: size, unalignedWidth: unaligned, glyphBaselines: glyphBaselines)
    }

    /// The ascent and descent of `line` from its runs' glyph extents, Pango units, and whether a run has no font
    /// (then Pango's own line extents are not usable, see ``clearFontlessRunOffsets(_:)``).
    private static func glyphLineExtents(
        _ line: UnsafeMutablePointer<PangoLayoutLine>?
    ) -> (ascent: Int32, descent: Int32, fontless: Bool) {
        var ascent: Int32 = 0
        var descent: Int32 = 0
        var fontless = false
        var node = line?.pointee.runs
        while let current = node {
            if let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) {
                let font = run.pointee.item?.pointee.analysis.font
                fontless = fontless || font == nil
                var logical = PangoRectangle()
                pango_glyph_string_extents(run.pointee.glyphs, font, nil, &logical)
                ascent = max(ascent, -logical.y)
                descent = max(descent, logical.y + logical.height)
            }
            node = current.pointee.next
        }
        return (ascent, descent, fontless)
    }

    /// Zeroes the offsets of every run that has no font, so that Pango measures and draws it as shaped.
    ///
    /// A run has no font when fontconfig offers none (a machine without fonts): Pango 1.50 shapes it as hex boxes
    /// but leaves the run's `y_offset`, `start_x_offset` and `end_x_offset` uninitialised (valgrind shows the
    /// heap garbage), and the line's logical extents and baseline include that `y_offset`: line heights of a million
    /// points or more, different on each run, and boxes drawn far outside the box. Runs with a font keep Pango's
    /// offsets. Pango has by then cached the line extents (garbage included), so such lines are also measured and placed
    /// from their runs' glyph extents (``Result/glyphBaselines``). Call it whenever Pango may have laid the lines out
    /// again (after `pango_cairo_update_layout`).
    static func clearFontlessRunOffsets(_ layout: OpaquePointer) {
        var lineNode = pango_layout_get_lines_readonly(layout)
        while let currentLine = lineNode {
            let line = currentLine.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self)
            var runNode = line?.pointee.runs
            while let currentRun = runNode {
                if let run = currentRun.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                    run.pointee.item?.pointee.analysis.font == nil
                {
                    run.pointee.y_offset = 0
                    run.pointee.start_x_offset = 0
                    run.pointee.end_x_offset = 0
                }
                runNode = currentRun.pointee.next
            }
            lineNode = currentLine.pointee.next
        }
    }

    /// Pango attributes for the font and colour runs of `text` (indices converted from UTF-16 to UTF-8 offsets).
    private static func attributes(for text: NSAttributedString) -> OpaquePointer? {
        let list = pango_attr_list_new()
        let string = text.string
        let utf16 = string.utf16
        func utf8Offset(_ utf16Offset: Int) -> UInt32 {
            let index = utf16.index(utf16.startIndex, offsetBy: min(utf16Offset, utf16.count))
            return UInt32(string.utf8.distance(from: string.utf8.startIndex, to: index))
        }
        let full = NSRange(location: 0, length: text.length)
        text.enumerateAttributes(in: full, options: []) { attrs, range, _ in
            let start = utf8Offset(range.location)
            let end = utf8Offset(range.location + range.length)
            if let font = attrs[.font] as? UIFont {
                let desc = font.makePangoDescription()
                if let attr = pango_attr_font_desc_new(desc) {
                    attr.pointee.start_index = start
                    attr.pointee.end_index = end
                    pango_attr_list_insert(list, attr)
                }
                pango_font_description_free(desc)
            }
            if let color = attrs[.foregroundColor] as? UIColor {
                let (r, g, b, a) = color.rgba
                func c16(_ v: CGFloat) -> UInt16 { UInt16((v * 65535).rounded()) }
                if let attr = pango_attr_foreground_new(c16(r), c16(g), c16(b)) {
                    attr.pointee.start_index = start
                    attr.pointee.end_index = end
                    pango_attr_list_insert(list, attr)
                }
                if let attr = pango_attr_foreground_alpha_new(max(1, c16(a))) {
                    attr.pointee.start_index = start
                    attr.pointee.end_index = end
                    pango_attr_list_insert(list, attr)
                }
            }
        }
        return list
    }

    /// Draws the visible lines of `result` with the top-left of the layout box at `origin`, clipped to
    /// `clipHeight` points below it (the height of the visible lines). Draws nothing on a machine without fonts
    /// (``FontAvailability``: Pango would draw hex boxes), so views keep their backgrounds and bubbles.
    static func draw(
        _ result: Result, in cr: OpaquePointer, at origin: CGPoint, boxWidth: CGFloat,
        alignment: NSTextAlignment, color: UIColor
    ) {
        // No font on the machine: Pango would draw hex boxes; draw nothing (FontAvailability warns once).
        guard FontAvailability.warnIfMissing() else { return }
        cairo_save(cr)
        var x = origin.x
        if result.unalignedWidth {
            switch alignment {
            case .center: x += (boxWidth - result.size.width) / 2
            case .right: x += boxWidth - result.size.width
            default: break
            }
        }
        cairo_rectangle(cr, Double(x) - 1e4, Double(origin.y), 2e4, Double(result.size.height))
        cairo_clip(cr)
        let (r, g, b, a) = color.rgba
        cairo_set_source_rgba(cr, Double(r), Double(g), Double(b), Double(a))
        pango_cairo_update_layout(cr, result.layout)
        clearFontlessRunOffsets(result.layout)
        if let baselines = result.glyphBaselines, let iter = pango_layout_get_iter(result.layout) {
            // A run without a font: each visible line on its glyph-extent baseline (Pango's are not usable).
            var index = 0
            repeat {
                guard index < baselines.count, let line = pango_layout_iter_get_line_readonly(iter) else { break }
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                let lineX = Double(x) + Double(logical.x) / Double(PANGO_SCALE)
                cairo_move_to(cr, lineX, Double(origin.y + baselines[index]))
                pango_cairo_show_layout_line(cr, line)
                index += 1
            } while pango_layout_iter_next_line(iter) != 0
            pango_layout_iter_free(iter)
        } else {
            cairo_move_to(cr, Double(x), Double(origin.y))
            pango_cairo_show_layout(cr, result.layout)
        }
        cairo_restore(cr)
    }
}

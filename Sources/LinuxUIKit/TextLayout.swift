import CCairo
import CPangoCairo
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
    static func applyFontOptions(_ context: OpaquePointer?) {
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

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
        init(layout: OpaquePointer, size: CGSize, unalignedWidth: Bool) {
            self.layout = layout
            self.size = size
            self.unalignedWidth = unalignedWidth
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

        // Size of the first `numberOfLines` lines (all when 0).
        let lineCount = Int(pango_layout_get_line_count(layout))
        let visible = request.numberOfLines > 0 ? min(lineCount, request.numberOfLines) : lineCount
        var width: Int32 = 0
        var bottom: Int32 = 0
        if let iter = pango_layout_get_iter(layout) {
            var index = 0
            repeat {
                guard index < visible else { break }
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                width = max(width, logical.width)
                bottom = max(bottom, logical.y + logical.height)
                index += 1
            } while pango_layout_iter_next_line(iter) != 0
            pango_layout_iter_free(iter)
        }
        let scale = CGFloat(PANGO_SCALE)
        let size = CGSize(width: CGFloat(width) / scale, height: CGFloat(bottom) / scale)
        return Result(layout: layout, size: size, unalignedWidth: unaligned)
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
    /// `clipHeight` points below it (the height of the visible lines).
    static func draw(
        _ result: Result, in cr: OpaquePointer, at origin: CGPoint, boxWidth: CGFloat,
        alignment: NSTextAlignment, color: UIColor
    ) {
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
        cairo_move_to(cr, Double(x), Double(origin.y))
        pango_cairo_update_layout(cr, result.layout)
        pango_cairo_show_layout(cr, result.layout)
        cairo_restore(cr)
    }
}

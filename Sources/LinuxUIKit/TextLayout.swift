import CCairo
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

/// UIKit's text layout for `UILabel` and `NSString`-style drawing: a thin caller of CairoGraphics'
/// ``PangoTextLayout`` (the package's one Pango layout path, shared with the map's labels).
enum TextLayout {
    /// Ascent and descent of `font` in points.
    static func fontMetrics(_ font: UIFont) -> (ascent: CGFloat, descent: CGFloat) {
        let metrics = PangoFontContext.current.metrics(font.pangoFont)
        return (CGFloat(metrics.ascent), CGFloat(metrics.descent))
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
        let layout: PangoTextLayout
        /// Size of the visible lines' logical extents, in points.
        let size: CGSize
        /// Extra x offset to apply when the layout has no width to align within.
        let unalignedWidth: Bool
        /// The baselines of the visible lines, points below the top of the box, when they come from the runs' glyph
        /// extents instead of Pango's line metrics (a run without a font, see
        /// ``PangoTextLayout/clearFontlessRunOffsets()``); nil when Pango places the lines.
        let glyphBaselines: [CGFloat]?
        init(layout: PangoTextLayout, size: CGSize, unalignedWidth: Bool, glyphBaselines: [CGFloat]? = nil) {
            self.layout = layout
            self.size = size
            self.unalignedWidth = unalignedWidth
            self.glyphBaselines = glyphBaselines
        }

        /// True when Pango replaced some text with an ellipsis.
        var isEllipsized: Bool { layout.isEllipsized }
        /// The number of lines Pango produced (visible or not).
        var lineCount: Int { layout.lineCount }
    }

    /// Lays `request` out for drawing into `canvas` (or for measuring only when `canvas` is nil).
    static func layout(_ request: Request, canvas: CairoCanvas?) -> Result {
        let layout = PangoTextLayout(for: canvas)
        layout.setText(request.text.string)
        layout.setFont(request.font.pangoFont)
        layout.setAttributes(attributes(for: request.text))

        let truncating: Bool
        let ellipsize: PangoTextLayout.Ellipsize
        switch request.lineBreakMode {
        case .byTruncatingTail: (truncating, ellipsize) = (true, .end)
        case .byTruncatingHead: (truncating, ellipsize) = (true, .start)
        case .byTruncatingMiddle: (truncating, ellipsize) = (true, .middle)
        default: (truncating, ellipsize) = (false, .none)
        }
        layout.setWrap(request.lineBreakMode == .byCharWrapping ? .char : .wordChar)
        let pangoWidth = request.width.map { Int32(max(0, $0) * CGFloat(PangoTextLayout.unitsPerPoint)) }
        var unaligned = false
        if request.numberOfLines == 1 && !truncating || pangoWidth == nil {
            layout.setWidth(nil)
            unaligned = true
        } else if let pangoWidth {
            layout.setWidth(pangoUnits: pangoWidth)
            // Pango ellipsizes only within a height limit; without one (no line limit, unbounded height) every line
            // shows and nothing is cut.
            if truncating && request.numberOfLines > 0 {
                layout.setEllipsize(ellipsize)
                layout.setHeight(lines: request.numberOfLines)
            } else if truncating, let h = request.height {
                layout.setEllipsize(ellipsize)
                layout.setHeight(pangoUnits: Int32(max(0, h) * CGFloat(PangoTextLayout.unitsPerPoint)))
            }
        }
        switch request.alignment {
        case .center: layout.setAlignment(.center)
        case .right: layout.setAlignment(.right)
        case .justified: layout.setAlignment(.left, justify: true)
        case .left, .natural: layout.setAlignment(.left)
        }

        layout.clearFontlessRunOffsets()
        // Size of the first `numberOfLines` lines (all when 0).
        let lines = layout.lines(limit: request.numberOfLines > 0 ? request.numberOfLines : nil, glyphExtents: true)
        var width = 0
        var bottom = 0
        // The same lines stacked from their runs' glyph extents: baselines and running bottom, Pango units.
        var baselines: [Int] = []
        var glyphBottom = 0
        var fontless = false
        for line in lines {
            width = max(width, line.logical.width)
            bottom = max(bottom, line.logical.y + line.logical.height)
            fontless = fontless || line.fontless
            baselines.append(glyphBottom + line.glyphAscent)
            glyphBottom += line.glyphAscent + line.glyphDescent
        }
        let scale = CGFloat(PangoTextLayout.unitsPerPoint)
        guard fontless else {
            let size = CGSize(width: CGFloat(width) / scale, height: CGFloat(bottom) / scale)
            return Result(layout: layout, size: size, unalignedWidth: unaligned)
        }
        let size = CGSize(width: CGFloat(width) / scale, height: CGFloat(glyphBottom) / scale)
        let glyphBaselines = baselines.map { CGFloat($0) / scale }
        return Result(layout: layout, size: size, unalignedWidth: unaligned, glyphBaselines: glyphBaselines)
    }

    /// Pango attributes for the font and colour runs of `text` (indices converted from UTF-16 to UTF-8 offsets).
    private static func attributes(for text: NSAttributedString) -> [PangoTextLayout.Attribute] {
        var list: [PangoTextLayout.Attribute] = []
        let string = text.string
        let utf16 = string.utf16
        func utf8Offset(_ utf16Offset: Int) -> Int {
            let index = utf16.index(utf16.startIndex, offsetBy: min(utf16Offset, utf16.count))
            return string.utf8.distance(from: string.utf8.startIndex, to: index)
        }
        let full = NSRange(location: 0, length: text.length)
        text.enumerateAttributes(in: full, options: []) { attrs, range, _ in
            let runRange = utf8Offset(range.location)..<utf8Offset(range.location + range.length)
            if let font = attrs[.font] as? UIFont { list.append(.font(font.pangoFont, runRange)) }
            if let color = attrs[.foregroundColor] as? UIColor {
                let (r, g, b, a) = color.rgba
                list.append(.color(red: Double(r), green: Double(g), blue: Double(b), alpha: Double(a), runRange))
            }
        }
        return list
    }

    /// Draws the visible lines of `result` with the top-left of the layout box at `origin`, clipped to
    /// `clipHeight` points below it (the height of the visible lines). Draws nothing on a machine without fonts
    /// (``FontAvailability``: Pango would draw hex boxes), so views keep their backgrounds and bubbles.
    static func draw(
        _ result: Result, in canvas: CairoCanvas, at origin: CGPoint, boxWidth: CGFloat,
        alignment: NSTextAlignment, color: UIColor
    ) {
        // No font on the machine: Pango would draw hex boxes; draw nothing (FontAvailability warns once).
        guard FontAvailability.warnIfMissing() else { return }
        let cr = canvas.context
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
        result.layout.update(for: canvas)
        result.layout.clearFontlessRunOffsets()
        if let baselines = result.glyphBaselines {
            // A run without a font: each visible line on its glyph-extent baseline (Pango's are not usable).
            result.layout.drawLines(in: canvas, x: Double(x), baselines: baselines.map { Double(origin.y + $0) })
        } else {
            result.layout.draw(in: canvas, x: Double(x), y: Double(origin.y))
        }
        cairo_restore(cr)
    }
}

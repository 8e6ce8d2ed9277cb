import CCairo
import CPangoCairo
import Foundation

/// A font as Pango selects it: a family list, an absolute size, a weight and (optionally) a slant. The one font
/// value of the package's text: LinuxUIKit's `UIFont` and the map's `TextStyle` both become one.
package struct PangoFont: Hashable, Sendable {
    /// A Pango family list, comma-separated (`"Noto Sans,DejaVu Sans"`); an empty list means `sans-serif`.
    package var families: String
    /// The absolute size in user-space units (points for UIKit, device pixels for map labels), `> 0`.
    package var size: Double
    /// The CSS/Pango weight, `100…1000` (400 regular, 700 bold).
    package var weight: Int
    /// `true` italic, `false` upright, `nil` left unset (Pango's default, upright).
    package var italic: Bool?

    /// Creates a font.
    package init(families: String, size: Double, weight: Int, italic: Bool? = nil) {
        self.families = families
        self.size = size
        self.weight = weight
        self.italic = italic
    }

    /// A new `PangoFontDescription *` for the font; the caller frees it (`pango_font_description_free`).
    fileprivate func makeDescription() -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, families.isEmpty ? "sans-serif" : families)
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight)))
        if let italic {
            pango_font_description_set_style(description, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        }
        return description
    }
}

/// The Pango font map and context of one thread, with the package's font options (``PangoFontOptions``) and a cache
/// of font descriptions: every Pango layout of the package (LinuxUIKit's labels and string drawing, the map's label
/// measurement and sprites) comes from the calling thread's one (``current``).
///
/// The font map is Pango's default for the thread (`pango_cairo_font_map_get_default`, one per thread since Pango
/// 1.32.6), so fonts opened for UIKit text and for map labels on one thread are opened once.
/// - Thread rules: a context belongs to its thread; take it with ``current`` on the thread that uses it (never keep
///   one for another thread: map backends of the tile lanes run on whichever thread the frame hands them).
package final class PangoFontContext {
    /// The `PangoFontMap *` (one reference).
    let fontMap: OpaquePointer
    /// The `PangoContext *` of layouts drawn without a Cairo context of their own (map labels, measurement), with
    /// the package's font options and an identity matrix.
    let context: OpaquePointer
    /// The layout map labels reuse (setting text and attributes again is cheaper than a new layout).
    package private(set) lazy var reusableLayout = PangoTextLayout(shared: self)
    private var descriptions: [PangoFont: OpaquePointer] = [:]
    private let scratchSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)!
    /// A `cairo_t *` over a 1 × 1 image surface: what layouts measured without a target are updated from.
    private(set) lazy var scratch: OpaquePointer = cairo_create(scratchSurface)!

    private init() {
        let map = pango_cairo_font_map_get_default()!
        g_object_ref(UnsafeMutableRawPointer(map))
        fontMap = OpaquePointer(map)
        context = pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(fontMap))!
        PangoFontOptions.apply(to: context)
    }

    deinit {
        for description in descriptions.values { pango_font_description_free(description) }
        cairo_destroy(scratch)
        cairo_surface_destroy(scratchSurface)
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<PangoFontContext>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// The calling thread's context (made on first use; released when the thread ends).
    package static var current: PangoFontContext {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<PangoFontContext>.fromOpaque(pointer).takeUnretainedValue()
        }
        let made = PangoFontContext()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The cached `PangoFontDescription *` of `font` (owned by the context; at most 256 kept).
    func description(_ font: PangoFont) -> OpaquePointer {
        if let cached = descriptions[font] { return cached }
        let description = font.makeDescription()
        if descriptions.count > 256 {
            for d in descriptions.values { pango_font_description_free(d) }
            descriptions.removeAll()
        }
        descriptions[font] = description
        return description
    }

    /// The ascent and descent of `font`, user-space units (Pango's font metrics, no text laid out).
    package func metrics(_ font: PangoFont) -> (ascent: Double, descent: Double) {
        let metrics = pango_context_get_metrics(context, description(font), nil)
        defer { pango_font_metrics_unref(metrics) }
        let scale = Double(PANGO_SCALE)
        return (
            Double(pango_font_metrics_get_ascent(metrics)) / scale,
            Double(pango_font_metrics_get_descent(metrics)) / scale
        )
    }

    /// The installed font families' names, unsorted, from the thread's font map.
    package var familyNames: [String] {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(UnsafeMutablePointer<PangoFontMap>(fontMap), &list, &count)
        var names: [String] = []
        if let list {
            for i in 0..<Int(count) {
                if let family = list[i], let name = pango_font_family_get_name(family) {
                    names.append(String(cString: name))
                }
            }
            g_free(list)
        }
        return names
    }
}

/// One Pango layout (`PangoLayout`: HarfBuzz shaping, fontconfig fallback, bidi, wrapping, ellipsizing): the one
/// text layout type of the package. LinuxUIKit's `TextLayout` (labels, string drawing, info windows) and the map's
/// `PangoTextShaper` and `LabelSpriteCache` set it up, measure it and draw it through this type.
///
/// Extents are in Pango units (``unitsPerPoint`` to a user-space unit), so callers divide exactly as Pango would.
/// - Thread rules: use on the thread whose ``PangoFontContext`` made it.
package final class PangoTextLayout {
    /// Pango units per user-space unit (`PANGO_SCALE`, 1024).
    package static let unitsPerPoint = Int(PANGO_SCALE)

    /// A rectangle in Pango units.
    package struct Rect: Equatable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
    }

    /// A laid-out line: its UTF-8 byte range, its logical extents and baseline (layout coordinates, Pango units),
    /// and the ascent and descent of its runs' glyphs (Pango units), with whether a run has no font.
    package struct Line {
        package var utf8Range: Range<Int>
        package var logical: Rect
        package var baseline: Int
        package var glyphAscent: Int
        package var glyphDescent: Int
        package var fontless: Bool
    }

    /// How lines break at the layout's width.
    package enum Wrap { case word, char, wordChar }
    /// Where text that does not fit is replaced with an ellipsis.
    package enum Ellipsize { case none, start, middle, end }
    /// Horizontal alignment of the lines within the width.
    package enum Alignment { case left, center, right }

    /// A run attribute over a UTF-8 byte range (`nil`: the whole text).
    package enum Attribute {
        case font(PangoFont, Range<Int>?)
        /// Straight RGBA, each 0…1.
        case color(red: Double, green: Double, blue: Double, alpha: Double, Range<Int>?)
        /// Extra space between letters, user-space units.
        case letterSpacing(Double)
        /// An absolute line height, user-space units.
        case lineHeight(Double)
    }

    /// The `PangoLayout *`.
    private let layout: OpaquePointer
    private let fonts: PangoFontContext

    /// The thread's reusable map-label layout (``PangoFontContext/reusableLayout``).
    fileprivate init(shared fonts: PangoFontContext) {
        self.fonts = fonts
        layout = pango_layout_new(fonts.context)!
    }

    /// A new layout for drawing into `canvas` (its matrix and its surface's font options, merged with the package's
    /// font options), or, with `nil`, for measuring in a device space equal to user space. Its context is its own,
    /// from the thread's font map (``PangoFontContext/current``).
    package init(for canvas: CairoCanvas?) {
        fonts = PangoFontContext.current
        let context = pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(fonts.fontMap))!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        PangoFontOptions.apply(to: context)
        if let canvas {
            pango_cairo_update_context(canvas.context, context)
        } else {
            pango_cairo_update_context(fonts.scratch, context)
        }
        layout = pango_layout_new(context)!
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    // MARK: Setting up

    /// Lays out `text` as plain text (no markup).
    package func setText(_ text: String) { pango_layout_set_text(layout, text, -1) }

    /// Lays out Pango markup (`<b>`, `<span foreground=…>`); returns `false`, leaving the text as it was, when the
    /// markup does not parse.
    @discardableResult
    package func setMarkup(_ markup: String) -> Bool {
        guard pango_parse_markup(markup, -1, 0, nil, nil, nil, nil) != 0 else { return false }
        pango_layout_set_markup(layout, markup, -1)
        return true
    }

    /// The base font (runs may override it, ``setAttributes(_:)``).
    package func setFont(_ font: PangoFont) { pango_layout_set_font_description(layout, fonts.description(font)) }

    /// Replaces the run attributes.
    package func setAttributes(_ attributes: [Attribute]) {
        let list = pango_attr_list_new()
        func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>?) {
            guard let attribute else { return }
            if let range {
                attribute.pointee.start_index = UInt32(range.lowerBound)
                attribute.pointee.end_index = UInt32(range.upperBound)
            }
            pango_attr_list_insert(list, attribute)
        }
        for attribute in attributes {
            switch attribute {
            case .font(let font, let range):
                let description = font.makeDescription()
                insert(pango_attr_font_desc_new(description), range)
                pango_font_description_free(description)
            case .color(let r, let g, let b, let a, let range):
                func c16(_ v: Double) -> UInt16 { UInt16((v * 65535).rounded()) }
                insert(pango_attr_foreground_new(c16(r), c16(g), c16(b)), range)
                insert(pango_attr_foreground_alpha_new(max(1, c16(a))), range)
            case .letterSpacing(let spacing):
                insert(pango_attr_letter_spacing_new(Self.units(spacing)), nil)
            case .lineHeight(let height):
                insert(pango_attr_line_height_new_absolute(Self.units(height)), nil)
            }
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    /// The width lines wrap or ellipsize at, user-space units; `nil` for none (one line per paragraph).
    package func setWidth(_ width: Double?) {
        pango_layout_set_width(layout, width.map { Self.units($0) } ?? -1)
    }

    /// The width in whole Pango units (exactly as given).
    package func setWidth(pangoUnits: Int32) { pango_layout_set_width(layout, pangoUnits) }

    /// How lines break.
    package func setWrap(_ wrap: Wrap) {
        switch wrap {
        case .word: pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
        case .char: pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
        case .wordChar: pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
    }

    /// Where an ellipsis replaces text that does not fit the width and height.
    package func setEllipsize(_ mode: Ellipsize) {
        switch mode {
        case .none: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
        case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
        case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
    }

    /// The height limit for ellipsizing: at most `lines` lines.
    package func setHeight(lines: Int) { pango_layout_set_height(layout, -Int32(clamping: lines)) }

    /// The height limit for ellipsizing in Pango units.
    package func setHeight(pangoUnits: Int32) { pango_layout_set_height(layout, pangoUnits) }

    /// Alignment of the lines; `justify` also stretches all but the last line to the width.
    package func setAlignment(_ alignment: Alignment, justify: Bool = false) {
        switch alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if justify { pango_layout_set_justify(layout, 1) }
    }

    /// Whether each paragraph's direction comes from its text (right to left for Arabic and Hebrew).
    package func setAutoDirection(_ on: Bool) { pango_layout_set_auto_dir(layout, on ? 1 : 0) }

    // MARK: Measuring

    /// The ink and logical extents of the whole layout, Pango units.
    package var extents: (ink: Rect, logical: Rect) {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return (Rect(ink), Rect(logical))
    }

    /// The ink and logical extents rounded out to whole user-space units (`pango_layout_get_pixel_extents`).
    package var pixelExtents: (ink: Rect, logical: Rect) {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return (Rect(ink), Rect(logical))
    }

    /// The first line's baseline below the layout's top, Pango units.
    package var baseline: Int { Int(pango_layout_get_baseline(layout)) }

    /// Characters no font could draw (0: no hex boxes).
    package var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// True when Pango replaced some text with an ellipsis.
    package var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }

    /// The number of lines Pango produced.
    package var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// The first `limit` lines (all when nil), with their runs' glyph extents when `glyphExtents` is set.
    package func lines(limit: Int? = nil, glyphExtents: Bool = false) -> [Line] {
        var out: [Line] = []
        guard let iter = pango_layout_get_iter(layout) else { return out }
        defer { pango_layout_iter_free(iter) }
        repeat {
            if let limit, out.count >= limit { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = Int(pango_layout_iter_get_baseline(iter))
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            let start = Int(line.pointee.start_index)
            let length = max(0, Int(line.pointee.length))
            let glyphs = glyphExtents ? Self.glyphLineExtents(line) : (ascent: 0, descent: 0, fontless: false)
            out.append(
                Line(
                    utf8Range: start..<(start + length), logical: Rect(logical), baseline: baseline,
                    glyphAscent: glyphs.ascent, glyphDescent: glyphs.descent, fontless: glyphs.fontless))
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    /// The family Pango picked for the first run (diagnostics and tests).
    package var firstRunFamily: String? {
        guard let line = pango_layout_get_line_readonly(layout, 0), let runs = line.pointee.runs,
            let run = runs.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
            let item = run.pointee.item, let font = item.pointee.analysis.font
        else { return nil }
        let description = pango_font_describe(font)
        defer { pango_font_description_free(description) }
        return pango_font_description_get_family(description).map { String(cString: $0) }
    }

    /// The ascent and descent of `line` from its runs' glyph extents, Pango units, and whether a run has no font.
    private static func glyphLineExtents(
        _ line: UnsafeMutablePointer<PangoLayoutLine>
    ) -> (ascent: Int, descent: Int, fontless: Bool) {
        var ascent: Int32 = 0
        var descent: Int32 = 0
        var fontless = false
        var node = line.pointee.runs
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
        return (Int(ascent), Int(descent), fontless)
    }

    /// Zeroes the offsets of every run that has no font, so that Pango measures and draws it as shaped.
    ///
    /// A run has no font when fontconfig offers none (a machine without fonts): Pango 1.50 shapes it as hex boxes
    /// but leaves the run's `y_offset`, `start_x_offset` and `end_x_offset` uninitialised (valgrind shows the heap
    /// garbage), and the line's logical extents and baseline include that `y_offset`: line heights of a million
    /// points or more. Runs with a font keep Pango's offsets. Pango has by then cached the line extents (garbage
    /// included), so callers measure such lines from ``Line/glyphAscent`` and ``Line/glyphDescent``. Call it again
    /// whenever Pango may have laid the lines out again (after ``update(for:)``).
    package func clearFontlessRunOffsets() {
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

    // MARK: Drawing

    /// Brings the layout's context to `canvas`'s matrix and font options (`pango_cairo_update_layout`; Pango lays
    /// the text out again if they changed).
    package func update(for canvas: CairoCanvas) { pango_cairo_update_layout(canvas.context, layout) }

    /// Draws the layout with its top-left at (`x`, `y`) in `canvas`'s user space, in the canvas's current source
    /// (runs with a colour attribute keep theirs).
    package func draw(in canvas: CairoCanvas, x: Double, y: Double) {
        cairo_move_to(canvas.context, x, y)
        pango_cairo_show_layout(canvas.context, layout)
    }

    /// Draws each of `lines`' lines on its own baseline: line `i` with its left edge at `x` plus its logical x and its
    /// baseline at `baselines[i]` (user-space units), for lines whose Pango baselines are unusable (no font).
    package func drawLines(in canvas: CairoCanvas, x: Double, baselines: [Double]) {
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        var index = 0
        repeat {
            guard index < baselines.count, let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            cairo_move_to(canvas.context, x + Double(logical.x) / Double(PANGO_SCALE), baselines[index])
            pango_cairo_show_layout_line(canvas.context, line)
            index += 1
        } while pango_layout_iter_next_line(iter) != 0
    }

    /// `v` user-space units in Pango units (rounded), clamped to ±1e8 Pango units.
    package static func units(_ v: Double) -> Int32 {
        Int32(max(-1e8, min(1e8, v * Double(PANGO_SCALE))).rounded())
    }
}

extension PangoTextLayout.Rect {
    fileprivate init(_ r: PangoRectangle) {
        self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height))
    }
}

import CCairo
import CPangoCairo
import CairoGraphics
import MapRender

/// Measures and lays out text with Pango (HarfBuzz shaping, fontconfig fallback, bidi), for layout and for drawing.
///
/// One shaper owns a private `PangoCairoFontMap` and one `PangoContext` shared by every layout (the toolchain notes
/// measured ≈6 µs per label that way). Hinting is off so metrics scale linearly with the device scale: measuring at
/// scale 1 in points gives the same box as drawing at scale 2 in pixels, halved. Font descriptions come from
/// ``TextStyle/fontFamilies`` (joined as a Pango family list), ``TextStyle/size`` as an absolute size, and
/// ``TextStyle/weight``. Paragraph direction is detected per paragraph (RTL for Arabic and Hebrew).
///
/// Thread rules: not thread-safe; use one shaper per thread (Pango objects are not shareable across threads).
public final class PangoTextShaper: TextMeasurer {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// The layout reused by every call (set_text + attributes is cheaper than a new layout).
    let layout: OpaquePointer
    private var descriptions: [FontKey: OpaquePointer] = [:]

    private struct FontKey: Hashable {
        var families: [String]
        var pixelSize: Double
        var weight: Int
    }

    /// Creates a shaper with its own font map and context. Fonts come from fontconfig (set `FONTCONFIG_FILE` before
    /// the first shaper is created to pin them, as the golden tests do).
    public init() {
        fontMap = UnsafeMutablePointer<PangoFontMap>(OpaquePointer(pango_cairo_font_map_new()))
        context = pango_font_map_create_context(fontMap)!
        PangoFontOptions.apply(to: context)
        layout = pango_layout_new(context)!
        pango_layout_set_auto_dir(layout, 1)
    }

    deinit {
        for description in descriptions.values { pango_font_description_free(description) }
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// See ``TextMeasurer/measure(_:style:)``: metrics in points (laid out at scale 1).
    public func measure(_ text: String, style: TextStyle) -> TextMetrics {
        configure(text: text, style: style, scale: 1)
        return metrics(scale: 1)
    }

    /// Characters of `text` that no font could draw in `style` (0 means no tofu).
    public func unknownGlyphCount(_ text: String, style: TextStyle) -> Int {
        configure(text: text, style: style, scale: 1)
        return Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    /// The family Pango picked for the first character of `text` (for diagnostics and tests).
    public func resolvedFamily(of text: String, style: TextStyle) -> String? {
        configure(text: text, style: style, scale: 1)
        guard let line = pango_layout_get_line_readonly(layout, 0), let runs = line.pointee.runs,
            let run = runs.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
            let item = run.pointee.item, let font = item.pointee.analysis.font
        else { return nil }
        let description = pango_font_describe(font)
        defer { pango_font_description_free(description) }
        return pango_font_description_get_family(description).map { String(cString: $0) }
    }

    /// Sets `layout` up for `text` in `style` at `scale` device pixels per point.
    func configure(text: String, style: TextStyle, scale: Double) {
        // Sizes are clamped to 0.5…2048 device pixels (NaN counts as 0.5) so bad input cannot blow up the layout.
        let requested = style.size * scale
        let pixelSize = requested.isFinite ? min(2048, max(0.5, requested)) : (requested > 0 ? 2048 : 0.5)
        pango_layout_set_font_description(
            layout, description(families: style.fontFamilies, pixelSize: pixelSize, weight: style.weight.value))
        let attributes = pango_attr_list_new()
        if style.letterSpacing != 0 && style.letterSpacing.isFinite {
            pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(pangoUnits(style.letterSpacing * scale)))
        }
        if style.lineHeight > 0 && style.lineHeight.isFinite {
            pango_attr_list_insert(
                attributes, pango_attr_line_height_new_absolute(pangoUnits(style.lineHeight * style.size * scale)))
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
        if let maxWidth = style.maxWidth, maxWidth > 0, maxWidth.isFinite {
            pango_layout_set_width(layout, pangoUnits(maxWidth * scale))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        } else {
            pango_layout_set_width(layout, -1)
        }
        switch style.justify {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        pango_layout_set_text(layout, text, -1)
    }

    /// Metrics of the configured layout, divided by `scale` (so in points).
    func metrics(scale: Double) -> TextMetrics {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let unit = Double(PANGO_SCALE) * scale
        var lines: [TextMetrics.Line] = []
        let iter = pango_layout_get_iter(layout)
        repeat {
            var lineLogical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &lineLogical)
            let baseline = Double(pango_layout_iter_get_baseline(iter) - logical.y) / unit
            if let line = pango_layout_iter_get_line_readonly(iter) {
                let start = Int(line.pointee.start_index)
                var length = Int(line.pointee.length)
                length = max(0, length)
                lines.append(
                    .init(
                        utf8Range: start..<(start + length), width: Double(lineLogical.width) / unit, baseline: baseline
                    ))
            }
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        return TextMetrics(
            width: Double(logical.width) / unit, height: Double(logical.height) / unit,
            baseline: Double(pango_layout_get_baseline(layout) - logical.y) / unit,
            inkBounds: RenderRect(
                x: Double(ink.x - logical.x) / unit, y: Double(ink.y - logical.y) / unit,
                width: Double(ink.width) / unit, height: Double(ink.height) / unit),
            lines: lines, unknownGlyphCount: Int(pango_layout_get_unknown_glyphs_count(layout)))
    }

    private func description(families: [String], pixelSize: Double, weight: Int) -> OpaquePointer {
        let key = FontKey(families: families, pixelSize: pixelSize, weight: weight)
        if let cached = descriptions[key] { return cached }
        let description = pango_font_description_new()!
        let list = families.isEmpty ? "sans-serif" : families.joined(separator: ",")
        pango_font_description_set_family(description, list)
        pango_font_description_set_absolute_size(description, pixelSize * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight)))
        if descriptions.count > 256 {
            for d in descriptions.values { pango_font_description_free(d) }
            descriptions.removeAll()
        }
        descriptions[key] = description
        return description
    }
}

func pangoUnits(_ v: Double) -> Int32 {
    Int32(max(-1e8, min(1e8, v * Double(PANGO_SCALE))).rounded())
}

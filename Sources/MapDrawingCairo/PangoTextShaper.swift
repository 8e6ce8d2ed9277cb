import CairoGraphics
import MapDrawing

/// Measures and lays out text with Pango (HarfBuzz shaping, fontconfig fallback, bidi), for layout and for drawing:
/// a thin caller of CairoGraphics' ``PangoTextLayout``.
///
/// Every call uses the calling thread's font map, context and reusable layout (``PangoFontContext/current``, shared
/// with LinuxUIKit's text on that thread; the toolchain notes measured ≈6 µs per label with one context). Hinting is
/// off (``PangoFontOptions``) so metrics scale linearly with the device scale: measuring at scale 1 in points gives
/// the same box as drawing at scale 2 in pixels, halved. Font descriptions come from ``TextStyle/fontFamilies``
/// (joined as a Pango family list), ``TextStyle/size`` as an absolute size, ``TextStyle/weight`` and
/// ``TextStyle/italic``. Paragraph direction is detected per paragraph (RTL for Arabic and Hebrew).
///
/// Thread rules: not thread-safe; use one shaper on one thread at a time (its layout is the calling thread's, so a
/// tile lane's backend may move between threads between frames).
public final class PangoTextShaper: TextMeasurer {
    /// Creates a shaper. Fonts come from fontconfig (set `FONTCONFIG_FILE` before the first text is laid out to pin
    /// them, as the golden tests do).
    public init() {}

    /// See ``TextMeasurer/measure(_:style:)``: metrics in points (laid out at scale 1).
    public func measure(_ text: String, style: TextStyle) -> TextMetrics {
        metrics(of: configure(text: text, style: style, scale: 1), scale: 1)
    }

    /// Characters of `text` that no font could draw in `style` (0 means no tofu).
    public func unknownGlyphCount(_ text: String, style: TextStyle) -> Int {
        configure(text: text, style: style, scale: 1).unknownGlyphCount
    }

    /// The family Pango picked for the first character of `text` (for diagnostics and tests).
    public func resolvedFamily(of text: String, style: TextStyle) -> String? {
        configure(text: text, style: style, scale: 1).firstRunFamily
    }

    /// The thread's reusable layout, set up for `text` in `style` at `scale` device pixels per point.
    func configure(text: String, style: TextStyle, scale: Double) -> PangoTextLayout {
        let layout = PangoFontContext.current.reusableLayout
        layout.setAutoDirection(true)
        // Sizes are clamped to 0.5…2048 device pixels (NaN counts as 0.5) so bad input cannot blow up the layout.
        let requested = style.size * scale
        let pixelSize = requested.isFinite ? min(2048, max(0.5, requested)) : (requested > 0 ? 2048 : 0.5)
        layout.setFont(
            PangoFont(
                families: style.fontFamilies.joined(separator: ","), size: pixelSize, weight: style.weight.value,
                italic: style.italic ? true : nil))
        var attributes: [PangoTextLayout.Attribute] = []
        if style.letterSpacing != 0 && style.letterSpacing.isFinite {
            attributes.append(.letterSpacing(style.letterSpacing * scale))
        }
        if style.lineHeight > 0 && style.lineHeight.isFinite {
            attributes.append(.lineHeight(style.lineHeight * style.size * scale))
        }
        layout.setAttributes(attributes)
        if let maxWidth = style.maxWidth, maxWidth > 0, maxWidth.isFinite {
            layout.setWidth(maxWidth * scale)
            // Word boundaries only: a word wider than the width stays whole, as MapLibre never breaks inside a word
            // (Pango's character fallback broke street names with inserted hyphens, "UNTERSTRAS-/SE").
            layout.setWrap(.word)
        } else {
            layout.setWidth(nil)
        }
        switch style.justify {
        case .left: layout.setAlignment(.left)
        case .center: layout.setAlignment(.center)
        case .right: layout.setAlignment(.right)
        }
        layout.setText(text)
        return layout
    }

    /// Metrics of a configured layout, divided by `scale` (so in points).
    func metrics(of layout: PangoTextLayout, scale: Double) -> TextMetrics {
        let (ink, logical) = layout.extents
        let unit = Double(PangoTextLayout.unitsPerPoint) * scale
        let lines = layout.lines().map { line in
            TextMetrics.Line(
                utf8Range: line.utf8Range, width: Double(line.logical.width) / unit,
                baseline: Double(line.baseline - logical.y) / unit)
        }
        return TextMetrics(
            width: Double(logical.width) / unit, height: Double(logical.height) / unit,
            baseline: Double(layout.baseline - logical.y) / unit,
            inkBounds: RenderRect(
                x: Double(ink.x - logical.x) / unit, y: Double(ink.y - logical.y) / unit,
                width: Double(ink.width) / unit, height: Double(ink.height) / unit),
            lines: lines, unknownGlyphCount: layout.unknownGlyphCount)
    }
}

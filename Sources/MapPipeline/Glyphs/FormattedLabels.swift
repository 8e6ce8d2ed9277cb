import MapDrawing
import MapLayout
import MapStyle

/// A formatted `text-field` (`["format", …]`) as a label's text and its runs: each section's text after
/// `text-transform`, the label trimmed of surrounding whitespace as plain labels are, and each run's `font-scale`,
/// `text-font` and `text-color`. Image sections are left out (the glyph path draws no images in text yet).
/// Waymark's own.
struct FormattedLabel: Equatable {
    /// The label's text: the sections' texts joined.
    var text: String
    /// The runs, covering ``text`` in order.
    var sections: [TextStyle.Section]

    /// The label of `value`, or `nil` when it is not formatted or is one run without overrides (a plain label).
    /// - Parameters:
    ///   - value: the evaluated `text-field`.
    ///   - transform: `text-transform` (`uppercase`, `lowercase`, anything else: none).
    ///   - opacity: `text-opacity`, multiplied into each run's colour.
    init?(_ value: ExpressionValue, transform: String, opacity: Double) {
        guard case .formatted(let formatted) = value else { return nil }
        var scalars: [(scalar: Unicode.Scalar, section: Int)] = []
        var runs: [TextStyle.Section] = []
        for section in formatted.sections where section.image == nil {
            var text = section.text
            switch transform {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let scale = section.scale.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
            let color = section.textColor.map {
                RGBAColor(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha).withOpacity(opacity)
            }
            let fontstack = section.fontStack.flatMap { $0.isEmpty ? nil : $0 }
            for s in text.unicodeScalars { scalars.append((s, runs.count)) }
            runs.append(TextStyle.Section(scalarCount: 0, scale: scale, glyphFontstack: fontstack, color: color))
        }
        while let first = scalars.first, first.scalar.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.scalar.properties.isWhitespace { scalars.removeLast() }
        for s in scalars { runs[s.section].scalarCount += 1 }
        runs.removeAll { $0.scalarCount == 0 }
        guard !runs.isEmpty else { return nil }
        if runs.count == 1 && runs[0].scale == 1 && runs[0].glyphFontstack == nil && runs[0].color == nil { return nil }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars.map(\.scalar))
        self.text = String(text)
        self.sections = runs
    }
}

extension LabelStage {
    /// Whether the glyph path may break `text` somewhere other than a space (ideographs, zero-width spaces, the
    /// punctuation MapLibre breaks after), so `text-max-width` applies to it.
    func mayBreakLines(_ text: String) -> Bool {
        guard style.glyphs != nil else { return false }
        return text.unicodeScalars.contains {
            let c = Int($0.value)
            return GlyphShaping.allowsIdeographicBreaking(c) || (GlyphShaping.allowsWordBreaking(c) && c != 0x0A)
        }
    }

    /// The glyph path's layout of a label beyond the plain style: a formatted label's runs, and MapLibre's vertical
    /// writing mode for a point label whose `text-writing-mode` lists `vertical` and whose text has a character
    /// upright in vertical text. `textStyle` becomes the first writing mode's style.
    /// - Returns: the second writing mode's style (``SymbolFeature/alternateTextStyle``), or `nil`.
    func adjustGlyphLayout(
        _ textStyle: inout TextStyle, formatted: FormattedLabel?, text: String, layer: CompiledLayer,
        ctx: EvaluationContext, mode: SymbolPlacementMode
    ) -> TextStyle? {
        guard style.glyphs != nil else { return nil }
        textStyle.sections = formatted?.sections ?? []
        let modes = layer.strings("text-writing-mode", ctx)
        guard mode == .point, modes.contains("vertical"), GlyphShaping.allowsVerticalWritingMode(text) else {
            return nil
        }
        var vertical = textStyle
        vertical.verticalWriting = true
        let horizontal = textStyle
        if modes.first == "vertical" {
            textStyle = vertical
            return modes.contains("horizontal") ? horizontal : nil
        }
        return modes.first == "horizontal" ? vertical : nil
    }
}

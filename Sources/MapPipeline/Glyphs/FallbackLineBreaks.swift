import MapDrawing
import MapLayout

/// A label off the glyph path laid out for the backend's fonts with its lines already chosen by MapLibre's rule
/// (``GlyphShaping/lineBreaks(_:advances:maxWidth:)``, the glyph path's): `text` has a `\n` at each break and
/// `style` no wrap width, so the backend only draws the lines it is given.
struct FallbackLineBreaking: Equatable {
    /// The text with its breaks: a space at a break becomes the `\n` (MapLibre trims it from the lines), else a
    /// `\n` is inserted.
    var text: String
    /// The label's style without ``TextStyle/maxWidth``.
    var style: TextStyle
    /// The UTF-8 offsets of the original text at which a `\n` was inserted, ascending (replaced spaces keep their
    /// offset).
    var insertions: [Int]

    /// `offset` (UTF-8, in ``text``) as an offset of the original text.
    func originalOffset(_ offset: Int) -> Int {
        var shift = 0
        for (k, inserted) in insertions.enumerated() where inserted + k < offset { shift += 1 }
        return offset - shift
    }
}

/// Advances of the backend's fonts at MapLibre's layout size (``GlyphShaping/emSize``), measured once per piece of
/// text between break opportunities and font, and the label breakings made from them. Thread rules: the owning
/// measurer's.
final class FallbackLineBreakCache {
    private struct AdvanceKey: Hashable {
        var piece: String
        var families: [String]
        var weight: Int
        var italic: Bool
    }
    private struct TextKey: Hashable {
        var text: String
        var style: TextStyle
    }
    private var advances: [AdvanceKey: Double] = [:]
    private var breakings: [TextKey: FallbackLineBreaking] = [:]

    /// `text` in `style` broken into lines for `fallback`, cached (emptied past 20,000 entries).
    func breaking(_ text: String, style: TextStyle, fallback: any TextMeasurer) -> FallbackLineBreaking {
        let key = TextKey(text: text, style: style)
        if let hit = breakings[key] { return hit }
        let result = make(text, style: style, fallback: fallback)
        if breakings.count > 20_000 { breakings.removeAll(keepingCapacity: true) }
        breakings[key] = result
        return result
    }

    private func make(_ text: String, style: TextStyle, fallback: any TextMeasurer) -> FallbackLineBreaking {
        var unwrapped = style
        unwrapped.maxWidth = nil
        let scalars = Array(text.unicodeScalars)
        let em = GlyphShaping.emSize / style.size
        let spacing = style.letterSpacing.isFinite ? style.letterSpacing * em : 0
        let codepoints = scalars.map { Int($0.value) }
        // Each piece between two break opportunities is measured whole (kerning, Arabic joining) and its width given
        // to its last character: only the widths at the breaks count. As the glyph path: a space advances, other
        // whitespace and the zero-width space take no room.
        var widths = [Double](repeating: 0, count: scalars.count)
        var pieceStart = 0
        for i in scalars.indices {
            let c = codepoints[i]
            let opensBreak =
                i == scalars.count - 1 || GlyphShaping.allowsIdeographicBreaking(c)
                || GlyphShaping.allowsWordBreaking(c)
            let skipped = c != 0x20 && (GlyphShaping.isWhitespace(c) || c == 0x200B)
            if !skipped { widths[i] = spacing }
            guard opensBreak else { continue }
            // The piece's trailing whitespace advances on its own.
            var end = i + 1
            while end > pieceStart && GlyphShaping.isWhitespace(codepoints[end - 1]) {
                end -= 1
                if codepoints[end] == 0x20 { widths[end] += advance(of: " ", style: style, fallback: fallback) }
            }
            if end > pieceStart {
                var piece = String.UnicodeScalarView()
                piece.append(contentsOf: scalars[pieceStart..<end])
                widths[end - 1] += advance(of: String(piece), style: style, fallback: fallback)
            }
            pieceStart = i + 1
        }
        let breaks = GlyphShaping.lineBreaks(
            codepoints, advances: widths, maxWidth: (style.maxWidth ?? 0) * em
        ).sorted()
        var out = String.UnicodeScalarView()
        var insertions: [Int] = []
        var utf8 = 0
        var next = 0
        for (i, s) in scalars.enumerated() {
            while next < breaks.count && breaks[next] < i { next += 1 }
            let breaksAfter = next < breaks.count && breaks[next] == i + 1
            let breaksBefore = next < breaks.count && breaks[next] == i
            let spaceBefore = i > 0 && (scalars[i - 1] == "\n" || scalars[i - 1] == " ")
            if breaksBefore && !spaceBefore && s != " " {
                out.append("\n")
                insertions.append(utf8)
            }
            // A space at either side of a break becomes the break (MapLibre trims it from the lines).
            out.append((breaksAfter || (breaksBefore && !spaceBefore)) && s == " " ? "\n" : s)
            utf8 += UTF8.width(s)
        }
        return FallbackLineBreaking(text: String(out), style: unwrapped, insertions: insertions)
    }

    /// The advance of `piece` in `style`'s fonts at ``GlyphShaping/emSize`` (a space: what it adds between two
    /// letters).
    private func advance(of piece: String, style: TextStyle, fallback: any TextMeasurer) -> Double {
        let key = AdvanceKey(
            piece: piece, families: style.fontFamilies, weight: style.weight.value, italic: style.italic)
        if let hit = advances[key] { return hit }
        var single = TextStyle(fontFamilies: style.fontFamilies, size: GlyphShaping.emSize, weight: style.weight)
        single.italic = style.italic
        single.lineHeight = style.lineHeight
        let value: Double
        if piece == " " {
            value = max(0, fallback.measure("x x", style: single).width - fallback.measure("xx", style: single).width)
        } else {
            value = fallback.measure(piece, style: single).width
        }
        if advances.count > 20_000 { advances.removeAll(keepingCapacity: true) }
        advances[key] = value
        return value
    }
}

extension GlyphTextMeasurer {
    /// How the backend's fonts lay out `text` in `style` when it is off the glyph path but its style names glyphs
    /// (MapLibre's semantics): lines broken as the glyph path breaks them (balanced lines, breaks between CJK
    /// characters and at spaces and break punctuation, ``GlyphShaping/lineBreaks(_:advances:maxWidth:)``) from the
    /// fonts' advances (each piece between two break opportunities measured whole), instead of the backend's greedy
    /// wrapping. `nil` when the text is on the glyph path, its style names no glyphs or has no wrap width, it is
    /// vertical, or it holds a right-to-left or joining script (``needsWholeShaping(_:)``: Pango's fonts for those
    /// are much wider than MapLibre's glyphs, so breaking them by MapLibre's widths made the Arabic render tests
    /// worse; Pango keeps wrapping them). The label's measurement
    /// (``measure(_:style:)``) and its drawing (``LabelStage/glyphLabelCommands(_:scale:zoom:sdfNames:spritePixels:)``)
    /// both use it.
    func fallbackBreaking(_ text: String, style: TextStyle) -> FallbackLineBreaking? {
        guard style.glyphFontstack != nil, let maxWidth = style.maxWidth, maxWidth > 0, maxWidth.isFinite,
            style.size > 0, style.size.isFinite, !style.verticalWriting, !text.isEmpty, !needsWholeShaping(text),
            shaping(text, style: style) == nil
        else { return nil }
        return fallbackBreaks.breaking(text, style: style, fallback: fallback)
    }

    /// `fallback`'s metrics of a breaking, its lines' UTF-8 ranges given in the original text.
    func measure(_ breaking: FallbackLineBreaking) -> TextMetrics {
        var m = fallback.measure(breaking.text, style: breaking.style)
        guard !breaking.insertions.isEmpty else { return m }
        for i in m.lines.indices {
            let r = m.lines[i].utf8Range
            let lower = breaking.originalOffset(r.lowerBound)
            m.lines[i].utf8Range = lower..<max(lower, breaking.originalOffset(r.upperBound))
        }
        return m
    }
}

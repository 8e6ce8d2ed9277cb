import MapData

/// One label laid out from SDF glyph metrics as MapLibre lays it out (shaping.cpp: `determineLineBreaks`,
/// `shapeLines`, `justifyLine`, `align`), in the glyph PBFs' units: pixels at the 24-pixel em
/// (``GlyphShaping/emSize``). Multiply by `text-size / 24` for points.
///
/// Coordinates are relative to the top-left corner of the label's box (the box MapLibre's shaping reports:
/// the longest line wide, `lines × lineHeight` tall), x to the right, y down. A glyph's `x` is its pen position on
/// the line (its bitmap starts `left` further right), `y` its baseline. The first line's baseline lies
/// `lineHeight / 2 − 17` below the box's top (MapLibre's `Shaping::yOffset` of −17 centres 24-px glyphs on the
/// line), so each line's middle is at `lineHeight × (i + ½)`. Waymark's own.
public struct GlyphShaping: Sendable, Equatable {
    /// The em of the glyph PBFs, pixels: every metric is at this size.
    public static let emSize = 24.0
    /// MapLibre's vertical offset of the first baseline (`Shaping::yOffset`), in em pixels.
    public static let baselineOffset = -17.0

    /// A glyph at its pen position.
    public struct PositionedGlyph: Sendable, Equatable {
        /// The glyph (SDF bitmap and metrics).
        public var glyph: SDFGlyph
        /// Pen position from the box's left edge, em pixels.
        public var x: Double
        /// Baseline from the box's top edge, em pixels.
        public var y: Double
        /// The glyph's size as a multiple of the label's (its section's `font-scale`). Default 1.
        public var scale: Double = 1
        /// The index of the glyph's section (``GlyphShaping/Section``). Default 0.
        public var section: Int = 0
        /// Drawn turned 90° clockwise about its pen position (a sideways character of vertical writing mode).
        /// Default `false`.
        public var rotated: Bool = false
    }

    /// One run of a formatted label: how many Unicode scalars it covers and its `font-scale`.
    public struct Section: Sendable, Equatable {
        /// Unicode scalars of the text the run covers, `≥ 0`.
        public var scalarCount: Int
        /// The run's size as a multiple of the label's, `> 0`.
        public var scale: Double

        /// A run of `scalarCount` scalars at `scale`.
        public init(scalarCount: Int, scale: Double = 1) {
            self.scalarCount = scalarCount
            self.scale = scale
        }
    }

    /// One line after breaking.
    public struct Line: Sendable, Equatable {
        /// The line's characters as UTF-8 offsets into the shaped text (trimmed of surrounding whitespace).
        public var utf8Range: Range<Int>
        /// The line's advance without trailing letter spacing, em pixels.
        public var width: Double
        /// The line's baseline from the box's top edge, em pixels.
        public var baseline: Double
    }

    /// The glyphs in reading order, line by line (characters without a glyph are left out, as MapLibre does).
    public var glyphs: [PositionedGlyph]
    /// The lines, top to bottom (an empty line keeps its place).
    public var lines: [Line]
    /// The longest line's width, em pixels (in vertical writing mode the box's width: the lines' heights).
    public var width: Double
    /// The lines' heights, em pixels: `lines × lineHeight` without `font-scale` (in vertical writing mode the
    /// box's height: the longest line).
    public var height: Double
    /// Whether the label was laid out in vertical writing mode.
    public var vertical = false

    /// Shapes `text` in one section.
    /// - Parameters:
    ///   - text: the label; `\n` always breaks the line.
    ///   - maxWidth: the wrap width in em pixels (`text-max-width × 24`); `nil` or `≤ 0` for no wrapping.
    ///   - lineHeight: distance between baselines, em pixels (`text-line-height × 24`).
    ///   - letterSpacing: added after every glyph, em pixels (`text-letter-spacing × 24`).
    ///   - justify: `0` left, `0.5` centre, `1` right (`text-justify`).
    ///   - glyph: the glyph of a codepoint, `nil` when the fontstack has none.
    public init(
        _ text: String, maxWidth: Double?, lineHeight: Double, letterSpacing: Double, justify: Double,
        glyph: (Int) -> SDFGlyph?
    ) {
        self.init(
            text, sections: [], maxWidth: maxWidth, lineHeight: lineHeight, letterSpacing: letterSpacing,
            justify: justify, vertical: false, glyph: { glyph($1) })
    }

    /// Shapes `text` as MapLibre's `shapeLines` does, with sections (`["format", …]`) and vertical writing mode.
    ///
    /// A line is as tall as `lineHeight × ` its largest section scale; smaller glyphs sit on the line's baseline
    /// (`(lineMaxScale − scale) × 24` lower). When the lines' heights differ from `lineHeight` the first baseline is
    /// the box's top plus the baseline offset (MapLibre's `align` with `maxLineHeight ≠ lineHeight`).
    ///
    /// In vertical writing mode (`vertical`) horizontal punctuation is replaced by its vertical forms where its
    /// neighbours are not sideways characters, every character but whitespace and Arabic advances one em down the
    /// line and stays upright, the others are turned clockwise; lines run top to bottom, right to left... laid out
    /// as MapLibre does: shaped across, then the label turned 90° clockwise with those glyphs turned back.
    /// - Parameters:
    ///   - text: the label; `\n` always breaks the line.
    ///   - sections: the runs in order; scalars past the last run are in a run of scale 1. Empty: one run.
    ///   - maxWidth: as for ``init(_:maxWidth:lineHeight:letterSpacing:justify:glyph:)``.
    ///   - lineHeight: as there.
    ///   - letterSpacing: as there.
    ///   - justify: as there.
    ///   - vertical: lay out in vertical writing mode.
    ///   - glyph: the glyph of a codepoint (the second argument) in a section (the first), `nil` when none.
    public init(
        _ text: String, sections: [Section], maxWidth: Double?, lineHeight: Double, letterSpacing: Double,
        justify: Double, vertical: Bool, glyph: (Int, Int) -> SDFGlyph?
    ) {
        var scalars: [(value: Int, utf8: Int, section: Int)] = []
        var offset = 0
        var sectionIndex = 0
        var left = sections.first?.scalarCount ?? Int.max
        for s in text.unicodeScalars {
            while left <= 0 && sectionIndex < sections.count {
                sectionIndex += 1
                left = sectionIndex < sections.count ? sections[sectionIndex].scalarCount : Int.max
            }
            scalars.append((Int(s.value), offset, sectionIndex))
            left -= 1
            offset += String(s).utf8.count
        }
        if vertical {
            let verticalized = Self.verticalizePunctuation(scalars.map(\.value))
            for i in scalars.indices { scalars[i].value = verticalized[i] }
        }
        func scale(_ section: Int) -> Double {
            guard section < sections.count else { return 1 }
            let s = sections[section].scale
            return s.isFinite && s > 0 ? s : 1
        }
        let spacing = letterSpacing.isFinite ? letterSpacing : 0
        let glyphs = scalars.map { glyph($0.section, $0.value) }
        let breaks = Self.lineBreaks(
            scalars.map(\.value),
            advances: zip(glyphs, scalars).map { g, c in g.map { Double($0.advance) * scale(c.section) + spacing } ?? 0
            },
            maxWidth: maxWidth ?? 0)
        var lineHeight = lineHeight.isFinite ? lineHeight : 0
        if lineHeight < 0 { lineHeight = 0 }
        var positioned: [PositionedGlyph] = []
        var lines: [Line] = []
        var ranges: [Range<Int>] = []
        var indents: [Double] = []
        var lineOffsets: [Double] = []
        var maxLineLength = 0.0
        var maxLineHeight = 0.0
        var y = Self.baselineOffset
        var start = 0
        for end in breaks.filter({ $0 > 0 && $0 < scalars.count }).sorted() + [scalars.count] {
            defer { start = end }
            var lo = start
            var hi = end
            while lo < hi && Self.isWhitespace(scalars[lo].value) { lo += 1 }
            while hi > lo && Self.isWhitespace(scalars[hi - 1].value) { hi -= 1 }
            let utf8Start = lo < scalars.count ? scalars[lo].utf8 : offset
            let utf8End = hi < scalars.count ? scalars[hi].utf8 : offset
            let first = positioned.count
            let lineMaxScale = (lo..<hi).map { scale(scalars[$0].section) }.max() ?? 1
            var x = 0.0
            for i in lo..<hi {
                guard let g = glyphs[i] else { continue }
                let c = scalars[i].value
                let s = scale(scalars[i].section)
                let upright = vertical && !Self.isWhitespace(c) && !Self.isArabic(c)
                positioned.append(
                    PositionedGlyph(
                        glyph: g, x: x, y: y + (lineMaxScale - s) * Self.emSize, scale: s,
                        section: scalars[i].section, rotated: vertical && !upright))
                x += (upright ? Self.emSize : Double(g.advance)) * s + spacing
            }
            let width = positioned.count > first ? x - spacing : 0
            if let last = positioned.last, positioned.count > first {
                indents.append(last.x + Double(last.glyph.advance) * last.scale)
            } else {
                indents.append(0)
            }
            maxLineLength = max(maxLineLength, width)
            let currentLineHeight = hi > lo ? lineHeight * lineMaxScale : lineHeight
            lines.append(Line(utf8Range: utf8Start..<max(utf8Start, utf8End), width: width, baseline: y))
            ranges.append(first..<positioned.count)
            lineOffsets.append((lineMaxScale - 1) * Self.emSize)
            y += currentLineHeight
            maxLineHeight = max(maxLineHeight, currentLineHeight)
        }
        let height = y - Self.baselineOffset
        // MapLibre's align: the box's top at 0.
        let shiftY = maxLineHeight != lineHeight ? -Self.baselineOffset : lineHeight / 2
        // Vertical labels' lines all start at the top (MapLibre shapes them left-justified).
        let j = vertical ? 0 : justify.isFinite ? min(1, max(0, justify)) : 0.5
        for (index, range) in ranges.enumerated() {
            let shiftX = (maxLineLength - indents[index]) * j
            for k in range {
                positioned[k].x += range.isEmpty ? 0 : shiftX
                positioned[k].y += shiftY
            }
            lines[index].baseline += shiftY
        }
        if vertical {
            // Turn the label 90° clockwise: a point (u, v) of the box goes to (height − v, u). Upright glyphs are
            // turned back about MapLibre's centre (quads.cpp), which leaves them at their pen less that centre.
            for (index, range) in ranges.enumerated() {
                for k in range {
                    let g = positioned[k]
                    let half = Double(g.glyph.advance) * g.scale / 2
                    let yEff = g.y - (lineOffsets[index] / 2 - (g.scale - 1) * Self.emSize)
                    if g.rotated {
                        positioned[k].x = height - yEff
                        positioned[k].y = g.x
                    } else {
                        positioned[k].x = height + Self.baselineOffset - yEff - half
                        positioned[k].y = g.x - 7
                    }
                }
            }
            self.width = height
            self.height = maxLineLength
        } else {
            self.width = maxLineLength
            self.height = height
        }
        self.glyphs = positioned
        self.lines = lines
        self.vertical = vertical
    }

    /// Whitespace MapLibre trims from line ends and leaves out of line widths (`i18n::isWhitespace`).
    static func isWhitespace(_ c: Int) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }

    /// Arabic letters (MapLibre's complex-shaping blocks): never upright in vertical writing mode.
    static func isArabic(_ c: Int) -> Bool {
        (0x0600...0x06FF).contains(c) || (0x0750...0x077F).contains(c) || (0x08A0...0x08FF).contains(c)
            || (0xFB50...0xFDFF).contains(c) || (0xFE70...0xFEFF).contains(c)
    }

    /// Characters after which a line may break (`i18n::allowsWordBreaking`).
    static func allowsWordBreaking(_ c: Int) -> Bool {
        switch c {
        case 0x0A, 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013: return true
        default: return false
        }
    }

    /// Characters after which CJK text may break (`i18n::allowsIdeographicBreaking`'s blocks: CJK radicals and
    /// strokes, symbols and punctuation, kana, bopomofo, CJK letters and compatibility forms, the unified
    /// ideographs and extension A, Yi, vertical and half-/full-width forms, and U+2027). Not Hangul (Korean breaks
    /// at spaces), nor kanbun or the Yijing symbols; MapLibre has no rule against a break before small kana or
    /// `ー`.
    static func allowsIdeographicBreaking(_ c: Int) -> Bool {
        switch c {
        case 0x2027, 0x2E80...0x2EFF, 0x2F00...0x2FDF, 0x2FF0...0x2FFF, 0x3000...0x312F, 0x31A0...0x31BF,
            0x31C0...0x31EF, 0x31F0...0x31FF, 0x3200...0x32FF, 0x3300...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA48F, 0xA490...0xA4CF, 0xF900...0xFAFF, 0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF00...0xFFEF:
            return true
        default: return false
        }
    }

    /// The break indices (a line starts at each) of MapLibre's balanced line breaking: lines close to the average
    /// width `total / ceil(total / maxWidth)`, least squared raggedness over all breaks, a forced break after `\n`,
    /// penalties for breaking after `(` or before `)`. Without a wrap width only `\n` breaks.
    static func lineBreaks(_ codepoints: [Int], advances: [Double], maxWidth: Double) -> Set<Int> {
        let n = codepoints.count
        guard n > 0 else { return [] }
        guard maxWidth > 0 && maxWidth.isFinite else {
            return Set(codepoints.indices.filter { codepoints[$0] == 0x0A && $0 + 1 < n }.map { $0 + 1 })
        }
        let total = advances.reduce(0, +)
        let targetWidth = total / max(1, (total / maxWidth).rounded(.up))
        let hasZWSP = codepoints.contains(0x200B)
        struct Potential {
            var index: Int
            var x: Double
            var prior: Int?
            var badness: Double
        }
        var potentials: [Potential] = []
        func badness(_ width: Double, _ penalty: Double, _ last: Bool) -> Double {
            let ragged = (width - targetWidth) * (width - targetWidth)
            if last { return width < targetWidth ? ragged / 2 : ragged * 2 }
            return penalty < 0 ? ragged - penalty * penalty : ragged + penalty * penalty
        }
        func evaluate(_ index: Int, _ x: Double, _ penalty: Double, _ last: Bool) -> Potential {
            var best: Int? = nil
            var bestBadness = badness(x, penalty, last)
            for (k, p) in potentials.enumerated() {
                let b = badness(x - p.x, penalty, last) + p.badness
                if b <= bestBadness {
                    best = k
                    bestBadness = b
                }
            }
            return Potential(index: index, x: x, prior: best, badness: bestBadness)
        }
        var x = 0.0
        for i in 0..<n {
            let c = codepoints[i]
            if !isWhitespace(c) { x += advances[i] }
            guard i < n - 1 else { continue }
            let ideographic = allowsIdeographicBreaking(c)
            if ideographic || allowsWordBreaking(c) {
                let next = codepoints[i + 1]
                var penalty = 0.0
                if c == 0x0A { penalty -= 10000 }
                if c == 0x28 || c == 0xFF08 { penalty += 50 }
                if next == 0x29 || next == 0xFF09 { penalty += 50 }
                if ideographic && hasZWSP { penalty += 150 }
                potentials.append(evaluate(i + 1, x, penalty, false))
            }
        }
        var result: Set<Int> = []
        var cursor = evaluate(n, x, 0, true).prior
        while let k = cursor {
            result.insert(potentials[k].index)
            cursor = potentials[k].prior
        }
        // A newline always breaks (MapLibre's bidi pass splits paragraphs whatever the badness).
        for i in 0..<(n - 1) where codepoints[i] == 0x0A { result.insert(i + 1) }
        return result
    }
}

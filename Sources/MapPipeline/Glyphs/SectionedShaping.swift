import MapData
import MapDrawing
import MapGeometry
import MapLayout

extension GlyphTextMeasurer {
    /// `text` shaped from the glyphs of `store`: each run of ``TextStyle/sections`` from its own fontstack (else
    /// `fontstack`) at its `font-scale`, in vertical writing mode when ``TextStyle/verticalWriting`` is set; a
    /// character the ranges lack from ``localGlyphs`` when at least one other comes from the ranges. `nil` when a
    /// character that is not whitespace has no glyph either way, or some need local glyphs and none comes from the
    /// ranges (the text then goes to the backend's fonts). Runs that do not cover `text` exactly (a cluster of a line
    /// label) are ignored.
    func sectionedShaping(_ text: String, style: TextStyle, fontstack: String, store: GlyphStore) -> GlyphShaping? {
        let count = text.unicodeScalars.count
        let runs = style.sections.reduce(0) { $0 + $1.scalarCount } == count ? style.sections : []
        let stacks = runs.isEmpty ? [fontstack] : runs.map { $0.glyphFontstack ?? fontstack }
        var glyphs: [String: [Int: SDFGlyph]] = [:]
        func lookup(_ stack: String, _ c: Int) -> SDFGlyph? {
            if let hit = glyphs[stack]?[c] { return hit }
            let range = store.range(fontstack: stack, containing: c)
            guard range.problem == nil, let g = range.glyphs[c] else { return nil }
            glyphs[stack, default: [:]][c] = g
            return g
        }
        // Characters the ranges lack come from the backend's fonts (kept by `localGlyphs`).
        let local = localGlyphs
        var section = 0
        var left = runs.first?.scalarCount ?? Int.max
        var (fromRanges, fromFonts) = (false, false)
        for scalar in text.unicodeScalars {
            while left <= 0 && section + 1 < runs.count {
                section += 1
                left = runs[section].scalarCount
            }
            left -= 1
            let c = Int(scalar.value)
            if GlyphShaping.isWhitespace(c) || c == 0x200B { continue }
            let stack = stacks[min(section, stacks.count - 1)]
            if lookup(stack, c) != nil {
                fromRanges = true
                continue
            }
            guard local?.glyph(c, fontstack: stack) != nil else { return nil }
            fromFonts = true
        }
        // Text made only of local glyphs goes to the backend whole; whitespace alone stays here, as before.
        guard fromRanges || !fromFonts else { return nil }
        let em = GlyphShaping.emSize / style.size
        let justify: Double
        switch style.justify {
        case .left: justify = 0
        case .center: justify = 0.5
        case .right: justify = 1
        }
        return GlyphShaping(
            text, sections: runs.map { GlyphShaping.Section(scalarCount: $0.scalarCount, scale: $0.scale) },
            maxWidth: style.maxWidth.map { $0 * em }, lineHeight: style.lineHeight * GlyphShaping.emSize,
            letterSpacing: style.letterSpacing * em, justify: justify, vertical: style.verticalWriting,
            glyph: { s, c in
                let stack = stacks[min(s, stacks.count - 1)]
                if c == 0x20 || !(GlyphShaping.isWhitespace(c) || c == 0x200B) {
                    return lookup(stack, c) ?? local?.glyph(c, fontstack: stack)
                }
                return nil
            })
    }
}

extension GlyphShaping.PositionedGlyph {
    /// The glyph's local map (em pixels of its own frame, x along its baseline from the pen, y down) to the label's
    /// box: its `font-scale`, its quarter turn clockwise when ``rotated``, then its pen position.
    var frame: RenderTransform {
        RenderTransform.scale(x: scale, y: scale)
            .concatenating(rotated ? .rotation(radians: .pi / 2) : .identity)
            .concatenating(.translation(x: x, y: y))
    }

    /// The glyph's ink (its bitmap without the SDF border) in the label's box, em pixels.
    var inkBox: RenderRect {
        let x0 = Double(glyph.left)
        let y0 = -Double(glyph.top)
        let x1 = x0 + Double(glyph.width)
        let y1 = y0 + Double(glyph.height)
        let f = frame
        var xs: [Double] = []
        var ys: [Double] = []
        for (cx, cy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
            let p = f.apply(to: ScreenPoint(x: cx, y: cy))
            xs.append(p.x)
            ys.append(p.y)
        }
        return RenderRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension SDFText.Quad {
    /// The quad of a shaped glyph of a label drawn in `style`, with `local` mapping the label's box (em pixels) to
    /// device pixels; its fill colour is its run's (``TextStyle/sections``) when that run sets one.
    /// `nil` for a glyph without a bitmap (nothing to draw). The quad's field is not padded (``SDFText``'s cached
    /// drawing samples the glyph's bitmap).
    init?(positioned g: GlyphShaping.PositionedGlyph, style: TextStyle, local: RenderTransform) {
        self.init(
            unpadded: g.glyph,
            transform: SDFText.quadTransform(glyph: g.glyph, pen: (0, 0), local: g.frame.concatenating(local)))
        if style.sections.indices.contains(g.section) { color = style.sections[g.section].color }
    }
}

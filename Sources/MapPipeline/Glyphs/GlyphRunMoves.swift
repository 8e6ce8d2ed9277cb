// A label that moved by whole device pixels keeps its glyph runs, moved (LabelPhaseHold.swift: while the map pans,
// every label moves so).
import MapDrawing
import MapGeometry

extension GlyphRunMemo {
    /// The whole device pixels (`scale` a point) `command` lies from ``command`` when it is ``command`` moved: every
    /// position moved by one whole-pixel step (within 10⁻⁶ device pixel), every other field, line glyphs' rotations
    /// too, the same (within 10⁻⁹ degree: a line label's angles come from differences of moved points). `nil`
    /// otherwise, and for commands other than text.
    func move(to command: DrawCommand, scale: Double) -> (x: Int, y: Int)? {
        /// The whole-pixel step from `a` to `b` when `b − a` is one (within 10⁻⁶ device pixel).
        func step(_ a: ScreenPoint, _ b: ScreenPoint) -> (x: Int, y: Int)? {
            let (x, y) = ((b.x - a.x) * scale, (b.y - a.y) * scale)
            let (rx, ry) = (x.rounded(), y.rounded())
            guard abs(x - rx) <= 1e-6, abs(y - ry) <= 1e-6, abs(rx) < 1e9, abs(ry) < 1e9 else { return nil }
            return (Int(rx), Int(ry))
        }
        switch command {
        case .text(let now):
            guard case .text(var was) = self.command, let move = step(was.position, now.position) else { return nil }
            was.position = now.position
            return was == now ? move : nil
        case .lineText(let now):
            guard case .lineText(var was) = self.command, was.glyphs.count == now.glyphs.count,
                let first = was.glyphs.first,
                let move = step(first.position, now.glyphs[0].position)
            else { return nil }
            // Glyph by glyph (a copy of one glyph, not of the array), then the rest with the glyphs shared.
            for (i, g) in was.glyphs.enumerated() {
                let n = now.glyphs[i]
                guard let m = step(g.position, n.position), m == move, abs(g.rotation - n.rotation) <= 1e-9 else {
                    return nil
                }
                var moved = g
                (moved.position, moved.rotation) = (n.position, n.rotation)
                guard moved == n else { return nil }
            }
            was.glyphs = now.glyphs
            return was == now ? move : nil
        default:
            return nil
        }
    }
}

extension GlyphRunCommand {
    /// The run moved by `x`, `y` whole device pixels (`|x|, |y| < 10⁹`) by its ``GlyphRunCommand/shiftX`` and
    /// ``GlyphRunCommand/shiftY`` (its masks are not copied); `nil` when the shift would reach 2³⁰.
    func moved(x: Int, y: Int) -> GlyphRunCommand? {
        var out = self
        (out.shiftX, out.shiftY) = (shiftX + x, shiftY + y)
        return out.isShiftInRange ? out : nil
    }
}

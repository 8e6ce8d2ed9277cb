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
        switch (self.command, command) {
        case (.text(var was), .text(let now)):
            guard let move = step(was.position, now.position) else { return nil }
            was.position = now.position
            return was == now ? move : nil
        case (.lineText(var was), .lineText(let now)):
            guard was.glyphs.count == now.glyphs.count, let first = was.glyphs.first,
                let move = step(first.position, now.glyphs[0].position)
            else { return nil }
            for i in was.glyphs.indices {
                guard let m = step(was.glyphs[i].position, now.glyphs[i].position), m == move,
                    abs(was.glyphs[i].rotation - now.glyphs[i].rotation) <= 1e-9
                else { return nil }
                was.glyphs[i].position = now.glyphs[i].position
                was.glyphs[i].rotation = now.glyphs[i].rotation
            }
            return was == now ? move : nil
        default:
            return nil
        }
    }
}

extension GlyphRunCommand {
    /// The run moved by `x`, `y` whole device pixels: every mask's place, and its clip (device pixels → the quad's
    /// space) taken from the moved pixels.
    func moved(x: Int, y: Int) -> GlyphRunCommand {
        guard x != 0 || y != 0 else { return self }
        var out = self
        let (dx, dy) = (Double(x), Double(y))
        for i in out.masks.indices {
            out.masks[i].x += x
            out.masks[i].y += y
            let c = out.masks[i].clip
            out.masks[i].clip.tx = c.tx - c.a * dx - c.c * dy
            out.masks[i].clip.ty = c.ty - c.b * dx - c.d * dy
        }
        return out
    }
}

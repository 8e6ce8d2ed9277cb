import MapDrawing
import MapGeometry
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LabelStage {
    /// Each symbol layer's text commands moved by its `text-translate` (points, evaluated at `zoom`; anchored to
    /// the map it turns with `bearing`, degrees clockwise). Only drawing moves: placement and collision use the
    /// untranslated labels. Icons are left alone.
    func translatedLabels(_ labels: [Int: [DrawCommand]], zoom: Double, bearing: Double) -> [Int: [DrawCommand]] {
        var out = labels
        let ctx = EvaluationContext(zoom: zoom)
        for (index, commands) in labels where layers.indices.contains(index) {
            let layer = layers[index]
            let v = layer.numbers("text-translate", ctx)
            guard v.count == 2, v[0] != 0 || v[1] != 0, v[0].isFinite, v[1].isFinite else { continue }
            var dx = v[0]
            var dy = v[1]
            if layer.string("text-translate-anchor", ctx) != "viewport" && bearing != 0 && bearing.isFinite {
                let b = bearing * .pi / 180
                (dx, dy) = (cos(b) * v[0] + sin(b) * v[1], -sin(b) * v[0] + cos(b) * v[1])
            }
            out[index] = commands.map { command in
                switch command {
                case .text(var t):
                    t.position = ScreenPoint(x: t.position.x + dx, y: t.position.y + dy)
                    return .text(t)
                case .lineText(var l):
                    for i in l.glyphs.indices {
                        l.glyphs[i].position = ScreenPoint(
                            x: l.glyphs[i].position.x + dx, y: l.glyphs[i].position.y + dy)
                    }
                    return .lineText(l)
                default:
                    return command
                }
            }
        }
        return out
    }
}

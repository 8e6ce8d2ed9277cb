// The text form of a display list: one line per command, stable across runs and platforms, for snapshot tests.
//
// Numbers print with at most two decimals and no trailing zeros (`12`, `0.5`, `-3.25`); colours as `#rrggbbaa`.
// Paths print their sub-path and point counts and bounds, plus every point when there are at most 16.
import MapGeometry

extension DisplayList {
    /// The stable text form: a header line `DisplayList W×H @Sx (N commands)` then one line per command.
    public var description: String {
        var out = "DisplayList \(fmt(size.width))x\(fmt(size.height)) @\(fmt(scale))x (\(commands.count) commands)\n"
        var depth = 0
        for command in commands {
            if case .restore = command { depth = max(0, depth - 1) }
            out += String(repeating: "  ", count: depth + 1)
            out += command.description
            out += "\n"
            if case .save = command { depth += 1 }
        }
        return out
    }
}

extension DrawCommand: CustomStringConvertible {
    /// One line describing the command (see ``DisplayList/description``).
    public var description: String {
        switch self {
        case .clear(let color):
            return "clear \(color.hexString)"
        case .fill(let f):
            var s = "fill "
            if let p = f.pattern {
                let t = p.transform
                s += "pattern=#\(p.image.id) \(fmt(p.image.pointSize.width))x\(fmt(p.image.pointSize.height))pt"
                s += " transform=[\([t.a, t.b, t.c, t.d, t.tx, t.ty].map(fmt).joined(separator: " "))]"
            } else {
                s += f.color.hexString
            }
            if f.opacity != 1 { s += " opacity=\(fmt(f.opacity))" }
            if f.fillRule != .nonZero { s += " rule=\(f.fillRule.rawValue)" }
            if !f.antialias { s += " aa=off" }
            return s + " " + describe(f.path)
        case .stroke(let st):
            var s =
                "stroke \(st.color.hexString) width=\(fmt(st.width)) cap=\(st.cap.rawValue) join=\(st.join.rawValue)"
            if st.join == .miter { s += " miter=\(fmt(st.miterLimit))" }
            if !st.dashes.isEmpty { s += " dash=[\(st.dashes.map(fmt).joined(separator: ","))]" }
            if st.opacity != 1 { s += " opacity=\(fmt(st.opacity))" }
            if st.blur != 0 { s += " blur=\(fmt(st.blur))" }
            return s + " " + describe(st.path)
        case .lineMesh(let m):
            var s = "line-mesh "
            if let c = m.paint.uniformColor { s += c.hexString } else { s += "paint=\(m.paint)" }
            s += " width=\(fmt(m.width))"
            if m.gapWidth != 0 { s += " gap=\(fmt(m.gapWidth))" }
            if m.offset != 0 { s += " offset=\(fmt(m.offset))" }
            if m.blur != 0 { s += " blur=\(fmt(m.blur))" }
            if m.opacity != 1 { s += " opacity=\(fmt(m.opacity))" }
            return s + " " + describe(m.mesh)
        case .circle(let c):
            var s = "circle center=\(fmt(c.center)) r=\(fmt(c.radius)) fill=\(c.fillColor.hexString)"
            if c.strokeWidth > 0 { s += " stroke=\(c.strokeColor.hexString) sw=\(fmt(c.strokeWidth))" }
            if c.blur != 0 { s += " blur=\(fmt(c.blur))" }
            if c.opacity != 1 { s += " opacity=\(fmt(c.opacity))" }
            return s
        case .text(let t):
            var s = "text \(quote(t.text)) at=\(fmt(t.position)) anchor=\(t.anchor.rawValue)"
            if t.offset != .zero { s += " offset=\(fmt(t.offset))" }
            if t.rotation != 0 { s += " rotate=\(fmt(t.rotation))" }
            if t.opacity != 1 { s += " opacity=\(fmt(t.opacity))" }
            return s + " " + describe(t.style)
        case .lineText(let l):
            let glyphs = l.glyphs.map { g in
                let ground = g.transform.map { m in "m(\(fmt(m.a)),\(fmt(m.b)),\(fmt(m.c)),\(fmt(m.d)))" } ?? ""
                return "\(quote(g.text))@\(fmt(g.position))r\(fmt(g.rotation))\(ground)"
            }
            var s = "line-text [\(glyphs.joined(separator: " "))]"
            if l.opacity != 1 { s += " opacity=\(fmt(l.opacity))" }
            return s + " " + describe(l.style)
        case .image(let i):
            var s = "image #\(i.image.id) rect=\(fmt(i.rect))"
            if i.opacity != 1 { s += " opacity=\(fmt(i.opacity))" }
            if i.rotation != 0 { s += " rotate=\(fmt(i.rotation))" }
            if i.nearestNeighbor { s += " nearest" }
            if let source = i.sourceRect { s += " source=\(fmt(source))" }
            return s
        case .projectedImage(let p):
            let h = p.homography.entries.map { fmtExact($0) }.joined(separator: " ")
            var s = "projected-image #\(p.image.id) h=[\(h)] area=[\(p.area.map(fmt).joined(separator: " "))]"
            if p.opacity != 1 { s += " opacity=\(fmt(p.opacity))" }
            if p.nearestNeighbor { s += " nearest" }
            return s
        case .glyphRun(let g):
            var s = "glyph-run masks=\(g.masks.count)"
            if let b = g.bounds { s += " box=[\(b.minX) \(b.minY) \(b.maxX) \(b.maxY)]/\(fmt(g.pixelRatio))" }
            if g.opacity != 1 { s += " opacity=\(fmt(g.opacity))" }
            if g.shiftX != 0 || g.shiftY != 0 { s += " shift=[\(g.shiftX) \(g.shiftY)]" }
            return s
        case .save:
            return "save"
        case .restore:
            return "restore"
        case .clip(let r):
            return "clip \(fmt(r))"
        case .transform(let t):
            return "transform [\([t.a, t.b, t.c, t.d, t.tx, t.ty].map(fmt).joined(separator: " "))]"
        }
    }
}

/// Formats a number with at most two decimals and no trailing zeros; `-0` prints as `0`; non-finite as `nan`/`inf`.
func fmt(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let hundredths = Int((value * 100).rounded())
    if hundredths == 0 { return "0" }
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let whole = magnitude / 100
    let fraction = magnitude % 100
    if fraction == 0 { return "\(sign)\(whole)" }
    if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
    return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// A homography entry: perspective terms are tiny, so four significant digits rather than two decimals.
func fmtExact(_ value: Double) -> String {
    guard value.isFinite, value != 0, abs(value) < 0.01 else { return fmt(value) }
    var v = value
    var exponent = 0
    while abs(v) < 1 {
        v *= 10
        exponent -= 1
    }
    return "\(fmt((v * 100).rounded() / 100))e\(exponent)"
}

func fmt(_ p: ScreenPoint) -> String { "(\(fmt(p.x)),\(fmt(p.y)))" }

func fmt(_ r: RenderRect) -> String { "(\(fmt(r.minX)),\(fmt(r.minY)) \(fmt(r.width))x\(fmt(r.height)))" }

private func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func describe(_ path: RenderPath) -> String {
    guard let bounds = path.bounds else { return "path{empty}" }
    var s = "path{\(path.subpathCount) sub, \(path.pointCount) pts, bounds=\(fmt(bounds))"
    if path.pointCount <= 16 {
        var parts: [String] = []
        for sub in 0..<path.subpathCount {
            let pts = path.subpathRange(sub).map { fmt(path.point(at: $0)) }.joined(separator: " ")
            parts.append("M" + pts + (path.subpathClosed[sub] ? " Z" : ""))
        }
        s += ": " + parts.joined(separator: " ")
    }
    return s + "}"
}

private func describe(_ mesh: LineMesh) -> String {
    guard let first = mesh.vertices.first else { return "mesh{empty}" }
    var minX = first.center.x
    var minY = first.center.y
    var maxX = minX
    var maxY = minY
    for v in mesh.vertices {
        minX = min(minX, v.center.x)
        minY = min(minY, v.center.y)
        maxX = max(maxX, v.center.x)
        maxY = max(maxY, v.center.y)
    }
    let bounds = RenderRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    return "mesh{\(mesh.vertices.count) verts, \(mesh.indices.count / 3) tris, centers=\(fmt(bounds))}"
}

private func describe(_ style: TextStyle) -> String {
    var s = "font=\(style.fontFamilies.joined(separator: "|")) size=\(fmt(style.size))"
    if style.weight != .regular { s += " weight=\(style.weight.value)" }
    s += " color=\(style.color.hexString)"
    if style.hasHalo {
        s += " halo=\(style.haloColor.hexString)/\(fmt(style.haloWidth))"
        if style.haloBlur > 0 { s += "/blur\(fmt(style.haloBlur))" }
    }
    if style.letterSpacing != 0 { s += " spacing=\(fmt(style.letterSpacing))" }
    if style.lineHeight != 1.2 { s += " line-height=\(fmt(style.lineHeight))" }
    if let maxWidth = style.maxWidth, maxWidth > 0 { s += " max-width=\(fmt(maxWidth))" }
    if style.justify != .center { s += " justify=\(style.justify.rawValue)" }
    return s
}

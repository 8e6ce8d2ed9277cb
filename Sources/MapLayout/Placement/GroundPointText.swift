import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of point text laid out for the ground: its clusters' baseline centres from the line's start, in points
/// at the style's size, and the line's advance.
struct GroundTextLine {
    var clusters: [(text: String, x: Double)]
    var width: Double
    var baseline: Double
}

/// Point text laid out cluster by cluster for the ground, in points at the style's size.
struct GroundTextLayout {
    var width: Double
    var height: Double
    var lines: [GroundTextLine]
}

extension SymbolPlacer {
    /// The clusters of point text lying on the ground under pitch (`text-pitch-alignment: map`), as MapLibre draws
    /// it: the text is laid out as on the screen (lines, `justify`, the box's `anchor` at `offset` points from the
    /// point, turned `degrees` clockwise), in points of the ground at the camera's zoom, scaled by MapLibre's
    /// pitch-aligned perspective ratio `0.5 + 0.5 · depth / D` (at most 4) about the point, moved by `groundShift`
    /// ground points (a variable anchor's shift, along the map's axes as MapLibre adds it in tile units), and each
    /// cluster is then projected with the local linear map of the ground to the screen, so the label is foreshortened
    /// as the ground is. With `turnsWithMap` false (`text-rotation-alignment: viewport`) the text's axes are the
    /// ground's directions that look horizontal and vertical on the screen; with `true`, east and south.
    /// - Parameters:
    ///   - text: the label's text.
    ///   - style: its style at the layout size (unscaled).
    ///   - justify: how its lines align (`text-justify`).
    ///   - anchor: the point of the text's box that sits at `offset` from the label's point.
    ///   - offset: the box's offset (`text-offset`) in points at the style's size, in the text's frame.
    ///   - degrees: `text-rotate`, clockwise.
    ///   - turnsWithMap: `text-rotation-alignment: map`.
    ///   - groundShift: a variable anchor's shift in ground points (zero without one).
    ///   - screen: the label's point on the screen.
    ///   - ratio: the viewport perspective ratio the command's style is scaled by.
    ///   - transform: the frame's camera.
    /// - Returns: the clusters in reading order, or `nil` when the point is not on the visible ground or a cluster
    ///   does not project to finite numbers.
    func groundPointGlyphs(
        _ text: String, style: TextStyle, justify: TextStyle.Justify, anchor: TextAnchor, offset: ScreenPoint,
        degrees: Double, turnsWithMap: Bool, groundShift: ScreenPoint, at screen: ScreenPoint, ratio: Double,
        transform: CameraTransform
    ) -> [GlyphPlacement]? {
        let worldSize = transform.worldSize
        let centre = transform.centerWorld
        guard worldSize.isFinite, worldSize > 0, ratio > 0, let anchorWorld = transform.worldPoint(for: screen) else {
            return nil
        }
        let depth = transform.depth(of: anchorWorld)
        guard depth > 0, depth.isFinite else { return nil }
        let groundRatio =
            options.scalesWithPerspective ? min(max(0.5 + 0.5 * depth / transform.distance, 0), 4) : 1
        let layout = groundLayout(text, style)
        let origin = anchor.boxOrigin(
            for: ScreenSize(width: layout.width, height: layout.height), at: offset)
        // The text's frame on the ground: turned by `degrees`, plus the bearing when it keeps to the viewport.
        let angle = (degrees + (turnsWithMap ? 0 : transform.state.bearing)) * .pi / 180
        let (cosA, sinA) = (cos(angle), sin(angle))
        let ax = (anchorWorld.x - centre.x) * worldSize + groundShift.x
        let ay = (anchorWorld.y - centre.y) * worldSize + groundShift.y
        func project(_ x: Double, _ y: Double) -> ScreenPoint {
            transform.screenPoint(forUnwrapped: WorldPoint(x: centre.x + x / worldSize, y: centre.y + y / worldSize))
        }
        let k = groundRatio / ratio
        let turn = RenderTransform(a: cosA * k, b: sinA * k, c: -sinA * k, d: cosA * k, tx: 0, ty: 0)
        var glyphs: [GlyphPlacement] = []
        for line in layout.lines {
            let start: Double
            switch justify {
            case .left: start = 0
            case .center: start = (layout.width - line.width) / 2
            case .right: start = layout.width - line.width
            }
            for cluster in line.clusters {
                let px = origin.x + start + cluster.x
                let py = origin.y + line.baseline
                let gx = ax + groundRatio * (cosA * px - sinA * py)
                let gy = ay + groundRatio * (sinA * px + cosA * py)
                let o = project(gx, gy)
                let ex = project(gx + 0.5, gy)
                let ex0 = project(gx - 0.5, gy)
                let ey = project(gx, gy + 0.5)
                let ey0 = project(gx, gy - 0.5)
                let j = RenderTransform(
                    a: ex.x - ex0.x, b: ex.y - ex0.y, c: ey.x - ey0.x, d: ey.y - ey0.y, tx: 0, ty: 0)
                let m = turn.concatenating(j)
                guard o.x.isFinite, o.y.isFinite, m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite else {
                    return nil
                }
                glyphs.append(
                    GlyphPlacement(
                        text: cluster.text, position: o, rotation: atan2(m.b, m.a) * 180 / .pi, transform: m))
            }
        }
        return glyphs.isEmpty ? nil : glyphs
    }

    /// `text` in `style` laid out by lines (the measurer's) and clusters (measured alone, as line labels are), in
    /// points at the style's size; cached with the text's measurements.
    private func groundLayout(_ text: String, _ style: TextStyle) -> GroundTextLayout {
        let key = ShapeKey(text: text, style: style)
        if let cached = groundLayouts[key] { return cached }
        if groundLayouts.count > 20_000 { groundLayouts.removeAll(keepingCapacity: true) }
        let metrics = measurer.measure(text, style: style)
        let bytes = Array(text.utf8)
        var lines: [GroundTextLine] = []
        for line in metrics.lines {
            let range = line.utf8Range.clamped(to: 0..<bytes.count)
            // MapLibre's shaping drops the spaces at a line's ends.
            var trimmed = Substring(String(decoding: bytes[range], as: UTF8.self))
            while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
            while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
            let lineText = String(trimmed)
            guard !lineText.isEmpty else { continue }
            let clusters = shape(lineText, style, clusters: true).clusters ?? []
            var x = 0.0
            var placed: [(text: String, x: Double)] = []
            for cluster in clusters {
                placed.append((cluster.text, x + cluster.advance / 2))
                x += cluster.advance + style.letterSpacing
            }
            lines.append(
                GroundTextLine(
                    clusters: placed, width: max(x - style.letterSpacing, 0), baseline: line.baseline))
        }
        let layout = GroundTextLayout(width: metrics.width, height: metrics.height, lines: lines)
        groundLayouts[key] = layout
        return layout
    }
}

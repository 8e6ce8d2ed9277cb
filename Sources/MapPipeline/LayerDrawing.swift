import MapData
import MapGeometry
import MapLayout
import MapRender
import MapStyle

extension MapRenderer {
    /// Appends the fill, line or circle commands of `layer` for the features of `tile`.
    func drawLayer(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, projectors: inout ProjectorCache,
        into out: inout [DrawCommand]
    ) {
        guard let sourceID = layer.layer.source else { return }
        let sourceLayer = layer.layer.sourceLayer ?? ""
        let features = preparedFeatures(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile)
        guard !features.isEmpty else { return }
        for f in features {
            let ctx = EvaluationContext(zoom: zoom, feature: TileFeature(feature: f.feature))
            guard layer.matches(ctx) else { continue }
            let projector = projectors.projector(extent: f.feature.extent)
            switch layer.type {
            case .fill: drawFill(layer, f.geometry, ctx, projector, &out)
            case .line: drawLine(layer, f.geometry, ctx, projector, &out)
            case .circle: drawCircles(layer, f.geometry, ctx, projector, &out)
            default: break
            }
        }
    }

    private func drawFill(
        _ layer: CompiledLayer, _ geometry: VectorTileGeometry, _ ctx: EvaluationContext, _ projector: TileProjector,
        _ out: inout [DrawCommand]
    ) {
        guard case .polygons(let polygons) = geometry else { return }
        guard var color = layer.color("fill-color", ctx) else { return }
        let opacity = layer.number("fill-opacity", ctx, 1)
        guard opacity > 0, color.alpha > 0 else { return }
        var path = RenderPath()
        for polygon in polygons {
            for ring in polygon {
                let pts = projector.clipRing(ring) { (Double($0.x), Double($0.y)) }
                appendProjected(pts, closed: true, projector, &path)
            }
        }
        guard !path.isEmpty else { return }
        let antialias = layer.isSet("fill-antialias") ? layer.bool("fill-antialias", ctx) : true
        color = color.withOpacity(1)
        out.append(
            .fill(FillCommand(path: path, color: color, opacity: opacity, fillRule: .evenOdd, antialias: antialias)))
        if layer.isSet("fill-outline-color"), let outline = layer.color("fill-outline-color", ctx), antialias {
            out.append(.stroke(StrokeCommand(path: path, color: outline, width: 1, opacity: opacity)))
        }
    }

    private func drawLine(
        _ layer: CompiledLayer, _ geometry: VectorTileGeometry, _ ctx: EvaluationContext, _ projector: TileProjector,
        _ out: inout [DrawCommand]
    ) {
        var path = RenderPath()
        switch geometry {
        case .lineStrings(let lines):
            for line in lines {
                for piece in projector.clipLine(line, map: { (Double($0.x), Double($0.y)) }) {
                    appendProjected(piece, closed: false, projector, &path)
                }
            }
        case .polygons(let polygons):
            for polygon in polygons {
                for ring in polygon {
                    let pts = projector.clipRing(ring) { (Double($0.x), Double($0.y)) }
                    appendProjected(pts, closed: true, projector, &path)
                }
            }
        default: return
        }
        guard !path.isEmpty, let color = layer.color("line-color", ctx) else { return }
        let width = layer.number("line-width", ctx, 1)
        let opacity = layer.number("line-opacity", ctx, 1)
        guard width > 0, opacity > 0, color.alpha > 0 else { return }
        let gap = layer.number("line-gap-width", ctx, 0)
        let dashes = layer.numbers("line-dasharray", ctx)
        let cap = LineCap(rawValue: layer.string("line-cap", ctx)) ?? .butt
        let join = LineJoin(rawValue: layer.string("line-join", ctx)) ?? .miter
        let stroke = StrokeCommand(
            path: path, color: color, width: width, cap: cap, join: join,
            miterLimit: layer.number("line-miter-limit", ctx, 2), dashes: dashes, opacity: opacity,
            blur: layer.number("line-blur", ctx, 0))
        if gap > 0 {
            // A casing around a gap: two strokes of `width` at ±(gap + width) / 2, drawn as one wide stroke with the
            // gap punched out is not possible in source-over, so approximate by the outer outline only.
            var outer = stroke
            outer.width = gap + 2 * width
            out.append(.stroke(outer))
        } else {
            out.append(.stroke(stroke))
        }
    }

    private func drawCircles(
        _ layer: CompiledLayer, _ geometry: VectorTileGeometry, _ ctx: EvaluationContext, _ projector: TileProjector,
        _ out: inout [DrawCommand]
    ) {
        guard case .points(let points) = geometry else { return }
        let radius = layer.number("circle-radius", ctx, 5)
        let color = layer.color("circle-color", ctx) ?? .black
        let opacity = layer.number("circle-opacity", ctx, 1)
        let strokeWidth = layer.number("circle-stroke-width", ctx, 0)
        let strokeColor = (layer.color("circle-stroke-color", ctx) ?? .black).withOpacity(
            layer.number("circle-stroke-opacity", ctx, 1))
        let blur = layer.number("circle-blur", ctx, 0)
        for p in points {
            let x = Double(p.x)
            let y = Double(p.y)
            guard projector.isVisible(x, y) else { continue }
            let center = projector.project(x, y)
            out.append(
                .circle(
                    CircleCommand(
                        center: center, radius: radius, fillColor: color, strokeColor: strokeColor,
                        strokeWidth: strokeWidth, blur: blur, opacity: opacity)))
        }
    }

    private func appendProjected(_ pts: [Double], closed: Bool, _ projector: TileProjector, _ path: inout RenderPath) {
        var n = pts.count / 2
        // A closed ring repeats its first point; the path's close does that.
        if closed && n > 1 && pts[0] == pts[2 * n - 2] && pts[1] == pts[2 * n - 1] { n -= 1 }
        guard n >= (closed ? 3 : 2) else { return }
        var lastX = Double.nan
        var lastY = Double.nan
        var started = false
        for i in 0..<n {
            let p = projector.project(pts[2 * i], pts[2 * i + 1])
            // Drop vertices closer than a tenth of a point to the previous one.
            if started && abs(p.x - lastX) < 0.1 && abs(p.y - lastY) < 0.1 && i != n - 1 { continue }
            if started {
                path.line(to: p)
            } else {
                path.move(to: p)
                started = true
            }
            lastX = p.x
            lastY = p.y
        }
        if closed { path.close() }
    }
}

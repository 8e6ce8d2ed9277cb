import MapDrawing
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MapRenderer {
    /// The paint of one line feature for ``LineMeshCommand``, chosen in MapLibre's order: `line-pattern` (the sprite
    /// image along the line), else `line-dasharray` (dashes of `line-color`), else `line-gradient` (a ramp over
    /// `line-progress`), else solid `line-color`.
    ///
    /// `nil` when nothing should be drawn: no colour, or a `line-pattern` the sprite lacks (MapLibre leaves such
    /// features out). Still-render semantics for the zoom cross-fade of `line-pattern` and `line-dasharray`: the value
    /// at the current zoom, scale 1 (MapLibre's `to` side with its fade complete).
    ///
    /// Owned by the line-paint work: this is the one place that turns line paint properties into a ``LinePaint``.
    func linePaint(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> LinePaint? {
        let zoom = ctx.zoom ?? 0
        let floorZoom = zoom.rounded(.down)
        // Patterns and dashes are laid out in tile units at the integer zoom and scale with the map within it.
        let zoomScale = pow(2, zoom - floorZoom)
        let deviceScale = frameScale > 0 && frameScale.isFinite ? frameScale : 1
        if layer.isSet("line-pattern") {
            guard let image = linePatternImage(layer, ctx) else { return nil }
            let width = max(0, layer.number("line-width", ctx, 1))
            let gap = max(0, layer.number("line-gap-width", ctx, 0))
            // line.vertex.glsl: outset = gap/2 + halfwidth × (gap > 0 ? 2 : 1) + antialiasing (half a device pixel).
            let outset = gap / 2 + (gap > 0 ? width : width / 2) + (width > 0 ? 0.5 / deviceScale : 0)
            let placed = LinePatternImage(image: image, length: image.pointSize.width * zoomScale)
            return .pattern(LinePattern(to: placed, outset: outset))
        }
        guard let color = layer.color("line-color", ctx) else { return nil }
        let dashes = layer.numbers("line-dasharray", ctx)
        if !dashes.isEmpty {
            // MapLibre "floorwidth": line-width at the integer zoom (per feature for data-driven widths).
            var floorCtx = ctx
            floorCtx.zoom = floorZoom
            let floorWidth = layer.number("line-width", floorCtx, 1)
            let round = layer.string("line-cap", ctx) == "round"
            // line_sdf.fragment.glsl: smoothstep(0.5 − sdfgamma/floorwidth, 0.5 + sdfgamma/floorwidth, sdfdist) with
            // sdfgamma = atlasWidth / (min(widthA, widthB) × 256 × pixelRatio) / 2 spans ±255/512 device pixels for a
            // pattern of scale 1. The cross-fade's `from` pattern has scale 2 above the last integer zoom but 0.5 at
            // it (a whole zoom), halving min(widthA, widthB): edges are twice as soft at whole zooms.
            let crossFade = zoom == floorZoom ? 2.0 : 1.0
            let dash = LineDash(
                dashes: dashes, unit: floorWidth * zoomScale, round: round,
                edge: 255 / 512 * crossFade * zoomScale / deviceScale)
            guard floorWidth > 0, floorWidth.isFinite else { return .solid(color) }
            return .dashed(color, dash)
        }
        if layer.isSet("line-gradient") {
            var progressCtx = ctx
            var gradient = LineGradient { progress in
                progressCtx.lineProgress = progress
                return layer.color("line-gradient", progressCtx)
            }
            // A GeoJSON source with lineMetrics cuts one feature per tile piece and says where it lies on the line.
            if let clip = lineClip(ctx) {
                gradient.clipStart = clip.start
                gradient.clipEnd = clip.end
            }
            return .gradient(gradient)
        }
        return .solid(color)
    }

    /// The pixels of the feature's `line-pattern` image, or `nil` when the name is empty or the sprite lacks it.
    func linePatternImage(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> RasterImage? {
        guard let name = patternName(layer, "line-pattern", ctx), let image = spritePixels(name), image.width > 0,
            image.height > 0
        else { return nil }
        return image
    }
}

/// Where a tile's piece of a line lies on the whole line, from a GeoJSON source with `lineMetrics: true`
/// (the feature's `mapbox_clip_start` and `mapbox_clip_end`, fractions `0…1` of the whole line's length; see
/// `GeoJSONTileSource.lineMetrics`). `nil` when the feature lacks them or they are not finite with `start ≤ end`.
func lineClip(_ ctx: EvaluationContext) -> (start: Double, end: Double)? {
    guard let feature = ctx.feature, let s = feature.styleProperty("mapbox_clip_start")?.number,
        let e = feature.styleProperty("mapbox_clip_end")?.number, s.isFinite, e.isFinite, s <= e
    else { return nil }
    return (min(max(s, 0), 1), min(max(e, 0), 1))
}

import MapDrawing
import MapStyle

/// One step of a frame, in the style's layer order: what every frame draws, whatever caches it uses.
///
/// The style's layers fall into maximal runs of consecutive tile-drawn layers (fill, line, circle, raster and
/// hillshade), separated by background, symbol, heatmap and fill-extrusion layers. A frame draws the steps in order:
/// a background step over the whole frame, a tile-layer run either from its cached tile images (one image per tile
/// and run, flat frames) or as vectors (pitched frames, or with the tile-image cache off), a symbol step as the
/// labels the frame's one placement gave that layer. So labels sit between the layers the style puts around them.
/// Circle layers form runs of their own (a circle layer next to a fill or line layer starts a new run): pitched
/// frames warp the other runs' tile images onto the ground but draw circles as vectors, round on the screen
/// (`circle-pitch-alignment: viewport`, the default).
enum FrameStep {
    /// Consecutive background layers, drawn over the whole frame.
    case backgrounds([CompiledLayer])
    /// A run of consecutive tile-drawn layers; `run` numbers the runs from 0 in style order (the tile-image key's
    /// ``TileImageKey/run``).
    case tileLayers(run: Int, layers: [CompiledLayer])
    /// A symbol layer: the labels placed for it.
    case symbols(CompiledLayer)
    /// A `heatmap` or `fill-extrusion` layer: one image over the whole frame made from every tile's features
    /// (HeatmapLayers.swift, FillExtrusionLayers.swift), since a heatmap's density and an extrusion's faces cross
    /// tile edges.
    case frameImage(CompiledLayer)

    /// The steps of `layers` (in style order).
    static func plan(_ layers: [CompiledLayer]) -> [FrameStep] {
        var steps: [FrameStep] = []
        var runs = 0
        for layer in layers {
            switch (layer.type, steps.last) {
            case (.background, .backgrounds(let earlier)?):
                steps[steps.count - 1] = .backgrounds(earlier + [layer])
            case (.background, _): steps.append(.backgrounds([layer]))
            case (.symbol, _): steps.append(.symbols(layer))
            case (.heatmap, _), (.fillExtrusion, _): steps.append(.frameImage(layer))
            case (_, .tileLayers(let run, let earlier)?) where (layer.type == .circle) == (earlier[0].type == .circle):
                steps[steps.count - 1] = .tileLayers(run: run, layers: earlier + [layer])
            default:
                steps.append(.tileLayers(run: runs, layers: [layer]))
                runs += 1
            }
        }
        return steps
    }
}

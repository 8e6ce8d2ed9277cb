// The label stage's state: the placer and what it keeps between frames (the previous placement, label fades, the
// last frame's labels for hit tests) and the glyph path's measurer and label images. Its code lives in
// Symbols.swift (candidates), Glyphs/ (shaping, label images) and MapLayout (placement), which reach this state
// through the renderer's forwarding properties (MapRenderer.swift); the frame places through ``LabelStage/place``.
import MapData
import MapDrawing
import MapGeometry
import MapLayout

/// The label stage of a renderer (MapLibre Native's placement): one ``SymbolPlacer`` across the frame's tiles and
/// the state labels keep from frame to frame, so they stay stable. Frame thread only.
final class LabelStage {
    /// Places the frame's candidates (collision, dedup, upright labels); keeps its measurements.
    let placer: SymbolPlacer
    /// The placer's measurer: the style's glyphs when set (``MapRenderer/setGlyphs(_:)``), else the backend's fonts.
    let glyphText: GlyphTextMeasurer
    /// Label images of the glyph path by command and scale (`nil`: nothing to draw), and those the frame used.
    var glyphImages: [GlyphImageKey: (handle: ImageHandle, x: Int, y: Int)?] = [:]
    var glyphImagesUsed: Set<GlyphImageKey> = []
    /// The previous frame's placement (labels it showed are preferred).
    private(set) var previousPlacement: PlacementResult?
    /// Every label's fade across frames (``MapRenderOptions/labelFadeDuration``; Symbols.swift).
    var fades = LabelFades()
    /// The last frame's symbol candidates and their placement, for ``MapRenderer/lastPlacedSymbols``.
    private(set) var lastLabels: (candidates: [SymbolFeature], placement: PlacementResult)?

    /// A stage measuring text with `fallback` (the backend's fonts) until glyphs are set, placing with `options`.
    init(fallback: any TextMeasurer, options: PlacementOptions) {
        glyphText = GlyphTextMeasurer(fallback: fallback)
        placer = SymbolPlacer(measurer: glyphText, options: options)
    }

    /// Places the frame's candidates (`symbols`, in source order) for `camera` with `options`, preferring the labels
    /// the previous frame showed; the placement is kept for the next frame and for hit tests.
    func place(_ symbols: [SymbolFeature], camera: CameraState, options: PlacementOptions) -> PlacementResult {
        placer.options = options
        let placement = placer.place(symbols, camera: camera, previous: previousPlacement)
        previousPlacement = placement
        lastLabels = (symbols, placement)
        return placement
    }

    /// The next frame places from scratch, without preferring the previous frame's labels, and no label fades.
    func forgetPlacement() {
        previousPlacement = nil
        fades.reset()
    }
}

extension MapRenderer {
    /// The label stage for one frame: the candidates of every visible symbol layer in every covering tile (those
    /// the tile stage found cached in `found`, the rest looked up or built, ``symbolFeatures(_:tile:zoom:)``), in
    /// MapLibre's tile-major placement order (``LabelOrder``), placed together by ``LabelStage/place(_:camera:options:)``.
    func placeLabels(_ tiles: [TileID], found: FoundSymbols, zoom z: Double, camera: CameraState) -> PlacementResult {
        var symbols: [SymbolFeature] = []
        var order = 0
        let symbolLayers = symbolLayers(atZoom: z)
        // Candidates the tile stage found cached are not looked up again.
        let usesFound = found.layerCount == symbolLayers.count
        // Tiles and their symbols in the order MapLibre offers them to placement (LabelOrder.swift).
        for t in LabelOrder.tileOrder(tiles, bearing: camera.bearing) {
            let tile = tiles[t]
            for (l, layer) in symbolLayers.enumerated() {
                var built =
                    (usesFound ? found.candidates(tile: t, layer: l) : nil)
                    ?? symbolFeatures(layer, tile: tile, zoom: z)
                LabelOrder.number(&built, sortsByKey: built.contains { $0.sortKey != nil }, from: &order)
                symbols.append(contentsOf: built)
            }
        }
        frameStats.symbolCandidates = symbols.count
        let placement = labels.place(symbols, camera: camera, options: options.placement)
        frameStats.labelsPlaced = placement.symbols.count
        return placement
    }
}

// The label stage (MapLibre Native's placement) and its state: the placer and what it keeps between frames (the
// previous placement, label fades, the last frame's labels for hit tests), the glyph path's measurer and SDF icon
// images. Its code is methods on `LabelStage`: candidates in Symbols.swift, fades and translations in
// SymbolZOrder.swift and Glyphs/LabelTranslate.swift, shaping, glyph runs and SDF icon images in Glyphs/
// (placement itself is MapLayout's `SymbolPlacer`). The renderer hands it what other stages own: a tile's prepared features, the source
// tile's whole lines, sprite icons (MapRenderer's extension below).
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle
import WaymarkTime

/// The label stage of a renderer (MapLibre Native's placement): label candidates built from a tile's features, one
/// ``SymbolPlacer`` across the frame's tiles, fades, and the glyph path's glyph runs and SDF icon images, with the state labels keep
/// from frame to frame so they stay stable. Frame thread only (a lane's stage on the lane's thread).
final class LabelStage {
    /// The style (its `glyphs` turns the glyph path on) and its compiled layers (the symbol layers' layout and paint).
    let style: Style
    let layers: [CompiledLayer]
    /// The renderer's backend: the SDF icons' images are registered with it.
    let backend: any RenderBackend
    /// The renderer's options (tile size, label fade duration, placement settings), kept in step by the renderer.
    var options: MapRenderOptions
    /// Places the frame's candidates (collision, dedup, upright labels); keeps its measurements.
    let placer: SymbolPlacer
    /// The placer's measurer: the style's glyphs when set (``MapRenderer/setGlyphs(_:)``), else the backend's fonts.
    let glyphText: GlyphTextMeasurer
    /// SDF icon images by command, paint and scale (`nil`: nothing to draw), and those the frame used.
    var glyphImages: [GlyphImageKey: (handle: ImageHandle, x: Int, y: Int)?] = [:]
    var glyphImagesUsed: Set<GlyphImageKey> = []
    /// The glyph runs the last frame drew, per symbol layer in drawing order (a still label reuses its run and does
    /// not look its masks up again; they hold at most one frame's masks beyond the mask cache's bound), and the glyph
    /// store and scale they were made with.
    var glyphRunMemo: [Int: [GlyphRunMemo]] = [:]
    var glyphRunMemoStore: ObjectIdentifier?
    var glyphRunMemoScale = 0.0
    /// The previous frame's placement (labels it showed are preferred).
    private(set) var previousPlacement: PlacementResult?
    /// Every label's fade across frames (``MapRenderOptions/labelFadeDuration``; Symbols.swift).
    var fades = LabelFades()
    /// The last frame's symbol candidates and their placement, for ``MapRenderer/lastPlacedSymbols``.
    private(set) var lastLabels: (candidates: [SymbolFeature], placement: PlacementResult)?
    /// The last frame's candidates per tile and layer in placement order (held, so that an array with the same
    /// storage is the same array) and those joined and numbered (``placeLabels(_:symbolLayers:found:camera:candidates:)``).
    private var joinedParts: (parts: [[SymbolFeature]], symbols: [SymbolFeature])?
    /// The renderer's symbol layers at the last style zoom asked (``MapRenderer/symbolLayers(atZoom:)``).
    var symbolLayersMemo: (zoom: Double, layers: [CompiledLayer])?
    /// The labels' sub-pixel phase, held while the map pans (LabelPhaseHold.swift): the camera each frame's labels
    /// are placed and drawn for.
    var phaseHold = LabelPhaseHold()

    /// A stage for `style` (compiled as `layers`) drawing SDF icon images with `backend` and measuring text with its
    /// fonts until glyphs are set, with the renderer's `options`.
    init(style: Style, layers: [CompiledLayer], backend: any RenderBackend, options: MapRenderOptions) {
        self.style = style
        self.layers = layers
        self.backend = backend
        self.options = options
        glyphText = GlyphTextMeasurer(fallback: backend.textMeasurer)
        placer = SymbolPlacer(measurer: glyphText, options: options.placement)
    }

    /// The style zoom of `camera` (``MapRenderer/styleZoom(for:)``).
    func styleZoom(for camera: CameraState) -> Double {
        MapRenderer.styleZoom(for: camera, tileSize: options.tileSize)
    }

    /// Places the frame's candidates: every symbol layer of `symbolLayers` in every covering tile, in MapLibre's
    /// tile-major placement order (``LabelOrder``) (those the tile stage found cached in `found`, the rest from `candidates`), for `camera`,
    /// preferring the labels the previous frame showed; the placement is kept for the next frame and for hit tests.
    /// - Returns: the placement and the number of candidates placed from.
    func placeLabels(
        _ tiles: [TileID], symbolLayers: [CompiledLayer], found: FoundSymbols, camera: CameraState,
        candidates: (CompiledLayer, TileID) -> [SymbolFeature]
    ) -> (placement: PlacementResult, candidates: Int) {
        // Candidates the tile stage found cached are not looked up again.
        let usesFound = found.layerCount == symbolLayers.count
        // Each tile's and layer's candidates, in the order MapLibre offers them to placement (LabelOrder.swift).
        var parts: [[SymbolFeature]] = []
        parts.reserveCapacity(tiles.count * symbolLayers.count)
        for t in LabelOrder.tileOrder(tiles, bearing: camera.bearing) {
            let tile = tiles[t]
            for (l, layer) in symbolLayers.enumerated() {
                parts.append((usesFound ? found.candidates(tile: t, layer: l) : nil) ?? candidates(layer, tile))
            }
        }
        let symbols = frameSymbols(parts)
        return (place(symbols, parts: parts, camera: camera, options: options.placement), symbols.count)
    }

    /// The frame's candidates: `parts` numbered in order (``LabelOrder/number(_:sortsByKey:from:)``) and joined.
    /// When every part is the very array the previous frame had at its place (the tiles and layers kept their
    /// candidates), the previous frame's joined array is handed again, uncopied (the placer then reuses what it
    /// made of it, PlacementInputMemo.swift); numbering the same parts again would give the same array.
    private func frameSymbols(_ parts: [[SymbolFeature]]) -> [SymbolFeature] {
        if let kept = joinedParts, kept.parts.count == parts.count,
            zip(kept.parts, parts).allSatisfy({ $0.sharesStorage(with: $1) })
        {
            return kept.symbols
        }
        var symbols: [SymbolFeature] = []
        symbols.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        var order = 0
        for part in parts {
            var built = part
            LabelOrder.number(&built, sortsByKey: built.contains { $0.sortKey != nil }, from: &order)
            symbols.append(contentsOf: built)
        }
        joinedParts = (parts, symbols)
        return symbols
    }

    /// Places the frame's candidates (`symbols`, in source order) for `camera` with `options`, preferring the labels
    /// the previous frame showed; the placement is kept for the next frame and for hit tests.
    /// `parts`: the arrays `symbols` was joined from, in order, if any (``SymbolPlacer/place(_:parts:camera:previous:)``).
    func place(
        _ symbols: [SymbolFeature], parts: [[SymbolFeature]]? = nil, camera: CameraState, options: PlacementOptions
    ) -> PlacementResult {
        placer.options = options
        let placement = placer.place(symbols, parts: parts, camera: camera, previous: previousPlacement)
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
    /// the tile stage found cached in `found`, the rest looked up or built, ``symbolFeatures(_:tile:zoom:)``),
    /// in MapLibre's tile-major placement order (``LabelOrder``), placed together by
    /// ``LabelStage/placeLabels(_:symbolLayers:found:camera:candidates:)``.
    func placeLabels(_ tiles: [TileID], found: FoundSymbols, zoom z: Double, camera: CameraState) -> PlacementResult {
        let (placement, candidates) = labels.placeLabels(
            tiles, symbolLayers: symbolLayers(atZoom: z), found: found, camera: camera
        ) { layer, tile in
            symbolFeatures(layer, tile: tile, zoom: z)
        }
        assembly.stats.symbolCandidates = candidates
        assembly.stats.labelsPlaced = placement.symbols.count
        return placement
    }

    /// Builds the candidates of ``symbolFeatures(_:tile:zoom:)`` (any thread, on this renderer's own thread for the
    /// call: the tile stage's lanes build them too) through the label stage
    /// (``LabelStage/buildSymbols(_:tile:zoom:features:overscaling:wholeSourceLines:symbolIcon:)``), from the
    /// tile's prepared features, the source tile's whole lines and this renderer's sprite. `iconNames` holds, per
    /// feature, the sprite image name of its icon (`nil`: no icon), so the frame's renderer can take the icons of
    /// another lane's backend into its own (``MapRenderer/adoptSymbols(_:)``).
    func buildSymbols(_ layer: CompiledLayer, tile: TileID, zoom: Double) -> (
        features: [SymbolFeature], iconNames: [String?]
    ) {
        guard let sourceID = layer.layer.source else { return ([], []) }
        let sourceLayer = layer.layer.sourceLayer ?? ""
        return labels.buildSymbols(
            layer, tile: tile, zoom: zoom,
            features: preparedFeatures(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile),
            overscaling: sources[sourceID].flatMap { sourceKey($0, tile)?.plan?.scale } ?? 1,
            wholeSourceLines: { wholeSourceLines(sourceID: sourceID, sourceLayer: sourceLayer, tile: tile) },
            symbolIcon: symbolIcon)
    }
}

// The renderer's side of the tile supply (TileSupply.swift): the supply decides where jobs run and answers each
// question about a missing tile with a decision; the renderer applies it here, with the state of its stages.
import MapData
import MapGeometry
import MapLayout
import MapStyle

extension MapRenderer {
    /// Ends the frame's tile work: the supply hands its requests to the workers; the count is the frame's
    /// ``FrameStatistics/tilesPending`` and ``pendingTileCount``.
    func endTileFrame() {
        let pending = tileSupply.endFrame()
        assembly.stats.tilesPending = pending
        pendingTileCount = pending
    }

    /// The label candidates of `layer` in `tile` at style zoom `zoom` (zoom step `step`) the engine lacks: none while
    /// the tile's data is on its way (``TileSupply/preparesMissingData``); else built now and cached, or, put off by
    /// the supply's label budget (``TileSupply/labelPlan(for:)``), those of the zoom step the tile last built (or
    /// none yet) until a later frame.
    func missingLabelCandidates(_ layer: CompiledLayer, tile: TileID, zoom: Double, step: Int) -> [SymbolFeature] {
        guard tileSupply.preparesMissingData || sourceTiles.tileDataReady(tile.canonical) else { return [] }
        let slot = SymbolSlot(layer: layer.index, tile: tile)
        switch tileSupply.labelPlan(for: slot) {
        case .build:
            let built = buildAndCacheSymbols(layer, tile: tile, zoom: zoom, step: step)
            tileSupply.builtLabels(for: slot, step: step)
            return built
        case .putOff(let last):
            guard let last,
                case .symbols(let stale)? = engine.value(
                    .symbols(group: group, layer: layer.index, tile: tile, zoomStep: last))
            else { return [] }
            return stale
        }
    }

    /// Whether every prepared tile `tile` needs is there, so what is built from them may be cached: always when the
    /// frame prepares what it lacks, else only once the workers handed them all over (``SourceTiles/tileDataReady(_:)``).
    func hasAllData(_ tile: TileID) -> Bool { tileSupply.preparesMissingData || sourceTiles.tileDataReady(tile) }

    /// A raster source tile the frame draws and did not fetch ahead: read now (`.success`, with `nil` bytes when the
    /// source has none or fails), or, from an asynchronous source in asynchronous mode, asked for and taken once it
    /// arrived (`nil` until then; ``RasterArrivals``).
    func unfetchedRasterTile(_ source: ResolvedSource, at address: TileID) -> TileLoadResult? {
        switch tileSupply.unfetchedRasterPlan(for: source) {
        case .readNow: return .success((try? source.tiles.tileData(at: address)) ?? nil)
        case .ask(let wake):
            return rasterState.arrivals.answer(
                for: SourceDataKey(source: source.id, address: address), source: source, address: address, wake: wake)
        }
    }
}

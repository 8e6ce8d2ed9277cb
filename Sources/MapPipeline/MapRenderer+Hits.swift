import MapData
import MapDrawing
import MapGeometry
import MapLayout

/// One label drawn in the last frame, with what a tap handler needs to hit-test it and to name the feature.
public struct PlacedSymbolHit: Sendable {
    /// The style layer id (e.g. `poi-label`).
    public var layerID: String
    /// The style layer's `source-layer` (e.g. `poi`), or nil.
    public var sourceLayer: String?
    /// The MVT feature id, when the tile has one (tilemaker tiles built with `include_ids: false` have none).
    public var featureID: UInt64?
    /// The drawn label text (after `text-transform`); for icon-only symbols an internal `icon:<n>` key.
    public var text: String
    /// The feature's `name` property (falling back to `name:latin`), when the feature was found; else nil.
    public var name: String?
    /// The feature's `class` property (OpenMapTiles schema), when present.
    public var featureClass: String?
    /// The feature's `subclass` property (OpenMapTiles schema), when present.
    public var subclass: String?
    /// The label's anchor (for point features: the feature's position), WGS 84 degrees (Web Mercator inverse).
    public var anchor: LatLng
    /// The anchor on screen, in points (origin top-left, y down).
    public var screenAnchor: ScreenPoint
    /// The drawn text's collision bounds on screen in points (text padding included), nil without text.
    public var textBounds: RenderRect?
    /// The drawn icon's rectangle on screen in points, nil without an icon.
    public var iconBounds: RenderRect?
    /// Drawing order: layers bottom to top, then placement order. A larger value is drawn later (on top).
    public var drawOrder: Int
}

extension MapRenderer {
    /// The labels placed in the last ``displayList(camera:scale:overlay:)`` frame, in drawing order (bottom first;
    /// the last element is drawn on top). Empty before the first frame. Feature properties are looked up in the
    /// cached tiles on each access (O(placed labels × features of their tile layer)), so call it on a tap, not per
    /// frame. Thread rules: those of the renderer.
    public var lastPlacedSymbols: [PlacedSymbolHit] {
        guard let (candidates, placement) = labels.lastLabels else { return [] }
        let order = placement.symbols.indices.sorted {
            (placement.symbols[$0].layerIndex, $0) < (placement.symbols[$1].layerIndex, $1)
        }
        var out: [PlacedSymbolHit] = []
        out.reserveCapacity(order.count)
        for (rank, i) in order.enumerated() {
            let placed = placement.symbols[i]
            guard layers.indices.contains(placed.layerIndex) else { continue }
            let layer = layers[placed.layerIndex]
            var hit = PlacedSymbolHit(
                layerID: placed.identity.layer, sourceLayer: layer.layer.sourceLayer,
                featureID: placed.identity.featureID, text: placed.identity.text,
                anchor: WebMercator.latLng(placed.anchor), screenAnchor: placed.screenAnchor,
                textBounds: placed.text == nil ? nil : placed.textBounds, iconBounds: placed.iconRect,
                drawOrder: rank)
            if candidates.indices.contains(placed.featureIndex),
                let feature = sourceFeature(of: candidates[placed.featureIndex], layer: layer)
            {
                func string(_ key: String) -> String? { feature.value(forKey: key)?.stringValue }
                hit.name = string("name") ?? string("name:latin")
                hit.featureClass = string("class")
                hit.subclass = string("subclass")
            }
            out.append(hit)
        }
        return out
    }

    /// The tile feature a point symbol was built from: same id when the symbol has one, else the feature whose
    /// point (or polygon label point) projects exactly to the symbol's anchor. Nil for line symbols or when the tile
    /// left the cache.
    private func sourceFeature(of symbol: SymbolFeature, layer: CompiledLayer) -> VectorTileFeature? {
        guard let tile = symbol.ownerTile, let sourceID = layer.layer.source,
            case .point(let anchor) = symbol.geometry
        else { return nil }
        let features = preparedFeatures(sourceID: sourceID, sourceLayer: layer.layer.sourceLayer ?? "", tile: tile)
        if let id = symbol.identity.featureID {
            return features.first { $0.feature.id == id }?.feature
        }
        let tolerance = 1e-12
        func near(_ w: WorldPoint) -> Bool { abs(w.x - anchor.x) < tolerance && abs(w.y - anchor.y) < tolerance }
        for f in features {
            let extent = f.feature.extent
            switch f.geometry {
            case .points(let points):
                for p in points
                where near(TileProjector.world(Double(p.x), Double(p.y), tile: tile, extent: extent)) {
                    return f.feature
                }
            case .polygons:
                for lp in f.labelPoints where near(TileProjector.world(lp.x, lp.y, tile: tile, extent: extent)) {
                    return f.feature
                }
            default: break
            }
        }
        return nil
    }
}

import MapData
import MapLayout
import MapStyle

// What a fill-extrusion layer's frame needs of a tile's prepared draws that does not change from frame to frame: per
// feature its height, base and colour (evaluated from the feature and the zoom the draws were prepared at, as MapLibre
// evaluates them per feature per zoom), per polygon its tile-unit bounds and winding. Kept next to the draws (keyed by
// the draws' own key and checked against the very draws array the engine returned), so a frame only projects and
// rasterises.

/// One polygon of a fill-extrusion feature: its rings (tile units), their bounds and the solid's winding (twice the
/// outer ring's signed area, y down; positive for the vector tile spec's outer rings).
struct ExtrusionPolygon {
    let rings: [[VectorTilePoint]]
    let minX: Double
    let minY: Double
    let maxX: Double
    let maxY: Double
    let winding: Double
    /// Whether the polygon has a point (the bounds are finite).
    var hasPoints: Bool { minX <= maxX }
}

/// One fill-extrusion feature of a tile's prepared draws, with its style values at the draws' zoom.
struct ExtrusionFeature {
    /// Its index in the draws (for its evaluation context).
    let draw: Int
    let extent: Int
    /// `fill-extrusion-height` (≥ 0) and `fill-extrusion-base` (0…height), metres.
    let height: Double
    let base: Double
    /// `fill-extrusion-color` (black when it evaluates to no colour).
    let color: StyleColor
    let polygons: [ExtrusionPolygon]
}

/// The prepared extrusion features of the tiles a layer drew in the last frames, keyed like the tiles' draws.
final class ExtrusionFeatureCache {
    private struct Entry {
        /// The draws they were computed from (held, so their storage identifies them).
        let draws: [TileDraw]
        let features: [ExtrusionFeature]
        var frame: Int
    }

    private var entries: [TileDrawKey: Entry] = [:]
    private var frame = 0

    /// Starts a frame: entries no frame used since the one before the last are dropped.
    func beginFrame() {
        frame += 1
        guard !entries.isEmpty else { return }
        let oldest = frame - 2
        entries = entries.filter { $0.value.frame >= oldest }
    }

    /// Drops every entry.
    func removeAll() { entries = [:] }

    /// The extrusion features of `draws` (the prepared draws of `layer` under `key`): the kept ones when `draws` is the
    /// array they were computed from, else computed (and kept).
    func features(_ layer: CompiledLayer, key: TileDrawKey, draws: [TileDraw]) -> [ExtrusionFeature] {
        if var entry = entries[key], entry.draws.sharesStorage(with: draws) {
            if entry.frame != frame {
                entry.frame = frame
                entries[key] = entry
            }
            return entry.features
        }
        let features = Self.prepare(layer, draws)
        entries[key] = Entry(draws: draws, features: features, frame: frame)
        return features
    }

    private static func prepare(_ layer: CompiledLayer, _ draws: [TileDraw]) -> [ExtrusionFeature] {
        var out: [ExtrusionFeature] = []
        out.reserveCapacity(draws.count)
        let colorProperty = layer.layer.property("fill-extrusion-color")
        for (index, draw) in draws.enumerated() {
            guard case .polygons(let polygons) = draw.feature.geometry else { continue }
            let ctx = draw.context
            let height = max(0, layer.number("fill-extrusion-height", ctx, 0))
            let base = min(max(0, layer.number("fill-extrusion-base", ctx, 0)), height)
            let color = colorProperty?.evaluate(ctx).color ?? StyleColor(red: 0, green: 0, blue: 0, alpha: 1)
            let prepared = polygons.map { polygon in
                var (minX, minY) = (Double.infinity, Double.infinity)
                var (maxX, maxY) = (-Double.infinity, -Double.infinity)
                for ring in polygon {
                    for point in ring {
                        minX = min(minX, Double(point.x))
                        maxX = max(maxX, Double(point.x))
                        minY = min(minY, Double(point.y))
                        maxY = max(maxY, Double(point.y))
                    }
                }
                return ExtrusionPolygon(
                    rings: polygon, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                    winding: polygon.first.map { MapRenderer.signedArea($0) } ?? 0)
            }
            out.append(
                ExtrusionFeature(
                    draw: index, extent: draw.feature.feature.extent, height: height, base: base, color: color,
                    polygons: prepared))
        }
        return out
    }
}

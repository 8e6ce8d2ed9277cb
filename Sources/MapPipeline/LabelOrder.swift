import MapGeometry
import MapLayout

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The order in which MapLibre Native offers a symbol layer's tiles and their symbols to placement, so that labels
/// of equal priority win collisions as they do there.
///
/// - **Tiles** (`RenderTileSource::getRenderTilesSortedByYPosition`): finer tiles first, then by the tile's canonical
///   `(y, x)` turned with the map's bearing, that is top of the screen first and, along a row, left first. Copies of
///   one tile in other worlds tie there (MapLibre leaves their order open); they keep west before east here.
/// - **Symbols of a layer with `symbol-sort-key`** (`SymbolLayout`): each feature is inserted before the features
///   with an equal key already in the bucket, so among equal keys a tile offers its later features first. Layers
///   without keys keep the tile's feature order.
///
/// Placement itself sorts by layer and key first (``SymbolPlacer``); this order decides what is left:
/// ``SymbolFeature/sourceOrder``.
enum LabelOrder {
    /// The indices of `tiles` in MapLibre's placement order for a map turned by `bearing` (degrees clockwise).
    static func tileOrder(_ tiles: [TileID], bearing: Double) -> [Int] {
        // MapLibre's state bearing is the negated compass bearing, in radians; `util::rotate` turns (x, y) by it.
        let angle = bearing.isFinite ? -bearing * .pi / 180 : 0
        let c = cos(angle)
        let s = sin(angle)
        let keys = tiles.map { t -> (z: Int, y: Double, x: Double, unwrapped: Int) in
            let x = Double(t.x)
            let y = Double(t.y)
            return (t.z, s * x + c * y, c * x - s * y, t.unwrappedX)
        }
        return tiles.indices.sorted { a, b in
            let p = keys[a]
            let q = keys[b]
            if p.z != q.z { return p.z > q.z }
            if p.y != q.y { return p.y < q.y }
            if p.x != q.x { return p.x < q.x }
            return p.unwrapped < q.unwrapped
        }
    }

    /// `symbols` (one tile's candidates of one layer, in feature order) numbered from `next` on in the order the
    /// tile offers them to placement: reversed when the layer sorts by `symbol-sort-key` (MapLibre inserts each
    /// feature before its equal keys), else as given. The symbols of one feature keep their order.
    static func number(_ symbols: inout [SymbolFeature], sortsByKey: Bool, from next: inout Int) {
        guard sortsByKey, symbols.count > 1 else {
            for i in symbols.indices {
                symbols[i].sourceOrder = next
                next += 1
            }
            return
        }
        // Runs of one feature (its points or lines, consecutive and of one identity) keep their inner order.
        var runs: [Range<Int>] = []
        var start = 0
        for i in 1...symbols.count where i == symbols.count || symbols[i].identity != symbols[start].identity {
            runs.append(start..<i)
            start = i
        }
        for run in runs.reversed() {
            for i in run {
                symbols[i].sourceOrder = next
                next += 1
            }
        }
    }
}

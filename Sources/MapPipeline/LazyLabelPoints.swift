// Polygon label points computed when a symbol layer first reads them. MapLibre Native runs polylabel in the symbol
// layout, for the features a symbol layer draws; preparing a tile for every polygon of every source layer (water,
// land use, buildings) cost more than the rest of the preparation (issue 33's cold frames).
import MapData
import Synchronization

/// The label points of one prepared tile's polygon features, each computed on first read and kept. The source
/// geometry a point set is computed from (the feature before clipping, so every covering tile agrees on its points)
/// is held until then and released after. Thread rules: any thread; a feature's points are computed once, under the
/// store's lock.
final class LabelPointStore: Sendable {
    private enum Entry {
        /// Not read yet: the feature's unclipped geometry and tile extent.
        case pending(VectorTileGeometry, extent: Int)
        /// Read: the points in the covering tile's units.
        case done([(x: Double, y: Double)])
    }

    private let plan: OverzoomTransform
    private let entries: Mutex<[Entry]>

    /// An empty store for a covering tile read from its source tile through `plan`.
    init(plan: OverzoomTransform) {
        self.plan = plan
        entries = Mutex([])
    }

    /// Keeps a polygon feature's unclipped `geometry` (`extent`: its tile extent) for later; returns its index for
    /// ``points(_:)``. Preparation only, before the store is shared.
    func add(_ geometry: VectorTileGeometry, extent: Int) -> Int {
        entries.withLock { entries in
            entries.append(.pending(geometry, extent: extent))
            return entries.count - 1
        }
    }

    /// The label points of the feature at `index` (from ``add(_:extent:)``): ``labelPoints(_:plan:extent:)`` of its
    /// geometry, computed on the first call.
    func points(_ index: Int) -> [(x: Double, y: Double)] {
        entries.withLock { entries in
            guard entries.indices.contains(index) else { return [] }
            switch entries[index] {
            case .done(let points): return points
            case .pending(let geometry, let extent):
                let points = labelPoints(geometry, plan: plan, extent: extent)
                entries[index] = .done(points)
                return points
            }
        }
    }
}

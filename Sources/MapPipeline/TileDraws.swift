import MapData
import MapDrawing
import MapGeometry
import MapStyle

// Tile preparation for frame composition: one style layer's features over one tile, filtered, sorted, styled and
// tessellated once in tile space (`TileDraw`), so a frame only projects the prepared vertices through the camera
// (`MapRenderer.drawLayer`). Pitched or rotated frames keep them in the renderer's group of the shared `MapEngine` (per layer, tile and zoom), so
// tilting or turning the map re-projects meshes and rings instead of re-tessellating them.

/// The cache key of one layer's prepared draws over one tile: the layer's style index, the canonical tile and the
/// exact style zoom the paint was evaluated at.
struct TileDrawKey: Hashable, Sendable {
    let layer: Int
    let tile: TileID
    let zoom: Double
}

/// `<prefix>-translate` of one feature as set in the style: the offset in points and whether it is anchored to the
/// viewport (`"viewport"`) instead of the map.
struct TranslateSetting: Sendable {
    var offset: ScreenPoint
    var viewport: Bool
}

/// A solid fill's paint, evaluated for one feature at one zoom (`fill-pattern` fills stay per-frame features).
struct FillStyle: Sendable {
    var color: RGBAColor
    var opacity: Double
    var antialias: Bool
    /// `fill-outline-color` when it is drawn (antialiased, no pattern), else `nil`.
    var outline: RGBAColor?
    /// Whether ``outline`` is the fill colour because the style sets no `fill-outline-color` (see
    /// ``MapRenderer/drawsOutline(_:_:)``).
    var outlineIsDefault = false
    var translate: TranslateSetting?

    /// Whether the fill covers what is under it completely (an opaque colour at full opacity).
    var isOpaque: Bool { color.alpha >= 1 && opacity >= 1 }
}

/// Pushes the parts of an opaque fill's rings that run exactly along its tile's edge (both ends of a segment at 0 or
/// at `extent` on the same axis) a 256th of the tile outward, joined to the ring by short jogs along the edge's
/// normal. Data cut along a tile edge with no buffer (the world's water at 0° and 180°, split there by the shoreline
/// data) otherwise ends each half exactly at the edge, so both neighbouring tile images anti-alias the same boundary
/// pixel and the background shows through as a one-pixel seam; MapLibre's fills are not anti-aliased, so its tiles
/// never show it. Only the strip outside the tile is added, where it is clipped away or covered by the neighbour; no
/// edge inside the tile moves. An opaque fill overlapping itself looks the same; a translucent one would darken the
/// overlap, so it keeps its rings as they are.
struct TileEdge {
    let extent: Int32
    let margin: Double
    let active: Bool

    init(extent: Int, opaque: Bool) {
        self.extent = Int32(clamping: extent)
        margin = Double(max(1, extent)) / 256
        active = opaque && extent > 0
    }

    /// The outward offset of the segment `a`–`b` when it runs along an edge of the tile, else `nil`.
    @inline(__always) private func outward(_ a: VectorTilePoint, _ b: VectorTilePoint) -> (Double, Double)? {
        guard a != b else { return nil }
        if a.x == b.x && (a.x == 0 || a.x == extent) { return (a.x == 0 ? -margin : margin, 0) }
        if a.y == b.y && (a.y == 0 || a.y == extent) { return (0, a.y == 0 ? -margin : margin) }
        return nil
    }

    /// `ring` as tile-unit (x, y) pairs, its segments along the tile's edge pushed outward.
    func ring(_ ring: [VectorTilePoint]) -> [Double] {
        var pts: [Double] = []
        pts.reserveCapacity(ring.count * 2)
        for (i, a) in ring.enumerated() {
            pts.append(Double(a.x))
            pts.append(Double(a.y))
            guard active, ring.count >= 3 else { continue }
            let b = ring[i + 1 < ring.count ? i + 1 : 0]
            guard let (dx, dy) = outward(a, b) else { continue }
            pts += [Double(a.x) + dx, Double(a.y) + dy, Double(b.x) + dx, Double(b.y) + dy]
        }
        return pts
    }
}

/// A line's paint and layout, evaluated for one feature at one zoom.
struct LineStyle: Sendable {
    var paint: LinePaint
    var width: Double
    var gapWidth: Double
    var offset: Double
    var blur: Double
    var opacity: Double
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    var roundLimit: Double
    var translate: TranslateSetting?
}

/// One feature of one layer, prepared in tile space.
struct TileDraw: Sendable {
    enum Kind: Sendable {
        /// Rings `[x0, y0, …]` in tile units as the tile holds them (unclipped).
        case fill(FillStyle, rings: [[Double]])
        /// The feature's triangles in MapLibre's tile units (extent 8192), unclipped.
        case line(LineStyle, mesh: LineMesh)
        /// Drawn from the feature every frame (pattern fills, circles).
        case feature
    }

    let feature: PreparedFeature
    let context: EvaluationContext
    let kind: Kind
    /// The tile-unit bounds of the prepared geometry (for the depth-range test under pitch).
    var minX = -Double.infinity
    var minY = -Double.infinity
    var maxX = Double.infinity
    var maxY = Double.infinity

    /// Approximate bytes held (for the cache's byte bound).
    var cost: Int {
        switch kind {
        case .fill(_, let rings): return 96 + rings.reduce(0) { $0 + $1.count * 8 + 32 }
        case .line(_, let mesh):
            return 160 + mesh.vertices.count * MemoryLayout<LineMeshVertex>.stride + mesh.indices.count * 4
        case .feature: return 96
        }
    }
}

extension MapRenderer {
    /// The prepared draws of `layer` over `tile` at `zoom`, in the layer's drawing order (`*-sort-key`, then source
    /// order); from and into the engine (``MapEngine``) when `cached` and the tile's data is ready. `tilePoints` is the flat
    /// size of the tile in points at `zoom` (it sizes polygon-outline extensions).
    func preparedDraws(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, tilePoints: Double, cached: Bool
    ) -> [TileDraw] {
        let key = TileDrawKey(layer: layer.index, tile: tile.canonical, zoom: zoom)
        if cached, case .draws(let hit)? = engine.value(.draws(group: group, key: key)) {
            tileDrawsReused += 1
            return hit
        }
        guard let sourceID = layer.layer.source else { return [] }
        let features = preparedFeatures(sourceID: sourceID, sourceLayer: layer.layer.sourceLayer ?? "", tile: tile)
        // `fill-sort-key`, `line-sort-key`, `circle-sort-key`: within a tile, features draw in ascending key order
        // (stable: equal keys keep source order); a feature without a key counts as 0.
        var order: [(PreparedFeature, EvaluationContext)] = []
        order.reserveCapacity(features.count)
        // A rejected feature costs no allocation (``FilterPassFeature``); a kept one gets its own context.
        var ctx = EvaluationContext(zoom: zoom)
        FilterPassFeature.forEachMatch(features, tile: tile, matcher: layer.filterMatcher(zoom: zoom), zoom: zoom) {
            f in
            ctx.feature = TileFeature(f, tile: tile)
            order.append((f, ctx))
        }
        let sortKey = "\(layer.type.rawValue)-sort-key"
        if layer.isSet(sortKey) {
            let keys = order.map { layer.number(sortKey, $0.1, 0) }
            let sorted = order.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            order = sorted.map { order[$0] }
        }
        var draws: [TileDraw] = []
        draws.reserveCapacity(order.count)
        // Paint and layout no feature drives (zoom-only or constant: most layers) are evaluated once for the layer and
        // tile, from the first feature's context; `.some(nil)` means the layer draws nothing at this zoom.
        let shared = layer.isStyleFeatureConstant
        var sharedFill: FillStyle?? = nil
        var sharedLine: LineStyle?? = nil
        for (f, ctx) in order {
            switch layer.type {
            case .fill:
                if layer.isSet("fill-pattern") {
                    draws.append(TileDraw(feature: f, context: ctx, kind: .feature))
                    continue
                }
                let style: FillStyle?
                if shared, let known = sharedFill {
                    style = known
                } else {
                    style = fillStyle(layer, ctx)
                    if shared { sharedFill = .some(style) }
                }
                guard let style else { continue }
                if let draw = prepareFill(f, ctx, style) { draws.append(draw) }
            case .line:
                let style: LineStyle?
                if shared, let known = sharedLine {
                    style = known
                } else {
                    style = lineStyle(layer, ctx)
                    if shared { sharedLine = .some(style) }
                }
                guard let style else { continue }
                let ppu = tilePoints / Double(max(1, f.feature.extent))
                if let draw = prepareLine(f, ctx, style, pointsPerUnit: ppu) { draws.append(draw) }
            default: draws.append(TileDraw(feature: f, context: ctx, kind: .feature))
            }
        }
        if cached && hasAllData(tile.canonical) {
            engine.insert(.draws(draws), for: .draws(group: group, key: key), cost: draws.reduce(64) { $0 + $1.cost })
            tileDrawsPrepared += 1
        }
        return draws
    }

    /// `nil` when the feature draws nothing.
    private func prepareFill(_ f: PreparedFeature, _ ctx: EvaluationContext, _ style: FillStyle) -> TileDraw? {
        guard case .polygons(let polygons) = f.geometry else { return nil }
        var rings: [[Double]] = []
        var box = BoundsAccumulator()
        let edge = TileEdge(extent: f.feature.extent, opaque: style.isOpaque)
        for polygon in polygons {
            for ring in polygon {
                let pts = edge.ring(ring)
                for k in stride(from: 0, to: pts.count - 1, by: 2) { box.add(pts[k], pts[k + 1]) }
                rings.append(pts)
            }
        }
        return TileDraw(
            feature: f, context: ctx, kind: .fill(style, rings: rings), minX: box.minX, minY: box.minY,
            maxX: box.maxX, maxY: box.maxY)
    }

    /// `nil` when the feature draws nothing.
    private func prepareLine(
        _ f: PreparedFeature, _ ctx: EvaluationContext, _ style: LineStyle, pointsPerUnit: Double
    ) -> TileDraw? {
        // Unclipped: a flat projector clips nothing.
        let flat = TileProjector(affine: pointsPerUnit, 0, 0, pointsPerUnit, 0, 0)
        let mesh = tessellate(f.geometry, style, flat, extent: f.feature.extent)
        guard !mesh.isEmpty else { return nil }
        var box = BoundsAccumulator()
        let u = Double(max(1, f.feature.extent)) / 8192
        for v in mesh.vertices { box.add(v.center.x * u, v.center.y * u) }
        return TileDraw(
            feature: f, context: ctx, kind: .line(style, mesh: mesh), minX: box.minX, minY: box.minY, maxX: box.maxX,
            maxY: box.maxY)
    }
}

/// The bounds of added points (empty: infinite inverted bounds).
private struct BoundsAccumulator {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity

    mutating func add(_ x: Double, _ y: Double) {
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x)
        maxY = max(maxY, y)
    }
}

// The source-tile stage: which source tile a covering tile reads (over-zoom plan), fetching ahead from asynchronous
// sources, decoding, preparing (over-zoom, clip, label points), read failures and retries. Its caches are the
// engine's (`EngineKey.decoded`, `.prepared`); it never draws. Owned by a `MapRenderer` (the facade), one per
// renderer and lane; the renderer's tile supply decides whether a missing prepared tile is made here now or comes
// from the workers (TileSupply.swift).
import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// The source-tile stage of a renderer (MapLibre Native's tile pyramid and sources): the resolved sources, the
/// answers fetched ahead for the current frame or job, failed tiles' retries, and decoding and preparing through the
/// engine's store. Thread rules: one thread (its renderer's); the engine and tiles it shares are thread-safe.
final class SourceTiles {
    /// The style's sources that have a tile source, by id.
    let sources: [String: ResolvedSource]
    /// The sources that answer tile requests later (network; ``TileSource/isAsynchronous``), by id.
    let asynchronousSources: [ResolvedSource]
    /// The (source id, source layer) pairs the style's non-background layers read, in a stable order (asynchronous
    /// mode: what a tile needs prepared before its labels draw).
    let usedSourceLayers: [(String, String)]
    /// The store decoded and prepared tiles are cached in (shared with other renderers).
    let engine: MapEngine
    /// Points a vector tile covers at its own zoom (``MapRenderOptions/tileSize``; the renderer keeps it in step).
    var tileSize: Double
    /// Where unusable tiles are reported (``MapRenderOptions/rasterProblems``; kept in step by the renderer).
    var problems: RasterProblemReporter
    /// The answers the current frame (synchronous mode, fetched ahead) or job (a worker) got from asynchronous
    /// sources.
    var fetched: [SourceDataKey: TileLoadResult] = [:]
    /// Tiles a source failed to give, retried with backoff on the renderer's clock (AsyncTiles.swift).
    var retries = TileRetrySchedule()
    /// Source tiles decoded since the renderer last took the count (``FrameStatistics/tilesDecoded``).
    var decodedCount = 0

    /// A stage over `sources` for the style's compiled `layers`, caching in `engine`.
    init(
        sources: [String: ResolvedSource], layers: [CompiledLayer], engine: MapEngine, tileSize: Double,
        problems: RasterProblemReporter
    ) {
        self.sources = sources
        asynchronousSources = sources.values.filter(\.tiles.isAsynchronous).sorted { $0.id < $1.id }
        usedSourceLayers = Self.sourceLayers(of: layers, in: sources)
        self.engine = engine
        self.tileSize = tileSize
        self.problems = problems
    }

    /// The (source id, source layer) pairs `layers`' non-background layers read from `sources`, in a stable order
    /// (``usedSourceLayers``, computed once when the stage is made).
    static func sourceLayers(of layers: [CompiledLayer], in sources: [String: ResolvedSource]) -> [(String, String)] {
        var seen = Set<String>()
        var out: [(String, String)] = []
        for layer in layers where layer.type != .background {
            guard let s = layer.layer.source, sources[s] != nil else { continue }
            let l = layer.layer.sourceLayer ?? ""
            if seen.insert(s + "\u{0}" + l).inserted { out.append((s, l)) }
        }
        return out
    }

    /// The source tiles decoded since the last call (the frame's ``FrameStatistics/tilesDecoded``).
    func takeDecodedCount() -> Int {
        defer { decodedCount = 0 }
        return decodedCount
    }

    /// The source tile a covering tile reads (`nil`: below the source's `minzoom`), over-zoomed from its `maxzoom`.
    func sourceKey(_ source: ResolvedSource, _ tile: TileID) -> SourceTileKey? {
        guard tile.z >= source.minZoom else { return nil }
        let address = tile.canonical
        guard let plan = overzoomPlan(for: address, minZoom: source.minZoom, maxZoom: source.maxZoom) else {
            return nil
        }
        return SourceTileKey(source: source.id, address: plan.source, plan: plan)
    }

    func decodedTile(_ source: ResolvedSource, _ key: SourceTileKey) -> DecodedTile {
        let cacheKey = EngineKey.decoded(source: source.dataID, address: key.address)
        if case .decoded(let hit)? = engine.value(cacheKey) { return hit }
        let bytes: [UInt8]?
        if let answer = fetched[SourceDataKey(source: key.source, address: key.address)] {
            // Fetched ahead (asynchronous sources); a failure is not cached, so a later frame asks again.
            switch answer {
            case .success(let fetched): bytes = fetched
            case .failure(let error):
                reportReadFailure(source, key.address, error)
                return DecodedTile(bytes: nil)
            }
        } else {
            do { bytes = try source.tiles.tileData(at: key.address) } catch {
                reportReadFailure(source, key.address, error)
                bytes = nil
            }
        }
        let tile = DecodedTile(bytes: bytes)
        if source.isVector, let vector = tile.tile {
            do throws(VectorTileError) { _ = try vector.layers() } catch {
                problems.report(
                    SourceProblem(
                        source: source.id, url: location(source, key.address),
                        message: "not a vector tile (\(error)); drawn as no tile"))
            }
        }
        decodedCount += 1
        engine.insert(.decoded(tile), for: cacheKey, cost: max(256, (bytes?.count ?? 0) * 6))
        return tile
    }

    /// Where `address` of `source` comes from, for reports: its URL or file and row (``TileLocating``).
    func location(_ source: ResolvedSource, _ address: TileID) -> String {
        (source.tiles as? any TileLocating)?.location(of: address) ?? "tile \(address.z)/\(address.x)/\(address.y)"
    }

    /// Reports a tile the source could not read (unless the source reports its own failures).
    func reportReadFailure(_ source: ResolvedSource, _ address: TileID, _ error: any Error) {
        if (source.tiles as? any TileLocating)?.reportsOwnFailures == true { return }
        problems.report(
            SourceProblem(source: source.id, url: location(source, address), message: "\(error); drawn as no tile"))
    }

    /// How far beyond a tile's edges, in points at the tile's own zoom, point features are kept: a tile image draws
    /// the circle of a point in this margin, so circles whose radius + stroke width + blur is at most this appear
    /// whole across tile edges (MapLibre draws a circle from every tile whose buffer holds the point).
    static let pointBufferPoints = 32.0

    /// ``pointBufferPoints`` in units of a layer with `extent` (at least 1/256 of the extent, as polygons).
    func pointBuffer(extent: Int) -> Int {
        let side = tileSize.isFinite && tileSize > 0 ? tileSize : 256
        let units = (Self.pointBufferPoints / side * Double(extent)).rounded(.up)
        return max(extent / 256, Int(min(units, Double(extent))))
    }

    /// Synchronous frames over asynchronous sources (snapshots): fetches every source tile of `tiles` not decoded
    /// yet (`addresses` gives a source's tiles for a covering tile; `decodedRaster` tells the raster tiles decoded
    /// already), all at once, and waits for the answers (``fetched``), so the frame is the settled one. The sources
    /// bound the wait (timeouts and retries).
    func prefetchAsynchronousSources(
        _ tiles: [TileID], addresses: (ResolvedSource, TileID) -> [TileID], decodedRaster: (SourceDataKey) -> Bool
    ) {
        guard !asynchronousSources.isEmpty else { return }
        var wanted: [(ResolvedSource, SourceDataKey)] = []
        var seen = Set<SourceDataKey>()
        for tile in tiles {
            for source in asynchronousSources {
                for address in addresses(source, tile)
                where !engine.contains(.decoded(source: source.dataID, address: address))
                    && !decodedRaster(SourceDataKey(source: source.id, address: address))
                {
                    let key = SourceDataKey(source: source.id, address: address)
                    if seen.insert(key).inserted { wanted.append((source, key)) }
                }
            }
        }
        guard !wanted.isEmpty else { return }
        let answers = FetchAnswers(expected: wanted.count)
        for (i, (source, key)) in wanted.enumerated() {
            _ = source.tiles.requestTile(at: key.address, priority: Double(i)) { answers.add(key, $0) }
        }
        fetched = answers.wait()
    }

    /// The engine key of `source`'s prepared `sourceLayer` for `tile`.
    func preparedKey(_ source: ResolvedSource, sourceLayer: String, tile: TileID) -> EngineKey {
        .prepared(source: source.dataID, layer: sourceLayer, tile: tile.canonical, tileSize: tileSize)
    }

    /// The prepared tile the engine keeps under `key`, if any.
    func cachedPreparedTile(_ key: EngineKey) -> PreparedTile? {
        if case .prepared(let hit)? = engine.value(key) { return hit }
        return nil
    }

    /// Whether every used source layer of `tile` is prepared (asynchronous mode: the frame may build its labels).
    func tileDataReady(_ tile: TileID) -> Bool {
        for (sourceID, sourceLayer) in usedSourceLayers {
            guard let source = sources[sourceID], sourceKey(source, tile) != nil else { continue }
            let key = EngineKey.prepared(source: source.dataID, layer: sourceLayer, tile: tile, tileSize: tileSize)
            if !engine.contains(key) { return false }
        }
        return true
    }

    /// Prepares `source`'s `sourceLayer` for `tile` from its decoded source tile and caches it under `key` (`nil`:
    /// the tile is outside the source's zoom range).
    func prepareTile(_ source: ResolvedSource, sourceLayer: String, tile: TileID, key: EngineKey) -> PreparedTile? {
        guard let sk = sourceKey(source, tile), let plan = sk.plan else { return nil }
        let data = decodedTile(source, sk)
        var out: [PreparedFeature] = []
        var cost = 64
        let labels = LabelPointStore(plan: plan)
        for f in data.features(layer: sourceLayer) {
            let extent = f.feature.extent
            guard extent >= 16 && extent <= 1 << 24 else { continue }
            // Lines keep a wider margin so joins and caps at the tile edge draw; points one wide enough for the
            // circle of a point across the edge (``pointBufferPoints``); polygons a small overlap against
            // anti-aliasing seams.
            let buffer: Int
            switch f.geometry {
            case .lineStrings: buffer = extent / 32
            case .points: buffer = pointBuffer(extent: extent)
            default: buffer = extent / 256
            }
            // Over-zoomed: a feature whose bounds lie a unit or more beyond one edge of the box has nothing in it
            // (each of its lines, rings and points would be dropped by the clipper), so it is skipped unread.
            if plan.scale > 1, let b = f.bounds {
                let low = plan.apply(x: Double(b.minX), y: Double(b.minY), extent: extent)
                let high = plan.apply(x: Double(b.maxX), y: Double(b.maxY), extent: extent)
                let lo = Double(-buffer) - 1
                let hi = Double(extent + buffer) + 1
                if high.x < lo || low.x > hi || high.y < lo || low.y > hi { continue }
            }
            // Lines reach the tessellator as MapLibre's line bucket takes them: whole at the tile's own zoom, and
            // over-zoomed pieces with a lead-in that restores their distance along the ancestor's line. Distances
            // along the line (dash and pattern phase) then match MapLibre's, and a GeoJSON piece's line metrics
            // (`mapbox_clip_start/end`) describe all of it. Tiles clip their lines to the tile when drawn.
            let geometry: VectorTileGeometry
            switch (f.geometry, plan.scale == 1) {
            case (.lineStrings, true): geometry = f.geometry
            case (.lineStrings(let lines), false):
                geometry = .lineStrings(
                    overzoomLinesKeepingDistance(lines, transform: plan, extent: extent, buffer: buffer))
            case (_, true): geometry = clipGeometry(f.geometry, extent: extent, buffer: buffer)
            case (_, false): geometry = overzoomGeometry(f.geometry, transform: plan, extent: extent, buffer: buffer)
            }
            let n = geometry.pointCount
            if n == 0 { continue }
            cost += 48 + n * 8
            let label: Int? =
                if case .polygons = f.geometry { labels.add(f.geometry, extent: extent) } else { nil }
            out.append(PreparedFeature(feature: f.feature, geometry: geometry, labels: label.map { (labels, $0) }))
        }
        let made = PreparedTile(features: out, cost: cost)
        engine.insert(.prepared(made), for: key, cost: cost)
        return made
    }
}

struct SourceTileKey: Hashable, Sendable {
    let source: String
    let address: TileID
    let plan: OverzoomTransform?
}

struct PreparedKey: Hashable, Sendable {
    let source: String
    let layer: String
    let tile: TileID
}
/// Immutable once made, so the asynchronous worker hands it to the frame's thread as is.
final class PreparedTile: Sendable {
    let features: [PreparedFeature]
    /// The byte estimate it was cached with.
    let cost: Int
    init(features: [PreparedFeature], cost: Int) {
        self.features = features
        self.cost = cost
    }
}

/// A feature with geometry in the covering tile's units.
struct PreparedFeature: Sendable {
    let feature: VectorTileFeature
    let geometry: VectorTileGeometry
    /// Where a polygon's label points are kept (the tile's store and the feature's index in it); `nil` otherwise.
    let labels: (store: LabelPointStore, index: Int)?

    /// For polygons: one label point per polygon of the source feature (its pole of inaccessibility), in the
    /// covering tile's units, computed from the feature before clipping so every covering tile agrees on them (on
    /// the first read: ``LabelPointStore``); empty otherwise.
    var labelPoints: [(x: Double, y: Double)] { labels.map { $0.store.points($0.index) } ?? [] }
}

/// One label point per polygon, as MapLibre Native places a point symbol on each polygon of a multipolygon: the
/// polygon's pole of inaccessibility (``poleOfInaccessibility(_:precision:)``) to one pixel of a 512-pixel tile,
/// mapped through the over-zoom plan; empty for non-polygons.
func labelPoints(_ geometry: VectorTileGeometry, plan: OverzoomTransform, extent: Int) -> [(x: Double, y: Double)] {
    guard case .polygons(let polygons) = geometry else { return [] }
    let precision = Double(extent) / 512 / Double(max(1, plan.scale))
    var out: [(x: Double, y: Double)] = []
    for polygon in polygons {
        let rings = polygon.map { ring in ring.map { (x: Double($0.x), y: Double($0.y)) } }
        guard let p = poleOfInaccessibility(rings, precision: precision) else { continue }
        let q = plan.apply(x: p.x, y: p.y, extent: extent)
        out.append((q.x, q.y))
    }
    return out
}

/// The answers a synchronous frame waits for (``SourceTiles/prefetchAsynchronousSources(_:addresses:decodedRaster:)``).
private final class FetchAnswers: @unchecked Sendable {
    private let condition = NSCondition()
    private var answers: [SourceDataKey: TileLoadResult] = [:]
    private let expected: Int

    init(expected: Int) { self.expected = expected }

    func add(_ key: SourceDataKey, _ result: TileLoadResult) {
        condition.lock()
        answers[key] = result
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> [SourceDataKey: TileLoadResult] {
        condition.lock()
        defer { condition.unlock() }
        while answers.count < expected { condition.wait() }
        return answers
    }
}

// MapEngine — the process's one tile store: what every renderer (map view, snapshotter, asynchronous worker, tile
// thread) on the same data shares, under one byte budget.
import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

/// The tile engine of a process: the tile sources, decoded source tiles, prepared (over-zoomed, clipped) tiles,
/// symbol candidates, rasterised tile images, raster-layer tiles and the backends' label sprites of every
/// ``MapRenderer`` that uses it, in one least-recently-used store bounded by ``byteBudget`` (Waymark's own; issue 17).
///
/// Sharing rules: renderers share decoded and prepared tiles when their sources are the same data (a source that
/// names its data, ``TileSource/sharingIdentity``, such as an MBTiles or PMTiles file by path: the engine also
/// keeps one open source per identity; other sources are never shared between renderers). Symbol candidates and
/// tile images are shared only between renderers of the same style (layers and sources), sprite, tile size and
/// backend object (tile images are the backend's images; symbols are measured with its fonts); a renderer's
/// ``MapRenderer/invalidate()`` or ``MapRenderer/setSprite(_:)`` gives it a group of its own. So views with
/// different styles never see each other's tiles, and four views of the same style on one thread (one backend)
/// cost what one does. Raster-layer tiles are shared by the renderers of one backend on the same data, whatever
/// their style; a backend's label sprites (``RenderBackend/useCacheStore(_:)``) by every renderer of that backend.
///
/// Thread rules: every member may be called from any thread; one lock guards the store (held only for a lookup or
/// an insertion, never while a tile is decoded or drawn). Values in the store are immutable, or lock their own lazy
/// state (`DecodedTile`). Tile images belong to their backend's thread: an image evicted by another thread is only
/// queued, and the renderers of its backend unregister it at the start of their next frame.
public final class MapEngine: @unchecked Sendable {
    /// The engine every renderer uses unless its options name another (``MapRenderOptions/engine``).
    public static let shared = MapEngine()

    private let lock = NSLock()
    private var store: ByteBoundedLRU<EngineKey, EngineEntry>
    private var nextID = 1
    private var sharedSources: [String: (id: Int, source: WeakSource)] = [:]
    private var groups: [GroupKey: Int] = [:]
    private var backends: [ObjectIdentifier: (token: Int, users: Int)] = [:]
    private var releases: [Int: [ImageHandle]] = [:]

    /// Creates an engine (tests; hosts use ``shared``).
    /// - Parameter byteBudget: see ``byteBudget``. Default 256 MiB.
    public init(byteBudget: Int = 256 << 20) { store = ByteBoundedLRU(byteLimit: max(0, byteBudget)) }

    /// The most bytes the engine keeps (estimated sizes of decoded tiles, prepared tiles and symbols; tile images,
    /// raster tiles and label sprites at 4 bytes a pixel), `≥ 0` (negative values count as 0). When a new entry would exceed it, the least recently
    /// used entries of any renderer leave first. Default 256 MiB. Lowering it evicts at once. Any thread.
    public var byteBudget: Int {
        get { locked { store.byteLimit } }
        set { locked { route(store.setByteLimit(newValue)) } }
    }

    /// The bytes held now (always `≤ byteBudget`), for tests and benchmarks. Any thread.
    package var cacheBytes: Int { locked { store.totalBytes } }

    /// The entries held now. Any thread.
    package var cacheEntryCount: Int { locked { store.count } }

    /// The decoded source tiles held now (a restyled renderer over the same data adds none: issue 32). Any thread.
    package var decodedTileCount: Int {
        locked {
            store.keysByRecency.reduce(0) { n, key in
                if case .decoded = key { return n + 1 }
                return n
            }
        }
    }

    /// The raster-layer tiles (``EngineKey/raster(source:address:adjustment:backend:)``) and backend values (label
    /// sprites) held now, for tests. Any thread.
    package var rasterAndBackendEntryCounts: (raster: Int, backendValues: Int) {
        locked {
            var counts = (raster: 0, backendValues: 0)
            for key in store.keysByRecency {
                switch key {
                case .raster: counts.raster += 1
                case .backendValue: counts.backendValues += 1
                default: break
                }
            }
            return counts
        }
    }

    // MARK: Identity

    /// A number never handed out before (renderer groups, unshared sources, backends).
    func newID() -> Int { locked { takeID() } }

    private func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// The data id of a source and the source to read it through: for a source with a ``TileSource/sharingIdentity``
    /// the one already open for that identity (if any renderer still holds it), else `tiles` itself with a new id.
    func share(_ tiles: any TileSource) -> (id: Int, tiles: any TileSource) {
        locked {
            guard let identity = tiles.sharingIdentity else { return (takeID(), tiles) }
            if let known = sharedSources[identity] {
                if let open = known.source.object as? any TileSource { return (known.id, open) }
                sharedSources[identity] = (known.id, WeakSource(tiles))
                return (known.id, tiles)
            }
            let id = takeID()
            sharedSources[identity] = (id, WeakSource(tiles))
            return (id, tiles)
        }
    }

    /// The token of a backend object, counting one more renderer that uses it (``leave(backend:)`` undoes it).
    func join(backend: AnyObject) -> Int {
        locked {
            let key = ObjectIdentifier(backend)
            if let known = backends[key] {
                backends[key] = (known.token, known.users + 1)
                return known.token
            }
            let token = takeID()
            backends[key] = (token, 1)
            return token
        }
    }

    /// A renderer of `backend` is gone (its thread). When it was the last (`last`), the backend's tile images and
    /// raster tiles leave the store and come back to be unregistered by the caller, and its cached values (label
    /// sprites) are dropped.
    func leave(backend: AnyObject) -> (handles: [ImageHandle], last: Bool) {
        locked {
            let key = ObjectIdentifier(backend)
            guard let known = backends[key] else { return ([], false) }
            guard known.users <= 1 else {
                backends[key] = (known.token, known.users - 1)
                return ([], false)
            }
            backends[key] = nil
            var out = releases.removeValue(forKey: known.token) ?? []
            for entry in store.removeAll(where: { _, value in value.backend == known.token }) {
                if let handle = entry.handle { out.append(handle) }
            }
            return (out, true)
        }
    }

    /// The store a backend (its token) keeps its between-frame caches in (``RenderBackend/useCacheStore(_:)``):
    /// entries of this engine keyed by the token, under the one budget.
    func cacheStore(backend token: Int) -> any BackendCacheStore { BackendValues(engine: self, backend: token) }

    /// The group id of a renderer's symbols and tile images: equal keys share one.
    func group(_ key: GroupKey) -> Int {
        locked {
            if let id = groups[key] { return id }
            let id = takeID()
            if groups.count > 4096 { groups.removeAll() }
            groups[key] = id
            return id
        }
    }

    // MARK: Store

    func value(_ key: EngineKey) -> EngineEntry? { locked { store.value(for: key) } }

    func contains(_ key: EngineKey) -> Bool { locked { store.contains(key) } }

    /// Stores an entry (replacing any); what the budget evicts is dropped, or queued for release (tile images).
    func insert(_ entry: EngineEntry, for key: EngineKey, cost: Int) {
        locked { route(store.insert(entry, for: key, cost: cost)) }
    }

    /// Removes the entries `matching` says so (tile images are queued for release).
    func removeAll(matching: (EngineKey) -> Bool) {
        locked { route(store.removeAll(where: { key, _ in matching(key) })) }
    }

    /// The tile images of `backend` (its token) that left the store since the last call: the caller, on the
    /// backend's thread, unregisters them.
    func takeReleases(backend: Int) -> [ImageHandle] {
        locked { releases.removeValue(forKey: backend) ?? [] }
    }

    private func route(_ removed: [EngineEntry]) {
        for entry in removed {
            if let handle = entry.handle, backends.values.contains(where: { $0.token == entry.backend }) {
                releases[entry.backend, default: []].append(handle)
            }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// A backend's between-frame values (label sprites) as entries of the engine, keyed by the backend's token.
private final class BackendValues: BackendCacheStore, @unchecked Sendable {
    let engine: MapEngine
    let backend: Int
    init(engine: MapEngine, backend: Int) {
        self.engine = engine
        self.backend = backend
    }
    func cachedValue(for key: AnyHashable) -> AnyObject? {
        guard case .backendValue(let value, _)? = engine.value(.backendValue(backend: backend, key: key)) else {
            return nil
        }
        return value
    }
    func cache(_ value: AnyObject, for key: AnyHashable, cost: Int) {
        engine.insert(
            .backendValue(value, backend: backend), for: .backendValue(backend: backend, key: key), cost: cost)
    }
    func removeAllValues() {
        engine.removeAll { key in
            if case .backendValue(let token, _) = key { return token == backend }
            return false
        }
    }
}

/// A tile source the engine holds without keeping it open.
private struct WeakSource {
    weak var object: AnyObject?
    init(_ tiles: any TileSource) { object = tiles as AnyObject }
}

/// What renderers of one group share (``MapEngine/group(_:)``).
struct GroupKey: Hashable {
    /// A hash of the style's layers and sources as parsed.
    let style: Int
    /// The data ids of the style's sources, by source id.
    let sources: [String: Int]
    /// The backend's token.
    let backend: Int
    let tileSize: Double
    /// A hash of the sprite sheet (0: none).
    let sprite: Int
    /// A renderer that invalidated: its own number.
    let generation: Int
}

/// A key of the engine's store.
enum EngineKey: Hashable {
    /// A source tile as read from its source (data id, source address).
    case decoded(source: Int, address: TileID)
    /// One source layer of a covering tile, over-zoomed and clipped for a tile size.
    case prepared(source: Int, layer: String, tile: TileID, tileSize: Double)
    /// A symbol layer's candidates in a tile at a sixteenth of a zoom level.
    case symbols(group: Int, layer: Int, tile: TileID, zoomStep: Int)
    /// A tile image of one run (or the knowledge that it draws nothing).
    case image(group: Int, key: TileImageKey)
    /// A layer's prepared tile-space draws over a tile at a zoom (pitched frames: `TileDraws.swift`).
    case draws(group: Int, key: TileDrawKey)
    /// A raster source tile decoded, passed through a colour adjustment and registered with a backend (data id,
    /// source address, adjustment, backend token): shared by every renderer of that backend on the same data.
    case raster(source: Int, address: TileID, adjustment: RasterColorAdjustment, backend: Int)
    /// A `raster-dem` source tile shaded by a hillshade layer (HillshadeLayers.swift), registered with a backend; held
    /// as a ``EngineEntry/raster(_:backend:)`` entry.
    case hillshade(source: Int, address: TileID, shading: HillshadeShading, backend: Int)
    /// A value a backend caches between frames (label sprites; ``BackendCacheStore``), by backend token.
    case backendValue(backend: Int, key: AnyHashable)
}

/// A value of the engine's store.
enum EngineEntry {
    case decoded(DecodedTile)
    case prepared(PreparedTile)
    case symbols([SymbolFeature])
    case image(TileImageEntry)
    case draws([TileDraw])
    /// A raster tile's backend image (`nil`: the source has no such tile or it does not decode).
    case raster(ImageHandle?, backend: Int)
    case backendValue(AnyObject, backend: Int)

    /// The backend token of a backend-owned entry (tile images, raster tiles, backend values; 0 for the others).
    var backend: Int {
        switch self {
        case .image(let entry): return entry.backend
        case .raster(_, let backend), .backendValue(_, let backend): return backend
        default: return 0
        }
    }

    /// The backend image the entry holds (tile images and raster tiles), which its backend must unregister.
    var handle: ImageHandle? {
        switch self {
        case .image(let entry): return entry.handle
        case .raster(let handle, _): return handle
        default: return nil
        }
    }
}

/// A cached tile image: the backend's handle (`nil`: the run draws nothing in the tile), where the tile sits in it,
/// and the backend's token.
struct TileImageEntry {
    let handle: ImageHandle?
    let frame: TileImageFrame
    let backend: Int
}

/// A hash of a value's structure (every stored property, reached by reflection) that does not depend on the order
/// a dictionary or set happens to iterate in: equal for two styles (or sprite indexes) parsed from the same text.
func structuralHash(_ value: Any) -> Int {
    let mirror = Mirror(reflecting: value)
    var hasher = Hasher()
    hasher.combine(String(describing: mirror.subjectType))
    switch mirror.displayStyle {
    case .dictionary?, .set?:
        hasher.combine(mirror.children.map { structuralHash($0.value) }.sorted())
    default:
        if mirror.children.isEmpty {
            hasher.combine(String(describing: value))
        } else {
            for child in mirror.children {
                hasher.combine(child.label)
                hasher.combine(structuralHash(child.value))
            }
        }
    }
    return hasher.finalize()
}

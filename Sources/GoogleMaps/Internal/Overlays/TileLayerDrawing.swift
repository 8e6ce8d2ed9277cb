import Foundation
import LinuxUIKit
import MapData
import MapDrawing
import MapGeometry
import MapNetwork

/// What a tile layer knows of its tiles, and the inbox its receivers write to from any thread.
///
/// Main-actor state (``tiles``) changes only in frames; arrivals wait in a locked inbox until the next frame takes
/// them. ``removeAll()`` starts a new generation: answers to older requests are dropped.
final class TileLayerStore: @unchecked Sendable {
    enum State {
        /// Asked for; no answer yet.
        case requested
        /// Loaded: the registered image, the time it arrived (map clock) and the last frame it was used in.
        case ready(ImageHandle, arrived: Double)
        /// Known missing (``kGMSTileLayerNoTile``).
        case noTile
        /// A transient failure (`nil`): asked again after this time.
        case retry(after: Double)
    }

    private let lock = NSLock()
    private var inbox: [(generation: Int, key: TileID, image: UIImage?)] = []
    private var undecodable: [URL] = []
    private var failures: [(url: URL, message: String)] = []
    private var generationValue = 0
    private var requestsInFlight = 0
    /// Cancelling handles of the requests on their way (``GMSURLTileLayer``'s; other layers cannot cancel).
    private var requestHandles: [TileID: TileRequestHandle] = [:]

    /// Main actor only.
    var tiles: [TileID: State] = [:]
    /// Main actor only: the last frame each ready tile was drawn in (least recently used go first).
    var lastUse: [TileID: Int] = [:]
    /// Main actor only: frames drawn.
    var frameNumber = 0
    /// Main actor only: whether an undecodable tile / a failed request was reported already (once per layer).
    var warnedUndecodable = false
    var warnedFailure = false
    /// Main actor only: the priority of the request being made (distance from the view's centre in tiles; smaller
    /// first), read by ``GMSURLTileLayer`` for the HTTP loader.
    var requestPriority = 0.0
    /// Main actor only: how many times each tile was asked for (tests read it).
    var requestCounts: [TileID: Int] = [:]

    /// Ready tiles kept (about 64 MiB of 512-pixel tiles).
    static let capacity = 256

    var generation: Int { lock.withLock { generationValue } }

    /// Whether requests are unanswered or answers wait for a frame.
    var hasPendingWork: Bool { lock.withLock { requestsInFlight > 0 || !inbox.isEmpty } }

    /// Whether requests are unanswered: the layer's `tileFor`/`requestTileFor` work runs on other threads.
    var hasRequestsInFlight: Bool { lock.withLock { requestsInFlight > 0 } }

    func requestStarted() { lock.withLock { requestsInFlight += 1 } }

    /// Files an answer for `key` (a canonical tile, `wrap` 0); a `nil` key (coordinates off the grid, which no
    /// frame asks for) only ends the request.
    func deliver(generation: Int, key: TileID?, image: UIImage?) {
        lock.withLock {
            guard generation == generationValue else { return }
            requestsInFlight = max(0, requestsInFlight - 1)
            guard let key else { return }
            requestHandles[key] = nil
            inbox.append((generation, key, image))
        }
    }

    /// Keeps the handle that cancels the request for `key` (made in `generation`), unless it was answered already.
    func setHandle(_ handle: TileRequestHandle, for key: TileID, generation: Int) {
        lock.withLock {
            guard generation == generationValue, !inbox.contains(where: { $0.key == key }) else { return }
            requestHandles[key] = handle
        }
    }

    /// Cancels the request for `key` when it can be cancelled; returns whether it was.
    func cancel(_ key: TileID) -> Bool {
        let handle: TileRequestHandle? = lock.withLock {
            guard let h = requestHandles.removeValue(forKey: key) else { return nil }
            requestsInFlight = max(0, requestsInFlight - 1)
            return h
        }
        handle?.cancel()
        return handle != nil
    }

    /// Requests that can be cancelled, on their way (tests read it).
    var cancellableRequests: Int { lock.withLock { requestHandles.count } }

    func noteUndecodable(_ url: URL) { lock.withLock { undecodable.append(url) } }

    func noteFailure(_ url: URL, _ message: String) { lock.withLock { failures.append((url, message)) } }

    /// The answers that arrived since the last call (current generation only), undecodable URLs and failures.
    func takeArrivals() -> (
        answers: [(key: TileID, image: UIImage?)], undecodable: [URL], failures: [(url: URL, message: String)]
    ) {
        lock.withLock {
            let answers = inbox.filter { $0.generation == generationValue }.map { ($0.key, $0.image) }
            inbox.removeAll()
            let bad = undecodable
            undecodable.removeAll()
            let failed = failures
            failures.removeAll()
            return (answers, bad, failed)
        }
    }

    /// Forgets every tile and starts a new generation; returns the images to release.
    func removeAll() -> [ImageHandle] {
        let cancelled: [TileRequestHandle] = lock.withLock {
            generationValue += 1
            inbox.removeAll()
            requestsInFlight = 0
            defer { requestHandles.removeAll() }
            return Array(requestHandles.values)
        }
        for h in cancelled { h.cancel() }
        var handles: [ImageHandle] = []
        for case .ready(let handle, _) in tiles.values { handles.append(handle) }
        tiles.removeAll()
        lastUse.removeAll()
        return handles
    }
}

/// The receiver handed to ``GMSTileLayer/requestTileFor(x:y:zoom:receiver:)``: files the answer in the layer's
/// store under the generation the request was made in.
final class TileLayerReceiver: NSObject, GMSTileReceiver, @unchecked Sendable {
    private weak var store: TileLayerStore?
    private let generation: Int

    init(store: TileLayerStore, generation: Int) {
        self.store = store
        self.generation = generation
    }

    func receiveTileWith(x: UInt, y: UInt, zoom: UInt, image: UIImage?) {
        guard let z = Int(exactly: zoom), let xi = Int(exactly: x), let yi = Int(exactly: y) else { return }
        store?.deliver(generation: generation, key: TileID.valid(z: z, x: xi, y: yi), image: image)
    }
}

/// What a fetch of a tile URL gave.
enum TileFetchResult: Sendable {
    /// The response body.
    case data(Data)
    /// No tile there: a missing file, HTTP 404 or 204, an empty body, a URL that is neither `file` nor `http(s)`.
    case noTile
    /// Anything else (connection error or 5xx after the loader's retries, another status, an unreadable file):
    /// try again later.
    case failed(String)
}

/// Fetches tile bytes for ``GMSURLTileLayer`` (a seam for tests).
protocol TileURLFetching: Sendable {
    /// Fetches `url` off the main thread and calls `completion` once, on any thread, unless cancelled first.
    /// - Returns: the handle that cancels the request.
    func fetch(
        _ url: URL, userAgent: String?, priority: Double, completion: @escaping @Sendable (TileFetchResult) -> Void
    ) -> TileRequestHandle
}

/// The tile layers' fetcher: MapNetwork's ``HTTPClient`` — the loader's per-host limit (8), priorities,
/// cancellation, retries with backoff for 5xx and connection errors, and the persistent SQLite cache (cached tiles
/// keep drawing offline); `file://` URLs are read from disk.
struct HTTPClientTileFetcher: TileURLFetching {
    /// The client; by default the process's (``TileNetwork/shared``: cache in `$WAYMARK_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/waymark`).
    let client: HTTPClient

    func fetch(
        _ url: URL, userAgent: String?, priority: Double, completion: @escaping @Sendable (TileFetchResult) -> Void
    ) -> TileRequestHandle {
        let scheme = url.scheme?.lowercased()
        guard url.isFileURL || scheme == "http" || scheme == "https" else {
            completion(.noTile)
            return .completed
        }
        let headers = userAgent.map { ["User-Agent": $0] } ?? [:]
        return client.get(url, headers: headers, priority: priority) { result in
            switch result {
            case .success(let response) where response.status == 204 || response.status == 404:
                completion(.noTile)
            case .success(let response) where (200..<300).contains(response.status):
                completion(response.body.isEmpty ? .noTile : .data(Data(response.body)))
            case .success(let response): completion(.failed("HTTP \(response.status)"))
            case .failure(let error): completion(.failed(error.message))
            }
        }
    }
}

@MainActor extension GMSTileLayer: @MainActor OverlayRenderable {
    var overlayZIndex: Int32 { zIndex }
    var overlayIsTappable: Bool { false }
    var overlayReach: Double { 0 }
    /// The whole world (tiles cover it).
    var overlayBounds: OverlayBounds? { OverlayBounds(minX: 0, minY: 0, maxX: 1, maxY: 1) }
    var overlayIndexBoxes: [OverlayBounds] { overlayBounds.map { [$0] } ?? [] }
    /// Tiles arrive and fade in between edits: never drawn from the stage's cached raster.
    var overlayIsCacheable: Bool { false }

    /// Seconds a tile takes to fade in (``GMSTileLayer/fadeIn``).
    static let fadeDuration = 0.25
    /// How long a tile answered `nil` waits before it is asked for again, in seconds.
    static let retryDelay = 2.0
    /// Ancestor levels searched for a stand-in while a tile loads.
    static let standInLevels = 6

    private var clampedOpacity: Double { opacity.isNaN ? 1 : Double(min(max(opacity, 0), 1)) }

    /// The tile zoom for a frame: a tile shows at about ``tileSize`` device pixels.
    func tileZoom(cameraZoom: Double, scale: Double) -> Int {
        let size = tileSize >= 1 ? Double(tileSize) : 256
        let z = (cameraZoom + log2(256 * scale / size) + 1e-9).rounded(.down)
        return z.isFinite ? Int(min(22, max(0, z))) : 0
    }

    /// Whether a later frame will differ: requests unanswered, answers waiting, or tiles fading in.
    var needsFrames: Bool {
        if tileStore.hasPendingWork { return true }
        guard fadeIn, let now = mapStorage.map({ _ in UIAnimator.shared.now }) else { return false }
        for case .ready(_, let arrived) in tileStore.tiles.values where now - arrived < Self.fadeDuration {
            return true
        }
        return false
    }

    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand]) {
        let store = tileStore
        let stage = frame.stage
        let now = UIAnimator.shared.now
        store.frameNumber += 1
        integrateArrivals(stage: stage, now: now)
        let opacity = clampedOpacity
        guard opacity > 0 else { return }
        let camera = frame.camera
        let z = tileZoom(cameraZoom: camera.state.zoom, scale: frame.scale)
        let tiles = camera.coveringTiles(tileZoom: z)
        cancelRequestsOutside(tiles)
        let center = camera.centerWorld
        let near = camera.distance * 0.2
        let cells = frame.isFlat ? 1 : 8
        var drawn: [DrawCommand] = []
        var standIns: [DrawCommand] = []
        for tile in tiles {
            let key = tile.canonical
            // Screen point of (u, v) in the tile at `z`/`ux`/`uy` (unwrapped column).
            func place(
                _ handle: ImageHandle, z tz: Int, unwrappedX: Int, y ty: Int, u: ClosedRange<Double>,
                v: ClosedRange<Double>, alpha: Double, into out: inout [DrawCommand]
            ) {
                let n = Double(1 << tz)
                ImageQuad.append(
                    handle, uRange: u, vRange: v, cells: cells, opacity: opacity * alpha,
                    screen: { uu, vv in
                        let w = WorldPoint(x: (Double(unwrappedX) + uu) / n, y: (Double(ty) + vv) / n)
                        guard camera.depth(of: w) >= near else { return nil }
                        let s = camera.screenPoint(forUnwrapped: w)
                        return ScreenPoint(x: s.x, y: s.y)
                    }, into: &out)
            }
            switch store.tiles[key] {
            case .noTile?: continue
            case .ready?, .requested?: break
            case .retry(let after)? where now < after: break
            case .retry?, nil:
                store.tiles[key] = .requested
                store.requestCounts[key, default: 0] += 1
                store.requestStarted()
                let n = Double(1 << tile.z)
                let dx = (Double(tile.unwrappedX) + 0.5) / n - center.x
                let dy = (Double(tile.y) + 0.5) / n - center.y
                store.requestPriority = (dx * dx + dy * dy).squareRoot() * n
                requestTileFor(
                    x: UInt(tile.x), y: UInt(tile.y), zoom: UInt(tile.z),
                    receiver: TileLayerReceiver(store: store, generation: store.generation))
                // An answer given inside the call draws in this very frame.
                integrateArrivals(stage: stage, now: now)
            }
            if case .ready(let handle, let arrived)? = store.tiles[key] {
                store.lastUse[key] = store.frameNumber
                let alpha = fadeIn ? min(1, max(0, (now - arrived) / Self.fadeDuration)) : 1
                if alpha < 1 { appendStandIn(for: tile, place: place, into: &standIns) }
                place(
                    handle, z: tile.z, unwrappedX: tile.unwrappedX, y: tile.y, u: 0...1, v: 0...1, alpha: alpha,
                    into: &drawn)
                continue
            }
            appendStandIn(for: tile, place: place, into: &standIns)
        }
        commands.append(contentsOf: standIns)
        commands.append(contentsOf: drawn)
        evictIfNeeded(stage: stage)
    }

    /// Cancels the cancellable requests (``GMSURLTileLayer``'s) of tiles not in `tiles`, the frame's cover: they
    /// left the view and are asked for again if they come back.
    private func cancelRequestsOutside(_ tiles: [TileID]) {
        let store = tileStore
        let inView = Set(tiles.map(\.canonical))
        for (key, state) in store.tiles where !inView.contains(key) {
            if case .requested = state, store.cancel(key) { store.tiles[key] = nil }
        }
    }

    /// Files the answers that arrived (loaded images registered with the stage's backend) and reports the first
    /// undecodable URL and the first failed request once per layer.
    private func integrateArrivals(stage: OverlayStage, now: Double) {
        let store = tileStore
        let arrivals = store.takeArrivals()
        for (key, image) in arrivals.answers {
            if case .ready(let old, _)? = store.tiles[key] { stage.unregisterRaster(old) }
            guard let image else {
                store.tiles[key] = .retry(after: now + Self.retryDelay)
                continue
            }
            guard image !== kGMSTileLayerNoTile, let pixels = image.premultipliedBGRA(),
                let handle = stage.registerRaster(
                    RasterImage(width: pixels.width, height: pixels.height, pixels: pixels.pixels))
            else {
                store.tiles[key] = .noTile
                continue
            }
            store.tiles[key] = .ready(handle, arrived: fadeIn ? now : -.infinity)
            store.lastUse[key] = store.frameNumber
        }
        if let url = arrivals.undecodable.first, !store.warnedUndecodable {
            store.warnedUndecodable = true
            GMSLog.warning("GMSURLTileLayer: \(url) is not an image; drawn as no tile")
        }
        if let failure = arrivals.failures.first, !store.warnedFailure {
            store.warnedFailure = true
            GMSLog.warning(
                "GMSURLTileLayer: \(failure.url): \(failure.message); the tile is asked for again while in view")
        }
    }

    /// The nearest loaded ancestor's part over `tile`, else its loaded children.
    private func appendStandIn(
        for tile: TileID,
        place: (ImageHandle, Int, Int, Int, ClosedRange<Double>, ClosedRange<Double>, Double, inout [DrawCommand]) ->
            Void,
        into out: inout [DrawCommand]
    ) {
        let store = tileStore
        for d in 1...Self.standInLevels where tile.z - d >= 0 {
            let ancestor = tile.ancestor(atZoom: tile.z - d)
            let key = ancestor.canonical
            guard case .ready(let handle, _)? = store.tiles[key] else { continue }
            store.lastUse[key] = store.frameNumber
            let k = Double(1 << d)
            let u0 = Double(tile.x - (key.x << d)) / k
            let v0 = Double(tile.y - (key.y << d)) / k
            place(handle, key.z, ancestor.unwrappedX, key.y, u0...(u0 + 1 / k), v0...(v0 + 1 / k), 1, &out)
            return
        }
        guard tile.z < 22 else { return }
        for child in tile.children {
            let key = child.canonical
            guard case .ready(let handle, _)? = store.tiles[key] else { continue }
            store.lastUse[key] = store.frameNumber
            place(handle, key.z, child.unwrappedX, key.y, 0...1, 0...1, 1, &out)
        }
    }

    /// Releases the least recently drawn tiles beyond ``TileLayerStore/capacity``.
    private func evictIfNeeded(stage: OverlayStage) {
        let store = tileStore
        guard store.lastUse.count > TileLayerStore.capacity else { return }
        let order = store.lastUse.sorted { $0.value < $1.value }
        for (key, _) in order.prefix(store.lastUse.count - TileLayerStore.capacity) {
            if case .ready(let handle, _)? = store.tiles[key] { stage.unregisterRaster(handle) }
            store.tiles[key] = nil
            store.lastUse[key] = nil
        }
    }

    func overlayContains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool { false }
}

extension GMSMapView {
    func addTileLayer(_ layer: GMSTileLayer) {
        layer.mapStorage = self
        overlayStage.add(layer, renderable: layer)
    }

    func removeTileLayer(_ layer: GMSTileLayer) {
        guard layer.mapStorage === self else { return }
        layer.mapStorage = nil
        overlayStage.remove(layer)
        for handle in layer.tileStore.removeAll() { overlayStage.unregisterRaster(handle) }
    }

    /// Whether a tile layer on the map will draw differently on a later frame (answers pending, tiles fading).
    var tileLayersNeedFrames: Bool {
        overlayStage.objects.contains { ($0 as? GMSTileLayer)?.needsFrames ?? false }
    }

    /// Whether a tile layer on the map waits for answers its requests will give on other threads.
    var tileLayersAreLoading: Bool {
        overlayStage.objects.contains { ($0 as? GMSTileLayer)?.tileStore.hasRequestsInFlight ?? false }
    }
}

extension GMSTileLayer {
    /// Called when the map's stage was cleared (``GMSMapView/clear()``): the tiles are forgotten and their images
    /// released. Main actor (the map calls it).
    @MainActor func detachFromMap() {
        let handles = tileStore.removeAll()
        if let stage = mapStorage?.overlayStage { for h in handles { stage.unregisterRaster(h) } }
        mapStorage = nil
    }
}

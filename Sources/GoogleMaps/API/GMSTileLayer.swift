import Foundation
import LinuxUIKit
import MapGeometry
import MapNetwork

/// The stub tile meaning "no tile exists here" (Google's `kGMSTileLayerNoTile`): pass it to a ``GMSTileReceiver`` or
/// return it from ``GMSSyncTileLayer/tileFor(x:y:zoom:)``, and the tile is never requested again until
/// ``GMSTileLayer/clearTileCache()``. Compared by identity; never drawn.
public let kGMSTileLayerNoTile: UIImage = UIImage(
    data: Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!)!

/// Receives the tiles a ``GMSTileLayer`` was asked for (Google's `GMSTileReceiver`), now or later, from any thread.
///
/// The image is the tile; ``kGMSTileLayerNoTile`` means no tile exists there (never asked again); `nil` means a
/// transient failure: the tile is asked for again later while it is in view.
public protocol GMSTileReceiver: AnyObject, Sendable {
    /// Delivers the tile `x`, `y` at `zoom` (the values the request named). Any thread.
    func receiveTileWith(x: UInt, y: UInt, zoom: UInt, image: UIImage?)
}

/// Custom image tiles drawn over the map (Google's `GMSTileLayer`): an abstract class; subclasses override
/// ``requestTileFor(x:y:zoom:receiver:)``, or use ``GMSSyncTileLayer`` or ``GMSURLTileLayer``.
///
/// Tiles use Google's XYZ scheme: at zoom 0 one tile covers the world; at zoom z, 2^z × 2^z tiles, x from the west,
/// y from the north. The map asks for the tiles of its view at the zoom where a tile shows at about ``tileSize``
/// device pixels (`floor(camera zoom + log2(256 × screen scale / tileSize))`, clamped to 0…22), draws the nearest
/// loaded ancestor (or the loaded children) in place of a tile still loading, and asks only for tiles in view; a
/// tile is asked for once until ``clearTileCache()`` (a `nil` answer: again after 2 s while in view). Tile layers are
/// drawn with the other non-marker overlays in ``zIndex`` order, between the basemap and the markers.
/// - Thread rules: nonisolated, as in Google's SDK (an Objective-C class without actor annotation): create and
///   configure a layer on any thread while it is on no map (one thread at a time); once on a map, change it on the
///   main thread (a change from another thread, ``map`` included, reaches the map on the main queue shortly after).
///   ``clearTileCache()`` may be called from any thread. The map calls ``requestTileFor(x:y:zoom:receiver:)`` on the
///   main thread.
open class GMSTileLayer: NSObject {
    /// Storage behind ``map``.
    weak var mapStorage: GMSMapView?
    /// The tiles asked for, loaded and known missing (Internal/Overlays/TileLayerDrawing.swift).
    let tileStore = TileLayerStore()

    /// The map the layer is drawn on, or nil. Setting adds it to that map (removing it from another first); nil
    /// removes it. A layer is on at most one map; the map keeps it alive while it is on it.
    open var map: GMSMapView? {
        get { mapStorage }
        set {
            onMainActor(self) { layer in
                guard newValue !== layer.mapStorage else { return }
                layer.mapStorage?.removeTileLayer(layer)
                newValue?.addTileLayer(layer)
            }
        }
    }

    /// Drawing order among tile layers and the other non-marker overlays: higher above lower; equal values keep the
    /// order of addition (Google leaves it undefined). Defaults to 0.
    open var zIndex: Int32 = 0 {
        didSet {
            if zIndex != oldValue { onMainActor(self) { layer in layer.mapStorage?.overlayStage.orderDidChange() } }
        }
    }

    /// The side of the tile images in pixels (not points) the layer prefers to show them at. Defaults to 256
    /// (Google's); use 512 for tiles made for 2× screens. Values below 1 count as 256.
    open var tileSize: Int = 256 {
        didSet { if tileSize != oldValue { forgetTiles() } }
    }

    /// Opacity of the whole layer, 0…1 (clamped; NaN counts as 1). Defaults to 1.
    open var opacity: Float = 1 {
        didSet {
            if opacity != oldValue {
                onMainActor(self) { layer in layer.mapStorage?.overlayStage.contentDidChange(layer) }
            }
        }
    }

    /// Whether newly loaded tiles fade in (over 0.25 s on the map's clock: Waymark's choice, Google does not state
    /// it). Defaults to true.
    open var fadeIn: Bool = true

    /// Creates a layer on no map.
    public override init() {
        super.init()
    }

    /// Asks for the tile `x`, `y` at `zoom`; deliver it to `receiver` now or later (any thread): the image,
    /// ``kGMSTileLayerNoTile`` when there is no tile there, or `nil` after a transient error (asked again later).
    /// Subclasses override it; the base class answers ``kGMSTileLayerNoTile``. Called on the main thread.
    open func requestTileFor(x: UInt, y: UInt, zoom: UInt, receiver: any GMSTileReceiver) {
        receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: kGMSTileLayerNoTile)
    }

    /// Forgets every tile, loaded or known missing, so that all are asked for again (answers to requests made before
    /// are ignored).
    open func clearTileCache() {
        forgetTiles()
    }

    /// Forgets every tile and releases its image (the images leave the map's stage on the main actor).
    private func forgetTiles() {
        let handles = tileStore.removeAll()
        guard !handles.isEmpty else { return }
        onMainActor(self) { layer in
            if let stage = layer.mapStorage?.overlayStage { for h in handles { stage.unregisterRaster(h) } }
        }
    }
}

/// A tile layer whose tiles come from a blocking method (Google's `GMSSyncTileLayer`): override
/// ``tileFor(x:y:zoom:)``. It is called off the main thread, possibly from several threads at once (at most 4
/// requests run together), so it must be thread-safe. It may return ``GMSMarker/markerImage(with:)`` images, which are
/// made on any thread.
open class GMSSyncTileLayer: GMSTileLayer {
    /// The queue the requests run on (4 at a time).
    private static let queue: OperationQueue = {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 4
        q.name = "GMSSyncTileLayer"
        return q
    }()

    /// Returns the tile `x`, `y` at `zoom`: the image, ``kGMSTileLayerNoTile`` for none, or `nil` after a transient
    /// error (asked again later). May block. Called off the main thread, from several threads. The base class
    /// returns ``kGMSTileLayerNoTile``.
    open func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? { kGMSTileLayerNoTile }

    /// Runs ``tileFor(x:y:zoom:)`` off the main thread and hands its answer to `receiver`.
    open override func requestTileFor(x: UInt, y: UInt, zoom: UInt, receiver: any GMSTileReceiver) {
        let layer = UncheckedTransfer(value: self)
        Self.queue.addOperation {
            receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: layer.value.tileFor(x: x, y: y, zoom: zoom))
        }
    }
}

/// Builds the URL of a tile for ``GMSURLTileLayer``: `(x, y, zoom)` → the URL, or `nil` for no tile there. Called on
/// the main thread (when the map asks for the tile).
public typealias GMSTileURLConstructor = (_ x: UInt, _ y: UInt, _ zoom: UInt) -> URL?

/// A tile layer that loads each tile from a URL (Google's `GMSURLTileLayer`).
///
/// `file://` URLs are read from disk; `http://`/`https://` URLs go through Waymark's HTTP loader and cache (the ones
/// map styles load through, libcurl underneath), off the main thread: at most 8 requests in flight
/// per host, the tiles nearest the view's centre first, requests of tiles that left the view cancelled, 5xx answers
/// and connection errors retried with exponential backoff, and every answer kept in the persistent cache (SQLite
/// under `$WAYMARK_CACHE_DIR`, else `$XDG_CACHE_HOME/waymark`; honouring `Cache-Control`, `ETag` and
/// `Last-Modified`), so cached tiles keep drawing offline. A missing file, HTTP 404 or 204, an empty body or a nil
/// URL means no tile there (``kGMSTileLayerNoTile``); other failures mean "try again later" (asked again after 2 s
/// while in view), the first one logged once per layer with its URL; bytes that are not an image (PNG, JPEG, GIF;
/// WebP with Debian's `webp-pixbuf-loader`) count as no tile, with one logged warning per layer.
open class GMSURLTileLayer: GMSTileLayer {
    /// The URL of each tile.
    private let urlConstructor: GMSTileURLConstructor
    /// Where tile bytes come from (TileLayerDrawing.swift): the process's HTTP client and cache.
    var fetcher: any TileURLFetching = HTTPClientTileFetcher(client: TileNetwork.shared.client)
    /// The `User-Agent` header of HTTP requests, or nil for the loader's own (`Waymark`). Defaults to nil.
    open var userAgent: String?

    /// Creates a layer loading tiles from the URLs `urlConstructor` builds.
    public init(urlConstructor: @escaping GMSTileURLConstructor) {
        self.urlConstructor = urlConstructor
        super.init()
    }

    /// Google's convenience constructor: the same as ``init(urlConstructor:)``.
    public class func tileLayer(urlConstructor: @escaping GMSTileURLConstructor) -> GMSURLTileLayer {
        GMSURLTileLayer(urlConstructor: urlConstructor)
    }

    /// Loads the tile's URL and hands the image (or ``kGMSTileLayerNoTile``, or nil) to `receiver`.
    open override func requestTileFor(x: UInt, y: UInt, zoom: UInt, receiver: any GMSTileReceiver) {
        guard let url = urlConstructor(x, y, zoom) else {
            receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: kGMSTileLayerNoTile)
            return
        }
        let store = tileStore
        let generation = store.generation
        let handle = fetcher.fetch(url, userAgent: userAgent, priority: store.requestPriority) { result in
            switch result {
            case .noTile: receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: kGMSTileLayerNoTile)
            case .failed(let message):
                store.noteFailure(url, message)
                receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: nil)
            case .data(let data):
                if let image = UIImage(data: data) {
                    receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: image)
                } else {
                    store.noteUndecodable(url)
                    receiver.receiveTileWith(x: x, y: y, zoom: zoom, image: kGMSTileLayerNoTile)
                }
            }
        }
        if let z = Int(exactly: zoom), let xi = Int(exactly: x), let yi = Int(exactly: y),
            let key = TileID.valid(z: z, x: xi, y: yi)
        {
            store.setHandle(handle, for: key, generation: generation)
        }
    }
}

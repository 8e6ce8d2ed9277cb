import Foundation
import LinuxUIKit
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapPipeline
import MapStyle

/// The basemap of a style that loads over the network (``MapLibreStyle/loadsOverNetwork``: an `http(s)` style URL,
/// or a style with HTTP sources or sprite): the style, its sources' TileJSON or PMTiles headers and its sprite are
/// fetched on a background thread, and no frame waits for them. Until the style arrives the map draws
/// nothing of its own (the view's background colour shows, overlays and markers draw as usual); the frame after it
/// arrives draws the style, and its tiles stream in through the asynchronous tile path (`MapRenderOptions.asyncTiles`).
/// A style that cannot be loaded is reported once (a logged warning naming the URL or file) and the plain background is drawn
/// from then on.
///
/// §2.10 stays true: ``isLoading`` holds while the style loads, so `mapViewDidFinishTileRendering` and
/// `mapViewSnapshotReady` wait for it and then for its tiles. Thread rules: main actor; the loading thread only
/// fills the locked ``StyleLoad``.
@MainActor final class RemoteStyleBasemapRenderer: BasemapRenderer {
    /// The style.
    let style: MapLibreStyle
    /// What reports call the style (its URL, path, or "the style").
    let name: String
    /// What the loading thread hands over.
    private let load = StyleLoad()
    /// Called on any thread when the style (or a tile) arrived, so a sleeping host wakes.
    private let wake: @Sendable () -> Void
    /// The vector basemap once the style arrived.
    private(set) var loaded: VectorBasemapRenderer?
    /// The stand-in after a failure.
    private var failed: PlainBasemapRenderer?
    /// The style arrived and no frame has drawn it yet.
    private var arrivalPending = false

    /// Starts loading `style` on a background thread.
    /// - Parameters:
    ///   - style: the style.
    ///   - restyle: applied to the style once loaded (the map view's rules, appearance and traffic switch); nil: none.
    ///   - onArrival: called (any thread) when the style has arrived or failed, and after each tile; the host wakes
    ///     its loop there. Default: nothing (hosts that tick anyway).
    init(
        style: MapLibreStyle, restyle: (@Sendable (Style) -> Style)? = nil, onArrival: (@Sendable () -> Void)? = nil
    ) {
        self.style = style
        switch style {
        case .url(let url): name = "the style at \(url.absoluteString)"
        case .file(let path): name = "the style \(path)"
        case .json, .bundled: name = "the style"
        }
        let wake = onArrival ?? {}
        self.wake = wake
        let load = self.load
        // The options every map basemap uses (the host places the attribution; labels fade in a window app),
        // read here on the main actor.
        let basemapOptions = VectorBasemapRenderer.renderOptions
        Thread.detachNewThread {
            var options = basemapOptions
            options.asyncTiles = AsyncTileRendering(makeBackend: { MapBackends.make() }, onTileArrived: wake)
            let result: Result<MapHost, any Error>
            do {
                result = .success(try style.makeMapHost(options: options, remote: true, restyle: restyle))
            } catch {
                result = .failure(error)
            }
            load.finish(result)
            wake()
        }
    }

    /// Takes the loading thread's result on the main actor (once).
    private func collect() {
        guard loaded == nil, failed == nil, let result = load.take() else { return }
        switch result {
        case .success(let snapshotter):
            loaded = VectorBasemapRenderer(snapshotter: snapshotter)
        case .failure(let error):
            GMSLog.warning(
                "GMSMapView: \(name) cannot be loaded (\(error)); drawing a plain background"
            )
            failed = PlainBasemapRenderer()
        }
        arrivalPending = true
    }

    /// Whether the style is still on its way.
    var isLoadingStyle: Bool {
        collect()
        return loaded == nil && failed == nil
    }

    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        collect()
        arrivalPending = false
        if let loaded {
            loaded.draw(camera: camera, in: context, scale: scale)
        } else if let failed {
            failed.draw(camera: camera, in: context, scale: scale)
        }
    }

    /// A frame is wanted once the style arrived (or failed), then whenever the vector basemap wants one.
    var needsFrames: Bool {
        collect()
        return arrivalPending || (loaded?.needsFrames ?? false)
    }

    /// While the style loads, until a frame has drawn it (its tiles are asked for then), then while its tiles load.
    var isLoading: Bool { isLoadingStyle || arrivalPending || (loaded?.isLoading ?? false) }

    var attribution: String? { loaded?.attribution }

    func poi(at point: CGPoint) -> (placeID: String, name: String, location: CLLocationCoordinate2D)? {
        loaded?.poi(at: point)
    }
}

/// The loading thread's result, handed to the main actor under a lock.
final class StyleLoad: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<MapHost, any Error>?
    private var taken = false

    /// Stores the result (loading thread).
    func finish(_ value: Result<MapHost, any Error>) {
        lock.lock()
        result = value
        lock.unlock()
    }

    /// The result, once; `nil` before it arrives and after it was taken.
    func take() -> Result<MapHost, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        guard !taken, let result else { return nil }
        taken = true
        return result
    }
}

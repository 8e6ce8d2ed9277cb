import LinuxUIKit
import MapDrawing
import MapDrawingCairo

/// The one place the map view picks its graphics library: every backend the map's code makes (the overlay stage's,
/// the asynchronous tile workers') comes from ``make(labelCacheBytes:)``, and every display list the map view draws
/// into its context goes through ``draw(_:with:into:)``, so the rest of the map's code sees only the `RenderBackend`
/// protocol and the context's `RenderTarget`. (The basemap's synchronous renderer draws with its snapshotter's
/// backend, `MapHost.threadBackend()`, which MapHosting picks: the frame's tile images live in it.)
enum MapBackends {
    /// A new backend of the map's graphics library: a `CairoBackend` whose own label-sprite store holds
    /// `labelCacheBytes` (default 32 MiB, see `CairoBackend.init(labelCacheBytes:)`). Any thread; the backend is then
    /// used on one.
    static func make(labelCacheBytes: Int = 32 << 20) -> any RenderBackend {
        CairoBackend(labelCacheBytes: labelCacheBytes)
    }

    /// Draws `list` with `backend` into a view's `context` (points, already scaled to the list's scale) through
    /// ``RenderBackend/draw(_:into:)``. A backend that cannot draw into the context draws nothing and the failure is
    /// logged once per process (``GMSLog``), naming the error; the frame goes on. Main actor.
    @MainActor static func draw(_ list: DisplayList, with backend: any RenderBackend, into context: CGContext) {
        do {
            try backend.draw(list, into: context.canvas)
        } catch {
            guard !reportedDrawFailure else { return }
            reportedDrawFailure = true
            GMSLog.warning(
                "GMSMapView: the map's backend cannot draw into the view's context (\(error)); drawing nothing")
        }
    }

    /// Whether a failed draw has been logged (once per process).
    @MainActor private static var reportedDrawFailure = false
}

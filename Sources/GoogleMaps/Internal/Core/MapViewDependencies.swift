import Foundation
import LinuxUIKit
import WaymarkTime

/// What a map view takes from outside, handed to it once at creation instead of read from process globals by its
/// parts: the clock of its camera, gestures and location replay, the factory of its basemap (which hands the
/// window loop's wake handler to basemaps that make tiles on other threads), and the factory of its location
/// provider.
///
/// ``standard`` is what an app's map gets (the animator clock a `UIHeadlessHost` drives, the vector basemap waking
/// the window backend's loop, the `WAYMARK_LOCATION` provider). Tests make a map with their own through
/// options whose `dependencies` they set (`GMSMapViewOptions.dependencies`) rather than by swapping globals.
/// - Thread rules: the factories run on the main actor.
struct MapViewDependencies {
    /// The map's time: camera animations, gestures, my-location replay.
    var clock: any TimeSource
    /// Makes the basemap for what the map draws (style, rules, dark, traffic: on the first frame and when it changes).
    var makeBasemap: @MainActor (BasemapStyle) -> any BasemapRenderer
    /// Makes the my-location provider (on first use), replaying tracks on the given clock.
    var makeLocationProvider: @MainActor (any TimeSource) -> any LocationProvider

    /// Creates dependencies from their parts.
    init(
        clock: any TimeSource, makeBasemap: @escaping @MainActor (BasemapStyle) -> any BasemapRenderer,
        makeLocationProvider: @escaping @MainActor (any TimeSource) -> any LocationProvider
    ) {
        self.clock = clock
        self.makeBasemap = makeBasemap
        self.makeLocationProvider = makeLocationProvider
    }

    /// The dependencies of an app's map: the shared animator clock, `GMSMapView.makeDefaultBasemap` (the vector
    /// basemap; in a window app its tiles wake the loop through `UIApplication.wakeMainLoop()`) and the
    /// `WAYMARK_LOCATION` provider.
    static var standard: MapViewDependencies {
        MapViewDependencies(
            clock: AnimatorClock.shared, makeBasemap: { GMSMapView.makeDefaultBasemap($0) },
            makeLocationProvider: { _ in MapControls.defaultProvider() })
    }
}

import Foundation
import LinuxUIKit

extension GMSMapView {
    /// Observes an observable property of the map, with the shape of Foundation's key-value observing (Waymark's own:
    /// swift-corelibs-foundation has no KVO). `myLocation`, `camera` and `selectedMarker` are observable: the handler
    /// runs after each change — for `camera` once per frame tick in which the camera moved, for `selectedMarker` when it
    /// is set, for `myLocation` when a new fix arrives — on the main thread. `options`: `.new` and `.old` fill
    /// `newValue` and `oldValue`, `.initial` calls the handler once at once; `.prior` is not supported (no calls).
    /// Other key paths are accepted but never change.
    /// - Returns: the observation; keep it, and call `invalidate()` or release it to stop.
    public func observe<Value>(
        _ keyPath: KeyPath<GMSMapView, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @MainActor (GMSMapView, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        keyValueObservers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// Reports changes of the observable properties to their observers (see ``observe(_:options:changeHandler:)``).
    func checkObservedProperties() {
        keyValueObservers.check(self)
    }
}

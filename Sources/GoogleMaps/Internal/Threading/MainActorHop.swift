import Foundation
import LinuxUIKit

/// The one way the SDK's nonisolated model classes (overlays, tile layers) reach their map, which lives on the main
/// actor: `body` runs with `object` at once when the caller is already on the main actor (so a change made there is
/// seen by the very next hit test or frame), else it is handed to the main actor in call order
/// (`UIApplication.deliverOnMainActor`, which the main queue or a host's run-loop turn runs).
///
/// Google's classes come from Objective-C without actor annotations and are not `Sendable`; only the views are
/// main-actor. Waymark's model classes are the same, so the object crosses to the main actor here, under the thread
/// rule each class documents (changes to an object on a map belong on the main thread; those made elsewhere reach
/// the map through this queue). `body` should capture only `Sendable` values besides.
func onMainActor<Object: AnyObject>(_ object: Object, _ body: @escaping @MainActor (Object) -> Void) {
    let transfer = UncheckedTransfer(value: (object, body))
    if isOnMainActor() {
        MainActor.assumeIsolated { transfer.value.1(transfer.value.0) }
    } else {
        UIApplication.deliverOnMainActor { transfer.value.1(transfer.value.0) }
    }
}

/// Carries a value the compiler cannot prove `Sendable` to another thread, where a documented thread rule makes the
/// crossing safe: a model object and the work on it to the main queue (``onMainActor(_:_:)``), a sync tile layer to
/// the threads `tileFor(x:y:zoom:)` runs on (Google documents it as called off the main thread).
struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
}

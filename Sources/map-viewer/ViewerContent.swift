import Foundation
import LinuxUIKit

/// What the window hosts: one root view plus the few hooks the host needs. The host knows nothing of maps; swapping
/// the stand-in for `GMSMapView` means writing one conformance (see `makeContent(options:log:)`).
///
/// Frame contract: each loop turn the host delivers input (touches through `UITouchInput` on ``rootView``), then calls
/// ``tick()``, then renders ``rootView`` with `renderImage(scale:)` if input arrived, the view tree asked for
/// display, or ``needsFrames`` was true before the tick. While ``needsFrames`` is false and no input comes, the host
/// sleeps in `SDL_WaitEventTimeout`.
@MainActor protocol ViewerContent: AnyObject {
    /// The root of the hosted tree; the host sets its frame to the window's size in points.
    var rootView: UIView { get }
    /// Advances one frame (animations, camera events). Called once per loop turn.
    func tick()
    /// True while something will change on a later tick (animation, camera motion, loading), so the host must keep
    /// rendering frames.
    var needsFrames: Bool { get }
    /// Turns the view to north up (and no tilt), animated. Keyboard `N`.
    func resetNorth()
}

/// Prints one line to standard output at once (tests read the viewer's stdout while it runs).
func viewerLog(_ line: String) {
    print(line)
    fflush(nil)
}

import Foundation
import LinuxUIKit

/// Receives a ``GMSPanoramaView``'s events (Google's `GMSPanoramaViewDelegate`). Every method is optional: the
/// extension gives each a default that does nothing (``panoramaView(_:didTap:)-(_,GMSMarker)`` returns `false`).
///
/// Where there is no Street View imagery (everywhere, in Waymark), as Google documents: a
/// ``GMSPanoramaView/moveNearCoordinate(_:)`` request calls ``panoramaView(_:error:onMoveNearCoordinate:)`` with the
/// coordinate, and a ``GMSPanoramaView/move(toPanoramaID:)`` request calls
/// ``panoramaView(_:willMoveToPanoramaID:)`` then ``panoramaView(_:error:onMoveToPanoramaID:)``; neither calls
/// ``panoramaView(_:didMoveTo:)`` or ``panoramaView(_:didMoveTo:nearCoordinate:)``, because ``GMSPanoramaView/panorama``
/// does not change, nor ``panoramaView(_:didMove:)``, because the camera does not move. Camera changes made by the app
/// (``GMSPanoramaView/camera``, ``GMSPanoramaView/animate(to:animationDuration:)``,
/// ``GMSPanoramaView/updateCamera(_:animationDuration:)``) call ``panoramaView(_:didMove:)``: once for a set, on every
/// frame of an animation and always for the final camera.
/// - Thread rules: every method is called on the main thread (main actor), as Google's.
@preconcurrency @MainActor public protocol GMSPanoramaViewDelegate: AnyObject {
    /// A move to panorama `panoramaID` starts; ``GMSPanoramaView/panorama`` still holds the old panorama.
    func panoramaView(_ view: GMSPanoramaView, willMoveToPanoramaID panoramaID: String)
    /// ``GMSPanoramaView/panorama`` changed (to nil too).
    func panoramaView(_ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama?)
    /// The panorama changed because of ``GMSPanoramaView/moveNearCoordinate(_:)``; `coordinate` is the one asked for.
    func panoramaView(
        _ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama, nearCoordinate coordinate: CLLocationCoordinate2D)
    /// ``GMSPanoramaView/moveNearCoordinate(_:)`` found no panorama (or failed); `coordinate` is the one asked for.
    func panoramaView(
        _ view: GMSPanoramaView, error: any Error, onMoveNearCoordinate coordinate: CLLocationCoordinate2D)
    /// ``GMSPanoramaView/move(toPanoramaID:)`` failed.
    func panoramaView(_ view: GMSPanoramaView, error: any Error, onMoveToPanoramaID panoramaID: String)
    /// The camera changed: repeatedly during an animation, always for the final camera.
    func panoramaView(_ panoramaView: GMSPanoramaView, didMove camera: GMSPanoramaCamera)
    /// A tap on the view that nothing consumed; `point` in the view's coordinates.
    func panoramaView(_ panoramaView: GMSPanoramaView, didTap point: CGPoint)
    /// A tap on a marker shown in the panorama; return `true` to consume it. Never called in Waymark (no imagery,
    /// so no markers are shown).
    func panoramaView(_ panoramaView: GMSPanoramaView, didTap marker: GMSMarker) -> Bool
    /// Panorama tiles were requested. Never called in Waymark (no imagery).
    func panoramaViewDidStartRendering(_ panoramaView: GMSPanoramaView)
    /// Panorama tiles were drawn (or failed for good). Never called in Waymark (no imagery).
    func panoramaViewDidFinishRendering(_ panoramaView: GMSPanoramaView)
}

extension GMSPanoramaViewDelegate {
    /// Does nothing.
    public func panoramaView(_ view: GMSPanoramaView, willMoveToPanoramaID panoramaID: String) {}
    /// Does nothing.
    public func panoramaView(_ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama?) {}
    /// Does nothing.
    public func panoramaView(
        _ view: GMSPanoramaView, didMoveTo panorama: GMSPanorama, nearCoordinate coordinate: CLLocationCoordinate2D
    ) {}
    /// Does nothing.
    public func panoramaView(
        _ view: GMSPanoramaView, error: any Error, onMoveNearCoordinate coordinate: CLLocationCoordinate2D
    ) {}
    /// Does nothing.
    public func panoramaView(_ view: GMSPanoramaView, error: any Error, onMoveToPanoramaID panoramaID: String) {}
    /// Does nothing.
    public func panoramaView(_ panoramaView: GMSPanoramaView, didMove camera: GMSPanoramaCamera) {}
    /// Does nothing.
    public func panoramaView(_ panoramaView: GMSPanoramaView, didTap point: CGPoint) {}
    /// Returns `false`.
    public func panoramaView(_ panoramaView: GMSPanoramaView, didTap marker: GMSMarker) -> Bool { false }
    /// Does nothing.
    public func panoramaViewDidStartRendering(_ panoramaView: GMSPanoramaView) {}
    /// Does nothing.
    public func panoramaViewDidFinishRendering(_ panoramaView: GMSPanoramaView) {}
}

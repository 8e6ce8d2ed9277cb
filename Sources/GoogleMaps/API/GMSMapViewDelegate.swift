import Foundation
import LinuxUIKit

/// Receives a map view's events (spec §1.6). Every method is optional: the extension gives each a default that does
/// nothing (and, for the methods that return a value, returns `false` or `nil`, which selects Google's default
/// behaviour).
///
/// - Thread rules: every method is called on the main thread (main actor), from inside the map's frame tick
///   (camera events, D5) or its touch handling (taps, D7/D8); never re-entrantly inside a setter. Delegates may
///   change the camera, markers and selection from any callback (spec §2.1.6).
/// - Camera order: `willMove` → `didChange` × N → `idleAt`, exactly one `idleAt` per movement (§2.1, D5, D6).
/// - Tap order: exactly one of `didTapInfoWindowOf`, `didTap(marker)`, `didTap(overlay)`, `didTapPOIWithPlaceID`,
///   `didTapAt` per tap (D7); a map tap calls `didTapAt` before the implicit deselection and its
///   `didCloseInfoWindowOf` (§2.2).
@preconcurrency @MainActor public protocol GMSMapViewDelegate: AnyObject {
    /// Before the camera starts moving: `gesture` is `true` only for user gestures. Once per movement start (again
    /// when a gesture interrupts an animation, or a new animation replaces one). Frame tick.
    func mapView(_ mapView: GMSMapView, willMove gesture: Bool)
    /// The camera changed: on each frame of an animation or gesture and once for an explicit set; always after a
    /// `willMove`, always including the final position. Frame tick.
    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition)
    /// Every gesture and animation has finished (or an explicit set was drawn): once per movement. Frame tick.
    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition)
    /// A single tap on the map that hit no info window, marker, overlay or point of interest (D7). Called before the
    /// selected marker is deselected (`selectedMarker` still holds it).
    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D)
    /// A long press on the map (also on a non-draggable marker, D10).
    func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D)
    /// A tap on a tappable marker (the top-most hit, D7). Return `true` to consume it (no selection change, no
    /// camera move); `false` (the default) selects the marker and animates the camera to it (D9).
    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool
    /// A tap on the open info window of `marker` (it stays open).
    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker)
    /// A long press on the open info window of `marker`.
    func mapView(_ mapView: GMSMapView, didLongPressInfoWindowOf marker: GMSMarker)
    /// A tap on a tappable overlay that is not a marker (never called for markers).
    func mapView(_ mapView: GMSMapView, didTap overlay: GMSOverlay)
    /// A tap on a base-map point of interest.
    func mapView(
        _ mapView: GMSMapView, didTapPOIWithPlaceID placeID: String, name: String, location: CLLocationCoordinate2D)
    /// A marker is about to be selected: return a view to use as its whole info window (snapshotted; at most
    /// 500 × 500 pt, larger views are clipped, D15), or `nil` to fall back to ``mapView(_:markerInfoContents:)``.
    func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView?
    /// Called only when ``mapView(_:markerInfoWindow:)`` returned nil: a view placed inside the default bubble, or
    /// `nil` for the default title and snippet.
    func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView?
    /// A tap on features of a data-driven styling layer. Never called on Waymark: its feature layers are
    /// unavailable (GMSFeatureLayer.swift).
    func mapView(
        _ mapView: GMSMapView, didTap features: [any Feature], in featureLayer: FeatureLayer<any Feature>,
        atLocation location: CLLocationCoordinate2D)
    /// ``mapView(_:markerInfoWindow:)`` declared with a non-optional view, as a delegate may implement it on iOS
    /// (Objective-C matches the method by its selector whatever the optionality). Whichever of the two a delegate
    /// implements is called; with both, the optional one is asked first.
    func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView
    /// ``mapView(_:markerInfoContents:)`` declared with a non-optional view (see the non-optional
    /// ``mapView(_:markerInfoWindow:)-(_,_)->UIView``).
    func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView
    /// The info window of `marker` closed (another selection, a map tap, `selectedMarker = nil`, the marker's
    /// removal or `clear()`, D11). Once per close.
    func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker)
    /// A drag of a draggable marker began (after its long press).
    func mapView(_ mapView: GMSMapView, didBeginDragging marker: GMSMarker)
    /// The dragged marker moved; `marker.position` is already updated. Repeatedly while dragging.
    func mapView(_ mapView: GMSMapView, didDrag marker: GMSMarker)
    /// The drag ended; the marker stays where it was dropped.
    func mapView(_ mapView: GMSMapView, didEndDragging marker: GMSMarker)
    /// The my-location button was tapped: return `true` to consume it, `false` to centre on the user's location.
    func didTapMyLocationButton(for mapView: GMSMapView) -> Bool
    /// The my-location dot was tapped; `location` is the user's location at the time of the tap.
    func mapView(_ mapView: GMSMapView, didTapMyLocation location: CLLocationCoordinate2D)
    /// Tiles were requested and rendering started (§2.10).
    func mapViewDidStartTileRendering(_ mapView: GMSMapView)
    /// Every requested tile is drawn (or failed for good) and labels are placed (§2.10).
    func mapViewDidFinishTileRendering(_ mapView: GMSMapView)
    /// Tiles, labels and overlays are drawn and the camera is idle (§2.10).
    func mapViewSnapshotReady(_ mapView: GMSMapView)
    /// The map's ``GMSMapView/mapCapabilities`` changed. Never called in Waymark, whose capabilities are fixed.
    func mapView(_ mapView: GMSMapView, didChange mapCapabilities: GMSMapCapabilityFlags)
}

extension GMSMapViewDelegate {
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didLongPressAt coordinate: CLLocationCoordinate2D) {}
    /// Default: `false` (Google's default selection behaviour).
    public func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool { false }
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didLongPressInfoWindowOf marker: GMSMarker) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didTap overlay: GMSOverlay) {}
    /// Default: does nothing.
    public func mapView(
        _ mapView: GMSMapView, didTapPOIWithPlaceID placeID: String, name: String, location: CLLocationCoordinate2D
    ) {}
    /// Default: `nil` (no custom window).
    public func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView? { nil }
    /// Default: `nil` (default contents).
    public func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView? { nil }
    /// Default: does nothing.
    public func mapView(
        _ mapView: GMSMapView, didTap features: [any Feature], in featureLayer: FeatureLayer<any Feature>,
        atLocation location: CLLocationCoordinate2D
    ) {}
    /// Default: no view (the optional declaration decides).
    public func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView {
        DelegateDefaults.noView
    }
    /// Default: no view (the optional declaration decides).
    public func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView {
        DelegateDefaults.noView
    }
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didBeginDragging marker: GMSMarker) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didDrag marker: GMSMarker) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didEndDragging marker: GMSMarker) {}
    /// Default: `false` (default behaviour).
    public func didTapMyLocationButton(for mapView: GMSMapView) -> Bool { false }
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didTapMyLocation location: CLLocationCoordinate2D) {}
    /// Default: does nothing.
    public func mapViewDidStartTileRendering(_ mapView: GMSMapView) {}
    /// Default: does nothing.
    public func mapViewDidFinishTileRendering(_ mapView: GMSMapView) {}
    /// Default: does nothing.
    public func mapViewSnapshotReady(_ mapView: GMSMapView) {}
    /// Default: does nothing.
    public func mapView(_ mapView: GMSMapView, didChange mapCapabilities: GMSMapCapabilityFlags) {}
}

extension GMSMapViewDelegate {
    /// The delegate's custom info window for `marker`, from whichever declaration of
    /// ``mapView(_:markerInfoWindow:)-(_,_)->UIView?`` it implements (the optional one first); nil for none.
    package func infoWindow(for marker: GMSMarker, in mapView: GMSMapView) -> UIView? {
        if let view: UIView = self.mapView(mapView, markerInfoWindow: marker) as UIView? { return view }
        let view: UIView = self.mapView(mapView, markerInfoWindow: marker)
        return view === DelegateDefaults.noView ? nil : view
    }

    /// The delegate's custom info-window contents for `marker`, from whichever declaration of
    /// ``mapView(_:markerInfoContents:)-(_,_)->UIView?`` it implements (the optional one first); nil for none.
    package func infoContents(for marker: GMSMarker, in mapView: GMSMapView) -> UIView? {
        if let view: UIView = self.mapView(mapView, markerInfoContents: marker) as UIView? { return view }
        let view: UIView = self.mapView(mapView, markerInfoContents: marker)
        return view === DelegateDefaults.noView ? nil : view
    }
}

/// What the defaults of delegate methods declared twice (optional and non-optional result) return to say "not
/// implemented": an object no delegate can return.
package enum DelegateDefaults {
    /// The non-optional info-window methods' default.
    @MainActor package static let noView = UIView()
}

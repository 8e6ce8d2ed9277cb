import Foundation
import MapGeometry

/// A change to apply to a map's camera, built only with the class factories (spec §1.9). Pass it to
/// `mapView.moveCamera(_:)` or `mapView.animate(with:)`.
///
/// Every result is clamped like ``GMSCameraPosition`` (D3) and the map's zoom limits. Non-finite arguments never
/// trap: a NaN or infinite delta or scroll changes nothing; a NaN zoom or target falls back to the default camera's
/// value (D3).
/// - Thread rules: immutable, safe to share between threads.
open class GMSCameraUpdate: NSObject, @unchecked Sendable {
    enum Kind {
        case zoomBy(Double)
        case zoomTo(Double)
        case setTarget(CLLocationCoordinate2D, zoom: Double?)
        case setCamera(GMSCameraPosition)
        case fit(GMSCoordinateBounds, insets: EdgeInsets)
        case scrollBy(dx: Double, dy: Double)
        case zoomByAt(Double, point: ScreenPoint)
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// The default padding of ``fit(_:)``, in points on every side.
    public static let defaultFitPadding: CGFloat = 64

    /// Zoom in by one level (zoom + 1).
    open class func zoomIn() -> GMSCameraUpdate { GMSCameraUpdate(kind: .zoomBy(1)) }

    /// Zoom out by one level (zoom − 1).
    open class func zoomOut() -> GMSCameraUpdate { GMSCameraUpdate(kind: .zoomBy(-1)) }

    /// Zoom by `delta` levels (positive in, negative out), keeping the target.
    open class func zoom(by delta: Float) -> GMSCameraUpdate { GMSCameraUpdate(kind: .zoomBy(Double(delta))) }

    /// Set the zoom to `zoom` (clamped), keeping the target.
    open class func zoom(to zoom: Float) -> GMSCameraUpdate { GMSCameraUpdate(kind: .zoomTo(Double(zoom))) }

    /// Move the target to `target`, keeping zoom, bearing and viewing angle.
    open class func setTarget(_ target: CLLocationCoordinate2D) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .setTarget(target, zoom: nil))
    }

    /// Move the target to `target` and set the zoom, keeping bearing and viewing angle.
    open class func setTarget(_ target: CLLocationCoordinate2D, zoom: Float) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .setTarget(target, zoom: Double(zoom)))
    }

    /// Replace the whole camera.
    open class func setCamera(_ camera: GMSCameraPosition) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .setCamera(camera))
    }

    /// Centre `bounds` in the padded view at the greatest zoom at which they fit with 64 points of padding on each
    /// side; bearing and viewing angle become 0. Invalid bounds leave the camera unchanged.
    open class func fit(_ bounds: GMSCoordinateBounds) -> GMSCameraUpdate {
        fit(bounds, withPadding: defaultFitPadding)
    }

    /// Like ``fit(_:)`` with `padding` points on every side (added to the map's own padding). Padding that leaves
    /// no room in either axis gives the minimum zoom. A non-finite padding counts as 0.
    open class func fit(_ bounds: GMSCoordinateBounds, withPadding padding: CGFloat) -> GMSCameraUpdate {
        let p = Double(padding)
        return GMSCameraUpdate(kind: .fit(bounds, insets: EdgeInsets(top: p, left: p, bottom: p, right: p)))
    }

    /// Like ``fit(_:)`` with per-edge insets in points (added to the map's own padding). Insets that leave no room
    /// give the minimum zoom. Non-finite insets count as 0.
    open class func fit(_ bounds: GMSCoordinateBounds, with edgeInsets: UIEdgeInsets) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .fit(bounds, insets: EdgeInsets(edgeInsets)))
    }

    /// Move the camera so that the view point `dX` points right and `dY` points down of the target's screen
    /// position becomes the new target (the map content moves left and up). Zoom, bearing and tilt are kept.
    open class func scrollBy(x dX: CGFloat, y dY: CGFloat) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .scrollBy(dx: Double(dX), dy: Double(dY)))
    }

    /// Zoom by `zoom` levels keeping the ground under `point` (view points) fixed on screen. A point at or above the
    /// horizon, or a non-finite one, zooms about the target instead. When the new zoom lowers the tilt limit (D4) the
    /// tilt is clamped and the point may move slightly.
    open class func zoom(by zoom: Float, at point: CGPoint) -> GMSCameraUpdate {
        GMSCameraUpdate(kind: .zoomByAt(Double(zoom), point: ScreenPoint(point)))
    }

    /// The camera after this update, for an engine camera `state` (with view size and padding), clamped to
    /// `constraints`.
    func apply(to state: CameraState, constraints: CameraConstraints = .standard) -> CameraState {
        var s = constraints.clamped(state)
        switch kind {
        case .zoomBy(let d):
            if d.isFinite { s.zoom += d }
        case .zoomTo(let z):
            s.zoom = z
        case .setTarget(let target, let zoom):
            s.center = LatLng(target)
            if let zoom { s.zoom = zoom }
        case .setCamera(let camera):
            s.center = LatLng(camera.target)
            s.zoom = Double(camera.zoom)
            s.bearing = camera.bearing
            s.pitch = camera.viewingAngle
        case .fit(let bounds, let insets):
            guard let box = bounds.box else { return s }
            s = s.fitting(box, insets: insets.sanitized, constraints: constraints)
        case .scrollBy(let dx, let dy):
            guard dx.isFinite && dy.isFinite else { return s }
            let t = s.transform
            let p = ScreenPoint(x: t.opticalCenter.x + dx, y: t.opticalCenter.y + dy)
            s.center = WebMercator.latLng(t.worldPointClampedToHorizon(for: p))
        case .zoomByAt(let d, let point):
            guard d.isFinite else { return s }
            let before = s
            s.zoom = constraints.clampZoom(s.zoom + d)
            guard s.zoom != before.zoom, point.x.isFinite && point.y.isFinite,
                let focus = before.transform.worldPoint(for: point)
            else { break }
            // The ground offset from the centre to the focus scales with 2^-zoom; keep the focus under the point.
            let c = before.centerWorldPoint
            let k = exp2(before.zoom - s.zoom)
            let newCenter = WorldPoint(x: focus.x + (c.x - focus.x) * k, y: focus.y + (c.y - focus.y) * k)
            s.center = WebMercator.latLng(newCenter)
        }
        return constraints.clamped(s)
    }

    /// The camera after this update for a GMS camera drawn in a view of `viewSize` points with the map's `padding`.
    func apply(
        to camera: GMSCameraPosition, viewSize: CGSize, padding: UIEdgeInsets,
        constraints: CameraConstraints = .standard
    ) -> GMSCameraPosition {
        GMSCameraPosition(apply(to: camera.cameraState(size: viewSize, padding: padding), constraints: constraints))
    }

}

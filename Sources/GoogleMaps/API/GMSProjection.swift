import Foundation
import MapGeometry

/// The four corners of the ground a map view shows through its padded rectangle (spec §1.10): near = bottom
/// corners, far = top corners. A trapezoid when the camera is tilted. Coordinates in degrees, longitude wrapped into
/// [−180, 180).
public struct GMSVisibleRegion: Equatable, Sendable {
    /// The coordinate under the bottom-left corner of the padded view.
    public var nearLeft: CLLocationCoordinate2D
    /// The coordinate under the bottom-right corner of the padded view.
    public var nearRight: CLLocationCoordinate2D
    /// The coordinate under the top-left corner of the padded view.
    public var farLeft: CLLocationCoordinate2D
    /// The coordinate under the top-right corner of the padded view.
    public var farRight: CLLocationCoordinate2D

    /// All four corners at (0, 0).
    public init() {
        nearLeft = CLLocationCoordinate2D()
        nearRight = CLLocationCoordinate2D()
        farLeft = CLLocationCoordinate2D()
        farRight = CLLocationCoordinate2D()
    }

    /// A region from its four corners.
    public init(
        nearLeft: CLLocationCoordinate2D, nearRight: CLLocationCoordinate2D, farLeft: CLLocationCoordinate2D,
        farRight: CLLocationCoordinate2D
    ) {
        self.nearLeft = nearLeft
        self.nearRight = nearRight
        self.farLeft = farLeft
        self.farRight = farRight
    }
}

/// An immutable snapshot of the mapping between coordinates and map-view points for one camera (spec §1.10).
/// Obtain it from `mapView.projection`; it does not follow later camera changes.
///
/// The mapping is the perspective camera documented on `CameraState` (vertical field of view ≈ 36.87°, camera
/// distance 1.5 × view height, the target at the centre of the padded view). Points are in the view's coordinate
/// space (top-left origin, y down).
/// - Thread rules: immutable, safe to share between threads.
open class GMSProjection: NSObject, @unchecked Sendable {
    let transform: CameraTransform

    /// A projection of the engine camera `state` (which includes the view size and padding).
    init(camera state: CameraState) {
        transform = state.transform
        super.init()
    }

    /// A projection of a GMS camera drawn in a view of `viewSize` points with the map's `padding`.
    convenience init(camera: GMSCameraPosition, viewSize: CGSize, padding: UIEdgeInsets) {
        self.init(camera: camera.cameraState(size: viewSize, padding: padding))
    }

    /// The view point of `coordinate`, using the copy of the world nearest the camera (longitudes 190 and −170 give
    /// the same point). Points outside the view are returned too (off-screen values). Latitudes beyond ±85.0511 are
    /// projected beyond the Mercator square. A coordinate with a NaN or infinite component gives `(NaN, NaN)`
    /// (Google: undefined); a point behind a tilted camera comes back far off-screen.
    open func point(for coordinate: CLLocationCoordinate2D) -> CGPoint {
        guard coordinate.latitude.isFinite && coordinate.longitude.isFinite else {
            return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
        }
        return CGPoint(transform.screenPoint(for: LatLng(coordinate)))
    }

    /// The coordinate under a view point, longitude wrapped into [−180, 180). A point at or above the horizon of a
    /// tilted camera gives the coordinate far ahead in the same screen column (100 camera distances; Google:
    /// undefined). A non-finite point gives `kCLLocationCoordinate2DInvalid`.
    open func coordinate(for point: CGPoint) -> CLLocationCoordinate2D {
        guard point.x.isFinite && point.y.isFinite else { return kCLLocationCoordinate2DInvalid }
        let w = transform.worldPointClampedToHorizon(for: ScreenPoint(point))
        return CLLocationCoordinate2D(WebMercator.latLng(w).wrapped)
    }

    /// How many view points `meters` metres span at `coordinate`, measured across the line of sight (only accurate
    /// for small distances): `meters / metersPerPoint(latitude, zoom) × D / depth` (the tilt's foreshortening at that
    /// point). Non-finite input gives NaN; negative metres give a negative length.
    open func points(forMeters meters: CLLocationDistance, at coordinate: CLLocationCoordinate2D) -> CGFloat {
        guard meters.isFinite && coordinate.latitude.isFinite && coordinate.longitude.isFinite else { return .nan }
        let lat = min(max(coordinate.latitude, -89.999_999), 89.999_999)
        let w = WebMercator.worldPoint(LatLng(latitude: lat, longitude: coordinate.longitude))
        let scale = transform.scale(at: transform.nearestWorldCopy(of: w))
        return CGFloat(meters / WebMercator.metersPerPoint(latitude: lat, zoom: transform.state.zoom) * scale)
    }

    /// `true` when `coordinate` lies inside the visible region (the padded view's ground quadrilateral; edges count).
    /// Non-finite coordinates are not contained.
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        guard coordinate.latitude.isFinite && coordinate.longitude.isFinite else { return false }
        // Points behind a tilted camera project far off-screen, so the rectangle test rejects them.
        let p = transform.screenPoint(for: LatLng(coordinate))
        let s = transform.state
        let pad = s.padding.sanitized
        let width = max(s.size.width, 1)
        let height = max(s.size.height, 1)
        let tolerance = 1e-6
        return p.x >= pad.left - tolerance && p.x <= width - pad.right + tolerance && p.y >= pad.top - tolerance
            && p.y <= height - pad.bottom + tolerance
    }

    /// The coordinates under the four corners of the padded view (spec §1.10). Corners above the horizon are clamped
    /// as in ``coordinate(for:)``.
    open func visibleRegion() -> GMSVisibleRegion {
        let q = transform.visibleQuad(insets: transform.state.padding)
        func c(_ w: WorldPoint) -> CLLocationCoordinate2D { CLLocationCoordinate2D(WebMercator.latLng(w).wrapped) }
        return GMSVisibleRegion(
            nearLeft: c(q.nearLeft), nearRight: c(q.nearRight), farLeft: c(q.farLeft), farRight: c(q.farRight))
    }
}

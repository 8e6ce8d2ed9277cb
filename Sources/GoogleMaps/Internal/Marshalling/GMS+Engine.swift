import Foundation
import LinuxUIKit
import MapGeometry

// Conversions between the GMS / UIKit value types and the engine's MapGeometry types, in one place
// (like mapbox-maps-ios's marshallers). Nothing here clamps; clamping happens in the GMS initialisers and in
// CameraConstraints.

extension LatLng {
    init(_ c: CLLocationCoordinate2D) { self.init(latitude: c.latitude, longitude: c.longitude) }
}

extension CLLocationCoordinate2D {
    init(_ p: LatLng) { self.init(latitude: p.latitude, longitude: p.longitude) }
}

extension ScreenPoint {
    init(_ p: CGPoint) { self.init(x: Double(p.x), y: Double(p.y)) }
}

extension CGPoint {
    init(_ p: ScreenPoint) { self.init(x: CGFloat(p.x), y: CGFloat(p.y)) }
}

extension ScreenSize {
    init(_ s: CGSize) { self.init(width: Double(s.width), height: Double(s.height)) }
}

extension EdgeInsets {
    init(_ i: UIEdgeInsets) {
        self.init(top: Double(i.top), left: Double(i.left), bottom: Double(i.bottom), right: Double(i.right))
    }
}

extension GMSCameraPosition {
    /// The engine camera for this position drawn into a view of `size` with `padding` (both in points).
    func cameraState(size: CGSize, padding: UIEdgeInsets) -> CameraState {
        CameraState(
            center: LatLng(target), zoom: Double(zoom), bearing: bearing, pitch: viewingAngle, size: ScreenSize(size),
            padding: EdgeInsets(padding))
    }

    /// The GMS camera of an engine camera (clamped by the initialiser, D3).
    convenience init(_ state: CameraState) {
        self.init(
            target: CLLocationCoordinate2D(state.center), zoom: Float(state.zoom), bearing: state.bearing,
            viewingAngle: state.pitch)
    }
}

extension CLLocationCoordinate2D {
    /// `true` when both components are finite (the geometry library skips other coordinates in paths).
    var isFinite: Bool { latitude.isFinite && longitude.isFinite }
}

extension GMSPath {
    /// The coordinates as engine positions, for the `Spherical` functions.
    var engineCoordinates: [LatLng] { coordinates.map(LatLng.init) }
}

extension GMSMapPoint {
    /// The map point of a world point: x = 2·wx − 1, y = 1 − 2·wy (GMSMapPoint's y grows north, its world is 2 wide
    /// and centred on (0, 0); WorldPoint's y grows south, its world is the unit square from the north-west corner).
    init(_ w: WorldPoint) { self.init(x: 2 * w.x - 1, y: 1 - 2 * w.y) }
}

extension WorldPoint {
    /// The world point of a map point (inverse of `GMSMapPoint.init(_: WorldPoint)`).
    init(_ p: GMSMapPoint) { self.init(x: (p.x + 1) / 2, y: (1 - p.y) / 2) }
}

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

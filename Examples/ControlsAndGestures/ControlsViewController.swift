import CoreLocation
import GoogleMaps
import UIKit

/// The guide's controls and gesture switches: the compass (shown while the map is turned; tapping it turns north
/// up), the my-location button (the position is fixed at Senate Square with Waymark's location provider API, as
/// there is no GPS) and the floor picker are on; as in the guide's example, scroll and zoom gestures are off, so
/// dragging and double-tapping do nothing while two-finger rotate and tilt still work.
final class ControlsViewController: UIViewController {
    var mapView: GMSMapView!

    /// Senate Square, where the device "is".
    static let deviceLocation = CLLocationCoordinate2D(latitude: 60.16940, longitude: 24.95220)

    override func loadView() {
        let camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 15.5, bearing: 30, viewingAngle: 0)
        let mapView = GMSMapView(frame: .zero, camera: camera)
        mapView.settings.compassButton = true
        mapView.settings.myLocationButton = true
        mapView.settings.indoorPicker = true
        mapView.settings.scrollGestures = false
        mapView.settings.zoomGestures = false
        try? mapView.setLocationProvider(.fixed(Self.deviceLocation, accuracy: 25))
        mapView.isMyLocationEnabled = true
        self.mapView = mapView
        view = mapView
    }
}

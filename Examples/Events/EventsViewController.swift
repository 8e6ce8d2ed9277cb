import CoreLocation
import GoogleMaps
import UIKit

/// The map's delegate events, printed one line each: a tap prints its coordinate; a camera move prints `willMove`
/// (with whether a gesture caused it), `didChange` once per move (the first intermediate position), and `idleAt`
/// with the resting target. As the guide suggests, the map is cleared when the camera starts moving, and when it
/// comes to rest the target is reverse-geocoded and a marker with the address is dropped there.
final class EventsViewController: UIViewController, GMSMapViewDelegate {
    var mapView: GMSMapView!
    let geocoder = GMSGeocoder()
    private var reportedChange = false

    override func loadView() {
        let camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 15)
        let mapView = GMSMapView(frame: .zero, camera: camera)
        mapView.delegate = self
        self.mapView = mapView
        view = mapView
    }

    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {
        print(String(format: "tapped at %.6f, %.6f", coordinate.latitude, coordinate.longitude))
    }

    func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {
        print("willMove gesture: \(gesture)")
        reportedChange = false
        mapView.clear()
    }

    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
        guard !reportedChange else { return }
        reportedChange = true
        print(String(format: "didChange %.6f, %.6f", position.target.latitude, position.target.longitude))
    }

    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        print(
            String(
                format: "idleAt %.6f, %.6f zoom %.2f", position.target.latitude, position.target.longitude,
                position.zoom))
        geocoder.reverseGeocodeCoordinate(position.target) { response, error in
            guard error == nil, let result = response?.firstResult() else { return }
            let marker = GMSMarker(position: position.target)
            marker.title = result.lines?.first
            marker.snippet = (result.lines?.count ?? 0) > 1 ? result.lines?[1] : nil
            marker.map = mapView
            print("address \(result.lines?.joined(separator: ", ") ?? "")")
        }
    }
}

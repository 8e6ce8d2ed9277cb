import CoreLocation
import GoogleMaps
import UIKit

/// Markers with info windows as the guide describes them: a title only; a title with a snippet (long snippets
/// wrap); a marker with neither (tapping it opens no window); and one with a custom window from the delegate. The
/// first marker's window is opened from code at launch; tapping a window prints `info window tapped: TITLE`, and
/// closing one prints `info window closed: TITLE`.
final class InfoWindowsViewController: UIViewController, GMSMapViewDelegate {
    var mapView: GMSMapView!
    var cathedral: GMSMarker!
    var station: GMSMarker!
    var blank: GMSMarker!
    var custom: GMSMarker!

    override func loadView() {
        let camera = GMSCameraPosition(latitude: 60.1700, longitude: 24.9470, zoom: 15.5)
        let mapView = GMSMapView(frame: .zero, camera: camera)
        mapView.delegate = self
        self.mapView = mapView
        view = mapView

        cathedral = marker(at: 60.17028, 24.95222, title: "Helsinki Cathedral")
        station = marker(
            at: 60.17110, 24.94140, title: "Central Station",
            snippet: "Opened in 1919; about 200,000 passengers a day use Finland's busiest railway station.")
        blank = marker(at: 60.16800, 24.94300, title: nil)
        custom = marker(at: 60.16701, 24.95312, title: "Old Market Hall", snippet: "Since 1889")
        mapView.selectedMarker = cathedral
    }

    private func marker(
        at latitude: CLLocationDegrees, _ longitude: CLLocationDegrees, title: String?, snippet: String? = nil
    ) -> GMSMarker {
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        marker.title = title
        marker.snippet = snippet
        marker.map = mapView
        return marker
    }

    /// The market hall's window is a view of our own: a dark rounded label.
    func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView? {
        guard marker === custom else { return nil }
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 170, height: 44))
        label.text = "\(marker.title ?? "") · \(marker.snippet ?? "")"
        label.textColor = .white
        label.textAlignment = .center
        label.backgroundColor = UIColor(white: 0.15, alpha: 0.9)
        label.layer.cornerRadius = 8
        label.clipsToBounds = true
        return label
    }

    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        print("info window tapped: \(marker.title ?? "")")
    }

    func mapView(_ mapView: GMSMapView, didCloseInfoWindowOf marker: GMSMarker) {
        print("info window closed: \(marker.title ?? "")")
    }
}

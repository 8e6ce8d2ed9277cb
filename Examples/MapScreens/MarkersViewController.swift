import CoreLocation
import GoogleMaps
import UIKit

/// Markers and an alert: five places in central Helsinki, a switch under the map that shows or hides them, a "+"
/// bar button that drops a pin at the map's centre, and a "Clear" bar button that asks before removing every
/// marker (`GMSMapView.clear()`).
final class MarkersViewController: UIViewController {
    static let places: [(name: String, position: CLLocationCoordinate2D)] = [
        ("Railway Station", CLLocationCoordinate2D(latitude: 60.1710, longitude: 24.9414)),
        ("Senate Square", CLLocationCoordinate2D(latitude: 60.1695, longitude: 24.9526)),
        ("Market Square", CLLocationCoordinate2D(latitude: 60.1675, longitude: 24.9530)),
        ("Kamppi", CLLocationCoordinate2D(latitude: 60.1685, longitude: 24.9316)),
        ("Ateneum", CLLocationCoordinate2D(latitude: 60.1700, longitude: 24.9443)),
    ]

    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.1692, longitude: 24.9430, zoom: 14))
    let placesSwitch = UISwitch()
    let countLabel = UILabel()
    private(set) var placeMarkers: [GMSMarker] = []
    private(set) var droppedMarkers: [GMSMarker] = []

    /// The markers on the map now.
    var markerCount: Int {
        placeMarkers.filter { $0.map === mapView }.count + droppedMarkers.filter { $0.map === mapView }.count
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Markers & alert"
        view.backgroundColor = .systemBackground

        let placesLabel = UILabel()
        placesLabel.text = "Show places"
        placesLabel.font = .systemFont(ofSize: 17)
        countLabel.font = .systemFont(ofSize: 13)
        countLabel.textColor = .secondaryLabel
        countLabel.textAlignment = .right
        placesSwitch.isOn = true
        placesSwitch.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.showPlaces(self.placesSwitch.isOn)
            }, for: .valueChanged)

        let panel = UIStackView.controlRow([placesLabel, placesSwitch, countLabel], spacing: 12)
        layOut(mapView, above: panel)
        panel.heightAnchor.constraint(greaterThanOrEqualToConstant: 52).isActive = true

        navigationItem.rightBarButtonItems = [
            UIBarButtonItem(
                title: "Clear", primaryAction: UIAction { [weak self] _ in self?.confirmClear() }),
            UIBarButtonItem(
                systemItem: .add, primaryAction: UIAction { [weak self] _ in self?.dropPin() }),
        ]

        for place in Self.places {
            let marker = GMSMarker(position: place.position)
            marker.title = place.name
            marker.map = mapView
            placeMarkers.append(marker)
        }
        updateCount()
    }

    /// Shows or hides the five places.
    func showPlaces(_ show: Bool) {
        for marker in placeMarkers { marker.map = show ? mapView : nil }
        updateCount()
    }

    /// Drops a purple pin at the centre of the map.
    func dropPin() {
        let marker = GMSMarker(position: mapView.camera.target)
        marker.title = "Pin \(droppedMarkers.count + 1)"
        marker.icon = GMSMarker.markerImage(with: .systemPurple)
        marker.appearAnimation = .pop
        marker.map = mapView
        droppedMarkers.append(marker)
        updateCount()
    }

    /// Asks before removing every marker; "Remove" clears the map and turns the places switch off.
    func confirmClear() {
        let alert = UIAlertController(
            title: "Remove all markers?", message: "The places and the pins you dropped are removed from the map.",
            preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(
            UIAlertAction(title: "Remove", style: .destructive) { [weak self] _ in
                guard let self else { return }
                self.mapView.clear()
                self.droppedMarkers.removeAll()
                self.placesSwitch.setOn(false, animated: true)
                self.updateCount()
            })
        present(alert, animated: true)
    }

    private func updateCount() {
        countLabel.text = markerCount == 1 ? "1 marker" : "\(markerCount) markers"
    }
}

import CoreLocation
import GoogleMaps
import UIKit

/// The camera from controls: a slider sets the zoom, a stepper turns the map 30° at a time, and a "Go to" bar button
/// opens an action sheet of places the camera flies to. The map's delegate keeps the slider and the label in step
/// when a gesture moves the camera.
final class CameraViewController: UIViewController, GMSMapViewDelegate {
    static let places: [(name: String, position: CLLocationCoordinate2D)] = [
        ("Senate Square", CLLocationCoordinate2D(latitude: 60.1695, longitude: 24.9526)),
        ("Kaivopuisto", CLLocationCoordinate2D(latitude: 60.1565, longitude: 24.9560)),
        ("Töölö Bay", CLLocationCoordinate2D(latitude: 60.1780, longitude: 24.9360)),
    ]

    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 14))
    let zoomSlider = UISlider()
    let bearingStepper = UIStepper()
    let zoomLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Camera"
        view.backgroundColor = .systemBackground
        mapView.delegate = self
        mapView.settings.compassButton = true

        zoomSlider.minimumValue = 10
        zoomSlider.maximumValue = 18
        zoomSlider.value = mapView.camera.zoom
        zoomSlider.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.mapView.moveCamera(GMSCameraUpdate.zoom(to: self.zoomSlider.value))
            }, for: .valueChanged)

        bearingStepper.minimumValue = 0
        bearingStepper.maximumValue = 330
        bearingStepper.stepValue = 30
        bearingStepper.wraps = true
        bearingStepper.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.mapView.animate(toBearing: self.bearingStepper.value)
            }, for: .valueChanged)

        zoomLabel.font = .systemFont(ofSize: 15)
        zoomLabel.setContentHuggingPriority(.required, for: .horizontal)
        updateLabel(mapView.camera)

        let controls = UIStackView.controlRow([zoomLabel, zoomSlider, bearingStepper], spacing: 16)
        layOut(mapView, above: controls)
        controls.heightAnchor.constraint(equalToConstant: 56).isActive = true

        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Go to", primaryAction: UIAction { [weak self] _ in self?.choosePlace() })
    }

    /// An action sheet of places; choosing one flies the camera there at zoom 16.
    func choosePlace() {
        let sheet = UIAlertController(title: "Go to", message: nil, preferredStyle: .actionSheet)
        for place in Self.places {
            sheet.addAction(
                UIAlertAction(title: place.name, style: .default) { [weak self] _ in
                    self?.mapView.animate(to: GMSCameraPosition(target: place.position, zoom: 16))
                })
        }
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        present(sheet, animated: true)
    }

    private func updateLabel(_ position: GMSCameraPosition) {
        zoomLabel.text = String(format: "Zoom %.1f", position.zoom)
    }

    // MARK: GMSMapViewDelegate

    func mapView(_ mapView: GMSMapView, didChange position: GMSCameraPosition) {
        updateLabel(position)
    }

    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        updateLabel(position)
        if !zoomSlider.isTracking { zoomSlider.value = position.zoom }
    }
}

import CoreLocation
import GoogleMaps
import UIKit

/// One marker for each thing the guide shows: a default marker that pops in, a tinted default marker, a custom icon
/// image, an icon view whose tint animates once the map is shown (then stops tracking changes so the CPU can
/// idle), a half-transparent marker, and a flat, rotated marker.
final class MarkersViewController: UIViewController, GMSMapViewDelegate {
    var mapView: GMSMapView!
    /// The marker drawn from a view, and that view.
    var houseMarker: GMSMarker?
    var houseView: UIImageView?
    private(set) var markers: [GMSMarker] = []

    override func loadView() {
        let camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9460, zoom: 15.5)
        let mapView = GMSMapView(frame: .zero, camera: camera)
        mapView.delegate = self
        self.mapView = mapView
        view = mapView

        add("Helsinki Cathedral", at: 60.17028, 24.95222) { $0.appearAnimation = .pop }
        add("Ateneum", at: 60.16996, 24.94427) { $0.icon = GMSMarker.markerImage(with: .black) }
        add("Central Station", at: 60.17110, 24.94140) { $0.icon = Self.houseImage(color: .systemGreen) }
        add("Old Market Hall", at: 60.16701, 24.95312) { $0.opacity = 0.6 }
        add("Esplanadi", at: 60.16770, 24.94760) {
            $0.isFlat = true
            $0.rotation = 45
        }

        let imageView = UIImageView(image: Self.houseImage(color: .black).withRenderingMode(.alwaysTemplate))
        imageView.tintColor = .red
        houseView = imageView
        houseMarker = add("Kiasma", at: 60.17190, 24.93650) {
            $0.iconView = imageView
            $0.tracksViewChanges = true
        }
    }

    @discardableResult
    private func add(
        _ title: String, at latitude: CLLocationDegrees, _ longitude: CLLocationDegrees,
        _ configure: (GMSMarker) -> Void
    ) -> GMSMarker {
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        marker.title = title
        configure(marker)
        marker.map = mapView
        markers.append(marker)
        return marker
    }

    /// A small house icon drawn in code (apps would ship it as `house.png`).
    static func houseImage(color: UIColor) -> UIImage {
        UIGraphicsImageRenderer(size: CGSize(width: 28, height: 28)).image { context in
            let cg = context.cgContext
            cg.setFillColor(color.cgColor)
            cg.move(to: CGPoint(x: 14, y: 2))
            cg.addLine(to: CGPoint(x: 27, y: 14))
            cg.addLine(to: CGPoint(x: 23, y: 14))
            cg.addLine(to: CGPoint(x: 23, y: 27))
            cg.addLine(to: CGPoint(x: 5, y: 27))
            cg.addLine(to: CGPoint(x: 5, y: 14))
            cg.addLine(to: CGPoint(x: 1, y: 14))
            cg.closePath()
            cg.fillPath()
        }
    }

    /// Once the map is on screen: the icon view's tint turns from red to blue over 5 s, then the marker stops
    /// tracking view changes so the CPU can idle.
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        UIView.animate(
            withDuration: 5,
            animations: { self.houseView?.tintColor = .blue },
            completion: { _ in self.houseMarker?.tracksViewChanges = false })
    }
}

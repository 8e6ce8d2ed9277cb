// Swift 5 mode only: helpers that are not view controllers and carry no actor annotation, touching UIKit views and
// GMSMapView, as Swift 5 apps write them. On iOS UIKit and Google's SDK come from Objective-C headers, whose
// declarations all predate Swift concurrency (`@preconcurrency`): Swift 5 mode checks none of these calls, so none may
// be an error or a warning here. In Swift 6 mode the same calls are diagnosed, on iOS as here, so this file has no
// Swift 6 twin.
import CoreLocation
import Foundation
import GoogleMaps
import UIKit

/// A factory with static methods, isolated to no actor.
enum MapScreenFactory {
    static func makeMapView(center: CLLocationCoordinate2D) -> GMSMapView {
        let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(target: center, zoom: 14))
        mapView.settings.compassButton = true
        mapView.isMyLocationEnabled = true
        mapView.padding = UIEdgeInsets(top: 0, left: 0, bottom: 44, right: 0)
        return mapView
    }

    static func makeOptionsMapView() -> GMSMapView {
        let options = GMSMapViewOptions()
        options.camera = GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12)
        return GMSMapView(options: options)
    }
}

/// A free function styling a control.
func styleRoundButton(_ button: UIButton) {
    button.backgroundColor = .white
    button.setTitle("Locate", for: .normal)
    button.layer.cornerRadius = 22
    button.layer.shadowOpacity = 0.3
    button.translatesAutoresizingMaskIntoConstraints = false
}

/// A presenter holding the map weakly.
final class PinPresenter {
    weak var mapView: GMSMapView?
    private(set) var markers: [GMSMarker] = []

    func show(_ coordinates: [CLLocationCoordinate2D]) {
        for coordinate in coordinates {
            let marker = GMSMarker(position: coordinate)
            marker.map = mapView
            markers.append(marker)
        }
        if let first = coordinates.first { mapView?.animate(toLocation: first) }
        mapView?.selectedMarker = markers.first
    }

    func pinAbove(_ container: UIView) -> NSLayoutConstraint? {
        guard let mapView else { return nil }
        container.addSubview(mapView)
        return mapView.topAnchor.constraint(equalTo: container.safeAreaLayoutGuide.topAnchor)
    }
}

/// A delegate object that is an NSObject, not a view controller.
final class MapEventsModel: NSObject, GMSMapViewDelegate {
    var onIdle: ((GMSCameraPosition) -> Void)?

    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        onIdle?(position)
    }

    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        mapView.selectedMarker = marker
        return true
    }
}

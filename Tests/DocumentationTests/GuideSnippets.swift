// The code of the GoogleMaps documentation articles (Sources/GoogleMaps/GoogleMaps.docc). Each region between
// `// snippet: NAME` and `// end-snippet` is a code block of an article, character for character; this file compiles
// with the test target, and `GuideSnippetTests` checks that every article block is one of these regions and runs them.
import GoogleMaps
import UIKit

// snippet: markers-add
@MainActor func addMarker(to mapView: GMSMapView) -> GMSMarker {
    let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384))
    marker.title = "Helsinki"
    marker.snippet = "Finland"
    marker.map = mapView
    return marker
}
// end-snippet

// snippet: markers-customise
@MainActor func customise(_ marker: GMSMarker) {
    marker.icon = GMSMarker.markerImage(with: .blue)
    marker.groundAnchor = CGPoint(x: 0.5, y: 1)
    marker.rotation = 45
    marker.opacity = 0.8
    marker.zIndex = 10
    marker.appearAnimation = .pop
}
// end-snippet

// snippet: markers-remove
@MainActor func removeAll(from mapView: GMSMapView, markers: [GMSMarker]) {
    for marker in markers { marker.map = nil }
    mapView.clear()  // removes every overlay at once
}
// end-snippet

// snippet: markers-advanced
func stopMarker(at position: CLLocationCoordinate2D, number: Int) -> GMSAdvancedMarker {
    let options = GMSPinImageOptions()
    options.backgroundColor = .systemBlue
    options.borderColor = .white
    options.glyph = GMSPinImageGlyph(text: "\(number)", textColor: .white)
    let marker = GMSAdvancedMarker(position: position)
    marker.icon = GMSPinImage(options: options)
    marker.collisionBehavior = .optionalAndHidesLowerPriority
    return marker
}
// end-snippet

// snippet: info-windows-content
final class PlaceInfoDelegate: NSObject, GMSMapViewDelegate {
    func mapView(_ mapView: GMSMapView, markerInfoContents marker: GMSMarker) -> UIView? {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 160, height: 40))
        label.text = marker.title?.uppercased()
        return label
    }

    func mapView(_ mapView: GMSMapView, didTapInfoWindowOf marker: GMSMarker) {
        print("tapped the window of \(marker.title ?? "")")
    }
}
// end-snippet

// snippet: info-windows-select
@MainActor func showWindow(of marker: GMSMarker, on mapView: GMSMapView) {
    marker.infoWindowAnchor = CGPoint(x: 0.5, y: 0)
    mapView.selectedMarker = marker  // opens the window without moving the camera
}
// end-snippet

// snippet: events-delegate
final class EventLog: NSObject, GMSMapViewDelegate {
    var lines: [String] = []

    func mapView(_ mapView: GMSMapView, didTapAt coordinate: CLLocationCoordinate2D) {
        lines.append("tap \(coordinate.latitude), \(coordinate.longitude)")
    }

    func mapView(_ mapView: GMSMapView, willMove gesture: Bool) {
        lines.append(gesture ? "will move (gesture)" : "will move")
    }

    func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) {
        lines.append("idle at zoom \(position.zoom)")
    }
}
// end-snippet

// snippet: controls-settings
@MainActor func configureControls(of mapView: GMSMapView) {
    mapView.settings.compassButton = true
    mapView.settings.myLocationButton = true
    mapView.isMyLocationEnabled = true
    mapView.settings.tiltGestures = false
    mapView.settings.rotateGestures = false
    mapView.padding = UIEdgeInsets(top: 0, left: 0, bottom: 80, right: 0)
}
// end-snippet

// The examples of README.md's "Porting an iOS map screen", compiled here (PortingGuideTests checks that every Swift
// block of that section appears in this file, line for line), in both language modes (Swift5Checks links this file).
import CoreLocation
import Foundation
import GoogleMaps
import UIKit

extension Notification.Name {
    static let placesDidChange = Notification.Name("PlacesDidChange")
}

final class TrackingScreen: UIViewController, GMSMapViewDelegate {
    let mapView = GMSMapView(frame: .zero, camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 14))
    var refreshTimer: Timer?
    var observer: (any NSObjectProtocol)?
    var displayLink: CADisplayLink?
    let refreshButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(mapView)
        mapView.delegate = self
        startUpdates()
    }

    func startUpdates() {
        refreshTimer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated { self?.refresh() }
        }
        observer = NotificationCenter.default.addObserver(forName: .placesDidChange, object: nil, queue: .main) {
            [weak self] _ in
            MainActor.assumeIsolated { self?.refresh() }
        }
        displayLink = CADisplayLink { [weak self] link in
            self?.step(at: link.timestamp)
        }
        displayLink?.add(to: .main, forMode: .common)
        refreshButton.addAction(UIAction { [weak self] _ in self?.refresh() }, for: .touchUpInside)
    }

    func refresh() {
        mapView.animate(toZoom: mapView.camera.zoom + 1)
    }

    func step(at time: TimeInterval) {}

    // Delegate methods need no @objc: they are plain protocol requirements.
    func mapView(_ mapView: GMSMapView, didTap marker: GMSMarker) -> Bool {
        false
    }
}

/// Model objects are made by code isolated to no actor, as on iOS; only the map view is main-actor.
func makeRoute(through stops: [CLLocationCoordinate2D]) -> GMSPolyline {
    let path = GMSMutablePath()
    for stop in stops { path.add(stop) }
    let route = GMSPolyline(path: path)
    route.strokeWidth = 4
    return route
}

func reportVersion() {
    Task.detached {
        print("Maps SDK", GMSServices.sdkVersion())
    }
}

extension TrackingScreen {
    func showRoute(_ stops: [CLLocationCoordinate2D]) {
        makeRoute(through: stops).map = mapView
    }
}

/// A screens list keeps factories, `() -> UIViewController`, not `UIViewController.Type` values: Swift calls `init()`
/// through a metatype only when it is `required` (README's "What does not compile" table).
@MainActor func makeScreens() -> [(title: String, make: @MainActor () -> UIViewController)] {
    [("Tracking", { UIViewController() })]
}

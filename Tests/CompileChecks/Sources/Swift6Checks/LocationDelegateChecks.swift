// Issue 30: a main-actor view controller as CLLocationManager's delegate, written as for iOS. Swift 6 mode: the conformance is `@preconcurrency`, as Xcode's fix-it writes it on iOS (the protocol is isolated to no actor there and here).
import CoreLocation
import GoogleMaps
import UIKit

final class LocationDelegateScreen: UIViewController {
    let manager = CLLocationManager()
    var lastFix: CLLocation?
    let label = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        manager.delegate = self
        manager.requestWhenInUseAuthorization()
    }
}

extension LocationDelegateScreen: @preconcurrency CLLocationManagerDelegate {
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        if manager.authorizationStatus == .authorizedWhenInUse { manager.startUpdatingLocation() }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        lastFix = locations.last
        label.text = "\(locations.count) fixes"
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        label.text = "No location"
    }
}

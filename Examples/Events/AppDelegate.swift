// The Events guide as an app: `swift run events-example` opens a window and prints the map's events;
// `--headless --snapshot FILE.png` writes the first idle frame.
import CoreLocation
import GoogleMaps
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = EventsViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

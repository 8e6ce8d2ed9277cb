// The Markers guide as an app: `swift run markers-example` opens a window; `--headless --snapshot FILE.png` writes
// the first idle frame. Written from the guide's text for the bundled data (central Helsinki at street level).
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
        window.rootViewController = MarkersViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

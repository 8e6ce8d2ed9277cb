// The Controls and gestures guide as an app: `swift run controls-example` opens a window; `--headless --snapshot
// FILE.png` writes the first idle frame.
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
        window.rootViewController = ControlsViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

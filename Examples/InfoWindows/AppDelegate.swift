// The Info windows guide as an app: `swift run info-windows-example` opens a window; `--headless --snapshot
// FILE.png` writes the first idle frame (with the first marker's window open).
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
        window.rootViewController = InfoWindowsViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

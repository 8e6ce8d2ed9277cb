// A navigation controller whose table lists map screens, as an iOS app's catalogue of map screens is written: each
// screen lays its map and controls out with Auto Layout, has bar buttons, asks with an alert and changes the map
// from a control. `swift run map-screens-example` opens a window; `--headless --snapshot FILE.png` writes the first
// idle frame.
import GoogleMaps
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        GMSServices.provideAPIKey("YOUR_API_KEY")
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = UINavigationController(rootViewController: ScreenListViewController())
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

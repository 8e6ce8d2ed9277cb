// A whole map screen written as an iOS app is written, from Google's guides, compiled unchanged: a navigation
// controller, a main map and an overview map laid out with Auto Layout, a delegate, overlays, a tile layer drawn off
// the main thread and a camera animation sequence. `swift run map-screen-example` opens a window;
// `--headless --snapshot FILE.png` writes the first idle frame.
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
        window.rootViewController = UINavigationController(rootViewController: TourViewController())
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

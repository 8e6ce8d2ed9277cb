// Marker clustering (GoogleMapsUtils, Google's "Marker Clustering" utility guide) as an app: `swift run
// clustering-example` opens a window; `--headless --snapshot FILE.png` writes the first idle frame. 1,000 points of
// interest around Paris are clustered; tapping a cluster zooms in on it, tapping an item prints its name.
import GoogleMaps
import GoogleMapsUtils
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = ClusteringViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

// Heatmaps (GoogleMapsUtils, Google's "Heatmaps" utility guide) as an app: `swift run heatmap-example` opens a
// window; `--headless --snapshot FILE.png` writes the first idle frame. Weighted points over Melbourne; a gradient
// like the guide's custom one.
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
        window.rootViewController = HeatmapViewController()
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

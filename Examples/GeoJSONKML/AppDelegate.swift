// GeoJSON and KML (GoogleMapsUtils, Google's "Import GeoJSON data" and "Import KML data" utility guides) as an app:
// `swift run geojson-kml-example` opens a window; `--headless --snapshot FILE.png` writes the first idle frame.
// `--kml FILE` / `--geojson FILE` render a file of your own instead of the built-in documents.
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
        let arguments = ProcessInfo.processInfo.arguments
        func value(_ flag: String) -> String? {
            arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        window.rootViewController = GeoJSONKMLViewController(
            kmlPath: value("--kml"), geoJSONPath: value("--geojson"))
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}

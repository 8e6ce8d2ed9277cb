// GeoJSON and KML (GoogleMapsUtils, Google's "Import GeoJSON data" and "Import KML data" utility guides) as an app:
// `swift run geojson-kml-example` opens a window; `--headless --snapshot FILE.png` writes the first idle frame.
// `--kml FILE` / `--geojson FILE` render a file of your own instead of the built-in documents; a file named there
// that cannot be read or parsed is reported on stderr and the example exits 1 (it does not draw the built-in one).
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
            guard let i = arguments.firstIndex(of: flag) else { return nil }
            guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") else { Self.fail("\(flag) needs a FILE") }
            let path = arguments[i + 1]
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &folder), !folder.boolValue,
                FileManager.default.isReadableFile(atPath: path)
            else { Self.fail("cannot read \(flag) file '\(path)'") }
            return path
        }
        let (kmlPath, geoJSONPath) = (value("--kml"), value("--geojson"))
        let controller = GeoJSONKMLViewController(kmlPath: kmlPath, geoJSONPath: geoJSONPath)
        window.rootViewController = controller
        window.makeKeyAndVisible()
        _ = controller.view
        // The file was there but did not parse: its problems were printed ("Could not read: …"); nothing of the
        // user's was drawn as asked, so the run fails.
        if kmlPath != nil || geoJSONPath != nil, !controller.problems.isEmpty {
            Self.fail("\(controller.problems.count) problem(s) reading the files given")
        }
        self.window = window
        return true
    }

    /// Prints `geojson-kml-example: <message>` on stderr and exits 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("geojson-kml-example: \(message)\n".utf8))
        exit(1)
    }
}

// Compiled in both language modes (Swift5Checks links this file): every call below compiles against Google's SDK on
// iOS without a diagnostic in Swift 5 and Swift 6 mode (Xcode warns on none of them), so none may warn here either.
import CoreLocation
import Foundation
import GoogleMaps
import UIKit

/// A plain class, isolated to no actor, building map objects as iOS code does off the main actor.
final class RouteBuilder {
    let helsinki = CLLocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)
    let espoo = CLLocationCoordinate2D(latitude: 60.2055, longitude: 24.6559)

    func makeMarker() -> GMSMarker {
        let marker = GMSMarker(position: helsinki)
        marker.title = "Helsinki"
        marker.snippet = "Capital of Finland"
        marker.icon = GMSMarker.markerImage(with: .blue)
        marker.groundAnchor = CGPoint(x: 0.5, y: 0.5)
        marker.zIndex = 2
        marker.userData = ["id": 7]
        return marker
    }

    func makeLine() -> GMSPolyline {
        let path = GMSMutablePath()
        path.add(helsinki)
        path.add(espoo)
        let line = GMSPolyline(path: path)
        line.strokeWidth = 4
        line.strokeColor = .red
        line.geodesic = true
        line.spans = [GMSStyleSpan(color: .green)]
        return line
    }

    func makeArea() -> (GMSPolygon, GMSCircle) {
        let ring = GMSMutablePath()
        ring.addLatitude(60.16, longitude: 24.93)
        ring.addLatitude(60.18, longitude: 24.93)
        ring.addLatitude(60.18, longitude: 24.96)
        let polygon = GMSPolygon(path: ring)
        polygon.fillColor = UIColor(red: 0, green: 0, blue: 1, alpha: 0.3)
        let circle = GMSCircle(position: helsinki, radius: 500)
        circle.strokeColor = .black
        return (polygon, circle)
    }

    func makeTiles() -> GMSURLTileLayer {
        let layer = GMSURLTileLayer(urlConstructor: { x, y, zoom in
            URL(string: "https://tiles.example.com/\(zoom)/\(x)/\(y).png")
        })
        layer.zIndex = 1
        layer.tileSize = 512
        return layer
    }

    func camera() -> (GMSCameraPosition, GMSCameraUpdate, GMSCoordinateBounds) {
        let camera = GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12)
        let bounds = GMSCoordinateBounds(coordinate: helsinki, coordinate: espoo)
        return (camera, GMSCameraUpdate.fit(bounds, withPadding: 40), bounds)
    }
}

/// A sync tile layer: `tileFor` runs on the SDK's threads and returns marker images (made on any thread).
final class CheckerTileLayer: GMSSyncTileLayer {
    var tint: UIColor = .green

    override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
        (x + y) % 2 == 0 ? GMSMarker.markerImage(with: tint) : kGMSTileLayerNoTile
    }
}

/// A marker subclass with its own stored state, as apps write.
final class PlaceMarker: GMSMarker {
    var placeID: String = ""
}

/// Top-level functions, isolated to no actor.
func configureServices() {
    GMSServices.provideAPIKey("YOUR_API_KEY")
    GMSServices.addInternalUsageAttributionID("gmp_example_attribution")
    print("Maps SDK", GMSServices.sdkVersion(), GMSServices.openSourceLicenseInfo().count)
}

func prepareOffMain() {
    Task.detached {
        _ = GMSServices.sdkVersion()
        GMSServices.addInternalUsageAttributionID("detached")
        let builder = RouteBuilder()
        let marker = builder.makeMarker()
        marker.title = "Set off the main actor"
        _ = builder.makeLine()
        _ = builder.makeTiles()
        let tiles = CheckerTileLayer()
        _ = tiles.tileFor(x: 0, y: 0, zoom: 1)
        _ = GMSMarker.markerImage(with: nil)
        let copy = marker.copy() as? GMSMarker
        _ = copy?.position
        GMSGeocoder().reverseGeocodeCoordinate(builder.helsinki) { response, _ in
            _ = response?.firstResult()?.locality
        }
        GMSPanoramaService().requestPanoramaNearCoordinate(builder.helsinki) { panorama, error in
            _ = (panorama?.panoramaID, error?.localizedDescription)
        }
    }
}

/// The map screen itself is main-actor, like every UIKit view.
final class MapScreen: UIViewController {
    let builder = RouteBuilder()

    override func viewDidLoad() {
        super.viewDidLoad()
        let mapView = GMSMapView(frame: view.bounds)
        view.addSubview(mapView)
        builder.makeMarker().map = mapView
        builder.makeLine().map = mapView
        let tiles = CheckerTileLayer()
        tiles.map = mapView
        let panorama = GMSPanoramaView(frame: view.bounds)
        panorama.moveNearCoordinate(builder.espoo)
    }
}

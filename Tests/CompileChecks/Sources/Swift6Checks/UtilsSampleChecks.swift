// Code as Google's google-maps-ios-utils samples and apps write it (session 19's QA of those samples): the file
// imports GoogleMapsUtils alone, as Google's snippets do, and uses GoogleMaps, UIKit, CoreLocation and Foundation
// through it; icon generators and delegates written for the Objective-C library (versions before 6).
import GoogleMapsUtils

/// An icon generator written for the Objective-C library: `iconForSize:` seen from Swift.
final class BadgeIconGenerator: GMUClusterIconGenerator {
    func icon(forSize size: UInt) -> UIImage {
        UIGraphicsImageRenderer(size: CGSize(width: 30, height: 30)).image { _ in
            UIColor.systemRed.setFill()
            UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 30, height: 30)).fill()
            "\(size)".draw(at: CGPoint(x: 8, y: 6), withAttributes: [.foregroundColor: UIColor.white])
        }
    }
}

/// The default generator subclassed, as apps do to change one bucket's look.
final class TintedIconGenerator: GMUDefaultClusterIconGenerator {
    override func icon(forSize size: UInt) -> UIImage {
        size > 100 ? super.icon(forSize: size).withTintColor(.purple) : super.icon(forSize: size)
    }
}

/// A screen whose delegates declare the optional results non-optional, as iOS accepts.
final class ClusterScreen: UIViewController, GMSMapViewDelegate, GMUClusterRendererDelegate {
    private var mapView: GMSMapView!
    private var clusterManager: GMUClusterManager!

    override func viewDidLoad() {
        super.viewDidLoad()
        let camera = GMSCameraPosition.camera(withLatitude: -33.8, longitude: 151.2, zoom: 10)
        mapView = GMSMapView(frame: view.bounds, camera: camera)
        view.addSubview(mapView)
        let renderer = GMUDefaultClusterRenderer(
            mapView: mapView, clusterIconGenerator: GMUDefaultClusterIconGenerator(buckets: [10, 50, 100]))
        renderer.delegate = self
        clusterManager = GMUClusterManager(
            map: mapView, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
        clusterManager.setMapDelegate(self)
        let path = Bundle.main.path(forResource: "places", ofType: "json")
        print(path ?? "no places.json", CLLocationCoordinate2D(latitude: -33.8, longitude: 151.2).latitude)
    }

    func mapView(_ mapView: GMSMapView, markerInfoWindow marker: GMSMarker) -> UIView {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 30))
        label.text = marker.title
        return label
    }

    func renderer(_ renderer: GMUClusterRenderer, markerFor object: Any) -> GMSMarker {
        let marker = GMSMarker()
        marker.accessibilityLabel = "cluster"
        marker.accessibilityActivationPoint = CGPoint(x: 10, y: 10)
        return marker
    }
}

/// The quadtree as the Objective-C library is seen from Swift.
final class QuadTreePoint: NSObject, GQTPointQuadTreeItem {
    let at: GQTPoint
    init(x: Double, y: Double) { at = GQTPoint(x: x, y: y) }
    func point() -> GQTPoint { at }
}

func quadTreeCount() -> Int {
    let tree = GQTPointQuadTree(bounds: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1))
    tree.add(QuadTreePoint(x: 0.5, y: 0.5))
    let found = tree.search(with: GQTBounds(minX: 0, minY: 0, maxX: 1, maxY: 1))
    return found.compactMap { $0 as? QuadTreePoint }.count + (UIImage().size == .zero ? 0 : 1)
}

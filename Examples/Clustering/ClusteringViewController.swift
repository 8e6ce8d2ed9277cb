import GoogleMaps
import GoogleMapsUtils
import UIKit

/// A point of interest, as the guide's `POIItem`.
final class POIItem: NSObject, GMUClusterItem {
    var position: CLLocationCoordinate2D
    var name: String

    init(position: CLLocationCoordinate2D, name: String) {
        self.position = position
        self.name = name
    }
}

/// The guide's set-up: a default icon generator, the non-hierarchical distance algorithm, the default renderer and a
/// cluster manager; taps on clusters zoom in, taps on items print the item.
final class ClusteringViewController: UIViewController, GMSMapViewDelegate, GMUClusterManagerDelegate {
    var mapView: GMSMapView!
    var clusterManager: GMUClusterManager!
    var renderer: GMUDefaultClusterRenderer!
    private(set) var items: [POIItem] = []

    override func loadView() {
        let camera = GMSCameraPosition.camera(withLatitude: 48.8566, longitude: 2.3522, zoom: 11)
        mapView = GMSMapView(frame: .zero, camera: camera)
        view = mapView

        let iconGenerator = GMUDefaultClusterIconGenerator()
        let algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
        renderer = GMUDefaultClusterRenderer(mapView: mapView, clusterIconGenerator: iconGenerator)
        clusterManager = GMUClusterManager(map: mapView, algorithm: algorithm, renderer: renderer)
        clusterManager.setDelegate(self, mapDelegate: self)

        items = Self.generateItems()
        clusterManager.add(items)
    }

    /// Clusters once the map has its size (the renderer adds markers for what is in view).
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        clusterManager.cluster()
    }

    /// 1,000 items around Paris: ten neighbourhoods with a spread of points each, from a fixed seed.
    static func generateItems() -> [POIItem] {
        var state: UInt64 = 31
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let centres = [
            (48.8606, 2.3376), (48.8530, 2.3499), (48.8738, 2.2950), (48.8867, 2.3431), (48.8462, 2.3372),
            (48.8656, 2.3212), (48.8420, 2.3220), (48.8560, 2.3650), (48.8800, 2.3700), (48.8330, 2.3550),
        ]
        return (0..<1000).map { i in
            let c = centres[i % centres.count]
            let spread = i % 3 == 0 ? 0.03 : 0.008
            return POIItem(
                position: CLLocationCoordinate2D(
                    latitude: c.0 + (next() - 0.5) * spread, longitude: c.1 + (next() - 0.5) * spread * 1.5),
                name: "Item \(i)")
        }
    }

    /// Zooms in one level on the tapped cluster.
    func clusterManager(_ clusterManager: GMUClusterManager, didTap cluster: any GMUCluster) -> Bool {
        print("Did tap cluster of \(cluster.count) items")
        let update = GMSCameraUpdate.setTarget(cluster.position, zoom: mapView.camera.zoom + 1)
        mapView.moveCamera(update)
        return true
    }

    /// Prints the tapped item; the marker's default behaviour (selection) follows.
    func clusterManager(_ clusterManager: GMUClusterManager, didTap clusterItem: any GMUClusterItem) -> Bool {
        if let poi = clusterItem as? POIItem { print("Did tap marker for cluster item \(poi.name)") }
        return false
    }
}

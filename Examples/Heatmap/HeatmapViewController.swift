import GoogleMaps
import GoogleMapsUtils
import UIKit

/// The guide's heatmap: a `GMUHeatmapTileLayer` with weighted data, a larger radius and a custom gradient.
final class HeatmapViewController: UIViewController {
    var mapView: GMSMapView!
    let heatmapLayer = GMUHeatmapTileLayer()

    override func loadView() {
        let camera = GMSCameraPosition.camera(withLatitude: -37.8136, longitude: 144.9631, zoom: 11)
        mapView = GMSMapView(frame: .zero, camera: camera)
        view = mapView

        let gradientColors: [UIColor] = [.green, .red]
        let gradientStartPoints = [0.2, 1.0] as [NSNumber]
        heatmapLayer.radius = 40
        heatmapLayer.opacity = 0.8
        heatmapLayer.gradient = GMUGradient(
            colors: gradientColors, startPoints: gradientStartPoints, colorMapSize: 256)
        heatmapLayer.weightedData = Self.weightedData()
        heatmapLayer.map = mapView
    }

    /// 2,000 weighted points: three hot spots over Melbourne and a thin scatter, from a fixed seed.
    static func weightedData() -> [GMUWeightedLatLng] {
        var state: UInt64 = 11
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let spots = [(-37.8136, 144.9631, 0.02), (-37.84, 145.01, 0.015), (-37.78, 144.92, 0.03)]
        return (0..<2000).map { i in
            if i % 10 == 0 {
                return GMUWeightedLatLng(
                    coordinate: CLLocationCoordinate2D(
                        latitude: -37.9 + next() * 0.2, longitude: 144.85 + next() * 0.25),
                    intensity: 1)
            }
            let s = spots[i % spots.count]
            let r = s.2 * next() * next()
            let a = next() * 2 * Double.pi
            return GMUWeightedLatLng(
                coordinate: CLLocationCoordinate2D(latitude: s.0 + r * sin(a), longitude: s.1 + r * cos(a) * 1.3),
                intensity: Float(1 + next() * 2))
        }
    }
}

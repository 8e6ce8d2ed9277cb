import Foundation
import GoogleMaps
import MapStorage

/// The demo's `GMSMapView` scene, built only with the public Google Maps API as an app would: central Helsinki with
/// the demo points of interest (`Data/helsinki-pois.geojson`) as default pins in category colours, and one museum
/// selected so its info window shows.
@MainActor enum DemoMarkersMap {
    /// Pin colours by POI category (the `category` property written by scripts/data/build_pois.py).
    static let categoryColors: [String: UIColor] = [
        "restaurant": UIColor(red: 0.91, green: 0.45, blue: 0.13, alpha: 1),
        "cafe": UIColor(red: 0.55, green: 0.35, blue: 0.22, alpha: 1),
        "hotel": UIColor(red: 0.20, green: 0.40, blue: 0.85, alpha: 1),
        "museum": UIColor(red: 0.55, green: 0.25, blue: 0.70, alpha: 1),
        "gallery": UIColor(red: 0.55, green: 0.25, blue: 0.70, alpha: 1),
        "park": UIColor(red: 0.20, green: 0.60, blue: 0.30, alpha: 1),
        "station": UIColor(red: 0.10, green: 0.20, blue: 0.45, alpha: 1),
        "place_of_worship": UIColor(red: 0.45, green: 0.45, blue: 0.50, alpha: 1),
        "theatre": UIColor(red: 0.85, green: 0.25, blue: 0.55, alpha: 1),
        "cinema": UIColor(red: 0.85, green: 0.25, blue: 0.55, alpha: 1),
        "library": UIColor(red: 0.10, green: 0.55, blue: 0.55, alpha: 1),
    ]

    /// Builds the map, adds the markers and selects the Ateneum art museum (or the first museum).
    /// - Throws: ``RuntimeError`` when the POI file cannot be read or parsed, naming it.
    static func make(size: CGSize) throws -> GMSMapView {
        let camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 16.5)
        let mapView = GMSMapView(frame: CGRect(origin: .zero, size: size), camera: camera)
        let path = DataFiles.path("helsinki-pois.geojson")
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let features = root["features"] as? [[String: Any]]
        else { throw RuntimeError("cannot read the demo markers at \(path)") }
        var images: [String: UIImage] = [:]
        var featured: GMSMarker?
        for feature in features {
            guard let properties = feature["properties"] as? [String: Any],
                let geometry = feature["geometry"] as? [String: Any],
                let coordinates = geometry["coordinates"] as? [Double], coordinates.count >= 2
            else { continue }
            let category = properties["category"] as? String ?? "other"
            let marker = GMSMarker(
                position: CLLocationCoordinate2D(latitude: coordinates[1], longitude: coordinates[0]))
            marker.title = properties["name"] as? String
            marker.snippet = category.replacingOccurrences(of: "_", with: " ").capitalized
            if let color = categoryColors[category] {
                let image = images[category] ?? GMSMarker.markerImage(with: color)
                images[category] = image
                marker.icon = image
            }
            marker.map = mapView
            if category == "museum" && (featured == nil || marker.title == "Ateneum") { featured = marker }
        }
        mapView.selectedMarker = featured
        return mapView
    }
}

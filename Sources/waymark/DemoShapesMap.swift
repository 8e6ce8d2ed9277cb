import Foundation
import GoogleMaps

/// The demo's shapes scene, built only with the public Google Maps API as an app would (the shapes guide's calls):
/// central Helsinki at zoom 15 with a walking route (a polyline with a gradient span), a zone with a hole (a polygon),
/// a 300 m circle around the Senate Square and a drawn "floor plan" laid on the ground by its bounds, turned 20°.
@MainActor enum DemoShapesMap {
    static func make(size: CGSize) -> GMSMapView {
        let camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 15)
        let mapView = GMSMapView(frame: CGRect(origin: .zero, size: size), camera: camera)

        // The zone: the city centre with the Esplanadi park cut out.
        let zone = GMSPolygon(
            path: path([(60.1745, 24.9320), (60.1745, 24.9560), (60.1655, 24.9560), (60.1655, 24.9320)]))
        zone.holes = [path([(60.1683, 24.9440), (60.1683, 24.9500), (60.1671, 24.9500), (60.1671, 24.9440)])]
        zone.fillColor = UIColor(red: 0.95, green: 0.55, blue: 0.10, alpha: 0.18)
        zone.strokeColor = UIColor(red: 0.85, green: 0.40, blue: 0.05, alpha: 1)
        zone.strokeWidth = 2
        zone.map = mapView

        // A floor plan on the ground.
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let plan = UIGraphicsImageRenderer(size: CGSize(width: 160, height: 100), format: format).image { c in
            let g = c.cgContext
            g.setFillColor(UIColor(red: 0.97, green: 0.95, blue: 0.88, alpha: 0.9).cgColor)
            g.fill(CGRect(x: 0, y: 0, width: 160, height: 100))
            g.setStrokeColor(UIColor(red: 0.25, green: 0.25, blue: 0.35, alpha: 1).cgColor)
            g.setLineWidth(3)
            g.stroke(CGRect(x: 2, y: 2, width: 156, height: 96))
            g.setLineWidth(1.5)
            for x in [50.0, 110.0] {
                g.move(to: CGPoint(x: x, y: 2))
                g.addLine(to: CGPoint(x: x, y: 60))
            }
            g.move(to: CGPoint(x: 2, y: 60))
            g.addLine(to: CGPoint(x: 158, y: 60))
            g.strokePath()
        }
        let planBounds = GMSCoordinateBounds(
            coordinate: CLLocationCoordinate2D(latitude: 60.1688, longitude: 24.9300),
            coordinate: CLLocationCoordinate2D(latitude: 60.1712, longitude: 24.9380))
        let overlay = GMSGroundOverlay(bounds: planBounds, icon: plan)
        overlay.bearing = 20
        overlay.map = mapView

        // 300 m around the Senate Square.
        let circle = GMSCircle(position: CLLocationCoordinate2D(latitude: 60.1694, longitude: 24.9522), radius: 300)
        circle.fillColor = UIColor(red: 0.10, green: 0.45, blue: 0.90, alpha: 0.15)
        circle.strokeColor = UIColor(red: 0.10, green: 0.45, blue: 0.90, alpha: 1)
        circle.strokeWidth = 3
        circle.map = mapView

        // The route: railway station → Esplanadi → Market Square → Katajanokka.
        let route = GMSPolyline(
            path: path([
                (60.1710, 24.9414), (60.1690, 24.9420), (60.1679, 24.9440), (60.1677, 24.9500), (60.1676, 24.9530),
                (60.1683, 24.9560), (60.1692, 24.9590),
            ]))
        route.strokeWidth = 6
        route.spans = [
            GMSStyleSpan(color: UIColor(red: 0.10, green: 0.55, blue: 0.25, alpha: 1), segments: 3),
            GMSStyleSpan(style: .gradient(from: UIColor(red: 0.10, green: 0.55, blue: 0.25, alpha: 1), to: .red)),
        ]
        route.map = mapView
        return mapView
    }

    private static func path(_ points: [(Double, Double)]) -> GMSMutablePath {
        let p = GMSMutablePath()
        for (lat, lng) in points { p.addLatitude(lat, longitude: lng) }
        return p
    }
}

import Foundation
import Testing

@testable import GoogleMaps
@testable import LinuxUIKit

/// Issue 29: overlays follow `NSCopying` as in Google's SDK: `copy()` is a new overlay with the same properties, on no
/// map. (Before, `copy()` returned the same object, so editing a copy changed the original.)
@MainActor @Suite("Overlay copying")
struct OverlayCopyingTests {
    @Test("a polygon's copy is a new polygon with the same properties, not on the map; editing it leaves the original")
    func polygonCopy() throws {
        _ = installMapClock()
        let map = makeMap()
        let path = GMSMutablePath()
        path.addLatitude(51.5, longitude: -0.13)
        path.addLatitude(51.51, longitude: -0.12)
        path.addLatitude(51.49, longitude: -0.11)
        let hole = GMSMutablePath()
        hole.addLatitude(51.5, longitude: -0.12)
        let polygon = GMSPolygon(path: path)
        polygon.holes = [hole]
        polygon.fillColor = .green
        polygon.strokeColor = .red
        polygon.strokeWidth = 3
        polygon.geodesic = true
        polygon.title = "Area"
        polygon.isTappable = true
        polygon.zIndex = 4
        polygon.userData = "data"
        polygon.map = map

        let copy = try #require(polygon.copy() as? GMSPolygon)
        #expect(copy !== polygon)
        #expect(copy.map == nil)
        #expect(copy.path?.encodedPath() == polygon.path?.encodedPath())
        #expect(copy.holes?.count == 1)
        #expect(copy.fillColor == .green && copy.strokeColor == .red)
        #expect(copy.strokeWidth == 3 && copy.geodesic)
        #expect(copy.title == "Area" && copy.isTappable && copy.zIndex == 4)
        #expect(copy.userData as? String == "data")

        copy.fillColor = .blue
        copy.path = GMSPath()
        #expect(polygon.fillColor == .green)
        #expect(polygon.path?.count() == 3)
        #expect(polygon.map === map)
    }

    @Test("a marker's copy has the marker's properties, is tappable as the original and on no map")
    func markerCopy() throws {
        _ = installMapClock()
        let map = makeMap()
        let marker = GMSMarker(position: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.127))
        marker.title = "Title"
        marker.snippet = "Snippet"
        marker.icon = GMSMarker.markerImage(with: .blue)
        marker.groundAnchor = CGPoint(x: 0.2, y: 0.8)
        marker.infoWindowAnchor = CGPoint(x: 0.3, y: 0.1)
        marker.rotation = 45
        marker.opacity = 0.5
        marker.isFlat = true
        marker.isDraggable = true
        marker.isTappable = false
        marker.appearAnimation = .pop
        marker.tracksViewChanges = false
        marker.zIndex = 9
        marker.map = map

        let copy = try #require(marker.copy() as? GMSMarker)
        #expect(copy !== marker)
        #expect(copy.map == nil)
        #expect(copy.position.latitude == 51.5 && copy.position.longitude == -0.127)
        #expect(copy.title == "Title" && copy.snippet == "Snippet")
        #expect(copy.icon === marker.icon)
        #expect(copy.groundAnchor == CGPoint(x: 0.2, y: 0.8))
        #expect(copy.infoWindowAnchor == CGPoint(x: 0.3, y: 0.1))
        #expect(copy.rotation == 45 && copy.opacity == 0.5)
        #expect(copy.isFlat && copy.isDraggable && !copy.isTappable)
        #expect(copy.appearAnimation == .pop && !copy.tracksViewChanges && copy.zIndex == 9)
        copy.title = "Changed"
        #expect(marker.title == "Title")
    }

    @Test("polyline, circle and ground overlay copies keep their properties")
    func otherCopies() throws {
        let path = GMSMutablePath()
        path.addLatitude(1, longitude: 2)
        path.addLatitude(3, longitude: 4)
        let line = GMSPolyline(path: path)
        line.strokeColor = .red
        line.strokeWidth = 7
        line.geodesic = true
        line.spans = [GMSStyleSpan(color: .green)]
        let lineCopy = try #require(line.copy() as? GMSPolyline)
        #expect(lineCopy !== line && lineCopy.path?.count() == 2)
        #expect(lineCopy.strokeColor == .red && lineCopy.strokeWidth == 7 && lineCopy.geodesic)
        #expect(lineCopy.spans?.count == 1)

        let circle = GMSCircle(position: CLLocationCoordinate2D(latitude: 10, longitude: 20), radius: 300)
        circle.fillColor = .yellow
        circle.strokeWidth = 2
        let circleCopy = try #require(circle.copy() as? GMSCircle)
        #expect(circleCopy !== circle && circleCopy.radius == 300 && circleCopy.position.latitude == 10)
        #expect(circleCopy.fillColor == .yellow && circleCopy.strokeWidth == 2)

        let bounds = GMSCoordinateBounds(
            coordinate: CLLocationCoordinate2D(latitude: 10, longitude: 20),
            coordinate: CLLocationCoordinate2D(latitude: 11, longitude: 22))
        let ground = GMSGroundOverlay(bounds: bounds, icon: GMSMarker.markerImage(with: nil))
        ground.bearing = 30
        ground.opacity = 0.25
        let groundCopy = try #require(ground.copy() as? GMSGroundOverlay)
        #expect(groundCopy !== ground && groundCopy.bearing == 30 && groundCopy.opacity == 0.25)
        #expect(groundCopy.icon === ground.icon)
        let a = try #require(ground.bounds)
        let b = try #require(groundCopy.bounds)
        #expect(abs(a.southWest.latitude - b.southWest.latitude) < 1e-9)
        #expect(abs(a.northEast.longitude - b.northEast.longitude) < 1e-9)
        #expect(abs(ground.position.latitude - groundCopy.position.latitude) < 1e-9)
    }
}

import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

/// A map placed as a subview at a non-zero origin: its basemap, markers and info window are drawn through the
/// parent's translated context, exactly where the same map drawn on its own puts them (shifted by its origin).
@MainActor @Suite struct MapSubviewTests {
    static let origin = CGPoint(x: 40, y: 60)

    /// A 480 × 400 white root view holding a 320 × 240 map at (40, 60): a default pin, a house icon at the device
    /// scale (blitted), a house icon at scale 1 (resampled), and the default pin's info window open.
    func scene() -> (root: UIView, map: GMSMapView) {
        _ = installMapClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 480, height: 400))
        root.backgroundColor = .white
        let map = GMSMapView.map(
            withFrame: CGRect(origin: Self.origin, size: CGSize(width: 320, height: 240)),
            camera: GMSCameraPosition(latitude: 51.5, longitude: -0.127, zoom: 14))
        root.addSubview(map)
        let projection = map.projection
        let pin = GMSMarker(position: projection.coordinate(for: CGPoint(x: 160, y: 200)))
        pin.title = "Subview"
        pin.map = map
        let crisp = GMSMarker(position: projection.coordinate(for: CGPoint(x: 60, y: 120)))
        crisp.icon = houseImage(scale: 2, color: .blue)
        crisp.map = map
        let resampled = GMSMarker(position: projection.coordinate(for: CGPoint(x: 260, y: 90)))
        resampled.icon = houseImage(scale: 1, color: .red)
        resampled.map = map
        map.selectedMarker = pin
        return (root, map)
    }

    @Test func markersAndInfoWindowDrawWhereTheStandaloneMapDrawsThem() throws {
        let (root, map) = scene()
        map.tick()
        let whole = root.renderImage(scale: 2)
        let alone = map.renderImage(scale: 2)
        let ox = Int(Self.origin.x * 2)
        let oy = Int(Self.origin.y * 2)
        let width = Int(map.bounds.width * 2)
        let height = Int(map.bounds.height * 2)
        var differing = 0
        var markerPixels = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixelAt(whole, ox + x, oy + y)
                let b = pixelAt(alone, x, y)
                if max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b)) > 2 { differing += 1 }
                if !isLand(b) { markerPixels += 1 }
            }
        }
        // The scene has something besides bare land to misplace, and none of it moved.
        #expect(markerPixels > 2000)
        #expect(differing == 0)
        // Outside the map the root's white background shows.
        #expect(isColor(pixelAt(whole, 10, 10), 255, 255, 255, tolerance: 0))
        #expect(isColor(pixelAt(whole, ox + width + 10, oy + height + 10), 255, 255, 255, tolerance: 0))
    }

    @Test func mapAsSubviewGolden() {
        let (root, map) = scene()
        map.tick()
        expectGolden(root.renderImage(scale: 2), "map-as-subview")
    }
}

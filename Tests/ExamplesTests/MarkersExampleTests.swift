import Foundation
import GoogleMaps
import Testing

@testable import markers_example

/// The Markers guide's behaviour: every marker is on the map; the icon view's tint animation runs to blue and then
/// the marker stops tracking view changes (the map goes idle); tapping a marker selects it.
@MainActor @Suite(.serialized) struct MarkersExampleTests {
    @Test func iconViewAnimatesThenStopsTracking() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? MarkersViewController)
        #expect(controller.markers.count == 6)
        #expect(controller.markers.allSatisfy { $0.map === controller.mapView })
        #expect(host.runUntilIdle())
        let house = try #require(controller.houseMarker)
        #expect(house.tracksViewChanges == false)
        #expect(controller.houseView?.tintColor == .blue)
        // The icon view is drawn in its final colour: blue in the middle of the house.
        let p = controller.mapView.projection.point(for: house.position)
        let color = try #require(host.snapshot().pixelColor(x: Int(p.x), y: Int(p.y) - 8))
        var (r, g, b, a): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
        color.getRed(&r, green: &g, blue: &b, alpha: &a)
        #expect(b > 0.8 && r < 0.2 && g < 0.2, "pixel \(r) \(g) \(b)")
        host.terminate()
    }

    @Test func tappingAMarkerSelectsIt() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? MarkersViewController)
        host.runUntilIdle()
        let ateneum = try #require(controller.markers.first { $0.title == "Ateneum" })
        host.tap(at: pinPoint(ateneum, on: controller.mapView))
        host.runUntilIdle()
        #expect(controller.mapView.selectedMarker === ateneum)
        host.terminate()
    }
}

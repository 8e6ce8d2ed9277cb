import Foundation
import GoogleMaps
import Testing

@testable import info_windows_example

/// The Info windows guide's behaviour: the window opened from code shows at launch; tapping another marker closes it
/// and opens that marker's; tapping the window reports it; a marker with no title or snippet opens none.
@MainActor @Suite(.serialized) struct InfoWindowsExampleTests {
    @Test func windowsOpenCloseAndReportTaps() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? InfoWindowsViewController)
        let map = controller.mapView!
        #expect(host.runUntilIdle())
        #expect(map.selectedMarker === controller.cathedral)

        var output = capturingStandardOutput {
            host.tap(at: pinPoint(controller.station, on: map))
            host.runUntilIdle()
        }
        #expect(map.selectedMarker === controller.station)
        #expect(output.contains("info window closed: Helsinki Cathedral"), "output: \(output)")

        // Find the open window above the station's pin and tap it.
        let anchor = map.projection.point(for: controller.station.position)
        let windowPoint = try #require(
            stride(from: 40, through: 160, by: 4).map { CGPoint(x: anchor.x, y: anchor.y - CGFloat($0)) }.first {
                map.tapTarget($0) == .infoWindow(controller.station)
            })
        output = capturingStandardOutput {
            host.tap(at: windowPoint)
            host.runUntilIdle()
        }
        #expect(output.contains("info window tapped: Central Station"), "output: \(output)")

        // No title and no snippet: no window (the station's closes).
        host.tap(at: pinPoint(controller.blank, on: map))
        host.runUntilIdle()
        #expect(map.selectedMarker !== controller.station)
        let aboveBlank = map.projection.point(for: controller.blank.position)
        #expect(
            !stride(from: 40, through: 160, by: 4).contains {
                if case .infoWindow = map.tapTarget(CGPoint(x: aboveBlank.x, y: aboveBlank.y - CGFloat($0))) {
                    return true
                }
                return false
            })
        host.terminate()
    }
}

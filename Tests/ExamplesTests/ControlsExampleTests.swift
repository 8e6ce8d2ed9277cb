import Foundation
import GoogleMaps
import Testing

@testable import controls_example

/// The Controls and gestures guide's behaviour: with scroll and zoom gestures off, a drag and a double tap leave the
/// camera alone; the compass shows while the map is turned and tapping it turns north up; the my-location button
/// moves the camera to the device's (fixed) position.
@MainActor @Suite(.serialized) struct ControlsExampleTests {
    @Test func gesturesSwitchedOffAndControlsWork() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? ControlsViewController)
        let map = controller.mapView!
        #expect(host.runUntilIdle())
        let start = map.camera

        host.drag(from: CGPoint(x: 400, y: 300), to: CGPoint(x: 250, y: 200))
        host.runUntilIdle()
        #expect(map.camera.target == start.target, "scroll gestures are off")
        host.doubleTap(at: CGPoint(x: 400, y: 300))
        host.runUntilIdle()
        #expect(map.camera.zoom == start.zoom, "zoom gestures are off")

        let compass = try #require(map.controlAccessibilityElements.first { $0.identifier == kGMSAccessibilityCompass })
        host.tap(at: CGPoint(x: compass.frame.midX, y: compass.frame.midY))
        host.runUntilIdle()
        #expect(map.camera.bearing == 0)

        let button = try #require(
            map.controlAccessibilityElements.first { $0.identifier == kGMSAccessibilityMyLocation })
        host.tap(at: CGPoint(x: button.frame.midX, y: button.frame.midY))
        host.runUntilIdle()
        let target = map.camera.target
        #expect(abs(target.latitude - ControlsViewController.deviceLocation.latitude) < 1e-6)
        #expect(abs(target.longitude - ControlsViewController.deviceLocation.longitude) < 1e-6)
        host.terminate()
    }
}

import Foundation
import GoogleMaps
import Testing

@testable import events_example

/// The Events guide's behaviour, driven headless with scripted touches: a tap prints the tapped coordinate; a drag
/// gives willMove(gesture: true), then didChange, then idleAt, in that order, and clears the map.
@MainActor @Suite(.serialized) struct EventsExampleTests {
    @Test func tapPrintsTheCoordinate() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? EventsViewController)
        #expect(host.runUntilIdle())
        let point = CGPoint(x: 310, y: 220)
        let expected = controller.mapView.projection.coordinate(for: point)
        let output = capturingStandardOutput {
            host.tap(at: point)
            host.runUntilIdle()
        }
        let line = String(format: "tapped at %.6f, %.6f", expected.latitude, expected.longitude)
        #expect(output.contains(line), "output: \(output)")
        #expect(!output.contains("willMove"), "a tap does not move the camera: \(output)")
        host.terminate()
    }

    @Test func dragGivesWillMoveDidChangeIdleAt() throws {
        let app = AppDelegate()
        let host = launchHeadless(app)
        let controller = try #require(app.window?.rootViewController as? EventsViewController)
        #expect(host.runUntilIdle())
        let before = controller.mapView.camera.target
        let output = capturingStandardOutput {
            host.drag(from: CGPoint(x: 400, y: 300), to: CGPoint(x: 300, y: 240), duration: 0.4)
            host.runUntilIdle()
        }
        let lines = output.split(separator: "\n").map(String.init)
        let willMove = try #require(lines.firstIndex { $0 == "willMove gesture: true" }, "output: \(output)")
        let didChange = try #require(lines.firstIndex { $0.hasPrefix("didChange ") }, "output: \(output)")
        let idle = try #require(lines.lastIndex { $0.hasPrefix("idleAt ") }, "output: \(output)")
        #expect(willMove < didChange && didChange < idle)
        let after = controller.mapView.camera.target
        // Dragging the map left and up moves the target east and south.
        #expect(after.longitude > before.longitude && after.latitude < before.latitude)
        #expect(lines[idle] == String(format: "idleAt %.6f, %.6f zoom %.2f", after.latitude, after.longitude, 15.0))
        host.terminate()
    }
}

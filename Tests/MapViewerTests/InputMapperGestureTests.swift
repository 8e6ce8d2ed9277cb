import Foundation
import LinuxUIKit
import MapGeometry
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import UIKitSDL

/// The viewer's desktop-input mapping fed through `UITouchInput` into the real map gesture manager and camera
/// animator, on a manual clock: each mouse, wheel or key gesture must give the camera change the README promises.
/// Expected values come from the mapping's constants and the recognisers' documented rules (pinch: log2 of the
/// finger distance ratio; rotate: minus the finger-line turn; tilt: 0.5° per point), not from running the code.
@MainActor @Suite struct InputMapperGestureTests {
    /// A map-like view forwarding its touches to a gesture manager, as GMSMapView will.
    final class GestureView: UIView, UITouchResponder {
        var manager: GestureManager!
        func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
            manager.touchesBegan(touches, with: event, in: self)
        }
        func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
            manager.touchesMoved(touches, with: event, in: self)
        }
        func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
            manager.touchesEnded(touches, with: event, in: self)
        }
        func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
            manager.touchesCancelled(touches, with: event, in: self)
        }
    }

    /// A 400×400 map at Helsinki, zoom 12, with a mapper on the same manual clock.
    @MainActor final class Rig {
        let clock = ManualClock(start: 100)
        let view = GestureView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let animator: CameraAnimator
        let manager: GestureManager
        let mapper: InputMapper
        var events: [String] = []
        var gestureEvents: [GestureEvent] = []

        init() {
            animator = CameraAnimator(
                camera: CameraState(
                    center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 12, bearing: 0, pitch: 0,
                    size: ScreenSize(width: 400, height: 400)),
                clock: clock)
            manager = GestureManager(animator: animator, settings: GMSUISettings(), clock: clock)
            view.manager = manager
            mapper = InputMapper(rootView: view)
            mapper.input.clock = clock
            animator.onEvent = { [unowned self] in
                switch $0 {
                case .willMove: events.append("willMove")
                case .didChange: if events.last != "didChange" { events.append("didChange") }
                case .idle: events.append("idle")
                }
            }
            manager.onEvent = { [unowned self] in gestureEvents.append($0) }
        }

        var camera: CameraState { animator.camera }
        var now: TimeInterval { clock.now }

        /// One host frame: time passes, due scripted touches go out, then the map's tick order.
        func frame() {
            clock.advance(by: 1.0 / 60)
            mapper.runDue(now: clock.now)
            manager.tick()
            animator.tick()
        }

        func frames(_ seconds: Double) {
            let end = clock.now + seconds
            while clock.now < end { frame() }
        }

        func ground(_ x: Double, _ y: Double) -> LatLng { camera.latLng(for: ScreenPoint(x: x, y: y))! }
        func screen(_ p: LatLng) -> ScreenPoint { camera.screenPoint(for: p) }
    }

    @Test(arguments: [(2.0, 300.0, 150.0), (-1.0, 120.0, 260.0), (0.2, 200.0, 200.0), (1.0, 12.0, 200.0)])
    func wheelZoomsAboutTheCursor(notches: Double, x: Double, y: Double) {
        let rig = Rig()
        let grabbed = rig.ground(x, y)
        rig.mapper.wheel(notches: notches, at: CGPoint(x: x, y: y), now: rig.now)
        rig.frames(0.5)  // the pinch lifts 0.2 s after the last notch
        #expect(rig.mapper.input.activeTouches.isEmpty)
        #expect(abs(rig.camera.zoom - (12 + 0.5 * notches)) < 1e-9, "zoom \(rig.camera.zoom)")
        let p = rig.screen(grabbed)
        #expect(abs(p.x - x) < 1e-6 && abs(p.y - y) < 1e-6, "cursor ground point moved to \(p)")
        #expect(rig.camera.bearing == 0 && rig.camera.pitch == 0)
        #expect(rig.events == ["willMove", "didChange", "idle"])
    }

    @Test func wheelNotchesInARowAddUp() {
        let rig = Rig()
        for _ in 0..<5 {
            rig.mapper.wheel(notches: -1, at: CGPoint(x: 250, y: 150), now: rig.now)
            rig.frames(0.05)
        }
        rig.frames(0.5)
        #expect(abs(rig.camera.zoom - (12 - 2.5)) < 1e-9)
        #expect(rig.events.filter { $0 == "idle" }.count == 1)
    }

    @Test(arguments: [3, 1])
    func sidewaysTwistTurnsTheMap(button: Int) {
        let rig = Rig()
        let centre = rig.camera.center
        rig.mapper.mouseDown(button: button, at: CGPoint(x: 100, y: 300), shiftOrAlt: true, now: rig.now)
        for i in 1...10 {
            rig.mapper.mouseMoved(to: CGPoint(x: 100 + 8 * Double(i), y: 300 + 0.3 * Double(i)))
            rig.frame()
        }
        rig.mapper.mouseUp(button: button, at: CGPoint(x: 180, y: 303))
        rig.frames(0.3)
        // 80 points right × 0.4° = the fingers turn 32° clockwise; the map turns with them: bearing 360 − 32.
        #expect(abs(rig.camera.bearing - 328) < 1e-9, "bearing \(rig.camera.bearing)")
        #expect(abs(rig.camera.zoom - 12) < 1e-9 && rig.camera.pitch == 0)
        // The fingers turn about the view centre, which stays over the camera target.
        #expect(abs(rig.camera.center.latitude - centre.latitude) < 1e-9)
        #expect(abs(rig.camera.center.longitude - centre.longitude) < 1e-9)
    }

    @Test func verticalTwistTilts() {
        let rig = Rig()
        rig.mapper.mouseDown(button: 3, at: CGPoint(x: 200, y: 100), shiftOrAlt: false, now: rig.now)
        for i in 1...8 {
            rig.mapper.mouseMoved(to: CGPoint(x: 200 + 0.5 * Double(i), y: 100 + 5 * Double(i)))
            rig.frame()
        }
        rig.mapper.mouseUp(button: 3, at: CGPoint(x: 204, y: 140))
        rig.frames(0.3)
        // Both fingers 40 points down × 0.5° a point.
        #expect(abs(rig.camera.pitch - 20) < 1e-9, "pitch \(rig.camera.pitch)")
        #expect(rig.camera.bearing == 0 && abs(rig.camera.zoom - 12) < 1e-9)
    }

    @Test func leftDragPansWithoutFlingAfterARest() {
        let rig = Rig()
        let grabbed = rig.ground(150, 150)
        rig.mapper.mouseDown(button: 1, at: CGPoint(x: 150, y: 150), shiftOrAlt: false, now: rig.now)
        for i in 1...10 {
            rig.mapper.mouseMoved(to: CGPoint(x: 150 + 10 * Double(i), y: 150 + 5 * Double(i)))
            rig.frame()
        }
        rig.frames(0.1)
        rig.mapper.mouseUp(button: 1, at: CGPoint(x: 250, y: 200))
        rig.frames(1)
        let p = rig.screen(grabbed)
        #expect(abs(p.x - 250) < 1e-6 && abs(p.y - 200) < 1e-6, "grabbed point at \(p)")
    }

    @Test func doubleClickIsADoubleTapZoom() {
        let rig = Rig()
        let grabbed = rig.ground(120, 280)
        for _ in 0..<2 {
            rig.mapper.mouseDown(button: 1, at: CGPoint(x: 120, y: 280), shiftOrAlt: false, now: rig.now)
            rig.frames(0.03)
            rig.mapper.mouseUp(button: 1, at: CGPoint(x: 120, y: 280))
            rig.frames(0.05)
        }
        rig.frames(1)
        #expect(abs(rig.camera.zoom - 13) < 1e-9, "zoom \(rig.camera.zoom)")
        let p = rig.screen(grabbed)
        #expect(abs(p.x - 120) < 1e-6 && abs(p.y - 280) < 1e-6)
        #expect(!rig.gestureEvents.contains { if case .tap = $0 { return true } else { return false } })
    }

    @Test func keysPanAndZoom() {
        let rig = Rig()
        let centreGround = rig.ground(200, 200)
        rig.mapper.key(.pan(dx: -100, dy: 0), now: rig.now)  // right arrow
        rig.frames(1)
        var p = rig.screen(centreGround)
        // The content moves 100 points left, and stays (no fling: the finger rests before lifting).
        #expect(abs(p.x - 100) < 1e-6 && abs(p.y - 200) < 1e-6, "centre ground at \(p)")
        rig.mapper.key(.zoomIn, now: rig.now)
        rig.frames(1)
        #expect(abs(rig.camera.zoom - 13) < 1e-9, "zoom after + \(rig.camera.zoom)")
        rig.mapper.key(.zoomOut, now: rig.now)
        rig.mapper.key(.zoomOut, now: rig.now)
        rig.frames(2)
        #expect(abs(rig.camera.zoom - 11) < 1e-9, "zoom after - - \(rig.camera.zoom)")
        // Zooming about the centre leaves the centre's ground point where the pan put it... scaled about (200, 200).
        p = rig.screen(centreGround)
        #expect(abs(p.x - 150) < 1e-6 && abs(p.y - 200) < 1e-6, "centre ground at \(p)")
        #expect(rig.mapper.input.activeTouches.isEmpty && rig.mapper.nextDeadline == nil)
    }

    @Test func touchScreenFingersPinch() {
        let rig = Rig()
        let grabbed = rig.ground(200, 250)
        // Two SDL fingers (ids from the device, any values) spreading from 100 to 400 points apart about (200, 250).
        rig.mapper.finger(77, .began, at: CGPoint(x: 150, y: 250))
        rig.mapper.finger(91, .began, at: CGPoint(x: 250, y: 250))
        rig.frame()
        for i in 1...15 {
            let h = 50 + 10 * Double(i)
            rig.mapper.finger(77, .moved, at: CGPoint(x: 200 - h, y: 250))
            rig.mapper.finger(91, .moved, at: CGPoint(x: 200 + h, y: 250))
            rig.frame()
        }
        rig.frames(0.1)
        rig.mapper.finger(77, .ended, at: CGPoint(x: 0, y: 250))
        rig.mapper.finger(91, .ended, at: CGPoint(x: 400, y: 250))
        rig.frames(0.5)
        // log2(400 / 100) = 2 levels, about the fingers' midpoint.
        #expect(abs(rig.camera.zoom - 14) < 1e-9, "zoom \(rig.camera.zoom)")
        let p = rig.screen(grabbed)
        #expect(abs(p.x - 200) < 1e-6 && abs(p.y - 250) < 1e-6)
        #expect(rig.mapper.input.activeTouches.isEmpty)
    }

    @Test func resizeCancelsEveryFinger() {
        let rig = Rig()
        rig.mapper.mouseDown(button: 1, at: CGPoint(x: 100, y: 100), shiftOrAlt: false, now: rig.now)
        rig.mapper.wheel(notches: 1, at: CGPoint(x: 200, y: 200), now: rig.now)  // ignored during a drag
        #expect(rig.mapper.input.activeTouches.count == 1)
        rig.mapper.cancelAll()
        #expect(rig.mapper.input.activeTouches.isEmpty)
        rig.mapper.mouseUp(button: 1, at: CGPoint(x: 120, y: 100))  // no finger left: nothing is sent
        #expect(rig.mapper.input.activeTouches.isEmpty)
    }
}

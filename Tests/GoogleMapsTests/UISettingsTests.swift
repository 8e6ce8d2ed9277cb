import MapGeometry
import Testing
import WaymarkTime

@testable import GoogleMaps

/// `GMSUISettings` defaults (spec §1.5), `setAllGesturesEnabled`, change notification, and the full touch path from
/// `UITouchInput` through a view into the gesture manager.
@MainActor @Suite struct UISettingsTests {
    /// Every default of spec §1.5.
    @Test func defaults() {
        let s = GMSUISettings()
        #expect(s.scrollGestures)
        #expect(s.zoomGestures)
        #expect(s.tiltGestures)
        #expect(s.rotateGestures)
        #expect(s.consumesGesturesInView)
        #expect(s.allowScrollGesturesDuringRotateOrZoom)
        #expect(!s.compassButton)
        #expect(!s.myLocationButton)
        #expect(s.indoorPicker)
    }

    /// setAllGesturesEnabled switches exactly the four gesture flags, nothing else.
    @Test(arguments: [false, true]) func setAllGestures(_ enabled: Bool) {
        let s = GMSUISettings()
        s.setAllGesturesEnabled(!enabled)
        s.compassButton = true
        s.myLocationButton = true
        s.indoorPicker = false
        s.consumesGesturesInView = false
        s.allowScrollGesturesDuringRotateOrZoom = false
        s.setAllGesturesEnabled(enabled)
        #expect(
            [s.scrollGestures, s.zoomGestures, s.tiltGestures, s.rotateGestures] == Array(repeating: enabled, count: 4))
        #expect(s.compassButton && s.myLocationButton && !s.indoorPicker)
        #expect(!s.consumesGesturesInView && !s.allowScrollGesturesDuringRotateOrZoom)
    }

    /// The owner hears about real changes only.
    @Test func changeNotification() {
        let s = GMSUISettings()
        var count = 0
        s.onChange = { count += 1 }
        s.compassButton = true
        s.compassButton = true
        s.scrollGestures = true
        s.setAllGesturesEnabled(false)
        #expect(count == 5)
    }

    /// A map-like view: forwards its touches to a gesture manager, as GMSMapView will.
    private final class GestureView: UIView, UITouchResponder {
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

    /// The whole path: UITouchInput → hit test → view → GestureManager → CameraAnimator. The map view sits at an
    /// offset in its window, so positions must be converted into the view's coordinates.
    @Test func touchInputDrivesGestures() {
        let clock = ManualClock(start: 5)
        let window = UIView(frame: CGRect(x: 0, y: 0, width: 600, height: 600))
        let view = GestureView(frame: CGRect(x: 100, y: 50, width: 400, height: 400))
        window.addSubview(view)
        let animator = CameraAnimator(camera: GestureHarness.helsinki(), clock: clock)
        var kinds: [String] = []
        animator.onEvent = {
            switch $0 {
            case .willMove(let g): kinds.append("willMove(\(g))")
            case .didChange: if kinds.last != "didChange" { kinds.append("didChange") }
            case .idle: kinds.append("idle")
            }
        }
        let manager = GestureManager(animator: animator, settings: GMSUISettings(), clock: clock)
        var taps: [ScreenPoint] = []
        manager.onEvent = { if case .tap(let p) = $0 { taps.append(p) } }
        view.manager = manager
        let input = UITouchInput(rootView: window, clock: clock)
        func frame() {
            clock.advance(by: 1.0 / 60)
            manager.tick()
            animator.tick()
        }
        // Pan: the coordinate under the finger (view point (100, 100)) follows it to view point (160, 180).
        let grabbed = animator.camera.latLng(for: ScreenPoint(x: 100, y: 100))!
        input.touchDown(at: CGPoint(x: 200, y: 150))
        for i in 1...10 {
            input.move(to: CGPoint(x: 200 + 6 * Double(i), y: 150 + 8 * Double(i)))
            frame()
        }
        let p = animator.camera.screenPoint(for: grabbed)
        #expect(abs(p.x - 160) < 1e-6 && abs(p.y - 180) < 1e-6)
        for _ in 0..<12 { frame() }
        input.touchUp()
        for _ in 0..<5 { frame() }
        #expect(kinds == ["willMove(true)", "didChange", "idle"])
        // A tap outside the map view never reaches it; a tap inside is reported in view points.
        input.touchDown(at: CGPoint(x: 50, y: 20))
        input.touchUp()
        input.touchDown(at: CGPoint(x: 300, y: 250))
        input.touchUp()
        for _ in 0..<20 { frame() }
        #expect(taps == [ScreenPoint(x: 200, y: 200)])
    }
}

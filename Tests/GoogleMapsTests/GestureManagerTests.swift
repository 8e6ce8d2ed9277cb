import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

#if canImport(Glibc)
    import Glibc
#endif

/// Stands in for a draggable marker in hit-test results.
private final class FakeMarker {}

/// Scripted touch sequences on a ``GestureManager`` with a manual clock: camera results checked with the projection,
/// event orders checked against spec §2.1 and decisions D8, D10, D17.
@MainActor @Suite struct GestureManagerTests {
    private func close(_ a: ScreenPoint, _ b: ScreenPoint, _ tolerance: Double = 1e-6) -> Bool {
        isApproximatelyEqual(a.x, b.x, tolerance: tolerance) && isApproximatelyEqual(a.y, b.y, tolerance: tolerance)
    }

    // MARK: Pan and fling

    /// The coordinate grabbed at touch-down stays exactly under the finger on every frame, under bearing and pitch;
    /// a finger that stops before lifting gives no fling, and exactly one idle follows.
    @Test func panKeepsGrabbedCoordinateUnderFinger() {
        let h = GestureHarness(camera: GestureHarness.helsinki(zoom: 14, bearing: 30, pitch: 40))
        let start = ScreenPoint(x: 200, y: 260)
        let grabbed = h.camera.latLng(for: start)!
        h.down(0, start.x, start.y)
        h.frame()
        for i in 1...20 {
            let p = ScreenPoint(x: start.x + 3 * Double(i), y: start.y + 2.5 * Double(i))
            h.move(0, p.x, p.y)
            h.frame()
            if i >= 4 {  // past the 10 pt slop
                #expect(close(h.camera.screenPoint(for: grabbed), p))
            }
        }
        #expect(h.count("willMove(true)") == 1)
        h.wait(0.2)
        let held = h.camera
        h.up(0, 260, 310)
        h.settle()
        #expect(h.camera.center == held.center)
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "idle"])
        #expect(h.gestureEvents.isEmpty)
    }

    /// A fling: after a 1200 pt/s release the map keeps moving, decelerating at 2500 pt/s², and travels
    /// v² / 2a = 288 pt before stopping, after v / a = 0.48 s; then exactly one idle.
    @Test func flingDeceleratesThenOneIdle() {
        let h = GestureHarness()
        let start = ScreenPoint(x: 100, y: 200)
        let grabbed = h.camera.latLng(for: start)!
        h.down(0, start.x, start.y)
        h.frame()
        var x = start.x
        for _ in 1...10 {
            x += 20  // 20 pt per 1/60 s = 1200 pt/s
            h.move(0, x, start.y)
            h.frame()
        }
        h.up(0, x, start.y)
        let releaseTime = h.clock.now
        var positions: [Double] = []
        var idleTime: Double?
        while h.manager.needsTick || h.animator.needsTick {
            h.frame()
            positions.append(h.camera.screenPoint(for: grabbed).x)
            if idleTime == nil, h.kinds.last == "idle" { idleTime = h.clock.now }
        }
        let travelled = h.camera.screenPoint(for: grabbed).x - x
        #expect(isApproximatelyEqual(travelled, 1200 * 1200 / (2 * 2500), tolerance: 1e-6))
        // Decelerating: each frame's step is no larger than the previous one.
        let steps = zip(positions.dropFirst(), positions).map { $0 - $1 }
        for (later, earlier) in zip(steps.dropFirst(), steps) { #expect(later <= earlier + 1e-9) }
        #expect(steps.first! > 15)
        let stop = try! #require(idleTime)
        #expect(stop - releaseTime >= 0.48 && stop - releaseTime < 0.48 + 3 * h.frameTime)
        #expect(h.count("idle") == 1)
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "idle"])
    }

    /// A touch during a fling stops it and is not reported as a tap.
    @Test func touchCatchesFling() {
        let h = GestureHarness()
        h.down(0, 100, 200)
        h.frame()
        for i in 1...10 {
            h.move(0, 100 + 20 * Double(i), 200)
            h.frame()
        }
        h.up(0, 300, 200)
        h.frame()
        h.frame()
        #expect(h.manager.isDecelerating)
        h.down(0, 200, 200)
        h.frame()
        let caught = h.camera
        h.up(0, 200, 200)
        h.settle()
        #expect(h.camera.center == caught.center)
        #expect(h.gestureEvents.isEmpty)
        #expect(h.count("idle") == 1)
    }

    // MARK: Taps and zoom taps

    /// Double tap zooms in by 1 keeping the coordinate under the (second) tap fixed; no tap is reported.
    @Test func doubleTapZoomsAboutFinger() {
        let h = GestureHarness()
        let p = ScreenPoint(x: 100, y: 120)
        h.tap(p.x, p.y)
        h.frame()
        h.tap(p.x + 3, p.y - 2)
        h.settle()
        #expect(isApproximatelyEqual(h.camera.zoom, 13, tolerance: 1e-9))
        let second = ScreenPoint(x: p.x + 3, y: p.y - 2)
        let h2 = GestureHarness()
        let under2 = h2.camera.latLng(for: second)!
        h2.tap(p.x, p.y)
        h2.frame()
        h2.tap(second.x, second.y)
        h2.settle()
        #expect(close(h2.camera.screenPoint(for: under2), second))
        #expect(h.gestureEvents.isEmpty)
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "idle"])
    }

    /// With scroll gestures off, double tap zooms about the camera target: the centre does not move.
    @Test func doubleTapWithScrollOffZoomsAboutCentre() {
        let h = GestureHarness()
        h.settings.scrollGestures = false
        let center = h.camera.center
        h.tap(60, 80)
        h.frame()
        h.tap(60, 80)
        h.settle()
        #expect(isApproximatelyEqual(h.camera.zoom, 13, tolerance: 1e-9))
        #expect(isApproximatelyEqual(h.camera.center.latitude, center.latitude, tolerance: 1e-9))
        #expect(isApproximatelyEqual(h.camera.center.longitude, center.longitude, tolerance: 1e-9))
    }

    /// A two-finger tap zooms out by exactly 1 about the fingers' midpoint (about the centre without scroll).
    @Test(arguments: [true, false]) func twoFingerTapZoomsOut(scroll: Bool) {
        let h = GestureHarness()
        h.settings.scrollGestures = scroll
        let mid = ScreenPoint(x: 150, y: 100)
        let under = h.camera.latLng(for: mid)!
        let center = h.camera.center
        h.two(.began, (110, 100), (190, 100))
        h.frame()
        h.two(.ended, (112, 101), (189, 99))
        h.settle()
        #expect(isApproximatelyEqual(h.camera.zoom, 11, tolerance: 1e-9))
        if scroll {
            #expect(close(h.camera.screenPoint(for: under), mid))
        } else {
            #expect(isApproximatelyEqual(h.camera.center.latitude, center.latitude, tolerance: 1e-9))
            #expect(isApproximatelyEqual(h.camera.center.longitude, center.longitude, tolerance: 1e-9))
        }
        #expect(h.gestureEvents.isEmpty)
        #expect(h.count("idle") == 1)
    }

    /// D8: a map tap waits for a possible double tap and is reported at most 0.25 s after touch-up, exactly once.
    @Test func mapTapWaitsAtMostQuarterSecond() {
        let h = GestureHarness()
        h.tap(150, 150)
        let upTime = h.clock.now
        #expect(h.gestureEvents.isEmpty)
        h.wait(0.2)
        #expect(h.gestureEvents.isEmpty)
        h.wait(0.1)
        #expect(h.gestureEvents.count == 1)
        if case .tap(let p) = h.gestureEvents.first { #expect(p == ScreenPoint(x: 150, y: 150)) }
        #expect(h.gestureEventTimes[0] - upTime >= 0.25 - 1e-9)
        #expect(h.gestureEventTimes[0] - upTime <= 0.25 + h.frameTime)
        h.settle()
        #expect(h.gestureEvents.count == 1)
        #expect(h.cameraEvents.isEmpty)
    }

    /// D8: a tap on an element (marker, info window, control) is reported at touch-up, without waiting.
    @Test func elementTapFiresAtTouchUp() {
        let h = GestureHarness(hitTest: { $0.x < 100 ? .element : .map })
        h.tap(50, 50)
        #expect(h.gestureEvents.count == 1)
        // Two quick taps on an element are two taps, no zoom.
        h.frame()
        h.tap(52, 50)
        #expect(h.gestureEvents.count == 2)
        h.settle()
        #expect(h.camera.zoom == 12)
        #expect(h.cameraEvents.isEmpty)
    }

    /// D8: with zoom gestures off, a map tap fires at touch-up too, and a double tap is two taps.
    @Test func mapTapWithZoomOffFiresAtTouchUp() {
        let h = GestureHarness()
        h.settings.zoomGestures = false
        h.tap(150, 150)
        #expect(h.gestureEvents.count == 1)
        h.frame()
        h.tap(150, 150)
        #expect(h.gestureEvents.count == 2)
        h.settle()
        #expect(h.camera.zoom == 12)
    }

    /// A second tap far from the first is not a double tap: two taps, no zoom.
    @Test func farSecondTapIsTwoTaps() {
        let h = GestureHarness()
        h.tap(100, 100)
        h.frame()
        h.tap(300, 300)
        h.settle()
        #expect(h.gestureEvents.map(\.description) == ["tap(100.0, 100.0)", "tap(300.0, 300.0)"])
        #expect(h.camera.zoom == 12)
    }

    // MARK: Long press and drag

    /// D10: a long press fires at 0.5 s, not before, within a 10 pt slop; afterwards moving does not pan and lifting
    /// is not a tap.
    @Test func longPressAtHalfSecond() {
        let h = GestureHarness()
        h.down(0, 200, 200)
        h.wait(0.45)
        h.move(0, 206, 207)  // 9.2 pt: within the slop
        h.frame()
        #expect(h.gestureEvents.isEmpty)
        h.wait(0.05)
        #expect(h.gestureEvents.map(\.description) == ["longPress(206.0, 207.0)"])
        #expect(h.gestureEventTimes[0] - 10 >= 0.5 - 1e-9)
        let before = h.camera
        h.move(0, 300, 300)
        h.frame()
        h.up(0, 300, 300)
        h.settle()
        #expect(h.camera == before)
        #expect(h.gestureEvents.count == 1)
        #expect(h.cameraEvents.isEmpty)
    }

    /// D10: moving more than 10 pt before 0.5 s cancels the long press (and pans).
    @Test func longPressSlop() {
        let h = GestureHarness()
        h.down(0, 200, 200)
        h.wait(0.2)
        h.move(0, 211, 200)
        h.wait(0.6)
        h.up(0, 211, 200)
        h.settle()
        #expect(h.gestureEvents.isEmpty)
        #expect(h.count("willMove(true)") == 1)
    }

    /// D10 and §2.7: a long press on a draggable marker starts a drag (no long-press event): began → moved… → ended
    /// with the finger's points, and the camera never moves.
    @Test func dragOnDraggableMarker() {
        let marker = FakeMarker()
        let h = GestureHarness(hitTest: { $0.x > 150 && $0.x < 250 ? .draggable(marker) : .map })
        let before = h.camera
        h.down(0, 200, 200)
        h.wait(0.5)
        h.move(0, 230, 210)
        h.frame()
        h.move(0, 260, 220)
        h.frame()
        h.up(0, 265, 222)
        h.settle()
        #expect(
            h.gestureEvents.map(\.description) == [
                "dragBegan(200.0, 200.0)", "dragMoved(230.0, 210.0)", "dragMoved(260.0, 220.0)",
                "dragEnded(265.0, 222.0)",
            ])
        for e in h.gestureEvents {
            switch e {
            case .dragBegan(let o, _), .dragMoved(let o, _), .dragEnded(let o, _):
                let same = ObjectIdentifier(o) == ObjectIdentifier(marker)
                #expect(same)
            default: Issue.record("unexpected \(e)")
            }
        }
        #expect(h.camera == before)
        #expect(h.cameraEvents.isEmpty)
    }

    /// A tap on a draggable marker is an element tap (at touch-up), not a drag.
    @Test func tapOnDraggableMarkerIsTap() {
        let marker = FakeMarker()
        let h = GestureHarness(hitTest: { _ in .draggable(marker) })
        h.tap(200, 200)
        #expect(h.gestureEvents.map(\.description) == ["tap(200.0, 200.0)"])
    }

    // MARK: Two-finger gestures

    /// Pinch: spreading the fingers to twice the distance zooms in by exactly 1 about their midpoint, the ground
    /// under the midpoint staying put.
    @Test func pinchZoomsAboutFocalPoint() {
        let h = GestureHarness()
        let mid = ScreenPoint(x: 150, y: 250)
        let under = h.camera.latLng(for: mid)!
        h.twoFingerGesture(from: ((100, 250), (200, 250)), to: ((50, 250), (250, 250)))
        h.settle()
        #expect(isApproximatelyEqual(h.camera.zoom, 13, tolerance: 1e-9))
        #expect(close(h.camera.screenPoint(for: under), mid))
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "idle"])
    }

    /// Pinch and pan together: each finger keeps its grabbed coordinate (a similarity at pitch 0).
    @Test func pinchWithTranslationFollowsFingers() {
        let h = GestureHarness()
        let a0 = ScreenPoint(x: 100, y: 200)
        let b0 = ScreenPoint(x: 200, y: 200)
        let a1 = ScreenPoint(x: 150, y: 260)
        let b1 = ScreenPoint(x: 330, y: 260)
        let la = h.camera.latLng(for: a0)!
        let lb = h.camera.latLng(for: b0)!
        h.twoFingerGesture(from: ((a0.x, a0.y), (b0.x, b0.y)), to: ((a1.x, a1.y), (b1.x, b1.y)), lift: false)
        #expect(close(h.camera.screenPoint(for: la), a1, 1e-6))
        #expect(close(h.camera.screenPoint(for: lb), b1, 1e-6))
        #expect(isApproximatelyEqual(h.camera.zoom, 12 + log2(180.0 / 100), tolerance: 1e-9))
    }

    /// With allowScrollGesturesDuringRotateOrZoom off, pinch pivots on the camera target and ignores translation.
    @Test func pinchWithoutScrollDuringZoomPivotsOnTarget() {
        let h = GestureHarness()
        h.settings.allowScrollGesturesDuringRotateOrZoom = false
        let center = h.camera.center
        h.twoFingerGesture(from: ((40, 60), (140, 60)), to: ((30, 90), (230, 90)))
        h.settle()
        #expect(isApproximatelyEqual(h.camera.zoom, 13, tolerance: 1e-9))
        #expect(isApproximatelyEqual(h.camera.center.latitude, center.latitude, tolerance: 1e-9))
        #expect(isApproximatelyEqual(h.camera.center.longitude, center.longitude, tolerance: 1e-9))
    }

    /// Rotating the fingers 45° clockwise on screen turns the bearing by −45° (the map turns with the fingers), about
    /// their midpoint, and both grabbed coordinates follow the fingers.
    @Test func rotateTurnsWithFingers() {
        let h = GestureHarness()
        let mid = ScreenPoint(x: 200, y: 200)
        let a0 = ScreenPoint(x: 150, y: 200)
        let la = h.camera.latLng(for: a0)!
        let under = h.camera.latLng(for: mid)!
        let (a1, _) = h.rotateGesture(center: mid, radius: 50, degrees: 45, lift: false)
        #expect(isApproximatelyEqual(h.camera.bearing, 315, tolerance: 1e-6))
        #expect(isApproximatelyEqual(h.camera.zoom, 12, tolerance: 1e-9))
        #expect(close(h.camera.screenPoint(for: under), mid, 1e-6))
        #expect(close(h.camera.screenPoint(for: la), a1, 1e-6))
    }

    /// Pinch, rotate and pan at once: the fingers' radius doubles, their line turns 90° clockwise and their midpoint
    /// moves; zoom +1, bearing −90° and both grabbed coordinates stay under their fingers (a similarity at pitch 0).
    @Test func pinchRotateAndPanCombine() {
        let h = GestureHarness()
        let la = h.camera.latLng(for: ScreenPoint(x: 160, y: 200))!
        let lb = h.camera.latLng(for: ScreenPoint(x: 240, y: 200))!
        func fingers(_ f: Double) -> ((Double, Double), (Double, Double)) {
            let angle = f * Double.pi / 2
            let radius = 40 * (1 + f)
            let c = (200 + 30 * f, 200 - 20 * f)
            return (
                (c.0 - cos(angle) * radius, c.1 - sin(angle) * radius),
                (c.0 + cos(angle) * radius, c.1 + sin(angle) * radius)
            )
        }
        let start = fingers(0)
        h.two(.began, start.0, start.1)
        h.frame()
        for i in 1...40 {
            let f = fingers(Double(i) / 40)
            h.two(.moved, f.0, f.1)
            h.frame()
        }
        #expect(isApproximatelyEqual(h.camera.zoom, 13, tolerance: 1e-9))
        #expect(isApproximatelyEqual(h.camera.bearing, 270, tolerance: 1e-9))
        // End positions by hand: centre (230, 180), radius 80, line pointing straight down the screen.
        #expect(close(h.camera.screenPoint(for: la), ScreenPoint(x: 230, y: 100), 1e-6))
        #expect(close(h.camera.screenPoint(for: lb), ScreenPoint(x: 230, y: 260), 1e-6))
        h.wait(0.2)
        h.two(.ended, fingers(1).0, fingers(1).1)
        h.settle()
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "idle"])
    }

    /// Two fingers moving down together tilt, clamped to the D4 limit for the zoom (41.67° at zoom 12); moving up
    /// lowers the tilt back to 0.
    @Test func tiltClampedToLimit() {
        let h = GestureHarness()
        let limit = CameraConstraints.maximumPitch(zoom: 12)
        #expect(isApproximatelyEqual(limit, 30 + 2 * 35.0 / 6, tolerance: 1e-12))
        h.twoFingerGesture(from: ((150, 100), (250, 100)), to: ((150, 300), (250, 300)))
        h.settle()
        #expect(h.camera.pitch == limit)
        #expect(h.camera.zoom == 12)
        h.twoFingerGesture(from: ((150, 300), (250, 300)), to: ((150, 260), (250, 260)))
        h.settle()
        #expect(isApproximatelyEqual(h.camera.pitch, limit - 20, tolerance: 1e-9))
        h.twoFingerGesture(from: ((150, 300), (250, 300)), to: ((150, 100), (250, 100)))
        h.settle()
        #expect(h.camera.pitch == 0)
        #expect(h.count("idle") == 3)
    }

    // MARK: Settings

    enum Disabled: String, CaseIterable, Sendable {
        case scroll, zoom, rotate, tilt, all
    }

    private func apply(_ d: Disabled, to s: GMSUISettings) {
        switch d {
        case .scroll: s.scrollGestures = false
        case .zoom: s.zoomGestures = false
        case .rotate: s.rotateGestures = false
        case .tilt: s.tiltGestures = false
        case .all: s.setAllGesturesEnabled(false)
        }
    }

    /// The gesture a flag governs, scripted.
    private func perform(_ d: Disabled, on h: GestureHarness) {
        switch d {
        case .scroll, .all:
            h.down(0, 100, 100)
            for i in 1...20 {
                h.move(0, 100 + 10 * Double(i), 100)
                h.frame()
            }
            h.up(0, 300, 100)
        case .zoom:
            h.tap(150, 150)
            h.frame()
            h.tap(150, 150)
            h.settle()
            h.twoFingerGesture(from: ((150, 250), (250, 250)), to: ((100, 250), (300, 250)))
        case .rotate:
            h.rotateGesture(center: ScreenPoint(x: 200, y: 200), radius: 50, degrees: 60)
        case .tilt:
            h.twoFingerGesture(from: ((150, 100), (250, 100)), to: ((150, 300), (250, 300)))
        }
    }

    /// Each disabled flag blocks its gesture (no camera change, no willMove(true)), while a programmatic animation
    /// started before still runs to its target with a single idle (D17).
    @Test(arguments: Disabled.allCases) func disabledGestureBlocksCameraButNotAnimation(_ d: Disabled) {
        let h = GestureHarness()
        apply(d, to: h.settings)
        let before = h.camera
        perform(d, on: h)
        h.settle()
        #expect(h.camera.center == before.center)
        #expect(h.camera.zoom == before.zoom)
        #expect(h.camera.bearing == before.bearing)
        #expect(h.camera.pitch == before.pitch)
        #expect(h.count("willMove(true)") == 0)

        var target = before
        target.center = LatLng(latitude: 60.2, longitude: 25.0)
        target.zoom = 13
        h.animator.animate(to: target, duration: 1)
        h.frame()
        perform(d, on: h)
        h.settle()
        #expect(h.camera == h.animator.constraints.clamped(target))
        #expect(h.count("willMove(true)") == 0)
        #expect(h.count("willMove(false)") == 1)
        #expect(h.count("idle") == 1)
    }

    /// Settings take effect at once: switching scroll off mid-fling stops the fling on the next frame.
    @Test func disablingScrollStopsFling() {
        let h = GestureHarness()
        h.down(0, 100, 200)
        for i in 1...10 {
            h.move(0, 100 + 20 * Double(i), 200)
            h.frame()
        }
        h.up(0, 300, 200)
        h.frame()
        h.settings.scrollGestures = false
        h.frame()
        let stopped = h.camera
        h.settle()
        #expect(h.camera == stopped)
        #expect(h.count("idle") == 1)
    }

    // MARK: Interplay with animations

    /// A gesture interrupting a programmatic animation: the animation stops in place, a second willMove (true)
    /// follows, and only one idle comes at the end (spec §2.1.4).
    @Test func gestureInterruptsAnimation() {
        let h = GestureHarness()
        var target = h.camera
        target.center = LatLng(latitude: 60.3, longitude: 25.2)
        h.animator.animate(to: target, duration: 2)
        for _ in 0..<10 { h.frame() }
        h.down(0, 200, 200)
        for i in 1...10 {
            h.move(0, 200, 200 + 5 * Double(i))
            h.frame()
        }
        h.wait(0.2)
        h.up(0, 200, 250)
        h.settle()
        #expect(h.collapsedKinds == ["willMove(false)", "didChange", "willMove(true)", "didChange", "idle"])
        #expect(h.camera.center != target.center)
    }

    /// A programmatic animation started during a pan ends the gesture: the finger's later moves are ignored and a
    /// single idle comes after the animation.
    @Test func animationDuringPanEndsGesture() {
        let h = GestureHarness()
        h.down(0, 200, 200)
        for i in 1...5 {
            h.move(0, 200 + 5 * Double(i), 200)
            h.frame()
        }
        var target = h.camera
        target.center = LatLng(latitude: 60.0, longitude: 24.5)
        h.animator.animate(to: target, duration: 0.5)
        h.frame()
        for i in 6...15 {
            h.move(0, 200 + 5 * Double(i), 200)
            h.frame()
        }
        h.up(0, 275, 200)
        h.settle()
        #expect(h.camera == h.animator.constraints.clamped(target))
        #expect(h.count("idle") == 1)
        #expect(h.collapsedKinds == ["willMove(true)", "didChange", "willMove(false)", "didChange", "idle"])
    }

    // MARK: Limits

    /// cameraTargetBounds keeps a pan's target inside the bounds.
    @Test func cameraTargetBoundsLimitPan() {
        let h = GestureHarness()
        let bounds = GMSCoordinateBounds(
            coordinate: CLLocationCoordinate2D(latitude: 60.1, longitude: 24.9),
            coordinate: CLLocationCoordinate2D(latitude: 60.19, longitude: 25.1))
        h.manager.cameraTargetBounds = bounds
        h.down(0, 50, 50)
        for i in 1...40 {
            h.move(0, 50 + 8 * Double(i), 50 + 8 * Double(i))  // drags the map south-east: target goes north-west
            h.frame()
        }
        h.up(0, 370, 370)
        h.settle()
        let c = h.camera.center
        #expect(c.latitude == 60.19)
        #expect(c.longitude == 24.9)
    }

    /// The map's zoom limits bound pinch and double tap; a double tap at the maximum zoom does nothing at all.
    @Test func zoomLimitsBoundGestures() {
        let h = GestureHarness(
            camera: GestureHarness.helsinki(zoom: 12), constraints: CameraConstraints(minimumZoom: 10, maximumZoom: 13))
        h.twoFingerGesture(from: ((150, 200), (250, 200)), to: ((20, 200), (380, 200)))
        h.settle()
        #expect(h.camera.zoom == 13)
        let events = h.cameraEvents.count
        h.tap(200, 200)
        h.frame()
        h.tap(200, 200)
        h.settle()
        #expect(h.camera.zoom == 13)
        #expect(h.cameraEvents.count == events)
        h.twoFingerGesture(from: ((20, 200), (380, 200)), to: ((195, 200), (205, 200)))
        h.settle()
        #expect(h.camera.zoom == 10)
    }
}

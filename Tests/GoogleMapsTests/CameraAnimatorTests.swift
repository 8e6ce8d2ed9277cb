import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

/// Records the animator's events in a compact text form for order checks.
private final class Recorder {
    var events: [CameraEvent] = []
    var kinds: [String] {
        events.map {
            switch $0 {
            case .willMove(let gesture): return gesture ? "willMove(true)" : "willMove(false)"
            case .didChange: return "didChange"
            case .idle: return "idle"
            }
        }
    }
    var lastChange: CameraState? {
        for e in events.reversed() { if case .didChange(let s) = e { return s } }
        return nil
    }
}

private func camera(_ lat: Double, _ lon: Double, zoom: Double = 10) -> CameraState {
    CameraState(
        center: LatLng(latitude: lat, longitude: lon), zoom: zoom, size: ScreenSize(width: 400, height: 400))
}

@Suite struct CameraAnimatorTests {
    private func make(_ clock: ManualClock) -> (CameraAnimator, Recorder) {
        let r = Recorder()
        let a = CameraAnimator(camera: camera(0, 0), clock: clock) { r.events.append($0) }
        return (a, r)
    }

    /// Explicit set: nothing inside the setter; willMove(false) + didChange(x′) on the next tick, idle(x′) on the
    /// following quiet tick (D5). The camera reads back the clamped value at once.
    @Test func explicitSet() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.set(camera(100, 190, zoom: 30))
        #expect(r.events.isEmpty)
        let expected = CameraState(
            center: LatLng(latitude: 85, longitude: -170), zoom: 21, size: ScreenSize(width: 400, height: 400))
        #expect(a.camera == expected)
        a.tick()
        #expect(r.kinds == ["willMove(false)", "didChange"])
        #expect(r.lastChange == expected)
        clock.advance(by: 1.0 / 60)
        a.tick()
        #expect(r.kinds == ["willMove(false)", "didChange", "idle"])
        #expect(r.events.last == .idle(expected))
        #expect(!a.needsTick)
        a.tick()
        #expect(r.events.count == 3)
    }

    /// Several sets before a tick coalesce into one willMove/didChange/idle carrying the last value.
    @Test func coalescedSets() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.set(camera(1, 1))
        a.set(camera(2, 2))
        a.set(camera(3, 3))
        #expect(a.camera.center == LatLng(latitude: 3, longitude: 3))
        a.tick()
        a.tick()
        #expect(r.kinds == ["willMove(false)", "didChange", "idle"])
        #expect(r.lastChange?.center == LatLng(latitude: 3, longitude: 3))
    }

    /// Animation: willMove(false), didChange on every tick, the exact target last, then one idle.
    @Test func animation() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        let target = camera(0, 0, zoom: 12)  // a pure zoom: zoom is linear in the eased time
        a.animate(to: target, duration: 1)
        #expect(a.camera == camera(0, 0))  // not moved before a frame
        var ticks = 0
        while a.needsTick && ticks < 200 {
            a.tick()
            clock.advance(by: 0.125)
            ticks += 1
        }
        let kinds = r.kinds
        #expect(kinds.first == "willMove(false)")
        #expect(kinds.last == "idle")
        #expect(kinds.filter { $0 == "idle" }.count == 1)
        #expect(kinds.filter { $0 == "didChange" }.count == 9)  // t = 0, 0.125, …, 1.0
        #expect(r.lastChange == CameraState(center: target.center, zoom: 12, size: target.size))
        // Ease-in-out: the first step is shorter than the middle one.
        let zooms = r.events.compactMap { e -> Double? in
            if case .didChange(let s) = e { return s.zoom } else { return nil }
        }
        #expect(zooms[1] - zooms[0] < zooms[5] - zooms[4])
        #expect(zooms == zooms.sorted())
        // At t = 0.5 smoothstep gives 0.5: zoom halfway (11).
        #expect(isApproximatelyEqual(zooms[4], 11, tolerance: 1e-9))
    }

    /// A second animation replaces the first from where it is: another willMove(false) and a single idle.
    @Test func replacedAnimation() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.animate(to: camera(0, 40), duration: 1)
        a.tick()
        clock.advance(by: 0.5)
        a.tick()
        let halfway = a.camera.center.longitude
        #expect(isApproximatelyEqual(halfway, 20, tolerance: 1e-6))  // the flight path is symmetric
        a.animate(to: camera(0, -10), duration: 0.5)
        clock.advance(by: 0.25)
        a.tick()
        #expect(a.camera.center.longitude < halfway && a.camera.center.longitude > -10)
        clock.advance(by: 0.25)
        a.tick()
        clock.advance(by: 0.1)
        a.tick()
        #expect(
            r.kinds == [
                "willMove(false)", "didChange", "didChange", "willMove(false)", "didChange", "didChange", "idle",
            ])
        #expect(r.lastChange?.center == LatLng(latitude: 0, longitude: -10))
    }

    /// A gesture stops a running animation in place: willMove(true), the stopped position reported, one idle after
    /// the gesture ends.
    @Test func gestureInterruptsAnimation() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.animate(to: camera(0, 40), duration: 1)
        a.tick()
        clock.advance(by: 0.5)
        a.tick()
        clock.advance(by: 0.1)
        let presented = a.presentationCamera
        #expect(presented != a.camera)  // moved on since the last drawn frame
        a.beginGesture()
        // Stopped in place: at the presentation value of t = 0.6, which lies past halfway on the way to 40°.
        #expect(a.camera == presented)
        #expect(a.camera.center.longitude > 20 && a.camera.center.longitude < 40)
        #expect(!a.isAnimating)
        a.tick()
        a.gestureChanged(to: camera(0, 30))
        clock.advance(by: 0.1)
        a.tick()
        a.tick()  // gesture held still: nothing
        a.endGesture()
        a.tick()
        #expect(
            r.kinds == [
                "willMove(false)", "didChange", "didChange", "willMove(true)", "didChange", "didChange", "idle",
            ])
        #expect(r.events.last == .idle(camera(0, 30)))
    }

    /// A set during a gesture interrupts it: later gesture changes are ignored.
    @Test func setInterruptsGesture() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.beginGesture()
        a.gestureChanged(to: camera(1, 1))
        a.tick()
        a.set(camera(5, 5))
        a.gestureChanged(to: camera(2, 2))
        #expect(a.camera.center == LatLng(latitude: 5, longitude: 5))
        a.tick()
        a.tick()
        #expect(r.kinds == ["willMove(true)", "didChange", "willMove(false)", "didChange", "idle"])
    }

    /// Default durations (D6): 0.25 s for tiny moves, growing with distance, 2 s at most; zero duration is a set.
    @Test func durations() {
        let here = camera(0, 0)
        #expect(CameraAnimator.defaultDuration(from: here, to: camera(0, 0.0001)) < 0.26)
        let mid = CameraAnimator.defaultDuration(from: here, to: camera(0, 0.5))
        #expect(mid > 0.3 && mid < 2)
        #expect(CameraAnimator.defaultDuration(from: here, to: camera(0, 120)) == 2)
        #expect(CameraAnimator.defaultDuration(from: here, to: camera(.nan, 0)) == 2)
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.animate(to: camera(3, 3), duration: 0)
        #expect(a.camera.center == LatLng(latitude: 3, longitude: 3))
        a.tick()
        a.tick()
        #expect(r.kinds == ["willMove(false)", "didChange", "idle"])
        // A default-duration animation of a tiny step ends just after 0.25 s.
        a.animate(to: camera(3, 3.00001))
        a.tick()
        clock.advance(by: 0.251)
        a.tick()
        a.tick()
        #expect(r.kinds.suffix(4) == ["willMove(false)", "didChange", "didChange", "idle"])
        a.animate(to: camera(.nan, .infinity, zoom: .nan), duration: .nan)  // clamped to the default camera, a set
        #expect(a.camera.center == LatLng(latitude: 0, longitude: 0) && a.camera.zoom == 2)
    }

    /// Callbacks may request changes; they are delivered on later ticks, bracketed again.
    @Test func reentrantRequests() {
        let clock = ManualClock()
        let r = Recorder()
        var animator: CameraAnimator?
        var once = true
        let a = CameraAnimator(camera: camera(0, 0), clock: clock) { e in
            r.events.append(e)
            if case .idle = e, once {
                once = false
                animator?.set(camera(7, 7))
            }
        }
        animator = a
        a.set(camera(1, 1))
        for _ in 0..<5 { a.tick() }
        #expect(r.kinds == ["willMove(false)", "didChange", "idle", "willMove(false)", "didChange", "idle"])
    }

    /// Bearing animates along the shorter arc and the centre across the antimeridian.
    @Test func shortestPaths() {
        let clock = ManualClock()
        var start = camera(0, 170)
        start.bearing = 350
        let a = CameraAnimator(camera: start, clock: clock)
        var end = camera(0, -170)
        end.bearing = 10
        a.animate(to: end, duration: 1)
        clock.advance(by: 0.5)
        a.tick()
        #expect(
            a.camera.center.longitude == -180 || isApproximatelyEqual(a.camera.center.longitude, -180, tolerance: 1e-9))
        #expect(a.camera.bearing < 1 || a.camera.bearing > 359)
    }

    /// An explicit set during an animation replaces it: another willMove(false), the set value, one idle.
    @Test func setReplacesAnimation() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.animate(to: camera(0, 40), duration: 1)
        a.tick()
        clock.advance(by: 0.25)
        a.tick()
        a.set(camera(9, 9))
        #expect(!a.isAnimating && a.camera.center == LatLng(latitude: 9, longitude: 9))
        clock.advance(by: 1)
        a.tick()
        a.tick()
        #expect(r.kinds == ["willMove(false)", "didChange", "didChange", "willMove(false)", "didChange", "idle"])
        #expect(r.events.last == .idle(camera(9, 9)))
    }

    /// A plain gesture: willMove(true), a didChange per moved frame, idle after it ends.
    @Test func gestureOnly() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.gestureChanged(to: camera(5, 5))  // no gesture yet: ignored
        #expect(a.camera == camera(0, 0))
        a.beginGesture()
        a.beginGesture()  // a second begin while active is one movement
        for i in 1...3 {
            a.gestureChanged(to: camera(Double(i), 0))
            a.tick()
            clock.advance(by: 1.0 / 60)
        }
        a.endGesture()
        a.tick()
        #expect(r.kinds == ["willMove(true)", "didChange", "didChange", "didChange", "idle"])
    }

    /// Layout changes move no camera and send no event; a running animation keeps its target with the new size.
    @Test func viewportUpdates() {
        let clock = ManualClock()
        let (a, r) = make(clock)
        a.updateViewport(size: ScreenSize(width: 800, height: 600), padding: EdgeInsets(top: 10))
        a.tick()
        #expect(r.events.isEmpty && !a.needsTick)
        #expect(a.camera.size == ScreenSize(width: 800, height: 600))
        a.animate(to: camera(1, 1), duration: 0.5)
        a.updateViewport(size: ScreenSize(width: 100, height: 100), padding: .zero)
        clock.advance(by: 1)
        a.tick()
        #expect(a.camera.size == ScreenSize(width: 100, height: 100))
        #expect(a.camera.center == LatLng(latitude: 1, longitude: 1))
    }
}

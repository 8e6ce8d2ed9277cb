import MapGeometry
import WaymarkTime

@testable import GoogleMaps

#if canImport(Glibc)
    import Glibc
#endif

/// A gesture manager wired to an animator on a manual clock, with scripted touches and recorded events.
@MainActor final class GestureHarness {
    let clock = ManualClock(start: 10)
    let settings = GMSUISettings()
    let animator: CameraAnimator
    let manager: GestureManager
    var cameraEvents: [CameraEvent] = []
    var gestureEvents: [GestureEvent] = []
    /// The clock time at which each gesture event arrived.
    var gestureEventTimes: [Double] = []
    /// Frame length in seconds.
    let frameTime = 1.0 / 60

    init(
        camera: CameraState = GestureHarness.helsinki(), constraints: CameraConstraints = .standard,
        hitTest: @escaping (ScreenPoint) -> GestureHitTarget = { _ in .map }
    ) {
        let clock = self.clock
        animator = CameraAnimator(camera: camera, constraints: constraints, clock: clock)
        manager = GestureManager(animator: animator, settings: settings, clock: clock)
        manager.hitTest = hitTest
        animator.onEvent = { [unowned self] in cameraEvents.append($0) }
        manager.onEvent = { [unowned self] in
            gestureEvents.append($0)
            gestureEventTimes.append(clock.now)
        }
    }

    static func helsinki(zoom: Double = 12, bearing: Double = 0, pitch: Double = 0) -> CameraState {
        CameraState(
            center: LatLng(latitude: 60.17, longitude: 24.94), zoom: zoom, bearing: bearing, pitch: pitch,
            size: ScreenSize(width: 400, height: 400))
    }

    var camera: CameraState { animator.camera }

    /// Camera event kinds in a compact text form.
    var kinds: [String] {
        cameraEvents.map {
            switch $0 {
            case .willMove(let gesture): return gesture ? "willMove(true)" : "willMove(false)"
            case .didChange: return "didChange"
            case .idle: return "idle"
            }
        }
    }

    /// The kinds with consecutive `didChange`s collapsed into one.
    var collapsedKinds: [String] {
        var out: [String] = []
        for k in kinds where !(k == "didChange" && out.last == "didChange") { out.append(k) }
        return out
    }

    func count(_ kind: String) -> Int { kinds.filter { $0 == kind }.count }

    /// Advances the clock by one frame and ticks the manager, then the animator (the map view's frame order).
    func frame() {
        clock.advance(by: frameTime)
        manager.tick()
        animator.tick()
    }

    /// Runs frames for `seconds`.
    func wait(_ seconds: Double) {
        let end = clock.now + seconds - 1e-9
        while clock.now < end { frame() }
    }

    /// Runs frames until neither the manager nor the animator needs one (at most `limit` frames), then one more.
    func settle(limit: Int = 2000) {
        var n = 0
        while (manager.needsTick || animator.needsTick) && n < limit {
            frame()
            n += 1
        }
        frame()
    }

    func down(_ id: Int, _ x: Double, _ y: Double) {
        manager.handle(.began, [TouchPoint(id: id, point: ScreenPoint(x: x, y: y))], time: clock.now)
    }

    func move(_ id: Int, _ x: Double, _ y: Double) {
        manager.handle(.moved, [TouchPoint(id: id, point: ScreenPoint(x: x, y: y))], time: clock.now)
    }

    func up(_ id: Int, _ x: Double, _ y: Double) {
        manager.handle(.ended, [TouchPoint(id: id, point: ScreenPoint(x: x, y: y))], time: clock.now)
    }

    /// Two fingers changing together in one event.
    func two(_ phase: TouchPhase, _ a: (Double, Double), _ b: (Double, Double)) {
        manager.handle(
            phase,
            [
                TouchPoint(id: 1, point: ScreenPoint(x: a.0, y: a.1)),
                TouchPoint(id: 2, point: ScreenPoint(x: b.0, y: b.1)),
            ],
            time: clock.now)
    }

    /// A one-finger tap at a point: down, one frame, up.
    func tap(_ x: Double, _ y: Double, id: Int = 0) {
        down(id, x, y)
        frame()
        up(id, x, y)
    }

    /// A two-finger gesture from `from` to `to` (both fingers interpolated linearly) in `steps` frames, then lift.
    func twoFingerGesture(
        from: ((Double, Double), (Double, Double)), to: ((Double, Double), (Double, Double)), steps: Int = 30,
        lift: Bool = true
    ) {
        two(.began, from.0, from.1)
        frame()
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            func lerp(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
                (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
            }
            two(.moved, lerp(from.0, to.0), lerp(from.1, to.1))
            frame()
        }
        if lift {
            wait(0.2)
            two(.ended, to.0, to.1)
        }
    }

    /// Two fingers `radius` points either side of `center` on a horizontal line, turned `degrees` clockwise on screen
    /// along a circle (constant distance, so no pinch) in `steps` frames; then rest and lift unless `lift` is false.
    /// Returns the end positions of the fingers.
    @discardableResult
    func rotateGesture(
        center: ScreenPoint, radius: Double, degrees: Double, steps: Int = 30, lift: Bool = true
    ) -> (ScreenPoint, ScreenPoint) {
        func fingers(_ angle: Double) -> ((Double, Double), (Double, Double)) {
            let a = angle * Double.pi / 180
            let dx = cos(a) * radius
            let dy = sin(a) * radius
            return ((center.x - dx, center.y - dy), (center.x + dx, center.y + dy))
        }
        let start = fingers(0)
        two(.began, start.0, start.1)
        frame()
        var end = start
        for i in 1...steps {
            end = fingers(degrees * Double(i) / Double(steps))
            two(.moved, end.0, end.1)
            frame()
        }
        if lift {
            wait(0.2)
            two(.ended, end.0, end.1)
        }
        return (ScreenPoint(x: end.0.0, y: end.0.1), ScreenPoint(x: end.1.0, y: end.1.1))
    }
}

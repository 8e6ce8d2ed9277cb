import LinuxUIKit
import MapGeometry
import WaymarkTime

/// Runs the map's gesture recognisers, merges their results once per frame, applies them to the camera through the
/// ``CameraAnimator``'s gesture calls, runs fling and double-tap zoom motions on the injected clock, and reports
/// taps, long presses and marker drags (spec §3, decisions D8, D10, D17; practice 4).
///
/// ## Integration (the map view)
/// 1. Create it with the map's animator, its `GMSUISettings` and clock; set ``hitTest`` (view point → what lies
///    there), ``onEvent`` (tap / long press / drag routing, D7 and D10) and ``cameraTargetBounds``.
/// 2. Feed touches: forward `touchesBegan/Moved/Ended/Cancelled(_:with:)` to the methods of the same name here with
///    the map view as `view` (or call ``handle(_:_:time:)`` with view points).
/// 3. Every frame call ``tick()`` and then `animator.tick()`: the camera events (`willMove(true)` → `didChange`… →
///    one `idle`) come from the animator.
///
/// ## Handlers
/// The recognisers are rows of one table (``GestureHandlerEntry/mapTable``, as MapLibre GL JS's handler manager):
/// each sees every touch event and tick in table order and returns a ``GestureResult``; the results of an event are
/// merged. A handler whose result claims the touches (a long press that fired or started a drag) cancels the handlers
/// its row does not allow alongside it, and they sit out until every finger lifts.
///
/// ## Rules
/// - Camera changes are accumulated from touch events and applied once in ``tick()``. A pan keeps the ground point
///   grabbed at touch-down exactly under the finger; pinch and rotate keep the ground under the fingers' midpoint
///   under it (or pivot on the camera target, see `allowScrollGesturesDuringRotateOrZoom`); results are clamped to
///   the animator's ``CameraConstraints`` (zoom limits, D4 tilt limit) and the target to ``cameraTargetBounds``.
/// - A gesture whose flag is off never moves the camera, checked again on every frame so changes take effect at once.
///   `beginGesture()` is called only when a frame really moves the camera, so taps and touches on a map with its
///   gestures off never stop a programmatic animation (D17); a moving gesture stops one in place.
/// - `endGesture()` follows once every finger has lifted and any fling or zoom motion has finished, so exactly one
///   `idle` comes per gesture. A programmatic set or animation during a gesture ends it; the fingers then do nothing
///   until they all lift.
/// - A finger touching down during a fling or zoom motion stops it; that touch is not a tap.
/// - Events are delivered synchronously from the entry points (touch-up for element taps, ``tick()`` for delayed map
///   taps and long presses), after the manager's state is consistent; a handler may call back into the manager.
/// - Thread rules: main actor.
@MainActor final class GestureManager {
    /// The camera the gestures move; its constraints bound them.
    let animator: CameraAnimator
    /// The switches, read on every event and frame.
    let settings: GMSUISettings
    /// The time source of fling and zoom motions and of long-press and double-tap timing.
    let clock: any TimeSource
    /// Gestures keep the camera target inside these bounds (`mapView.cameraTargetBounds`); nil or invalid: none.
    var cameraTargetBounds: GMSCoordinateBounds?
    /// What lies under a view point at touch-down: the map view's hit test over info windows, markers, overlays, POIs
    /// and controls. Defaults to bare map everywhere.
    var hitTest: (ScreenPoint) -> GestureHitTarget = { _ in .map }
    /// Receives taps, long presses and drag events, in order.
    var onEvent: (GestureEvent) -> Void = { _ in }

    private enum Motion {
        case fling(velocity: ScreenVector, start: Double, applied: ScreenVector)
        case zoom(delta: Double, around: ScreenPoint?, start: Double, applied: Double)
    }

    private var touches: [TouchPoint] = []
    /// The handlers, in the order they see each event, each with the handlers it allows alongside it
    /// (``GestureHandlerEntry/mapTable``).
    private var handlers = GestureHandlerEntry.mapTable
    /// The handlers sitting out until every finger lifts: a handler claimed the touches and does not allow them.
    private var sittingOut: Set<GestureName> = []
    private var pending = GestureResult()
    private var motion: Motion?
    private var gestureActive = false
    private var interrupted = false
    private var outbox: [GestureEvent] = []
    private var delivering = false

    /// Creates a manager at rest.
    init(animator: CameraAnimator, settings: GMSUISettings, clock: any TimeSource) {
        self.animator = animator
        self.settings = settings
        self.clock = clock
    }

    /// Whether the host should keep ticking: a motion, a waiting tap, a possible long press or an active gesture.
    var needsTick: Bool {
        motion != nil || handlers.contains { $0.handler.needsTick } || gestureActive || pending.movesCamera
    }

    /// Whether a finger is dragging an element.
    var isDragging: Bool {
        handlers.contains { ($0.handler as? LongPressRecognizer)?.isDragging ?? false }
    }

    /// Whether a fling or an animated (double-tap or two-finger-tap) zoom is running.
    var isDecelerating: Bool { motion != nil }

    // MARK: Touch input

    /// Fingers touched down (UIKit form); positions are taken in `view`'s coordinates.
    func touchesBegan(_ set: Set<UITouch>, with event: UIEvent?, in view: UIView) { feed(.began, set, view) }
    /// Fingers moved (UIKit form).
    func touchesMoved(_ set: Set<UITouch>, with event: UIEvent?, in view: UIView) { feed(.moved, set, view) }
    /// Fingers lifted (UIKit form).
    func touchesEnded(_ set: Set<UITouch>, with event: UIEvent?, in view: UIView) { feed(.ended, set, view) }
    /// Fingers were cancelled (UIKit form).
    func touchesCancelled(_ set: Set<UITouch>, with event: UIEvent?, in view: UIView) {
        feed(.cancelled, set, view)
    }

    private func feed(_ phase: TouchPhase, _ set: Set<UITouch>, _ view: UIView) {
        let changed = set.sorted { $0.identifier < $1.identifier }.map {
            TouchPoint(id: $0.identifier, point: ScreenPoint($0.location(in: view)))
        }
        handle(phase, changed, time: clock.now)
    }

    /// One touch event in view points: `changed` fingers did `phase` at `time` (seconds on ``clock``). Fingers with
    /// non-finite positions, moves of fingers that are not down, and a second `.began` of a finger already down are
    /// ignored.
    func handle(_ phase: TouchPhase, _ changedIn: [TouchPoint], time: Double) {
        var changed: [TouchPoint] = []
        for t in changedIn where t.point.x.isFinite && t.point.y.isFinite {
            let index = touches.firstIndex { $0.id == t.id }
            switch phase {
            case .began:
                guard index == nil else { continue }
                touches.append(t)
            case .moved, .ended:
                guard let i = index else { continue }
                touches[i].point = t.point
            case .cancelled:
                guard index != nil else { continue }
            }
            changed.append(t)
        }
        guard !changed.isEmpty else { return }
        if phase == .ended || phase == .cancelled {
            touches.removeAll { t in changed.contains { $0.id == t.id } }
        }
        var input = TouchInput(phase: phase, changed: changed, touches: touches, time: time)
        var caught = false
        if phase == .began && touches.count == changed.count {
            input.target = hitTest(changed[0].point)
            sittingOut = []
            interrupted = false
            if motion != nil {
                motion = nil
                caught = true
            }
        }
        let flags = GestureFlags(settings)
        var r = GestureResult()
        for i in handlers.indices where !sittingOut.contains(handlers[i].name) {
            var step = handlers[i].handler.handle(input, flags: flags)
            if caught { step.merge(handlers[i].handler.failCurrentTouch()) }
            r.merge(step)
            if step.claimsTouches { claim(by: i) }
        }
        absorb(r, time: time)
        flush()
    }

    /// Ends every touch at once (the view left its window, the host lost input): a drag ends at its last point, no
    /// fling starts, and a waiting tap is dropped.
    func cancelAll() {
        touches = []
        for i in handlers.indices { outbox += handlers[i].handler.cancel().events }
        motion = nil
        pending = GestureResult()
        if gestureActive {
            animator.endGesture()
            gestureActive = false
        }
        flush()
    }

    // MARK: Frame

    /// Advances timers and motions to the clock's time and applies this frame's merged camera change. Call once per
    /// frame, before `animator.tick()`.
    func tick() {
        let now = clock.now
        let flags = GestureFlags(settings)
        var r = GestureResult()
        for i in handlers.indices where !sittingOut.contains(handlers[i].name) {
            let step = handlers[i].handler.tick(now: now, flags: flags)
            r.merge(step)
            if step.claimsTouches { claim(by: i) }
        }
        outbox += r.events

        if gestureActive && !animator.isGestureActive {
            // A programmatic set or animation took the camera: this gesture is over.
            gestureActive = false
            motion = nil
            pending = GestureResult()
            if !touches.isEmpty { interrupted = true }
        }
        stepMotion(now: now, flags: flags)

        var change = pending
        pending = GestureResult()
        if !flags.scroll { change.scrollDelta = .zero }
        if !flags.focalPan { change.focalDelta = .zero }
        if !flags.zoom { change.zoomDelta = 0 }
        if !flags.rotate { change.bearingDelta = 0 }
        if !flags.tilt { change.pitchDelta = 0 }
        if change.movesCamera && !interrupted {
            if !gestureActive {
                animator.beginGesture()
                gestureActive = true
            }
            animator.gestureChanged(to: apply(change, to: animator.camera))
        }
        if gestureActive && touches.isEmpty && motion == nil {
            animator.endGesture()
            gestureActive = false
        }
        flush()
    }

    /// Handler `index` took the touches: the handlers its row does not allow are cancelled (what they report is
    /// dropped) and sit out until every finger lifts, and the camera change gathered so far is dropped.
    private func claim(by index: Int) {
        let entry = handlers[index]
        for i in handlers.indices where i != index && !entry.allowedWith.contains(handlers[i].name) {
            _ = handlers[i].handler.cancel()
            sittingOut.insert(handlers[i].name)
        }
        pending = GestureResult()
    }

    private func absorb(_ r: GestureResult, time: Double) {
        outbox += r.events
        guard !interrupted else { return }
        var camera = r
        camera.events = []
        pending.merge(camera)
        if let z = r.animatedZoom, z.delta.isFinite {
            let zoom = animator.camera.zoom
            if animator.constraints.clampZoom(zoom + z.delta) != zoom {
                motion = .zoom(delta: z.delta, around: z.around, start: time, applied: 0)
            }
        }
        if let v = r.fling { motion = .fling(velocity: v, start: time, applied: .zero) }
    }

    private func stepMotion(now: Double, flags: GestureFlags) {
        guard let m = motion else { return }
        switch m {
        case .fling(let v, let start, let applied):
            let speed = v.length
            guard flags.scroll, speed > 0 else {
                motion = nil
                return
            }
            let duration = speed / GestureTuning.flingDeceleration
            let t = min(max(now - start, 0), duration)
            // s(t) = v·t − ½·a·t²·v̂: constant deceleration along the release direction, stopping at t = |v|/a.
            let offset = v * t - v * (0.5 * GestureTuning.flingDeceleration * t * t / speed)
            var step = GestureResult()
            step.scrollDelta = offset - applied
            pending.merge(step)
            motion = t >= duration ? nil : .fling(velocity: v, start: start, applied: offset)
        case .zoom(let delta, let around, let start, let applied):
            guard flags.zoom else {
                motion = nil
                return
            }
            let f = min(max((now - start) / GestureTuning.zoomAnimationDuration, 0), 1)
            let value = delta * CameraAnimator.easeInOut(f)
            var step = GestureResult()
            step.zoomDelta = value - applied
            step.around = flags.scroll ? around : nil
            pending.merge(step)
            motion = f >= 1 ? nil : .zoom(delta: delta, around: around, start: start, applied: value)
        }
    }

    /// The camera after `change`: the ground point under the pivot (the optical centre when nil) ends up under
    /// `pivot + pan` after zoom, bearing and pitch changed; then clamped to the constraints and the target bounds.
    func apply(_ change: GestureResult, to camera: CameraState) -> CameraState {
        let constraints = animator.constraints
        let before = constraints.clamped(camera)
        let t0 = before.transform
        var pivot = t0.opticalCenter
        if let a = change.around, a.x.isFinite, a.y.isFinite { pivot = a }
        let grabbed = t0.worldPointClampedToHorizon(for: pivot)
        var next = before
        if change.zoomDelta.isFinite { next.zoom = constraints.clampZoom(before.zoom + change.zoomDelta) }
        if change.bearingDelta.isFinite {
            next.bearing = CameraConstraints.wrapBearing(before.bearing + change.bearingDelta)
        }
        let pitch = change.pitchDelta.isFinite ? before.pitch + change.pitchDelta : before.pitch
        next.pitch = CameraConstraints.clampPitch(pitch, zoom: next.zoom)
        var pan = change.scrollDelta + change.focalDelta
        if !(pan.dx.isFinite && pan.dy.isFinite) { pan = .zero }
        let target = pivot + pan
        let t1 = next.transform
        let under = t1.worldPoint(for: target) ?? t1.worldPointClampedToHorizon(for: target)
        let center = WorldPoint(x: grabbed.x + t1.centerWorld.x - under.x, y: grabbed.y + t1.centerWorld.y - under.y)
        if center.x.isFinite && center.y.isFinite {
            next.center = WebMercator.latLng(center).wrapped
        }
        next = constraints.clamped(next)
        if let bounds = cameraTargetBounds {
            next.center = Self.clamp(next.center, into: bounds)
        }
        return next
    }

    /// `p` moved into `bounds`: latitude clamped, longitude kept when inside the (possibly antimeridian-crossing)
    /// arc, else moved to the nearer edge. Invalid bounds change nothing.
    static func clamp(_ p: LatLng, into bounds: GMSCoordinateBounds) -> LatLng {
        bounds.box?.clamping(p) ?? p
    }

    private func flush() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while !outbox.isEmpty {
            onEvent(outbox.removeFirst())
        }
    }
}

import MapGeometry
import WaymarkTime

/// One camera event, in the order the animator delivers them (spec §2.1, decisions D5 and D6).
enum CameraEvent: Equatable, Sendable {
    /// A movement starts or restarts; `gesture` is `true` when a user gesture caused it (`willMove(gesture:)`).
    case willMove(gesture: Bool)
    /// The camera changed; the clamped camera as drawn this frame (`didChange`).
    case didChange(CameraState)
    /// Nothing moves any more; the final camera (`idleAt`).
    case idle(CameraState)
}

/// The parts of a camera an animation moves (Google's `animate(toLocation:)`, `animate(toZoom:)`,
/// `animate(toBearing:)`, `animate(toViewingAngle:)` each move one).
struct CameraKeys: OptionSet, Sendable {
    let rawValue: Int
    /// The target (centre).
    static let target = CameraKeys(rawValue: 1)
    /// The zoom.
    static let zoom = CameraKeys(rawValue: 2)
    /// The bearing.
    static let bearing = CameraKeys(rawValue: 4)
    /// The viewing angle (pitch).
    static let pitch = CameraKeys(rawValue: 8)
    /// Every key.
    static let all: CameraKeys = [.target, .zoom, .bearing, .pitch]
}

/// Moves a map's camera over time and reports every change with Google's event contract. Knows nothing of views:
/// `GMSMapView` calls ``tick()`` on each frame and forwards ``CameraEvent``s to its delegate.
///
/// ## Event contract (spec §2.1 with D5, D6)
/// - Changes are requested by ``set(_:)``, ``animate(to:duration:)`` and the gesture calls; events are delivered
///   only from ``tick()``, never inside a request (so delegates may request changes from their callbacks).
/// - Every request (set, animation, gesture begin) queues one `willMove`; several requests of the same kind before
///   a tick coalesce into one. On a tick the queued `willMove`s come first, then one `didChange` if the camera
///   changed, and on the first later tick on which nothing moved (no change, no animation, no active gesture) one
///   `idle`. So an explicit set gives `willMove(false)`, `didChange(x′)` on the next tick and `idle(x′)` on the one
///   after; `x′` is the clamped value, which ``camera`` returns at once.
/// - An animation reports `didChange` on every tick until it ends; the final tick reports the exact target. It
///   follows ``CameraFlightPath`` (centre and zoom on van Wijk and Nuij's zoom-and-pan curve, zooming out on long
///   trips; bearing along the shorter arc) with ease-in-out timing; frames are clamped to the constraints.
/// - A new animation of all keys (or a set) replaces the running ones from the current position and sends another
///   `willMove(false)`; one of some keys (``CameraKeys``) takes over only those, the running ones keep their other
///   keys. Only one `idle` comes, once every animation has ended.
/// - A gesture beginning during an animation stops it in place (the position at the current time, reported by a
///   `didChange`) and sends `willMove(true)`; `idle` follows after ``endGesture()``.
/// - A set or animation during a gesture interrupts the gesture: later ``gestureChanged(to:)`` calls are ignored
///   until the next ``beginGesture()``.
///
/// Time is read from the injected ``TimeSource`` (a `ManualClock` in tests). Main thread only.
final class CameraAnimator {
    /// The current camera: the latest set or gesture value at once, or the last animation frame computed by
    /// ``tick()`` (spec §2.1.5: reading the camera during an animation gives about the last drawn frame).
    private(set) var camera: CameraState
    /// The limits every requested camera is clamped to.
    var constraints: CameraConstraints
    /// Receives the events, in order, from inside ``tick()``.
    var onEvent: (CameraEvent) -> Void

    private let clock: any TimeSource
    private var pendingWillMoves: [Bool] = []
    private var pendingChange = false
    private var moving = false
    /// The running animations, oldest first; each owns the keys no later one took (Google: each `animate…` call
    /// animates only its own keys, so `animate(toLocation:)` then `animate(toZoom:)` applies both).
    private var animations: [Animation] = []
    /// `true` between ``beginGesture()`` and ``endGesture()`` (or an interrupting set or animation).
    private(set) var isGestureActive = false

    /// The shortest default animation, in seconds (D6).
    static let minimumDuration: Double = 0.25
    /// The longest default animation, in seconds (D6).
    static let maximumDuration: Double = 2
    /// Seconds added per screen travelled (``CameraState/screenDistance(to:)``) by the default duration.
    static let secondsPerScreen: Double = 0.35

    /// One animation: a flight from its start to its target over `duration` seconds, applied only to its ``keys``
    /// (the keys a later animation took over are removed from it).
    private struct Animation {
        var path: CameraFlightPath
        var start: Double
        var duration: Double
        var keys: CameraKeys

        /// The (unclamped) frame at `time`, and whether the animation has ended.
        func value(at time: Double) -> (CameraState, finished: Bool) {
            let t = (time - start) / duration
            if !(t < 1) { return (path.camera(at: 1), true) }
            return (path.camera(at: CameraAnimator.easeInOut(max(t, 0))), false)
        }

        mutating func updateViewport(size: ScreenSize, padding: EdgeInsets) {
            var from = path.start
            var to = path.end
            from.size = size
            from.padding = padding
            to.size = size
            to.padding = padding
            path = CameraFlightPath(from: from, to: to)
        }
    }

    /// Creates an animator at rest.
    /// - Parameters:
    ///   - camera: the initial camera; clamped with `constraints`.
    ///   - constraints: zoom limits. Defaults to [2, 21].
    ///   - clock: the time source; `SystemClock.shared` in apps, a `ManualClock` in tests.
    ///   - onEvent: the event sink; may be replaced later.
    init(
        camera: CameraState, constraints: CameraConstraints = .standard, clock: any TimeSource,
        onEvent: @escaping (CameraEvent) -> Void = { _ in }
    ) {
        self.constraints = constraints
        self.camera = constraints.clamped(camera)
        self.clock = clock
        self.onEvent = onEvent
    }

    /// `true` while the animator has something to deliver: the host should keep ticking.
    var needsTick: Bool { moving || !pendingWillMoves.isEmpty || pendingChange || !animations.isEmpty }

    /// `true` while a programmatic animation runs.
    var isAnimating: Bool { !animations.isEmpty }

    /// The ease-in-out timing curve `3t² − 2t³` (smoothstep) for `t` in [0, 1].
    static func easeInOut(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    /// The default duration of a move (D6): `0.25 s + 0.35 s` per screen travelled, at most 2 s.
    static func defaultDuration(from: CameraState, to: CameraState) -> Double {
        let d = from.screenDistance(to: to)
        return min(maximumDuration, max(minimumDuration, minimumDuration + secondsPerScreen * d))
    }

    /// The camera an animation shows at the clock's current time (the presentation value).
    var presentationCamera: CameraState { composed(at: clock.now).camera }

    /// The camera at `time`: each key from the animation that owns it, the others from ``camera``; clamped to the
    /// current constraints (so limits changed while animations run bound every later frame and the end). `finished`
    /// lists the indices of the animations that have ended.
    private func composed(at time: Double) -> (camera: CameraState, finished: [Int]) {
        guard !animations.isEmpty else { return (camera, []) }
        var result = camera
        var finished: [Int] = []
        for (i, a) in animations.enumerated() {
            let (value, done) = a.value(at: time)
            if done { finished.append(i) }
            if a.keys.contains(.target) { result.center = value.center }
            if a.keys.contains(.zoom) { result.zoom = value.zoom }
            if a.keys.contains(.bearing) { result.bearing = value.bearing }
            if a.keys.contains(.pitch) { result.pitch = value.pitch }
        }
        return (constraints.clamped(result), finished)
    }

    private func queueWillMove(gesture: Bool) {
        if pendingWillMoves.last != gesture { pendingWillMoves.append(gesture) }
    }

    /// Explicit set (`mapView.camera = x`, `moveCamera`): the clamped value is the camera at once; a running
    /// animation or gesture is stopped. Events follow on the next ticks.
    func set(_ state: CameraState) {
        animations = []
        isGestureActive = false
        camera = constraints.clamped(state)
        pendingChange = true
        queueWillMove(gesture: false)
    }

    /// Animates the `keys` of the camera to those of `state` (clamped). Running animations keep animating their
    /// other keys; the keys taken over continue from their current values. With `.all` (the default) a running
    /// animation is replaced from its current position.
    /// - Parameters:
    ///   - state: the destination camera; only its `keys` are used, and the result is clamped by the constraints.
    ///   - duration: seconds; `nil` picks ``defaultDuration(from:to:)``. Zero, negative or NaN sets the keys at once
    ///     (with `.all`, or when nothing else animates, an explicit ``set(_:)``); +infinity is treated as the
    ///     maximum default duration.
    ///   - keys: which camera values animate (target, zoom, bearing, pitch). Default `.all`.
    func animate(to state: CameraState, duration: Double? = nil, keys: CameraKeys = .all) {
        let from = presentationCamera
        var target = from
        if keys.contains(.target) { target.center = state.center }
        if keys.contains(.zoom) { target.zoom = state.zoom }
        if keys.contains(.bearing) { target.bearing = state.bearing }
        if keys.contains(.pitch) { target.pitch = state.pitch }
        target = constraints.clamped(target)
        var seconds = duration ?? Self.defaultDuration(from: from, to: target)
        if seconds == .infinity { seconds = Self.maximumDuration }
        camera = from
        isGestureActive = false
        for i in animations.indices { animations[i].keys.subtract(keys) }
        animations.removeAll { $0.keys.isEmpty }
        guard seconds > 0 else {
            if animations.isEmpty {
                set(target)
            } else {
                camera = target
                pendingChange = true
                queueWillMove(gesture: false)
            }
            return
        }
        animations.append(
            Animation(path: CameraFlightPath(from: from, to: target), start: clock.now, duration: seconds, keys: keys))
        queueWillMove(gesture: false)
    }

    /// A user gesture starts: a running animation stops where it is now, and `willMove(true)` is queued.
    func beginGesture() {
        if !animations.isEmpty {
            camera = presentationCamera
            animations = []
            pendingChange = true
        }
        if !isGestureActive {
            isGestureActive = true
            queueWillMove(gesture: true)
        }
    }

    /// The gesture moved the camera to `state` (clamped). Ignored when no gesture is active.
    func gestureChanged(to state: CameraState) {
        guard isGestureActive else { return }
        camera = constraints.clamped(state)
        pendingChange = true
    }

    /// The gesture ended (after any deceleration); `idle` follows on the next quiet tick.
    func endGesture() {
        isGestureActive = false
    }

    /// The map was shown for the first time: the first tick on which nothing moves reports `idle` (once), even
    /// though the camera never moved (Google reports a map's first idle camera once it has settled).
    func reportIdleWhenSettled() {
        moving = true
    }

    /// Changes the view size and padding without a camera event (layout); a running animation keeps its target.
    func updateViewport(size: ScreenSize, padding: EdgeInsets) {
        camera.size = size
        camera.padding = padding
        for i in animations.indices { animations[i].updateViewport(size: size, padding: padding) }
    }

    /// Advances to the clock's current time and delivers this frame's events (see the type's contract).
    func tick() {
        let now = clock.now
        let wills = pendingWillMoves
        pendingWillMoves = []
        for gesture in wills {
            moving = true
            onEvent(.willMove(gesture: gesture))
        }
        if !animations.isEmpty {
            let (value, finished) = composed(at: now)
            camera = value
            for i in finished.reversed() { animations.remove(at: i) }
            pendingChange = true
        }
        if pendingChange {
            pendingChange = false
            moving = true
            onEvent(.didChange(camera))
        } else if moving && animations.isEmpty && !isGestureActive && pendingWillMoves.isEmpty {
            moving = false
            onEvent(.idle(camera))
        }
    }
}

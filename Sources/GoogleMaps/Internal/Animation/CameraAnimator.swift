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
/// - A new animation (or a set) replaces a running one from its current position and sends another
///   `willMove(false)`; only one `idle` comes, at the end.
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
    private var animation: Animation?
    /// `true` between ``beginGesture()`` and ``endGesture()`` (or an interrupting set or animation).
    private(set) var isGestureActive = false

    /// The shortest default animation, in seconds (D6).
    static let minimumDuration: Double = 0.25
    /// The longest default animation, in seconds (D6).
    static let maximumDuration: Double = 2
    /// Seconds added per screen travelled (``CameraState/screenDistance(to:)``) by the default duration.
    static let secondsPerScreen: Double = 0.35

    private struct Animation {
        var path: CameraFlightPath
        var start: Double
        var duration: Double

        var target: CameraState { path.end }

        /// The frame at `time`, clamped to `constraints` — the animator's current ones, so limits changed while the
        /// animation runs (`setMinZoom(_:maxZoom:)`) bound every later frame and the end.
        func value(at time: Double, constraints: CameraConstraints) -> (CameraState, finished: Bool) {
            let t = (time - start) / duration
            if !(t < 1) { return (constraints.clamped(path.camera(at: 1)), true) }
            return (constraints.clamped(path.camera(at: CameraAnimator.easeInOut(max(t, 0)))), false)
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
    var needsTick: Bool { moving || !pendingWillMoves.isEmpty || pendingChange || animation != nil }

    /// `true` while a programmatic animation runs.
    var isAnimating: Bool { animation != nil }

    /// The ease-in-out timing curve `3t² − 2t³` (smoothstep) for `t` in [0, 1].
    static func easeInOut(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    /// The default duration of a move (D6): `0.25 s + 0.35 s` per screen travelled, at most 2 s.
    static func defaultDuration(from: CameraState, to: CameraState) -> Double {
        let d = from.screenDistance(to: to)
        return min(maximumDuration, max(minimumDuration, minimumDuration + secondsPerScreen * d))
    }

    /// The camera an animation shows at the clock's current time (the presentation value).
    var presentationCamera: CameraState {
        animation.map { $0.value(at: clock.now, constraints: constraints).0 } ?? camera
    }

    private func queueWillMove(gesture: Bool) {
        if pendingWillMoves.last != gesture { pendingWillMoves.append(gesture) }
    }

    /// Explicit set (`mapView.camera = x`, `moveCamera`): the clamped value is the camera at once; a running
    /// animation or gesture is stopped. Events follow on the next ticks.
    func set(_ state: CameraState) {
        animation = nil
        isGestureActive = false
        camera = constraints.clamped(state)
        pendingChange = true
        queueWillMove(gesture: false)
    }

    /// Animates to `state` (clamped). A running animation is replaced from its current position.
    /// - Parameter duration: seconds; `nil` picks ``defaultDuration(from:to:)``. Zero, negative or NaN makes this an
    ///   explicit ``set(_:)``; +infinity is treated as the maximum default duration.
    func animate(to state: CameraState, duration: Double? = nil) {
        let from = presentationCamera
        let target = constraints.clamped(state)
        var seconds = duration ?? Self.defaultDuration(from: from, to: target)
        if seconds == .infinity { seconds = Self.maximumDuration }
        guard seconds > 0 else {
            set(target)
            return
        }
        camera = from
        isGestureActive = false
        animation = Animation(
            path: CameraFlightPath(from: from, to: target), start: clock.now, duration: seconds)
        queueWillMove(gesture: false)
    }

    /// A user gesture starts: a running animation stops where it is now, and `willMove(true)` is queued.
    func beginGesture() {
        if let a = animation {
            camera = a.value(at: clock.now, constraints: constraints).0
            animation = nil
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

    /// Changes the view size and padding without a camera event (layout); a running animation keeps its target.
    func updateViewport(size: ScreenSize, padding: EdgeInsets) {
        camera.size = size
        camera.padding = padding
        animation?.updateViewport(size: size, padding: padding)
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
        if let a = animation {
            let (value, finished) = a.value(at: now, constraints: constraints)
            camera = value
            if finished { animation = nil }
            pendingChange = true
        }
        if pendingChange {
            pendingChange = false
            moving = true
            onEvent(.didChange(camera))
        } else if moving && animation == nil && !isGestureActive && pendingWillMoves.isEmpty {
            moving = false
            onEvent(.idle(camera))
        }
    }
}

/// The map's gesture handlers, by name (the rows of ``GestureManager``'s table).
enum GestureName: Hashable, Sendable {
    case longPress
    case tap
    case twoFingerTap
    case pan
    case twoFinger
}

/// One gesture handler of the table, in the shape of MapLibre GL JS's handler manager: touch events and frame ticks
/// in, a ``GestureResult`` (camera deltas and events) out. A result that ``GestureResult/claimsTouches`` takes the
/// touches: every handler its row does not allow alongside it is cancelled and sits out until every finger lifts.
protocol GestureHandler {
    /// One touch event.
    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult
    /// Advances the handler's timers to `now` (long press, double-tap window).
    mutating func tick(now: Double, flags: GestureFlags) -> GestureResult
    /// Forgets the touches; may report what ends with them (a drag ends at its last point).
    mutating func cancel() -> GestureResult
    /// The finger down now will not be this gesture (it stopped a fling).
    mutating func failCurrentTouch() -> GestureResult
    /// Whether a timer runs (the host must keep ticking).
    var needsTick: Bool { get }
}

extension GestureHandler {
    func tick(now: Double, flags: GestureFlags) -> GestureResult { GestureResult() }
    func failCurrentTouch() -> GestureResult { GestureResult() }
    var needsTick: Bool { false }
}

/// A row of the table: a handler and the handlers that may keep running while it has taken the touches.
struct GestureHandlerEntry {
    let name: GestureName
    var handler: any GestureHandler
    /// The handlers that go on while this one claims the touches.
    let allowedWith: Set<GestureName>
}

extension GestureHandlerEntry {
    /// The map's table, in the order handlers see each event: the long press first (when it fires or starts a
    /// drag it takes the touches alone), then taps, pans and the two-finger gestures, which all run together.
    static var mapTable: [GestureHandlerEntry] {
        [
            GestureHandlerEntry(name: .longPress, handler: LongPressRecognizer(), allowedWith: []),
            GestureHandlerEntry(name: .tap, handler: TapRecognizer(), allowedWith: [.twoFingerTap, .pan, .twoFinger]),
            GestureHandlerEntry(
                name: .twoFingerTap, handler: TwoFingerTapRecognizer(), allowedWith: [.tap, .pan, .twoFinger]),
            GestureHandlerEntry(name: .pan, handler: PanRecognizer(), allowedWith: [.tap, .twoFingerTap, .twoFinger]),
            GestureHandlerEntry(
                name: .twoFinger, handler: TwoFingerRecognizer(), allowedWith: [.tap, .twoFingerTap, .pan]),
        ]
    }
}

extension LongPressRecognizer: GestureHandler {
    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult { handle(input) }
    mutating func tick(now: Double, flags: GestureFlags) -> GestureResult { tick(now: now) }
    mutating func cancel() -> GestureResult { reset() }
    var needsTick: Bool { isPossible }
}

extension TapRecognizer: GestureHandler {
    mutating func cancel() -> GestureResult {
        reset()
        return GestureResult()
    }
    var needsTick: Bool { isWaiting }
}

extension TwoFingerTapRecognizer: GestureHandler {
    mutating func cancel() -> GestureResult {
        reset()
        return GestureResult()
    }
}

extension PanRecognizer: GestureHandler {
    mutating func cancel() -> GestureResult {
        reset()
        return GestureResult()
    }
}

extension TwoFingerRecognizer: GestureHandler {
    mutating func cancel() -> GestureResult {
        reset()
        return GestureResult()
    }
}

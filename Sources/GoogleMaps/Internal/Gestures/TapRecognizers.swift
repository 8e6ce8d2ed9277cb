import MapGeometry

/// Single and double taps with one finger (spec §3, decisions D8, D17). Knows nothing of the map: it reports
/// `tap(point)` events and asks for an animated zoom of +1 on a double tap.
///
/// - A tap is a finger that lifts within ``GestureTuning/slop`` of where it touched down and before a long press
///   (0.5 s), with no other finger down meanwhile.
/// - On an element (``GestureHitTarget/element`` or `draggable`), or while zoom gestures are off, the tap is reported
///   at touch-up.
/// - On the bare map with zoom gestures on, it waits at most ``GestureTuning/doubleTapWindow`` (0.25 s) after
///   touch-up: a second tap that lifts within that window and ``GestureTuning/doubleTapDistance`` becomes a double
///   tap (zoom +1 about the second tap's touch-down point, or about the camera target when scroll gestures are off)
///   and no tap is reported; otherwise the first tap is reported when the window closes (or as soon as the second
///   touch can no longer make a double tap), and the second touch is judged afresh.
struct TapRecognizer {
    private struct Candidate {
        var id: Int
        var down: ScreenPoint
        var time: Double
        var target: GestureHitTarget
        var isSecondTap: Bool
    }

    private var candidate: Candidate?
    private var pending: (point: ScreenPoint, deadline: Double)?

    /// Whether a map tap is waiting for a possible double tap.
    var isWaiting: Bool { pending != nil }

    /// Forgets everything, reporting nothing.
    mutating func reset() {
        candidate = nil
        pending = nil
    }

    /// The current finger will not be a tap (it stopped a fling, or a long press took it).
    mutating func failCurrentTouch() -> GestureResult {
        var r = GestureResult()
        failCandidate(&r)
        return r
    }

    /// Reports a waiting tap whose window has closed (or whose zoom gestures were switched off).
    mutating func tick(now: Double, flags: GestureFlags) -> GestureResult {
        var r = GestureResult()
        if let p = pending, now >= p.deadline || !flags.zoom {
            r.events.append(.tap(p.point))
            pending = nil
            candidate?.isSecondTap = false
        }
        return r
    }

    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult {
        var r = tick(now: input.time, flags: flags)
        switch input.phase {
        case .began:
            guard input.touches.count == 1, let t = input.changed.first else {
                failCandidate(&r)
                return r
            }
            var second = false
            if let p = pending {
                if input.target.isMap && p.point.distance(to: t.point) <= GestureTuning.doubleTapDistance {
                    second = true
                } else {
                    r.events.append(.tap(p.point))
                    pending = nil
                }
            }
            candidate = Candidate(id: t.id, down: t.point, time: input.time, target: input.target, isSecondTap: second)
        case .moved:
            guard let c = candidate, let t = input.changed.first(where: { $0.id == c.id }) else { break }
            if t.point.distance(to: c.down) > GestureTuning.slop { failCandidate(&r) }
        case .ended:
            guard let c = candidate, let t = input.changed.first(where: { $0.id == c.id }) else { break }
            if t.point.distance(to: c.down) > GestureTuning.slop
                || input.time - c.time >= GestureTuning.longPressDuration || !input.touches.isEmpty
            {
                failCandidate(&r)
                break
            }
            candidate = nil
            if c.isSecondTap && pending != nil {
                pending = nil
                r.animatedZoom = (1, flags.scroll ? c.down : nil)
            } else if c.target.isMap && flags.zoom {
                pending = (c.down, input.time + GestureTuning.doubleTapWindow)
            } else {
                r.events.append(.tap(c.down))
            }
        case .cancelled:
            failCandidate(&r)
        }
        return r
    }

    private mutating func failCandidate(_ r: inout GestureResult) {
        if candidate?.isSecondTap == true, let p = pending {
            r.events.append(.tap(p.point))
            pending = nil
        }
        candidate = nil
    }
}

/// A tap with two fingers: both touch down and lift within 0.5 s, neither moving more than the slop, no third finger.
/// Asks for an animated zoom of −1 about the midpoint of the touch-down points (about the camera target when scroll
/// gestures are off), only while zoom gestures are on (D17).
struct TwoFingerTapRecognizer {
    private var starts: [Int: ScreenPoint] = [:]
    private var startTime: Double = 0
    private var failed = false

    mutating func reset() {
        starts = [:]
        failed = false
    }

    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult {
        var r = GestureResult()
        switch input.phase {
        case .began:
            if input.touches.count == input.changed.count {
                reset()
                startTime = input.time
            }
            for t in input.changed { starts[t.id] = t.point }
            if starts.count > 2 { failed = true }
        case .moved:
            for t in input.changed {
                if let s = starts[t.id], s.distance(to: t.point) > GestureTuning.slop { failed = true }
            }
        case .ended, .cancelled:
            if input.phase == .cancelled { failed = true }
            for t in input.changed {
                if let s = starts[t.id], s.distance(to: t.point) > GestureTuning.slop { failed = true }
            }
            guard input.touches.isEmpty else { break }
            let points = Array(starts.values)
            if !failed && points.count == 2 && input.time - startTime <= GestureTuning.twoFingerTapDuration
                && flags.zoom
            {
                r.animatedZoom = (-1, flags.scroll ? ScreenPoint.midpoint(points[0], points[1]) : nil)
            }
            reset()
        }
        return r
    }
}

/// A long press with one finger: it rests within ``GestureTuning/slop`` for ``GestureTuning/longPressDuration``
/// (D10: 0.5 s, 10 pt). On a draggable element it starts a drag (`dragBegan` → `dragMoved`… → `dragEnded`, with the
/// finger's point, no slop once dragging); elsewhere it reports `longPress(point)` (and never both, D10). Either way
/// it claims the touches: no pan, pinch or tap follows until every finger lifts.
struct LongPressRecognizer {
    private enum State {
        case idle
        case possible(id: Int, start: ScreenPoint, current: ScreenPoint, time: Double, target: GestureHitTarget)
        case pressed
        case dragging(id: Int, object: AnyObject, current: ScreenPoint)
        case failed
    }

    private var state: State = .idle

    /// Whether a finger is resting and may become a long press (the host should keep ticking).
    var isPossible: Bool {
        if case .possible = state { return true }
        return false
    }

    /// Whether a drag is in progress.
    var isDragging: Bool {
        if case .dragging = state { return true }
        return false
    }

    /// Forgets the touch; a drag in progress ends at its last point.
    mutating func reset() -> GestureResult {
        var r = GestureResult()
        if case .dragging(_, let object, let current) = state { r.events.append(.dragEnded(object, current)) }
        state = .idle
        return r
    }

    /// Fires the long press once the finger has rested long enough.
    mutating func tick(now: Double) -> GestureResult {
        var r = GestureResult()
        guard case .possible(let id, _, let current, let time, let target) = state,
            now - time >= GestureTuning.longPressDuration
        else { return r }
        if case .draggable(let object) = target {
            state = .dragging(id: id, object: object, current: current)
            r.events.append(.dragBegan(object, current))
        } else {
            state = .pressed
            r.events.append(.longPress(current))
        }
        r.claimsTouches = true
        return r
    }

    mutating func handle(_ input: TouchInput) -> GestureResult {
        var r = tick(now: input.time)
        switch (input.phase, state) {
        case (.began, .idle):
            if input.touches.count == 1, let t = input.changed.first {
                state = .possible(id: t.id, start: t.point, current: t.point, time: input.time, target: input.target)
            } else {
                state = .failed
            }
        case (.began, .possible):
            state = .failed
        case (.moved, .possible(let id, let start, _, let time, let target)):
            if let t = input.changed.first(where: { $0.id == id }) {
                state =
                    t.point.distance(to: start) > GestureTuning.slop
                    ? .failed : .possible(id: id, start: start, current: t.point, time: time, target: target)
            }
        case (.moved, .dragging(let id, let object, _)):
            if let t = input.changed.first(where: { $0.id == id }) {
                state = .dragging(id: id, object: object, current: t.point)
                r.events.append(.dragMoved(object, t.point))
            }
        case (.ended, .dragging(let id, let object, _)), (.cancelled, .dragging(let id, let object, _)):
            if let t = input.changed.first(where: { $0.id == id }) {
                r.events.append(.dragEnded(object, t.point))
                state = .pressed
            }
        case (.ended, .possible(let id, _, _, _, _)), (.cancelled, .possible(let id, _, _, _, _)):
            if input.changed.contains(where: { $0.id == id }) { state = .failed }
        default:
            break
        }
        if input.touches.isEmpty && !isDragging { state = .idle }
        return r
    }
}

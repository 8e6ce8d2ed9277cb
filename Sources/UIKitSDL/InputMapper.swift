import Foundation
import LinuxUIKit

/// Turns desktop input (mouse, wheel, keys, real fingers) into LinuxUIKit touches, so the hosted view sees only
/// touches and one gesture system handles everything. Knows nothing of SDL or maps: the host calls it with window
/// points (origin top-left, y down) and times in seconds on `UIAnimator.shared.clock`.
///
/// Mapping (README "map-viewer controls"):
/// - real touch-screen fingers: one touch each (identifiers from 100);
/// - left drag: one finger (identifier 1), so a click is a tap and a double-click a double tap;
/// - wheel / ctrl+wheel (trackpad pinch on X11): a two-finger pinch centred on the cursor (identifiers 2 and 3),
///   fingers kept down while the wheel turns and lifted 0.2 s after the last notch; 0.5 zoom levels a notch;
/// - right drag, or left drag with shift or alt: two fingers about the view centre; the first 6 points of movement
///   choose the axis: horizontal turns the finger pair (0.4° a point, rightwards clockwise, so the map turns with it),
///   vertical moves both fingers up or down together (a two-finger tilt);
/// - keys: scripted touches: arrows a 100-point drag over 0.15 s held still 0.07 s before lifting (no fling), `+` a
///   double tap at the centre, `-` a two-finger tap at the centre; key gestures queue one after another.
@MainActor package final class InputMapper {
    package let input: UITouchInput
    private var view: UIView { input.rootView }

    private enum FingerID {
        static let mouse = 1
        static let pairA = 2
        static let pairB = 3
        static let key = 4
        static let keyB = 5
        static let realBase = 100
    }

    /// Zoom levels per wheel notch.
    package static let zoomPerNotch = 0.5
    /// Seconds without a wheel event before the synthetic pinch lifts.
    package static let pinchRelease: TimeInterval = 0.2
    /// Degrees the synthetic finger pair turns per point of horizontal mouse movement.
    package static let degreesPerPoint: CGFloat = 0.4
    /// Mouse movement, points, that decides between turning and tilting.
    package static let axisDecision: CGFloat = 6

    private struct WheelPinch {
        var centre: CGPoint
        var axis: CGPoint
        var distance: CGFloat
        var lastEvent: TimeInterval
    }
    private var pinch: WheelPinch?

    private enum TwistMode { case undecided, turn, tilt }
    private struct Twist {
        var button: Int
        var start: CGPoint
        var centre: CGPoint
        var radius: CGFloat
        var mode: TwistMode
    }
    private var twist: Twist?
    private var mouseDown = false

    private var realFingers: [Int64: Int] = [:]
    private var nextRealID = FingerID.realBase

    /// Scripted touches (keys): each step is sent when its time comes.
    private var script: [(time: TimeInterval, changes: [UITouchInput.Change])] = []
    /// The earliest start of the next key gesture: a touch during the map's animated tap zoom (0.25 s) would stop it
    /// and not count as a tap, so zoom keys leave 0.3 s after their last step.
    private var scriptFreeAt: TimeInterval = -.infinity

    /// Called after touches were sent (the host marks the frame dirty).
    package var onTouches: () -> Void = {}

    package init(rootView: UIView) {
        input = UITouchInput(rootView: rootView)
    }

    /// A mapper sending through an existing input (the window host's).
    package init(input: UITouchInput) {
        self.input = input
    }

    /// The next time something is due without further input (pinch release, script step), or nil.
    package var nextDeadline: TimeInterval? {
        var t: TimeInterval? = script.first?.time
        if let p = pinch { t = min(t ?? .infinity, p.lastEvent + Self.pinchRelease) }
        return t
    }

    private func send(_ changes: [UITouchInput.Change]) {
        input.send(changes)
        onTouches()
    }

    // MARK: Mouse

    /// A button went down. `button`: 1 left, 2 middle, 3 right. `shiftOrAlt`: a modifier is held.
    package func mouseDown(button: Int, at p: CGPoint, shiftOrAlt: Bool, now: TimeInterval) {
        endPinch()
        guard twist == nil, !mouseDown else { return }
        if button == 3 || (button == 1 && shiftOrAlt) {
            let c = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
            let radius = max(10, min(80, view.bounds.width / 2 - 4))
            twist = Twist(button: button, start: p, centre: c, radius: radius, mode: .undecided)
        } else if button == 1 {
            mouseDown = true
            send([.init(FingerID.mouse, .began, at: p)])
        }
    }

    package func mouseMoved(to p: CGPoint) {
        if mouseDown {
            send([.init(FingerID.mouse, .moved, at: p)])
        } else if var t = twist {
            let dx = p.x - t.start.x
            let dy = p.y - t.start.y
            if t.mode == .undecided {
                guard max(abs(dx), abs(dy)) >= Self.axisDecision else { return }
                t.mode = abs(dx) >= abs(dy) ? .turn : .tilt
                twist = t
                send([
                    .init(FingerID.pairA, .began, at: CGPoint(x: t.centre.x - t.radius, y: t.centre.y)),
                    .init(FingerID.pairB, .began, at: CGPoint(x: t.centre.x + t.radius, y: t.centre.y)),
                ])
            }
            send(twistFingers(t, dx: dx, dy: dy))
        }
    }

    private func twistFingers(_ t: Twist, dx: CGFloat, dy: CGFloat) -> [UITouchInput.Change] {
        let a: CGPoint
        let b: CGPoint
        switch t.mode {
        case .turn:
            let r = dx * Self.degreesPerPoint * .pi / 180
            let ox = t.radius * cos(r)
            let oy = t.radius * sin(r)
            a = CGPoint(x: t.centre.x - ox, y: t.centre.y - oy)
            b = CGPoint(x: t.centre.x + ox, y: t.centre.y + oy)
        case .tilt, .undecided:
            a = CGPoint(x: t.centre.x - t.radius, y: t.centre.y + dy)
            b = CGPoint(x: t.centre.x + t.radius, y: t.centre.y + dy)
        }
        return [.init(FingerID.pairA, .moved, at: a), .init(FingerID.pairB, .moved, at: b)]
    }

    package func mouseUp(button: Int, at p: CGPoint) {
        if mouseDown && button == 1 {
            mouseDown = false
            send([.init(FingerID.mouse, .ended, at: p)])
        } else if let t = twist, t.button == button {
            twist = nil
            guard t.mode != .undecided else { return }
            let moved = twistFingers(t, dx: p.x - t.start.x, dy: p.y - t.start.y)
            send(moved.map { .init($0.identifier, .ended, at: $0.location) })
        }
    }

    // MARK: Wheel

    /// The wheel turned by `notches` (positive: away from the user = zoom in) with the pointer at `p`.
    package func wheel(notches: Double, at p: CGPoint, now: TimeInterval) {
        wheel(notches: notches, at: p, now: now, retry: true)
    }

    private func wheel(notches: Double, at p: CGPoint, now: TimeInterval, retry: Bool) {
        guard notches.isFinite, notches != 0, !mouseDown, twist == nil else { return }
        let zoom = min(max(notches, -4), 4) * Self.zoomPerNotch
        if let current = pinch, hypot(current.centre.x - p.x, current.centre.y - p.y) > 2 { endPinch() }
        let fresh = pinch == nil
        if fresh {
            let b = view.bounds
            guard b.contains(p) else { return }
            let roomX = min(p.x - b.minX, b.maxX - p.x) - 2
            let roomY = min(p.y - b.minY, b.maxY - p.y) - 2
            let horizontal = roomX >= roomY
            let radius = min(100, horizontal ? roomX : roomY)
            guard radius >= 16 else { return }
            let axis = horizontal ? CGPoint(x: 1, y: 0) : CGPoint(x: 0, y: 1)
            let started = WheelPinch(centre: p, axis: axis, distance: 2 * radius, lastEvent: now)
            pinch = started
            send(pinchFingers(started, distance: started.distance, phase: .began))
            // The recogniser starts after a 10-point change of the finger distance and then carries the whole change
            // since touch-down: spread by 30 points first, then go to the wanted distance in the same frame.
            send(pinchFingers(started, distance: started.distance + 30, phase: .moved))
        }
        guard var current = pinch else { return }
        var target = current.distance * CGFloat(pow(2, zoom))
        if (target < 24 || target > 4000) && !fresh && retry {
            // Out of room: lift and start a fresh pair for the rest.
            endPinch()
            wheel(notches: notches, at: p, now: now, retry: false)
            return
        }
        target = min(max(target, 24), 4000)
        current.distance = target
        current.lastEvent = now
        pinch = current
        send(pinchFingers(current, distance: target, phase: .moved))
    }

    private func pinchFingers(_ w: WheelPinch, distance: CGFloat, phase: UITouch.Phase) -> [UITouchInput.Change] {
        let h = distance / 2
        return [
            .init(FingerID.pairA, phase, at: CGPoint(x: w.centre.x - w.axis.x * h, y: w.centre.y - w.axis.y * h)),
            .init(FingerID.pairB, phase, at: CGPoint(x: w.centre.x + w.axis.x * h, y: w.centre.y + w.axis.y * h)),
        ]
    }

    private func endPinch() {
        guard let w = pinch else { return }
        pinch = nil
        send(pinchFingers(w, distance: w.distance, phase: .ended))
    }

    // MARK: Real fingers

    /// A touch-screen finger, `x`/`y` in window points.
    package func finger(_ fingerID: Int64, _ phase: UITouch.Phase, at p: CGPoint) {
        switch phase {
        case .began:
            let id = nextRealID
            nextRealID += 1
            realFingers[fingerID] = id
            send([.init(id, .began, at: p)])
        case .moved:
            guard let id = realFingers[fingerID] else { return }
            send([.init(id, .moved, at: p)])
        case .ended, .cancelled:
            guard let id = realFingers.removeValue(forKey: fingerID) else { return }
            send([.init(id, phase, at: p)])
            if realFingers.isEmpty { nextRealID = FingerID.realBase }
        case .stationary:
            break
        }
    }

    // MARK: Keys

    package enum KeyGesture {
        case pan(dx: CGFloat, dy: CGFloat)
        case zoomIn
        case zoomOut
    }

    /// Queues the touches of a key gesture after any running one (about 3 gestures queue; more are dropped).
    package func key(_ gesture: KeyGesture, now: TimeInterval) {
        // Keys wait for the hands: mixing a scripted finger with a held mouse finger would make a two-finger gesture.
        guard script.count < 24, !mouseDown, twist == nil, pinch == nil else { return }
        let t0 = max(now, scriptFreeAt)
        let c = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
        var steps: [(TimeInterval, [UITouchInput.Change])] = []
        switch gesture {
        case .pan(let dx, let dy):
            let id = FingerID.key
            steps.append((t0, [.init(id, .began, at: c)]))
            for i in 1...6 {
                let f = CGFloat(i) / 6
                steps.append(
                    (t0 + 0.025 * Double(i), [.init(id, .moved, at: CGPoint(x: c.x + dx * f, y: c.y + dy * f))]))
            }
            steps.append((t0 + 0.22, [.init(id, .ended, at: CGPoint(x: c.x + dx, y: c.y + dy))]))
        case .zoomIn:
            let id = FingerID.key
            steps.append((t0, [.init(id, .began, at: c)]))
            steps.append((t0 + 0.03, [.init(id, .ended, at: c)]))
            steps.append((t0 + 0.08, [.init(id, .began, at: c)]))
            steps.append((t0 + 0.11, [.init(id, .ended, at: c)]))
        case .zoomOut:
            let a = CGPoint(x: c.x - 20, y: c.y)
            let b = CGPoint(x: c.x + 20, y: c.y)
            steps.append((t0, [.init(FingerID.key, .began, at: a), .init(FingerID.keyB, .began, at: b)]))
            steps.append((t0 + 0.08, [.init(FingerID.key, .ended, at: a), .init(FingerID.keyB, .ended, at: b)]))
        }
        script.append(contentsOf: steps.map { (time: $0.0, changes: $0.1) })
        let last = steps.last?.0 ?? t0
        if case .pan = gesture { scriptFreeAt = last + 0.02 } else { scriptFreeAt = last + 0.3 }
    }

    // MARK: Time and resets

    /// Sends what is due at `now`: script steps and the wheel pinch's release.
    package func runDue(now: TimeInterval) {
        while let step = script.first, step.time <= now {
            script.removeFirst()
            send(step.changes)
        }
        if let p = pinch, now >= p.lastEvent + Self.pinchRelease { endPinch() }
    }

    /// Cancels every finger and forgets gestures in progress (resize, focus loss).
    package func cancelAll() {
        pinch = nil
        twist = nil
        mouseDown = false
        realFingers.removeAll()
        script.removeAll()
        scriptFreeAt = -.infinity
        if !input.activeTouches.isEmpty {
            input.cancelAll()
            onTouches()
        }
    }
}

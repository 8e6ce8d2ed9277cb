import Foundation
import WaymarkTime

/// One delivery of touch changes, as UIKit's `UIEvent` of type `.touches`: every touch that is down (or just
/// lifted) at that moment, and when it happened.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public final class UIEvent {
    /// The kind of an event, as UIKit's `UIEvent.EventType`; Waymark delivers only touches.
    public enum EventType: Int, Sendable {
        /// Touch changes.
        case touches
    }

    /// The kind of event. Always `.touches`.
    public let type: EventType = .touches
    /// When the event happened, in seconds on the input's clock.
    public let timestamp: TimeInterval
    private let touches: Set<UITouch>

    init(touches: Set<UITouch>, timestamp: TimeInterval) {
        self.touches = touches
        self.timestamp = timestamp
    }

    /// Every touch of the event: the ones that changed and the stationary ones still down. Never nil for touch
    /// events; optional as in UIKit.
    public var allTouches: Set<UITouch>? { touches }

    /// The touches of the event whose ``UITouch/view`` is `view`, or `nil` when there are none.
    public func touches(for view: UIView) -> Set<UITouch>? {
        let mine = touches.filter { $0.view === view }
        return mine.isEmpty ? nil : mine
    }
}

/// A view that handles raw touches, the Linux stand-in for overriding UIKit's `UIResponder` touch methods.
///
/// `UIView` has no responder methods in LinuxUIKit (its class body predates touch input, and methods added in an
/// extension could not be overridden), so a view that wants touches conforms to this protocol. ``UITouchInput``
/// delivers each touch to the nearest view, from the touch's hit-tested view up through its superviews, that
/// conforms (``UIView/touchResponder``). To pass touches on to an ancestor as well, as UIKit's `super.touchesBegan`
/// would, call the same method on `superview?.touchResponder`.
///
/// Each call carries only touches of one phase; calls of one event come in the order began, moved, ended,
/// cancelled. Every touch that began is eventually delivered in `.ended` or `.cancelled` exactly once.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public protocol UITouchResponder: AnyObject {
    /// Fingers touched down in this view (`phase == .began`).
    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?)
    /// Fingers that began in this view moved (`phase == .moved`).
    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?)
    /// Fingers that began in this view lifted (`phase == .ended`).
    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?)
    /// Fingers that began in this view were cancelled by the host (`phase == .cancelled`).
    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?)
}

extension UITouchResponder {
    /// Does nothing by default.
    public func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Does nothing by default.
    public func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Does nothing by default.
    public func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Does nothing by default.
    public func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}
}

extension UIView {
    /// The deepest visible, interaction-enabled descendant (or this view) that contains `point`, as UIKit's
    /// `hitTest(_:with:)`.
    ///
    /// A view is skipped with its whole subtree when it is hidden, has an alpha of 0.01 or less, has
    /// ``isUserInteractionEnabled`` off, or when ``point(inside:with:)`` rejects the point; subviews are tried front
    /// to back (last added first). Override ``point(inside:with:)`` to change a view's touchable area.
    /// - Parameters:
    ///   - point: a point in this view's coordinates, points.
    ///   - event: the event being delivered, passed on to ``point(inside:with:)``; may be nil.
    /// - Returns: the view to receive the touch, or nil when the point misses this view. Non-finite points miss.
    public func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        guard !isHidden, alpha > 0.01, isUserInteractionEnabled, self.point(inside: point, with: event) else {
            return nil
        }
        for sub in subviews.reversed() {
            if let hit = sub.hitTest(sub.convert(point, from: self), with: event) { return hit }
        }
        return self
    }

    /// The view that handles touches delivered to this view: this view or its nearest ancestor that conforms to
    /// ``UITouchResponder``, or nil when none does.
    public var touchResponder: (any UITouchResponder)? {
        var v: UIView? = self
        while let current = v {
            if let r = current as? any UITouchResponder { return r }
            v = current.superview
        }
        return nil
    }
}

/// The host side of touch input: turns finger changes from a window system (SDL) or a test script into
/// ``UITouch``/``UIEvent`` deliveries to the views of one tree.
///
/// Each ``send(_:)`` call is one event. A finger that begins is hit-tested from ``rootView``
/// (``UIView/hitTest(_:with:)``) and stays bound to the view it hit until it ends; every change is delivered to that
/// view's ``UIView/touchResponder``. Timestamps come from ``clock``, so a `ManualClock` gives reproducible
/// timings.
///
/// Bad input never traps: a change with a non-finite location, a `.moved`/`.ended`/`.cancelled` change for a finger
/// that is not down, and a `.stationary` change are ignored; a `.began` for a finger that is already down is treated
/// as `.moved`. A finger that changes twice in one ``send(_:)`` is split into two events.
///
/// Usage: `let input = UITouchInput(rootView: window, clock: clock)`, then `input.touchDown(0, at: p)`,
/// `input.move(0, to: q)`, `input.touchUp(0)`; two-finger gestures send both fingers in one event with
/// ``send(_:)``.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public final class UITouchInput {
    /// One finger's change in an event.
    public struct Change: Sendable, Equatable {
        /// The host's finger identifier; unique among fingers that are down at the same time.
        public var identifier: Int
        /// `.began`, `.moved`, `.ended` or `.cancelled` (`.stationary` is ignored).
        public var phase: UITouch.Phase
        /// The finger's position in ``UITouchInput/rootView`` coordinates, points. Ignored for `.cancelled`.
        public var location: CGPoint

        /// Creates a change.
        /// - Parameters:
        ///   - identifier: the finger.
        ///   - phase: what the finger did.
        ///   - location: where, in root-view coordinates (points).
        public init(_ identifier: Int, _ phase: UITouch.Phase, at location: CGPoint) {
            self.identifier = identifier
            self.phase = phase
            self.location = location
        }
    }

    /// The largest gap, in seconds, between a tap's end and the next touch's start for the two to count as a
    /// multiple tap (``UITouch/tapCount``). 0.35 s.
    public static let multipleTapInterval: TimeInterval = 0.35
    /// The largest distance, in points, between consecutive taps of a multiple tap. 44 pt.
    public static let multipleTapDistance: CGFloat = 44
    /// The largest movement, in points, of a touch that still counts as a tap for ``UITouch/tapCount``. 10 pt.
    public static let tapMovementTolerance: CGFloat = 10

    /// The root of the view tree that receives the touches (the "window"); locations are in its coordinates.
    public let rootView: UIView
    /// The time source for timestamps. Defaults to `UIAnimator.shared.clock`.
    public var clock: any TimeSource

    /// The fingers currently down, by identifier.
    public private(set) var activeTouches: [Int: UITouch] = [:]
    private var startLocations: [Int: CGPoint] = [:]
    private var lastTap: (location: CGPoint, time: TimeInterval, count: Int)?

    /// Creates an input for the views under `rootView`.
    /// - Parameters:
    ///   - rootView: the root of the tree; touches are hit-tested from it.
    ///   - clock: the time source for timestamps; `nil` uses `UIAnimator.shared.clock`.
    public init(rootView: UIView, clock: (any TimeSource)? = nil) {
        self.rootView = rootView
        self.clock = clock ?? UIAnimator.shared.clock
    }

    /// One finger touches down at `location` (root-view coordinates, points).
    public func touchDown(_ identifier: Int = 0, at location: CGPoint) {
        send([Change(identifier, .began, at: location)])
    }

    /// One finger moves to `location` (root-view coordinates, points).
    public func move(_ identifier: Int = 0, to location: CGPoint) {
        send([Change(identifier, .moved, at: location)])
    }

    /// One finger lifts, at `location` (root-view coordinates) or where it last was when `nil`.
    public func touchUp(_ identifier: Int = 0, at location: CGPoint? = nil) {
        guard let touch = activeTouches[identifier] else { return }
        send([Change(identifier, .ended, at: location ?? touch.locationInWindow)])
    }

    /// Cancels every finger that is down (the host lost the pointer or the window).
    public func cancelAll() {
        let changes = activeTouches.values.sorted { $0.identifier < $1.identifier }.map {
            Change($0.identifier, .cancelled, at: $0.locationInWindow)
        }
        if !changes.isEmpty { send(changes) }
    }

    /// Called after each ``send(_:)`` (the window host marks a frame due).
    package var onSend: () -> Void = {}

    /// Delivers the changes as one event (or several, when a finger changes more than once); see the type's rules.
    public func send(_ changes: [Change]) {
        defer { onSend() }
        var batch: [Change] = []
        for change in changes {
            if batch.contains(where: { $0.identifier == change.identifier }) {
                deliver(batch)
                batch = []
            }
            batch.append(change)
        }
        if !batch.isEmpty { deliver(batch) }
    }

    private func deliver(_ changes: [Change]) {
        let now = clock.now
        for touch in activeTouches.values {
            touch.phase = .stationary
            touch.previousLocationInWindow = touch.locationInWindow
        }
        var changed: [UITouch] = []
        for change in changes {
            let p = change.location
            let finite = p.x.isFinite && p.y.isFinite
            switch change.phase {
            case .began:
                guard finite else { continue }
                if let existing = activeTouches[change.identifier] {
                    existing.phase = .moved
                    existing.locationInWindow = p
                    existing.timestamp = now
                    changed.append(existing)
                    continue
                }
                let touch = UITouch(
                    identifier: change.identifier, location: p, timestamp: now, tapCount: tapCount(at: p, now: now),
                    window: rootView)
                activeTouches[change.identifier] = touch
                startLocations[change.identifier] = p
                changed.append(touch)
            case .moved, .ended:
                guard finite, let touch = activeTouches[change.identifier] else { continue }
                touch.phase = change.phase
                touch.locationInWindow = p
                touch.timestamp = now
                changed.append(touch)
            case .cancelled:
                guard let touch = activeTouches[change.identifier] else { continue }
                touch.phase = .cancelled
                touch.timestamp = now
                changed.append(touch)
            case .stationary:
                continue
            }
        }
        guard !changed.isEmpty else { return }
        let event = UIEvent(touches: Set(activeTouches.values), timestamp: now)
        for touch in changed where touch.phase == .began {
            touch.view = rootView.hitTest(touch.locationInWindow, with: event)
        }
        for touch in changed where touch.phase == .ended {
            recordTap(touch, now: now)
        }
        for phase in [UITouch.Phase.began, .moved, .ended, .cancelled] {
            let ofPhase = changed.filter { $0.phase == phase }
            guard !ofPhase.isEmpty else { continue }
            // Group by responder, keeping the order of first appearance.
            var groups: [(responder: any UITouchResponder, touches: Set<UITouch>)] = []
            for touch in ofPhase {
                guard let responder = touch.view?.touchResponder else { continue }
                if let i = groups.firstIndex(where: { $0.responder === responder }) {
                    groups[i].touches.insert(touch)
                } else {
                    groups.append((responder, [touch]))
                }
            }
            for group in groups {
                switch phase {
                case .began: group.responder.touchesBegan(group.touches, with: event)
                case .moved: group.responder.touchesMoved(group.touches, with: event)
                case .ended: group.responder.touchesEnded(group.touches, with: event)
                case .cancelled: group.responder.touchesCancelled(group.touches, with: event)
                case .stationary: break
                }
            }
        }
        for touch in changed where touch.phase == .ended || touch.phase == .cancelled {
            activeTouches[touch.identifier] = nil
            startLocations[touch.identifier] = nil
        }
    }

    private func tapCount(at p: CGPoint, now: TimeInterval) -> Int {
        guard let last = lastTap, now - last.time <= Self.multipleTapInterval,
            hypot(p.x - last.location.x, p.y - last.location.y) <= Self.multipleTapDistance
        else { return 1 }
        return last.count + 1
    }

    private func recordTap(_ touch: UITouch, now: TimeInterval) {
        guard let start = startLocations[touch.identifier] else { return }
        let p = touch.locationInWindow
        if hypot(p.x - start.x, p.y - start.y) <= Self.tapMovementTolerance {
            lastTap = (p, now, touch.tapCount)
        } else {
            lastTap = nil
        }
    }
}

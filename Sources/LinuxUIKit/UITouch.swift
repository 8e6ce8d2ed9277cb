import Foundation

/// One finger on the screen for the whole of its contact, as UIKit's `UITouch`: where it is, where it was at the
/// previous event, what it is doing and when it last changed.
///
/// Touches are created and updated only by ``UITouchInput`` (the host side: an SDL window, a test script). The same
/// object represents the finger from `.began` to `.ended` or `.cancelled`, so responders may keep it as a key.
///
/// Coordinates: the touch stores its position in the root view's coordinates (the "window"); ``location(in:)``
/// converts into any view of the same tree (points, origin top-left, y down).
/// - Thread rules: main actor only.
@preconcurrency @MainActor public final class UITouch {
    /// What a touch is doing in the event being delivered, as UIKit's `UITouch.Phase`.
    public enum Phase: Int, Sendable, CaseIterable {
        /// The finger touched the screen.
        case began
        /// The finger moved.
        case moved
        /// The finger is down and did not move since the previous event.
        case stationary
        /// The finger left the screen.
        case ended
        /// The system cancelled the touch (the host lost the pointer, the window closed).
        case cancelled
    }

    /// The host's identifier for this finger (an SDL finger id, a mouse button); unique among the touches that are
    /// down at the same time, reusable after the touch ends.
    public let identifier: Int
    /// The phase in the event being delivered.
    public internal(set) var phase: Phase
    /// When the touch last changed, in seconds on the input's clock (the same time line as the animators).
    public internal(set) var timestamp: TimeInterval
    /// How many quick taps in the same place led up to this touch, counting this one: 1 for a first tap, 2 for the
    /// second of a double tap, … A touch that began more than ``UITouchInput/multipleTapInterval`` after the previous
    /// tap ended, or more than ``UITouchInput/multipleTapDistance`` away from it, starts again at 1.
    public internal(set) var tapCount: Int
    /// The view the touch began in (the result of hit-testing at touch-down); it keeps receiving the touch even
    /// after the finger leaves its bounds, as in UIKit. `nil` when the touch began outside every view.
    public internal(set) weak var view: UIView?
    /// The root view of the tree the touch belongs to (the "window").
    public private(set) weak var window: UIView?

    /// The current position in root-view coordinates, points.
    var locationInWindow: CGPoint
    /// The position at the previous event in root-view coordinates, points (equal to the current one at `.began`).
    var previousLocationInWindow: CGPoint

    init(identifier: Int, location: CGPoint, timestamp: TimeInterval, tapCount: Int, window: UIView) {
        self.identifier = identifier
        self.phase = .began
        self.timestamp = timestamp
        self.tapCount = tapCount
        self.window = window
        self.locationInWindow = location
        self.previousLocationInWindow = location
    }

    /// The touch's current position in `view`'s coordinates (points); in root-view coordinates when `view` is nil.
    public func location(in view: UIView?) -> CGPoint {
        guard let view else { return locationInWindow }
        return view.convert(locationInWindow, from: nil)
    }

    /// The touch's position at the previous event, in `view`'s coordinates (points), or root-view coordinates when
    /// `view` is nil. At `.began` it equals ``location(in:)``.
    public func previousLocation(in view: UIView?) -> CGPoint {
        guard let view else { return previousLocationInWindow }
        return view.convert(previousLocationInWindow, from: nil)
    }
}

extension UITouch: Hashable {
    /// Touches are equal only when they are the same object (identity), as `NSObject` equality in UIKit.
    public nonisolated static func == (lhs: UITouch, rhs: UITouch) -> Bool { lhs === rhs }

    /// Hashes the object identity.
    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

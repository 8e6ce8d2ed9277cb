import MapGeometry

/// The thresholds and rates of the map gestures (spec §3, decisions D8, D10, D17). Distances in screen points,
/// times in seconds.
enum GestureTuning {
    /// A finger that moves more than this from where it touched down is no longer a tap or long press, and starts a
    /// pan (D10: 10 pt).
    static let slop: Double = 10
    /// How long a map tap waits for a possible second tap (D8: at most 0.25 s).
    static let doubleTapWindow: Double = 0.25
    /// The largest distance between the two taps of a double tap.
    static let doubleTapDistance: Double = 40
    /// How long a finger must rest for a long press (D10: 0.5 s).
    static let longPressDuration: Double = 0.5
    /// The longest two-finger tap, from the first finger down to the last finger up.
    static let twoFingerTapDuration: Double = 0.5
    /// The deceleration of a pan fling, points per second squared (D17).
    static let flingDeceleration: Double = 2500
    /// Flings slower than this, points per second, stop at once.
    static let flingMinimumSpeed: Double = 50
    /// Flings are capped to this speed, points per second.
    static let flingMaximumSpeed: Double = 8000
    /// The finger samples used for the release velocity: those of the last this many seconds.
    static let velocityWindow: Double = 0.1
    /// A finger that rested longer than this, seconds, before lifting releases with no velocity (no fling).
    static let restBeforeRelease: Double = 0.05
    /// The duration of the double-tap and two-finger-tap zoom animations.
    static let zoomAnimationDuration: Double = 0.25
    /// A pinch starts once the finger distance changed by this many points.
    static let pinchThreshold: Double = 10
    /// A rotation starts once the finger line turned by this many degrees.
    static let rotateThreshold: Double = 8
    /// A tilt starts once both fingers moved this many points up or down together.
    static let tiltThreshold: Double = 10
    /// Degrees of viewing angle per point of two-finger vertical movement (down tilts more).
    static let tiltDegreesPerPoint: Double = 0.5
}

/// One finger as the recognisers see it: an identifier and a position in the map view (points, top-left origin).
struct TouchPoint: Equatable, Sendable {
    /// The host's finger identifier.
    var id: Int
    /// The position in view points.
    var point: ScreenPoint
}

/// What a finger did in a ``TouchInput``.
enum TouchPhase: Equatable, Sendable {
    case began
    case moved
    case ended
    case cancelled
}

/// One touch event in the recognisers' terms (no UIKit types): the fingers that changed, all fingers down after the
/// event (in touch-down order), and when it happened.
struct TouchInput {
    /// The phase of every finger in ``changed``.
    var phase: TouchPhase
    /// The fingers that changed, at their new positions (the last position for `.ended` and `.cancelled`).
    var changed: [TouchPoint]
    /// Every finger down after this event, in the order they touched down.
    var touches: [TouchPoint]
    /// The time of the event, seconds on the map's clock.
    var time: Double
    /// For a `.began` that puts the first finger down: what lies under it (from the map's hit-test closure).
    var target: GestureHitTarget = .map
}

/// What lies under a finger at touch-down, answered by the map view's hit-test closure (it knows markers, info
/// windows, overlays, POIs and controls; the recognisers do not).
enum GestureHitTarget {
    /// Bare map (or anything that should behave like it): a tap waits for a possible double tap (D8).
    case map
    /// An element that takes taps at once (marker, info window, control, …; D8): a tap is reported at touch-up.
    case element
    /// A draggable marker (D10): a long press starts dragging it; the object is handed back in the drag events. A
    /// tap on it is reported at touch-up like ``element``.
    case draggable(AnyObject)

    var isMap: Bool {
        if case .map = self { return true }
        return false
    }
}

/// A discrete gesture outcome for the map view to route (tap precedence D7, long press D10, dragging §2.7).
enum GestureEvent: CustomStringConvertible {
    /// A single tap; the touch-down point in view points (the point the hit test classified).
    case tap(ScreenPoint)
    /// A long press (0.5 s, within 10 pt) that did not start a drag; the finger's point at recognition.
    case longPress(ScreenPoint)
    /// A long press on a draggable element started dragging it; the finger's point.
    case dragBegan(AnyObject, ScreenPoint)
    /// The dragging finger moved to the point.
    case dragMoved(AnyObject, ScreenPoint)
    /// The dragging finger lifted (or was cancelled) at the point.
    case dragEnded(AnyObject, ScreenPoint)

    var description: String {
        switch self {
        case .tap(let p): return "tap\(p)"
        case .longPress(let p): return "longPress\(p)"
        case .dragBegan(_, let p): return "dragBegan\(p)"
        case .dragMoved(_, let p): return "dragMoved\(p)"
        case .dragEnded(_, let p): return "dragEnded\(p)"
        }
    }
}

/// A screen-space vector in points (x right, y down).
struct ScreenVector: Equatable, Sendable {
    var dx: Double
    var dy: Double

    static let zero = ScreenVector(dx: 0, dy: 0)
    var length: Double { (dx * dx + dy * dy).squareRoot() }
    static func + (a: ScreenVector, b: ScreenVector) -> ScreenVector { ScreenVector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    static func - (a: ScreenVector, b: ScreenVector) -> ScreenVector { ScreenVector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    static func * (a: ScreenVector, k: Double) -> ScreenVector { ScreenVector(dx: a.dx * k, dy: a.dy * k) }
}

extension ScreenPoint {
    static func - (a: ScreenPoint, b: ScreenPoint) -> ScreenVector { ScreenVector(dx: a.x - b.x, dy: a.y - b.y) }
    static func + (a: ScreenPoint, v: ScreenVector) -> ScreenPoint { ScreenPoint(x: a.x + v.dx, y: a.y + v.dy) }
    func distance(to other: ScreenPoint) -> Double { (self - other).length }
    static func midpoint(_ a: ScreenPoint, _ b: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}

/// A camera change requested by the recognisers, like MapLibre's `HandlerResult`: deltas to apply about a pivot,
/// plus discrete events. Results of one frame are merged with ``merge(_:)`` and applied once.
///
/// Applying: the ground point under ``around`` (the optical centre when nil) is found; zoom, bearing and pitch
/// change; then the camera centre moves so that this ground point lies under `around + pan` exactly.
struct GestureResult {
    /// One-finger pan and fling movement, points; applied only while scroll gestures are on.
    var scrollDelta: ScreenVector = .zero
    /// Two-finger midpoint movement, points; applied only while scroll gestures and
    /// `allowScrollGesturesDuringRotateOrZoom` are on.
    var focalDelta: ScreenVector = .zero
    /// Zoom levels to add; applied only while zoom gestures are on.
    var zoomDelta: Double = 0
    /// Degrees to add to the bearing; applied only while rotate gestures are on.
    var bearingDelta: Double = 0
    /// Degrees to add to the viewing angle; applied only while tilt gestures are on.
    var pitchDelta: Double = 0
    /// The pivot in view points; nil pivots on the optical centre (camera target).
    var around: ScreenPoint?
    /// Discrete events, in order.
    var events: [GestureEvent] = []
    /// A discrete animated zoom to start (double tap +1, two-finger tap −1) about a point (nil: the centre).
    var animatedZoom: (delta: Double, around: ScreenPoint?)?
    /// A fling to start: release velocity in points per second.
    var fling: ScreenVector?
    /// A long press fired or a drag started: the camera gestures stand down until every finger lifts.
    var claimsTouches = false

    /// Whether the result asks for any continuous camera change.
    var movesCamera: Bool {
        scrollDelta != .zero || focalDelta != .zero || zoomDelta != 0 || bearingDelta != 0 || pitchDelta != 0
    }

    /// Adds `other` (a later result of the same frame): deltas add, the first pivot wins, events append.
    mutating func merge(_ other: GestureResult) {
        if around == nil && other.movesCamera { around = other.around }
        scrollDelta = scrollDelta + other.scrollDelta
        focalDelta = focalDelta + other.focalDelta
        zoomDelta += other.zoomDelta
        bearingDelta += other.bearingDelta
        pitchDelta += other.pitchDelta
        events += other.events
        if let z = other.animatedZoom { animatedZoom = z }
        if let f = other.fling { fling = f }
        claimsTouches = claimsTouches || other.claimsTouches
    }
}

/// The gesture switches the recognisers consult, copied from `GMSUISettings` at each event so that changes take
/// effect at once.
struct GestureFlags: Equatable, Sendable {
    var scroll = true
    var zoom = true
    var tilt = true
    var rotate = true
    var scrollDuringRotateOrZoom = true

    /// Whether any gesture can move the camera.
    var any: Bool { scroll || zoom || tilt || rotate }
    /// Whether pinch and rotate pivot on the fingers and follow their midpoint.
    var focalPan: Bool { scroll && scrollDuringRotateOrZoom }

    init() {}

    init(_ settings: GMSUISettings) {
        scroll = settings.scrollGestures
        zoom = settings.zoomGestures
        tilt = settings.tiltGestures
        rotate = settings.rotateGestures
        scrollDuringRotateOrZoom = settings.allowScrollGesturesDuringRotateOrZoom
    }
}

import Foundation
import LinuxUIKit
import Synchronization

/// How a marker appears when it is added to a map (spec §1.4): played once per addition.
public enum GMSMarkerAnimation: UInt, Sendable {
    /// Appears at once (the default).
    case none = 0
    /// Grows from its ground anchor (0.2 s, overshooting slightly).
    case pop = 1
    /// Fades in (0.2 s).
    case fadeIn = 2
}

/// A marker: an icon at a point on the map (spec §1.4, §4.1, decisions D12–D14).
///
/// Defaults: position (0, 0), no title or snippet, the default pin (26 × 37 pt, tip on the position), ground anchor
/// (0.5, 1), info window anchor (0.5, 0), billboard (upright, constant size), rotation 0, opacity 1, zIndex 0,
/// tappable, not draggable, `tracksViewChanges` true, `tracksInfoWindowChanges` false, no appear animation.
///
/// Changes of ``position`` and ``rotation`` on a marker that is on a map are animated over
/// `CATransaction.animationDuration()` (the open transaction's duration, else 0.25 s); hit testing uses the new value
/// at once. Invalid positions (NaN, infinite, beyond ±90/±180) keep the marker on its map but undrawn and untappable,
/// with one logged warning (D14). Opacity is clamped to [0, 1] (D13); anchors outside [0, 1] extrapolate.
/// - Thread rules: nonisolated, as in Google's SDK (see ``GMSOverlay``): create and configure on any thread while the
///   marker is on no map; once on a map, change it on the main thread (changes from another thread reach the map on
///   the main queue). ``markerImage(with:)`` may be called from any thread; ``layer`` is main-actor (Core Animation).
open class GMSMarker: GMSOverlay {
    // Storage is laid out for maps of a million markers (BENCHMARKS.md, Markers): the common state inline, packed;
    // what most markers never set (info window anchor, rotation, layer, snapshots, animation clocks) in ``extras``,
    // allocated on first use.

    /// Where the marker stands (its ground anchor), degrees. See the type's notes on animation and invalid values.
    open var position: CLLocationCoordinate2D = CLLocationCoordinate2D(latitude: 0, longitude: 0) {
        didSet {
            if !isValidPosition(position) {
                if !loggedInvalidPosition {
                    loggedInvalidPosition = true
                    GMSLog.warning(
                        "GMSMarker position (\(position.latitude), \(position.longitude)) is invalid; the marker is "
                            + "neither drawn nor tappable until it gets a valid position")
                }
            } else {
                loggedInvalidPosition = false
            }
            // D14: jumps into or out of an invalid position are not animated.
            let animated = isValidPosition(oldValue) && isValidPosition(position)
            let (old, new) = (oldValue, position)
            onMainActor(self) { marker in
                if animated {
                    marker.animateImplicitly(kGMSMarkerLayerLatitude, from: old.latitude, to: new.latitude)
                    marker.animateImplicitly(kGMSMarkerLayerLongitude, from: old.longitude, to: new.longitude)
                }
                marker.mapStorage?.markerDidChange(marker, geometry: true)
            }
        }
    }

    /// Second line of the default info window, in a smaller font; wraps, at most 8 lines (D15). `\n` breaks lines.
    open var snippet: String? {
        didSet { overlayContentDidChange() }
    }

    /// The icon; nil draws the default pin (§4.1). Animated images play; `alignmentRectInsets` shrink both the tap
    /// area and the anchor space. Ignored while ``iconView`` is set. Reuse one instance for many markers: each
    /// distinct image is rasterised once per scale.
    open var icon: UIImage? {
        didSet { notifyMap(geometry: true) }
    }

    /// A view drawn instead of the icon, as a snapshot clipped to its bounds, re-taken every frame while
    /// ``tracksViewChanges`` is true. It receives no touches; animate anything but `frame` and `center`.
    open var iconView: UIView? {
        didSet {
            iconViewSnapshot = nil
            notifyMap(geometry: true)
        }
    }

    /// Re-snapshot ``iconView`` every frame (true, the default) or keep the last snapshot (false). Switching it on
    /// guarantees a new snapshot on the next frame. No effect without an icon view.
    open var tracksViewChanges: Bool = true {
        didSet { if tracksViewChanges && !oldValue { iconViewSnapshot = nil } }
    }

    /// Re-draw the open info window every frame (true) or only when it opens (false, the default). Switching it on
    /// guarantees a redraw on the next frame.
    open var tracksInfoWindowChanges: Bool = false {
        didSet {
            if tracksInfoWindowChanges && !oldValue {
                onMainActor(self) { marker in marker.mapStorage?.infoWindowNeedsRefresh(for: marker) }
            }
        }
    }

    // Declared here (and ``groundAnchor`` after ``isFlat``, ``slot`` after ``opacity``) to fill the alignment gaps:
    // the object is 152 bytes, a 160-byte heap block.
    private var implicitAnimationsSuppressed: UInt8 = 0
    private var loggedInvalidPosition = false

    /// The point of the icon where the info window's arrow tip sits, in the same space as ``groundAnchor``.
    /// Defaults to (0.5, 0) (centre-top).
    open var infoWindowAnchor: CGPoint {
        get { extras?.infoWindowAnchor ?? kGMSMarkerDefaultInfoWindowAnchor }
        set { ensureExtras().infoWindowAnchor = newValue }
    }

    /// Played once each time the marker is added to a map. Defaults to `.none`.
    open var appearAnimation: GMSMarkerAnimation = .none

    /// Whether a long press starts dragging the marker (§2.7; the drag gestures come with the gesture layer).
    /// Defaults to false.
    open var isDraggable: Bool = false

    /// Flat markers lie on the ground: they turn with the map's bearing and foreshorten with its tilt, keeping their
    /// size across zoom. Defaults to false (billboard: upright, facing the screen).
    open var isFlat: Bool = false {
        didSet { notifyMap(geometry: true) }
    }

    /// The point of the icon placed on ``position``, in the unit square of the icon (or of its alignment rect):
    /// (0, 0) top-left, (1, 1) bottom-right. Defaults to (0.5, 1). Values outside [0, 1] extrapolate (D13).
    open var groundAnchor: CGPoint = kGMSMarkerDefaultGroundAnchor {
        didSet { notifyMap(geometry: true) }
    }

    /// Degrees clockwise about the ground anchor. Billboard: 0 is upright on screen; flat: 0 points north.
    /// Animated like ``position``. Non-finite values draw as 0.
    open var rotation: CLLocationDegrees {
        get { extras?.rotation ?? 0 }
        set {
            let oldValue = rotation
            ensureExtras().rotation = newValue
            onMainActor(self) { marker in
                marker.animateImplicitly(kGMSMarkerLayerRotation, from: oldValue, to: newValue)
                marker.mapStorage?.markerDidChange(marker, geometry: true)
            }
        }
    }

    /// 0 (transparent, still tappable) … 1 (opaque, the default); clamped (D13, NaN becomes 1).
    open var opacity: Float = 1 {
        didSet {
            let clamped = opacity.isNaN ? 1 : min(max(opacity, 0), 1)
            if clamped != opacity {
                opacity = clamped
            } else if clamped != oldValue {
                notifyMap(geometry: false)
            }
        }
    }

    /// The marker's slot in its map's tables, or -1 when on no map.
    var slot: Int32 = -1

    /// The Street View panorama the marker is shown on, or nil (the default). Waymark has no Street View imagery, so
    /// a panorama view never draws markers; the value is kept (weakly, as the panorama view does not own it).
    open weak var panoramaView: GMSPanoramaView?

    /// The Core Animation access to this marker's properties (§1.4.1). Main actor, as Waymark's Core Animation.
    @preconcurrency @MainActor open var layer: GMSMarkerLayer {
        if let existing = layerIfCreated { return existing }
        let created = GMSMarkerLayer(marker: self)
        ensureExtras().layer = created
        // Drawn from now on through the presented values (animations may move it anywhere).
        mapStorage?.markerDidChange(self, geometry: false)
        return created
    }

    /// The layer once something asked for it (markers that are never animated never allocate one).
    var layerIfCreated: GMSMarkerLayer? { extras?.layer }

    // MARK: Map bookkeeping (internal)

    /// What few markers set, allocated on first use.
    private final class Extras {
        var infoWindowAnchor = kGMSMarkerDefaultInfoWindowAnchor
        var rotation: CLLocationDegrees = 0
        var layer: GMSMarkerLayer?
        var iconViewSnapshot: UIImage?
        var appearStart: Double?
        var iconAnimationStart: Double = 0
    }
    private var extras: Extras?
    /// Whether any of the rarely set state (rotation, info window anchor, layer, snapshots, animation clocks) was
    /// ever set; when not, all of it is at its defaults.
    var hasExtras: Bool { extras != nil }
    private func ensureExtras() -> Extras {
        if let extras { return extras }
        let created = Extras()
        extras = created
        return created
    }

    /// Order of addition to the map (ties in zIndex: later on top).
    var sequence: UInt64 = 0
    /// The last snapshot of ``iconView`` and its size in points.
    var iconViewSnapshot: UIImage? {
        get { extras?.iconViewSnapshot }
        set { if newValue != nil || extras != nil { ensureExtras().iconViewSnapshot = newValue } }
    }
    /// When the appear animation started (animator clock), or nil.
    var appearStart: Double? {
        get { extras?.appearStart }
        set { if newValue != nil || extras != nil { ensureExtras().appearStart = newValue } }
    }
    /// When the icon's frame animation started (animator clock), for multi-frame icons; 0 for still icons.
    var iconAnimationStart: Double {
        get { extras?.iconAnimationStart ?? 0 }
        set { if newValue != 0 || extras != nil { ensureExtras().iconAnimationStart = newValue } }
    }

    /// Creates a marker at (0, 0) with the defaults listed on the type.
    public override init() {
        super.init()
        isTappable = true
    }

    /// Creates a marker at `position`.
    public convenience init(position: CLLocationCoordinate2D) {
        self.init()
        withoutImplicitAnimation { self.position = position }
    }

    /// The default pin tinted with `color` (nil: the default red), as an image for ``icon``: 26 × 37 pt at the main
    /// screen's scale, the body in `color` with a darker border and dot (§4.1).
    /// - Thread rules: any thread (a ``GMSSyncTileLayer`` may return such images from ``GMSSyncTileLayer/tileFor(x:y:zoom:)``);
    ///   the images are cached per colour and scale behind a lock, so every caller gets the same instance.
    open class func markerImage(with color: UIColor?) -> UIImage {
        DefaultPin.image(color: color ?? DefaultPin.defaultColor, scale: UIScreen.mainScale)
    }

    /// A new marker with this one's properties (position, title, snippet, icon, icon view, anchors, rotation,
    /// opacity, flags, zIndex, user data …), on no map and without a panorama view (Google's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSMarker()
        copyMarkerProperties(to: copy)
        return copy
    }

    /// Gives `copy` this marker's properties, the overlay's included (``copy(with:)``; subclasses' copies too).
    func copyMarkerProperties(to copy: GMSMarker) {
        copyOverlayProperties(to: copy)
        copy.withoutImplicitAnimation {
            copy.position = position
            copy.rotation = rotation
        }
        copy.snippet = snippet
        copy.icon = icon
        copy.iconView = iconView
        copy.tracksViewChanges = tracksViewChanges
        copy.tracksInfoWindowChanges = tracksInfoWindowChanges
        if extras != nil { copy.infoWindowAnchor = infoWindowAnchor }
        copy.appearAnimation = appearAnimation
        copy.isDraggable = isDraggable
        copy.isFlat = isFlat
        copy.groundAnchor = groundAnchor
        copy.opacity = opacity
    }

    /// Tells the map (on the main actor) that the marker changed.
    func notifyMap(geometry: Bool) {
        onMainActor(self) { marker in marker.mapStorage?.markerDidChange(marker, geometry: geometry) }
    }

    override func overlayContentDidChange() {
        onMainActor(self) { marker in marker.mapStorage?.infoWindowContentDidChange(for: marker) }
    }

    override func overlayOrderDidChange() {
        onMainActor(self) { marker in marker.mapStorage?.markerOrderDidChange(marker) }
    }

    func withoutImplicitAnimation(_ body: () -> Void) {
        implicitAnimationsSuppressed += 1
        body()
        implicitAnimationsSuppressed -= 1
    }

    @MainActor private func animateImplicitly(_ key: String, from: Double, to: Double) {
        guard implicitAnimationsSuppressed == 0, mapStorage != nil, from != to, from.isFinite, to.isFinite else {
            return
        }
        let animation = CABasicAnimation(keyPath: key)
        // From what is on screen: the running animation's value, else the old model value.
        let running = layer.animationKeys()?.isEmpty == false
        animation.fromValue = running ? layer.presentedNumber(key, model: from) : from
        animation.toValue = to
        layer.add(animation, forKey: "implicit." + key)
    }
}

/// `true` for finite coordinates within ±90° latitude and ±180° longitude (D14).
func isValidPosition(_ c: CLLocationCoordinate2D) -> Bool {
    c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 180
}

/// Where the GoogleMaps module reports recoverable problems: one line on standard error, prefixed `[GoogleMaps]`.
/// Any thread (the messages are kept behind a lock).
///
/// Bounded whatever an app repeats: the newest ``keptMessages`` messages are kept in memory, and a message of the same
/// text is written to standard error at most ``shownRepeats`` times, the last of them saying that further repeats are
/// not shown (an app that sets `selectedMarker` to removed markers in a loop writes ten lines, not one a call).
enum GMSLog {
    /// How many of the newest messages ``messages`` keeps.
    static let keptMessages = 1_000
    /// How many times one text is written to standard error.
    static let shownRepeats = 10
    /// How many different texts are counted for ``shownRepeats`` before the counts start again.
    static let countedTexts = 1_000

    private struct Store {
        var messages: [String] = []
        var shown: [String: Int] = [:]
    }

    private static let store = Mutex(Store())

    /// Messages logged so far, the newest ``keptMessages`` (tests read them).
    static var messages: [String] {
        get { store.withLock { $0.messages } }
        set { store.withLock { $0.messages = newValue } }
    }

    /// Logs `message`: kept, and written to standard error unless its text was already written ``shownRepeats``
    /// times.
    static func warning(_ message: String) {
        if let line = record(message) { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Keeps `message` and returns the line to write to standard error for it, or `nil` once its text was written
    /// ``shownRepeats`` times (the last of them saying so).
    static func record(_ message: String) -> String? {
        let times = store.withLock { store -> Int in
            store.messages.append(message)
            if store.messages.count > keptMessages { store.messages.removeFirst(store.messages.count - keptMessages) }
            if store.shown[message] == nil && store.shown.count >= countedTexts { store.shown.removeAll() }
            let times = (store.shown[message] ?? 0) + 1
            store.shown[message] = times
            return times
        }
        guard times <= shownRepeats else { return nil }
        return times == shownRepeats
            ? "[GoogleMaps] warning: \(message) (repeated \(times) times; further repeats are not shown)\n"
            : "[GoogleMaps] warning: \(message)\n"
    }
}

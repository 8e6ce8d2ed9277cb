import Foundation
import LinuxUIKit

/// The base of everything drawn on a map above the basemap (spec §1.3). Abstract: use ``GMSMarker``.
///
/// Ownership: assigning ``map`` adds the overlay to that map (moving it off any other map first); `nil` removes it.
/// The map keeps its overlays alive while they are on it; ``map`` itself is weak.
///
/// Copying (`NSCopying`, as Google's): `copy()` returns a new overlay of the same Waymark class with the same
/// properties (``userData`` included), on no map.
/// - Thread rules: nonisolated, as in Google's SDK (an Objective-C class without actor annotation): an overlay can be
///   created and configured on any thread while it is on no map (one thread at a time). Once it is on a map, change
///   it on the main thread as Google requires; a change made on another thread is stored at once and reaches the map
///   (redraw, re-index, adding or removing for ``map``) on the main queue shortly after. Setting ``map`` from another
///   thread therefore takes effect on the main thread: until then ``map`` reads the old value.
open class GMSOverlay: NSObject, NSCopying {
    /// Text for the info window (markers) and the default accessibility label. Defaults to nil.
    open var title: String? {
        didSet { overlayContentDidChange() }
    }

    /// Whether taps on the overlay are reported. Markers default to `true`, other overlays to `false`.
    open var isTappable: Bool = false

    /// Drawing order within the overlay's group: higher draws above lower; ties keep the order of addition (later on
    /// top). Markers are always above non-marker overlays. Defaults to 0.
    open var zIndex: Int32 = 0 {
        didSet { if zIndex != oldValue { overlayOrderDidChange() } }
    }

    /// App data; never read or written by the SDK. Avoid strong references to map objects (retain cycles).
    open var userData: Any? {
        get { userDataBox?.value }
        set { userDataBox = newValue.map(UserDataBox.init) }
    }
    /// ``userData`` boxed: 8 bytes an overlay instead of an inline 32-byte `Any?` (markers come by the million).
    private var userDataBox: UserDataBox?
    private final class UserDataBox {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    // UIAccessibility's properties, which every `NSObject` has on iOS (an informal protocol): stored for the app and
    // read back; Linux has no assistive technology to read them. Boxed, 8 bytes an overlay until one is set.

    /// A label for assistive technologies (UIAccessibility). Defaults to nil. Stored only.
    open var accessibilityLabel: String? {
        get { accessibilityBox?.label }
        set { ensureAccessibility().label = newValue }
    }
    /// A hint for assistive technologies (UIAccessibility). Defaults to nil. Stored only.
    open var accessibilityHint: String? {
        get { accessibilityBox?.hint }
        set { ensureAccessibility().hint = newValue }
    }
    /// A value for assistive technologies (UIAccessibility). Defaults to nil. Stored only.
    open var accessibilityValue: String? {
        get { accessibilityBox?.value }
        set { ensureAccessibility().value = newValue }
    }
    /// Whether assistive technologies treat the overlay as an element (UIAccessibility). Defaults to false. Stored
    /// only.
    open var isAccessibilityElement: Bool {
        get { accessibilityBox?.isElement ?? false }
        set { ensureAccessibility().isElement = newValue }
    }
    /// The element's frame in screen coordinates, points (UIAccessibility). Defaults to `.zero`. Stored only.
    open var accessibilityFrame: CGRect {
        get { accessibilityBox?.frame ?? .zero }
        set { ensureAccessibility().frame = newValue }
    }
    /// Where an activation lands, screen coordinates in points (UIAccessibility). Defaults to `.zero` (UIKit's
    /// default then is the frame's centre). Stored only.
    open var accessibilityActivationPoint: CGPoint {
        get { accessibilityBox?.activationPoint ?? .zero }
        set { ensureAccessibility().activationPoint = newValue }
    }
    private var accessibilityBox: AccessibilityBox?
    private final class AccessibilityBox {
        var label: String?
        var hint: String?
        var value: String?
        var isElement = false
        var frame = CGRect.zero
        var activationPoint = CGPoint.zero
    }
    private func ensureAccessibility() -> AccessibilityBox {
        if let accessibilityBox { return accessibilityBox }
        let created = AccessibilityBox()
        accessibilityBox = created
        return created
    }

    /// Storage behind ``map``; only the map view writes it.
    weak var mapStorage: GMSMapView?

    /// The map the overlay is on, or nil. Setting adds it to that map (removing it from another map first); `nil`
    /// removes it. Weak: the map keeps the overlay alive, not the other way round.
    open var map: GMSMapView? {
        get { mapStorage }
        set {
            onMainActor(self) { overlay in
                guard newValue !== overlay.mapStorage else { return }
                overlay.mapStorage?.removeOverlay(overlay)
                newValue?.addOverlay(overlay)
            }
        }
    }

    /// Creates an overlay that is on no map.
    public override init() {
        super.init()
    }

    /// A new overlay with this one's properties, on no map (Google's `NSCopying`). Subclasses override it to copy
    /// their own properties; the base class copies ``title``, ``isTappable``, ``zIndex`` and ``userData``.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = GMSOverlay()
        copyOverlayProperties(to: copy)
        return copy
    }

    /// Copies the properties every overlay has into `copy` (used by each class's ``copy(with:)``).
    func copyOverlayProperties(to copy: GMSOverlay) {
        copy.title = title
        copy.isTappable = isTappable
        copy.zIndex = zIndex
        copy.userDataBox = userDataBox
    }

    /// Shapes: the geometry or style changed. On the main actor (at once there) the prepared drawing is marked stale
    /// and the map re-indexes the shape. Any thread.
    func shapeDidChange() {
        onMainActor(self) { overlay in
            if let shape = overlay as? any ShapeOverlay { shape.specIsStale = true }
            overlay.mapStorage?.overlayStage.geometryDidChange(overlay)
        }
    }

    /// Hook for subclasses: content shown in a window changed. Any thread (subclasses hop to the main actor).
    func overlayContentDidChange() {}
    /// Hook for subclasses: the drawing order changed (non-marker overlays: the map's overlay stage re-sorts). Any
    /// thread.
    func overlayOrderDidChange() {
        onMainActor(self) { overlay in overlay.mapStorage?.overlayStage.orderDidChange() }
    }
}

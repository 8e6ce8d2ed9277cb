import Foundation
import LinuxUIKit

/// The base of everything drawn on a map above the basemap (spec §1.3). Abstract: use ``GMSMarker``.
///
/// Ownership: assigning ``map`` adds the overlay to that map (moving it off any other map first); `nil` removes it.
/// The map keeps its overlays alive while they are on it; ``map`` itself is weak.
/// - Thread rules: main thread (main actor) only, as the SDK.
@MainActor open class GMSOverlay: NSObject {
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

    /// Storage behind ``map``; only the map view writes it.
    weak var mapStorage: GMSMapView?

    /// The map the overlay is on, or nil. Setting adds it to that map (removing it from another map first); `nil`
    /// removes it. Weak: the map keeps the overlay alive, not the other way round.
    open var map: GMSMapView? {
        get { mapStorage }
        set {
            guard newValue !== mapStorage else { return }
            mapStorage?.removeOverlay(self)
            newValue?.addOverlay(self)
        }
    }

    /// Creates an overlay that is on no map.
    public override init() {
        super.init()
    }

    /// Hook for subclasses: content shown in a window changed.
    func overlayContentDidChange() {}
    /// Hook for subclasses: the drawing order changed (non-marker overlays: the map's overlay stage re-sorts).
    func overlayOrderDidChange() { mapStorage?.overlayStage.orderDidChange() }
}

import Foundation

/// Which user interface controls a map shows and which gestures it accepts (spec §1.5); obtained from
/// `mapView.settings`.
///
/// Changes take effect at once: a gesture that is switched off stops moving the camera from the next touch or frame,
/// even in the middle of a gesture or its deceleration. None of the gesture flags limits programmatic camera changes
/// (`mapView.camera = …`, `animate(…)`, `moveCamera(_:)`) or the compass and my-location buttons, and touches on a map
/// whose gestures are all off never interrupt a running programmatic animation (decision D17).
/// - Thread rules: main thread only, like the map view that owns it.
open class GMSUISettings: NSObject {
    /// Called after any property changes value (the map redraws its controls); set by the owning map view.
    var onChange: (() -> Void)?

    /// Every switch's value. The properties read and write only this value, so each change goes through its one
    /// observer, which calls ``onChange``.
    struct Switches: Equatable {
        var scrollGestures = true
        var zoomGestures = true
        var tiltGestures = true
        var rotateGestures = true
        var consumesGesturesInView = true
        var allowScrollGesturesDuringRotateOrZoom = true
        var compassButton = false
        var myLocationButton = false
        var indoorPicker = true
    }

    /// The one value behind the properties; see ``Switches``.
    var switches = Switches() {
        didSet { if switches != oldValue { onChange?() } }
    }

    /// Creates settings with every default of spec §1.5: all four gestures on, `consumesGesturesInView` and
    /// `allowScrollGesturesDuringRotateOrZoom` on, compass and my-location buttons off, indoor picker on.
    public override init() {
        super.init()
    }

    /// Whether a one-finger drag pans the camera (with deceleration after a fling); pans stay within the map's
    /// `cameraTargetBounds`. When off, double tap, two-finger tap and pinch zoom about the camera target instead of
    /// the fingers. Defaults to `true`.
    open var scrollGestures: Bool {
        get { switches.scrollGestures }
        set { switches.scrollGestures = newValue }
    }

    /// Whether double tap (zoom in by 1), two-finger tap (zoom out by 1) and pinch change the zoom. Also decides
    /// whether a single tap on the bare map waits up to 0.25 s for a possible double tap (decision D8). Defaults to
    /// `true`.
    open var zoomGestures: Bool {
        get { switches.zoomGestures }
        set { switches.zoomGestures = newValue }
    }

    /// Whether two fingers moving down or up together change the viewing angle (down tilts more), within the
    /// zoom-dependent limit of decision D4. Defaults to `true`.
    open var tiltGestures: Bool {
        get { switches.tiltGestures }
        set { switches.tiltGestures = newValue }
    }

    /// Whether a two-finger rotation turns the bearing. Defaults to `true`.
    open var rotateGestures: Bool {
        get { switches.rotateGestures }
        set { switches.rotateGestures = newValue }
    }

    /// Whether touches the map handles are kept from the views that contain it (an enclosing scroll view does not
    /// also scroll). When `false` the map passes its touches on to the nearest ancestor that handles touches as
    /// well. Defaults to `true`.
    open var consumesGesturesInView: Bool {
        get { switches.consumesGesturesInView }
        set { switches.consumesGesturesInView = newValue }
    }

    /// Whether pinch and rotate gestures may be made off-centre and pan the map with the fingers while they run:
    /// when `true` (and ``scrollGestures`` is on) they pivot on the fingers' midpoint and the map follows its
    /// movement; when `false` they pivot on the camera target and finger translation is ignored. Defaults to
    /// `true`.
    open var allowScrollGesturesDuringRotateOrZoom: Bool {
        get { switches.allowScrollGesturesDuringRotateOrZoom }
        set { switches.allowScrollGesturesDuringRotateOrZoom = newValue }
    }

    /// Whether the compass shows in the top-right corner while the bearing is not 0; tapping it animates the
    /// bearing back to 0, after which it fades out. It can never be forced to show at bearing 0. Defaults to
    /// `false`.
    open var compassButton: Bool {
        get { switches.compassButton }
        set { switches.compassButton = newValue }
    }

    /// Whether the my-location button shows in the bottom-right corner (only while `mapView.isMyLocationEnabled`
    /// is also on); tapping it centres the camera on the user's location when known. Defaults to `false` (unlike
    /// Android).
    open var myLocationButton: Bool {
        get { switches.myLocationButton }
        set { switches.myLocationButton = newValue }
    }

    /// Whether the floor picker shows while a building with indoor levels is focused. When off, the level can still
    /// be chosen through `mapView.indoorDisplay`. Defaults to `true`.
    open var indoorPicker: Bool {
        get { switches.indoorPicker }
        set { switches.indoorPicker = newValue }
    }

    /// Switches ``scrollGestures``, ``zoomGestures``, ``tiltGestures`` and ``rotateGestures`` on or off together.
    /// Does not affect the buttons, ``consumesGesturesInView``, ``allowScrollGesturesDuringRotateOrZoom`` or
    /// programmatic camera changes.
    /// - Parameter enabled: the new value of all four gesture flags.
    open func setAllGesturesEnabled(_ enabled: Bool) {
        scrollGestures = enabled
        zoomGestures = enabled
        tiltGestures = enabled
        rotateGestures = enabled
    }
}

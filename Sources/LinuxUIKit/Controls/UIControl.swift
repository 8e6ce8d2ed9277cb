import Foundation

/// The base class of controls (buttons, switches, sliders, text fields), as UIKit's `UIControl`: a state (enabled,
/// selected, highlighted), touch tracking, and actions run for control events.
///
/// Touches: a finger that begins in an enabled control is tracked by it (``beginTracking(_:with:)``, then
/// ``continueTracking(_:with:)`` per move and ``endTracking(_:with:)``); while it is down the control is highlighted
/// when the finger is inside. The control sends `.touchDown` (and `.touchDownRepeat` for a multiple tap),
/// `.touchDragInside`/`.touchDragOutside`/`.touchDragEnter`/`.touchDragExit` as the finger moves, and on lifting
/// `.touchUpInside` when it lifts inside, else `.touchUpOutside`; a cancelled touch sends `.touchCancel`. "Inside"
/// is the bounds grown by ``touchSlop`` (70 points) on every side, as UIKit's tracking area. Subclasses send
/// `.valueChanged` (and `.primaryActionTriggered` where UIKit does) themselves.
///
/// Actions: Objective-C selectors do not exist on Linux, so actions are ``UIAction`` closures
/// (``addAction(_:for:)``), the form iOS 14 added. They run synchronously, in the order they were added.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIControl: UIView, UITouchResponder {
    /// The events a control sends, as UIKit's `UIControl.Event` (the same bit values).
    public struct Event: OptionSet, Hashable, Sendable {
        /// The event bits.
        public let rawValue: UInt
        /// Creates events from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// A finger touched down in the control.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A second or later quick tap touched down (tap count above 1).
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        /// The finger moved inside the tracking area.
        public static let touchDragInside = Event(rawValue: 1 << 2)
        /// The finger moved outside the tracking area.
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        /// The finger moved from outside to inside the tracking area.
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        /// The finger moved from inside to outside the tracking area.
        public static let touchDragExit = Event(rawValue: 1 << 5)
        /// The finger lifted inside the tracking area: a tap.
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// The finger lifted outside the tracking area.
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        /// The host cancelled the touch.
        public static let touchCancel = Event(rawValue: 1 << 8)
        /// The user changed the control's value (switch, slider, segment, stepper, picker).
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The control's primary action: a button's tap, a text field's return key.
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        /// A menu action of the control ran.
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        /// A text field began editing.
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        /// A text field's text changed by typing.
        public static let editingChanged = Event(rawValue: 1 << 17)
        /// A text field ended editing.
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        /// A text field ended editing with the return key.
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        /// Every touch event.
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        /// Every editing event.
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        /// Bits reserved for applications.
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        /// Bits reserved for the system.
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        /// Every event.
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A control's state, as UIKit's `UIControl.State` (the same bit values); buttons keep titles, colours and
    /// images per state.
    public struct State: OptionSet, Hashable, Sendable {
        /// The state bits.
        public let rawValue: UInt
        /// Creates a state from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Enabled, not selected, not highlighted.
        public static let normal = State([])
        /// A finger is down inside the control.
        public static let highlighted = State(rawValue: 1 << 0)
        /// The control is not enabled.
        public static let disabled = State(rawValue: 1 << 1)
        /// The control is selected.
        public static let selected = State(rawValue: 1 << 2)
        /// The control has focus (never set on Linux).
        public static let focused = State(rawValue: 1 << 3)
        /// Bits reserved for applications.
        public static let application = State(rawValue: 0x00FF_0000)
        /// Bits reserved for the system.
        public static let reserved = State(rawValue: 0xFF00_0000)
    }

    /// How far outside its bounds, in points, a tracked finger still counts as inside: 70.
    public static let touchSlop: CGFloat = 70

    /// Whether the control takes touches and draws as enabled. Defaults to true. A disabled control is skipped by
    /// touch tracking (the touch passes to the view behind it, as on iOS) and draws dimmed.
    open var isEnabled = true {
        didSet { if isEnabled != oldValue { stateDidChange() } }
    }
    /// Whether the control is selected (a button's selected look). Defaults to false.
    open var isSelected = false {
        didSet { if isSelected != oldValue { stateDidChange() } }
    }
    /// Whether a finger is down inside the control. Set by touch tracking; defaults to false.
    open var isHighlighted = false {
        didSet { if isHighlighted != oldValue { stateDidChange() } }
    }

    /// The combined state: `.disabled`, `.selected` and `.highlighted` bits from the flags.
    open var state: State {
        var s: State = []
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        if isHighlighted { s.insert(.highlighted) }
        return s
    }

    /// Whether a finger is being tracked.
    public private(set) var isTracking = false
    /// Whether the tracked finger is inside the tracking area (bounds grown by ``touchSlop``).
    public private(set) var isTouchInside = false

    private var actions: [(action: UIAction, events: Event)] = []
    private var trackedTouch: UITouch?

    /// Creates a control with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Creates a control (archives are not supported on Linux; `coder` is ignored).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// Called when ``isEnabled``, ``isSelected`` or ``isHighlighted`` changes; subclasses restyle. The default asks
    /// for display.
    open func stateDidChange() { setNeedsDisplay() }

    // MARK: Actions

    /// Runs `action` whenever the control sends one of `controlEvents`. An action with the same identifier already
    /// added for those events is replaced (it keeps its place).
    open func addAction(_ action: UIAction, for controlEvents: Event) {
        if let i = actions.firstIndex(where: { $0.action.identifier == action.identifier && $0.events == controlEvents }
        ) {
            actions[i].action = action
        } else {
            actions.append((action, controlEvents))
        }
    }

    /// Stops running `action` (matched by identifier) for `controlEvents`; it still runs for its other events.
    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        removeAction(identifiedBy: action.identifier, for: controlEvents)
    }

    /// Stops running the action named `actionIdentifier` for `controlEvents`.
    open func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: Event) {
        for i in actions.indices where actions[i].action.identifier == actionIdentifier {
            actions[i].events.subtract(controlEvents)
        }
        actions.removeAll { $0.events.isEmpty }
    }

    /// The events `action` (matched by identifier) is registered for, or nil.
    package func registeredEvents(for action: UIAction) -> Event? {
        let events = actions.filter { $0.action.identifier == action.identifier }.reduce(Event()) {
            $0.union($1.events)
        }
        return events.isEmpty ? nil : events
    }

    /// The control events any action is registered for.
    open var allControlEvents: Event { actions.reduce(Event()) { $0.union($1.events) } }

    /// Runs, in the order they were added, every action registered for any of `controlEvents`, each once, with
    /// the control as sender.
    open func sendActions(for controlEvents: Event) {
        let due = actions.filter { !$0.events.isDisjoint(with: controlEvents) }.map(\.action)
        for action in due { sendAction(action) }
    }

    /// Runs `action` with the control as sender.
    open func sendAction(_ action: UIAction) {
        action.perform(sender: self)
    }

    // MARK: Tracking

    /// A tracked finger touched down; return false to stop tracking it. The default returns true.
    open func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    /// The tracked finger moved; return false to stop tracking it. The default returns true.
    open func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    /// The tracked finger lifted (`touch` non-nil) or tracking ended otherwise. The default does nothing.
    open func endTracking(_ touch: UITouch?, with event: UIEvent?) {}
    /// The tracked finger was cancelled. The default does nothing.
    open func cancelTracking(with event: UIEvent?) {}

    private func inside(_ touch: UITouch) -> Bool {
        bounds.insetBy(dx: -Self.touchSlop, dy: -Self.touchSlop).contains(touch.location(in: self))
    }

    /// Starts tracking the first finger (enabled controls only; a disabled control ignores the touch).
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, trackedTouch == nil, let touch = touches.first else { return }
        trackedTouch = touch
        isTracking = true
        isTouchInside = true
        isHighlighted = true
        var events: Event = .touchDown
        if touch.tapCount > 1 { events.insert(.touchDownRepeat) }
        sendActions(for: events)
        if !beginTracking(touch, with: event) { stopTracking() }
    }

    /// Follows the tracked finger: drag events, highlight, ``continueTracking(_:with:)``.
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        let wasInside = isTouchInside
        isTouchInside = inside(touch)
        isHighlighted = isTouchInside
        var events: Event = isTouchInside ? .touchDragInside : .touchDragOutside
        if wasInside != isTouchInside { events.insert(isTouchInside ? .touchDragEnter : .touchDragExit) }
        sendActions(for: events)
        if !continueTracking(touch, with: event) { stopTracking() }
    }

    /// Ends tracking: ``endTracking(_:with:)``, then `.touchUpInside` or `.touchUpOutside`.
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        isTouchInside = inside(touch)
        let upInside = isTouchInside
        stopTracking()
        endTracking(touch, with: event)
        sendActions(for: upInside ? .touchUpInside : .touchUpOutside)
        if upInside { touchUpInsideDidFire(touch) }
    }

    /// Ends tracking without a touch-up: ``cancelTracking(with:)`` and `.touchCancel`.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        stopTracking()
        cancelTracking(with: event)
        sendActions(for: .touchCancel)
    }

    /// After `.touchUpInside` was sent for a tap ending at `touch`: the hook subclasses use for their primary
    /// action (a button's `.primaryActionTriggered`, a switch's toggle).
    func touchUpInsideDidFire(_ touch: UITouch) {}

    private func stopTracking() {
        trackedTouch = nil
        isTracking = false
        isHighlighted = false
    }

    /// Disabled controls take no touches: they are skipped by hit-testing so the touch reaches the view behind.
    open override func point(inside point: CGPoint, with event: AnyObject?) -> Bool {
        isEnabled && super.point(inside: point, with: event)
    }
}

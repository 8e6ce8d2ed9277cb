import CairoGraphics
import Foundation

/// A view that advances on the window's frames (the map): the host ticks it before drawing, keeps drawing while it
/// ``needsFrames``, and sleeps while it only ``isLoading`` (work on other threads wakes the loop through
/// `UIApplication.wakeMainLoop()`). Package plumbing between LinuxUIKit's hosts and GoogleMaps.
@MainActor package protocol UIFrameTicking: AnyObject {
    /// Something will change on a later frame (animation, camera motion, made tiles waiting).
    var needsFrames: Bool { get }
    /// Work that is not done yet runs elsewhere (tiles being made); the frame would not be complete.
    var isLoading: Bool { get }
    /// Advances one frame (called once per frame, before layout and drawing).
    func tickFrame()
    /// The shortest time between frames the view wants (the map's `preferredFrameRate`): the host draws no more often
    /// than the longest such interval among its views, and never more than 60 times a second. Defaults to 1/60 s.
    var preferredFrameInterval: TimeInterval { get }
}

extension UIFrameTicking {
    /// 1/60 s: the display's rate.
    package var preferredFrameInterval: TimeInterval { 1.0 / 60 }
}

/// What a window backend (SDL2 in `UIKitSDL`) does for the ``WindowHost``.
@MainActor package protocol WindowBackend: AnyObject {
    /// The backend's name for logs (SDL's video driver).
    var driverName: String { get }
    /// The drawable's size in points and device pixels per point.
    func geometry() -> (size: CGSize, scale: CGFloat)
    /// Blocks until an event arrives, `deadline` (host clock seconds) passes, or the loop is woken; delivers the
    /// events to `host` (touches through `host.input`, resizes through `host.resize(to:)`, closing through
    /// `host.close()`).
    func waitForEvents(until deadline: TimeInterval, host: WindowHost)
    /// The next time synthetic input is due without new events (a wheel pinch's release, key gestures), or nil.
    var nextInputDeadline: TimeInterval? { get }
    /// Sends the synthetic input due at `now`.
    func runDueInput(now: TimeInterval)
    /// Shows a rendered frame.
    func present(_ image: UIImage)
    /// Cancels gestures in progress (resize, focus loss).
    func cancelInput()
    /// Destroys the window.
    func close()
}

/// The frame loop shared by the window and headless backends: owns the key window's touch input, decides when a
/// frame is due (input, resize, layout, animations, display links, views asking for display, ``UIFrameTicking``
/// views), services the main run loop (`DispatchQueue.main`, `Timer`s) and draws. Idle means idle: with nothing due
/// the loop sleeps and draws nothing.
/// - Thread rules: main actor only.
@MainActor package final class WindowHost {
    package let window: UIWindow
    package private(set) var input: UITouchInput
    /// Device pixels per point of the frames.
    package var scale: CGFloat
    /// A frame is owed (input arrived, the window was exposed or resized).
    package var dirty = true
    /// Set by ``close()``; the loop ends.
    package private(set) var isClosed = false
    /// Frames drawn.
    package private(set) var frameCount = 0
    /// The last frame drawn.
    package private(set) var lastImage: UIImage?
    /// Keep per-frame timings (`--stats`).
    package var keepsStatistics = false
    /// Seconds each kept frame took (ticks, layout, drawing; the backend adds its upload in ``recordPresent(_:)``).
    package private(set) var frameTimes: [TimeInterval] = []
    /// Of each kept frame, the seconds spent drawing the view tree.
    package private(set) var renderTimes: [TimeInterval] = []
    /// Of each kept frame, the seconds of each named stage (``FrameStages``: the host's `tick`, `layout`, `render`
    /// and `present`, and what views inside the tree measured, such as the map's `map.basemap`); a stage a frame
    /// did not run is absent from that frame's entry.
    package private(set) var stageTimes: [[String: TimeInterval]] = []
    /// The backend's name (for logs).
    package var driverName = "headless"
    /// Called every loop turn with the clock's time; returns its next deadline (or nil). Apps in the package use it
    /// for scripted input (map-viewer's `--script`).
    package var turnHooks: [(TimeInterval) -> TimeInterval?] = []
    /// Key presses the backend does not handle itself (lower-case key names, e.g. "n").
    package var onKey: ((String) -> Void)?

    package init(window: UIWindow, scale: CGFloat) {
        self.window = window
        self.scale = scale
        input = UITouchInput(rootView: window)
        input.onSend = { [unowned self] in self.dirty = true }
    }

    package var now: TimeInterval { UIAnimator.shared.now }

    /// Forgets the kept timings (the start of a measured run).
    package func resetStatistics() {
        frameTimes = []
        renderTimes = []
        stageTimes = []
    }

    /// Adds the backend's presenting time to the last kept frame.
    package func recordPresent(_ seconds: TimeInterval) {
        guard keepsStatistics, !frameTimes.isEmpty else { return }
        frameTimes[frameTimes.count - 1] += seconds
        stageTimes[stageTimes.count - 1]["present", default: 0] += seconds
    }

    /// Ends the loop after this turn.
    package func close() { isClosed = true }

    /// The window changed size (points) and scale: the root view controller's transition, then a frame.
    package func resize(to size: CGSize, scale: CGFloat) {
        self.scale = scale
        UIScreen.main.scale = scale
        UIScreen.main.bounds = CGRect(origin: .zero, size: size)
        window.transition(to: size)
        dirty = true
    }

    private func frameClients(in view: UIView, into out: inout [any UIFrameTicking]) {
        if let client = view as? any UIFrameTicking { out.append(client) }
        for sub in view.subviews { frameClients(in: sub, into: &out) }
    }

    private var clients: [any UIFrameTicking] {
        var out: [any UIFrameTicking] = []
        frameClients(in: window, into: &out)
        return out
    }

    private func treeNeedsDisplay(_ view: UIView) -> Bool {
        if view.layer.needsDisplay() { return true }
        return view.subviews.contains { treeNeedsDisplay($0) }
    }

    /// Whether a frame is due now.
    package var wantsFrame: Bool {
        dirty || UIAnimator.shared.hasRunningAnimations || CADisplayLink.wantsFrames || window.needsLayoutInTree
            || treeNeedsDisplay(window) || clients.contains { $0.needsFrames }
    }

    /// Seconds between frames: the longest ``UIFrameTicking/preferredFrameInterval`` of the window's frame views, at
    /// least 1/60 s.
    package var frameInterval: TimeInterval {
        max(1.0 / 60, clients.map(\.preferredFrameInterval).filter(\.isFinite).max() ?? 0)
    }

    /// When the last frame was drawn (host clock), or nil before the first.
    package private(set) var lastFrameTime: TimeInterval?

    /// Whether a frame is due now: one is wanted and ``frameInterval`` has passed since the last (a millisecond's
    /// slack for clock rounding).
    package var frameIsDue: Bool {
        guard wantsFrame else { return false }
        guard let last = lastFrameTime else { return true }
        return now - last >= frameInterval - 1e-3
    }

    /// Whether work for a complete frame is still running elsewhere (tiles being made), or a library's callback to
    /// the main queue is on its way (``UIApplication/beginPendingCallback()``): the app is not idle yet.
    package var isLoading: Bool { UIApplication.hasPendingCallbacks || clients.contains { $0.isLoading } }

    /// Runs the work other threads handed to the main actor (``UIApplication/deliverOnMainActor(_:)``), then the main
    /// run loop's due work once without blocking (`DispatchQueue.main` blocks, due `Timer`s), and returns the next
    /// timer's fire time on the host clock, or nil.
    package func serviceRunLoop() -> TimeInterval? {
        UIApplication.runMainActorDeliveries()
        _ = RunLoop.main.run(mode: .default, before: Date())
        let limit = RunLoop.main.limitDate(forMode: .default)
        guard let limit, limit != .distantFuture else { return nil }
        return now + max(0, limit.timeIntervalSinceNow)
    }

    /// Runs the turn hooks; returns the earliest deadline they gave.
    package func runTurnHooks() -> TimeInterval? {
        let t = now
        return (turnHooks.compactMap { $0(t) } + [HostTurnHooks.run(now: t)].compactMap { $0 }).min()
    }

    /// Draws one frame: display links, view and layer animation completions, the ``UIFrameTicking`` views' ticks,
    /// layout, then the window's view tree at ``scale``. Calls `viewDidAppear` after the first.
    @discardableResult
    package func drawFrame() -> UIImage {
        FrameStages.isRecording = keepsStatistics
        lastFrameTime = now
        let started = ProcessInfo.processInfo.systemUptime
        FrameStages.measure("tick") {
            CADisplayLink.fire(now: now)
            // Frame views first: a map reads its layer's finished camera animations before the animator removes them.
            for client in clients { client.tickFrame() }
            UIAnimator.shared.tick()
        }
        FrameStages.measure("layout") { window.layoutIfNeeded() }
        let renderStart = ProcessInfo.processInfo.systemUptime
        let image = FrameStages.measure("render") { renderWindow() }
        let ended = ProcessInfo.processInfo.systemUptime
        if keepsStatistics {
            frameTimes.append(ended - started)
            renderTimes.append(ended - renderStart)
            stageTimes.append(FrameStages.take())
        }
        FrameStages.isRecording = false
        dirty = false
        frameCount += 1
        return image
    }

    /// The window's tree drawn at ``scale`` into a frame bitmap, kept as ``lastImage``. The previous frame's bitmap
    /// is drawn into again when nothing but the host still holds it (the backend copied it to the screen; nobody
    /// took ``lastImage`` or its pixels): a window-sized allocation and its zeroing saved each frame.
    private func renderWindow() -> UIImage {
        var previous = lastImage
        lastImage = nil
        var reusable: CairoBitmap?
        if previous != nil, isKnownUniquelyReferenced(&previous!) { reusable = previous!.takeReusableBitmap() }
        previous = nil
        let image = window.renderImage(scale: scale, reusing: reusable)
        lastImage = image
        return image
    }

    /// After the backend showed the first frame: `viewDidAppear` and `applicationDidBecomeActive`.
    package func didPresent() {
        window.didPresentFrame()
        if UIApplication.shared.applicationState != .active {
            UIApplication.shared.applicationState = .active
            UIApplication.shared.delegate?.applicationDidBecomeActive(UIApplication.shared)
            UIApplication.shared.post(UIApplication.didBecomeActiveNotification)
        }
    }
}

/// Named timings of the stages of the frame being drawn, for `--stats` (package plumbing): the ``WindowHost``
/// measures its own stages and turns recording on while it keeps statistics; views inside the tree (the map) wrap
/// their own stages in ``measure(_:_:)``. Nested stages are counted in their enclosing stage too. Costs one flag
/// test a stage when not recording. Main actor only.
@MainActor package enum FrameStages {
    /// Whether ``measure(_:_:)`` records (set by the host for the frame it draws).
    package static var isRecording = false
    private static var current: [String: TimeInterval] = [:]

    /// Runs `body`, adding its seconds to the stage `name` of the current frame while recording.
    package static func measure<R>(_ name: String, _ body: () throws -> R) rethrows -> R {
        guard isRecording else { return try body() }
        let start = ProcessInfo.processInfo.systemUptime
        defer { current[name, default: 0] += ProcessInfo.processInfo.systemUptime - start }
        return try body()
    }

    /// The current frame's stages, emptied.
    static func take() -> [String: TimeInterval] {
        defer { current = [:] }
        return current
    }
}

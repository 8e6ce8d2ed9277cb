import Foundation

/// Runs a window without a display, on a virtual clock (Waymark's own host and test API): draws frames only when
/// something is due, sends scripted touches and gestures at window (or view) points, waits until the app is idle,
/// and returns the window's image. `UIApplicationMain` uses it for `--headless`; tests and tools use it directly:
///
/// ```swift
/// let host = UIHeadlessHost(view: mapView)      // or UIHeadlessHost(launching: AppDelegate())
/// host.runUntilIdle()                            // the map still, its tiles complete
/// host.tap(at: CGPoint(x: 200, y: 150))
/// host.runUntilIdle()
/// try host.snapshot().pngData()?.write(to: URL(fileURLWithPath: "map.png"))
/// ```
///
/// Time: creating a host installs ``clock`` (a `ManualClock` starting at the previous clock's time) as
/// `UIAnimator.shared.clock`, so view animations, the map's camera animations, gestures and touch timestamps all
/// move only when the host moves it, one frame (1/60 s) at a time. `Timer`s and `DispatchQueue.main` blocks are
/// serviced every frame but run on real time. Frames are drawn only when due (input, layout, animations, display
/// links, a view asking for display, the map moving), so ``snapshot()`` of a still window returns the last frame
/// without drawing again.
/// - Thread rules: main actor only. One host drives the process's animator clock at a time.
@preconcurrency @MainActor public final class UIHeadlessHost {
    /// Seconds of virtual time per frame: 1/60.
    public static let frameInterval: TimeInterval = 1.0 / 60

    /// The window being driven (its root view controller's view fills it).
    public let window: UIWindow
    /// The virtual clock; ``advance(by:)`` moves it frame by frame (moving it by hand skips the frames between).
    public let clock: ManualClock
    /// Device pixels per point of the frames. Defaults to 1.
    public var scale: CGFloat {
        get { host.scale }
        set { host.scale = newValue > 0 && newValue.isFinite ? newValue : 1 }
    }

    package let host: WindowHost
    private var snapshotFailed = false

    /// Drives `window` (made key and visible if it is not). `scale` is the frames' device pixels per point (values
    /// ≤ 0 mean 1); `UIScreen.main.scale` is set to it.
    public init(window: UIWindow, scale: CGFloat = 1) {
        let s = scale > 0 && scale.isFinite ? scale : 1
        clock = ManualClock(start: UIAnimator.shared.now)
        UIAnimator.shared.clock = clock
        UIScreen.main.scale = s
        self.window = window
        if !window.isKeyWindow { window.makeKeyAndVisible() }
        host = WindowHost(window: window, scale: s)
        UIApplication.shared.host = host
    }

    /// Drives a new window of `size` points showing `rootViewController`'s view.
    public convenience init(
        rootViewController: UIViewController, size: CGSize = CGSize(width: 800, height: 600), scale: CGFloat = 1
    ) {
        UIScreen.main.bounds = CGRect(origin: .zero, size: size)
        let window = UIWindow(frame: CGRect(origin: .zero, size: size))
        window.rootViewController = rootViewController
        self.init(window: window, scale: scale)
    }

    /// Drives a new window the size of `view` (points) with `view` as its root view (the view is resized with the
    /// window).
    public convenience init(view: UIView, scale: CGFloat = 1) {
        let controller = UIViewController()
        controller.view = view
        self.init(rootViewController: controller, size: view.bounds.size, scale: scale)
    }

    /// Launches an app: sets `UIScreen.main` to `size` and `scale`, calls the delegate's launch methods (which make
    /// the window) and drives its key window (an empty window of `size` when it made none).
    public convenience init(
        launching delegate: any UIApplicationDelegate, size: CGSize = CGSize(width: 800, height: 600),
        scale: CGFloat = 1
    ) {
        UIScreen.main.bounds = CGRect(origin: .zero, size: size)
        UIScreen.main.scale = scale > 0 && scale.isFinite ? scale : 1
        UIAnimator.shared.clock = ManualClock(start: UIAnimator.shared.now)
        ApplicationRunner.launch(delegate)
        let window = UIApplication.shared.keyWindow ?? UIWindow(frame: CGRect(origin: .zero, size: size))
        self.init(window: window, scale: scale)
    }

    // MARK: Time

    /// One frame: run-loop work and turn hooks, a frame if one is due, then the clock moves by ``frameInterval``.
    private func step() {
        _ = host.serviceRunLoop()
        _ = host.runTurnHooks()
        if host.frameIsDue {
            host.drawFrame()
            host.didPresent()
        }
        clock.advance(by: Self.frameInterval)
    }

    /// Moves time forward by `seconds` (rounded to whole frames, at least one), drawing the frames that are due.
    /// Negative or non-finite values count as one frame.
    public func advance(by seconds: TimeInterval) {
        let frames = seconds.isFinite && seconds > 0 ? max(1, Int((seconds / Self.frameInterval).rounded())) : 1
        for _ in 0..<frames { step() }
    }

    /// Draws frames until nothing is due, nothing is loading and no callback of the SDK is on its way (for a map:
    /// the camera is idle, its events are delivered and its tiles are complete; a `GMSGeocoder` answer has been
    /// handed to its handler), or `timeout` seconds pass. Frames advance virtual time; waiting for work on other
    /// threads (tiles, a geocode) takes real time, and that wait is bounded by `timeout` real seconds too, so work that
    /// never finishes cannot hang the caller. While such work is in flight and frames are wanted too (a tile layer
    /// waiting for its answers), virtual time does not run ahead of real time: the frames are paced, so the virtual
    /// budget is not spent before the other threads had the time to answer. Work other threads hand to the main
    /// actor runs here, although the caller holds the main actor.
    ///
    /// So while frames are due, `timeout` counts virtual time: a never-ending animation returns false after
    /// `timeout` virtual seconds (`timeout × 60` frames), however long those frames take to draw; in a debug build
    /// that can be several times `timeout` in real seconds.
    /// - Parameter timeout: seconds, default 60; non-finite values count as 60, negative as 0.
    /// - Returns: true when idle, false on timeout or when the run was closed.
    @discardableResult
    public func runUntilIdle(timeout: TimeInterval = 60) -> Bool {
        let budget = timeout.isFinite ? max(0, timeout) : 60
        let end = clock.now + budget
        let realStart = ProcessInfo.processInfo.systemUptime
        let virtualStart = clock.now
        let realEnd = realStart + budget
        while clock.now <= end && !host.isClosed {
            _ = host.serviceRunLoop()
            if !host.wantsFrame {
                if !host.isLoading { return true }
                if ProcessInfo.processInfo.systemUptime > realEnd { return false }
                Thread.sleep(forTimeInterval: 0.002)  // work on other threads (tiles): wait in real time
                continue
            }
            if host.isLoading {
                // Frames wanted while other threads work: keep virtual time from running ahead of real time.
                let ahead = (clock.now - virtualStart) - (ProcessInfo.processInfo.systemUptime - realStart)
                if ahead > 0 { Thread.sleep(forTimeInterval: min(ahead, Self.frameInterval)) }
            }
            step()
        }
        return false
    }

    /// The window's current image at ``scale``: the last frame when nothing changed since (no drawing), else a new
    /// frame.
    public func snapshot() -> UIImage {
        if let last = host.lastImage, !host.wantsFrame { return last }
        let image = host.drawFrame()
        host.didPresent()
        return image
    }

    // MARK: Touches

    private var nextFinger = 1000

    private func point(_ p: CGPoint, in view: UIView?) -> CGPoint {
        guard let view, view !== window else { return p }
        return view.convert(p, to: window)
    }

    private func finger() -> Int {
        nextFinger += 1
        return nextFinger
    }

    /// Sends one touch event (window coordinates) and draws the frame it causes.
    public func send(_ changes: [UITouchInput.Change]) {
        host.input.send(changes)
        step()
    }

    /// A tap: one finger down and up 0.05 s later at `point` (in `view`'s coordinates, the window's when nil).
    public func tap(at point: CGPoint, in view: UIView? = nil) {
        let p = self.point(point, in: view)
        let id = finger()
        send([.init(id, .began, at: p)])
        advance(by: 0.05)
        send([.init(id, .ended, at: p)])
    }

    /// Two taps 0.15 s apart at `point`.
    public func doubleTap(at point: CGPoint, in view: UIView? = nil) {
        tap(at: point, in: view)
        advance(by: 0.1)
        tap(at: point, in: view)
    }

    /// Two fingers 40 points apart about `point`, down and up together 0.08 s later.
    public func twoFingerTap(at point: CGPoint, in view: UIView? = nil) {
        let p = self.point(point, in: view)
        let a = finger()
        let b = finger()
        let pa = CGPoint(x: p.x - 20, y: p.y)
        let pb = CGPoint(x: p.x + 20, y: p.y)
        send([.init(a, .began, at: pa), .init(b, .began, at: pb)])
        advance(by: 0.08)
        send([.init(a, .ended, at: pa), .init(b, .ended, at: pb)])
    }

    /// A finger held still at `point` for `duration` seconds (default 1), then lifted.
    public func longPress(at point: CGPoint, in view: UIView? = nil, duration: TimeInterval = 1) {
        let p = self.point(point, in: view)
        let id = finger()
        send([.init(id, .began, at: p)])
        advance(by: duration)
        send([.init(id, .ended, at: p)])
    }

    /// One finger from `start` to `end` in `duration` seconds (default 0.5), one move a frame, held still 0.1 s
    /// before lifting (no fling).
    public func drag(from start: CGPoint, to end: CGPoint, in view: UIView? = nil, duration: TimeInterval = 0.5) {
        let a = point(start, in: view)
        let b = point(end, in: view)
        let id = finger()
        send([.init(id, .began, at: a)])
        let n = max(1, Int((duration / Self.frameInterval).rounded()))
        for i in 1...n {
            let f = CGFloat(i) / CGFloat(n)
            send([.init(id, .moved, at: CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))])
        }
        advance(by: 0.1)
        send([.init(id, .ended, at: b)])
    }

    /// Two fingers on a horizontal line through `center`, moving from `startDistance` to `endDistance` points apart
    /// in `duration` seconds (default 0.5): a pinch (zoom in when spreading).
    public func pinch(
        at center: CGPoint, in view: UIView? = nil, from startDistance: CGFloat, to endDistance: CGFloat,
        duration: TimeInterval = 0.5
    ) {
        let c = point(center, in: view)
        let a = finger()
        let b = finger()
        func fingers(_ d: CGFloat, _ phase: UITouch.Phase) -> [UITouchInput.Change] {
            [
                .init(a, phase, at: CGPoint(x: c.x - d / 2, y: c.y)),
                .init(b, phase, at: CGPoint(x: c.x + d / 2, y: c.y)),
            ]
        }
        send(fingers(startDistance, .began))
        let n = max(1, Int((duration / Self.frameInterval).rounded()))
        for i in 1...n {
            send(fingers(startDistance + (endDistance - startDistance) * CGFloat(i) / CGFloat(n), .moved))
        }
        advance(by: 0.1)
        send(fingers(endDistance, .ended))
    }

    // MARK: End

    /// Ends the app: `applicationWillTerminate(_:)` once (later calls do nothing).
    public func terminate() {
        host.close()
        UIApplication.shared.terminate()
    }

    /// The headless `UIApplicationMain` run: frames until idle; with `snapshotPath`, the first idle frame is written
    /// there and the run ends; otherwise time jumps to the next turn-hook deadline or waits for the next timer until
    /// nothing is left to happen or the app closes the host. Then ``terminate()``.
    package func runToEnd(snapshotPath: String?) {
        while !host.isClosed {
            runUntilIdle(timeout: 600)
            if host.isClosed { break }
            if let snapshotPath {
                do {
                    guard let png = snapshot().pngData() else { throw CocoaError(.fileWriteUnknown) }
                    try png.write(to: URL(fileURLWithPath: snapshotPath))
                } catch {
                    FileHandle.standardError.write(Data("cannot write the snapshot \(snapshotPath): \(error)\n".utf8))
                    snapshotFailed = true
                }
                break
            }
            if let next = host.runTurnHooks() {
                if next > clock.now { clock.advance(by: next - clock.now) }
                step()
                continue
            }
            if let timer = host.serviceRunLoop() {
                Thread.sleep(forTimeInterval: min(1, max(0.001, timer - clock.now)))
                continue
            }
            break
        }
        terminate()
    }

    /// 0, or 1 when the snapshot could not be written.
    package var exitStatus: Int32 { snapshotFailed ? 1 : 0 }
}

extension UIImage {
    /// The straight (not premultiplied) colour of the device pixel at column `x`, row `y` (origin top-left; the
    /// image's pixel size is ``size`` × ``scale``), Waymark's own. Nil outside the image. For animated images, the
    /// first frame.
    public func pixelColor(x: Int, y: Int) -> UIColor? {
        guard let bitmap = bitmaps.first, x >= 0, y >= 0, x < bitmap.width, y < bitmap.height else { return nil }
        let p = bitmap.pixel(x: x, y: y)
        return UIColor(
            red: CGFloat(p.r) / 255, green: CGFloat(p.g) / 255, blue: CGFloat(p.b) / 255, alpha: CGFloat(p.a) / 255)
    }
}

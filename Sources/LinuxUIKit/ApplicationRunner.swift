import Foundation

/// How `UIApplicationMain` runs the app (Waymark's own): read from the command line, so every app built on the
/// package takes the same switches.
///
/// `--headless` (or `WAYMARK_HEADLESS=1`): no display, virtual clock, frames drawn only when due;
/// `--window`: insist on a window (exit 1 with a message when there is none); `--snapshot FILE.png`: headless, write
/// the first idle frame (the map still, tiles complete) and end; `--size WxH`: window size in points (default
/// 800x600; each 1…8192); `--scale S`: device pixels per point (default: the window's drawable over its size, 1
/// headless; 0.5…4); `--appearance dark|light` (or `WAYMARK_APPEARANCE=dark|light`; the switch wins): the app's
/// style, `UIScreen.main.userInterfaceStyle`, that every window's `traitCollection` inherits (default light).
/// Malformed values are reported on stderr and ignored. Other arguments are left for the app.
public struct UIApplicationHostOptions: Equatable, Sendable {
    /// Which backend runs the window.
    public enum Backend: Equatable, Sendable {
        /// A window when there is a display, else headless with one line on stderr.
        case automatic
        /// A window; no display is an error (exit status 1).
        case window
        /// No display: a virtual clock, frames to images.
        case headless
    }

    /// The backend. Defaults to `.automatic`.
    public var backend: Backend = .automatic
    /// Headless: write the first idle frame here (PNG) and end the run. Defaults to nil.
    public var snapshotPath: String?
    /// The window's size in points. Defaults to 800 × 600.
    public var size = CGSize(width: 800, height: 600)
    /// Device pixels per point; nil = the display's (1 headless).
    public var scale: CGFloat?
    /// The window title (the program name by default).
    public var title: String
    /// The app's appearance (`--appearance`, `WAYMARK_APPEARANCE`). Defaults to `.unspecified` (light).
    public var userInterfaceStyle: UIUserInterfaceStyle = .unspecified

    /// Options with the defaults.
    public init(title: String = ProcessInfo.processInfo.processName) {
        self.title = title
    }

    /// Reads the switches described on the type from `arguments` (the program name first) and the environment.
    public init(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(title: arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "app")
        if environment["WAYMARK_HEADLESS"] == "1" { backend = .headless }
        var i = 1
        func warn(_ message: String) {
            FileHandle.standardError.write(Data("\(title): \(message)\n".utf8))
        }
        if let text = environment["WAYMARK_APPEARANCE"], !text.isEmpty {
            if let style = UIUserInterfaceStyle(launchValue: text) {
                userInterfaceStyle = style
            } else {
                warn("WAYMARK_APPEARANCE must be dark or light, not \"\(text)\"; ignored")
            }
        }
        while i < arguments.count {
            let argument = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch argument {
            case "--headless": backend = .headless
            case "--window": backend = .window
            case "--snapshot":
                if let value {
                    snapshotPath = value
                    backend = .headless
                    i += 1
                } else {
                    warn("--snapshot needs a file name")
                }
            case "--size":
                let parts = value?.lowercased().split(separator: "x").compactMap { Double($0) } ?? []
                if parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= 8192 }) {
                    size = CGSize(width: parts[0], height: parts[1])
                    i += 1
                } else {
                    warn("--size needs WxH (1...8192 each); using \(Int(size.width))x\(Int(size.height))")
                }
            case "--appearance":
                if let style = value.flatMap(UIUserInterfaceStyle.init(launchValue:)) {
                    userInterfaceStyle = style
                    i += 1
                } else {
                    warn("--appearance needs dark or light; ignored")
                }
            case "--scale":
                if let s = value.flatMap(Double.init), s >= 0.5, s <= 4 {
                    scale = CGFloat(s)
                    i += 1
                } else {
                    warn("--scale needs a number in 0.5...4; ignored")
                }
            default: break
            }
            i += 1
        }
    }
}

/// The run of one app: launch, the chosen backend's loop, termination. `UIApplicationMain` (module `UIKit`) calls
/// it with the SDL backend's factory.
@MainActor package enum ApplicationRunner {
    /// Makes the window backend for `options`, or fails with a message naming why (no display, SDL error).
    package typealias MakeWindowBackend = (UIApplicationHostOptions) -> Result<any WindowBackend, BackendError>

    /// Why a window could not be opened.
    package struct BackendError: Error {
        package var message: String
        package init(_ message: String) { self.message = message }
    }

    /// Runs `delegate`'s app; returns the exit status.
    package static func run(
        delegate: any UIApplicationDelegate, options: UIApplicationHostOptions,
        makeWindowBackend: MakeWindowBackend
    ) -> Int32 {
        let app = UIApplication.shared
        app.delegate = delegate
        if options.userInterfaceStyle != .unspecified { UIScreen.main.userInterfaceStyle = options.userInterfaceStyle }
        var backend: (any WindowBackend)?
        if options.backend != .headless {
            switch makeWindowBackend(options) {
            case .success(let made): backend = made
            case .failure(let error):
                if options.backend == .window {
                    FileHandle.standardError.write(Data("\(options.title): \(error.message)\n".utf8))
                    return 1
                }
                FileHandle.standardError.write(Data("\(options.title): \(error.message); running headless\n".utf8))
            }
        }
        guard let backend else {
            let host = UIHeadlessHost(launching: delegate, size: options.size, scale: options.scale ?? 1)
            host.runToEnd(snapshotPath: options.snapshotPath)
            return host.exitStatus
        }
        let (size, scale) = backend.geometry()
        UIScreen.main.bounds = CGRect(origin: .zero, size: size)
        UIScreen.main.scale = scale
        launch(delegate)
        let window = app.keyWindow ?? UIWindow(frame: UIScreen.main.bounds)
        if window.frame.size != size { window.frame = CGRect(origin: .zero, size: size) }
        let host = WindowHost(window: window, scale: scale)
        host.driverName = backend.driverName
        app.host = host
        runWindowLoop(host: host, backend: backend)
        app.terminate()
        backend.close()
        return 0
    }

    /// The launch calls.
    package static func launch(_ delegate: any UIApplicationDelegate) {
        let app = UIApplication.shared
        app.delegate = delegate
        _ = delegate.application(app, willFinishLaunchingWithOptions: nil)
        _ = delegate.application(app, didFinishLaunchingWithOptions: nil)
        app.post(UIApplication.didFinishLaunchingNotification)
    }

    /// Frames at most 60 a second, only when due.
    static let frameInterval: TimeInterval = 1.0 / 60

    /// The window loop: wait (until the next frame while frames are wanted, the next synthetic input, turn hook or
    /// timer, else up to 1 s), deliver events, service the run loop, run due input, draw and present when a frame is
    /// due.
    ///
    /// SIGINT (Ctrl-C) and SIGTERM end the loop as closing the window does, so `run` then ends the app cleanly
    /// (`applicationWillTerminate(_:)`); the loop notices within its longest wait (1 s), at once when the signal
    /// interrupts the wait. The previous handlers are restored when the loop ends.
    static func runWindowLoop(host: WindowHost, backend: any WindowBackend) {
        let previousHandlers = TerminationSignals.install()
        defer { TerminationSignals.restore(previousHandlers) }
        var nextFrameAt: TimeInterval = 0
        var timerDeadline: TimeInterval? = nil
        var hookDeadline: TimeInterval? = nil
        while !host.isClosed {
            if TerminationSignals.received {
                host.close()
                break
            }
            let t = host.now
            var deadline = t + 1
            if host.wantsFrame { deadline = min(deadline, max(t, nextFrameAt)) }
            for d in [backend.nextInputDeadline, timerDeadline, hookDeadline].compactMap({ $0 }) {
                deadline = min(deadline, max(t, d))
            }
            backend.waitForEvents(until: deadline, host: host)
            if TerminationSignals.received { host.close() }
            guard !host.isClosed else { break }
            if let due = timerDeadline, host.now >= due { host.dirty = true }  // a timer fires: draw what it changed
            timerDeadline = host.serviceRunLoop()
            hookDeadline = host.runTurnHooks()
            backend.runDueInput(now: host.now)
            let frameTime = host.now
            guard frameTime >= nextFrameAt, host.wantsFrame else { continue }
            let image = host.drawFrame()
            let presentStart = ProcessInfo.processInfo.systemUptime
            backend.present(image)
            host.recordPresent(ProcessInfo.processInfo.systemUptime - presentStart)
            host.didPresent()
            nextFrameAt = frameTime + max(frameInterval, host.frameInterval)
        }
    }
}

/// The SIGINT and SIGTERM handling of the window loop: a handler that only sets a flag (async-signal-safe), read by
/// the loop.
enum TerminationSignals {
    /// The flag the handler sets: the signal's number, 0 for none.
    nonisolated(unsafe) private static let flag: UnsafeMutablePointer<sig_atomic_t> = {
        let p = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        p.pointee = 0
        return p
    }()

    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Whether SIGINT or SIGTERM arrived since ``install()``.
    static var received: Bool { flag.pointee != 0 }

    /// Clears the flag and installs the handler for ``signals``; returns the previous actions.
    static func install() -> [sigaction] {
        flag.pointee = 0
        var previous: [sigaction] = []
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in TerminationSignals.flag.pointee = number }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: the signal interrupts the loop's wait
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous.append(old)
        }
        return previous
    }

    /// Puts back the actions ``install()`` returned.
    static func restore(_ previous: [sigaction]) {
        for (signal, old) in zip(signals, previous) {
            var action = old
            sigaction(signal, &action, nil)
        }
    }
}

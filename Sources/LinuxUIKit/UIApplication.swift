import Foundation
@_exported import WaymarkTime

/// An object that responds to events, as UIKit's `UIResponder`. On Linux it is the base class of the app delegate
/// (`class AppDelegate: UIResponder, UIApplicationDelegate`, as in the guides); views and view controllers take
/// their touches through ``UITouchResponder``.
/// - Thread rules: main actor only, as UIKit.
@preconcurrency @MainActor open class UIResponder {
    /// Creates a responder. `required` so that `UIApplicationMain` can create the app delegate from its class.
    public required init() {}

    /// The next responder in the chain; nil by default.
    open var next: UIResponder? { nil }
}

/// The app delegate's protocol, as UIKit's `UIApplicationDelegate`. Every method has a default that does nothing
/// (the launch methods return true). `UIApplicationMain` creates the delegate with `init()`, calls
/// ``application(_:willFinishLaunchingWithOptions:)`` and ``application(_:didFinishLaunchingWithOptions:)`` (where the
/// app makes its ``UIWindow`` and calls `makeKeyAndVisible()`), then ``applicationDidBecomeActive(_:)`` once the
/// window is shown; ``applicationWillTerminate(_:)`` is called exactly once when the window closes or the run ends.
/// `@main` on the class works as on iOS when the module `UIKit` (or `GoogleMaps`) is imported.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public protocol UIApplicationDelegate: AnyObject {
    /// Creates the delegate (`UIResponder`'s required initialiser satisfies it).
    init()
    /// The app's main window; the default implementation stores nothing and returns nil.
    var window: UIWindow? { get set }
    /// Launch started; return false to refuse a launch URL (ignored on Linux). Default: true.
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// Launch finished: make the window here. Default: true. The options are nil on Linux.
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// The window is shown and takes input. Default: nothing.
    func applicationDidBecomeActive(_ application: UIApplication)
    /// The window is about to close. Default: nothing.
    func applicationWillResignActive(_ application: UIApplication)
    /// The app is ending (window closed, headless run over); called once. Default: nothing.
    func applicationWillTerminate(_ application: UIApplication)
}

extension UIApplicationDelegate {
    /// No stored window by default.
    public var window: UIWindow? {
        get { nil }
        set {}
    }
    /// Returns true.
    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    /// Returns true.
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    /// Does nothing.
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    /// Does nothing.
    public func applicationWillResignActive(_ application: UIApplication) {}
    /// Does nothing.
    public func applicationWillTerminate(_ application: UIApplication) {}
}

/// The running app, as UIKit's `UIApplication`: the delegate, the windows and the key window. Created by
/// `UIApplicationMain` (or a ``UIHeadlessHost``); ``shared`` exists from first use.
/// - Thread rules: main actor only, except ``wakeMainLoop()``.
@preconcurrency @MainActor public final class UIApplication {
    /// The app object.
    public static let shared = UIApplication()

    /// Keys of the launch options dictionary, as UIKit's `UIApplication.LaunchOptionsKey`. Linux passes no launch
    /// options (the dictionary is nil); the type exists so delegate signatures compile unchanged.
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        /// The key's name.
        public var rawValue: String
        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Launched to open a URL.
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
        /// Launched for a location event.
        public static let location = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsLocationKey")
    }

    /// The app's run state, as UIKit's `UIApplication.State`.
    public enum State: Int, Sendable {
        /// Shown and taking input.
        case active
        /// Launching or closing.
        case inactive
        /// Not shown (headless runs are `.active` too: they take scripted input).
        case background
    }

    /// The app delegate; `UIApplicationMain` sets it and keeps it alive for the whole run. Defaults to nil.
    public var delegate: (any UIApplicationDelegate)?

    /// The run state: `.inactive` until the window is shown, then `.active`.
    public internal(set) var applicationState: State = .inactive

    /// Recorded only (Linux has no idle timer). Defaults to false.
    public var isIdleTimerDisabled = false

    private var windowRefs: [WeakWindow] = []
    private struct WeakWindow {
        weak var window: UIWindow?
    }

    /// The windows made visible, in the order they were first shown.
    public var windows: [UIWindow] { windowRefs.compactMap(\.window) }

    /// The window that takes keyboard input (the last one made key), or nil.
    public var keyWindow: UIWindow? { windows.last { $0.isKeyWindow } }

    /// The host running the app's window loop (window or headless), or nil outside one.
    package var host: WindowHost?

    /// Called on the main thread when new tiles, answers or other background work want the loop to wake; set by
    /// the running window backend (nil when nothing sleeps: headless runs, tests).
    package nonisolated static var wakeHandler: (@Sendable () -> Void)? {
        get { wakeBox.withLock { $0 } }
        set { wakeBox.withLock { $0 = newValue } }
    }
    private nonisolated static let wakeBox = LockedBox<(@Sendable () -> Void)?>(nil)

    /// Wakes the window loop from any thread so it services the main queue and draws (a no-op without a sleeping
    /// loop).
    package nonisolated static func wakeMainLoop() { wakeHandler?() }

    /// How many callbacks a library has promised to the main queue and not yet made (a reverse geocode on its way).
    private nonisolated static let pendingCallbackCount = LockedBox(0)

    /// A library started work whose callback will run later on the main queue: until the matching
    /// ``endPendingCallback()`` the app is not idle (`UIHeadlessHost.runUntilIdle()` and `--snapshot` wait for it).
    /// Package plumbing; any thread.
    package nonisolated static func beginPendingCallback() { pendingCallbackCount.withLock { $0 += 1 } }

    /// The callback promised by ``beginPendingCallback()`` has run (call it on the main queue after the callback).
    /// Package plumbing; any thread.
    package nonisolated static func endPendingCallback() { pendingCallbackCount.withLock { $0 = max(0, $0 - 1) } }

    /// Whether a promised callback has not run yet, or work handed to ``deliverOnMainActor(_:)`` waits. Any thread.
    package nonisolated static var hasPendingCallbacks: Bool {
        pendingCallbackCount.withLock { $0 > 0 } || mainActorDeliveries.withLock { !$0.isEmpty }
    }

    /// Work handed from other threads to the main actor, in call order, not yet run.
    private nonisolated static let mainActorDeliveries = LockedBox<[MainActorWork]>([])

    /// One piece of work for the main actor. The closure is not `Sendable`: it crosses threads under the rule of
    /// ``deliverOnMainActor(_:)`` (it runs once, on the main actor, after the caller has let go of it).
    private struct MainActorWork: @unchecked Sendable {
        let body: @MainActor () -> Void
    }

    /// The one way the SDK hands work from another thread to the main actor (a geocoder's answer, an overlay changed
    /// off the main thread, a Street View lookup). `body` runs once, on the main actor, after every body handed over
    /// before it; whichever comes first runs it: the main queue, or a host's run-loop turn
    /// (``WindowHost/serviceRunLoop()``, which a headless `runUntilIdle()` calls while it holds the main actor and the
    /// main queue cannot run). Until it has run the app is not idle. The window loop is woken. Package plumbing; any
    /// thread.
    package nonisolated static func deliverOnMainActor(_ body: @escaping @MainActor () -> Void) {
        mainActorDeliveries.withLock { $0.append(MainActorWork(body: body)) }
        DispatchQueue.main.async { MainActor.assumeIsolated { runMainActorDeliveries() } }
        wakeMainLoop()
    }

    /// Runs the work handed to ``deliverOnMainActor(_:)`` so far, in order (work it hands over meanwhile runs too).
    package static func runMainActorDeliveries() {
        while let next = mainActorDeliveries.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            next.body()
        }
    }

    private init() {}

    func register(_ window: UIWindow) {
        windowRefs.removeAll { $0.window == nil || $0.window === window }
        windowRefs.append(WeakWindow(window: window))
        for other in windows where other !== window { other.isKeyWindow = false }
    }

    /// Ends the run: `applicationWillTerminate(_:)` once, then the host stops. Safe to call more than once.
    package func terminate() {
        guard !terminated else { return }
        terminated = true
        delegate?.applicationWillResignActive(self)
        post(Self.willResignActiveNotification)
        applicationState = .background
        post(Self.didEnterBackgroundNotification)
        delegate?.applicationWillTerminate(self)
        post(Self.willTerminateNotification)
    }
    package private(set) var terminated = false

    /// Forgets the windows, delegate and host (tests that launch several apps in one process).
    package func resetForNextRun() {
        windowRefs.removeAll()
        delegate = nil
        host = nil
        terminated = false
        applicationState = .inactive
    }
}

/// Whether the caller runs on the main actor: on the main thread, or inside a block of the main queue. (A process
/// parked in `dispatch_main()`, as `swift test` on Linux, runs main-queue blocks, and so main-actor code, on another
/// thread: `Thread.isMainThread` alone would be false there.) The one test the nonisolated parts of LinuxUIKit and
/// GoogleMaps use before `MainActor.assumeIsolated`.
package func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMarker) != nil
}

/// A value set on the main queue, read back by ``isOnMainActor()``.
private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

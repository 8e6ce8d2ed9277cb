import Foundation

/// The app's window, as UIKit's `UIWindow`: the root of a view tree shown by the app's window backend (an SDL2
/// window, or a headless surface), holding the ``rootViewController`` whose view fills it.
///
/// `makeKeyAndVisible()` loads the root view controller's view (`loadView`, `viewDidLoad`), sizes it to the window,
/// calls `viewWillAppear(false)`, registers the window with ``UIApplication/shared``; the host calls
/// `viewDidAppear(false)` after the first frame is shown. Each frame the window lays out (`layoutSubviews`, the view
/// controller's `viewWillLayoutSubviews`/`viewDidLayoutSubviews`) and renders. A resize calls
/// `viewWillTransition(to:with:)` on the root view controller, then resizes the window and its root view (subviews
/// follow their `autoresizingMask`).
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIWindow: UIView {
    /// The view controller whose view fills the window. Setting it while the window is visible installs the new
    /// view at once (the old one is removed). Defaults to nil.
    open var rootViewController: UIViewController? {
        didSet {
            guard rootViewController !== oldValue else { return }
            oldValue?.viewIfLoaded?.removeFromSuperview()
            if isVisible { installRootView() }
        }
    }

    /// Whether this is the key window (the one taking keyboard and pointer input). Set by ``makeKey()``.
    public internal(set) var isKeyWindow = false

    private var isVisible = false
    private var appeared = false

    /// Creates a window with `frame` (points; use `UIScreen.main.bounds` for a window filling the display).
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Creates a window the size of `UIScreen.main.bounds`.
    public convenience init() { self.init(frame: UIScreen.main.bounds) }

    /// Archives do not exist on Linux: a window the size of the screen, ignoring `coder`.
    public required init?(coder: NSCoder) {
        super.init(frame: UIScreen.main.bounds)
    }

    /// Makes the window the key window and shows it (see the type's description).
    open func makeKeyAndVisible() {
        isHidden = false
        makeKey()
        guard !isVisible else { return }
        isVisible = true
        installRootView()
    }

    /// Makes the window the key window without showing it.
    open func makeKey() {
        isKeyWindow = true
        UIApplication.shared.register(self)
    }

    /// The window's safe area: `.zero` on the desktop and headless (no notch, bars or home indicator).
    open override var safeAreaInsets: UIEdgeInsets { .zero }

    /// Sizes the root view controller's view to the bounds.
    open override func layoutSubviews() {
        if let root = rootViewController?.viewIfLoaded, root.superview === self, root.frame != bounds {
            root.frame = bounds
        }
    }

    private func installRootView() {
        guard let controller = rootViewController, let view = controller.view else { return }
        view.frame = bounds
        if view.superview !== self { addSubview(view) }
        controller.viewWillAppear(false)
        appeared = false
        setNeedsLayout()
    }

    /// After the host showed a frame: `viewDidAppear(false)` once per installed root view.
    package func didPresentFrame() {
        guard isVisible, !appeared, let controller = rootViewController, controller.isViewLoaded else { return }
        appeared = true
        controller.viewDidAppear(false)
    }

    /// The host's resize: `viewWillTransition(to:with:)`, then the new size, a layout pass, and the coordinator's
    /// alongside and completion blocks (the transition is not animated: duration 0).
    package func transition(to size: CGSize) {
        guard size != bounds.size else { return }
        let coordinator = WindowResizeCoordinator()
        rootViewController?.viewWillTransition(to: size, with: coordinator)
        frame = CGRect(origin: frame.origin, size: size)
        layoutIfNeeded()
        coordinator.finish()
    }
}

/// The context handed to the blocks of a ``UIViewControllerTransitionCoordinator``, as UIKit's
/// `UIViewControllerTransitionCoordinatorContext` (the parts that apply to a window resize).
@preconcurrency @MainActor public protocol UIViewControllerTransitionCoordinatorContext: AnyObject {
    /// Whether the transition animates (false: window resizes are immediate).
    var isAnimated: Bool { get }
    /// The transition's length in seconds (0 for a window resize).
    var transitionDuration: TimeInterval { get }
    /// Whether the transition was cancelled (never for a resize).
    var isCancelled: Bool { get }
}

/// Runs code alongside a size transition, as UIKit's `UIViewControllerTransitionCoordinator`: passed to
/// `viewWillTransition(to:with:)` when the window resizes.
@preconcurrency @MainActor
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    /// Queues `animation` to run once the new size is in place (after the window's layout pass) and `completion`
    /// after it. Returns true (the blocks are always run).
    @discardableResult
    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
}

/// The coordinator of a window resize.
@MainActor final class WindowResizeCoordinator: UIViewControllerTransitionCoordinator {
    var isAnimated: Bool { false }
    var transitionDuration: TimeInterval { 0 }
    var isCancelled: Bool { false }
    private var alongside: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []
    private var completions: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []

    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool {
        if let animation { alongside.append(animation) }
        if let completion { completions.append(completion) }
        return true
    }

    func finish() {
        for block in alongside { block(self) }
        for block in completions { block(self) }
        alongside = []
        completions = []
    }
}

/// A timer synchronised to the window's frames, as Core Animation's `CADisplayLink`. While it is added to a run loop
/// and not paused, the window loop draws frames continuously (about 60 a second) and calls the handler once before
/// each; paused or invalidated links let the loop sleep.
///
/// Linux has no Objective-C selectors, so the target/selector initialiser is replaced by a closure (Waymark's own):
/// `let link = CADisplayLink { link in … }; link.add(to: .main, forMode: .common)`.
/// - Thread rules: main actor only.
@preconcurrency @MainActor public final class CADisplayLink {
    private let handler: (CADisplayLink) -> Void
    private var scheduled = false

    /// Whether frames are suspended. Defaults to false.
    public var isPaused = false
    /// The time of the last frame, seconds on `UIAnimator.shared.clock`; 0 before the first.
    public private(set) var timestamp: TimeInterval = 0
    /// The time the next frame is expected, seconds on the same clock.
    public private(set) var targetTimestamp: TimeInterval = 0
    /// Seconds between frames at the window's rate (1/60).
    public var duration: TimeInterval { 1.0 / 60 }
    /// Recorded only: the loop draws at up to 60 frames a second. Defaults to 0 (the display's rate).
    public var preferredFramesPerSecond = 0

    /// Creates a display link calling `handler` before each frame (Waymark's own form, see the type).
    public init(handler: @escaping (CADisplayLink) -> Void) {
        self.handler = handler
    }

    /// Schedules the link; the run loop and mode are recorded only (the window loop services the main run loop).
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard !scheduled else { return }
        scheduled = true
        CADisplayLink.active.append(self)
    }

    /// Unschedules the link.
    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) { invalidate() }

    /// Unschedules the link for good; the handler is not called again.
    public func invalidate() {
        scheduled = false
        CADisplayLink.active.removeAll { $0 === self }
    }

    static var active: [CADisplayLink] = []

    /// Whether a scheduled, unpaused link wants frames.
    static var wantsFrames: Bool { active.contains { !$0.isPaused } }

    /// Calls every scheduled, unpaused link for a frame at `now`.
    static func fire(now: TimeInterval) {
        for link in active where !link.isPaused {
            link.timestamp = now
            link.targetTimestamp = now + link.duration
            link.handler(link)
        }
    }
}

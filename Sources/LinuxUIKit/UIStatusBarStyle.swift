import Foundation

/// The look of the status bar, as UIKit's `UIStatusBarStyle`. Linux windows have no status bar: controllers report
/// it through `preferredStatusBarStyle` and nothing draws it.
public enum UIStatusBarStyle: Int, Sendable {
    /// Dark content in light appearance, light content in dark.
    case `default` = 0
    /// Light content, for dark backgrounds.
    case lightContent = 1
    /// Dark content, for light backgrounds.
    case darkContent = 3
}

extension UIViewController {
    /// Asks for the status bar to be updated from ``preferredStatusBarStyle``, as UIKit's method; there is no status
    /// bar on Linux, so nothing changes.
    public func setNeedsStatusBarAppearanceUpdate() {}
}

/// A scene holding windows, as UIKit's `UIWindowScene`: Linux apps have one, made with the first window, whose
/// windows are the app's (Waymark's own simplification of scene sessions).
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIScene {
    /// The scene's title; stored only. Defaults to `""`.
    open var title: String = ""
}

/// The one window scene of the app, as UIKit's `UIWindowScene`.
@preconcurrency @MainActor open class UIWindowScene: UIScene {
    /// The app's one scene.
    public static let main = UIWindowScene()

    /// The windows shown in the scene, in the order they were first shown (the app's windows).
    public var windows: [UIWindow] { UIApplication.shared.windows }
    /// The key window of the scene, or nil.
    public var keyWindow: UIWindow? { UIApplication.shared.keyWindow }
    /// The screen the scene is on.
    public var screen: UIScreen { .main }
    /// The scene's traits: the screen's.
    public var traitCollection: UITraitCollection { UIScreen.main.traitCollection }
    /// The status bar style of the scene's key window's root controller (there is no status bar on Linux).
    public var statusBarManager: UIStatusBarManager? { UIStatusBarManager() }
}

/// What the status bar looks like, as UIKit's `UIStatusBarManager`: Linux windows have none.
@preconcurrency @MainActor public final class UIStatusBarManager {
    /// The status bar's frame: `.zero` (none).
    public var statusBarFrame: CGRect { .zero }
    /// Whether the status bar is hidden: always true.
    public var isStatusBarHidden: Bool { true }
    /// The status bar style: `.default`.
    public var statusBarStyle: UIStatusBarStyle { .default }
}

extension UIWindow {
    /// The scene the window is in, as UIKit's property: ``UIWindowScene/main`` (the app has one scene). Setting it
    /// changes nothing.
    public var windowScene: UIWindowScene? {
        get { UIWindowScene.main }
        set {}
    }

    /// Creates a window in `windowScene`, the size of the screen, as UIKit's `init(windowScene:)`.
    public convenience init(windowScene: UIWindowScene) {
        self.init(frame: UIScreen.main.bounds)
    }
}

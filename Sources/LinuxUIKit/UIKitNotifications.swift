import Foundation

// UIKit's notification names and user-info keys, so that code observing the app's life cycle or the keyboard
// (`NotificationCenter.default.addObserver(forName: UIApplication.willEnterForegroundNotification, …)`) compiles as
// on iOS. Which ones Waymark posts is said on each; the others exist for the code that observes them.

extension UIApplication {
    /// Posted on the main thread after the delegate's `application(_:didFinishLaunchingWithOptions:)`, object the
    /// shared application.
    public nonisolated static let didFinishLaunchingNotification = Notification.Name(
        "UIApplicationDidFinishLaunchingNotification")
    /// Posted on the main thread after the delegate's `applicationDidBecomeActive(_:)` (once the first frame is
    /// shown), object the shared application.
    public nonisolated static let didBecomeActiveNotification = Notification.Name(
        "UIApplicationDidBecomeActiveNotification")
    /// Posted on the main thread after the delegate's `applicationWillResignActive(_:)` when the run ends, object the
    /// shared application.
    public nonisolated static let willResignActiveNotification = Notification.Name(
        "UIApplicationWillResignActiveNotification")
    /// Posted on the main thread when the run ends, after ``willResignActiveNotification`` (the state is then
    /// `.background`), object the shared application.
    public nonisolated static let didEnterBackgroundNotification = Notification.Name(
        "UIApplicationDidEnterBackgroundNotification")
    /// A Linux app window does not come back from the background: never posted.
    public nonisolated static let willEnterForegroundNotification = Notification.Name(
        "UIApplicationWillEnterForegroundNotification")
    /// Posted on the main thread after the delegate's `applicationWillTerminate(_:)`, object the shared application.
    public nonisolated static let willTerminateNotification = Notification.Name(
        "UIApplicationWillTerminateNotification")
    /// Linux sends no memory warnings: never posted by Waymark (an app may post it to test its handling).
    public nonisolated static let didReceiveMemoryWarningNotification = Notification.Name(
        "UIApplicationDidReceiveMemoryWarningNotification")
    /// Never posted by Waymark.
    public nonisolated static let significantTimeChangeNotification = Notification.Name(
        "UIApplicationSignificantTimeChangeNotification")

    /// Posts `name` with the shared application as its object (the main thread).
    func post(_ name: Notification.Name) {
        NotificationCenter.default.post(name: name, object: self)
    }
}

extension UIResponder {
    /// The software keyboard will show. Linux has none: never posted.
    public nonisolated static let keyboardWillShowNotification = Notification.Name(
        "UIKeyboardWillShowNotification")
    /// The software keyboard showed. Never posted.
    public nonisolated static let keyboardDidShowNotification = Notification.Name("UIKeyboardDidShowNotification")
    /// The software keyboard will hide. Never posted.
    public nonisolated static let keyboardWillHideNotification = Notification.Name(
        "UIKeyboardWillHideNotification")
    /// The software keyboard hid. Never posted.
    public nonisolated static let keyboardDidHideNotification = Notification.Name("UIKeyboardDidHideNotification")
    /// The software keyboard's frame will change. Never posted.
    public nonisolated static let keyboardWillChangeFrameNotification = Notification.Name(
        "UIKeyboardWillChangeFrameNotification")
    /// The software keyboard's frame changed. Never posted.
    public nonisolated static let keyboardDidChangeFrameNotification = Notification.Name(
        "UIKeyboardDidChangeFrameNotification")
    /// User-info key of the keyboard's frame at the start of its animation (an `NSValue` of a `CGRect`).
    public nonisolated static let keyboardFrameBeginUserInfoKey = "UIKeyboardFrameBeginUserInfoKey"
    /// User-info key of the keyboard's frame at the end of its animation (an `NSValue` of a `CGRect`).
    public nonisolated static let keyboardFrameEndUserInfoKey = "UIKeyboardFrameEndUserInfoKey"
    /// User-info key of the keyboard animation's duration in seconds (an `NSNumber`).
    public nonisolated static let keyboardAnimationDurationUserInfoKey = "UIKeyboardAnimationDurationUserInfoKey"
    /// User-info key of the keyboard animation's curve (an `NSNumber` of a `UIView.AnimationCurve` raw value).
    public nonisolated static let keyboardAnimationCurveUserInfoKey = "UIKeyboardAnimationCurveUserInfoKey"
}

extension NSValue {
    /// A value holding `rect` (UIKit's `NSValue(cgRect:)`).
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
    /// A value holding `point` (UIKit's `NSValue(cgPoint:)`).
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    /// A value holding `size` (UIKit's `NSValue(cgSize:)`).
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    /// The rectangle held (UIKit's `cgRectValue`); `.zero` for a value of another type.
    public var cgRectValue: CGRect { rectValue }
    /// The point held (UIKit's `cgPointValue`); `.zero` for a value of another type.
    public var cgPointValue: CGPoint { pointValue }
    /// The size held (UIKit's `cgSizeValue`); `.zero` for a value of another type.
    public var cgSizeValue: CGSize { sizeValue }
}

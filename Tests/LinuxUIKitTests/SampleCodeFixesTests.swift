import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// What Google's iOS samples use of UIKit that Waymark lacked (session 19's QA of the samples): the visual format
/// language, the life-cycle notifications, `UIImage()`, `NSValue(cgRect:)`.
@MainActor @Suite(.serialized) struct SampleCodeFixesTests {
    /// Root view 320 × 480 holding `names` as constraint-based views.
    private func root(_ names: [String]) -> (UIView, [String: UIView]) {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        var views: [String: UIView] = [:]
        for name in names {
            let v = UIView()
            v.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(v)
            views[name] = v
        }
        return (root, views)
    }

    /// `|-[a]-[b(==a)]-|` with the standard spaces (20 to the superview, 8 between), equal widths, and a vertical
    /// format with a metric and a size.
    @Test func visualFormatLaysOutSiblingsWithStandardSpaces() throws {
        let (root, views) = root(["a", "b"])
        let a = try #require(views["a"])
        let b = try #require(views["b"])
        let h = NSLayoutConstraint.constraints(
            withVisualFormat: "H:|-[a]-[b(==a)]-|", options: [.alignAllTop, .alignAllBottom], metrics: nil, views: views
        )
        let v = NSLayoutConstraint.constraints(
            withVisualFormat: "V:|-top-[a(height@750)]", options: [],
            metrics: ["top": 30, "height": NSNumber(value: 44)],
            views: views)
        root.addConstraints(h + v)
        root.layoutIfNeeded()
        // (320 - 20 - 8 - 20) / 2 = 136 each.
        #expect(a.frame == CGRect(x: 20, y: 30, width: 136, height: 44), "\(a.frame)")
        #expect(b.frame == CGRect(x: 164, y: 30, width: 136, height: 44), "\(b.frame)")
        #expect(v.first { $0.firstAttribute == .height }?.priority == UILayoutPriority(750))
    }

    /// Touching views and edges (`|[a][b]|`), an inequality gap, and a fixed width.
    @Test func visualFormatTouchingEdgesAndInequalities() throws {
        let (root, views) = root(["a", "b", "c"])
        let c = try #require(views["c"])
        root.addConstraints(
            NSLayoutConstraint.constraints(withVisualFormat: "|[a][b(100)]|", metrics: nil, views: views)
                + NSLayoutConstraint.constraints(
                    withVisualFormat: "H:|-(>=50)-[c(>=10,<=60)]-(==12)-|", metrics: nil, views: views)
                + NSLayoutConstraint.constraints(withVisualFormat: "V:|[a][c]|", metrics: nil, views: views)
                + NSLayoutConstraint.constraints(withVisualFormat: "V:[a(==c)]", metrics: nil, views: views))
        root.layoutIfNeeded()
        #expect(views["a"]?.frame.width == 220)
        #expect(views["b"]?.frame.minX == 220)
        #expect(c.frame.maxX == 308)
        #expect(c.frame.width <= 60 && c.frame.width >= 10)
        #expect(views["a"]?.frame.height == 240 && c.frame.minY == 240)
    }

    /// A format UIKit refuses gives no constraints and one message naming it.
    @Test func badVisualFormatsAreRefusedWithOneMessage() {
        let (_, views) = root(["a"])
        for format in ["H:|-[missing]-|", "H:|-[a", "H:|-(>=x)-[a]", "H:[a]-|-", "V:"] {
            var result: [NSLayoutConstraint]?
            let lines = capturingLog {
                result = NSLayoutConstraint.constraints(withVisualFormat: format, metrics: nil, views: views)
            }
            #expect(result?.isEmpty == true, "\(format)")
            #expect(lines.count == 1 && lines[0].contains(format), "\(format): \(lines)")
        }
        let aligned = capturingLog {
            _ = NSLayoutConstraint.constraints(
                withVisualFormat: "H:[a]", options: .alignAllLeft, metrics: nil, views: views)
        }
        #expect(aligned.count == 1)
    }

    /// The life-cycle notifications are posted after the delegate's calls, in UIKit's order.
    @Test func lifeCycleNotificationsFollowTheDelegate() {
        final class Delegate: UIResponder, UIApplicationDelegate {
            var window: UIWindow?
            func application(
                _ application: UIApplication,
                didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
            ) -> Bool {
                let window = UIWindow(frame: UIScreen.main.bounds)
                window.rootViewController = UIViewController()
                window.makeKeyAndVisible()
                self.window = window
                return true
            }
        }
        UIApplication.shared.resetForNextRun()
        let names: [Notification.Name] = [
            UIApplication.didFinishLaunchingNotification, UIApplication.didBecomeActiveNotification,
            UIApplication.willResignActiveNotification, UIApplication.didEnterBackgroundNotification,
            UIApplication.willTerminateNotification, UIApplication.willEnterForegroundNotification,
        ]
        var seen: [String] = []
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                let posted = note.name.rawValue
                let object = note.object.map { ObjectIdentifier($0 as AnyObject) }
                MainActor.assumeIsolated {
                    seen.append(posted)
                    #expect(object == ObjectIdentifier(UIApplication.shared))
                }
            }
        }
        let host = UIHeadlessHost(launching: Delegate(), size: CGSize(width: 200, height: 100), scale: 1)
        host.runUntilIdle()
        host.terminate()
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        #expect(
            seen == [
                "UIApplicationDidFinishLaunchingNotification", "UIApplicationDidBecomeActiveNotification",
                "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
                "UIApplicationWillTerminateNotification",
            ])
    }

    /// `UIImage()` is empty; `NSValue` carries UIKit's geometry under the keyboard keys.
    @Test func emptyImageAndGeometryValues() {
        let image = UIImage()
        #expect(image.size == .zero && image.scale == 1 && image.pngData() == nil)
        let view = UIImageView(image: image)
        #expect(view.image?.size == .zero)
        let info: [AnyHashable: Any] = [
            UIResponder.keyboardFrameEndUserInfoKey: NSValue(cgRect: CGRect(x: 0, y: 300, width: 320, height: 180))
        ]
        #expect((info[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue.height == 180)
        #expect(NSValue(cgPoint: CGPoint(x: 3, y: 4)).cgPointValue == CGPoint(x: 3, y: 4))
        #expect(NSValue(cgSize: CGSize(width: 5, height: 6)).cgSizeValue == CGSize(width: 5, height: 6))
    }

    /// `show(_:sender:)` pushes inside a navigation controller and presents outside one.
    @Test func showPushesOrPresents() {
        let root = UIViewController()
        let navigation = UINavigationController(rootViewController: root)
        let host = UIHeadlessHost(rootViewController: navigation, size: CGSize(width: 320, height: 480))
        host.runUntilIdle()
        let detail = UIViewController()
        root.show(detail, sender: nil)
        host.runUntilIdle()
        #expect(navigation.viewControllers.last === detail)
        let lone = UIViewController()
        let loneHost = UIHeadlessHost(rootViewController: lone, size: CGSize(width: 320, height: 480))
        loneHost.runUntilIdle()
        let sheet = UIViewController()
        lone.showDetailViewController(sheet, sender: nil)
        loneHost.runUntilIdle()
        #expect(lone.presentedViewController === sheet)
    }
}

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

    /// The master-detail template: the list beside the detail when wide, the detail alone when narrow, the display
    /// mode button hiding the list, `showDetailViewController` replacing the detail, `splitViewController` found.
    @Test func splitViewShowsPrimaryBesideSecondary() throws {
        let list = UIViewController()
        let detail = UIViewController()
        let split = UISplitViewController()
        split.viewControllers = [UINavigationController(rootViewController: list), detail]
        let host = UIHeadlessHost(rootViewController: split, size: CGSize(width: 1000, height: 700))
        host.runUntilIdle()
        #expect(list.splitViewController === split && detail.splitViewController === split)
        #expect(!split.isCollapsed && split.displayMode == .oneBesideSecondary)
        let primary = try #require(split.viewControllers.first)
        #expect(primary.view.frame == CGRect(x: 0, y: 0, width: 320, height: 700))
        #expect(detail.view.frame.minX > 320 && detail.view.frame.maxX == 1000)
        // The button hides the primary column.
        let action = try #require(split.displayModeButtonItem.primaryAction)
        action.perform(sender: nil)
        host.runUntilIdle()
        #expect(split.displayMode == .secondaryOnly && primary.view.isHidden)
        #expect(detail.view.frame == CGRect(x: 0, y: 0, width: 1000, height: 700))
        // A new detail replaces the old one.
        let other = UIViewController()
        list.showDetailViewController(other, sender: nil)
        host.runUntilIdle()
        #expect(split.viewControllers.count == 2 && split.viewControllers[1] === other && detail.parent == nil)
        // Narrow: collapsed to the secondary.
        host.window.transition(to: CGSize(width: 400, height: 700))
        host.runUntilIdle()
        #expect(split.isCollapsed && other.view.frame == CGRect(x: 0, y: 0, width: 400, height: 700))
        #expect(primary.view.isHidden)
    }

    /// `UIColor(named:)` reads an Xcode colour set from a catalog beside the app, with its dark variant.
    @Test func namedColorsComeFromAssetCatalogs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("named-colors-\(getpid())")
        let set = root.appendingPathComponent("Assets.xcassets/Brand/routeColor.colorset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let json = """
            {"colors":[{"color":{"color-space":"srgb","components":{"alpha":"1.000","blue":"0x40","green":"0.500","red":"255"}},"idiom":"universal"},
            {"appearances":[{"appearance":"luminosity","value":"dark"}],"color":{"color-space":"srgb","components":{"alpha":"1.000","blue":"0.000","green":"0.000","red":"0.000"}},"idiom":"universal"}],
            "info":{"author":"xcode","version":1}}
            """
        try Data(json.utf8).write(to: set.appendingPathComponent("Contents.json"))
        UIImage.registerSearchDirectory(root.path)
        defer { UIImage.removeAllSearchDirectories() }
        let color = try #require(UIColor(named: "routeColor"))
        var (r, g, b, a): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
        UITraitCollection(userInterfaceStyle: .light).performAsCurrent {
            color.getRed(&r, green: &g, blue: &b, alpha: &a)
        }
        #expect(r == 1 && abs(g - 0.5) < 1e-9 && abs(b - 64.0 / 255) < 1e-9 && a == 1)
        UITraitCollection(userInterfaceStyle: .dark).performAsCurrent {
            color.getRed(&r, green: &g, blue: &b, alpha: &a)
        }
        #expect(r == 0 && g == 0 && b == 0)
        #expect(UIColor(named: "noSuchColor") == nil)
    }

    /// The accessibility properties views have on iOS, stored; the map view hides its elements by default.
    @Test func viewsKeepAccessibilityProperties() {
        let view = UIView()
        #expect(!view.isAccessibilityElement && view.accessibilityTraits == .none && !view.accessibilityElementsHidden)
        view.isAccessibilityElement = true
        view.accessibilityIdentifier = "map"
        view.accessibilityHint = "Shows the map"
        view.accessibilityValue = "zoom 12"
        view.accessibilityTraits = [.button, .selected]
        #expect(view.isAccessibilityElement && view.accessibilityIdentifier == "map")
        #expect(view.accessibilityHint == "Shows the map" && view.accessibilityValue == "zoom 12")
        #expect(view.accessibilityTraits.contains(.selected) && view.accessibilityTraits.rawValue == 9)
    }

    /// `CACurrentMediaTime()` is the animator's clock, so `beginTime` set from it delays an animation.
    @Test func currentMediaTimeIsTheAnimatorsClock() {
        let clock = installManualClock()
        #expect(CACurrentMediaTime() == clock.now)
        clock.advance(by: 2.5)
        #expect(CACurrentMediaTime() == clock.now)
    }
}

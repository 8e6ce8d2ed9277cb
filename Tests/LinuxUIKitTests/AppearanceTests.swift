import Foundation
import Testing

@testable import LinuxUIKit

/// Appearance as UIKit's: `overrideUserInterfaceStyle` on views, view controllers and windows, trait inheritance,
/// `traitCollectionDidChange(_:)` order (window, controller, views), dynamic colours resolving against the traits when
/// drawn, and the app's style from the launch switch and environment.
@MainActor @Suite(.serialized) struct AppearanceTests {
    final class Log {
        var entries: [String] = []
    }

    final class LoggingView: UIView {
        var log: Log?
        var name = ""
        override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            log?.entries.append(
                "\(name) \(previousTraitCollection?.userInterfaceStyle.description ?? "nil")->"
                    + "\(traitCollection.userInterfaceStyle) current=\(UITraitCollection.current.userInterfaceStyle)")
        }
    }

    final class LoggingWindow: UIWindow {
        var log: Log?
        override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            log?.entries.append("window ->\(traitCollection.userInterfaceStyle)")
        }
    }

    final class LoggingController: UIViewController {
        var log: Log?
        let child = LoggingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        override func loadView() {
            let root = LoggingView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            root.name = "root"
            root.log = log
            child.name = "child"
            child.log = log
            root.addSubview(child)
            view = root
        }
        override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            log?.entries.append("controller ->\(traitCollection.userInterfaceStyle)")
        }
    }

    private func resetStyle() {
        UIApplication.shared.resetForNextRun()
        UIScreen.main.userInterfaceStyle = .unspecified
    }

    @Test func traitCollectionValues() {
        #expect(UITraitCollection().userInterfaceStyle == .unspecified)
        let dark = UITraitCollection(userInterfaceStyle: .dark)
        #expect(dark == UITraitCollection(userInterfaceStyle: .dark))
        #expect(dark != UITraitCollection(userInterfaceStyle: .light))
        #expect(
            UITraitCollection(traitsFrom: [dark, UITraitCollection(), UITraitCollection(userInterfaceStyle: .light)])
                .userInterfaceStyle == .light)
        #expect(UITraitCollection(traitsFrom: [dark, UITraitCollection()]).userInterfaceStyle == .dark)
        #expect(dark.containsTraits(in: UITraitCollection()))
        #expect(!dark.containsTraits(in: UITraitCollection(userInterfaceStyle: .light)))
        #expect(dark.hasDifferentColorAppearance(comparedTo: UITraitCollection(userInterfaceStyle: .light)))
        #expect(!dark.hasDifferentColorAppearance(comparedTo: UITraitCollection(userInterfaceStyle: .dark)))
    }

    @Test func overridesInheritDownTheHierarchy() {
        resetStyle()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let controller = UIViewController()
        window.rootViewController = controller
        window.makeKeyAndVisible()
        let inner = UIView()
        controller.view.addSubview(inner)
        #expect(inner.traitCollection.userInterfaceStyle == .light)
        window.overrideUserInterfaceStyle = .dark
        #expect(controller.traitCollection.userInterfaceStyle == .dark)
        #expect(inner.traitCollection.userInterfaceStyle == .dark)
        controller.overrideUserInterfaceStyle = .light
        #expect(window.traitCollection.userInterfaceStyle == .dark)
        #expect(controller.view.traitCollection.userInterfaceStyle == .light)
        inner.overrideUserInterfaceStyle = .dark
        #expect(inner.traitCollection.userInterfaceStyle == .dark)
        #expect(controller.view.traitCollection.userInterfaceStyle == .light)
        inner.overrideUserInterfaceStyle = .unspecified
        #expect(inner.traitCollection.userInterfaceStyle == .light)
        resetStyle()
    }

    @Test func changesPropagateWindowThenControllerThenViews() {
        resetStyle()
        let log = Log()
        let window = LoggingWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.log = log
        let controller = LoggingController()
        controller.log = log
        window.rootViewController = controller
        window.makeKeyAndVisible()
        #expect(log.entries.isEmpty)
        window.overrideUserInterfaceStyle = .dark
        #expect(
            log.entries == [
                "window ->dark", "controller ->dark", "root light->dark current=dark", "child light->dark current=dark",
            ])
        log.entries = []
        window.overrideUserInterfaceStyle = .dark
        controller.child.overrideUserInterfaceStyle = .dark
        #expect(log.entries.isEmpty)
        controller.overrideUserInterfaceStyle = .light
        #expect(log.entries == ["controller ->light", "root dark->light current=light"])
        resetStyle()
    }

    @Test func appStyleReachesEveryWindow() {
        resetStyle()
        let log = Log()
        let window = LoggingWindow(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        window.log = log
        window.rootViewController = UIViewController()
        window.makeKeyAndVisible()
        UIScreen.main.userInterfaceStyle = .dark
        #expect(log.entries == ["window ->dark"])
        #expect(window.rootViewController?.view.traitCollection.userInterfaceStyle == .dark)
        #expect(UITraitCollection.current.userInterfaceStyle == .dark)
        resetStyle()
        #expect(UITraitCollection.current.userInterfaceStyle == .light)
    }

    @Test func launchSwitchAndEnvironmentChooseTheStyle() {
        #expect(UIApplicationHostOptions(arguments: ["app"], environment: [:]).userInterfaceStyle == .unspecified)
        #expect(
            UIApplicationHostOptions(arguments: ["app", "--appearance", "dark"], environment: [:])
                .userInterfaceStyle == .dark)
        #expect(
            UIApplicationHostOptions(arguments: ["app"], environment: ["WAYMARK_APPEARANCE": "Dark"])
                .userInterfaceStyle == .dark)
        let both = UIApplicationHostOptions(
            arguments: ["app", "--appearance", "light"], environment: ["WAYMARK_APPEARANCE": "dark"])
        #expect(both.userInterfaceStyle == .light)
        let bad = UIApplicationHostOptions(arguments: ["app", "--appearance", "sepia", "--headless"], environment: [:])
        #expect(bad.userInterfaceStyle == .unspecified)
        #expect(bad.backend == .headless)
    }

    @Test func dynamicColoursResolveAgainstTheTraits() {
        let color = UIColor { $0.userInterfaceStyle == .dark ? .red : .green }
        let light = UITraitCollection(userInterfaceStyle: .light)
        let dark = UITraitCollection(userInterfaceStyle: .dark)
        #expect(color.resolvedColor(with: dark) == .red)
        #expect(color.resolvedColor(with: light) == .green)
        var red: CGFloat = -1
        dark.performAsCurrent { color.getRed(&red, green: nil, blue: nil, alpha: nil) }
        #expect(red == 1)
        light.performAsCurrent { color.getRed(&red, green: nil, blue: nil, alpha: nil) }
        #expect(red == 0)
        #expect(UIColor.systemBackground.resolvedColor(with: dark) == .black)
        #expect(UIColor.systemBackground.resolvedColor(with: light) == .white)
        #expect(UIColor.label.resolvedColor(with: dark) == .white)
        #expect(UIColor.secondaryLabel.resolvedColor(with: dark).rgba.alpha == 0.6)
        #expect(UIColor.systemGray6.resolvedColor(with: dark) != UIColor.systemGray6.resolvedColor(with: light))
        #expect(color.withAlphaComponent(0.5).resolvedColor(with: dark) == UIColor.red.withAlphaComponent(0.5))
        #expect(UIColor.label == UIColor.label)
        #expect(UIColor.label != UIColor.black)
    }

    @Test func backgroundsReResolveWhenTheTraitsChange() {
        resetStyle()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        view.backgroundColor = .systemBackground
        #expect(view.layer.backgroundColor == UIColor.white.cgColor)
        #expect(view.backgroundColor === UIColor.systemBackground)
        let parent = UIView(frame: CGRect(x: 0, y: 0, width: 8, height: 8))
        parent.overrideUserInterfaceStyle = .dark
        parent.addSubview(view)
        #expect(view.layer.backgroundColor == UIColor.black.cgColor)
        #expect(view.backgroundColor === UIColor.systemBackground)
        view.layer.backgroundColor = UIColor.red.cgColor
        #expect(view.backgroundColor == .red)
        parent.overrideUserInterfaceStyle = .light
        #expect(view.layer.backgroundColor == UIColor.red.cgColor)
    }

    @Test func drawnColoursFollowTheViewsStyle() {
        resetStyle()
        _ = pinFonts
        final class Swatch: UIView {
            override func draw(_ rect: CGRect) {
                UIColor.label.setFill()
                UIGraphicsGetCurrentContext()?.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
            }
        }
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 8, height: 4))
        root.backgroundColor = .systemBackground
        let left = Swatch(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        let right = Swatch(frame: CGRect(x: 4, y: 0, width: 4, height: 4))
        right.overrideUserInterfaceStyle = .dark
        root.addSubview(left)
        root.addSubview(right)
        let image = root.renderImage(scale: 1)
        #expect(pixelMatches(pixel(image, 1, 1), 0, 0, 0, 255))
        #expect(pixelMatches(pixel(image, 5, 1), 255, 255, 255, 255))
        root.overrideUserInterfaceStyle = .dark
        let darkImage = root.renderImage(scale: 1)
        #expect(pixelMatches(pixel(darkImage, 1, 1), 255, 255, 255, 255))
    }

    @Test func labelsDefaultToTheLabelColour() {
        let label = UILabel()
        #expect(label.textColor === UIColor.label)
        label.textColor = nil
        #expect(label.textColor === UIColor.label)
    }
}

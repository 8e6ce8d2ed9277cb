import Foundation
import Testing
import WaymarkTime

@testable import LinuxUIKit

/// The app lifecycle as UIKit's, run on the headless host: launch order, the window's view controller callbacks,
/// layout and autoresizing, resize transitions, display links, run-loop servicing, idle windows that draw nothing,
/// termination once.
@MainActor @Suite(.serialized) struct AppLifecycleTests {
    /// Records every callback in order.
    final class Recorder {
        var calls: [String] = []
    }

    final class RecordingController: UIViewController {
        let recorder: Recorder
        let child = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 60))
        var transitionSizes: [(CGSize, CGSize)] = []

        init(recorder: Recorder) {
            self.recorder = recorder
            super.init(nibName: nil, bundle: nil)
        }
        required init?(coder: NSCoder) { fatalError("unused") }

        override func loadView() {
            recorder.calls.append("loadView")
            let root = UIView(frame: UIScreen.main.bounds)
            root.backgroundColor = .white
            child.backgroundColor = .red
            child.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
            root.addSubview(child)
            view = root
        }
        override func viewDidLoad() { recorder.calls.append("viewDidLoad") }
        override func viewWillAppear(_ animated: Bool) { recorder.calls.append("viewWillAppear") }
        override func viewDidAppear(_ animated: Bool) { recorder.calls.append("viewDidAppear") }
        override func viewDidLayoutSubviews() {
            if recorder.calls.last != "viewDidLayoutSubviews" { recorder.calls.append("viewDidLayoutSubviews") }
        }
        override func viewWillTransition(
            to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator
        ) {
            recorder.calls.append("viewWillTransition")
            coordinator.animate(
                alongsideTransition: { [unowned self] _ in self.transitionSizes.append((size, self.view.bounds.size)) },
                completion: nil)
        }
    }

    final class TestDelegate: UIResponder, UIApplicationDelegate {
        var window: UIWindow?
        let recorder = Recorder()
        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            recorder.calls.append("didFinishLaunching")
            let window = UIWindow(frame: UIScreen.main.bounds)
            window.rootViewController = RecordingController(recorder: recorder)
            window.makeKeyAndVisible()
            self.window = window
            return true
        }
        func applicationDidBecomeActive(_ application: UIApplication) { recorder.calls.append("didBecomeActive") }
        func applicationWillTerminate(_ application: UIApplication) { recorder.calls.append("willTerminate") }
    }

    private func launch() -> (TestDelegate, UIHeadlessHost) {
        UIAnimator.shared.reset()
        UIApplication.shared.resetForNextRun()
        let delegate = TestDelegate()
        let host = UIHeadlessHost(launching: delegate, size: CGSize(width: 300, height: 200), scale: 1)
        return (delegate, host)
    }

    @Test func launchAppearanceAndTerminationOrder() throws {
        let (delegate, host) = launch()
        #expect(UIApplication.shared.keyWindow === delegate.window)
        #expect(UIApplication.shared.windows.count == 1)
        #expect(host.runUntilIdle())
        host.terminate()
        host.terminate()
        #expect(
            delegate.recorder.calls == [
                "didFinishLaunching", "loadView", "viewDidLoad", "viewWillAppear", "viewDidLayoutSubviews",
                "viewDidAppear", "didBecomeActive", "willTerminate",
            ])
    }

    @Test func rootViewFillsTheWindowAndFollowsResizes() throws {
        let (delegate, host) = launch()
        host.runUntilIdle()
        let window = try #require(delegate.window)
        let controller = try #require(window.rootViewController as? RecordingController)
        #expect(controller.view.frame == CGRect(x: 0, y: 0, width: 300, height: 200))
        host.host.resize(to: CGSize(width: 500, height: 260), scale: 2)
        host.runUntilIdle()
        #expect(controller.view.frame == CGRect(x: 0, y: 0, width: 500, height: 260))
        // Flexible width and top margin: the 220 pt right margin and 60 pt height stay, the rest stretches.
        #expect(controller.child.frame == CGRect(x: 10, y: 70, width: 280, height: 60))
        #expect(controller.transitionSizes.count == 1)
        #expect(controller.transitionSizes.first?.0 == CGSize(width: 500, height: 260))
        #expect(controller.transitionSizes.first?.1 == CGSize(width: 500, height: 260), "blocks run at the new size")
        #expect(UIScreen.main.scale == 2)
        let image = host.snapshot()
        #expect(image.size == CGSize(width: 500, height: 260) && image.scale == 2)
        host.terminate()
    }

    @Test func stillWindowDrawsNothingMore() throws {
        let (_, host) = launch()
        #expect(host.runUntilIdle())
        let frames = host.host.frameCount
        let first = host.snapshot()
        host.advance(by: 1)
        let second = host.snapshot()
        #expect(first === second, "a still window returns its last frame")
        #expect(host.host.frameCount == frames)
        host.terminate()
    }

    @Test func displayLinkDrivesFramesUntilInvalidated() throws {
        let (_, host) = launch()
        host.runUntilIdle()
        var calls = 0
        let link = CADisplayLink { _ in calls += 1 }
        link.add(to: .main, forMode: .common)
        let frames = host.host.frameCount
        host.advance(by: 0.5)
        #expect(calls == 30)
        #expect(host.host.frameCount == frames + 30)
        link.isPaused = true
        #expect(host.runUntilIdle())
        link.invalidate()
        #expect(CADisplayLink.active.isEmpty)
        host.terminate()
    }

    @Test func drawHierarchyMatchesTheWindowImage() throws {
        let (delegate, host) = launch()
        host.runUntilIdle()
        let view = try #require(delegate.window?.rootViewController?.view)
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let drawn = UIGraphicsImageRenderer(size: view.bounds.size, format: format).image { _ in
            #expect(view.drawHierarchy(in: view.bounds, afterScreenUpdates: true))
        }
        let shot = host.snapshot()
        for (x, y) in [(20, 20), (5, 5), (150, 150)] {
            #expect(drawn.pixelColor(x: x, y: y) == shot.pixelColor(x: x, y: y))
        }
        #expect(shot.pixelColor(x: 20, y: 20) == UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(drawn.pixelColor(x: 300, y: 0) == nil)
        host.terminate()
    }

    @Test func touchesReachTheViewAtWindowPoints() throws {
        final class Touchable: UIView, UITouchResponder {
            var began: [CGPoint] = []
            func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
                began += touches.map { $0.location(in: self) }
            }
            func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
            func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {}
            func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}
        }
        let view = Touchable(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        UIApplication.shared.resetForNextRun()
        let host = UIHeadlessHost(view: view)
        host.tap(at: CGPoint(x: 50, y: 40))
        #expect(view.began == [CGPoint(x: 50, y: 40)])
        host.terminate()
    }

    @Test func hostOptionsFromTheCommandLine() {
        let o = UIApplicationHostOptions(
            arguments: ["/x/app", "--snapshot", "out.png", "--size", "640x480", "--scale", "2", "--other"],
            environment: [:])
        #expect(o.backend == .headless && o.snapshotPath == "out.png")
        #expect(o.size == CGSize(width: 640, height: 480) && o.scale == 2 && o.title == "app")
        #expect(UIApplicationHostOptions(arguments: ["app", "--window"], environment: [:]).backend == .window)
        #expect(
            UIApplicationHostOptions(arguments: ["app"], environment: ["WAYMARK_HEADLESS": "1"]).backend == .headless)
        let bad = UIApplicationHostOptions(arguments: ["app", "--size", "0x5"], environment: [:])
        #expect(bad.size == CGSize(width: 800, height: 600))
    }
}

import Foundation
import GoogleMaps
import UIKit
import UIKitSDL

/// The viewer app: one window with the root view controller of ``makeRootViewController(options:)``. The window
/// host (package plumbing) gives it what a desktop viewer needs beyond UIKit: the N key, the `--script` input
/// player, frame statistics for `--stats`, and the last frame for `MAP_VIEWER_DUMP_FRAME`.
@MainActor final class AppDelegate: UIResponder, UIApplicationDelegate {
    /// The parsed command line, set by main.swift before `UIApplicationMain`.
    static var options = ViewerOptions()

    var window: UIWindow?

    /// `MAP_VIEWER_DUMP_FRAME=FILE.png`: the last presented frame, at its device pixels, is written there on exit
    /// (HiDPI checks: the window shows it scaled to the window).
    private let dumpPath = ProcessInfo.processInfo.environment["MAP_VIEWER_DUMP_FRAME"]

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = makeRootViewController(options: Self.options)
        window.makeKeyAndVisible()
        self.window = window
        return true
    }

    /// Called once the first frame is on screen: the "ready" line, then the host hooks.
    func applicationDidBecomeActive(_ application: UIApplication) {
        guard let host = application.host, let window else { return }
        let size = window.bounds.size
        viewerLog(
            "map-viewer: ready \(Int(size.width))x\(Int(size.height)) pt, scale \(host.scale), video \(host.driverName)"
        )
        host.keepsStatistics = Self.options.stats
        host.onKey = { [weak self] key in if key == "n" { self?.resetNorth() } }
        if let name = Self.options.script, let script = ViewerScript(name: name, size: size) {
            let mapper = InputMapper(input: host.input)
            host.resetStatistics()  // the script's frames only: not the window's first
            viewerLog("map-viewer: playing script \(name)")
            host.turnHooks.append { [unowned host] now in
                script.runDue(now: now, mapper: mapper)
                mapper.runDue(now: now)
                if script.isFinished(now: now) { host.close() }
                return [script.nextDeadline(), mapper.nextDeadline].compactMap { $0 }.min()
            }
        }
    }

    /// N: north up, no tilt (animated).
    private func resetNorth() {
        if let map = window?.rootViewController?.viewIfLoaded as? GMSMapView {
            map.animate(toBearing: 0)
            map.animate(toViewingAngle: 0)
        } else if let standIn = window?.rootViewController?.viewIfLoaded as? StandInView {
            standIn.startReset(now: UIAnimator.shared.now)
        }
    }

    func applicationWillTerminate(_ application: UIApplication) {
        guard let host = application.host else { return }
        if let dumpPath, let png = host.lastImage?.pngData() {
            do {
                try png.write(to: URL(fileURLWithPath: dumpPath))
                viewerLog("map-viewer: wrote the last frame to \(dumpPath)")
            } catch {
                viewerError("cannot write \(dumpPath): \(error)")
            }
        }
        if host.keepsStatistics && !host.frameTimes.isEmpty {
            /// The `q` quantile (0…1) of ascending seconds, in milliseconds with two decimals.
            func ms(_ sorted: [TimeInterval], _ q: Double) -> String {
                String(format: "%.2f", sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] * 1000)
            }
            let sorted = host.frameTimes.sorted()
            viewerLog(
                "map-viewer: stats \(sorted.count) frames, frame time median \(ms(sorted, 0.5)) ms, "
                    + "p99 \(ms(sorted, 0.99)) ms, max \(ms(sorted, 1)) ms"
                    + (Self.options.script.map { ", script \($0)" } ?? ""))
            let render = host.renderTimes.sorted()
            if !render.isEmpty {
                viewerLog(
                    "map-viewer: stats of which drawing the view (renderImage): median \(ms(render, 0.5)) ms, "
                        + "p99 \(ms(render, 0.99)) ms")
            }
            // Per stage: median and p99 over the frames (0 for a frame that did not run the stage).
            let names = Set(host.stageTimes.flatMap { $0.keys }).sorted()
            let stages = names.map { name in
                let times = host.stageTimes.map { $0[name] ?? 0 }.sorted()
                return "\(name) \(ms(times, 0.5))/\(ms(times, 0.99))"
            }
            if !stages.isEmpty {
                viewerLog("map-viewer: stats stages (median/p99 ms): " + stages.joined(separator: ", "))
            }
        }
        viewerLog("map-viewer: closed after \(host.frameCount) frames")
    }
}

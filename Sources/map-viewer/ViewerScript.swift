import Foundation
import LinuxUIKit
import UIKitSDL

/// A built-in, deterministic input script (`--script demo`): mouse drags, wheel notches and a right-button twist fed
/// through ``InputMapper`` exactly as SDL's events would be, so the frames it causes are the frames a user causes.
///
/// `demo` (13.5 s, issue 8's benchmark with issue 17's tilt; the view starts at ``camera`` over the committed Helsinki
/// extract with ``markerCount`` markers): a 2-s drag pan, six wheel notches zooming in by 3 levels about a point
/// off-centre (crossing integer zooms 16, 17 and 18), a 2-s right-drag turning the map by 120°, a drag pan back, four
/// notches zooming out, then a right-drag down by 120 points tilting the map to 60° (0.5° a point) and one back up to
/// 0°. Drags are in points (the view stays over the extract at any window size); times are seconds
/// from the first presented frame on `UIAnimator.shared.clock`.
@MainActor final class ViewerScript {
    /// The scripts `--script` knows.
    nonisolated static let names = ["demo"]
    /// The camera the script starts from when `--camera` is not given: the middle of the Helsinki extract
    /// (`Data/helsinki.mbtiles`, about 1 × 1.7 km) at zoom 15.5.
    nonisolated static let camera = CameraOption(latitude: 60.1716, longitude: 24.9443, zoom: 15.5)
    /// Markers on the map while the script runs (the demo POIs plus generated ones, see ``demoMarkers(count:)``).
    nonisolated static let markerCount = 1000

    enum Action {
        case down(CGPoint, button: Int)
        case move(CGPoint)
        case up(CGPoint, button: Int)
        case wheel(Double, CGPoint)
    }

    private var steps: [(time: TimeInterval, action: Action)]
    private var start: TimeInterval?
    /// Seconds the script lasts.
    let duration: TimeInterval

    /// The `name`d script for a window of `size` points; nil for an unknown name.
    init?(name: String, size: CGSize) {
        guard name == "demo" else { return nil }
        let c = CGPoint(x: size.width / 2, y: size.height / 2)
        var s: [(TimeInterval, Action)] = []
        /// A drag from `a` to `b` between `t0` and `t1` at 60 moves a second, held still 0.1 s before release (no
        /// fling, so the next part starts from rest).
        func drag(button: Int, from a: CGPoint, to b: CGPoint, _ t0: TimeInterval, _ t1: TimeInterval) {
            s.append((t0, .down(a, button: button)))
            let n = max(1, Int(((t1 - t0) * 60).rounded()))
            for i in 1...n {
                let f = CGFloat(i) / CGFloat(n)
                s.append(
                    (t0 + (t1 - t0) * Double(f), .move(CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))))
            }
            s.append((t1 + 0.1, .up(b, button: button)))
        }
        drag(button: 1, from: c, to: CGPoint(x: c.x - 150, y: c.y - 200), 0.0, 1.8)
        let zoomPoint = CGPoint(x: c.x + 60, y: c.y + 40)
        for i in 0..<6 { s.append((2.2 + 0.3 * Double(i), .wheel(1, zoomPoint))) }
        // 300 points sideways at 0.4°/point: 120° clockwise.
        drag(button: 3, from: c, to: CGPoint(x: c.x + 300, y: c.y), 4.4, 6.4)
        drag(button: 1, from: CGPoint(x: c.x - 150, y: c.y - 100), to: CGPoint(x: c.x + 150, y: c.y + 150), 6.8, 8.6)
        for i in 0..<4 { s.append((8.9 + 0.25 * Double(i), .wheel(-1, c))) }
        // Two-finger tilt (vertical right drag): down 120 points = 60°, then back up to 0°.
        drag(button: 3, from: c, to: CGPoint(x: c.x, y: c.y + 120), 10.0, 11.2)
        drag(button: 3, from: c, to: CGPoint(x: c.x, y: c.y - 120), 11.6, 12.8)
        steps = s.sorted { $0.0 < $1.0 }
        duration = 13.5
    }

    /// Whether the script has played to its end.
    func isFinished(now: TimeInterval) -> Bool {
        guard let start else { return false }
        return now - start >= duration
    }

    /// The next time something is due (a step or the end), or nil before the script started.
    func nextDeadline() -> TimeInterval? {
        guard let start else { return nil }
        return start + (steps.first?.time ?? duration)
    }

    /// Starts the clock at the first call, then sends every step due at `now` through `mapper`.
    func runDue(now: TimeInterval, mapper: InputMapper) {
        if start == nil { start = now }
        guard let start else { return }
        while let step = steps.first, start + step.time <= now {
            steps.removeFirst()
            switch step.action {
            case .down(let p, let button): mapper.mouseDown(button: button, at: p, shiftOrAlt: false, now: now)
            case .move(let p): mapper.mouseMoved(to: p)
            case .up(let p, let button): mapper.mouseUp(button: button, at: p)
            case .wheel(let notches, let p): mapper.wheel(notches: notches, at: p, now: now)
            }
        }
    }

    /// `count` marker positions around central Helsinki, the same on every run: the demo POIs of `existing` first,
    /// then points from a fixed linear congruential sequence over the Helsinki extract, within about ±0.9 km
    /// north–south and ±0.5 km east–west of (60.1716° N, 24.9443° E), titled "Marker N".
    static func demoMarkers(existing: [MarkerFile.Entry], count: Int) -> [MarkerFile.Entry] {
        var out = Array(existing.prefix(count))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        while out.count < count {
            let lat = 60.1716 + (next() - 0.5) * 0.016
            let lon = 24.9443 + (next() - 0.5) * 0.018
            out.append(MarkerFile.Entry(latitude: lat, longitude: lon, title: "Marker \(out.count + 1)", snippet: nil))
        }
        return out
    }
}

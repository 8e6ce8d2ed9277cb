// A stand-in for GMSMapView with a hand-predictable model (`MAP_VIEWER_STAND_IN=1`): the window test checks the
// host's input mapping on it alone.

import Foundation
import LinuxUIKit

/// Temporary content: a grid on a plane with a red crosshair at the plane's origin, a blue north arrow (a stand-in
/// "compass") while the plane is turned, and a status line. It follows touches with a deliberately simple model
/// (one finger pans; two fingers scale, turn and pan about their midpoint, or tilt when both move vertically
/// together; a double tap zooms in ×2 about the tap; a two-finger tap zooms out ×2) and logs every touch and every
/// camera change at the end of a gesture to stdout, so the host's input mapping can be checked from outside.
@MainActor final class StandInViewController: UIViewController {
    override func loadView() {
        view = StandInView(frame: UIScreen.main.bounds)
    }

    override func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
        logResize(to: size)
    }
}

@MainActor final class StandInView: UIView, UITouchResponder, UIFrameTicking {
    // The window loop ticks the stand-in like the map (package plumbing, `UIFrameTicking`).
    var needsFrames: Bool { resetAnimation != nil }
    var isLoading: Bool { false }
    func tickFrame() { advance(now: UIAnimator.shared.now) }

    /// Plane → screen: screen = centre + offset + scale · R(angle) · plane, then squashed vertically by cos(tilt).
    var offset = CGPoint.zero
    var scale: CGFloat = 1
    /// Turn of the plane on screen, degrees clockwise; the "bearing" is −angle wrapped into [0, 360).
    var angle: CGFloat = 0
    var tilt: CGFloat = 0
    var resetAnimation: (start: TimeInterval, angle: CGFloat, tilt: CGFloat)?
    private var moved: [Int: Bool] = [:]
    private var starts: [Int: CGPoint] = [:]

    var bearing: CGFloat {
        let b = (-angle).truncatingRemainder(dividingBy: 360)
        return b < 0 ? b + 360 : b + 0  // + 0 turns −0 into 0
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor(white: 0.96, alpha: 1)
    }

    required init?(coder: NSCoder) {
        super.init(frame: .zero)
    }

    var centre: CGPoint { CGPoint(x: bounds.width / 2, y: bounds.height / 2) }

    func screen(_ p: CGPoint) -> CGPoint {
        let r = angle * .pi / 180
        let x = scale * (p.x * cos(r) - p.y * sin(r)) + offset.x
        let y = scale * (p.x * sin(r) + p.y * cos(r)) + offset.y
        return CGPoint(x: centre.x + x, y: centre.y + y * cos(tilt * .pi / 180))
    }

    override func draw(_ rect: CGRect) {
        guard let cg = UIGraphicsGetCurrentContext() else { return }
        let step: CGFloat = 64
        let n: CGFloat = 40
        cg.setLineWidth(1)
        cg.setStrokeColor(red: 0.7, green: 0.7, blue: 0.72, alpha: 1)
        cg.beginPath()
        for i in stride(from: -n, through: n, by: 1) {
            cg.move(to: screen(CGPoint(x: i * step, y: -n * step)))
            cg.addLine(to: screen(CGPoint(x: i * step, y: n * step)))
            cg.move(to: screen(CGPoint(x: -n * step, y: i * step)))
            cg.addLine(to: screen(CGPoint(x: n * step, y: i * step)))
        }
        cg.strokePath()
        // The crosshair: 80 plane units across, so its screen size shows the zoom.
        cg.setLineWidth(4)
        cg.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
        cg.beginPath()
        cg.move(to: screen(CGPoint(x: -40, y: 0)))
        cg.addLine(to: screen(CGPoint(x: 40, y: 0)))
        cg.move(to: screen(CGPoint(x: 0, y: -40)))
        cg.addLine(to: screen(CGPoint(x: 0, y: 40)))
        cg.strokePath()
        if abs(bearing) > 0.5 && abs(bearing - 360) > 0.5 {
            // Stand-in compass: a blue needle pointing to plane north, top right.
            let c = CGPoint(x: bounds.width - 40, y: 40)
            let r = angle * .pi / 180
            cg.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            cg.beginPath()
            cg.move(to: CGPoint(x: c.x + 22 * sin(r), y: c.y - 22 * cos(r)))
            cg.addLine(to: CGPoint(x: c.x + 7 * cos(r), y: c.y + 7 * sin(r)))
            cg.addLine(to: CGPoint(x: c.x - 7 * cos(r), y: c.y - 7 * sin(r)))
            cg.closePath()
            cg.fillPath()
        }
        let status = String(
            format: "stand-in (no map yet)  zoom %.2f  bearing %.0f  tilt %.0f", log2(Double(scale)),
            Double(bearing), Double(tilt))
        status.draw(
            at: CGPoint(x: 8, y: 6),
            withAttributes: [.font: UIFont.systemFont(ofSize: 13), .foregroundColor: UIColor.black])
    }

    // MARK: Model changes

    func zoom(by k: CGFloat, around q: CGPoint) {
        guard k.isFinite, k > 0 else { return }
        let newScale = min(max(scale * k, 1.0 / 64), 64)
        let f = newScale / scale
        scale = newScale
        // The plane point under q stays under q (tilt ignored: the stand-in's tilt is only a squash).
        let p = CGPoint(x: centre.x + offset.x - q.x, y: centre.y + offset.y - q.y)
        offset = CGPoint(x: q.x + f * p.x - centre.x, y: q.y + f * p.y - centre.y)
    }

    func turn(by degrees: CGFloat, around q: CGPoint) {
        let r = degrees * .pi / 180
        let p = CGPoint(x: centre.x + offset.x - q.x, y: centre.y + offset.y - q.y)
        let rp = CGPoint(x: p.x * cos(r) - p.y * sin(r), y: p.x * sin(r) + p.y * cos(r))
        offset = CGPoint(x: q.x + rp.x - centre.x, y: q.y + rp.y - centre.y)
        angle += degrees
    }

    func startReset(now: TimeInterval) {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 } else if a <= -180 { a += 360 }
        angle = a
        resetAnimation = (now, angle, tilt)
        viewerLog("stand-in: reset north")
    }

    func advance(now: TimeInterval) {
        guard let a = resetAnimation else { return }
        let f = CGFloat(min(max((now - a.start) / 0.3, 0), 1))
        turn(by: a.angle * (1 - f) - angle, around: centre)
        tilt = a.tilt * (1 - f)
        if f >= 1 {
            resetAnimation = nil
            logCamera()
        }
        setNeedsDisplay()
    }

    func logCamera() {
        let o = screen(.zero)
        viewerLog(
            String(
                format: "stand-in: camera zoom=%.2f bearing=%.1f tilt=%.1f crosshair=%.0f,%.0f", log2(Double(scale)),
                Double(bearing), Double(tilt), Double(o.x), Double(o.y)))
    }

    // MARK: Touches

    private func logTouches(_ phase: String, _ touches: Set<UITouch>) {
        for t in touches.sorted(by: { $0.identifier < $1.identifier }) {
            let p = t.location(in: self)
            viewerLog(
                String(
                    format: "stand-in: touch %@ id=%d at=%.0f,%.0f taps=%d", phase, t.identifier, Double(p.x),
                    Double(p.y), t.tapCount))
        }
    }

    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        resetAnimation = nil
        for t in touches {
            moved[t.identifier] = false
            starts[t.identifier] = t.location(in: self)
        }
        logTouches("began", touches)
    }

    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        for t in touches {
            if let s = starts[t.identifier], hypot(t.location(in: self).x - s.x, t.location(in: self).y - s.y) > 10 {
                moved[t.identifier] = true
            }
        }
        let all = (event?.touches(for: self) ?? touches).sorted { $0.identifier < $1.identifier }
        if all.count == 1, let t = all.first {
            let p = t.location(in: self)
            let q = t.previousLocation(in: self)
            offset.x += p.x - q.x
            offset.y += (p.y - q.y) / max(cos(tilt * .pi / 180), 0.2)
        } else if all.count >= 2 {
            let (a, b) = (all[0], all[1])
            let a0 = a.previousLocation(in: self)
            let b0 = b.previousLocation(in: self)
            let a1 = a.location(in: self)
            let b1 = b.location(in: self)
            let d0 = hypot(b0.x - a0.x, b0.y - a0.y)
            let d1 = hypot(b1.x - a1.x, b1.y - a1.y)
            let turn0 = atan2(b0.y - a0.y, b0.x - a0.x) * 180 / .pi
            var dAngle = atan2(b1.y - a1.y, b1.x - a1.x) * 180 / .pi - turn0
            if dAngle > 180 { dAngle -= 360 } else if dAngle < -180 { dAngle += 360 }
            let dya = a1.y - a0.y
            let dyb = b1.y - b0.y
            let parallel = abs(d1 - d0) < 0.5 && abs(dAngle) < 0.2 && dya * dyb > 0
            if parallel {
                tilt = min(max(tilt + 0.5 * (dya + dyb) / 2, 0), 60)
            } else if d0 > 1, d1 > 1 {
                let m0 = CGPoint(x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2)
                let m1 = CGPoint(x: (a1.x + b1.x) / 2, y: (a1.y + b1.y) / 2)
                zoom(by: d1 / d0, around: m0)
                turn(by: dAngle, around: m0)
                offset.x += m1.x - m0.x
                offset.y += m1.y - m0.y
            }
        }
        setNeedsDisplay()
    }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        logTouches("ended", touches)
        let remaining = (event?.touches(for: self) ?? []).filter { $0.phase != .ended && $0.phase != .cancelled }
        if touches.count == 1, let t = touches.first, t.tapCount == 2, moved[t.identifier] == false {
            zoom(by: 2, around: t.location(in: self))
        } else if touches.count == 2, remaining.isEmpty, touches.allSatisfy({ moved[$0.identifier] == false }) {
            zoom(by: 0.5, around: centre)
        }
        for t in touches {
            moved[t.identifier] = nil
            starts[t.identifier] = nil
        }
        if remaining.isEmpty { logCamera() }
        setNeedsDisplay()
    }

    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        logTouches("cancelled", touches)
        for t in touches {
            moved[t.identifier] = nil
            starts[t.identifier] = nil
        }
        setNeedsDisplay()
    }
}

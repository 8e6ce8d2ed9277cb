import Foundation
import Testing
import WaymarkTime

@testable import LinuxUIKit

/// Records every touch delivery as text: "<view name> <phase> id@(x,y) prev(x,y) t=… taps=…", in view coordinates.
@MainActor private final class RecordingView: UIView, UITouchResponder {
    var name = ""
    var log: [String]
    var lastEvent: UIEvent?

    init(_ name: String, frame: CGRect, log: [String] = []) {
        self.name = name
        self.log = log
        super.init(frame: frame)
    }

    required init?(coder: NSCoder) { nil }

    private func record(_ phase: String, _ touches: Set<UITouch>, _ event: UIEvent?) {
        lastEvent = event
        for t in touches.sorted(by: { $0.identifier < $1.identifier }) {
            let p = t.location(in: self)
            let q = t.previousLocation(in: self)
            log.append(
                "\(name) \(phase) \(t.identifier)@(\(Int(p.x)),\(Int(p.y))) prev(\(Int(q.x)),\(Int(q.y))) "
                    + "t=\(t.timestamp) taps=\(t.tapCount)")
        }
    }

    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { record("began", touches, event) }
    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { record("moved", touches, event) }
    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { record("ended", touches, event) }
    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { record("cancelled", touches, event) }
}

@MainActor @Suite struct TouchInputTests {
    /// hitTest: deepest, front-most, visible, interaction-enabled view; misses outside the bounds and for NaN.
    @Test func hitTesting() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let a = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let b = UIView(frame: CGRect(x: 100, y: 100, width: 150, height: 150))
        let inner = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        root.addSubview(a)
        root.addSubview(b)
        b.addSubview(inner)
        #expect(root.hitTest(CGPoint(x: 50, y: 50), with: nil) === a)
        #expect(root.hitTest(CGPoint(x: 150, y: 150), with: nil) === b)  // b is in front of a
        #expect(root.hitTest(CGPoint(x: 115, y: 115), with: nil) === inner)
        #expect(root.hitTest(CGPoint(x: 290, y: 10), with: nil) === root)
        #expect(root.hitTest(CGPoint(x: 301, y: 10), with: nil) == nil)
        #expect(root.hitTest(CGPoint(x: CGFloat.nan, y: 10), with: nil) == nil)
        b.isHidden = true
        #expect(root.hitTest(CGPoint(x: 150, y: 150), with: nil) === a)
        b.isHidden = false
        b.isUserInteractionEnabled = false
        #expect(root.hitTest(CGPoint(x: 115, y: 115), with: nil) === a)
        b.isUserInteractionEnabled = true
        b.alpha = 0
        #expect(root.hitTest(CGPoint(x: 115, y: 115), with: nil) === a)
    }

    /// Phases, view-relative and previous locations, timestamps from the clock, and the touch staying with the view it
    /// began in after leaving its bounds.
    @Test func deliveryToResponder() {
        let clock = ManualClock(start: 1)
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let v = RecordingView("v", frame: CGRect(x: 100, y: 50, width: 100, height: 100))
        root.addSubview(v)
        let input = UITouchInput(rootView: root, clock: clock)
        input.touchDown(7, at: CGPoint(x: 110, y: 60))
        clock.advance(by: 0.5)
        input.move(7, to: CGPoint(x: 250, y: 70))  // leaves v's bounds: still v's
        clock.advance(by: 0.25)
        input.touchUp(7)
        #expect(
            v.log == [
                "v began 7@(10,10) prev(10,10) t=1.0 taps=1",
                "v moved 7@(150,20) prev(10,10) t=1.5 taps=1",
                "v ended 7@(150,20) prev(150,20) t=1.75 taps=1",
            ])
        #expect(input.activeTouches.isEmpty)
        // Moves and ends of fingers that are not down, stationary changes and NaN locations are ignored.
        input.move(3, to: CGPoint(x: 120, y: 60))
        input.touchUp(3)
        input.send([UITouchInput.Change(4, .stationary, at: CGPoint(x: 120, y: 60))])
        input.touchDown(5, at: CGPoint(x: CGFloat.nan, y: 60))
        #expect(v.log.count == 3)
    }

    /// A touch that begins on a view that does not handle touches goes to its nearest ancestor that does; a touch
    /// outside every view is dropped.
    @Test func nearestResponderAncestor() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let handler = RecordingView("h", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let plain = UIView(frame: CGRect(x: 50, y: 50, width: 50, height: 50))
        root.addSubview(handler)
        handler.addSubview(plain)
        #expect(plain.touchResponder === handler)
        #expect(root.touchResponder == nil)
        let input = UITouchInput(rootView: root, clock: ManualClock())
        input.touchDown(1, at: CGPoint(x: 60, y: 60))
        input.touchUp(1)
        input.touchDown(2, at: CGPoint(x: 400, y: 400))
        input.touchUp(2)
        #expect(handler.log.count == 2)
        #expect(handler.log[0].hasPrefix("h began 1@(60,60)"))
    }

    /// Two fingers in one event: one began call with both, allTouches holds both, a stationary finger is still in
    /// allTouches while the other moves, and cancelAll cancels what is down.
    @Test func multiTouchEvents() {
        let root = RecordingView("r", frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let input = UITouchInput(rootView: root, clock: ManualClock())
        input.send([
            UITouchInput.Change(1, .began, at: CGPoint(x: 10, y: 10)),
            UITouchInput.Change(2, .began, at: CGPoint(x: 90, y: 10)),
        ])
        #expect(root.log.count == 2)
        #expect(root.lastEvent?.allTouches?.count == 2)
        input.move(2, to: CGPoint(x: 95, y: 20))
        let all = root.lastEvent?.allTouches ?? []
        #expect(all.count == 2)
        #expect(all.first { $0.identifier == 1 }?.phase == .stationary)
        #expect(all.first { $0.identifier == 2 }?.phase == .moved)
        #expect(root.lastEvent?.touches(for: root)?.count == 2)
        input.cancelAll()
        #expect(root.log.suffix(2).allSatisfy { $0.contains("cancelled") })
        #expect(input.activeTouches.isEmpty)
        // A finger changing twice in one send is split into two events.
        input.send([
            UITouchInput.Change(1, .began, at: CGPoint(x: 10, y: 10)),
            UITouchInput.Change(1, .ended, at: CGPoint(x: 12, y: 10)),
        ])
        #expect(root.log.suffix(2).map { $0.prefix(9) } == ["r began 1", "r ended 1"])
    }

    /// tapCount counts quick taps in the same place: 1, 2, 3; it restarts after a pause or far away.
    @Test func tapCounts() {
        let clock = ManualClock()
        let root = RecordingView("r", frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let input = UITouchInput(rootView: root, clock: clock)
        func tap(_ x: CGFloat, after gap: Double) {
            clock.advance(by: gap)
            input.touchDown(at: CGPoint(x: x, y: 100))
            clock.advance(by: 0.05)
            input.touchUp()
        }
        tap(100, after: 0)
        tap(105, after: 0.2)
        tap(100, after: 0.2)
        tap(100, after: 0.5)  // too late
        tap(200, after: 0.1)  // too far
        let counts = root.log.filter { $0.contains("began") }.map { $0.components(separatedBy: "taps=")[1] }
        #expect(counts == ["1", "2", "3", "1", "1"])
    }
}

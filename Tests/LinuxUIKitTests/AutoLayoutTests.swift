import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// A view with a fixed content size (points), standing in for a control.
@MainActor private final class Sized: UIView {
    var content: CGSize {
        didSet { invalidateIntrinsicContentSize() }
    }

    init(_ width: CGFloat, _ height: CGFloat) {
        content = CGSize(width: width, height: height)
        super.init(frame: .zero)
        translatesAutoresizingMaskIntoConstraints = false
    }

    required init?(coder: NSCoder) { nil }

    override var intrinsicContentSize: CGSize { content }
}

/// A root view of `size` points holding `views` (each made constraint-based).
@MainActor private func container(_ width: CGFloat, _ height: CGFloat, _ views: [UIView]) -> UIView {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: width, height: height))
    for v in views {
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
    }
    return root
}

/// Captures Auto Layout's log lines while `body` runs (the suites of this target share it).
@MainActor func capturingLog(_ body: () -> Void) -> [String] {
    var lines: [String] = []
    let saved = AutoLayoutLog.handler
    AutoLayoutLog.handler = { lines.append($0) }
    body()
    AutoLayoutLog.handler = saved
    return lines
}

@MainActor @Suite struct AutoLayoutTests {
    /// A map pinned to the safe area of a view controller's view fills the window, and follows a resize.
    @Test func mapPinnedToSafeAreaFillsTheWindowAndFollowsResizes() {
        _ = installManualClock()
        let controller = UIViewController()
        let map = UIView()
        map.translatesAutoresizingMaskIntoConstraints = false
        controller.view.addSubview(map)
        let guide = controller.view.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            map.topAnchor.constraint(equalTo: guide.topAnchor),
            map.bottomAnchor.constraint(equalTo: guide.bottomAnchor),
            map.leadingAnchor.constraint(equalTo: guide.leadingAnchor),
            map.trailingAnchor.constraint(equalTo: guide.trailingAnchor),
        ])
        let host = UIHeadlessHost(rootViewController: controller, size: CGSize(width: 400, height: 300))
        host.runUntilIdle()
        #expect(map.frame == CGRect(x: 0, y: 0, width: 400, height: 300), "\(map.frame)")
        #expect(guide.layoutFrame == CGRect(x: 0, y: 0, width: 400, height: 300), "\(guide.layoutFrame)")
        host.window.transition(to: CGSize(width: 500, height: 350))
        #expect(map.frame == CGRect(x: 0, y: 0, width: 500, height: 350), "\(map.frame)")
    }

    /// A button-like view with a content size, centred: its frame is its content size about the centre.
    @Test func centredViewTakesItsIntrinsicSize() {
        let button = Sized(88, 44)
        let root = container(320, 480, [button])
        NSLayoutConstraint.activate([
            button.centerXAnchor.constraint(equalTo: root.centerXAnchor),
            button.centerYAnchor.constraint(equalTo: root.centerYAnchor),
        ])
        root.layoutIfNeeded()
        #expect(button.frame == CGRect(x: 116, y: 218, width: 88, height: 44), "\(button.frame)")
        button.content = CGSize(width: 120, height: 40)
        root.layoutIfNeeded()
        #expect(button.frame == CGRect(x: 100, y: 220, width: 120, height: 40), "\(button.frame)")
    }

    /// A label's content size drives its frame, and changing the text re-lays it out.
    @Test func labelIntrinsicSizeFollowsItsText() {
        _ = installManualClock()
        let label = UILabel()
        label.text = "Directions"
        let root = container(320, 200, [label])
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
            label.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
        ])
        root.layoutIfNeeded()
        let short = label.frame
        #expect(short.size == label.intrinsicContentSize && short.minX == 10 && short.minY == 20, "\(short)")
        #expect(short.width > 20)
        label.text = "Directions to the nearest station"
        root.layoutIfNeeded()
        #expect(label.frame.width > short.width + 50, "\(label.frame) after \(short)")
    }

    /// Changing a constant re-solves on the next layout pass (the drawer idiom), without re-activation.
    @Test func constantChangeMovesTheView() {
        let panel = UIView()
        let root = container(320, 480, [panel])
        let bottom = panel.bottomAnchor.constraint(equalTo: root.bottomAnchor, constant: 0)
        NSLayoutConstraint.activate([
            panel.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            panel.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            panel.heightAnchor.constraint(equalToConstant: 120), bottom,
        ])
        root.layoutIfNeeded()
        #expect(panel.frame == CGRect(x: 0, y: 360, width: 320, height: 120), "\(panel.frame)")
        bottom.constant = 100
        root.layoutIfNeeded()
        #expect(panel.frame == CGRect(x: 0, y: 460, width: 320, height: 120), "\(panel.frame)")
        bottom.isActive = false
        panel.topAnchor.constraint(equalTo: root.topAnchor, constant: 8).isActive = true
        root.layoutIfNeeded()
        #expect(panel.frame.minY == 8, "\(panel.frame)")
    }

    /// The explicit initialiser with a multiplier, and priorities deciding between conflicting wishes.
    @Test func multiplierAndPriorities() {
        let half = UIView()
        let root = container(300, 200, [half])
        let wide = half.heightAnchor.constraint(equalToConstant: 150)
        wide.priority = .defaultLow
        let narrow = half.heightAnchor.constraint(equalToConstant: 50)
        narrow.priority = .defaultHigh
        NSLayoutConstraint.activate([
            NSLayoutConstraint(
                item: half, attribute: .width, relatedBy: .equal, toItem: root, attribute: .width, multiplier: 0.5,
                constant: 10),
            half.leftAnchor.constraint(equalTo: root.leftAnchor),
            half.topAnchor.constraint(equalTo: root.topAnchor), wide, narrow,
        ])
        root.layoutIfNeeded()
        #expect(half.frame == CGRect(x: 0, y: 0, width: 160, height: 50), "\(half.frame)")
        narrow.priority = UILayoutPriority(200)
        root.layoutIfNeeded()
        #expect(half.frame.height == 150, "\(half.frame)")
        // Constant sizes are installed on the view itself, relations on the common ancestor.
        #expect(root.constraints.count == 3 && half.constraints.count == 2)
    }

    /// Compression resistance beats hugging: in too little room the lower-resistance label is squeezed.
    @Test func compressionResistanceDecidesWhoShrinks() {
        let name = Sized(200, 20)
        let distance = Sized(150, 20)
        let root = container(300, 100, [name, distance])
        name.setContentCompressionResistancePriority(.defaultLow, for: .horizontal)
        #expect(name.contentCompressionResistancePriority(for: .horizontal) == .defaultLow)
        NSLayoutConstraint.activate([
            name.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            distance.leadingAnchor.constraint(equalTo: name.trailingAnchor),
            distance.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            name.topAnchor.constraint(equalTo: root.topAnchor), distance.topAnchor.constraint(equalTo: root.topAnchor),
        ])
        root.layoutIfNeeded()
        #expect(name.frame.width == 150 && distance.frame.width == 150, "\(name.frame) \(distance.frame)")
    }

    /// Conflicting required constraints: UIKit's log names both, the later one is broken, the earlier holds.
    @Test func unsatisfiableConstraintsAreLoggedAndTheLaterBroken() {
        let box = UIView()
        let root = container(300, 300, [box])
        let first = box.widthAnchor.constraint(equalToConstant: 100)
        let second = box.widthAnchor.constraint(equalToConstant: 200)
        second.identifier = "too-wide"
        NSLayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            box.topAnchor.constraint(equalTo: root.topAnchor), box.heightAnchor.constraint(equalToConstant: 10), first,
            second,
        ])
        let log = capturingLog { root.layoutIfNeeded() }
        #expect(box.frame.width == 100, "\(box.frame)")
        #expect(log.count == 1)
        let message = log.first ?? ""
        #expect(message.hasPrefix("[LayoutConstraints] Unable to simultaneously satisfy constraints."))
        #expect(message.contains(first.description) && message.contains(second.description), "\(message)")
        #expect(message.contains("Will attempt to recover by breaking constraint \n\(second.description)"))
        #expect(second.description.contains("'too-wide' UIView:0x") && second.description.contains(".width == 200"))
        #expect(LayoutEngine.engine(of: root)?.broken.map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
        // Removing the winner lets the broken one hold on the next rebuild.
        first.isActive = false
        root.layoutIfNeeded()
        #expect(box.frame.width == 200, "\(box.frame)")
    }

    /// Forgetting `translatesAutoresizingMaskIntoConstraints = false` conflicts with the frame's own constraints,
    /// which the log names as UIKit does.
    @Test func autoresizingFrameConflictNamesTheMaskConstraint() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let box = UIView(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
        root.addSubview(box)
        let log = capturingLog {
            box.widthAnchor.constraint(equalToConstant: 80).isActive = true
            root.layoutIfNeeded()
        }
        #expect(box.frame == CGRect(x: 10, y: 10, width: 50, height: 50), "\(box.frame)")
        #expect(log.first?.contains("NSAutoresizingMaskLayoutConstraint") == true, "\(log)")
    }

    /// Removing a view deactivates the constraints its ancestors held about it.
    @Test func removingAViewDeactivatesItsConstraints() {
        let a = UIView()
        let root = container(100, 100, [a])
        let pin = a.leadingAnchor.constraint(equalTo: root.leadingAnchor)
        let width = a.widthAnchor.constraint(equalToConstant: 10)
        NSLayoutConstraint.activate([pin, width])
        #expect(pin.isActive && root.constraints.count == 1 && a.constraints.count == 1)
        a.removeFromSuperview()
        #expect(!pin.isActive && width.isActive && root.constraints.isEmpty)
        let stranger = UIView()
        let log = capturingLog { stranger.widthAnchor.constraint(equalTo: a.widthAnchor).isActive = true }
        #expect(log.first?.contains("because they have no common ancestor") == true, "\(log)")
    }

    /// Deactivating some of many constraints held by one view leaves the others installed in activation order
    /// and the layout right; re-activated constraints come last, and deactivating twice changes nothing.
    @Test func deactivatingSomeOfManyConstraintsKeepsTheRestInOrder() {
        let views = (0..<20).map { _ in UIView() }
        let root = container(400, 100, views)
        var leading: [NSLayoutConstraint] = []
        var top: [NSLayoutConstraint] = []
        for (i, v) in views.enumerated() {
            leading.append(
                v.leadingAnchor.constraint(
                    equalTo: i == 0 ? root.leadingAnchor : views[i - 1].trailingAnchor, constant: 4))
            top.append(v.topAnchor.constraint(equalTo: root.topAnchor, constant: 5))
            NSLayoutConstraint.activate([
                leading[i], top[i], v.widthAnchor.constraint(equalToConstant: 10),
                v.heightAnchor.constraint(equalToConstant: 20),
            ])
        }
        let originals = (0..<20).flatMap { [leading[$0], top[$0]] }
        #expect(root.constraints.map(ObjectIdentifier.init) == originals.map(ObjectIdentifier.init))

        // 20 of the root's 40 go: the even views' tops and the last ten views' leading edges.
        let removed = stride(from: 0, to: 20, by: 2).map { top[$0] } + (10..<20).map { leading[$0] }
        NSLayoutConstraint.deactivate(removed)
        NSLayoutConstraint.deactivate(removed)
        let lower = stride(from: 0, to: 20, by: 2).map {
            views[$0].topAnchor.constraint(equalTo: root.topAnchor, constant: 50)
        }
        let wider = (10..<20).map {
            views[$0].leadingAnchor.constraint(equalTo: views[$0 - 1].trailingAnchor, constant: 6)
        }
        NSLayoutConstraint.activate(lower + wider)
        let kept = originals.filter { c in !removed.contains { $0 === c } }
        #expect(kept.count == 20 && kept.allSatisfy(\.isActive) && !removed.contains { $0.isActive })
        #expect(root.constraints.map(ObjectIdentifier.init) == (kept + lower + wider).map(ObjectIdentifier.init))
        #expect(views.allSatisfy { $0.constraints.count == 2 })
        root.layoutIfNeeded()
        for (i, v) in views.enumerated() {
            let x: CGFloat = i < 10 ? 4 + 14 * CGFloat(i) : 146 + 16 * CGFloat(i - 10)
            let expected = CGRect(x: x, y: i % 2 == 0 ? 50 : 5, width: 10, height: 20)
            #expect(v.frame == expected, "view \(i): \(v.frame)")
        }

        // Back to the original layout: the re-activated constraints are installed after the kept ones.
        NSLayoutConstraint.deactivate(lower + wider)
        NSLayoutConstraint.activate(removed)
        #expect(root.constraints.map(ObjectIdentifier.init) == (kept + removed).map(ObjectIdentifier.init))
        root.layoutIfNeeded()
        for (i, v) in views.enumerated() {
            #expect(v.frame == CGRect(x: 4 + 14 * CGFloat(i), y: 5, width: 10, height: 20), "view \(i): \(v.frame)")
        }
        NSLayoutConstraint.deactivate(originals)
        #expect(root.constraints.isEmpty && originals.allSatisfy { !$0.isActive })
    }

    /// Activation order decides which of two conflicting required constraints holds, also after one of them is
    /// deactivated and activated again (it is then the later one, and broken).
    @Test func reactivatedConstraintIsTheLaterInAConflict() {
        let box = UIView()
        let root = container(300, 300, [box])
        let narrow = box.widthAnchor.constraint(equalToConstant: 100)
        let wide = box.widthAnchor.constraint(equalToConstant: 200)
        NSLayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            box.topAnchor.constraint(equalTo: root.topAnchor), box.heightAnchor.constraint(equalToConstant: 10),
            narrow, wide,
        ])
        var log = capturingLog { root.layoutIfNeeded() }
        #expect(box.frame.width == 100, "\(box.frame)")
        #expect(log.count == 1 && log.first?.contains("breaking constraint \n\(wide.description)") == true, "\(log)")
        narrow.isActive = false
        narrow.isActive = true
        log = capturingLog { root.layoutIfNeeded() }
        #expect(box.frame.width == 200, "\(box.frame)")
        #expect(log.count == 1 && log.first?.contains("breaking constraint \n\(narrow.description)") == true, "\(log)")
        #expect(LayoutEngine.engine(of: root)?.broken.map(ObjectIdentifier.init) == [ObjectIdentifier(narrow)])
    }

    /// The margins guide insets by the layout margins (8 by default), and custom guides take part like views.
    @Test func marginsAndCustomGuides() {
        let content = UIView()
        let root = container(200, 100, [content])
        let spacer = UILayoutGuide()
        root.addLayoutGuide(spacer)
        let margins = root.layoutMarginsGuide
        NSLayoutConstraint.activate([
            spacer.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            spacer.widthAnchor.constraint(equalToConstant: 30),
            spacer.topAnchor.constraint(equalTo: margins.topAnchor),
            spacer.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
            content.leadingAnchor.constraint(equalTo: spacer.trailingAnchor),
            content.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
            content.topAnchor.constraint(equalTo: margins.topAnchor),
            content.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
        ])
        root.layoutIfNeeded()
        #expect(content.frame == CGRect(x: 38, y: 8, width: 154, height: 84), "\(content.frame)")
        #expect(spacer.layoutFrame == CGRect(x: 8, y: 8, width: 30, height: 84), "\(spacer.layoutFrame)")
        root.layoutMargins = UIEdgeInsets(top: 0, left: 20, bottom: 0, right: 20)
        root.layoutIfNeeded()
        #expect(content.frame == CGRect(x: 50, y: 0, width: 130, height: 100), "\(content.frame)")
    }

    /// `setNeedsUpdateConstraints()` leads to `updateConstraints()` before the next layout.
    @Test func updateConstraintsRunsBeforeLayout() {
        final class Pinned: UIView {
            var calls = 0
            override func updateConstraints() {
                calls += 1
                if calls == 1, let parent = superview {
                    leadingAnchor.constraint(equalTo: parent.leadingAnchor, constant: 7).isActive = true
                    widthAnchor.constraint(equalToConstant: 5).isActive = true
                }
                super.updateConstraints()
            }
        }
        let v = Pinned()
        let root = container(100, 100, [v])
        v.setNeedsUpdateConstraints()
        #expect(v.needsUpdateConstraints())
        root.layoutIfNeeded()
        #expect(v.calls == 1 && !v.needsUpdateConstraints())
        #expect(v.frame.minX == 7 && v.frame.width == 5, "\(v.frame)")
    }

    /// `systemLayoutSizeFitting` measures a subtree without moving it.
    @Test func systemLayoutSizeFittingMeasuresContent() {
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let title = Sized(120, 20)
        let detail = Sized(90, 16)
        card.addSubview(title)
        card.addSubview(detail)
        NSLayoutConstraint.activate([
            title.topAnchor.constraint(equalTo: card.topAnchor, constant: 8),
            title.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 8),
            card.trailingAnchor.constraint(greaterThanOrEqualTo: title.trailingAnchor, constant: 8),
            detail.topAnchor.constraint(equalTo: title.bottomAnchor, constant: 4),
            detail.leadingAnchor.constraint(equalTo: title.leadingAnchor),
            card.trailingAnchor.constraint(greaterThanOrEqualTo: detail.trailingAnchor, constant: 8),
            card.bottomAnchor.constraint(equalTo: detail.bottomAnchor, constant: 8),
        ])
        let size = card.systemLayoutSizeFitting(UIView.layoutFittingCompressedSize)
        #expect(size == CGSize(width: 136, height: 56), "\(size)")
        #expect(card.bounds.size == CGSize(width: 10, height: 10))
        let wide = card.systemLayoutSizeFitting(
            CGSize(width: 300, height: 0), withHorizontalFittingPriority: .required,
            verticalFittingPriority: .fittingSizeLevel)
        #expect(wide == CGSize(width: 300, height: 56), "\(wide)")
    }

    /// Inside an animation block, `layoutIfNeeded()` animates the new frames (the UIKit idiom).
    @Test func layoutInsideAnimationBlockAnimates() {
        let clock = installManualClock()
        let panel = UIView()
        let root = container(100, 100, [panel])
        let top = panel.topAnchor.constraint(equalTo: root.topAnchor)
        NSLayoutConstraint.activate([
            top, panel.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            panel.widthAnchor.constraint(equalToConstant: 10), panel.heightAnchor.constraint(equalToConstant: 10),
        ])
        root.layoutIfNeeded()
        top.constant = 80
        UIView.animate(withDuration: 1) { root.layoutIfNeeded() }
        #expect(panel.frame.minY == 80)
        clock.advance(by: 0.5)
        let presented = panel.layer.presentation()?.position.y ?? -1
        #expect(presented > 5 && presented < 85, "presented centre \(presented)")
    }
}

/// A map screen built only with constraints: a map pinned to the safe area, a square control pinned to the top
/// trailing corner, a centred start button of its label's size, and a bottom stack of three equal
/// buttons within the margins.
@MainActor private final class ConstrainedMapScreen: UIViewController {
    override func viewDidLoad() {
        view.backgroundColor = .white
        let map = UIView()
        map.backgroundColor = UIColor(red: 0.86, green: 0.93, blue: 0.84, alpha: 1)
        let river = UIView()
        river.backgroundColor = UIColor(red: 0.62, green: 0.78, blue: 0.93, alpha: 1)
        let compass = UIView()
        compass.backgroundColor = UIColor(white: 0.2, alpha: 0.8)
        let start = UILabel()
        start.text = "Start"
        start.textAlignment = .center
        start.textColor = .white
        start.backgroundColor = .systemBlue
        let buttons = ["Search", "Layers", "Locate"].map { title -> UILabel in
            let label = UILabel()
            label.text = title
            label.textAlignment = .center
            label.backgroundColor = UIColor(white: 0.95, alpha: 1)
            return label
        }
        let stack = UIStackView(arrangedSubviews: buttons)
        stack.distribution = .fillEqually
        stack.spacing = 8
        for v in [map, river, compass, start, stack] as [UIView] {
            v.translatesAutoresizingMaskIntoConstraints = false
        }
        view.addSubview(map)
        map.addSubview(river)
        view.addSubview(compass)
        view.addSubview(start)
        view.addSubview(stack)
        let safe = view.safeAreaLayoutGuide
        let margins = view.layoutMarginsGuide
        NSLayoutConstraint.activate([
            map.topAnchor.constraint(equalTo: safe.topAnchor),
            map.bottomAnchor.constraint(equalTo: safe.bottomAnchor),
            map.leadingAnchor.constraint(equalTo: safe.leadingAnchor),
            map.trailingAnchor.constraint(equalTo: safe.trailingAnchor),
            river.centerYAnchor.constraint(equalTo: map.centerYAnchor, constant: -60),
            river.leadingAnchor.constraint(equalTo: map.leadingAnchor),
            river.trailingAnchor.constraint(equalTo: map.trailingAnchor),
            river.heightAnchor.constraint(equalTo: map.heightAnchor, multiplier: 0.08),
            compass.topAnchor.constraint(equalTo: safe.topAnchor, constant: 12),
            compass.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
            compass.widthAnchor.constraint(equalToConstant: 44),
            compass.heightAnchor.constraint(equalTo: compass.widthAnchor),
            start.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            start.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            stack.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
            stack.bottomAnchor.constraint(equalTo: safe.bottomAnchor, constant: -16),
            stack.heightAnchor.constraint(equalToConstant: 44),
        ])
        self.start = start
    }

    var start: UILabel?
}

@MainActor @Suite struct AutoLayoutScreenTests {
    @Test func constrainedMapScreenLaysOutAndDraws() {
        _ = installManualClock()
        let screen = ConstrainedMapScreen()
        let host = UIHeadlessHost(rootViewController: screen, size: CGSize(width: 360, height: 480))
        host.runUntilIdle()
        let views = screen.view.subviews
        #expect(views[0].frame == CGRect(x: 0, y: 0, width: 360, height: 480), "map \(views[0].frame)")
        #expect(views[1].frame == CGRect(x: 300, y: 12, width: 44, height: 44), "compass \(views[1].frame)")
        let start = screen.start.map { $0.frame } ?? .zero
        #expect(start.size == screen.start?.intrinsicContentSize && abs(start.midX - 180) <= 0.5, "start \(start)")
        let stack = views[3]
        #expect(stack.frame == CGRect(x: 16, y: 420, width: 328, height: 44), "stack \(stack.frame)")
        let buttons = stack.subviews.map { $0.frame }
        #expect(buttons.map { $0.width } == [104, 104, 104] && buttons.map { $0.minX } == [0, 112, 224], "\(buttons)")
        expectMatchesGolden(host.snapshot(), named: "autolayout-map-screen")
    }
}

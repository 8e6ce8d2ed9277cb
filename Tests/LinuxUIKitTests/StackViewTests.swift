import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// A view with a fixed content size (points), standing in for a control.
@MainActor private final class Chip: UIView {
    let content: CGSize

    init(_ width: CGFloat, _ height: CGFloat) {
        content = CGSize(width: width, height: height)
        super.init(frame: .zero)
    }

    required init?(coder: NSCoder) { nil }

    override var intrinsicContentSize: CGSize { content }
}

/// A 300 × 100 root with `stack` pinned to its leading and top edges, plus `extra` constraints.
@MainActor private func host(_ stack: UIStackView, width: CGFloat? = nil) -> UIView {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
    stack.translatesAutoresizingMaskIntoConstraints = false
    root.addSubview(stack)
    stack.leadingAnchor.constraint(equalTo: root.leadingAnchor).isActive = true
    stack.topAnchor.constraint(equalTo: root.topAnchor).isActive = true
    if let width { stack.widthAnchor.constraint(equalToConstant: width).isActive = true }
    root.layoutIfNeeded()
    return root
}

@MainActor private func xs(_ views: [UIView]) -> [CGFloat] { views.map { $0.frame.minX } }
@MainActor private func widths(_ views: [UIView]) -> [CGFloat] { views.map { $0.frame.width } }

@MainActor @Suite struct StackViewTests {
    /// A horizontal stack sizes itself to its views and spacing; hiding one collapses it and its gap.
    @Test func hiddenArrangedViewsCollapse() {
        let views = [Chip(50, 20), Chip(50, 30), Chip(50, 20)]
        let stack = UIStackView(arrangedSubviews: views)
        stack.spacing = 10
        stack.alignment = .top
        let root = host(stack)
        #expect(xs(views) == [0, 60, 120] && stack.frame.size == CGSize(width: 170, height: 30), "\(stack.frame)")
        #expect(views.allSatisfy { !$0.translatesAutoresizingMaskIntoConstraints })
        views[1].isHidden = true
        root.layoutIfNeeded()
        #expect(xs([views[0], views[2]]) == [0, 60] && views[1].frame.width == 0, "\(xs(views))")
        #expect(stack.frame.size == CGSize(width: 110, height: 20), "\(stack.frame)")
        views[1].isHidden = false
        root.layoutIfNeeded()
        #expect(xs(views) == [0, 60, 120], "\(xs(views))")
    }

    @Test func fillEquallyAndFillProportionally() {
        let views = [Chip(40, 20), Chip(80, 20), Chip(120, 20)]
        let stack = UIStackView(arrangedSubviews: views)
        stack.spacing = 15
        stack.distribution = .fillEqually
        let root = host(stack, width: 300)
        #expect(widths(views) == [90, 90, 90] && xs(views) == [0, 105, 210], "\(widths(views)) \(xs(views))")
        stack.distribution = .fillProportionally
        root.layoutIfNeeded()
        // 270 points shared 1 : 2 : 3.
        #expect(widths(views) == [45, 90, 135] && xs(views) == [0, 60, 165], "\(widths(views)) \(xs(views))")
    }

    /// Issue 30: a settings row, [label, switch] in a horizontal `.fill` stack: the label (250) takes the slack,
    /// the switch (750, as on iOS) keeps its 51 points at the trailing edge.
    @Test func fillRowOfLabelAndSwitchStretchesTheLabel() {
        let label = UILabel()
        label.text = "Traffic"
        let toggle = UISwitch()
        #expect(toggle.contentHuggingPriority(for: .horizontal) == .defaultHigh)
        #expect(label.contentHuggingPriority(for: .horizontal) < toggle.contentHuggingPriority(for: .horizontal))
        let stack = UIStackView(arrangedSubviews: [label, toggle])
        stack.axis = .horizontal
        stack.distribution = .fill
        stack.spacing = 8
        _ = host(stack, width: 300)
        #expect(widths([label, toggle]) == [241, 51], "\(widths([label, toggle]))")
        #expect(xs([label, toggle]) == [0, 249], "\(xs([label, toggle]))")
    }

    /// `.fill` grows the lowest-hugging view; among equals the last.
    @Test func fillGrowsTheLowestHuggingView() {
        let views = [Chip(40, 20), Chip(60, 20), Chip(50, 20)]
        let stack = UIStackView(arrangedSubviews: views)
        let root = host(stack, width: 300)
        #expect(widths(views) == [40, 60, 200], "\(widths(views))")
        views[0].setContentHuggingPriority(UILayoutPriority(200), for: .horizontal)
        root.layoutIfNeeded()
        #expect(widths(views) == [190, 60, 50], "\(widths(views))")
    }

    @Test func equalSpacingAndEqualCentering() {
        let views = [Chip(20, 20), Chip(60, 20), Chip(20, 20)]
        let stack = UIStackView(arrangedSubviews: views)
        stack.distribution = .equalSpacing
        let root = host(stack, width: 300)
        // 200 points of gaps shared equally.
        #expect(widths(views) == [20, 60, 20] && xs(views) == [0, 120, 280], "\(xs(views))")
        stack.distribution = .equalCentering
        root.layoutIfNeeded()
        // Centres 10, 150, 290.
        #expect(views.map { $0.frame.midX } == [10, 150, 290], "\(views.map { $0.frame.midX })")
    }

    /// A vertical stack with centre alignment and layout-margin-relative arrangement.
    @Test func verticalCentredWithinMargins() {
        let views = [Chip(100, 30), Chip(60, 20)]
        let stack = UIStackView(arrangedSubviews: views)
        stack.axis = .vertical
        stack.alignment = .center
        stack.spacing = 4
        stack.isLayoutMarginsRelativeArrangement = true
        stack.layoutMargins = UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        _ = host(stack)
        #expect(stack.frame.size == CGSize(width: 120, height: 74), "\(stack.frame)")
        #expect(views[0].frame == CGRect(x: 10, y: 10, width: 100, height: 30), "\(views[0].frame)")
        #expect(views[1].frame == CGRect(x: 30, y: 44, width: 60, height: 20), "\(views[1].frame)")
    }

    @Test func insertRemoveAndCustomSpacing() {
        let a = Chip(10, 10)
        let b = Chip(10, 10)
        let c = Chip(10, 10)
        let stack = UIStackView(arrangedSubviews: [a, c])
        stack.insertArrangedSubview(b, at: 1)
        stack.setCustomSpacing(5, after: a)
        #expect(stack.customSpacing(after: a) == 5 && stack.customSpacing(after: b) == UIStackView.spacingUseDefault)
        let root = host(stack)
        #expect(xs([a, b, c]) == [0, 15, 25], "\(xs([a, b, c]))")
        stack.removeArrangedSubview(b)
        root.layoutIfNeeded()
        #expect(stack.arrangedSubviews.count == 2 && b.superview === stack && xs([a, c]) == [0, 15], "\(xs([a, c]))")
        c.removeFromSuperview()
        root.layoutIfNeeded()
        #expect(stack.arrangedSubviews.count == 1 && stack.frame.width == 10, "\(stack.frame)")
    }
}

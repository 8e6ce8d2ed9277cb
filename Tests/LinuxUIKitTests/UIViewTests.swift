import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

@MainActor @Suite struct UIViewTests {
    @Test func frameBoundsCenter() {
        _ = installManualClock()
        let v = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(v.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(v.center == CGPoint(x: 60, y: 45))
        v.center = CGPoint(x: 0, y: 0)
        #expect(v.frame == CGRect(x: -50, y: -25, width: 100, height: 50))
        v.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(v.frame == CGRect(x: -5, y: -5, width: 10, height: 10))
        v.transform = CGAffineTransform(scaleX: 2, y: 3)
        #expect(v.frame == CGRect(x: -10, y: -15, width: 20, height: 30))
        #expect(v.bounds.size == CGSize(width: 10, height: 10))
    }

    @Test func hierarchyOperations() {
        let root = UIView()
        let a = UIView()
        let b = UIView()
        let c = UIView()
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, at: 0)
        #expect(root.subviews.map { ObjectIdentifier($0) } == [c, a, b].map { ObjectIdentifier($0) })
        #expect(root.layer.sublayers?.count == 3)
        root.bringSubviewToFront(c)
        #expect(root.subviews.last === c && root.layer.sublayers?.last === c.layer)
        root.sendSubviewToBack(b)
        #expect(root.subviews.first === b)
        a.removeFromSuperview()
        #expect(a.superview == nil && root.subviews.count == 2)
        let other = UIView()
        other.addSubview(b)
        #expect(b.superview === other && root.subviews.count == 1)
        root.insertSubview(a, aboveSubview: c)
        #expect(root.subviews.last === a)
        root.insertSubview(b, belowSubview: c)
        #expect(root.subviews.first === b && other.subviews.isEmpty)
        #expect(a.isDescendant(of: root) && !root.isDescendant(of: a))
        a.tag = 7
        #expect(root.viewWithTag(7) === a)
        #expect(root.viewWithTag(8) == nil)
    }

    @Test func tintIsInheritedUntilSet() {
        final class Watcher: UIView {
            var changes = 0
            override func tintColorDidChange() { changes += 1 }
        }
        let root = UIView()
        let child = Watcher()
        #expect(root.tintColor == .systemBlue)
        root.addSubview(child)
        root.tintColor = .red
        #expect(child.tintColor == .red)
        #expect(child.changes == 1)
        child.tintColor = .green
        root.tintColor = .blue
        #expect(child.tintColor == .green)
        child.tintColor = nil
        #expect(child.tintColor == .blue)
        child.removeFromSuperview()
        #expect(child.tintColor == .systemBlue)
    }

    @Test func convertBetweenViews() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let a = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 100))
        let b = UIView(frame: CGRect(x: 5, y: 5, width: 50, height: 50))
        root.addSubview(a)
        a.addSubview(b)
        #expect(b.convert(CGPoint(x: 1, y: 2), to: root) == CGPoint(x: 16, y: 27))
        #expect(root.convert(CGPoint(x: 16, y: 27), to: b) == CGPoint(x: 1, y: 2))
        #expect(b.convert(CGPoint(x: 1, y: 2), from: nil) == CGPoint(x: -14, y: -23))
        a.transform = CGAffineTransform(scaleX: 2, y: 2)  // about a's centre (60, 70)
        // b's point (0, 0) is a's (5, 5): 45 left of and 45 above a's centre (50, 50), doubled.
        #expect(b.convert(CGPoint.zero, to: root) == CGPoint(x: 60 - 90, y: 70 - 90))
    }

    @Test func layoutRunsOnceWhenNeeded() {
        final class Stack: UIView {
            var passes = 0
            override func layoutSubviews() {
                passes += 1
                for (i, sub) in subviews.enumerated() {
                    sub.frame = CGRect(
                        x: 0, y: CGFloat(i) * bounds.height / 2, width: bounds.width, height: bounds.height / 2)
                }
            }
        }
        let stack = Stack(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        let top = UIView()
        let bottom = UIView()
        stack.addSubview(top)
        stack.addSubview(bottom)
        stack.layoutIfNeeded()
        stack.layoutIfNeeded()
        #expect(stack.passes == 1)
        #expect(bottom.frame == CGRect(x: 0, y: 20, width: 40, height: 20))
        stack.bounds.size = CGSize(width: 40, height: 100)
        _ = stack.renderImage(scale: 1)
        #expect(stack.passes == 2)
        #expect(bottom.frame == CGRect(x: 0, y: 50, width: 40, height: 50))
    }

    @Test func sizeToFitUsesSizeThatFits() {
        _ = pinFonts
        let image = UIImageView(image: makeHouseImage())
        image.frame = CGRect(x: 5, y: 5, width: 1, height: 1)
        image.sizeToFit()
        #expect(image.frame == CGRect(x: 5, y: 5, width: 24, height: 24))
        let plain = UIView(frame: CGRect(x: 0, y: 0, width: 3, height: 4))
        #expect(plain.sizeThatFits(CGSize(width: 100, height: 100)) == CGSize(width: 3, height: 4))
    }

    @Test func setNeedsDisplayIsClearedByRendering() {
        _ = installManualClock()
        let v = UIView(frame: CGRect(x: 0, y: 0, width: 2, height: 2))
        v.setNeedsDisplay()
        #expect(v.layer.needsDisplay())
        _ = v.renderImage(scale: 1)
        #expect(!v.layer.needsDisplay())
    }

    @Test func viewControllerLoadsItsViewOnce() {
        final class Controller: UIViewController {
            var events: [String] = []
            override func loadView() {
                events.append("loadView")
                let v = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                v.tag = 42
                view = v
            }
            override func viewDidLoad() {
                super.viewDidLoad()
                events.append("viewDidLoad \(view.tag)")
            }
        }
        let c = Controller()
        #expect(!c.isViewLoaded && c.viewIfLoaded == nil)
        #expect(c.view.tag == 42)
        _ = c.view
        c.loadViewIfNeeded()
        #expect(c.events == ["loadView", "viewDidLoad 42"])
        #expect(c.isViewLoaded)
        let plain = UIViewController()
        plain.loadViewIfNeeded()
        #expect(plain.view.bounds.size == UIScreen.main.bounds.size)
    }
}

@MainActor @Suite struct UILabelTests {
    @Test func singleLineSizeAndTruncation() {
        _ = pinFonts
        let label = UILabel()
        label.font = .systemFont(ofSize: 20)
        label.text = "Hello"
        let natural = label.sizeThatFits(.zero)
        // One line is one line height of DejaVu Sans 20 pt (≈ 23.3 pt) tall, rounded up.
        #expect(natural.height == 24)
        #expect(natural.width > 40 && natural.width < 70)
        label.text = "Hello, this line is far too long for a narrow label"
        #expect(label.sizeThatFits(CGSize(width: 50, height: 100)).width <= 50)
        label.text = nil
        #expect(label.sizeThatFits(.zero) == .zero)
    }

    @Test func numberOfLinesLimitsHeight() {
        _ = pinFonts
        let label = UILabel()
        label.font = .systemFont(ofSize: 10)
        label.text = String(repeating: "word ", count: 80)
        label.numberOfLines = 0
        let all = label.sizeThatFits(CGSize(width: 60, height: CGFloat.infinity))
        label.numberOfLines = 2
        let two = label.sizeThatFits(CGSize(width: 60, height: CGFloat.infinity))
        #expect(two.height == (2 * UIFont.systemFont(ofSize: 10).lineHeight).rounded(.up))
        #expect(all.height > 10 * two.height / 2)
    }

    @Test func alignmentMovesTheText() {
        _ = installManualClock()
        func inkColumns(_ alignment: NSTextAlignment) -> (Int, Int) {
            let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 20))
            label.text = "ab"
            label.textAlignment = alignment
            let image = label.renderImage(scale: 1)
            let columns = (0..<120).filter { x in (0..<20).contains { pixel(image, x, $0).a > 100 } }
            return (columns.first ?? -1, columns.last ?? -1)
        }
        let left = inkColumns(.left)
        let center = inkColumns(.center)
        let right = inkColumns(.right)
        #expect(left.0 <= 2)
        #expect(right.1 >= 117)
        #expect(abs((center.0 + center.1) - 120) <= 3)
    }

    @Test func attributedRunsUseTheirColour() {
        _ = installManualClock()
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 30))
        label.font = .boldSystemFont(ofSize: 24)
        let text = NSMutableAttributedString(string: "██")
        text.addAttribute(.foregroundColor, value: UIColor.red, range: NSRange(location: 0, length: 1))
        text.addAttribute(.foregroundColor, value: UIColor.blue, range: NSRange(location: 1, length: 1))
        label.attributedText = text
        #expect(label.text == "██")
        let image = label.renderImage(scale: 1)
        var reds = 0
        var blues = 0
        for x in 0..<100 {
            let p = pixel(image, x, 15)
            if pixelMatches(p, 255, 0, 0, 255) { reds += 1 }
            if pixelMatches(p, 0, 0, 255, 255) { blues += 1 }
        }
        #expect(reds > 5 && blues > 5)
    }
}

@MainActor @Suite struct GraphicsContextTests {
    @Test func beginImageContextDrawsAndEnds() throws {
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 10, height: 10), false, 2)
        let context = try #require(UIGraphicsGetCurrentContext())
        context.setFillColor(UIColor.blue.cgColor)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
        let image = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        #expect(image.size == CGSize(width: 10, height: 10) && image.scale == 2)
        #expect(pixelMatches(pixel(image, 9, 5), 0, 0, 255, 255))
        #expect(pixel(image, 10, 5).a == 0)
    }

    @Test func arcsStrokesAndTransforms() {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40)).image { ctx in
            let cg = ctx.cgContext
            cg.saveGState()
            cg.translateBy(x: 20, y: 20)
            cg.setFillColor(UIColor.red.cgColor)
            // Upper half-disc: from π to 2π with increasing angle (clockwise: false).
            cg.move(to: .zero)
            cg.addArc(center: .zero, radius: 10, startAngle: .pi, endAngle: 2 * .pi, clockwise: false)
            cg.closePath()
            cg.fillPath()
            cg.restoreGState()
            cg.setStrokeColor(UIColor.green.cgColor)
            cg.setLineWidth(2)
            cg.stroke(CGRect(x: 1, y: 1, width: 38, height: 38))
            #expect(ctx.cgContext.ctm == .identity)
        }
        #expect(pixelMatches(pixel(image, 20, 15), 255, 0, 0, 255))
        #expect(pixel(image, 20, 25).a == 0)
        #expect(pixelMatches(pixel(image, 1, 20), 0, 255, 0, 255))
    }
}

/// Code in the shape the Maps guides use (a view controller building a tinted template icon view and animating its
/// tint), compiled against LinuxUIKit with only the UIKit names.
@MainActor @Suite struct GuideShapedCodeTests {
    final class IconController: UIViewController {
        var iconView: UIImageView?
        override func loadView() {
            view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        }
        override func viewDidLoad() {
            super.viewDidLoad()
            let template = makeHouseImage().withRenderingMode(.alwaysTemplate)
            let icon = UIImageView(image: template)
            icon.tintColor = .red
            view.addSubview(icon)
            iconView = icon
        }
        func cameraBecameIdle() {
            UIView.animate(
                withDuration: 5.0,
                animations: { () -> Void in
                    self.iconView?.tintColor = .blue
                })
        }
    }

    @Test func guideShapedControllerAnimatesItsIcon() throws {
        let clock = installManualClock()
        let controller = IconController()
        controller.loadViewIfNeeded()
        controller.cameraBecameIdle()
        let icon = try #require(controller.iconView)
        clock.advance(by: 5)
        UIAnimator.shared.tick()
        #expect(pixelMatches(pixel(icon.renderImage(scale: 1), 12, 16), 0, 0, 255, 255))
    }
}

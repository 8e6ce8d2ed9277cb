import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// A view's drawn content kept between frames until `setNeedsDisplay()` (issue 30's map screen chrome), as a layer's
/// backing store on iOS.
@MainActor @Suite struct ContentCacheTests {
    /// The number of pixels whose straight RGBA bytes differ by more than `tolerance` between two same-size images.
    private func differingPixels(_ a: UIImage, _ b: UIImage, tolerance: Int = 0) -> Int {
        let w = a.bitmaps[0].width
        let h = a.bitmaps[0].height
        guard w == b.bitmaps[0].width, h == b.bitmaps[0].height else { return -1 }
        var count = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = pixel(a, x, y)
                if !pixelMatches(pixel(b, x, y), p.r, p.g, p.b, p.a, tolerance: tolerance) { count += 1 }
            }
        }
        return count
    }

    /// `root` rendered with every view's content drawn directly (no content kept or used).
    private func renderedDirectly(_ root: UIView, scale: CGFloat) -> UIImage {
        CALayer.offscreenDepth += 1
        defer { CALayer.offscreenDepth -= 1 }
        return root.renderImage(scale: scale)
    }

    /// A screen's chrome: a label, a segmented control, a switch, a slider, a stepper, a button and an image, some
    /// at fractional positions, over a white root.
    private func makeChrome() -> UIView {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
        root.backgroundColor = .white
        let label = UILabel(frame: CGRect(x: 10.25, y: 8.5, width: 140, height: 24))
        label.text = "Zoom 16 · Helsinki"
        let segments = UISegmentedControl(items: ["Light", "Dark", "System"])
        segments.frame = CGRect(x: 160, y: 8, width: 150, height: 30)
        segments.selectedSegmentIndex = 1
        let toggle = UISwitch(frame: CGRect(x: 10.5, y: 50, width: 51, height: 31))
        toggle.isOn = true
        let slider = UISlider(frame: CGRect(x: 70, y: 50.75, width: 120, height: 30))
        slider.value = 0.3
        let stepper = UIStepper(frame: CGRect(x: 200, y: 50, width: 94, height: 32))
        let button = UIButton(type: .system)
        button.setTitle("Reset", for: .normal)
        button.frame = CGRect(x: 10, y: 100.33, width: 80, height: 32)
        let image = UIImageView(image: UIImage(systemName: "location.fill"))
        image.frame = CGRect(x: 100, y: 100, width: 24, height: 24)
        for view in [label, segments, toggle, slider, stepper, button, image] as [UIView] { root.addSubview(view) }
        return root
    }

    @Test func keptContentGivesTheSamePixelsAsDrawingDirectly() {
        _ = installManualClock()
        for scale in [1, 2] as [CGFloat] {
            let root = makeChrome()
            let direct = renderedDirectly(root, scale: scale)
            let first = root.renderImage(scale: scale)  // made and composited
            let second = root.renderImage(scale: scale)  // composited from the kept content
            let builds = root.subviews.map(\.layer.contentBuilds)
            #expect(builds.allSatisfy { $0 == 1 })
            #expect(differingPixels(first, second) == 0)
            // Drawing into the kept bitmap and compositing it rounds twice where direct drawing rounds once: a
            // level or two at antialiased edges (the tinted template image's diagonal) and a level over translucent
            // fills (iOS's tertiarySystemFill tracks, 12 % opaque), nowhere more.
            #expect(differingPixels(direct, second, tolerance: 2) == 0)
            #expect(Double(differingPixels(direct, second, tolerance: 1)) < 0.002 * 320 * 200 * Double(scale * scale))
            // The chrome is drawn (the comparison is not between two blank images).
            let blank = UIView(frame: root.bounds)
            blank.backgroundColor = .white
            #expect(differingPixels(direct, renderedDirectly(blank, scale: scale)) > 1000)
        }
    }

    @Test func contentIsDrawnOnceUntilSetNeedsDisplay() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
        let view = FillView(frame: CGRect(x: 20, y: 10, width: 40, height: 30))
        root.addSubview(view)
        for _ in 0..<3 { _ = root.renderImage(scale: 2) }
        #expect(view.draws == 1)
        #expect(view.layer.contentBuilds == 1)
        // What the view draws changes only when it says so, as on iOS.
        view.color = .blue
        #expect(pixel(root.renderImage(scale: 2), 80, 40).r == 255)
        #expect(view.draws == 1)
        view.setNeedsDisplay()
        let blue = root.renderImage(scale: 2)
        #expect(view.draws == 2)
        #expect(pixelMatches(pixel(blue, 80, 40), 0, 0, 255, 255))
        // A new size draws again; a move by whole pixels does not.
        view.frame.size.width = 50
        _ = root.renderImage(scale: 2)
        #expect(view.draws == 3)
        view.frame.origin.x += 3
        let moved = root.renderImage(scale: 2)
        #expect(view.draws == 3)
        #expect(pixel(moved, 2 * 22, 40).a == 0)
        #expect(pixelMatches(pixel(moved, 2 * 24, 40), 0, 0, 255, 255))
        // Another scale draws again.
        _ = root.renderImage(scale: 1)
        #expect(view.draws == 4)
    }

    @Test func traitChangeDrawsDynamicContentAgain() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
        root.overrideUserInterfaceStyle = .light
        let view = FillView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        view.color = .label
        root.addSubview(view)
        let light = root.renderImage(scale: 1)
        #expect(pixelMatches(pixel(light, 30, 30), 0, 0, 0, 255))
        root.overrideUserInterfaceStyle = .dark
        let dark = root.renderImage(scale: 1)
        #expect(view.draws == 2)
        #expect(pixelMatches(pixel(dark, 30, 30), 255, 255, 255, 255))
        _ = root.renderImage(scale: 1)
        #expect(view.draws == 2)
    }

    @Test func animationsOnTheHostClockStillShow() {
        let clock = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 60))
        let view = FillView(frame: CGRect(x: 0, y: 10, width: 40, height: 40))
        root.addSubview(view)
        _ = root.renderImage(scale: 1)
        UIView.animate(
            withDuration: 1, delay: 0, options: .curveLinear,
            animations: {
                view.center.x += 100
                view.alpha = 0.5
            })
        clock.advance(by: 0.5)
        let half = root.renderImage(scale: 1)
        // Half way: 50 points along, three quarters opaque.
        #expect(pixel(half, 10, 30).a == 0)
        #expect(abs(pixel(half, 60, 30).a - 191) <= 1)
        clock.advance(by: 0.5)
        UIAnimator.shared.tick()
        let end = root.renderImage(scale: 1)
        #expect(pixel(end, 60, 30).a == 0)
        #expect(abs(pixel(end, 120, 30).a - 128) <= 1)
        // Moving by whole points, the content was drawn once.
        #expect(view.draws == 1)
        // A tint animation above the view may change what it draws: drawn directly while it runs.
        UIView.animate(withDuration: 1, animations: { root.tintColor = .red })
        clock.advance(by: 0.25)
        _ = root.renderImage(scale: 1)
        clock.advance(by: 0.25)
        _ = root.renderImage(scale: 1)
        #expect(view.draws == 3)
        #expect(view.layer.contentCache == nil)
    }

    @Test func movingByFractionsOfAPixelDrawsDirectly() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 60))
        let view = FillView(frame: CGRect(x: 0, y: 10, width: 40, height: 40))
        root.addSubview(view)
        for step in 0..<6 {
            view.frame.origin.x = 0.3 * CGFloat(step)
            _ = root.renderImage(scale: 1)
        }
        // Made on the first frame and again on the second, then drawn directly while it keeps moving (each frame a
        // new sub-pixel offset).
        #expect(view.layer.contentBuilds == 2)
        #expect(view.draws == 6)
        // Still for a frame: kept again.
        _ = root.renderImage(scale: 1)
        _ = root.renderImage(scale: 1)
        #expect(view.layer.contentBuilds == 3)
        #expect(view.draws == 7)
    }

    @Test func frameDrivenAnimatedAndOverflowingContentIsDrawnEachFrame() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 120))
        let ticking = TickingFillView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        let overflowing = FillView(frame: CGRect(x: 50, y: 50, width: 20, height: 20))
        overflowing.overflow = 20
        root.addSubview(ticking)
        root.addSubview(overflowing)
        let first = root.renderImage(scale: 1)
        _ = root.renderImage(scale: 1)
        #expect(ticking.draws == 2)
        #expect(ticking.layer.contentCache == nil)
        // Content reaching 20 points outside the bounds is drawn directly, all of it.
        #expect(overflowing.draws == 3)  // tried into a bitmap once, then directly on both frames
        #expect(overflowing.layer.contentBuilds == 1)
        #expect(pixel(first, 35, 60).r == 255)
        // An animated image follows the clock.
        let frames = [UIColor.red, .blue].map { color in
            UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4)).image { context in
                color.setFill()
                context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
            }
        }
        let images = UIImageView(frame: CGRect(x: 0, y: 60, width: 4, height: 4))
        images.animationImages = frames
        images.animationDuration = 2
        images.startAnimating()
        root.addSubview(images)
        _ = root.renderImage(scale: 1)
        #expect(images.layer.contentCache == nil)
    }

    @Test func memoryIsBounded() {
        _ = installManualClock()
        // Too large a side is never kept (4096 device pixels), though drawn.
        let big = FillView(frame: CGRect(x: 0, y: 0, width: 2100, height: 20))
        let image = big.renderImage(scale: 2)
        #expect(big.layer.contentCache == nil)
        #expect(pixel(image, 4000, 20).r == 255)
        // A view that draws nothing keeps no bitmap; a drawn view keeps only the pixels it inked.
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let small = FillView(frame: CGRect(x: 100, y: 100, width: 10, height: 10))
        root.addSubview(small)
        let before = ContentCache.bytesHeld
        _ = root.renderImage(scale: 1)
        if case .empty = root.layer.contentCache?.content {
        } else {
            Issue.record("an empty view keeps a bitmap")
        }
        #expect(ContentCache.bytesHeld - before == 10 * 10 * 4)
        #expect(ContentCache.bytesHeld <= ContentCache.budgetBytes)
    }
}

/// A view that fills its bounds (and `overflow` points around them) with `color`, counting `draw(_:)` calls.
@MainActor private class FillView: UIView {
    var draws = 0
    var color = UIColor.red
    var overflow: CGFloat = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        draws += 1
        color.setFill()
        UIRectFill(rect.insetBy(dx: -overflow, dy: -overflow))
    }
}

/// A frame-driven view (as the map is): never kept.
@MainActor private final class TickingFillView: FillView, UIFrameTicking {
    var needsFrames: Bool { false }
    var isLoading: Bool { false }
    func tickFrame() {}
}

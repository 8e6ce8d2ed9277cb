import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// Layer shadows: `shadowPath`, and the blurred mask kept between frames (issue 30's shadowed panel over a map).
@MainActor @Suite struct ShadowCacheTests {
    /// A white rounded card with a label, shadowed (radius 8), on a 160 × 140 clear root.
    private func makeCard() -> (root: UIView, card: UIView, label: UILabel) {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 160, height: 140))
        let card = UIView(frame: CGRect(x: 24, y: 20, width: 100, height: 70))
        card.backgroundColor = .white
        card.layer.cornerRadius = 12
        card.layer.shadowColor = UIColor.black.cgColor
        card.layer.shadowOpacity = 0.5
        card.layer.shadowRadius = 8
        card.layer.shadowOffset = CGSize(width: 0, height: 4)
        let label = UILabel(frame: CGRect(x: 8, y: 8, width: 84, height: 20))
        label.text = "Panel"
        card.addSubview(label)
        root.addSubview(card)
        return (root, card, label)
    }

    /// The number of pixels whose straight RGBA bytes differ between two images of the same size.
    private func differingPixels(_ a: UIImage, _ b: UIImage) -> Int {
        let w = a.bitmaps[0].width
        let h = a.bitmaps[0].height
        guard w == b.bitmaps[0].width, h == b.bitmaps[0].height else { return -1 }
        var count = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = pixel(a, x, y)
                if !pixelMatches(pixel(b, x, y), p.r, p.g, p.b, p.a, tolerance: 0) { count += 1 }
            }
        }
        return count
    }

    @Test func cachedShadowIsTheSameImageAsADrawnOne() {
        _ = installManualClock()
        let (root, card, _) = makeCard()
        let first = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 1)
        let cached = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 1)
        // A fresh, identical tree (nothing cached) draws the same pixels.
        let (freshRoot, freshCard, _) = makeCard()
        let fresh = freshRoot.renderImage(scale: 2)
        #expect(freshCard.layer.shadowMaskBuilds == 1)
        #expect(differingPixels(first, cached) == 0)
        #expect(differingPixels(fresh, cached) == 0)
        // The shadow is there: below the card (y 90 pt … 98 pt), dark and partly transparent.
        let below = pixel(cached, 2 * 74, 2 * 94)
        #expect(below.a > 10 && below.a < 128 && below.r == 0)
        // The panel moving keeps the mask (its own position is outside it); the shadow moves with it.
        card.frame.origin.x += 10
        let moved = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 1)
        #expect(pixelMatches(pixel(moved, 2 * 84, 2 * 94), below.r, below.g, below.b, below.a, tolerance: 0))
    }

    @Test func shadowPathDrawsThePathsShadowWithoutTheContent() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 120))
        let counter = DrawCounter(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
        counter.backgroundColor = .clear
        counter.layer.shadowOpacity = 1
        counter.layer.shadowRadius = 4
        counter.layer.shadowOffset = .zero
        root.addSubview(counter)
        // A clear view with no path has no shadow.
        let none = root.renderImage(scale: 1)
        #expect(pixel(none, 40, 40).a == 0)
        #expect(counter.draws == 2)  // content, and the silhouette

        // The shadow of a rectangle below the view (layer space y 50…70 → root 70…90), not of its bounds.
        counter.layer.shadowPath = UIBezierPath(rect: CGRect(x: 0, y: 50, width: 40, height: 20)).cgPath
        let image = root.renderImage(scale: 1)
        // Neither drawn again: the path is the shadow's shape, and the content is kept (no setNeedsDisplay).
        #expect(counter.draws == 2)
        #expect(pixel(image, 40, 80).a > 200)
        #expect(pixel(image, 40, 40).a == 0)
        #expect(pixel(image, 40, 100).a == 0)
        // The same as a plain view's path-shaped content shadow: a black 40 × 20 box there.
        let reference = UIView(frame: root.bounds)
        let box = UIView(frame: CGRect(x: 20, y: 70, width: 40, height: 20))
        box.backgroundColor = .black
        box.layer.shadowOpacity = 1
        box.layer.shadowRadius = 4
        box.layer.shadowOffset = .zero
        reference.addSubview(box)
        let referenceImage = reference.renderImage(scale: 1)
        for x in stride(from: 10, to: 70, by: 3) {
            // Outside the box both show only the shadow; compare alpha there.
            #expect(pixel(image, x, 66).a == pixel(referenceImage, x, 66).a)
            #expect(pixel(image, x, 93).a == pixel(referenceImage, x, 93).a)
        }
        // Equal paths keep the mask; the path made again from a new UIBezierPath is equal.
        counter.layer.shadowPath = UIBezierPath(rect: CGRect(x: 0, y: 50, width: 40, height: 20)).cgPath
        _ = root.renderImage(scale: 1)
        #expect(counter.layer.shadowMaskBuilds == 2)
        counter.layer.shadowPath = CGPath(
            roundedRect: CGRect(x: 0, y: 50, width: 40, height: 20), cornerWidth: 6, cornerHeight: 6,
            transform: nil)
        _ = root.renderImage(scale: 1)
        #expect(counter.layer.shadowMaskBuilds == 3)
    }

    @Test func maskIsMadeAgainWhenContentOrShadowChanges() {
        _ = installManualClock()
        let (root, card, label) = makeCard()
        _ = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 1)
        // A subview's content (setNeedsDisplay through the label's text).
        label.text = "Changed"
        _ = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 2)
        // A subview's layer property.
        label.backgroundColor = .red
        _ = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 3)
        // A new subview.
        card.addSubview(UIView(frame: CGRect(x: 90, y: 60, width: 20, height: 20)))
        _ = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 4)
        // The shadow radius and the scale.
        card.layer.shadowRadius = 4
        _ = root.renderImage(scale: 2)
        #expect(card.layer.shadowMaskBuilds == 5)
        _ = root.renderImage(scale: 1)
        #expect(card.layer.shadowMaskBuilds == 6)
        // The card's own size.
        card.frame.size.width = 90
        _ = root.renderImage(scale: 1)
        #expect(card.layer.shadowMaskBuilds == 7)
        // Colour, opacity and offset are applied when compositing: the same mask, a different image.
        let before = root.renderImage(scale: 1)
        card.layer.shadowColor = UIColor.red.cgColor
        card.layer.shadowOffset = CGSize(width: 0, height: 8)
        card.layer.shadowOpacity = 1
        let after = root.renderImage(scale: 1)
        #expect(card.layer.shadowMaskBuilds == 7)
        #expect(pixel(before, 60, 94).r == 0)
        #expect(pixel(after, 60, 94).r > 200)
        #expect(differingPixels(before, after) > 100)
        // A cached mask after these changes is still what a fresh drawing gives.
        card.layer.shadowCache = nil
        #expect(differingPixels(after, root.renderImage(scale: 1)) == 0)
        #expect(card.layer.shadowMaskBuilds == 8)
    }

    @Test func siblingMapChangingEveryFrameKeepsThePanelsShadow() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 300))
        let map = ChangingMapStandIn(frame: root.bounds)
        root.addSubview(map)
        let (_, card, _) = makeCard()
        card.removeFromSuperview()
        card.frame.origin = CGPoint(x: 20, y: 200)
        root.addSubview(card)
        UIApplication.shared.resetForNextRun()
        let host = UIHeadlessHost(view: root, scale: 2)
        defer {
            host.terminate()
            UIScreen.main.scale = 1  // the host set the shared screen's scale; other suites expect 1
        }
        host.advance(by: UIHeadlessHost.frameInterval)
        let builds = card.layer.shadowMaskBuilds
        let draws = map.draws
        #expect(builds == 1)
        host.advance(by: 10 * UIHeadlessHost.frameInterval)
        #expect(map.draws >= draws + 10)
        #expect(card.layer.shadowMaskBuilds == builds)
        // The map's last colour shows (the frame was drawn), with the panel's shadow over it.
        let shown = pixel(host.snapshot(), 2 * 10, 2 * 10)
        #expect(abs(Double(shown.r) - Double(map.color.red) * 255) <= 2)
        #expect(card.layer.shadowMaskBuilds == builds)
    }
}

/// A view that counts its `draw(_:)` calls.
@MainActor private final class DrawCounter: UIView {
    var draws = 0
    override func draw(_ rect: CGRect) { draws += 1 }
}

/// Stands in for a map: a frame-driven view whose colour changes on every frame tick (`setNeedsDisplay`).
@MainActor private final class ChangingMapStandIn: UIView, UIFrameTicking {
    var draws = 0
    var step = 0
    var color = UIColor(red: 0, green: 0, blue: 0, alpha: 1)
    var needsFrames: Bool { true }
    var isLoading: Bool { false }
    func tickFrame() {
        step += 1
        color = UIColor(red: CGFloat(step % 50) / 50, green: 0.5, blue: 0.25, alpha: 1)
        setNeedsDisplay()
    }
    override func draw(_ rect: CGRect) {
        draws += 1
        color.setFill()
        UIRectFill(rect)
    }
}

/// `shouldRasterize`: the layer drawn once into a bitmap and reused.
@MainActor @Suite struct RasterizeTests {
    @Test func rasterizedLayerIsDrawnOnceAndMatchesDirectDrawing() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 120))
        let view = DrawCounter(frame: CGRect(x: 20, y: 20, width: 60, height: 50))
        view.backgroundColor = .yellow
        view.layer.cornerRadius = 8
        view.layer.shadowOpacity = 0.5
        view.layer.shadowRadius = 4
        view.layer.shadowOffset = CGSize(width: 0, height: 3)
        root.addSubview(view)
        let direct = root.renderImage(scale: 2)
        #expect(view.draws == 2)  // content and silhouette
        view.layer.shouldRasterize = true
        view.layer.rasterizationScale = 2
        let first = root.renderImage(scale: 2)
        let second = root.renderImage(scale: 2)
        #expect(view.layer.rasterBuilds == 1)
        #expect(view.draws == 3)  // the content once more, into the bitmap; the shadow mask was kept
        var differing = 0
        for y in 0..<240 {
            for x in 0..<240 {
                let p = pixel(direct, x, y)
                if !pixelMatches(pixel(first, x, y), p.r, p.g, p.b, p.a, tolerance: 1) { differing += 1 }
                if !pixelMatches(pixel(second, x, y), p.r, p.g, p.b, p.a, tolerance: 1) { differing += 1 }
            }
        }
        #expect(differing == 0)
        // Moving keeps the bitmap; new content or a new shadow radius makes it again.
        view.frame.origin.x += 5
        _ = root.renderImage(scale: 2)
        #expect(view.layer.rasterBuilds == 1)
        view.setNeedsDisplay()
        _ = root.renderImage(scale: 2)
        #expect(view.layer.rasterBuilds == 2)
        #expect(view.draws == 5)  // into the bitmap, and the silhouette: the content changed
        view.layer.shadowRadius = 6
        _ = root.renderImage(scale: 2)
        #expect(view.layer.rasterBuilds == 3)
        // At the default rasterization scale (1) the bitmap is coarser than a scale-2 frame but still drawn.
        view.layer.rasterizationScale = 1
        let coarse = root.renderImage(scale: 2)
        #expect(view.layer.rasterBuilds == 4)
        #expect(pixelMatches(pixel(coarse, 2 * 55, 2 * 45), 255, 255, 0, 255))
    }
}

import Foundation
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// View trees rendered to images and compared with golden PNGs, plus hand-checked pixels.
@MainActor @Suite struct RenderingTests {
    @Test func templateImageTintedRedThenBlue() {
        _ = installManualClock()
        let house = makeHouseImage(scale: 2).withRenderingMode(.alwaysTemplate)
        #expect(house.size == CGSize(width: 24, height: 24))
        let view = UIImageView(image: house)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 24, height: 24))
        view.tintColor = .red
        let red = view.renderImage(scale: 2)
        #expect(red.size == CGSize(width: 24, height: 24))
        #expect(red.scale == 2)
        // Inside the body (point 12, 16 → pixel 24, 32): pure tint; outside the house: transparent.
        #expect(pixelMatches(pixel(red, 24, 32), 255, 0, 0, 255))
        #expect(pixel(red, 2, 40).a == 0)
        expectMatchesGolden(red, named: "template-house-red")

        view.tintColor = .blue
        let blue = view.renderImage(scale: 2)
        #expect(pixelMatches(pixel(blue, 24, 32), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(blue, 24, 10), 0, 0, 255, 255))  // roof, point (12, 5)
        expectMatchesGolden(blue, named: "template-house-blue")
    }

    @Test func templateImageInheritsTintFromSuperview() {
        _ = installManualClock()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 24, height: 24))
        container.tintColor = .green
        let view = UIImageView(image: makeHouseImage().withRenderingMode(.alwaysTemplate))
        container.addSubview(view)
        #expect(view.tintColor == .green)
        #expect(pixelMatches(pixel(container.renderImage(scale: 1), 12, 16), 0, 255, 0, 255))
        // An original-mode image ignores the tint and keeps its black pixels.
        view.image = makeHouseImage()
        #expect(pixelMatches(pixel(container.renderImage(scale: 1), 12, 16), 0, 0, 0, 255))
    }

    @Test func roundedBorderedViewWithShadow() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 100))
        let card = UIView(frame: CGRect(x: 20, y: 15, width: 80, height: 60))
        card.backgroundColor = .white
        card.layer.cornerRadius = 12
        card.layer.borderWidth = 3
        card.layer.borderColor = UIColor.blue.cgColor
        card.layer.shadowColor = UIColor.black.cgColor
        card.layer.shadowOpacity = 0.5
        card.layer.shadowOffset = CGSize(width: 4, height: 6)
        card.layer.shadowRadius = 6
        root.addSubview(card)
        let image = root.renderImage(scale: 1)
        // Middle of the top border: the border colour; centre: the white background.
        #expect(pixelMatches(pixel(image, 60, 16), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(image, 60, 45), 255, 255, 255, 255))
        // The rounded corner leaves the rectangle's corner pixel uncovered by the card (only faint shadow there).
        #expect(pixel(image, 20, 15).a < 60)
        // Below the card: the offset shadow, black and partly transparent; far above it: nothing.
        let below = pixel(image, 60, 78)
        #expect(below.a > 40 && below.a < 128 && below.r == 0)
        #expect(pixel(image, 60, 3).a == 0)
        expectMatchesGolden(image, named: "rounded-border-shadow")
    }

    @Test func masksToBoundsRemovesTheShadow() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
        let card = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
        card.backgroundColor = .white
        card.layer.shadowOpacity = 1
        card.layer.shadowOffset = CGSize(width: 0, height: 10)
        card.clipsToBounds = true
        root.addSubview(card)
        #expect(pixel(root.renderImage(scale: 1), 25, 45).a == 0)
        card.clipsToBounds = false
        #expect(pixel(root.renderImage(scale: 1), 25, 45).a > 0)
    }

    @Test func labelWrapsToThreeLinesWithEllipsis() {
        _ = installManualClock()
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 160, height: 70))
        label.font = .systemFont(ofSize: 14)
        label.textColor = .black
        label.backgroundColor = .white
        label.numberOfLines = 3
        label.text =
            "The quick brown fox jumps over the lazy dog while the map keeps rendering every marker and label "
            + "in this very long info window snippet."
        let layout = TextLayout.layout(
            TextLayout.Request(
                text: NSAttributedString(string: label.text ?? ""), font: label.font, color: .black,
                alignment: .natural, numberOfLines: 3, lineBreakMode: .byTruncatingTail, width: 160, height: nil),
            canvas: nil)
        #expect(layout.lineCount == 3)
        #expect(layout.isEllipsized)
        // Three lines of DejaVu Sans 14 pt: line height ≈ 1.164 em ≈ 16.3 pt each.
        let fitted = label.sizeThatFits(CGSize(width: 160, height: 1000))
        #expect(fitted.height >= 3 * 16 && fitted.height <= 3 * 17 + 1)
        #expect(fitted.width <= 160)

        let image = label.renderImage(scale: 1)
        // Count the bands of rows that contain dark (text) pixels: exactly three lines.
        var bands = 0
        var inBand = false
        for y in 0..<70 {
            let dark = (0..<160).contains { pixel(image, $0, y).r < 100 }
            if dark && !inBand { bands += 1 }
            inBand = dark
        }
        #expect(bands == 3)
        expectMatchesGolden(image, named: "label-three-lines-ellipsis")
    }

    @Test func transformedSubviewClippedByParent() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 140, height: 140))
        let parent = UIView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        parent.backgroundColor = .lightGray
        parent.clipsToBounds = true
        let child = UIView(frame: CGRect(x: 50, y: 15, width: 70, height: 70))
        child.backgroundColor = .red
        child.transform = CGAffineTransform(rotationAngle: .pi / 4)
        parent.addSubview(child)
        root.addSubview(parent)
        // The frame of a rotated view is the bounding box of its turned bounds: side 70·√2 about the same centre.
        let side = 70 * CGFloat(2).squareRoot()
        #expect(abs(child.frame.width - side) < 1e-9)
        #expect(child.center == CGPoint(x: 85, y: 50))
        let image = root.renderImage(scale: 1)
        // The turned square is the diamond |dx| + |dy| ≤ 49.5 about parent point (85, 50) = root point (105, 70).
        #expect(pixelMatches(pixel(image, 115, 70), 255, 0, 0, 255))  // dx = 10: inside, inside the parent
        #expect(pixelMatches(pixel(image, 60, 70), 255, 0, 0, 255))  // dx = -45
        #expect(pixelMatches(pixel(image, 105, 25), 255, 0, 0, 255))  // dy = -45
        #expect(pixelMatches(pixel(image, 60, 30), 170, 170, 170, 255))  // |dx| + |dy| = 85: parent grey (2/3 white)
        // Inside the diamond but outside the parent: clipped away.
        #expect(pixel(image, 125, 70).a == 0)
        #expect(pixel(image, 130, 70).a == 0)
        expectMatchesGolden(image, named: "transformed-subview-clipped")
    }

    @Test func alphaAndHiddenAffectTheSubtree() {
        _ = installManualClock()
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let child = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        child.backgroundColor = .black
        root.addSubview(child)
        child.alpha = 0.5
        #expect(abs(pixel(root.renderImage(scale: 1), 10, 10).a - 128) <= 1)
        child.isHidden = true
        #expect(pixel(root.renderImage(scale: 1), 10, 10).a == 0)
    }

    @Test func drawOverrideGetsACurrentContextInBoundsSpace() {
        _ = installManualClock()
        final class Dot: UIView {
            var drawnRect: CGRect?
            override func draw(_ rect: CGRect) {
                drawnRect = rect
                guard let context = UIGraphicsGetCurrentContext() else { return }
                context.setFillColor(UIColor.green.cgColor)
                context.fillEllipse(in: CGRect(x: 5, y: 5, width: 10, height: 10))
            }
        }
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        let dot = Dot(frame: CGRect(x: 20, y: 20, width: 20, height: 20))
        root.addSubview(dot)
        let image = root.renderImage(scale: 1)
        #expect(dot.drawnRect == CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(pixelMatches(pixel(image, 30, 30), 0, 255, 0, 255))
        #expect(pixel(image, 21, 21).a == 0)
        #expect(UIGraphicsGetCurrentContext() == nil)
    }

    @Test func layerRenderInRendererContextMatchesSnapshot() {
        _ = installManualClock()
        let view = UIView(frame: CGRect(x: 50, y: 50, width: 10, height: 10))
        view.backgroundColor = .red
        let image = UIGraphicsImageRenderer(size: view.bounds.size).image { context in
            view.layer.render(in: context.cgContext)
        }
        // The view's own position does not matter: its bounds start at the image origin.
        #expect(pixelMatches(pixel(image, 0, 0), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(image, 9, 9), 255, 0, 0, 255))
        let png = image.pngData()
        #expect(png?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    @Test func imageViewContentModes() {
        let bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        let size = CGSize(width: 20, height: 20)
        #expect(UIImageView.placement(of: size, in: bounds, mode: .scaleToFill) == bounds)
        #expect(
            UIImageView.placement(of: size, in: bounds, mode: .scaleAspectFit)
                == CGRect(x: 25, y: 0, width: 50, height: 50))
        #expect(
            UIImageView.placement(of: size, in: bounds, mode: .scaleAspectFill)
                == CGRect(x: 0, y: -25, width: 100, height: 100))
        #expect(
            UIImageView.placement(of: size, in: bounds, mode: .center) == CGRect(x: 40, y: 15, width: 20, height: 20))
        #expect(
            UIImageView.placement(of: size, in: bounds, mode: .bottomRight)
                == CGRect(x: 80, y: 30, width: 20, height: 20))
    }
}

import Foundation
import Synchronization
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

@Suite struct HSBColourTests {
    @Test(
        arguments: [
            (0.0, 1.0, 0.0, 0.0), (1.0 / 3, 0.0, 1.0, 0.0), (2.0 / 3, 0.0, 0.0, 1.0), (1.0 / 6, 1.0, 1.0, 0.0),
            (0.5, 0.0, 1.0, 1.0), (5.0 / 6, 1.0, 0.0, 1.0), (1.0, 1.0, 0.0, 0.0),
        ] as [(Double, Double, Double, Double)])
    func fullySaturatedHues(hue: Double, r: Double, g: Double, b: Double) {
        let c = UIColor(hue: CGFloat(hue), saturation: 1, brightness: 1, alpha: 1).rgba
        #expect(abs(c.red - CGFloat(r)) < 1e-9 && abs(c.green - CGFloat(g)) < 1e-9 && abs(c.blue - CGFloat(b)) < 1e-9)
    }

    @Test func saturationAndBrightness() {
        #expect(UIColor(hue: 0.3, saturation: 0, brightness: 0.4, alpha: 1).rgba == (0.4, 0.4, 0.4, 1))
        // Hue 0 (red) at half saturation, brightness 0.8: (0.8, 0.4, 0.4).
        let c = UIColor(hue: 0, saturation: 0.5, brightness: 0.8, alpha: 0.5).rgba
        #expect(abs(c.red - 0.8) < 1e-9 && abs(c.green - 0.4) < 1e-9 && abs(c.blue - 0.4) < 1e-9 && c.alpha == 0.5)
    }
}

@MainActor @Suite struct BezierPathTests {
    @Test func roundedRectGeometry() {
        let path = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), cornerRadius: 8)
        #expect(path.contains(CGPoint(x: 20, y: 10)))
        #expect(!path.contains(CGPoint(x: 0.5, y: 0.5)))  // cut off by the corner arc
        #expect(path.contains(CGPoint(x: 20, y: 0.5)))
        let box = path.bounds
        #expect(abs(box.width - 40) < 1e-9 && abs(box.height - 20) < 1e-9)
        let oval = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(oval.contains(CGPoint(x: 5, y: 5)) && !oval.contains(CGPoint(x: 0.6, y: 0.6)))
        #expect(UIBezierPath().bounds.isNull)
    }

    @Test func fillAndStrokeUseTheContextColours() {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 30, height: 30)).image { _ in
            UIColor.red.setFill()
            UIBezierPath(rect: CGRect(x: 0, y: 0, width: 30, height: 30)).fill()
            UIColor.blue.setStroke()
            let line = UIBezierPath()
            line.move(to: CGPoint(x: 0, y: 15))
            line.addLine(to: CGPoint(x: 30, y: 15))
            line.lineWidth = 4
            line.stroke()
            UIColor.green.set()
            UIRectFill(CGRect(x: 0, y: 0, width: 5, height: 5))
        }
        #expect(pixelMatches(pixel(image, 20, 5), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(image, 20, 14), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(image, 20, 16), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(image, 20, 18), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(image, 2, 2), 0, 255, 0, 255))
    }

    @Test func clusterStyleIconWithCentredCount() {
        _ = installManualClock()
        let paragraph = NSMutableParagraphStyle()
        paragraph.alignment = .center
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.boldSystemFont(ofSize: 14), .foregroundColor: UIColor.white, .paragraphStyle: paragraph,
        ]
        let text = "128"
        let textSize = text.size(withAttributes: attributes)
        // Three bold DejaVu digits at 14 pt: each 0.696 em wide; one line 1.164 em tall.
        #expect(abs(textSize.width - 3 * 0.696 * 14) < 1.5)
        #expect(abs(textSize.height - 1.164 * 14) < 1)
        let image = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40)).image { _ in
            UIColor.systemBlue.setFill()
            UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 40, height: 40)).fill()
            text.draw(
                in: CGRect(x: 0, y: (40 - textSize.height) / 2, width: 40, height: textSize.height),
                withAttributes: attributes)
        }
        // White ink lies in the middle band, symmetric about the centre column within a pixel or two.
        var inkColumns: [Int] = []
        for x in 0..<40
        where (0..<40).contains(where: { pixelMatches(pixel(image, x, $0), 255, 255, 255, 255, tolerance: 40) }) {
            inkColumns.append(x)
        }
        let first = inkColumns.first ?? 0
        let last = inkColumns.last ?? 0
        #expect(abs((first + last) - 39) <= 2)
        #expect(pixel(image, 1, 1).a == 0)
        expectMatchesGolden(image, named: "cluster-icon-text")
    }
}

@MainActor @Suite struct ImageDrawingTests {
    @Test func resizingAnIconThroughARenderer() {
        let house = makeHouseImage(scale: 2)
        let format = UIGraphicsImageRendererFormat.default()
        format.scale = 1
        let small = UIGraphicsImageRenderer(size: CGSize(width: 12, height: 12), format: format).image { _ in
            house.draw(in: CGRect(x: 0, y: 0, width: 12, height: 12))
        }
        #expect(small.size == CGSize(width: 12, height: 12) && small.scale == 1)
        // The body (points 4…20 × 11…22 of 24) halves to 2…10 × 5.5…11.
        #expect(pixelMatches(pixel(small, 6, 8), 0, 0, 0, 255))
        #expect(pixel(small, 0, 11).a == 0)
        let placed = UIGraphicsImageRenderer(size: CGSize(width: 30, height: 30), format: format).image { _ in
            house.draw(at: CGPoint(x: 6, y: 6))
        }
        #expect(pixelMatches(pixel(placed, 18, 22), 0, 0, 0, 255))
        #expect(pixel(placed, 3, 3).a == 0)
    }
}

@MainActor @Suite struct LaidOutTextTests {
    /// One layout, measured and drawn (twice, at two scales) gives exactly what `size(withAttributes:)` and
    /// `draw(at:withAttributes:)` give with a layout each.
    @Test func drawsAndMeasuresWhatTheStringDrawingCallsDo() {
        _ = installManualClock()
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.systemFont(ofSize: 11),
            .foregroundColor: UIColor(red: 0.37, green: 0.39, blue: 0.41, alpha: 1),
        ]
        let text = "© OpenStreetMap contributors"
        let line = LaidOutText(NSAttributedString(string: text, attributes: attributes))
        #expect(line.size == text.size(withAttributes: attributes))
        #expect(line.size.width > 100 && line.size.height > 10)
        for scale in [2.0, 1.0, 2.0] {
            let format = UIGraphicsImageRendererFormat()
            format.scale = CGFloat(scale)
            let size = CGSize(width: 200, height: 30)
            let once = UIGraphicsImageRenderer(size: size, format: format).image { _ in
                line.draw(at: CGPoint(x: 6.5, y: 7))
            }
            let twice = UIGraphicsImageRenderer(size: size, format: format).image { _ in
                text.draw(at: CGPoint(x: 6.5, y: 7), withAttributes: attributes)
            }
            #expect(once.pngData() == twice.pngData(), "scale \(scale)")
            #expect(once.pngData() != UIGraphicsImageRenderer(size: size, format: format).image { _ in }.pngData())
        }
    }
}

/// UIKit's image renderer, colours, paths and string drawing on any thread, each with its own current context, as a
/// `GMSSyncTileLayer` draws its tiles on the layer's thread.
@Suite struct OffMainDrawingTests {
    /// One colour per drawing: a square filled through `UIColor.setFill()` and `UIRectFill`, with a disc drawn in an
    /// image context begun inside the renderer's block (the thread's stack holds both, innermost first).
    static func drawing(_ k: Int) -> (image: UIImage, disc: UIImage?) {
        let colour = UIColor(red: CGFloat(k % 5) / 4, green: CGFloat(k % 3) / 2, blue: CGFloat(k % 2), alpha: 1)
        var disc: UIImage?
        let image = UIGraphicsImageRenderer(size: CGSize(width: 16, height: 16), format: .preferred()).image { _ in
            colour.setFill()
            UIGraphicsBeginImageContext(CGSize(width: 4, height: 4))
            UIColor.white.setFill()
            UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 4, height: 4)).fill()
            disc = UIGraphicsGetImageFromCurrentImageContext()
            UIGraphicsEndImageContext()
            // The renderer's context is current again, with its own fill colour.
            UIRectFill(CGRect(x: 0, y: 0, width: 16, height: 16))
        }
        return (image, disc)
    }

    @Test func imageRenderersOnSeveralThreadsDrawTheirOwnColours() {
        let results = Mutex<[Int: (image: UIImage, disc: UIImage?)]>([:])
        DispatchQueue.concurrentPerform(iterations: 64) { k in
            let drawn = Self.drawing(k)
            results.withLock { $0[k] = drawn }
        }
        let drawn = results.withLock { $0 }
        #expect(drawn.count == 64)
        for (k, result) in drawn {
            let want = (r: (k % 5) * 255 / 4, g: (k % 3) * 255 / 2, b: (k % 2) * 255)
            let centre = pixel(result.image, 8, 8)
            #expect(pixelMatches(centre, want.r, want.g, want.b, 255), "drawing \(k): \(centre), want \(want)")
            let middle = result.disc.map { pixel($0, 2, 2) }
            #expect(
                middle.map { pixelMatches($0, 255, 255, 255, 255) } == true, "disc \(k): \(String(describing: middle))")
        }
        // Nothing is left current on this thread.
        #expect(UIGraphicsGetCurrentContext() == nil)
    }

    @Test func stringsDrawOffTheMainThread() async {
        let image = await Task.detached {
            UIGraphicsImageRenderer(size: CGSize(width: 60, height: 24)).image { _ in
                "Tile 3/4/5".draw(
                    at: CGPoint(x: 2, y: 2),
                    withAttributes: [.font: UIFont.systemFont(ofSize: 14), .foregroundColor: UIColor.black])
                ("Hg" as NSString).draw(in: CGRect(x: 40, y: 2, width: 20, height: 20), withAttributes: nil)
            }
        }.value
        var inked = 0
        for y in 0..<24 {
            for x in 0..<60 where pixel(image, x, y).a > 128 { inked += 1 }
        }
        #expect(inked > 40, "\(inked) inked pixels")
    }
}

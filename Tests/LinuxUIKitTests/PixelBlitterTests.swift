import Foundation
import Testing

@testable import LinuxUIKit

/// The map's marker blitter writes exactly the bytes Cairo's OVER writes, so frames do not change when icons take
/// the fast path.
@MainActor @Suite struct PixelBlitterTests {
    /// A translucent, anti-aliased icon: a soft disc with a half-transparent square and fully transparent corners.
    static func icon(scale: CGFloat) -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: CGSize(width: 23, height: 17), format: format).image { r in
            let c = r.cgContext
            c.setFillColor(UIColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1).cgColor)
            c.fillEllipse(in: CGRect(x: 1.3, y: 0.7, width: 15, height: 15))
            c.setFillColor(UIColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.45).cgColor)
            c.fill(CGRect(x: 9.5, y: 4.25, width: 12, height: 9))
        }
    }

    /// A busy, partly translucent background.
    static func background(scale: CGFloat) -> UIGraphicsImageRenderer {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: CGSize(width: 64, height: 48), format: format)
    }

    static func paintBackground(_ c: CGContext) {
        for i in 0..<12 {
            c.setFillColor(
                UIColor(
                    red: CGFloat(i) / 12, green: CGFloat(11 - i) / 12, blue: 0.5, alpha: i % 3 == 0 ? 0.4 : 1
                ).cgColor)
            c.fill(CGRect(x: CGFloat(i) * 5.3, y: CGFloat(i % 4) * 9, width: 9, height: 40))
        }
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func blitIsByteIdenticalToCairo(scale: Double) throws {
        let s = CGFloat(scale)
        let icon = Self.icon(scale: s)
        let sprite = try #require(BlitSprite(image: icon))
        // Positions inside, across every edge (clipped) and fully outside.
        let origins: [CGPoint] = [
            CGPoint(x: 10.2, y: 7.6), CGPoint(x: -9.4, y: 3), CGPoint(x: 50, y: -8.5), CGPoint(x: 55.5, y: 40.2),
            CGPoint(x: 30, y: 44), CGPoint(x: -40, y: 0), CGPoint(x: 22, y: 20),
        ]
        let viaCairo = Self.background(scale: s).image { r in
            Self.paintBackground(r.cgContext)
            for o in origins {
                r.cgContext.drawImage(
                    icon, transform: CGAffineTransform(translationX: o.x, y: o.y), snapToPixels: true,
                    deviceScale: s, alpha: 1)
            }
        }
        var tookFastPath = false
        let viaBlitter = Self.background(scale: s).image { r in
            Self.paintBackground(r.cgContext)
            r.cgContext.withPixelTarget(deviceScale: s) { target in
                guard let target else { return }
                tookFastPath = true
                for o in origins {
                    target.blit(
                        sprite, x: Int(Double(o.x * s).rounded()), y: Int(Double(o.y * s).rounded()))
                }
            }
        }
        #expect(tookFastPath)
        #expect(viaCairo.pngData() == viaBlitter.pngData())
    }

    @Test func noFastPathUnderATransformOrClip() {
        _ = Self.background(scale: 2).image { r in
            let c = r.cgContext
            c.saveGState()
            c.translateBy(x: 3, y: 0)
            #expect(c.withPixelTarget(deviceScale: 2) { $0 == nil })
            c.restoreGState()
            c.saveGState()
            c.clip(to: CGRect(x: 0, y: 0, width: 10, height: 10))
            #expect(c.withPixelTarget(deviceScale: 2) { $0 == nil })
            c.restoreGState()
            #expect(c.withPixelTarget(deviceScale: 1) { $0 == nil })
            #expect(c.withPixelTarget(deviceScale: 2) { $0 != nil })
        }
    }

    @Test func animatedImagesHaveNoSprite() throws {
        let animated = try #require(
            UIImage.animatedImage(with: [Self.icon(scale: 1), Self.icon(scale: 1)], duration: 1))
        #expect(BlitSprite(image: animated) == nil)
        #expect(BlitSprite(image: Self.icon(scale: 1)) != nil)
    }
}

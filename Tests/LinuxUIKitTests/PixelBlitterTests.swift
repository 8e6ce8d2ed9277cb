import CairoGraphics
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

    /// A pile of overlapping sprites (opaque bodies, translucent edges and squares, clipped at every edge) with a
    /// Cairo draw in the middle of the order: the batch, which skips what ends up hidden, writes exactly the bytes
    /// of drawing them one by one through Cairo.
    @Test(arguments: [1.0, 2.0])
    func batchIsByteIdenticalToDrawingOneByOne(scale: Double) throws {
        let s = CGFloat(scale)
        let icons = [Self.icon(scale: s), Self.opaqueSquare(scale: s)]
        let sprites = try icons.map { try #require(BlitSprite(image: $0)) }
        var state: UInt64 = 12345
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        // 300 draws over a 64 × 48 pt surface: every pixel is covered many times over.
        let draws: [(icon: Int, x: Int, y: Int)] = (0..<300).map { _ in
            (next() < 0.7 ? 0 : 1, Int((next() * 90 - 20) * scale), Int((next() * 70 - 16) * scale))
        }
        let external = 150
        let viaCairo = Self.background(scale: s).image { r in
            Self.paintBackground(r.cgContext)
            for (i, d) in draws.enumerated() {
                r.cgContext.drawImage(
                    icons[d.icon], transform: CGAffineTransform(translationX: CGFloat(d.x) / s, y: CGFloat(d.y) / s),
                    snapToPixels: true, deviceScale: s, alpha: 1)
                if i == external { Self.paintBackground(r.cgContext) }
            }
        }
        var externalCalls: [Int] = []
        let viaBatch = Self.background(scale: s).image { r in
            Self.paintBackground(r.cgContext)
            r.cgContext.withPixelTarget(deviceScale: s) { target in
                guard let target else { return }
                let batch = SpriteBatch()
                for (i, d) in draws.enumerated() {
                    batch.add(sprites[d.icon], x: d.x, y: d.y)
                    if i == external { batch.addExternal(7) }
                }
                #expect(batch.count == draws.count + 1)
                batch.composite(into: target) { id in
                    externalCalls.append(id)
                    r.cgContext.markPixelsDirty(target)
                    Self.paintBackground(r.cgContext)
                }
                #expect(batch.count == 0)
            }
        }
        #expect(externalCalls == [7])
        #expect(viaCairo.pngData() == viaBatch.pngData())
    }

    /// An opaque square with a translucent border row (its rows: translucent, opaque, translucent).
    static func opaqueSquare(scale: CGFloat) -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: CGSize(width: 12, height: 9), format: format).image { r in
            let c = r.cgContext
            c.setFillColor(UIColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1).cgColor)
            c.fill(CGRect(x: 0.5, y: 0.5, width: 11, height: 8))
        }
    }

    /// Four translucent pixels at a time (the SIMD blend) give the scalar blend's bytes for every alpha and a spread
    /// of destinations.
    @Test func fourPixelBlendMatchesScalarBlend() {
        var state: UInt64 = 99
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 29)
        }
        /// A premultiplied pixel with alpha `a`.
        func premultiplied(_ a: UInt32) -> UInt32 {
            let r = a == 0 ? 0 : next() % (a + 1)
            let g = a == 0 ? 0 : next() % (a + 1)
            let b = a == 0 ? 0 : next() % (a + 1)
            return a << 24 | r << 16 | g << 8 | b
        }
        var mismatches = 0
        for a in UInt32(0)...255 {
            for _ in 0..<16 {
                let src = SIMD4<UInt32>(
                    premultiplied(a), premultiplied(a), premultiplied(255 - a), premultiplied(a / 2))
                let dst = SIMD4<UInt32>(premultiplied(255), next(), premultiplied(next() % 256), 0)
                let v = over4(src, dst)
                for i in 0..<4 where v[i] != over(src[i], dst[i]) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
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

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
        let batch = SpriteBatch()
        let atlasIcon = try #require(batch.atlas.icon(for: icon))
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
                // One icon a composite (each drawn over the ones before).
                for o in origins {
                    batch.add(atlasIcon, x: Int(Double(o.x * s).rounded()), y: Int(Double(o.y * s).rounded()))
                    batch.composite(into: target) { _ in }
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
        let batch = SpriteBatch()
        let atlasIcons = try icons.map { try #require(batch.atlas.icon(for: $0)) }
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
                for (i, d) in draws.enumerated() {
                    batch.add(atlasIcons[d.icon], x: d.x, y: d.y)
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

    /// An opaque rectangle (default 12 × 9 pt) with a translucent border (its rows: translucent, opaque,
    /// translucent).
    static func opaqueSquare(scale: CGFloat, green: CGFloat = 0.7, width: CGFloat = 12, height: CGFloat = 9) -> UIImage
    {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: CGSize(width: width, height: height), format: format).image { r in
            let c = r.cgContext
            c.setFillColor(UIColor(red: 0.2, green: green, blue: 0.3, alpha: 1).cgColor)
            c.fill(CGRect(x: 0.5, y: 0.5, width: width - 1, height: height - 1))
        }
    }

    /// Draws `draws` (image, device pixel) over the background through Cairo one by one, and through `batch`
    /// (`icons` the atlas icons of the draws, nil: the image is expected to have none and is skipped), and expects
    /// the same bytes.
    func expectBatchMatchesCairo(
        _ batch: SpriteBatch, draws: [(image: UIImage, icon: SpriteAtlas.Icon?, x: Int, y: Int)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let viaCairo = Self.background(scale: 1).image { r in
            Self.paintBackground(r.cgContext)
            for d in draws where d.icon != nil {
                r.cgContext.drawImage(
                    d.image, transform: CGAffineTransform(translationX: CGFloat(d.x), y: CGFloat(d.y)),
                    snapToPixels: true, deviceScale: 1, alpha: 1)
            }
        }
        let viaBatch = Self.background(scale: 1).image { r in
            Self.paintBackground(r.cgContext)
            r.cgContext.withPixelTarget(deviceScale: 1) { target in
                guard let target else { return }
                for d in draws { if let icon = d.icon { batch.add(icon, x: d.x, y: d.y) } }
                batch.composite(into: target) { _ in }
            }
        }
        #expect(viaCairo.pngData() == viaBatch.pngData(), sourceLocation: sourceLocation)
    }

    /// Expects the atlas to hold `image`'s pixels in `icon`'s rectangle.
    func expectPixels(of icon: SpriteAtlas.Icon, in atlas: SpriteAtlas, are image: UIImage) throws {
        let surface = try #require(image.surface)
        let words = surface.stride / 4
        var mismatches = 0
        surface.withPixels { pixels in
            for y in 0..<surface.height {
                for x in 0..<surface.width where atlas.pixel(of: icon, x: x, y: y) != pixels[y * words + x] {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Small pages (36 × 26 px): a 23 × 17 icon, then 12 × 9 squares fill the page's second shelf up to its right
    /// and bottom edges, the next squares go to further pages, an icon wider than a page gets one of its own; every
    /// icon keeps its pixels and blits as Cairo draws it, clipped or not.
    @Test func iconsAtPageEdgesAndInFullPages() throws {
        let batch = SpriteBatch(atlas: SpriteAtlas(pageWidth: 36, pageHeight: 26))
        let atlas = batch.atlas
        let images =
            [Self.icon(scale: 1)] + (0..<7).map { Self.opaqueSquare(scale: 1, green: 0.3 + 0.1 * CGFloat($0)) }
            + [Self.opaqueSquare(scale: 1, width: 50, height: 10)]
        let icons = try images.map { try #require(atlas.icon(for: $0)) }
        let places = try icons.map { try #require(atlas.placement(of: $0)) }
        #expect(places[0].page == 0 && places[0].x == 0 && places[0].y == 0)
        // The third square ends at the page's right and bottom edges.
        #expect(places[3].page == 0 && places[3].x + places[3].width == 36 && places[3].y + places[3].height == 26)
        #expect(places[4].page == 1 && places[4].x == 0 && places[4].y == 0)
        // The wide one: a page of its own, its size.
        #expect(places[8].page == atlas.pageCount - 1 && places[8].x == 0 && places[8].width == 50)
        #expect(atlas.pageCount == 3)
        for (icon, image) in zip(icons, images) { try expectPixels(of: icon, in: atlas, are: image) }
        // Looking an image up again gives its icon.
        #expect(atlas.icon(for: images[3]) == icons[3])
        var draws: [(image: UIImage, icon: SpriteAtlas.Icon?, x: Int, y: Int)] = []
        for (i, pair) in zip(images, icons).enumerated() {
            draws.append((pair.0, pair.1, (i * 13) % 60 - 6, (i * 11) % 44 - 4))
            draws.append((pair.0, pair.1, 50 - (i * 7) % 30, 40 - i))
        }
        expectBatchMatchesCairo(batch, draws: draws)
    }

    /// Icons a frame did not look up are removed once the atlas is full (their handles then draw nothing, even when
    /// their record is reused), and a page holed by removals is rebuilt with the live icons before a new page is
    /// added; the icons keep their handles and pixels.
    @Test func unusedIconsAreRemovedAndHoledPagesRebuilt() throws {
        let batch = SpriteBatch(atlas: SpriteAtlas(pageWidth: 36, pageHeight: 26, maximumImages: 4))
        let atlas = batch.atlas
        let big = Self.icon(scale: 1)
        let squares = (0..<4).map { Self.opaqueSquare(scale: 1, green: 0.3 + 0.1 * CGFloat($0)) }
        // Frame 1: the 23 × 17 icon and three squares fill the page's two shelves.
        let bigIcon = try #require(atlas.icon(for: big))
        var icons = try squares.prefix(3).map { try #require(atlas.icon(for: $0)) }
        #expect(atlas.placement(of: icons[0])?.y == 17)
        expectBatchMatchesCairo(batch, draws: [(big, bigIcon, 3, 4)])
        // Frame 2: the squares again, then a fourth: the atlas is full, the big icon (not looked up) goes, and its
        // hole (391 of 936 pixels) has the page rebuilt rather than a second one added.
        for (i, square) in squares.prefix(3).enumerated() { #expect(atlas.icon(for: square) == icons[i]) }
        icons.append(try #require(atlas.icon(for: squares[3])))
        #expect(atlas.placement(of: bigIcon) == nil)
        #expect(atlas.iconCount == 4 && atlas.pageCount == 1)
        #expect(atlas.placement(of: icons[0])?.y == 0)
        for (icon, image) in zip(icons, squares) { try expectPixels(of: icon, in: atlas, are: image) }
        // The removed icon's handle draws nothing.
        var draws: [(image: UIImage, icon: SpriteAtlas.Icon?, x: Int, y: Int)] = [(big, nil, 0, 0)]
        for i in 0..<4 { draws.append((squares[i], icons[i], 5 + 9 * i, 8 + 3 * i)) }
        expectBatchMatchesCairo(batch, draws: draws)
        let stale = SpriteBatch(atlas: atlas)
        stale.add(bigIcon, x: 0, y: 0)
        expectBatchMatchesCairo(stale, draws: [(big, nil, 0, 0)])
    }

    /// A removed icon's record taken by another icon: the old handle (another serial) draws nothing, not the new icon.
    @Test func aReusedRecordRefusesTheOldHandle() throws {
        let batch = SpriteBatch(atlas: SpriteAtlas(maximumImages: 1))
        let atlas = batch.atlas
        let first = Self.icon(scale: 1)
        let second = Self.opaqueSquare(scale: 1)
        let old = try #require(atlas.icon(for: first))
        expectBatchMatchesCairo(batch, draws: [(first, old, 2, 3)])
        let new = try #require(atlas.icon(for: second))
        #expect(new.index == old.index && new.serial != old.serial)
        #expect(atlas.placement(of: old) == nil && atlas.iconCount == 1)
        try expectPixels(of: new, in: atlas, are: second)
        batch.add(old, x: 2, y: 3)
        expectBatchMatchesCairo(batch, draws: [(second, new, 20, 13)])
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

    @Test func animatedImagesHaveNoIcon() throws {
        let animated = try #require(
            UIImage.animatedImage(with: [Self.icon(scale: 1), Self.icon(scale: 1)], duration: 1))
        let atlas = SpriteAtlas()
        #expect(atlas.icon(for: animated) == nil)
        #expect(atlas.icon(for: Self.icon(scale: 1)) != nil)
        #expect(atlas.iconCount == 1)
    }
}

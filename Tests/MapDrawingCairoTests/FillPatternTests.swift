import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapTestSupport
import Testing

/// Pattern fills (`FillPattern`) through the Cairo backend: the image repeats under the pattern transform, sampled
/// bilinearly with wrapping, and the fill's opacity applies.
@Suite(.serialized) struct FillPatternTests {
    static let red: [UInt8] = [0, 0, 255, 255]  // premultiplied BGRA
    static let blue: [UInt8] = [255, 0, 0, 255]

    /// A 2 × 2 checker: red at (0, 0) and (1, 1), blue elsewhere.
    static let checker = RasterImage(width: 2, height: 2, pixels: red + blue + blue + red)
    /// Two columns: red on the left, blue on the right.
    static let stripes = RasterImage(width: 2, height: 2, pixels: red + blue + red + blue)

    func render(
        _ image: RasterImage, _ transform: RenderTransform, size: Double = 8, scale: Double = 1, opacity: Double = 1
    ) throws -> RasterImage {
        let backend = makeBackend()
        let handle = try backend.register(image)
        var path = RenderPath()
        path.addRect(RenderRect(x: 0, y: 0, width: size, height: size))
        var list = DisplayList(size: ScreenSize(width: size, height: size), scale: scale)
        list.append(
            .fill(
                FillCommand(
                    path: path, color: .black, opacity: opacity,
                    pattern: FillPattern(image: handle, transform: transform))))
        return try backend.render(list)
    }

    /// Whether the pixel is opaque red / blue, within 3 levels (Cairo's bilinear sampling works in fixed point).
    func isRed(_ image: RasterImage, _ x: Int, _ y: Int) -> Bool { near(image, x, y, (255, 0, 0, 255)) }
    func isBlue(_ image: RasterImage, _ x: Int, _ y: Int) -> Bool { near(image, x, y, (0, 0, 255, 255)) }
    func near(_ image: RasterImage, _ x: Int, _ y: Int, _ want: (Int, Int, Int, Int)) -> Bool {
        guard let p = image.premultipliedRGBA(x: x, y: y) else { return false }
        return abs(Int(p.r) - want.0) <= 3 && abs(Int(p.g) - want.1) <= 3 && abs(Int(p.b) - want.2) <= 3
            && abs(Int(p.a) - want.3) <= 3
    }

    /// At scale 1 every pixel is one texel: the checker repeats exactly, shifted by a whole-point translation.
    @Test func checkerRepeatsOnWholePixels() throws {
        let image = try render(Self.checker, .identity)
        for y in 0..<8 {
            for x in 0..<8 {
                #expect((x + y) % 2 == 0 ? isRed(image, x, y) : isBlue(image, x, y), "pixel \(x), \(y)")
            }
        }
        let shifted = try render(Self.checker, .translation(x: 1, y: 0))
        #expect(isBlue(shifted, 0, 0) && isRed(shifted, 1, 0) && isRed(shifted, 0, 1))
    }

    /// Scaled by 3 (a zoom fraction, or device pixels): each texel covers 3 × 3 pixels, the centre one exactly.
    @Test func scaledPatternCoversWholeBlocks() throws {
        let image = try render(Self.checker, .scale(x: 3, y: 3), size: 12)
        #expect(isRed(image, 1, 1) && isBlue(image, 4, 1) && isBlue(image, 1, 4) && isRed(image, 4, 4))
        #expect(isRed(image, 7, 7) && isBlue(image, 10, 7), "\(image.premultipliedRGBA(x: 10, y: 7)!)")
        // Device scale 2 on top of a pattern scale 1.5 is 3 pixels per texel again.
        let device = try render(Self.checker, .scale(x: 1.5, y: 1.5), size: 6, scale: 2)
        #expect(device.width == 12)
        #expect(isRed(device, 1, 1) && isBlue(device, 4, 1) && isRed(device, 7, 1) && isRed(device, 4, 4))
    }

    /// A fractional scale samples between texels bilinearly, wrapping across the image's edge.
    @Test func fractionalScaleBlendsBilinearlyAcrossTheWrap() throws {
        // Pixel x's centre maps to pattern x (x + 0.75) / 1.5, texel coordinate that − 0.5.
        let image = try render(Self.stripes, RenderTransform(a: 1.5, b: 0, c: 0, d: 1.5, tx: -0.25, ty: 0), size: 6)
        #expect(isRed(image, 0, 2))  // texel 0 exactly
        // x = 1: texel coordinate 2/3 → 1/3 red, 2/3 blue.
        let mixed = image.premultipliedRGBA(x: 1, y: 2)!
        #expect(abs(Int(mixed.r) - 85) <= 2 && abs(Int(mixed.b) - 170) <= 2 && mixed.a == 255)
        // x = 2: pattern 1.83, texel coordinate 1.33 → between texel 1 (blue) and texel 0 wrapped: 1/3 red.
        let wrapped = image.premultipliedRGBA(x: 2, y: 2)!
        #expect(abs(Int(wrapped.r) - 85) <= 2 && abs(Int(wrapped.b) - 170) <= 2)
        #expect(isRed(image, 3, 2))  // the next period starts on texel 0 again
    }

    /// A turned transform turns the pattern: vertical stripes turned by 90° become horizontal.
    @Test func bearingTurnsThePattern() throws {
        let image = try render(Self.stripes, .rotation(radians: .pi / 2))
        for x in 0..<8 {
            #expect(isRed(image, x, 0) && isBlue(image, x, 1) && isRed(image, x, 2), "column \(x)")
        }
    }

    /// Opacity scales the pattern; a handle the backend does not know, or a singular transform, draws nothing.
    @Test func opacityAndBadInput() throws {
        let half = try render(Self.checker, .identity, opacity: 0.5)
        let p = half.premultipliedRGBA(x: 0, y: 0)!
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.a) - 128) <= 1)
        let singular = try render(Self.checker, .scale(x: 0, y: 1))
        #expect(singular.premultipliedRGBA(x: 3, y: 3)!.a == 0)
        let backend = makeBackend()
        var path = RenderPath()
        path.addRect(RenderRect(x: 0, y: 0, width: 4, height: 4))
        var list = DisplayList(size: ScreenSize(width: 4, height: 4), scale: 1)
        let unknown = ImageHandle(id: 99, pixelWidth: 2, pixelHeight: 2, scale: 1)
        list.append(
            .fill(FillCommand(path: path, color: .black, pattern: FillPattern(image: unknown, transform: .identity))))
        list.append(.fill(FillCommand(path: path, color: RGBAColor(rgb: 0x00FF00), pattern: nil)))
        let image = try backend.render(list)
        #expect(image.premultipliedRGBA(x: 1, y: 1)! == (0, 255, 0, 255))
    }
}

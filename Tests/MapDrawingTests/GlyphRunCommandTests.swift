import MapDrawing
import MapGeometry
import Testing

/// A 3 × 2 mask at device pixel `(x, y)`: full, half and no coverage on each row, its quad as large as the mask.
private func mask(x: Int, y: Int, color: RGBAColor) -> GlyphRunCommand.Mask {
    GlyphRunCommand.Mask(
        coverage: [255, 128, 0, 255, 128, 0], x: x, y: y, width: 3, height: 2, color: color,
        clip: .translation(x: -Double(x), y: -Double(y)), clipWidth: 3, clipHeight: 2)
}

/// Premultiplied BGRA pixels of `run` composited over `width × height` pixels of `background`.
private func composite(
    _ run: GlyphRunCommand, width: Int, height: Int, background: [UInt8] = [0, 0, 0, 0],
    clip: PixelRect? = nil
) -> [UInt8] {
    var pixels = [UInt8]((0..<(width * height)).flatMap { _ in background })
    pixels.withUnsafeMutableBufferPointer { buffer in
        run.composite(
            into: LinePixelTarget(base: buffer.baseAddress!, width: width, height: height, bytesPerRow: width * 4),
            offsetX: 0, offsetY: 0, clip: clip ?? PixelRect(minX: 0, minY: 0, maxX: width, maxY: height))
    }
    return pixels
}

private func pixel(_ pixels: [UInt8], width: Int, _ x: Int, _ y: Int) -> [UInt8] {
    Array(pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 4)])
}

@Suite struct GlyphRunCommandTests {
    @Test func masksBlendSourceOverInOrderAtTheirCoverage() {
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
        let run = GlyphRunCommand(masks: [mask(x: 1, y: 1, color: red), mask(x: 2, y: 1, color: blue)], pixelRatio: 1)
        let out = composite(run, width: 6, height: 4)
        // Full red, then red half covered by full blue (the later mask over the earlier), then half blue alone.
        #expect(pixel(out, width: 6, 1, 1) == [0, 0, 255, 255])
        #expect(pixel(out, width: 6, 2, 1) == [255, 0, 0, 255])
        #expect(pixel(out, width: 6, 3, 2) == [128, 0, 0, 128])
        #expect(pixel(out, width: 6, 4, 1) == [0, 0, 0, 0])
        #expect(pixel(out, width: 6, 0, 0) == [0, 0, 0, 0])
        #expect(run.bounds == PixelRect(minX: 1, minY: 1, maxX: 5, maxY: 3))
    }

    @Test func opacityAndBackgroundBlendAsSourceOver() {
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let run = GlyphRunCommand(masks: [mask(x: 0, y: 0, color: white)], opacity: 0.5, pixelRatio: 1)
        // Over opaque black: half white where covered, a quarter where half covered.
        let out = composite(run, width: 3, height: 2, background: [0, 0, 0, 255])
        #expect(pixel(out, width: 3, 0, 0) == [128, 128, 128, 255])
        #expect(pixel(out, width: 3, 1, 0) == [64, 64, 64, 255])
        #expect(pixel(out, width: 3, 2, 0) == [0, 0, 0, 255])
    }

    @Test func theQuadEdgesAndTheClipCutTheMask() {
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        var m = mask(x: 0, y: 0, color: white)
        // The quad ends half way through the second column: that column's centres lie outside it.
        m.clipWidth = 1.5
        let cut = composite(GlyphRunCommand(masks: [m], pixelRatio: 1), width: 3, height: 2)
        #expect(pixel(cut, width: 3, 0, 0) == [255, 255, 255, 255])
        #expect(pixel(cut, width: 3, 1, 0) == [0, 0, 0, 0])
        // A clip rectangle keeps the pixels outside it.
        let clipped = composite(
            GlyphRunCommand(masks: [mask(x: 0, y: 0, color: white)], pixelRatio: 1), width: 3, height: 2,
            clip: PixelRect(minX: 0, minY: 1, maxX: 3, maxY: 2))
        #expect(pixel(clipped, width: 3, 0, 0) == [0, 0, 0, 0])
        #expect(pixel(clipped, width: 3, 0, 1) == [255, 255, 255, 255])
    }

    @Test func itsImageIsTheRunOverTransparentPixels() throws {
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let run = GlyphRunCommand(masks: [mask(x: 4, y: 7, color: red)], pixelRatio: 2)
        let made = try #require(run.image())
        #expect(made.x == 4 && made.y == 7)
        #expect(made.image.width == 3 && made.image.height == 2)
        #expect(Array(made.image.pixels[0..<8]) == [0, 0, 255, 255, 0, 0, 128, 128])
        #expect(GlyphRunCommand(masks: [], pixelRatio: 1).image() == nil)
        let list = DisplayList(size: ScreenSize(width: 10, height: 10), scale: 2, commands: [.glyphRun(run)])
        #expect(list.description.contains("glyph-run masks=1 box=[4 7 7 9]/2"))
    }
}

import MapDrawing
import MapDrawingCairo
import MapGeometry
import Testing

/// A run of one 4 × 3 mask at device pixel `(x, y)`: coverage rising along each row, its quad as large as the mask.
private func run(x: Int, y: Int, pixelRatio: Double) -> GlyphRunCommand {
    let coverage: [UInt8] = [64, 128, 192, 255, 32, 96, 160, 224, 16, 48, 80, 112]
    let mask = GlyphRunCommand.Mask(
        coverage: coverage, x: x, y: y, width: 4, height: 3, color: RGBAColor(red: 0.2, green: 0.4, blue: 1, alpha: 1),
        clip: .translation(x: -Double(x), y: -Double(y)), clipWidth: 4, clipHeight: 3)
    return GlyphRunCommand(masks: [mask], pixelRatio: pixelRatio)
}

@Suite(.serialized) struct GlyphRunTests {
    @Test func aRunIsCompositedAtItsDevicePixels() throws {
        let glyphs = run(x: 5, y: 6, pixelRatio: 2)
        let made = try #require(glyphs.image())
        var list = DisplayList(size: ScreenSize(width: 10, height: 8), scale: 2)
        list.append(.glyphRun(glyphs))
        // A whole-device-pixel translation (3 points = 6 device pixels) moves the run with it.
        list.append(.save)
        list.append(.transform(.translation(x: 3, y: 0)))
        list.append(.glyphRun(glyphs))
        list.append(.restore)
        let image = try makeBackend().render(list)
        var drawn = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let o = (y * image.width + x) * 4
                let got = Array(image.pixels[o..<(o + 4)])
                var want: [UInt8] = [0, 0, 0, 0]
                for shift in [0, 6] {
                    let (ix, iy) = (x - made.x - shift, y - made.y)
                    if ix >= 0, iy >= 0, ix < made.image.width, iy < made.image.height {
                        let i = (iy * made.image.width + ix) * 4
                        want = Array(made.image.pixels[i..<(i + 4)])
                    }
                }
                if want[3] > 0 { drawn += 1 }
                #expect(got == want, "pixel \(x),\(y)")
            }
        }
        #expect(drawn == 24)
    }

    @Test func underAFractionalTransformTheRunIsDrawnThroughIt() throws {
        var list = DisplayList(size: ScreenSize(width: 10, height: 8), scale: 2)
        list.append(.transform(.scale(x: 2, y: 2)))
        list.append(.glyphRun(run(x: 1, y: 1, pixelRatio: 2)))
        let image = try makeBackend().render(list)
        // Twice as large: the mask's 4 × 3 pixels cover 8 × 6 device pixels from (2, 2).
        var box = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > 0 {
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
            }
        }
        #expect(box == (minX: 2, minY: 2, maxX: 9, maxY: 7))
    }
}

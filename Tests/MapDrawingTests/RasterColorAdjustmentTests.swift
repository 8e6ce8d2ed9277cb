import MapDrawing
import Testing

/// MapLibre's raster colour pass (raster.fragment.glsl, render_raster_layer.cpp) on the CPU.
@Suite struct RasterColorAdjustmentTests {
    static func close(_ a: (red: Double, green: Double, blue: Double), _ b: (Double, Double, Double)) -> Bool {
        abs(a.red - b.0) < 1e-9 && abs(a.green - b.1) < 1e-9 && abs(a.blue - b.2) < 1e-9
    }

    @Test func factorsAreMapLibres() {
        #expect(RasterColorAdjustment(saturation: 0.5).saturationFactor == 1 - 1 / (1.001 - 0.5))
        #expect(RasterColorAdjustment(saturation: -0.25).saturationFactor == 0.25)
        #expect(RasterColorAdjustment(contrast: 0.5).contrastFactor == 2)
        #expect(RasterColorAdjustment(contrast: -0.5).contrastFactor == 0.5)
        let w = RasterColorAdjustment(hueRotate: 0).spinWeights
        #expect(abs(w.0 - 1) < 1e-12 && abs(w.1) < 1e-12 && abs(w.2) < 1e-12)
        #expect(RasterColorAdjustment().isIdentity && RasterColorAdjustment(hueRotate: 360).isIdentity)
    }

    @Test func eachStepOnOneColour() {
        // Hue 120°: weights (0, 0, 1) → (b, r, g).
        #expect(
            Self.close(RasterColorAdjustment(hueRotate: 120).apply(red: 0.8, green: 0.2, blue: 0.1), (0.1, 0.8, 0.2)))
        // Saturation −1: the mean of the colour.
        #expect(
            Self.close(RasterColorAdjustment(saturation: -1).apply(red: 0.9, green: 0.3, blue: 0.0), (0.4, 0.4, 0.4)))
        // Contrast −0.5: k = 0.5 about 0.5.
        #expect(Self.close(RasterColorAdjustment(contrast: -0.5).apply(red: 1, green: 0, blue: 0.5), (0.75, 0.25, 0.5)))
        // Brightness: min + (max − min)·c.
        #expect(
            Self.close(
                RasterColorAdjustment(brightnessMin: 0.2, brightnessMax: 0.6).apply(red: 0, green: 0.5, blue: 1),
                (0.2, 0.4, 0.6)))
        // Results are clamped to 0…1.
        #expect(Self.close(RasterColorAdjustment(contrast: 0.9).apply(red: 1, green: 0, blue: 0.5), (1, 0, 0.5)))
    }

    @Test func premultipliedPixelsKeepAlpha() {
        // One pixel, straight (200, 100, 50) at alpha 128, as premultiplied BGRA.
        let a = 128.0
        let image = RasterImage(
            width: 1, height: 1,
            pixels: [
                UInt8((50 * a / 255).rounded()), UInt8((100 * a / 255).rounded()), UInt8((200 * a / 255).rounded()),
                128,
            ])
        let out = RasterColorAdjustment(saturation: -1).apply(to: image)
        #expect(out.pixels[3] == 128)
        let grey = out.color(x: 0, y: 0)!
        #expect(abs(grey.red - grey.blue) < 0.01 && abs(grey.red - 350.0 / 3 / 255) < 0.02)
        #expect(RasterColorAdjustment().apply(to: image) == image)
    }
}

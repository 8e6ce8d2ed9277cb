import MapDrawing
import MapGeometry
import Testing

/// MapLibre's circle shading (`CircleShader`): per-pixel smoothstep edges, the fill/ring boundary, `circle-blur` and
/// opacities as MapLibre's circle fragment shader computes them.
@Suite struct CircleShaderTests {
    private func circle(
        radius: Double, fill: RGBAColor = RGBAColor(red: 0, green: 0, blue: 1), stroke: RGBAColor = .clear,
        strokeWidth: Double = 0, blur: Double = 0, opacity: Double = 1
    ) -> CircleCommand {
        CircleCommand(
            center: ScreenPoint(x: 0, y: 0), radius: radius, fillColor: fill, strokeColor: stroke,
            strokeWidth: strokeWidth, blur: blur, opacity: opacity, mapLibreShading: true)
    }

    @Test func insideTheFadeTheFillIsWhole() throws {
        let shader = try #require(CircleShader(circle(radius: 10), pixelRatio: 1))
        let c = shader.color(atLength: 0.5)
        #expect(c.0 == 0 && c.1 == 0 && c.2 == 1 && c.3 == 1)
        #expect(shader.ringStart == nil)
    }

    @Test func theEdgeFadesOverOneDevicePixelInside() throws {
        // Radius 10 at 1 px per point: the fade is 1 / 10 of the extrude length, ending on the edge.
        let shader = try #require(CircleShader(circle(radius: 10), pixelRatio: 1))
        #expect(abs(shader.fade - 0.1) < 1e-12)
        #expect(abs(shader.color(atLength: 0.95).3 - 0.5) < 1e-12)
        #expect(shader.color(atLength: 0.85).3 == 1)
        #expect(shader.color(atLength: 1).3 == 0)
        #expect(shader.color(atLength: 1.5).3 == 0)
        // Two device pixels per point: half as wide.
        let sharp = try #require(CircleShader(circle(radius: 10), pixelRatio: 2))
        #expect(abs(sharp.fade - 0.05) < 1e-12)
    }

    @Test func theRingTakesOverJustInsideTheRadius() throws {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let shader = try #require(CircleShader(circle(radius: 8, stroke: red, strokeWidth: 2), pixelRatio: 1))
        #expect(shader.ringStart == 0.8)
        let fill = shader.color(atLength: 0.6)
        #expect(fill.0 == 0 && fill.2 == 1)
        let ring = shader.color(atLength: 0.85)
        #expect(ring.0 == 1 && ring.2 == 0 && ring.3 == 1)
        // Halfway through the 0.1-wide change, which ends at the radius: half fill, half ring.
        let mid = shader.color(atLength: 0.75)
        #expect(abs(mid.0 - 0.5) < 1e-12 && abs(mid.2 - 0.5) < 1e-12)
    }

    @Test func opacityDimsTheFillButNotTheRing() throws {
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        let shader = try #require(
            CircleShader(circle(radius: 8, stroke: black, strokeWidth: 2, opacity: 0), pixelRatio: 1))
        #expect(shader.color(atLength: 0.3).3 == 0)
        #expect(shader.color(atLength: 0.85).3 == 1)
        let half = try #require(CircleShader(circle(radius: 8, opacity: 0.5), pixelRatio: 1))
        let c = half.color(atLength: 0.3)
        #expect(c.2 == 0.5 && c.3 == 0.5)
    }

    @Test func blurWidensTheFadeAsAFractionOfTheWholeRadius() throws {
        let shader = try #require(CircleShader(circle(radius: 10, blur: 0.5), pixelRatio: 1))
        #expect(shader.fade == 0.5)
        #expect(abs(shader.color(atLength: 0.75).3 - 0.5) < 1e-12)
        #expect(shader.color(atLength: 0.5).3 == 1)
    }

    @Test func noDiscWithoutSize() {
        #expect(CircleShader(circle(radius: 0), pixelRatio: 1) == nil)
        #expect(CircleShader(circle(radius: .infinity), pixelRatio: 1) == nil)
        #expect(CircleShader(circle(radius: 3), pixelRatio: 0) == nil)
    }

    @Test func rasterizesPixelCentresInPremultipliedARGB() throws {
        // Radius 2 about (2, 2) on a 4 × 4 grid: the four middle pixel centres are inside the fade, the corner
        // pixels' centres (2.1 points away) outside the disc.
        let shader = try #require(CircleShader(circle(radius: 2, opacity: 0.5), pixelRatio: 1))
        var pixels = [UInt32](repeating: 0xDEAD_BEEF, count: 16)
        let toExtrude = RenderHomography(0.5, 0, -1, 0, 0.5, -1, 0, 0, 1)
        pixels.withUnsafeMutableBufferPointer {
            shader.rasterize(
                into: $0.baseAddress!, width: 4, height: 4, stride: 4, originX: 0, originY: 0, toExtrude: toExtrude)
        }
        #expect(pixels[5] == 0x8000_0080)
        #expect(pixels[0] == 0 && pixels[3] == 0 && pixels[12] == 0 && pixels[15] == 0)
        // An edge pixel's centre (0.5, 1.5) lies 0.79 of the radius out: faded, not gone.
        let edgeAlpha = pixels[4] >> 24
        #expect(edgeAlpha > 0 && edgeAlpha < 0x80)
    }

    @Test func aGroundDiscIsShadedThroughItsProjectiveMap() throws {
        // A disc squashed to half height on screen: the pixel centre 1.5 points below the centre of a radius-2 disc
        // is outside (1.5 × 2 = 3 > 2), the one 1.5 points to the side and 0.5 down inside.
        let shader = try #require(CircleShader(circle(radius: 2), pixelRatio: 1))
        var pixels = [UInt32](repeating: 0, count: 16)
        let squashed = RenderHomography(0.5, 0, -1, 0, 1, -2, 0, 0, 1)
        pixels.withUnsafeMutableBufferPointer {
            shader.rasterize(
                into: $0.baseAddress!, width: 4, height: 4, stride: 4, originX: 0, originY: 0, toExtrude: squashed)
        }
        #expect(pixels[2 + 4 * 3] == 0)
        #expect(pixels[3 + 4 * 2] >> 24 > 0)
    }

    @Test func defaultCirclesKeepVectorDrawing() {
        let c = CircleCommand(center: ScreenPoint(x: 1, y: 2), radius: 3, fillColor: .black)
        #expect(!c.mapLibreShading)
        #expect(c.groundCorners == nil)
    }
}

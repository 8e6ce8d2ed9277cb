/// MapLibre's circle shading (its `circle` fragment shader) as plain arithmetic: a disc of radius
/// `radius + strokeWidth` whose colour at a pixel depends only on the pixel centre's distance from the centre, so the
/// edge's antialiasing, the fill/ring boundary and `circle-blur` match MapLibre Native pixel for pixel.
///
/// Distances are *extrude lengths*: `0` at the centre, `1` on the outer edge (``CircleCommand/radius`` plus
/// ``CircleCommand/strokeWidth``). With `b = max(blur, 1 / (pixelRatio · (radius + strokeWidth)))`, the coverage
/// falls from 1 at length `1 − b` to 0 at length 1 (a smoothstep), and the colour turns from the fill to the ring
/// over the `b` just inside `radius / (radius + strokeWidth)`. Colours are premultiplied; the fill is multiplied by
/// ``CircleCommand/opacity``, the ring is not (its colour carries `circle-stroke-opacity`).
public struct CircleShader: Sendable {
    /// The fill colour times the circle's opacity, premultiplied: red, green, blue, alpha, each `0…1`.
    public let fill: (Double, Double, Double, Double)
    /// The ring colour, premultiplied.
    public let stroke: (Double, Double, Double, Double)
    /// The width of the fades, in extrude lengths (`> 0`).
    public let fade: Double
    /// The extrude length where the ring begins, `0…1`; `nil` without a ring (`strokeWidth < 0.01`).
    public let ringStart: Double?

    /// The shading of `circle` drawn `pixelRatio` device pixels per point (`> 0`); `nil` when the circle covers no
    /// pixel (a radius plus ring width of 0 or less, or not finite).
    public init?(_ circle: CircleCommand, pixelRatio: Double) {
        let outer = circle.radius + circle.strokeWidth
        guard outer > 0, outer.isFinite, pixelRatio > 0, pixelRatio.isFinite else { return nil }
        let opacity = min(max(circle.opacity, 0), 1)
        let f = circle.fillColor
        let fa = f.alpha * opacity
        fill = (f.red * fa, f.green * fa, f.blue * fa, fa)
        let s = circle.strokeColor
        stroke = (s.red * s.alpha, s.green * s.alpha, s.blue * s.alpha, s.alpha)
        let blur = circle.blur.isFinite ? max(circle.blur, 0) : 0
        fade = max(blur, 1 / (pixelRatio * outer))
        ringStart = circle.strokeWidth < 0.01 ? nil : max(circle.radius, 0) / outer
    }

    /// Hermite smoothstep of `x` between `e0` and `e1` (GLSL's `smoothstep`; `e1 < e0` fades the other way).
    @inline(__always) static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// The premultiplied colour (red, green, blue, alpha) of a pixel whose centre lies `length` extrude lengths
    /// from the centre; transparent at `length ≥ 1`.
    @inline(__always) public func color(atLength length: Double) -> (Double, Double, Double, Double) {
        guard length < 1 else { return (0, 0, 0, 0) }
        let coverage = Self.smoothstep(0, -fade, length - 1)
        var t = 0.0
        if let ringStart { t = Self.smoothstep(-fade, 0, length - ringStart) }
        let u = 1 - t
        return (
            coverage * (fill.0 * u + stroke.0 * t), coverage * (fill.1 * u + stroke.1 * t),
            coverage * (fill.2 * u + stroke.2 * t), coverage * (fill.3 * u + stroke.3 * t)
        )
    }

    /// Writes the circle into a premultiplied 32-bit ARGB buffer (`0xAARRGGBB` per pixel, Cairo's `ARGB32`) of
    /// `width × height` pixels, `stride` pixels per row, whose pixel `(0, 0)` is the device pixel
    /// `(originX, originY)`: each pixel takes the colour at its centre's extrude point, `toExtrude` applied to the
    /// centre's device coordinates. Pixels the circle misses are set to 0.
    public func rasterize(
        into buffer: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int, originX: Int, originY: Int,
        toExtrude: RenderHomography
    ) {
        let h = toExtrude
        for row in 0..<height {
            let y = Double(originY + row) + 0.5
            let line = buffer + row * stride
            for col in 0..<width {
                let x = Double(originX + col) + 0.5
                let w = h.m31 * x + h.m32 * y + h.m33
                var value: UInt32 = 0
                if w > 0 {
                    let ex = (h.m11 * x + h.m12 * y + h.m13) / w
                    let ey = (h.m21 * x + h.m22 * y + h.m23) / w
                    let l2 = ex * ex + ey * ey
                    if l2 < 1 {
                        let c = color(atLength: l2.squareRoot())
                        value = Self.pack(c)
                    }
                }
                line[col] = value
            }
        }
    }

    /// A premultiplied colour as Cairo's `ARGB32` word, each channel rounded to the nearest of 256 levels.
    @inline(__always) public static func pack(_ c: (Double, Double, Double, Double)) -> UInt32 {
        @inline(__always) func byte(_ v: Double) -> UInt32 { UInt32(min(max(v * 255 + 0.5, 0), 255)) }
        return byte(c.3) << 24 | byte(c.0) << 16 | byte(c.1) << 8 | byte(c.2)
    }
}

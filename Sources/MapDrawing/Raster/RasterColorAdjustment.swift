#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The colour pass of MapLibre's raster shader (`raster.fragment.glsl` with the uniforms of
/// `render_raster_layer.cpp`), applied per pixel to a decoded image on the CPU.
///
/// For each pixel, with straight-alpha colour `c` (0…1):
/// 1. hue rotation: `rgb = (c·w, c·w.zxy, c·w.yzx)` with `w = ((2 cos θ + 1)/3, (−√3 sin θ − cos θ + 1)/3,
///    (√3 sin θ − cos θ + 1)/3)`, θ = `raster-hue-rotate` in radians;
/// 2. saturation: `rgb += (mean(c) − rgb) · s`, where `s = 1 − 1/(1.001 − saturation)` for saturation > 0, else
///    `−saturation` (the mean is of the colour before the hue turn, as in the shader);
/// 3. contrast: `rgb = (rgb − 0.5) · k + 0.5`, where `k = 1/(1 − contrast)` for contrast > 0, else `1 + contrast`;
/// 4. brightness: `rgb = min + (max − min) · rgb` (`raster-brightness-min` / `-max`), clamped to 0…1 and
///    premultiplied again. Alpha is unchanged (`raster-opacity` is applied when the image is drawn).
public struct RasterColorAdjustment: Sendable, Hashable {
    /// `raster-hue-rotate` in degrees.
    public var hueRotate: Double
    /// `raster-brightness-min`, 0…1.
    public var brightnessMin: Double
    /// `raster-brightness-max`, 0…1.
    public var brightnessMax: Double
    /// `raster-saturation`, −1…1.
    public var saturation: Double
    /// `raster-contrast`, −1…1.
    public var contrast: Double

    /// Creates an adjustment; the defaults change nothing.
    public init(
        hueRotate: Double = 0, brightnessMin: Double = 0, brightnessMax: Double = 1, saturation: Double = 0,
        contrast: Double = 0
    ) {
        self.hueRotate = hueRotate
        self.brightnessMin = brightnessMin
        self.brightnessMax = brightnessMax
        self.saturation = saturation
        self.contrast = contrast
    }

    /// The shader's `u_saturation_factor`.
    public var saturationFactor: Double { saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation }
    /// The shader's `u_contrast_factor`.
    public var contrastFactor: Double { contrast > 0 ? 1 / (1 - contrast) : 1 + contrast }
    /// The shader's `u_spin_weights`.
    public var spinWeights: (Double, Double, Double) {
        let t = hueRotate * Double.pi / 180
        let s = sin(t)
        let c = cos(t)
        let r3 = 3.0.squareRoot()
        return ((2 * c + 1) / 3, (-r3 * s - c + 1) / 3, (r3 * s - c + 1) / 3)
    }

    /// Whether the pass changes nothing.
    public var isIdentity: Bool {
        hueRotate.truncatingRemainder(dividingBy: 360) == 0 && brightnessMin == 0 && brightnessMax == 1
            && saturation == 0 && contrast == 0
    }

    /// One straight-alpha colour (components 0…1) through the pass.
    public func apply(red r: Double, green g: Double, blue b: Double) -> (red: Double, green: Double, blue: Double) {
        let (w0, w1, w2) = spinWeights
        var x = r * w0 + g * w1 + b * w2
        var y = r * w2 + g * w0 + b * w1
        var z = r * w1 + g * w2 + b * w0
        let mean = (r + g + b) / 3
        let s = saturationFactor
        x += (mean - x) * s
        y += (mean - y) * s
        z += (mean - z) * s
        let k = contrastFactor
        x = (x - 0.5) * k + 0.5
        y = (y - 0.5) * k + 0.5
        z = (z - 0.5) * k + 0.5
        let lo = brightnessMin
        let hi = brightnessMax
        func out(_ v: Double) -> Double { min(1, max(0, lo + (hi - lo) * v)) }
        return (out(x), out(y), out(z))
    }

    /// `image` with every pixel passed through ``apply(red:green:blue:)`` (a copy; the input is unchanged).
    public func apply(to image: RasterImage) -> RasterImage {
        guard !isIdentity else { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = Double(p[i + 3])
                if a > 0 {
                    let c = apply(red: Double(p[i + 2]) / a, green: Double(p[i + 1]) / a, blue: Double(p[i]) / a)
                    p[i + 2] = UInt8((c.red * a).rounded())
                    p[i + 1] = UInt8((c.green * a).rounded())
                    p[i] = UInt8((c.blue * a).rounded())
                }
                i += 4
            }
        }
        return out
    }
}

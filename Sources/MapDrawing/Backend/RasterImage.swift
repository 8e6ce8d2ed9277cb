import MapGeometry

/// A bitmap in memory: premultiplied-alpha pixels, 4 bytes each, rows top to bottom without padding.
///
/// Byte order per pixel is **B, G, R, A** (Cairo's `CAIRO_FORMAT_ARGB32` on a little-endian machine, the only kind
/// Waymark targets), with colour components already multiplied by alpha (like mbgl's `PremultipliedImage`).
/// `scale` says how many pixels make one point, so a 512 × 512 image at scale 2 is 256 × 256 points.
public struct RasterImage: Hashable, Sendable {
    /// Width in pixels, `≥ 0`.
    public let width: Int
    /// Height in pixels, `≥ 0`.
    public let height: Int
    /// Pixels per point, `> 0`.
    public var scale: Double
    /// `width × height × 4` bytes, BGRA premultiplied, row-major from the top-left pixel.
    public var pixels: [UInt8]

    /// Wraps existing pixels. Precondition: `pixels.count == width × height × 4` (a programmer error otherwise).
    public init(width: Int, height: Int, scale: Double = 1, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "RasterImage: negative size \(width)x\(height)")
        precondition(
            pixels.count == width * height * 4,
            "RasterImage: \(pixels.count) bytes for \(width)x\(height) (need \(width * height * 4))")
        self.width = width
        self.height = height
        self.scale = scale
        self.pixels = pixels
    }

    /// A fully transparent image of the given pixel size.
    public init(width: Int, height: Int, scale: Double = 1) {
        self.init(
            width: max(0, width), height: max(0, height), scale: scale,
            pixels: [UInt8](repeating: 0, count: max(0, width) * max(0, height) * 4))
    }

    /// Bytes per row: `width × 4`.
    public var bytesPerRow: Int { width * 4 }
    /// The size in bytes of the pixel buffer.
    public var byteCount: Int { pixels.count }
    /// The size in points: pixels divided by ``scale``.
    public var pointSize: ScreenSize { ScreenSize(width: Double(width) / scale, height: Double(height) / scale) }

    /// The pixel at column `x`, row `y` as a straight-alpha colour (un-premultiplied); `nil` outside the image.
    public func color(x: Int, y: Int) -> RGBAColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        let a = Double(pixels[i + 3])
        guard a > 0 else { return .clear }
        return RGBAColor(
            red: Double(pixels[i + 2]) / a, green: Double(pixels[i + 1]) / a, blue: Double(pixels[i]) / a,
            alpha: a / 255)
    }

    /// The raw premultiplied bytes `(r, g, b, a)` at column `x`, row `y`; `nil` outside the image.
    public func premultipliedRGBA(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return (pixels[i + 2], pixels[i + 1], pixels[i], pixels[i + 3])
    }
}

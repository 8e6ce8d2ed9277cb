/// A colour in sRGB with straight (not premultiplied) alpha; every component is in `0…1`.
///
/// Components outside `0…1` are clamped by ``init(red:green:blue:alpha:)``, so a colour is always valid. Style colours
/// (MapLibre style spec, "Color") arrive here already parsed; backends premultiply when they draw.
public struct RGBAColor: Hashable, Sendable {
    /// Red, `0…1`.
    public var red: Double
    /// Green, `0…1`.
    public var green: Double
    /// Blue, `0…1`.
    public var blue: Double
    /// Opacity, `0…1` (0 = fully transparent). Straight alpha: the colour components are not multiplied by it.
    public var alpha: Double

    /// Creates a colour; each component is clamped to `0…1` (NaN becomes 0).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// Creates an opaque colour from a 24-bit `0xRRGGBB` value, with `alpha` in `0…1`.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    /// The colour with its alpha multiplied by `opacity` (clamped to `0…1`).
    public func withOpacity(_ opacity: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha * Self.clamp(opacity))
    }

    /// Transparent black.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)

    /// The colour as `#rrggbbaa`, each component rounded to 8 bits (the display-list text form).
    public var hexString: String {
        func hex(_ v: Double) -> String {
            let byte = Int((v * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[byte >> 4], digits[byte & 15]])
        }
        return "#" + hex(red) + hex(green) + hex(blue) + hex(alpha)
    }

    private static func clamp(_ v: Double) -> Double {
        v.isNaN ? 0 : min(1, max(0, v))
    }
}

import Foundation

/// A colour as four sRGB components, as UIKit's `UIColor`: red, green, blue and alpha, each in `0...1`.
///
/// Components are stored straight (not premultiplied) and clamped to `0...1` on creation. `UIColor` is immutable and
/// `Sendable`; it may be created and read on any thread. Named colours are the exact primaries (`.red`, `.blue` and so
/// on); the system and semantic colours (`.systemBlue`, `.systemBackground`, `.label`, …) are dynamic colours with
/// the light and dark values of Apple's Human Interface Guidelines (see `UIColor+Semantic.swift`). A dynamic colour
/// (``init(dynamicProvider:)``) resolves against ``UITraitCollection/current`` whenever its components are read.
public final class UIColor: Hashable, Sendable, CustomStringConvertible {
    private let storedRed: CGFloat
    private let storedGreen: CGFloat
    private let storedBlue: CGFloat
    private let storedAlpha: CGFloat
    /// The provider of a dynamic colour (nil for a fixed one). Called on the thread that resolves the colour.
    private nonisolated(unsafe) let dynamicProvider: ((UITraitCollection) -> UIColor)?

    /// Red component, `0...1` (a dynamic colour's, resolved against `UITraitCollection.current`).
    var red: CGFloat { fixed.storedRed }
    /// Green component, `0...1`.
    var green: CGFloat { fixed.storedGreen }
    /// Blue component, `0...1`.
    var blue: CGFloat { fixed.storedBlue }
    /// Alpha (opacity) component, `0...1`; 0 is fully transparent.
    var alpha: CGFloat { fixed.storedAlpha }

    /// This colour when fixed, else the fixed colour it resolves to against `UITraitCollection.current`.
    private var fixed: UIColor {
        dynamicProvider == nil ? self : resolvedColor(with: UITraitCollection.current)
    }

    /// Creates a colour from sRGB components; each is clamped to `0...1` (NaN becomes 0).
    /// - Parameters:
    ///   - red: red intensity, `0...1`.
    ///   - green: green intensity, `0...1`.
    ///   - blue: blue intensity, `0...1`.
    ///   - alpha: opacity, `0...1`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        storedRed = clampUnit(red)
        storedGreen = clampUnit(green)
        storedBlue = clampUnit(blue)
        storedAlpha = clampUnit(alpha)
        dynamicProvider = nil
    }

    /// Creates a dynamic colour, as UIKit's `init(dynamicProvider:)` (written `UIColor { traits in … }`): whenever
    /// the colour is used (its components, ``cgColor``, drawing, a view's background) it asks `dynamicProvider` for
    /// the colour that fits the traits in effect — ``UITraitCollection/current``, which views set to their own
    /// ``UITraitCollection`` while they draw, lay out and handle a trait change. The provider is called on the
    /// thread that resolves the colour (the main thread for views) and may return another dynamic colour.
    public init(dynamicProvider: @escaping (UITraitCollection) -> UIColor) {
        storedRed = 0
        storedGreen = 0
        storedBlue = 0
        storedAlpha = 0
        self.dynamicProvider = dynamicProvider
    }

    /// The fixed colour this colour is for `traitCollection`, as UIKit's `resolvedColor(with:)`: the colour itself
    /// when it is not dynamic.
    public func resolvedColor(with traitCollection: UITraitCollection) -> UIColor {
        var color = self
        var depth = 0
        while let provider = color.dynamicProvider, depth < 8 {
            color = provider(traitCollection)
            depth += 1
        }
        return color.dynamicProvider == nil ? color : .clear
    }

    /// Whether the colour is dynamic (made with ``init(dynamicProvider:)``).
    var isDynamic: Bool { dynamicProvider != nil }

    /// Creates a grey: all three colour components equal `white` (`0...1`, clamped), with the given alpha (`0...1`).
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Creates a colour from hue, saturation and brightness (the HSB/HSV model), as UIKit's initialiser.
    /// - Parameters:
    ///   - hue: `0...1` around the colour wheel (0 and 1 are red); values outside wrap around.
    ///   - saturation: `0...1` (clamped); 0 is grey.
    ///   - brightness: `0...1` (clamped); 0 is black.
    ///   - alpha: `0...1` (clamped).
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = hue.isFinite ? (hue - hue.rounded(.down)) * 6 : 0
        let s = clampUnit(saturation)
        let v = clampUnit(brightness)
        let sector = Int(h.rounded(.down)) % 6
        let f = h - h.rounded(.down)
        let p = v * (1 - s)
        let q = v * (1 - s * f)
        let t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat)
        switch sector {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// Creates a colour with the components of a ``CGColor``.
    public convenience init(cgColor: CGColor) {
        self.init(red: cgColor.red, green: cgColor.green, blue: cgColor.blue, alpha: cgColor.alpha)
    }

    /// The same colour with its alpha replaced by `alpha` (`0...1`, clamped).
    /// A dynamic colour gives a dynamic colour whose every resolution has its alpha replaced.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        if let provider = dynamicProvider {
            return UIColor { provider($0).withAlphaComponent(alpha) }
        }
        return UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Reads the sRGB components, as UIKit's `getRed(_:green:blue:alpha:)`. Any pointer may be `nil`.
    /// - Returns: always `true`: every `UIColor` here is in a compatible RGB colour space.
    @discardableResult
    public func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
        blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    /// Reads the colour as a grey level and alpha, as UIKit's `getWhite(_:alpha:)`.
    ///
    /// The grey is the Rec. 709 luma of the components (`0.2126 r + 0.7152 g + 0.0722 b`).
    /// - Returns: always `true`.
    @discardableResult
    public func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        white?.pointee = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        alpha?.pointee = self.alpha
        return true
    }

    /// The components as a Core Graphics–style colour, for `CALayer` properties such as `borderColor`.
    /// A dynamic colour is resolved against ``UITraitCollection/current``.
    public var cgColor: CGColor {
        let f = fixed
        return CGColor(red: f.storedRed, green: f.storedGreen, blue: f.storedBlue, alpha: f.storedAlpha)
    }

    /// The components `(red, green, blue, alpha)`, each `0...1`. A Waymark convenience, not in UIKit.
    public var rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        let f = fixed
        return (f.storedRed, f.storedGreen, f.storedBlue, f.storedAlpha)
    }

    /// A textual form such as `UIColor(r: 1.000, g: 0.000, b: 0.000, a: 1.000)`.
    public var description: String {
        String(format: "UIColor(r: %.3f, g: %.3f, b: %.3f, a: %.3f)", red, green, blue, alpha)
    }

    /// Two fixed colours are equal when all four components are equal; a dynamic colour equals only itself.
    public static func == (lhs: UIColor, rhs: UIColor) -> Bool {
        if lhs.isDynamic || rhs.isDynamic { return lhs === rhs }
        return lhs.red == rhs.red && lhs.green == rhs.green && lhs.blue == rhs.blue && lhs.alpha == rhs.alpha
    }

    /// Hashes the four components (a dynamic colour: its identity).
    public func hash(into hasher: inout Hasher) {
        if isDynamic {
            hasher.combine(ObjectIdentifier(self))
            return
        }
        hasher.combine(red)
        hasher.combine(green)
        hasher.combine(blue)
        hasher.combine(alpha)
    }

    /// Component-wise linear interpolation of straight RGBA, `fraction` 0 gives `self`, 1 gives `other`.
    func interpolated(to other: UIColor, fraction: CGFloat) -> UIColor {
        UIColor(
            red: red + (other.red - red) * fraction, green: green + (other.green - green) * fraction,
            blue: blue + (other.blue - blue) * fraction, alpha: alpha + (other.alpha - alpha) * fraction)
    }
}

private func clampUnit(_ v: CGFloat) -> CGFloat {
    v.isNaN ? 0 : min(max(v, 0), 1)
}

extension UIColor {
    /// Black, `(0, 0, 0, 1)`.
    public static let black = UIColor(white: 0, alpha: 1)
    /// Dark grey, white 1/3.
    public static let darkGray = UIColor(white: 1.0 / 3.0, alpha: 1)
    /// Light grey, white 2/3.
    public static let lightGray = UIColor(white: 2.0 / 3.0, alpha: 1)
    /// White, `(1, 1, 1, 1)`.
    public static let white = UIColor(white: 1, alpha: 1)
    /// Grey, white 0.5.
    public static let gray = UIColor(white: 0.5, alpha: 1)
    /// Red, `(1, 0, 0, 1)`.
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// Green, `(0, 1, 0, 1)`.
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    /// Blue, `(0, 0, 1, 1)`.
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    /// Cyan, `(0, 1, 1, 1)`.
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    /// Yellow, `(1, 1, 0, 1)`.
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    /// Magenta, `(1, 0, 1, 1)`.
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    /// Orange, `(1, 0.5, 0, 1)`.
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    /// Purple, `(0.5, 0, 0.5, 1)`.
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    /// Brown, `(0.6, 0.4, 0.2, 1)`.
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    /// Fully transparent black, `(0, 0, 0, 0)`.
    public static let clear = UIColor(white: 0, alpha: 0)
}

/// A colour value for layer properties, standing in for Core Graphics' `CGColor` (which Foundation on Linux lacks).
///
/// Always sRGB with four straight (non-premultiplied) components in `0...1`. Immutable; `Sendable`. Get one from
/// ``UIColor/cgColor`` and turn it back with ``UIColor/init(cgColor:)``.
public final class CGColor: Hashable, Sendable {
    let red: CGFloat
    let green: CGFloat
    let blue: CGFloat
    /// The alpha component, `0...1`.
    public let alpha: CGFloat

    /// Creates an sRGB colour; components are clamped to `0...1`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = clampUnit(red)
        self.green = clampUnit(green)
        self.blue = clampUnit(blue)
        self.alpha = clampUnit(alpha)
    }

    /// The components `[red, green, blue, alpha]`, as Core Graphics' `components`.
    public var components: [CGFloat]? { [red, green, blue, alpha] }
    /// Always 4 (RGBA).
    public var numberOfComponents: Int { 4 }

    /// Equal when all four components are equal.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.red == rhs.red && lhs.green == rhs.green && lhs.blue == rhs.blue && lhs.alpha == rhs.alpha
    }

    /// Hashes the four components.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(red)
        hasher.combine(green)
        hasher.combine(blue)
        hasher.combine(alpha)
    }
}

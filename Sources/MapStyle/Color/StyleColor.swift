/// An sRGB colour with straight (not premultiplied) alpha, every channel in 0…1.
///
/// Parsed from CSS Color Module Level 4 strings as the style specification's `color` type allows: hex `#rgb`,
/// `#rgba`, `#rrggbb`, `#rrggbbaa`; `rgb()`/`rgba()` and `hsl()`/`hsla()` in comma or space syntax with optional
/// `/ alpha`; the 148 CSS named colours and `transparent`.
public struct StyleColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// Creates a colour from channels in 0…1; values outside are clamped.
    /// - Parameters:
    ///   - red: red, 0…1.
    ///   - green: green, 0…1.
    ///   - blue: blue, 0…1.
    ///   - alpha: opacity, 0…1. Defaults to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = StyleColor.clamp01(red)
        self.green = StyleColor.clamp01(green)
        self.blue = StyleColor.clamp01(blue)
        self.alpha = StyleColor.clamp01(alpha)
    }

    static func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    /// Opaque black.
    public static let black = StyleColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = StyleColor(red: 1, green: 1, blue: 1)
    /// Transparent black (`rgba(0,0,0,0)`).
    public static let transparent = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The channels premultiplied by alpha, `[r·a, g·a, b·a, a]`, as MapLibre's `Color` stores them.
    public var premultipliedComponents: [Double] { [red * alpha, green * alpha, blue * alpha, alpha] }

    /// `rgba(R,G,B,A)` with 0…255 channels rounded to integers, as CSS serialises colours.
    public var description: String {
        "rgba(\(Int((red * 255).rounded())),\(Int((green * 255).rounded())),\(Int((blue * 255).rounded())),\(ExpressionValue.formatNumber(alpha)))"
    }

    /// Parses a CSS colour string; see the type's documentation for the accepted forms. Fails (`nil`) when the string
    /// is not a colour.
    /// - Parameter css: the string, case-insensitive, surrounding whitespace ignored.
    public init?(css: String) {
        guard let c = CSSColorParser.parse(css) else { return nil }
        self = c
    }

    /// Linear interpolation of straight RGBA channels (MapLibre interpolates colours in RGB before premultiplying).
    /// - Parameters:
    ///   - from: colour at `t = 0`.
    ///   - to: colour at `t = 1`.
    ///   - t: fraction, usually 0…1.
    /// - Returns: the blended colour.
    public static func interpolate(_ from: StyleColor, _ to: StyleColor, _ t: Double) -> StyleColor {
        StyleColor(
            red: from.red + (to.red - from.red) * t, green: from.green + (to.green - from.green) * t,
            blue: from.blue + (to.blue - from.blue) * t, alpha: from.alpha + (to.alpha - from.alpha) * t)
    }
}

/// The CSS colour grammar subset described on ``StyleColor``.
enum CSSColorParser {
    static func parse(_ input: String) -> StyleColor? {
        let s = input.trimmingASCIIWhitespace().lowercased()
        if s.isEmpty { return nil }
        if s == "transparent" { return .transparent }
        if let hex = namedColors[s] { return fromHex(hex, count: 6) }
        if s.hasPrefix("#") { return parseHex(String(s.dropFirst())) }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return nil }
        let name = String(s[..<open]).trimmingASCIIWhitespace()
        let body = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
        switch name {
        case "rgb", "rgba": return parseRGB(body)
        case "hsl", "hsla": return parseHSL(body)
        default: return nil
        }
    }

    static func parseHex(_ h: String) -> StyleColor? {
        guard h.allSatisfy({ $0.isHexDigit }) else { return nil }
        switch h.count {
        case 3, 4:
            let doubled = h.map { "\($0)\($0)" }.joined()
            return fromHex(doubled, count: doubled.count)
        case 6, 8: return fromHex(h, count: h.count)
        default: return nil
        }
    }

    static func fromHex(_ h: String, count: Int) -> StyleColor? {
        guard let v = UInt64(h, radix: 16) else { return nil }
        if count == 8 {
            return StyleColor(
                red: Double((v >> 24) & 0xFF) / 255, green: Double((v >> 16) & 0xFF) / 255,
                blue: Double((v >> 8) & 0xFF) / 255, alpha: Double(v & 0xFF) / 255)
        }
        return StyleColor(
            red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
    }

    /// Splits `a, b, c` / `a b c / d` into channel tokens and the optional alpha token.
    static func splitArguments(_ body: String) -> (channels: [String], alpha: String?)? {
        let trimmed = body.trimmingASCIIWhitespace()
        if trimmed.contains(",") {
            let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0).trimmingASCIIWhitespace()
            }
            if parts.contains(where: { $0.isEmpty || $0.contains(" ") || $0.contains("/") }) { return nil }
            if parts.count == 3 { return (parts, nil) }
            if parts.count == 4 { return (Array(parts[0..<3]), parts[3]) }
            return nil
        }
        var channelPart = trimmed
        var alpha: String?
        if let slash = trimmed.firstIndex(of: "/") {
            channelPart = String(trimmed[..<slash])
            alpha = String(trimmed[trimmed.index(after: slash)...]).trimmingASCIIWhitespace()
            if alpha!.isEmpty || alpha!.contains(" ") || alpha!.contains("/") { return nil }
        }
        let parts = channelPart.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard parts.count == 3 else { return nil }
        return (parts, alpha)
    }

    static func number(_ token: String) -> Double? {
        guard !token.isEmpty, let first = token.first, first.isNumber || first == "." || first == "-" || first == "+"
        else { return nil }
        return Double(token)
    }

    /// A percentage (`50%` → 0.5) or `nil`.
    static func percent(_ token: String) -> Double? {
        guard token.hasSuffix("%"), let v = number(String(token.dropLast())) else { return nil }
        return v / 100
    }

    static func alphaValue(_ token: String?) -> Double? {
        guard let token else { return 1 }
        if let p = percent(token) { return p }
        return number(token)
    }

    static func parseRGB(_ body: String) -> StyleColor? {
        guard let (channels, alphaToken) = splitArguments(body) else { return nil }
        // All three channels must be numbers or all three percentages.
        let percents = channels.map(percent)
        let values: [Double]
        if percents.allSatisfy({ $0 != nil }) {
            values = percents.map { $0! }
        } else {
            let numbers = channels.map(number)
            guard numbers.allSatisfy({ $0 != nil }) else { return nil }
            values = numbers.map { $0! / 255 }
        }
        guard let a = alphaValue(alphaToken) else { return nil }
        return StyleColor(red: values[0], green: values[1], blue: values[2], alpha: a)
    }

    static func parseHSL(_ body: String) -> StyleColor? {
        guard let (channels, alphaToken) = splitArguments(body) else { return nil }
        var hueToken = channels[0]
        if hueToken.hasSuffix("deg") { hueToken = String(hueToken.dropLast(3)) }
        guard let hue = number(hueToken), let sat = percent(channels[1]), let light = percent(channels[2]),
            let a = alphaValue(alphaToken)
        else { return nil }
        let (r, g, b) = hslToRGB(hue: hue, saturation: StyleColor.clamp01(sat), lightness: StyleColor.clamp01(light))
        return StyleColor(red: r, green: g, blue: b, alpha: a)
    }

    /// CSS Color 4 §7.1 HSL → sRGB; hue in degrees, saturation and lightness 0…1.
    static func hslToRGB(hue: Double, saturation s: Double, lightness l: Double) -> (Double, Double, Double) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (f(0), f(8), f(4))
    }

    /// CSS named colours (CSS Color 4 §6.1) as `rrggbb`.
    static let namedColors: [String: String] = {
        let table = """
            aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 \
            black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 \
            cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc \
            crimson dc143c cyan 00ffff darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 \
            darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f \
            darkorange ff8c00 darkorchid 9932cc darkred 8b0000 darksalmon e9967a darkseagreen 8fbc8f \
            darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 \
            deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 \
            floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 \
            goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 hotpink ff69b4 \
            indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 \
            lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff \
            lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 \
            lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899 \
            lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff \
            maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db \
            mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc \
            mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 \
            navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 \
            orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee \
            palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd \
            powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 \
            saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d \
            silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa \
            springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 \
            turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 \
            yellowgreen 9acd32
            """
        let words = table.split(separator: " ").map(String.init)
        var result: [String: String] = [:]
        var i = 0
        while i + 1 < words.count {
            result[words[i]] = words[i + 1]
            i += 2
        }
        return result
    }()
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingASCIIWhitespace() -> String {
        var scalars = Substring(self)
        while let f = scalars.first, f == " " || f == "\t" || f == "\n" || f == "\r" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" || l == "\n" || l == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}

import CairoGraphics
import Foundation

/// A font: a family, a size in points and a weight, as UIKit's `UIFont`, resolved through fontconfig and Pango.
///
/// The system font is the fontconfig family `sans-serif` (DejaVu Sans under the test font configuration). Sizes are
/// in points, the unit of view coordinates, and are used as Pango *absolute* sizes (one em = `pointSize` user units).
/// Immutable and `Sendable`.
public final class UIFont: Hashable, Sendable {
    /// A font weight on UIKit's scale, from `-1` (lightest) to `1` (heaviest); `0` is regular.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        /// The weight on UIKit's `-1...1` scale.
        public var rawValue: CGFloat
        /// Creates a weight from its UIKit value (`-1...1`).
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// Ultra-light, `-0.8`.
        public static let ultraLight = Weight(rawValue: -0.8)
        /// Thin, `-0.6`.
        public static let thin = Weight(rawValue: -0.6)
        /// Light, `-0.4`.
        public static let light = Weight(rawValue: -0.4)
        /// Regular, `0`.
        public static let regular = Weight(rawValue: 0)
        /// Medium, `0.23`.
        public static let medium = Weight(rawValue: 0.23)
        /// Semibold, `0.3`.
        public static let semibold = Weight(rawValue: 0.3)
        /// Bold, `0.4`.
        public static let bold = Weight(rawValue: 0.4)
        /// Heavy, `0.56`.
        public static let heavy = Weight(rawValue: 0.56)
        /// Black, `0.62`.
        public static let black = Weight(rawValue: 0.62)

        /// The CSS/OpenType weight (100…900) Pango uses for this UIKit weight.
        var pangoWeight: Int32 {
            switch rawValue {
            case ..<(-0.7): return 200
            case ..<(-0.5): return 100
            case ..<(-0.2): return 300
            case ..<0.15: return 400
            case ..<0.27: return 500
            case ..<0.35: return 600
            case ..<0.5: return 700
            case ..<0.6: return 800
            default: return 900
            }
        }
    }

    /// The family name, e.g. `"DejaVu Sans"`, or `"System"` for the system font.
    public let familyName: String
    /// The font name as given to ``init(name:size:)``, or `".SFUI-Regular"`-style names for the system font.
    public let fontName: String
    /// The size in points (> 0).
    public let pointSize: CGFloat
    /// The weight.
    let weight: Weight
    /// True for italic faces.
    let isItalic: Bool
    /// The fontconfig family Pango resolves.
    let pangoFamily: String

    init(family: String, pangoFamily: String, fontName: String, size: CGFloat, weight: Weight, italic: Bool) {
        familyName = family
        self.pangoFamily = pangoFamily
        self.fontName = fontName
        pointSize = size.isFinite && size > 0 ? size : UIFont.systemFontSize
        self.weight = weight
        isItalic = italic
    }

    /// The default system font size, 17 points.
    public static let systemFontSize: CGFloat = 17
    /// The default label font size, 17 points.
    public static let labelFontSize: CGFloat = 17

    /// The system font (`sans-serif`) at `fontSize` points (non-positive or non-finite sizes become 17) and regular
    /// weight.
    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .regular)
    }

    /// The system font at `fontSize` points with the given weight.
    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(
            family: "System", pangoFamily: "sans-serif",
            fontName: ".SFUI-\(weight.rawValue >= 0.35 ? "Bold" : "Regular")",
            size: fontSize, weight: weight, italic: false)
    }

    /// The bold system font at `fontSize` points.
    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .bold)
    }

    /// The italic system font at `fontSize` points.
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(
            family: "System", pangoFamily: "sans-serif", fontName: ".SFUI-Italic", size: fontSize, weight: .regular,
            italic: true)
    }

    /// A font by name, as UIKit's `init?(name:size:)`, or `nil` when no installed family matches.
    ///
    /// `fontName` is a fontconfig family (`"DejaVu Serif"`, matched case-insensitively among Pango's installed
    /// families) optionally followed by a PostScript-style suffix `-Bold`, `-Italic`, `-BoldItalic`, `-Oblique`,
    /// `-Light`, `-Medium`, `-Semibold`, `-Regular` (`"DejaVuSans-Bold"` also works: spaces are ignored when
    /// matching). Generic families `sans-serif`, `serif` and `monospace` are always available.
    /// - Parameters:
    ///   - fontName: the family name with optional style suffix.
    ///   - fontSize: size in points; non-positive or non-finite sizes become 17.
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        var base = fontName
        var weight = Weight.regular
        var italic = false
        if let dash = fontName.lastIndex(of: "-"), dash != fontName.startIndex {
            let style = fontName[fontName.index(after: dash)...].lowercased()
            let styles: [String: (Weight, Bool)] = [
                "bold": (.bold, false), "italic": (.regular, true), "oblique": (.regular, true),
                "bolditalic": (.bold, true), "boldoblique": (.bold, true), "light": (.light, false),
                "medium": (.medium, false), "semibold": (.semibold, false), "regular": (.regular, false),
                "roman": (.regular, false),
            ]
            if let s = styles[style] {
                (weight, italic) = s
                base = String(fontName[..<dash])
            }
        }
        guard let family = FontCatalog.resolve(base) else { return nil }
        self.init(
            family: family, pangoFamily: family, fontName: fontName, size: fontSize, weight: weight, italic: italic)
    }

    /// The same font at another size (points).
    public func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(
            family: familyName, pangoFamily: pangoFamily, fontName: fontName, size: fontSize, weight: weight,
            italic: isItalic)
    }

    /// The names of the installed font families, sorted (from Pango's fontconfig font map).
    public static var familyNames: [String] { FontCatalog.families }

    /// The distance from the baseline to the top of the tallest glyphs, in points (positive).
    public var ascender: CGFloat { metrics.ascent }
    /// The distance from the baseline to the bottom of the lowest glyphs, in points (negative, as UIKit).
    public var descender: CGFloat { -metrics.descent }
    /// The default line height, in points: ascender − descender.
    public var lineHeight: CGFloat { metrics.ascent + metrics.descent }

    private var metrics: (ascent: CGFloat, descent: CGFloat) {
        TextLayout.fontMetrics(self)
    }

    /// Equal when family, size, weight and slant match.
    public static func == (lhs: UIFont, rhs: UIFont) -> Bool {
        lhs.pangoFamily == rhs.pangoFamily && lhs.pointSize == rhs.pointSize && lhs.weight == rhs.weight
            && lhs.isItalic == rhs.isItalic
    }

    /// Hashes family, size, weight and slant.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pangoFamily)
        hasher.combine(pointSize)
        hasher.combine(weight)
        hasher.combine(isItalic)
    }

    /// The font as CairoGraphics lays text out with it (family, absolute size in points, weight, slant).
    var pangoFont: PangoFont {
        PangoFont(families: pangoFamily, size: Double(pointSize), weight: Int(weight.pangoWeight), italic: isItalic)
    }
}

/// The installed font families, listed once from the thread's Pango font map (``PangoFontContext``).
enum FontCatalog {
    static let families: [String] = PangoFontContext.current.familyNames.sorted()

    /// The installed family matching `name` (case-insensitively, ignoring spaces), or a generic family, or nil.
    static func resolve(_ name: String) -> String? {
        let generic = ["sans-serif", "sans", "serif", "monospace"]
        if generic.contains(name.lowercased()) { return name.lowercased() }
        let key = name.lowercased().replacingOccurrences(of: " ", with: "")
        return families.first { $0.lowercased().replacingOccurrences(of: " ", with: "") == key }
    }
}

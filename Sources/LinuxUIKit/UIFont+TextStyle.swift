import Foundation

extension UIFont {
    /// A Dynamic Type text style, as UIKit's `UIFont.TextStyle`; ``UIFont/preferredFont(forTextStyle:)`` gives its
    /// font at the default ("Large") content size.
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        /// UIKit's name for the style (e.g. `"UICTFontTextStyleBody"`).
        public let rawValue: String
        /// Creates a style from its UIKit name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Large title: 34 points, regular.
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        /// Title 1: 28 points, regular.
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        /// Title 2: 22 points, regular.
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        /// Title 3: 20 points, regular.
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        /// Headline: 17 points, semibold.
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        /// Body: 17 points, regular.
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        /// Callout: 16 points, regular.
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        /// Subheadline: 15 points, regular.
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        /// Footnote: 13 points, regular.
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        /// Caption 1: 12 points, regular.
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        /// Caption 2: 11 points, regular.
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// The size (points) and weight at iOS's default content size; body for an unknown style.
        var metrics: (size: CGFloat, weight: Weight) {
            switch self {
            case .largeTitle: return (34, .regular)
            case .title1: return (28, .regular)
            case .title2: return (22, .regular)
            case .title3: return (20, .regular)
            case .headline: return (17, .semibold)
            case .callout: return (16, .regular)
            case .subheadline: return (15, .regular)
            case .footnote: return (13, .regular)
            case .caption1: return (12, .regular)
            case .caption2: return (11, .regular)
            default: return (17, .regular)
            }
        }
    }

    /// The system font for a text style at iOS's default content size, as UIKit's `preferredFont(forTextStyle:)`:
    /// largeTitle 34, title1 28, title2 22, title3 20, headline 17 semibold, body 17, callout 16, subheadline 15,
    /// footnote 13, caption1 12, caption2 11 points (an unknown style gives body). Waymark has no Dynamic Type
    /// setting, so the sizes never change.
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        let (size, weight) = style.metrics
        return systemFont(ofSize: size, weight: weight)
    }

    /// The system font whose digits all have the same width, as UIKit's `monospacedDigitSystemFont(ofSize:weight:)`.
    /// The Linux system font (DejaVu Sans) already has tabular digits, so this is ``systemFont(ofSize:weight:)``.
    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The monospaced system font (fontconfig's `monospace`, DejaVu Sans Mono under the test configuration) at
    /// `fontSize` points (non-positive or non-finite sizes become 17), as UIKit's
    /// `monospacedSystemFont(ofSize:weight:)`.
    public static func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(
            family: "System Mono", pangoFamily: "monospace", fontName: ".SFMono-Regular", size: fontSize,
            weight: weight, italic: false)
    }
}

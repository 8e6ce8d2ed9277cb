import MapGeometry

/// How a text label looks: font, colour, halo and paragraph settings, with every length in points.
///
/// The fields follow the MapLibre style spec's symbol layer (`text-font`, `text-size`, `text-color`, `text-halo-*`,
/// `text-letter-spacing`, `text-line-height`, `text-max-width`, `text-justify`); layout converts the spec's em units to
/// points (`ems × size`) before building a style, except ``lineHeight`` which stays a multiple of ``size``.
/// Hashable so backends can key rendered label sprites on `(text, style, scale)`.
public struct TextStyle: Hashable, Sendable {
    /// Font weight on the CSS/OpenType scale `100…900` (400 regular, 700 bold).
    public struct Weight: Hashable, Sendable, Comparable {
        /// The numeric weight, clamped to `100…1000`.
        public var value: Int
        /// Creates a weight; clamped to `100…1000`.
        public init(_ value: Int) { self.value = min(1000, max(100, value)) }
        /// 400.
        public static let regular = Weight(400)
        /// 500.
        public static let medium = Weight(500)
        /// 700.
        public static let bold = Weight(700)
        /// Orders weights by their numeric value.
        public static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.value < rhs.value }
    }

    /// Horizontal alignment of the lines of a multi-line label (`text-justify`).
    public enum Justify: String, Hashable, Sendable {
        /// Lines start at the left edge.
        case left
        /// Lines are centred (the default).
        case center
        /// Lines end at the right edge.
        case right
    }

    /// Font families in order of preference (`text-font`), for example `["Noto Sans", "DejaVu Sans"]`; generic
    /// families (`sans-serif`) are allowed. Characters missing from every family fall back through fontconfig.
    /// Default `["sans-serif"]`.
    public var fontFamilies: [String]
    /// Font size in points (`text-size`); must be > 0. Default 16.
    public var size: Double
    /// Font weight. Default regular (400).
    public var weight: Weight
    /// Whether the backend's fonts draw the text slanted: the italic face of ``fontFamilies`` (`text-font` naming an
    /// Italic or Oblique face). Default `false`, upright.
    public var italic = false
    /// Fill colour of the glyphs (`text-color`). Default black.
    public var color: RGBAColor
    /// Halo colour (`text-halo-color`). Default transparent (no halo).
    public var haloColor: RGBAColor
    /// Distance of the halo outside the glyph outlines, in points (`text-halo-width`), `≥ 0`; 0 means no halo.
    /// The spec caps it at a quarter of the font size; backends apply that cap. Default 0.
    public var haloWidth: Double
    /// Fade-out distance of the halo, in points (`text-halo-blur`), `≥ 0`. Default 0.
    public var haloBlur: Double
    /// Extra space between consecutive characters, in points (`text-letter-spacing` × size): a line of `n`
    /// characters grows by `(n − 1) × letterSpacing`, as in MapLibre's shaping. Default 0.
    public var letterSpacing: Double
    /// Distance between baselines of consecutive lines as a multiple of ``size`` (`text-line-height`). Default 1.2.
    public var lineHeight: Double
    /// Wrap width in points (`text-max-width` × size); `nil` or `≤ 0` means no wrapping. Default `nil`.
    public var maxWidth: Double?
    /// Alignment of wrapped lines (`text-justify`). Default center.
    public var justify: Justify
    /// The style's fontstack (`text-font` joined by commas, as glyph URLs name it) when the style names `glyphs`:
    /// renderers that have the glyphs lay out and draw text its ranges cover from them, other text with the
    /// backend's fonts (``fontFamilies``). `nil` (the default): the backend's fonts. Waymark's own.
    public var glyphFontstack: String?
    /// The runs of a formatted label (`text-field: ["format", …]`), in reading order, together covering the whole
    /// text: each run's own `font-scale`, fontstack and colour. Empty (the default): the whole text in this style.
    /// Only the glyph path draws them; the backend's fonts draw the text in this style. Waymark's own.
    public var sections: [Section] = []
    /// Lays the label out in MapLibre's vertical writing mode (`text-writing-mode: vertical` on a point label whose
    /// text has characters upright in vertical text): lines run top to bottom, CJK characters upright, other
    /// characters turned clockwise, punctuation in its vertical forms. Only the glyph path draws it. Default `false`.
    /// Waymark's own.
    public var verticalWriting = false

    /// One run of a formatted label: a stretch of the text with its own size, fontstack and colour. Waymark's own.
    public struct Section: Hashable, Sendable {
        /// How many Unicode scalars of the text the run covers, `≥ 0`.
        public var scalarCount: Int
        /// `font-scale`: the run's size as a multiple of ``TextStyle/size``, `> 0`. Default 1.
        public var scale: Double
        /// The run's fontstack (its `text-font` joined by commas), or `nil` for ``TextStyle/glyphFontstack``.
        public var glyphFontstack: String?
        /// The run's fill colour (`text-color`), or `nil` for ``TextStyle/color``.
        public var color: RGBAColor?

        /// Creates a run; see the properties for units and defaults.
        public init(scalarCount: Int, scale: Double = 1, glyphFontstack: String? = nil, color: RGBAColor? = nil) {
            self.scalarCount = scalarCount
            self.scale = scale
            self.glyphFontstack = glyphFontstack
            self.color = color
        }
    }

    /// Creates a text style; see each property for units and defaults.
    public init(
        fontFamilies: [String] = ["sans-serif"], size: Double = 16, weight: Weight = .regular,
        color: RGBAColor = .black, haloColor: RGBAColor = .clear, haloWidth: Double = 0, haloBlur: Double = 0,
        letterSpacing: Double = 0, lineHeight: Double = 1.2, maxWidth: Double? = nil, justify: Justify = .center,
        glyphFontstack: String? = nil
    ) {
        self.fontFamilies = fontFamilies
        self.size = size
        self.weight = weight
        self.color = color
        self.haloColor = haloColor
        self.haloWidth = haloWidth
        self.haloBlur = haloBlur
        self.letterSpacing = letterSpacing
        self.lineHeight = lineHeight
        self.maxWidth = maxWidth
        self.justify = justify
        self.glyphFontstack = glyphFontstack
    }

    /// True when a halo is visible: positive width and non-transparent colour.
    public var hasHalo: Bool { haloWidth > 0 && haloColor.alpha > 0 }

    /// The halo width backends draw: ``haloWidth`` capped at `size / 4` (MapLibre style spec, `text-halo-width`).
    public var effectiveHaloWidth: Double { max(0, min(haloWidth, size / 4)) }
}

/// Which point of a label's box sits on the anchor position (`text-anchor` in the MapLibre style spec).
///
/// The box is the label's logical text box (every line, including ascent and descent), before rotation.
public enum TextAnchor: String, Hashable, Sendable, CaseIterable {
    /// The centre of the box.
    case center
    /// The middle of the left edge.
    case left
    /// The middle of the right edge.
    case right
    /// The middle of the top edge.
    case top
    /// The middle of the bottom edge.
    case bottom
    /// The top-left corner.
    case topLeft = "top-left"
    /// The top-right corner.
    case topRight = "top-right"
    /// The bottom-left corner.
    case bottomLeft = "bottom-left"
    /// The bottom-right corner.
    case bottomRight = "bottom-right"

    /// The anchor as fractions of the box: `(0, 0)` top-left, `(1, 1)` bottom-right.
    public var unitOffset: (x: Double, y: Double) {
        switch self {
        case .center: return (0.5, 0.5)
        case .left: return (0, 0.5)
        case .right: return (1, 0.5)
        case .top: return (0.5, 0)
        case .bottom: return (0.5, 1)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }

    /// The top-left corner of a `size` box whose anchor point is at `position` (no rotation), in points.
    public func boxOrigin(for size: ScreenSize, at position: ScreenPoint) -> ScreenPoint {
        let u = unitOffset
        return ScreenPoint(x: position.x - u.x * size.width, y: position.y - u.y * size.height)
    }
}

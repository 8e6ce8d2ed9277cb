/// One character drawn by a backend's fonts, as the coverage of its pixels: what the renderer turns into a signed
/// distance field for a glyph a style's glyph ranges lack (``GlyphCoverageSource``). Waymark's own.
///
/// Pixel `(x, y)` of the bitmap covers `[left + x, left + x + 1)` right of the pen and `[top − y − 1, top − y)` above
/// the baseline (y up), as a glyph PBF's `left` and `top` place its bitmap.
public struct GlyphCoverage: Sendable, Equatable {
    /// The bitmap's width in pixels, `≥ 0`.
    public var width: Int
    /// The bitmap's height in pixels, `≥ 0`.
    public var height: Int
    /// Coverage per pixel, rows top to bottom, `width × height` bytes: 0 none, 255 fully inside the glyph.
    public var coverage: [UInt8]
    /// The bitmap's left edge right of the pen, pixels.
    public var left: Int
    /// The bitmap's top edge above the baseline, pixels (up positive).
    public var top: Int
    /// How far the pen moves past the character, pixels, `≥ 0`.
    public var advance: Double
    /// The ascent of the first font family asked for at that size (how far its lines reach above the baseline),
    /// pixels, `≥ 0`: glyph PBFs give a glyph's `top` less the font's ascent.
    public var ascent: Double

    /// Creates a bitmap; see the properties. A `coverage` whose count is not `width × height` makes an empty
    /// bitmap (no pixels) with the same advance. A negative or non-finite advance or ascent counts as 0.
    public init(width: Int, height: Int, coverage: [UInt8], left: Int, top: Int, advance: Double, ascent: Double) {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let valid = width >= 0 && height >= 0 && !overflow && area == coverage.count
        self.width = valid ? width : 0
        self.height = valid ? height : 0
        self.coverage = valid ? coverage : []
        self.left = left
        self.top = top
        self.advance = advance.isFinite ? max(0, advance) : 0
        self.ascent = ascent.isFinite ? max(0, ascent) : 0
    }
}

/// A text measurer that can also draw one character on its own with its fonts (Waymark's own).
///
/// A label in a style that names `glyphs` is drawn from the glyph ranges' signed distance fields. When some of its
/// characters have no glyph there (a range without them, as in the bundled subset ranges, or a range that failed to
/// load), the renderer asks the backend's measurer, when it conforms, for those characters' coverage and makes
/// their distance fields itself, as MapLibre GL JS makes local glyphs with TinySDF: the label stays one label of SDF
/// glyphs with those few drawn from the system's fonts, instead of going wholly to the backend's fonts.
/// `CairoBackend`'s measurer (Pango) conforms.
///
/// Thread rules: those of the measurer (the renderer calls it on the thread measuring its labels).
public protocol GlyphCoverageSource: AnyObject {
    /// `scalar` drawn alone at `pixelSize` pixels an em in the first of `fontFamilies` (falling back as the
    /// backend's fonts fall back), `weight`, upright or `italic`, unhinted; `nil` when no font has it (it would be
    /// drawn as a box) or `pixelSize` is not in `1…256`. A character with no ink (a space) has an empty bitmap.
    func glyphCoverage(
        of scalar: Unicode.Scalar, fontFamilies: [String], weight: TextStyle.Weight, italic: Bool, pixelSize: Double
    ) -> GlyphCoverage?
}

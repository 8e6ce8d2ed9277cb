import CPangoCairo
import Foundation

/// Whether this machine has any font to draw text with (a minimal server container often has none), checked once per
/// process through Pango and fontconfig, and the one warning printed when it has none. Waymark's own.
///
/// With no font, Pango still lays text out, but as hex boxes with meaningless metrics (line heights of about a
/// million pixels); the map backend (`CairoBackend`) then skips every label and LinuxUIKit's text drawing (labels,
/// `draw(at:)`/`draw(in:)` of strings: the info window's title and snippet, the map's attribution) draws nothing
/// instead of boxes, while everything else (fills, lines, icons, markers, info-window bubbles) is drawn as usual.
/// - Thread rules: any thread (the check runs once, on first use).
public enum FontAvailability {
    /// The Debian package the warning recommends: DejaVu, the family the default style and the golden images use.
    public static let recommendedPackage = "fonts-dejavu-core"

    /// `true` when fontconfig offers a font that draws the Latin letters "Aa" in the generic `sans-serif` family.
    /// Fonts come from fontconfig's configuration at first use (`FONTCONFIG_FILE` must be set before that).
    public static let hasFonts: Bool = {
        let fontMap = pango_cairo_font_map_new()
        defer { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
        guard let context = pango_font_map_create_context(fontMap) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        PangoFontOptions.apply(to: context)
        guard let layout = pango_layout_new(context) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_from_string("sans-serif 16px")
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, "Aa", -1)
        return pango_layout_get_unknown_glyphs_count(layout) == 0
    }()

    /// The warning text (no prefix, no newline).
    public static let missingFontsWarning =
        "no fonts found (fontconfig lists no usable font): map labels and other text are not drawn; markers, "
        + "info-window bubbles, shapes and the rest of the map are. Install a font package, for example "
        + "`apt-get install \(recommendedPackage)` on Debian or Ubuntu."

    private static let warnOnce: Void = {
        if !hasFonts { FileHandle.standardError.write(Data("[waymark] warning: \(missingFontsWarning)\n".utf8)) }
    }()

    /// Prints ``missingFontsWarning`` to standard error, once per process, when there are no fonts; returns
    /// ``hasFonts``. Every `CairoBackend` calls it when created, and LinuxUIKit before drawing text.
    @discardableResult public static func warnIfMissing() -> Bool {
        _ = warnOnce
        return hasFonts
    }
}

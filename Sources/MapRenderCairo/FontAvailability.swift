import Foundation
import MapRender

/// Whether this machine has any font to draw text with (a minimal server container often has none), checked once per
/// process through Pango and fontconfig, and the one warning printed when it has none. Waymark's own.
///
/// With no font, Pango still lays text out, but as hex boxes with meaningless metrics (line heights of about a
/// million pixels); ``CairoBackend`` then skips every label instead of drawing boxes, and the rest of the frame (fills,
/// lines, icons, markers, info windows) is drawn as usual.
/// - Thread rules: any thread (the check runs once, on first use).
public enum FontAvailability {
    /// The Debian package the warning recommends: DejaVu, the family the default style and the golden images use.
    public static let recommendedPackage = "fonts-dejavu-core"

    /// `true` when fontconfig offers a font that draws the Latin letters "Aa" in the generic `sans-serif` family.
    /// Fonts come from fontconfig's configuration at first use (`FONTCONFIG_FILE` must be set before that).
    public static let hasFonts: Bool = PangoTextShaper().unknownGlyphCount("Aa", style: TextStyle()) == 0

    /// The warning text (no prefix, no newline).
    public static let missingFontsWarning =
        "no fonts found (fontconfig lists no usable font): map labels are not drawn; markers, shapes and the "
        + "rest of the map are. Install a font package, for example `apt-get install \(recommendedPackage)` on "
        + "Debian or Ubuntu."

    private static let warnOnce: Void = {
        if !hasFonts { FileHandle.standardError.write(Data("[waymark] warning: \(missingFontsWarning)\n".utf8)) }
    }()

    /// Prints ``missingFontsWarning`` to standard error, once per process, when there are no fonts; returns
    /// ``hasFonts``. Every ``CairoBackend`` calls it when created.
    @discardableResult public static func warnIfMissing() -> Bool {
        _ = warnOnce
        return hasFonts
    }
}

import CCairo
import CPangoCairo

/// The font options every Pango context of the package uses (LinuxUIKit's text and the map's labels): grey
/// antialiasing, no hinting, unhinted metrics, so text metrics scale linearly with the device scale and golden
/// images are stable.
package enum PangoFontOptions {
    /// Sets the options on a `PangoContext *` (nil is ignored).
    package static func apply(to pangoContext: OpaquePointer?) {
        guard let pangoContext else { return }
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pangoContext, options)
        cairo_font_options_destroy(options)
    }
}

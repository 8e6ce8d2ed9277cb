import Foundation
import MapStorage
import MapStyle

/// Everything that decides what a map view's basemap draws: the MapLibre style, Google's styling rules over it (the
/// app's ``GMSMapView/mapStyle``, else the map ID's registered rules), the dark appearance and the traffic switch.
/// The map view rebuilds its basemap when this changes (one new renderer over the same tile sources: the decoded
/// tiles stay in the engine, so the next frame redraws without reading tiles again).
struct BasemapStyle: Equatable, Sendable {
    /// The MapLibre style (``GMSMapView/mapLibreStyle`` or a map ID's).
    var style: MapLibreStyle = .bundled
    /// The app's Google styling rules; they win over ``mapIDStyle`` and over the dark default.
    var mapStyle: GMSMapStyle?
    /// The Google styling rules registered for the map's map ID.
    var mapIDStyle: GMSMapStyle?
    /// The view's appearance is dark (`traitCollection.userInterfaceStyle == .dark`).
    var dark = false
    /// ``GMSMapView/isTrafficEnabled``: a style's traffic layers draw only when set.
    var traffic = false

    /// The Google rules in force.
    var rules: GMSMapStyle? { mapStyle ?? mapIDStyle }

    /// The bundled dark style, `Data/styles/default-dark.json`.
    static var darkStyle: MapLibreStyle { .file(DataFiles.path("styles/default-dark.json")) }

    /// The MapLibre style drawn: the bundled dark style for the bundled style in a dark appearance without rules, else
    /// ``style``.
    var effectiveStyle: MapLibreStyle { dark && rules == nil && style == .bundled ? Self.darkStyle : style }

    /// Applies the rules and the traffic switch to a loaded style: traffic layers (id starting with `traffic`, or
    /// source layer `traffic`) are hidden unless ``traffic``; the rules then apply (GMSMapStyle).
    var restyle: @Sendable (Style) -> Style {
        let rules = rules
        let traffic = traffic
        return { style in
            var style = style
            if !traffic {
                for i in style.layers.indices
                where style.layers[i].id.hasPrefix("traffic") || style.layers[i].sourceLayer == "traffic" {
                    style.layers[i].isVisible = false
                }
            }
            return rules?.apply(to: style) ?? style
        }
    }

    static func == (a: BasemapStyle, b: BasemapStyle) -> Bool {
        a.style == b.style && a.mapStyle === b.mapStyle && a.mapIDStyle === b.mapIDStyle && a.dark == b.dark
            && a.traffic == b.traffic
    }
}

/// A map view's styling state (``GMSMapView/mapStyle``, the map ID's style, the appearance hook, what the basemap
/// was built for). Main actor.
@MainActor final class MapViewStyleState {
    /// ``GMSMapView/mapStyle``.
    var mapStyle: GMSMapStyle?
    /// The Google rules of the map's map ID.
    var mapIDStyle: GMSMapStyle?
    /// What the current basemap was made for (nil before the first).
    var built: BasemapStyle?
    /// ``GMSMapView/darkAppearanceOverride``.
    var darkOverride: Bool?
}

import Foundation
import MapStorage
import MapStyle

/// Everything that decides what a map view's basemap draws: the MapLibre style, Google's styling rules over it (the
/// app's ``GMSMapView/mapStyle``, else the map ID's registered rules), the dark appearance, the traffic and buildings
/// switches and the terrain type's elevation source.
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
    /// ``GMSMapView/isBuildingsEnabled``: a style's `fill-extrusion` layers draw only when set.
    var buildings = true
    /// The elevation source whose hillshade is drawn: ``GMSMapView/terrainElevationSource`` while the map type is
    /// `.terrain`, else nil.
    var terrain: TerrainElevationSource?

    /// The Google rules in force.
    var rules: GMSMapStyle? { mapStyle ?? mapIDStyle }

    /// The bundled dark style, `Data/styles/default-dark.json`.
    static var darkStyle: MapLibreStyle { .file(DataFiles.path("styles/default-dark.json")) }

    /// The MapLibre style drawn: the bundled dark style for the bundled style in a dark appearance without rules, else
    /// ``style``.
    var effectiveStyle: MapLibreStyle { dark && rules == nil && style == .bundled ? Self.darkStyle : style }

    /// Applies the rules and the switches to a loaded style: traffic layers (id starting with `traffic`, or source
    /// layer `traffic`) are hidden unless ``traffic``, `fill-extrusion` layers unless ``buildings``; the rules then
    /// apply (GMSMapStyle); last, ``terrain``'s hillshade is added (``TerrainElevationSource/shading(_:)``; a source
    /// the style spec rejects adds nothing and is logged, and the map draws as `.normal`).
    var restyle: @Sendable (Style) -> Style {
        let rules = rules
        let traffic = traffic
        let buildings = buildings
        let terrain = terrain
        return { style in
            var style = style
            for i in style.layers.indices {
                let layer = style.layers[i]
                if !traffic && (layer.id.hasPrefix("traffic") || layer.sourceLayer == "traffic") {
                    style.layers[i].isVisible = false
                }
                if !buildings && layer.type == .fillExtrusion { style.layers[i].isVisible = false }
            }
            style = rules?.apply(to: style) ?? style
            guard let terrain else { return style }
            do {
                return try terrain.shading(style)
            } catch {
                GMSLog.warning("GMSMapView: mapType terrain is drawn as .normal: \(error)")
                return style
            }
        }
    }

    static func == (a: BasemapStyle, b: BasemapStyle) -> Bool {
        a.style == b.style && a.mapStyle === b.mapStyle && a.mapIDStyle === b.mapIDStyle && a.dark == b.dark
            && a.traffic == b.traffic && a.buildings == b.buildings && a.terrain == b.terrain
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

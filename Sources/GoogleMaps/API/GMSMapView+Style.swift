import Foundation
import LinuxUIKit
import MapStyle

// Styling a map: Google's `mapStyle`, the dark appearance, map IDs (issue 32).

extension GMSMapView {
    /// Google's styling rules applied to the map (spec §1.15). Defaults to nil; setting nil restores the default
    /// style. A style set here wins over the dark default and over the map ID's registered rules. Applied to the
    /// `.normal` map; the change shows on the next frame, redrawn from the tiles already loaded. Main thread.
    public var mapStyle: GMSMapStyle? {
        get { styleState.mapStyle }
        set {
            styleState.mapStyle = newValue
            restyleBasemap()
        }
    }

    /// What the basemap draws now.
    var basemapStyle: BasemapStyle {
        BasemapStyle(
            style: mapLibreStyleStorage, mapStyle: styleState.mapStyle, mapIDStyle: styleState.mapIDStyle,
            dark: isDarkAppearance, traffic: isTrafficEnabled, buildings: isBuildingsEnabled,
            terrain: mapType == .terrain ? terrainElevationSource : nil)
    }

    /// Whether the map draws in the dark appearance: the view's `traitCollection.userInterfaceStyle` is `.dark`
    /// (Waymark's hook ``darkAppearanceOverride`` first, while set).
    var isDarkAppearance: Bool { darkAppearanceOverride ?? (traitCollection.userInterfaceStyle == .dark) }

    /// Package hook: forces the dark (true) or light (false) appearance regardless of the trait; nil (the default)
    /// follows the trait. Main thread.
    package var darkAppearanceOverride: Bool? {
        get { styleState.darkOverride }
        set {
            styleState.darkOverride = newValue
            appearanceDidChange()
        }
    }

    /// The appearance may have changed: the basemap, the controls and the default info window follow it.
    func appearanceDidChange() {
        let dark = isDarkAppearance
        if controls.isDark != dark {
            controls.isDark = dark
            setNeedsDisplay()
        }
        restyleBasemap()
    }

    /// The first basemap (see ``basemap``); the controls and the default info window start in its appearance (a map
    /// made in a dark app is dark from its first frame, with no trait change to report it).
    func makeStyledBasemap() -> any BasemapRenderer {
        let style = basemapStyle
        styleState.built = style
        controls.isDark = style.dark
        return dependencies.makeBasemap(style)
    }

    /// Rebuilds the basemap when what it draws changed (one new renderer over the same sources; the tiles stay in the
    /// engine) and asks for a frame.
    func restyleBasemap() {
        let style = basemapStyle
        guard style != styleState.built else { return }
        styleState.built = style
        basemap = dependencies.makeBasemap(style)
        mapTypeState.basemapWithoutPOIs = nil
        setNeedsDisplay()
    }

    /// Resolves the options' map ID (`GMSServices.registerMapStyle(_:forMapID:)`,
    /// `$WAYMARK_MAP_IDS`): a MapLibre style replaces the default style (unless the options set one), Google rules
    /// apply over it; an unknown ID is logged once and draws the default map.
    func applyMapID(_ mapID: GMSMapID?) {
        guard let mapID else { return }
        switch MapIDRegistry.resolve(mapID) {
        case .mapLibre(let style)?:
            if mapLibreStyleStorage == .bundled { mapLibreStyleStorage = style }
        case .google(let rules)?:
            styleState.mapIDStyle = rules
        case nil:
            // Google's demo map ID is the default map: nothing to say.
            if mapID != .demoMapID, MapIDRegistry.reportedUnknown.insert(mapID.identifier).inserted {
                GMSLog.warning(
                    "GMSMapView: no style is registered for map ID \"\(mapID.identifier)\"; drawing the default map"
                        + " (GMSServices.registerMapStyle(_:forMapID:) or $WAYMARK_MAP_IDS)")
            }
        }
    }
}

/// A style registered for a map ID.
enum MapIDStyle {
    /// A MapLibre style drawn instead of the default.
    case mapLibre(MapLibreStyle)
    /// Google styling rules over the default style.
    case google(GMSMapStyle)
}

/// The map IDs the app registered, and the `$WAYMARK_MAP_IDS` folder. Main actor.
@MainActor enum MapIDRegistry {
    static var styles: [String: MapIDStyle] = [:]
    /// Unknown IDs already logged.
    static var reportedUnknown: Set<String> = []

    /// The style of `mapID`: registered, else `$WAYMARK_MAP_IDS/<identifier>.json` (identifiers of letters, digits,
    /// `-` and `_` only), else nil. A folder file that cannot be used is logged and counts as unknown.
    static func resolve(_ mapID: GMSMapID, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> MapIDStyle?
    {
        if let known = styles[mapID.identifier] { return known }
        guard let folder = environment["WAYMARK_MAP_IDS"], !folder.isEmpty else { return nil }
        let id = mapID.identifier
        guard !id.isEmpty,
            id.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
            })
        else { return nil }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(id + ".json").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let style = try style(file: path)
            styles[id] = style
            return style
        } catch {
            GMSLog.warning("GMSMapView: map ID \"\(id)\": \(error)")
            return nil
        }
    }

    /// A style file: Google's rules (a JSON array) or a MapLibre style (a JSON object).
    static func style(file path: String) throws -> MapIDStyle {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GMSMapStyleFileError(message: "cannot read \(path)")
        }
        let first = data.first { ![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].contains($0) }
        switch first {
        case UInt8(ascii: "["): return .google(try GMSMapStyle(contentsOfFileURL: URL(fileURLWithPath: path)))
        case UInt8(ascii: "{"): return .mapLibre(.file(path))
        default: throw GMSMapStyleFileError(message: "\(path) is neither a MapLibre style nor Google styling JSON")
        }
    }
}

extension GMSServices {
    /// Registers a MapLibre style for a map ID (Waymark's own; Google resolves map IDs to cloud styles): maps made
    /// with ``GMSMapViewOptions/mapID`` equal to `mapID` from now on draw it. A later registration replaces it. Main
    /// thread.
    /// - Parameters:
    ///   - style: the style (a file, JSON text, a `file://` or `http(s)://` URL, or a bundled one).
    ///   - mapID: the map ID.
    @preconcurrency @MainActor public class func registerMapStyle(_ style: MapLibreStyle, forMapID mapID: GMSMapID) {
        MapIDRegistry.styles[mapID.identifier] = .mapLibre(style)
    }

    /// Registers Google styling rules for a map ID (Waymark's own): maps with that ID draw the default style with the
    /// rules applied, unless the app sets its own ``GMSMapView/mapStyle``. Main thread.
    /// - Parameters:
    ///   - style: the rules.
    ///   - mapID: the map ID.
    @preconcurrency @MainActor public class func registerMapStyle(_ style: GMSMapStyle, forMapID mapID: GMSMapID) {
        MapIDRegistry.styles[mapID.identifier] = .google(style)
    }

    /// Registers a style file or URL for a map ID (Waymark's own): a `file://` URL holding Google styling JSON (an
    /// array of rules) or a MapLibre style (an object), or an `http(s)://` URL of a MapLibre style. Main thread.
    /// - Parameters:
    ///   - url: the file or style URL.
    ///   - mapID: the map ID.
    /// - Throws: ``GMSMapStyleFileError`` when the file cannot be read or is neither kind; `GoogleMapStyleError` for
    ///   invalid Google styling JSON.
    @preconcurrency @MainActor public class func registerMapStyle(_ url: URL, forMapID mapID: GMSMapID) throws {
        if url.isFileURL {
            MapIDRegistry.styles[mapID.identifier] = try MapIDRegistry.style(file: url.path)
        } else {
            MapIDRegistry.styles[mapID.identifier] = .mapLibre(.url(url))
        }
    }
}

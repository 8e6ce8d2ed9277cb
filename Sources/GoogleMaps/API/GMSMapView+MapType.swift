import Foundation
import LinuxUIKit
import MapHosting
import MapJSON
import MapStorage
import MapStyle

/// The map types' basemaps: the configured raster sources and the renderers made for them.
@MainActor final class MapTypeState {
    /// The raster source of each imagery type (`.satellite`, `.hybrid`, `.terrain`), as given.
    var sources: [GMSMapViewType: String] = [:]
    var tileSizes: [GMSMapViewType: Int] = [:]
    /// Renderers made on first use; `nil` values: the source failed (warned, drawn as `.normal`).
    var renderers: [GMSMapViewType: (any BasemapRenderer)?] = [:]
    /// Types already warned about (no source, or a source that failed).
    var warned: Set<GMSMapViewType> = []
    /// `.satellite`'s stand-in without imagery: the map's style without its POI layers (made on first use, dropped
    /// when the style changes).
    var basemapWithoutPOIs: (any BasemapRenderer)?
}

extension GMSMapView {
    /// Waymark's own (Google's imagery comes from Google): the raster tiles drawn for `mapType` `.satellite`,
    /// `.terrain` (the tiles alone) or `.hybrid` (the tiles under the vector style's labels, its symbol layers).
    ///
    /// - Parameters:
    ///   - source: a tile URL template with `{z}`, `{x}`, `{y}` (`file:///…/{z}/{x}/{y}.png`, a plain path template;
    ///     `http(s)://` templates once the HTTP loader is in), an `mbtiles://` URL or a path ending in `.mbtiles`
    ///     (PNG/JPEG/WebP tiles), or a `pmtiles://` URL where PMTiles are read; `nil` removes the type's source.
    ///   - mapType: `.satellite`, `.hybrid` or `.terrain`; other types are ignored with a logged warning.
    ///   - tileSize: points one tile covers at its zoom (the style spec's raster `tileSize`): 256 (the default,
    ///     Google's and most XYZ servers') or 512.
    ///
    /// Without a source (or with one that cannot be opened) the type draws as `.normal`, with one logged warning per
    /// map and type. Main thread.
    public func setRasterSource(_ source: String?, for mapType: GMSMapViewType, tileSize: Int = 256) {
        guard [.satellite, .hybrid, .terrain].contains(mapType) else {
            GMSLog.warning("setRasterSource(_:for:): map type \(mapType) has no raster source; ignored")
            return
        }
        mapTypeState.sources[mapType] = source
        mapTypeState.tileSizes[mapType] = tileSize
        mapTypeState.renderers[mapType] = nil
        mapTypeState.warned.remove(mapType)
    }

    /// The basemap drawn for the current ``mapType``: none for `.none`; the imagery (under the labels for `.hybrid`)
    /// for the imagery types with a source; else the vector basemap (for `.satellite`, without its POIs; see
    /// ``showsBasemapPOIs``).
    var activeBasemap: (any BasemapRenderer)? {
        switch mapType {
        case .none: return nil
        case .normal: return basemap
        // The style with the elevation source's hillshade (``basemapStyle`` adds it while the type is `.terrain`).
        case .terrain where terrainElevationSource != nil: return basemap
        case .satellite, .hybrid, .terrain:
            if let made = mapTypeState.renderers[mapType] { return made ?? fallbackBasemap }
            guard let source = mapTypeState.sources[mapType] else {
                warnFallback(
                    mapType == .terrain
                        ? "no elevation or raster source is set (GMSMapView.terrainElevationSource,"
                            + " GMSMapView.setRasterSource(_:for:))"
                        : "no raster source is set (GMSMapView.setRasterSource(_:for:))")
                return fallbackBasemap
            }
            do {
                let renderer = try VectorBasemapRenderer(
                    style: Self.imageryStyle(
                        source: source, tileSize: mapTypeState.tileSizes[mapType] ?? 256,
                        labelsFrom: mapType == .hybrid ? mapLibreStyleStorage.labelStyleFile : nil))
                mapTypeState.renderers[mapType] = renderer
                return renderer
            } catch {
                mapTypeState.renderers[mapType] = .some(nil)
                warnFallback("its raster source \(source) cannot be used (\(error))")
                return fallbackBasemap
            }
        }
    }

    /// Whether base-map POIs of the current ``mapType`` are drawn and tappable.
    ///
    /// Decision (issue 29): Google's `.satellite` is imagery alone, with no labels and no POIs, so no POI on it can be
    /// tapped. Without imagery Waymark draws `.satellite` as the normal map *without its POI layers* and reports no
    /// POI taps, so the type keeps its promise of no POIs. `.hybrid` is imagery with Google's labels and POIs: its
    /// fallback (the normal map) keeps both, as `.terrain`'s does. `.none` draws no basemap at all.
    /// ``activeBasemap`` (drawing) and `tapTarget(_:)` (POI taps) both rely on it.
    var showsBasemapPOIs: Bool {
        switch mapType {
        case .normal, .hybrid, .terrain: return true
        case .satellite, .none: return false
        }
    }

    /// What an imagery type without imagery draws: the vector basemap, for a type without POIs
    /// (``showsBasemapPOIs``) the same style with its POI layers removed. A basemap that is not the synchronous
    /// vector one (a remote style still loading, a stand-in) is used as it is.
    private var fallbackBasemap: any BasemapRenderer {
        guard !showsBasemapPOIs, basemap is VectorBasemapRenderer else { return basemap }
        if let made = mapTypeState.basemapWithoutPOIs { return made }
        var made: any BasemapRenderer = basemap
        do {
            made = try VectorBasemapRenderer(style: Self.styleWithoutPOIs(mapLibreStyleStorage))
        } catch {
            GMSLog.warning("GMSMapView: mapType \(mapType) draws its POIs: the style without them failed (\(error))")
        }
        mapTypeState.basemapWithoutPOIs = made
        return made
    }

    /// `style` loaded with its POI layers (``VectorBasemapRenderer/isPOILayer(id:sourceLayer:)``) removed.
    /// - Throws: ``MapLibreStyleError`` for a remote URL; the style's load error naming the file or text.
    static func styleWithoutPOIs(_ style: MapLibreStyle) throws -> Style {
        var loaded: Style
        switch style {
        case .bundled: loaded = try Style.load(contentsOfFile: DataFiles.path("styles/default.json"))
        case .file(let path): loaded = try Style.load(contentsOfFile: path)
        case .url(let url):
            guard url.isFileURL else { throw MapLibreStyleError.remoteURL(url) }
            loaded = try Style.load(contentsOfFile: url.path)
        case .json(let text):
            let directory = DataFiles.locate("styles/default.json").deletingLastPathComponent().path
            loaded = try Style.parse(bytes: Array(text.utf8), fileName: "<style JSON>", baseDirectory: directory)
        }
        loaded.layers.removeAll { VectorBasemapRenderer.isPOILayer(id: $0.id, sourceLayer: $0.sourceLayer) }
        return loaded
    }

    private func warnFallback(_ why: String) {
        guard !mapTypeState.warned.contains(mapType) else { return }
        mapTypeState.warned.insert(mapType)
        GMSLog.warning("GMSMapView: mapType \(mapType) is drawn as .normal: \(why)")
    }

    /// The style of an imagery map type: one raster source and layer, then, for hybrid, the symbol layers (and the
    /// sources, sprite and glyphs) of the vector style at `labelsFrom`.
    static func imageryStyle(source: String, tileSize: Int, labelsFrom styleFile: String?) throws -> Style {
        var raster: [String: JSONValue] = ["type": .string("raster"), "tileSize": .number(Double(tileSize))]
        if source.contains("{z}") {
            raster["tiles"] = .array([.string(source)])
        } else if source.contains("://") {
            raster["url"] = .string(source)
        } else {
            raster["url"] = .string("mbtiles://" + source)
        }
        let layer: JSONValue = .object([
            "id": .string("waymark-imagery"), "type": .string("raster"), "source": .string("waymark-imagery"),
            "paint": .object(["raster-fade-duration": .number(0)]),
        ])
        var root: [String: JSONValue] = ["version": .number(8), "sources": .object([:]), "layers": .array([])]
        var baseDirectory: String? = nil
        if let styleFile {
            let data = try Data(contentsOf: URL(fileURLWithPath: styleFile))
            guard case .object(let vector) = try JSONValue.parse(bytes: [UInt8](data)) else {
                throw MapTypeStyleError(message: "\(styleFile) is not a style object")
            }
            root = vector
            baseDirectory = (styleFile as NSString).deletingLastPathComponent
            let labels = (vector["layers"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "symbol" }
            root["layers"] = .array(labels)
        }
        var sources = root["sources"]?.objectValue ?? [:]
        sources["waymark-imagery"] = .object(raster)
        root["sources"] = .object(sources)
        root["layers"] = .array([layer] + (root["layers"]?.arrayValue ?? []))
        let style = Style(json: .object(root), baseDirectory: baseDirectory ?? FileManager.default.currentDirectoryPath)
        if let problem = style.errors.first(where: { $0.path.hasPrefix("sources.waymark-imagery") }) {
            throw MapTypeStyleError(message: problem.message)
        }
        return style
    }
}

/// Why a map type's imagery style could not be made.
struct MapTypeStyleError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

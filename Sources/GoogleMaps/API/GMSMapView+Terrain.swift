import Foundation
import MapJSON
import MapStyle

/// Waymark's own (Google's terrain comes from Google): the elevation tiles (a DEM, MapLibre's `raster-dem` source)
/// that ``GMSMapView/mapType`` `.terrain` shades under the map (``GMSMapView/terrainElevationSource``).
///
/// A value type; any thread.
public struct TerrainElevationSource: Equatable, Sendable {
    /// How the tiles pack an elevation into their red, green and blue channels (the style spec's raster-dem
    /// `encoding`).
    public enum Encoding: String, Equatable, Sendable, CaseIterable {
        /// Mapbox Terrain-RGB: `-10000 + (R × 65536 + G × 256 + B) × 0.1` metres.
        case mapbox
        /// Terrarium (Mapzen's, as on AWS Open Data): `R × 256 + G + B / 256 - 32768` metres.
        case terrarium
    }

    /// Where the tiles are: a tile URL template with `{z}`, `{x}`, `{y}` (`file:///…/{z}/{x}/{y}.png` or a plain
    /// path template; `http(s)://` templates as raster sources load them), an `mbtiles://` URL or a path ending in
    /// `.mbtiles` (PNG or WebP tiles), or a `pmtiles://` URL. A relative path resolves against the current directory.
    public var source: String
    /// The tiles' encoding. Defaults to `.mapbox`.
    public var encoding: Encoding
    /// Points one tile covers at its zoom (the style spec's `tileSize`): 256 (the default) or 512.
    public var tileSize: Int
    /// For a URL template: the deepest zoom with tiles (above it the deepest tiles are magnified, as MapLibre
    /// over-zooms a DEM). Defaults to 15 (Terrain-RGB's and Terrarium's deepest). An MBTiles or PMTiles archive
    /// states its own zooms; this is then unused.
    public var maxZoom: Int

    /// An elevation source; see the properties for each parameter.
    public init(_ source: String, encoding: Encoding = .mapbox, tileSize: Int = 256, maxZoom: Int = 15) {
        self.source = source
        self.encoding = encoding
        self.tileSize = tileSize
        self.maxZoom = maxZoom
    }

    /// The id of the source and of the hillshade layer added to the style.
    static let sourceID = "waymark-terrain"
    static let layerID = "waymark-hillshade"

    /// Source layers whose `fill` layers colour the ground itself (land cover and land use, parks, OpenMapTiles' and
    /// Protomaps' names): the hillshade goes over them and under everything else.
    static let groundSourceLayers: Set<String> = ["landcover", "landuse", "park", "earth", "natural"]

    /// `style` with the DEM as a `raster-dem` source and a `hillshade` layer (MapLibre's default paint) over the
    /// style's background and ground fills (``groundSourceLayers``) and under its water, roads, buildings and labels,
    /// where a MapLibre terrain style puts it.
    /// - Throws: ``MapTypeStyleError`` naming the source when the style spec rejects it.
    func shading(_ style: Style) throws -> Style {
        var dem: [String: JSONValue] = [
            "type": .string("raster-dem"), "tileSize": .number(Double(tileSize)),
            "encoding": .string(encoding.rawValue),
        ]
        if source.contains("{z}") {
            dem["tiles"] = .array([.string(source)])
            dem["maxzoom"] = .number(Double(maxZoom))
        } else if source.contains("://") {
            dem["url"] = .string(source)
        } else {
            dem["url"] = .string("mbtiles://" + source)
        }
        let layer: JSONValue = .object([
            "id": .string(Self.layerID), "type": .string("hillshade"), "source": .string(Self.sourceID),
        ])
        let parsed = Style(
            json: .object([
                "version": .number(8), "sources": .object([Self.sourceID: .object(dem)]), "layers": .array([layer]),
            ]), baseDirectory: FileManager.default.currentDirectoryPath)
        if let problem = parsed.errors.first {
            throw MapTypeStyleError(message: "the elevation source \(source): \(problem.message)")
        }
        guard let demSource = parsed.sources[Self.sourceID], let hillshade = parsed.layers.first else {
            throw MapTypeStyleError(message: "the elevation source \(source) cannot be used")
        }
        var out = style
        out.sources[Self.sourceID] = demSource
        let ground = out.layers.firstIndex { layer in
            switch layer.type {
            case .background: return false
            case .fill: return !Self.groundSourceLayers.contains(layer.sourceLayer ?? "")
            default: return true
            }
        }
        out.layers.insert(hillshade, at: ground ?? out.layers.count)
        return out
    }
}

extension GMSMapView {
    /// Waymark's own (Google's terrain comes from Google): the elevation tiles ``mapType`` `.terrain` shades. With
    /// one, `.terrain` draws the map's style (``mapLibreStyle``, with ``mapStyle``, dark mode and the other switches)
    /// with MapLibre's `hillshade` of these tiles over the land and under the water, roads and labels, as Google's
    /// terrain type shades its map; it takes precedence over a raster source set for `.terrain` with
    /// ``setRasterSource(_:for:tileSize:)``. Without either, `.terrain` draws as `.normal` with one logged warning;
    /// an elevation source that cannot be opened does the same, with a warning naming it.
    ///
    /// Defaults to nil. Setting it redraws the map on the next frame (tiles already loaded stay). Main thread.
    ///
    /// ```swift
    /// mapView.terrainElevationSource = TerrainElevationSource(
    ///     "file:///srv/dem/{z}/{x}/{y}.png", encoding: .terrarium, maxZoom: 12)
    /// mapView.mapType = .terrain
    /// ```
    public var terrainElevationSource: TerrainElevationSource? {
        get { drawnState.terrainElevationSource }
        set { drawnState.terrainElevationSource = newValue }
    }
}

import MapData
import MapGeometry
import MapStyle

/// Finds the ``TileSource`` serving a style source; see ``MapRenderer``.
///
/// Called once per style source when a renderer is created, with the source's id and its parsed definition. Return
/// `nil` to leave the source out (its layers then draw nothing); throw to fail the renderer with the error.
public typealias TileSourceResolver = (_ id: String, _ source: StyleSource) throws -> (any TileSource)?

/// One style source with the tile source that serves it and the zoom range it covers.
struct ResolvedSource {
    let id: String
    let tiles: any TileSource
    /// Lowest zoom with tiles: the larger of the style's `minzoom` and the tile source's.
    let minZoom: Int
    /// Highest zoom with tiles (over-zoomed above): the smaller of the style's `maxzoom` and the tile source's.
    let maxZoom: Int
    /// Attribution text (style first, then the tile source's metadata), HTML tags removed.
    let attribution: String?
}

/// A decoded source tile: the lazily decoded vector tile and, per layer, features with decoded geometry.
final class DecodedTile {
    let tile: VectorTile?
    private var layers: [String: [DecodedFeature]] = [:]
    private var layerIndex: [String: VectorTileLayer]?

    init(bytes: [UInt8]?) { tile = bytes.map { VectorTile(bytes: $0) } }

    /// The features of layer `name` with geometry; decoding errors drop the feature (never the frame).
    func features(layer name: String) -> [DecodedFeature] {
        if let cached = layers[name] { return cached }
        if layerIndex == nil {
            var index: [String: VectorTileLayer] = [:]
            for layer in (try? tile?.layers()) ?? [] where index[layer.name] == nil { index[layer.name] = layer }
            layerIndex = index
        }
        guard let layer = layerIndex?[name] else {
            layers[name] = []
            return []
        }
        var diagnostics: [VectorTileDiagnostic] = []
        var out: [DecodedFeature] = []
        out.reserveCapacity(layer.featureCount)
        for feature in layer.decodeFeatures(diagnostics: &diagnostics) {
            guard let geometry = try? feature.decodeGeometry(diagnostics: &diagnostics) else { continue }
            out.append(DecodedFeature(feature: feature, geometry: geometry))
        }
        layers[name] = out
        return out
    }
}

/// A feature and its geometry in its source tile's units.
struct DecodedFeature {
    let feature: VectorTileFeature
    let geometry: VectorTileGeometry
}

/// Strips HTML tags and entities that attribution strings often carry.
func plainAttribution(_ html: String) -> String {
    var out = ""
    var inTag = false
    for ch in html {
        if ch == "<" {
            inTag = true
        } else if ch == ">" {
            inTag = false
        } else if !inTag {
            out.append(ch)
        }
    }
    return
        out
        .replacingAll("&copy;", with: "©").replacingAll("&amp;", with: "&").replacingAll("&nbsp;", with: " ")
        .trimmingSpaces()
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

import Foundation
import MapData
import MapGeometry
import MapStyle

/// Finds the ``TileSource`` serving a style source; see ``MapRenderer``.
///
/// Called once per style source when a renderer is created, with the source's id and its parsed definition. Return
/// `nil` to leave the source out (its layers then draw nothing); throw to fail the renderer with the error.
public typealias TileSourceResolver = (_ id: String, _ source: StyleSource) throws -> (any TileSource)?

/// One style source with the tile source that serves it and the zoom range it covers.
struct ResolvedSource: Sendable {
    let id: String
    /// The engine's number for the source's data (``MapEngine/share(_:)``): equal for sources on the same data.
    let dataID: Int
    let tiles: any TileSource
    /// Whether the style source is `vector` (its tiles must decode as MVT; a tile that does not is reported).
    var isVector = false
    /// Lowest zoom with tiles: the larger of the style's `minzoom` and the tile source's.
    let minZoom: Int
    /// Highest zoom with tiles (over-zoomed above): the smaller of the style's `maxzoom` and the tile source's.
    let maxZoom: Int
    /// Attribution text (style first, then the tile source's metadata), HTML tags removed.
    let attribution: String?
}

/// A decoded source tile: the lazily decoded vector tile and, per layer, features with decoded geometry.
///
/// Thread rules: shared by the renderers and tile threads of a ``MapEngine``; a lock guards the lazy decoding (held
/// while a layer decodes, so each layer is decoded once).
final class DecodedTile: @unchecked Sendable {
    let tile: VectorTile?
    private let lock = NSLock()
    private var layers: [String: [DecodedFeature]] = [:]
    private var layerIndex: [String: VectorTileLayer]?

    init(bytes: [UInt8]?) { tile = bytes.map { VectorTile(bytes: $0) } }

    /// The features of layer `name` with geometry; decoding errors drop the feature (never the frame).
    func features(layer name: String) -> [DecodedFeature] {
        lock.lock()
        defer { lock.unlock() }
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
            let decoded: VectorTileGeometry?
            if feature.type == .polygon {
                decoded = lenientPolygonRings(feature)
            } else {
                decoded = try? feature.decodeGeometry(diagnostics: &diagnostics)
            }
            guard let geometry = decoded else { continue }
            out.append(DecodedFeature(feature: feature, geometry: geometry))
        }
        layers[name] = out
        return out
    }
}

/// A feature and its geometry in its source tile's units, with the bounds of all its points (`nil` when it has
/// none), found once at decoding so each over-zoomed descendant can skip a feature outside it without reading its
/// points.
struct DecodedFeature {
    let feature: VectorTileFeature
    let geometry: VectorTileGeometry
    let bounds: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32)?

    init(feature: VectorTileFeature, geometry: VectorTileGeometry) {
        self.feature = feature
        self.geometry = geometry
        var box: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32)? = nil
        func add(_ points: [VectorTilePoint]) {
            for p in points {
                if let b = box {
                    box = (min(b.minX, p.x), min(b.minY, p.y), max(b.maxX, p.x), max(b.maxY, p.y))
                } else {
                    box = (p.x, p.y, p.x, p.y)
                }
            }
        }
        switch geometry {
        case .points(let points): add(points)
        case .lineStrings(let lines): for line in lines { add(line) }
        case .polygons(let polygons): for polygon in polygons { for ring in polygon { add(ring) } }
        case .unknown: break
        }
        bounds = box
    }
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

    /// The string without the whitespace at either end; the string itself (no copy) when there is none, as for
    /// most labels.
    func trimmingSpaces() -> String {
        // Printable ASCII at both ends is no whitespace, nor is the first scalar of a grapheme cluster ending in one
        // (a prepended mark or the byte): no grapheme breaking for the common case.
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        if let first, let last, !first.isWhitespace && !last.isWhitespace { return self }
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// The rings of a polygon feature, each as its own one-ring polygon, whatever their winding.
///
/// Real tiles (GDAL's Natural Earth output among them) carry rings whose winding breaks spec 4.3.4.4; the strict
/// decoder drops those, which punches rectangles out of oceans. Fills draw every ring of a feature in one path with
/// the even-odd rule, so holes come out right without trusting the winding. `nil` when the commands are malformed.
func lenientPolygonRings(_ feature: VectorTileFeature) -> VectorTileGeometry? {
    guard let commands = try? feature.geometryCommands() else { return nil }
    var rings: [[[VectorTilePoint]]] = []
    var ring: [VectorTilePoint] = []
    var x: Int64 = 0
    var y: Int64 = 0
    var i = 0
    @inline(__always) func zigzag(_ v: UInt32) -> Int64 { Int64(v >> 1) ^ -Int64(v & 1) }
    while i < commands.count {
        let id = commands[i] & 7
        let count = Int(commands[i] >> 3)
        i += 1
        switch id {
        case 1, 2:
            guard i + 2 * count <= commands.count else { return nil }
            for _ in 0..<count {
                x += zigzag(commands[i])
                y += zigzag(commands[i + 1])
                i += 2
                guard let px = Int32(exactly: x), let py = Int32(exactly: y) else { return nil }
                if id == 1 {
                    if ring.count >= 3 { rings.append([ring + [ring[0]]]) }
                    ring = []
                }
                ring.append(VectorTilePoint(x: px, y: py))
            }
        case 7:
            if ring.count >= 3 { rings.append([ring + [ring[0]]]) }
            ring = []
        default: return nil
        }
    }
    if ring.count >= 3 { rings.append([ring + [ring[0]]]) }
    return rings.isEmpty ? nil : .polygons(rings)
}

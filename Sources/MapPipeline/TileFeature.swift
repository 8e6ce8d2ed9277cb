import MapData
import MapGeometry
import MapJSON
import MapStyle

/// Adapts a decoded MVT feature to ``StyleFeature`` so expressions read its properties without copying them.
struct TileFeature: StyleFeature {
    let feature: VectorTileFeature
    /// The feature's geometry as prepared for a covering tile (over-zoomed and clipped, in that tile's units) and the
    /// tile, for `within`; nil for a feature read without a position.
    let placed: (geometry: VectorTileGeometry, tile: TileID)?

    /// A feature read without a position (`within` is false for it).
    init(feature: VectorTileFeature) {
        self.feature = feature
        placed = nil
    }

    /// A feature prepared for the covering tile `tile`: expressions read its properties, and `within` its position.
    init(_ prepared: PreparedFeature, tile: TileID) {
        feature = prepared.feature
        placed = (prepared.geometry, tile)
    }

    /// The feature's points or line strings in degrees, `[longitude, latitude]` pairs, one array per point or line
    /// string, at the covering tile's canonical position (world copies read as the original), computed only when
    /// `within` asks. Polygons (and unknown geometry) give none: `within` is false for them, as in MapLibre.
    var styleGeometryCoordinates: [[[Double]]]? {
        guard let (geometry, tile) = placed else { return nil }
        let canonical = tile.canonical
        let extent = feature.extent
        func degrees(_ p: VectorTilePoint) -> [Double] {
            let ll = WebMercator.latLng(TileProjector.world(Double(p.x), Double(p.y), tile: canonical, extent: extent))
            return [ll.longitude, ll.latitude]
        }
        switch geometry {
        case .points(let points): return points.map { [degrees($0)] }
        case .lineStrings(let lines): return lines.map { $0.map(degrees) }
        case .polygons, .unknown: return []
        }
    }

    func styleProperty(_ key: String) -> ExpressionValue? {
        feature.value(forKey: key).map(Self.convert)
    }

    var styleProperties: [String: ExpressionValue] { feature.properties.mapValues(Self.convert) }

    var styleID: ExpressionValue { feature.id.map { .number(Double($0)) } ?? .null }

    var styleGeometryType: StyleGeometryType {
        switch feature.type {
        case .point: return .point
        case .lineString: return .lineString
        case .polygon: return .polygon
        case .unknown: return .point
        }
    }

    static func convert(_ v: VectorTileValue) -> ExpressionValue {
        switch v {
        case .string(let s): return .string(s)
        case .bool(let b): return .boolean(b)
        case .json(let text):
            // An array or object property of a GeoJSON source (written by the encoder, so it parses).
            return (try? JSONValue.parse(text)).map(ExpressionValue.init(json:)) ?? .string(text)
        default: return .number(v.doubleValue ?? 0)
        }
    }
}

/// The feature a filter pass is testing, swapped in place: the pass's context holds this one reference for every
/// feature, so testing a feature neither boxes a ``TileFeature`` into the context's existential nor frees one (most
/// features fail a layer's filter), and reads it through a pointer into the pass's feature array, so no feature is
/// copied (retained) to be read. Used by one pass on one thread while that array is pinned (hence
/// `@unchecked Sendable`); a feature that passes gets a context of its own.
final class FilterPassFeature: StyleFeature, @unchecked Sendable {
    /// The feature under test; set by ``forEachMatch(_:tile:matcher:zoom:_:)`` only while its buffer is valid.
    private var current: UnsafePointer<PreparedFeature>?
    /// The covering tile the pass's features were prepared for (for `within`).
    private let tile: TileID

    private init(tile: TileID) { self.tile = tile }

    /// The feature under test as a ``TileFeature`` (a copy; only the rarely read members make one).
    private var placed: TileFeature? { current.map { TileFeature($0.pointee, tile: tile) } }

    func styleProperty(_ key: String) -> ExpressionValue? {
        current?.pointee.feature.value(forKey: key).map(TileFeature.convert)
    }
    var styleProperties: [String: ExpressionValue] { placed?.styleProperties ?? [:] }
    var styleID: ExpressionValue { placed?.styleID ?? .null }
    var styleGeometryType: StyleGeometryType { placed?.styleGeometryType ?? .point }
    var styleGeometryCoordinates: [[[Double]]]? { placed?.styleGeometryCoordinates }

    /// Calls `body` with each feature of `features` (prepared for `tile`) that passes `matcher` (all of them when it
    /// is `nil`), in order.
    static func forEachMatch(
        _ features: [PreparedFeature], tile: TileID, matcher: FilterMatcher?, zoom: Double,
        _ body: (PreparedFeature) -> Void
    ) {
        guard let matcher else {
            for f in features { body(f) }
            return
        }
        let slot = FilterPassFeature(tile: tile)
        let probe = EvaluationContext(zoom: zoom, feature: slot)
        features.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for i in 0..<buffer.count {
                slot.current = base + i
                if matcher.matches(probe) { body(buffer[i]) }
            }
            slot.current = nil
        }
    }
}

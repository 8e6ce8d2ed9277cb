import MapData
import MapStyle

/// Adapts a decoded MVT feature to ``StyleFeature`` so expressions read its properties without copying them.
struct TileFeature: StyleFeature {
    let feature: VectorTileFeature

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
        default: return .number(v.doubleValue ?? 0)
        }
    }
}

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

/// The feature a filter pass is testing, swapped in place: the pass's context holds this one reference for every
/// feature, so testing a feature neither boxes a ``TileFeature`` into the context's existential nor frees one (most
/// features fail a layer's filter), and reads it through a pointer into the pass's feature array, so no feature is
/// copied (retained) to be read. Used by one pass on one thread while that array is pinned (hence
/// `@unchecked Sendable`); a feature that passes gets a context of its own.
final class FilterPassFeature: StyleFeature, @unchecked Sendable {
    /// The feature under test; set by ``forEachMatch(_:matcher:zoom:_:)`` only while its buffer is valid.
    private var current: UnsafePointer<PreparedFeature>?

    func styleProperty(_ key: String) -> ExpressionValue? {
        current?.pointee.feature.value(forKey: key).map(TileFeature.convert)
    }
    var styleProperties: [String: ExpressionValue] {
        current.map { TileFeature(feature: $0.pointee.feature).styleProperties } ?? [:]
    }
    var styleID: ExpressionValue { current.map { TileFeature(feature: $0.pointee.feature).styleID } ?? .null }
    var styleGeometryType: StyleGeometryType {
        current.map { TileFeature(feature: $0.pointee.feature).styleGeometryType } ?? .point
    }

    /// Calls `body` with each feature of `features` that passes `matcher` (all of them when it is `nil`), in order.
    static func forEachMatch(
        _ features: [PreparedFeature], matcher: FilterMatcher?, zoom: Double, _ body: (PreparedFeature) -> Void
    ) {
        guard let matcher else {
            for f in features { body(f) }
            return
        }
        let slot = FilterPassFeature()
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

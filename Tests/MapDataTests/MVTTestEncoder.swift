import Testing

@testable import MapData

/// A tiny protobuf writer for hand-built test tiles (independent of the decoder).
enum MVTTestEncoder {
    static func varint(_ value: UInt64) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        repeat {
            let b = UInt8(v & 0x7F)
            v >>= 7
            out.append(v != 0 ? b | 0x80 : b)
        } while v != 0
        return out
    }

    static func key(_ field: UInt64, _ wire: UInt64) -> [UInt8] { varint(field << 3 | wire) }
    static func bytes(_ field: UInt64, _ payload: [UInt8]) -> [UInt8] {
        key(field, 2) + varint(UInt64(payload.count)) + payload
    }
    static func uint(_ field: UInt64, _ value: UInt64) -> [UInt8] { key(field, 0) + varint(value) }
    static func packed(_ field: UInt64, _ values: [UInt32]) -> [UInt8] {
        bytes(field, values.flatMap { varint(UInt64($0)) })
    }

    static func feature(id: UInt64? = nil, type: UInt64? = 1, tags: [UInt32] = [], geometry: [UInt32]) -> [UInt8] {
        (id.map { uint(1, $0) } ?? []) + (tags.isEmpty ? [] : packed(2, tags)) + (type.map { uint(3, $0) } ?? [])
            + packed(4, geometry)
    }

    static func layer(
        name: String = "test", version: UInt64? = 2, extent: UInt64? = 4096, keys: [String] = [],
        values: [[UInt8]] = [], features: [[UInt8]]
    ) -> [UInt8] {
        var out = version.map { uint(15, $0) } ?? []
        out += bytes(1, Array(name.utf8))
        for f in features { out += bytes(2, f) }
        for k in keys { out += bytes(3, Array(k.utf8)) }
        for v in values { out += bytes(4, v) }
        out += extent.map { uint(5, $0) } ?? []
        return out
    }

    static func tile(_ layers: [[UInt8]]) -> [UInt8] { layers.flatMap { bytes(3, $0) } }

    /// A one-layer, one-feature tile.
    static func singleFeature(type: UInt64 = 1, geometry: [UInt32], version: UInt64 = 2) -> [UInt8] {
        tile([layer(version: version, features: [feature(id: 1, type: type, geometry: geometry)])])
    }
}

/// Decodes the first feature's geometry of a one-feature tile, collecting diagnostics.
func decodeSingle(_ bytes: [UInt8]) throws -> (VectorTileGeometry, [VectorTileDiagnostic]) {
    let layer = try #require(try VectorTile(bytes: bytes).layers().first)
    var diagnostics: [VectorTileDiagnostic] = []
    let geometry = try layer.feature(at: 0).decodeGeometry(diagnostics: &diagnostics)
    return (geometry, diagnostics)
}

func pt(_ x: Int32, _ y: Int32) -> VectorTilePoint { VectorTilePoint(x: x, y: y) }

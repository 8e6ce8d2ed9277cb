/// A feature to encode into a Mapbox Vector Tile layer: geometry already in integer tile coordinates.
public struct MVTEncoderFeature: Sendable, Equatable {
    /// Optional numeric id (`Feature.id`, field 1).
    public var id: UInt64?
    /// Geometry in tile units (y down). Polygons must be `[exterior, holes…]` with rings closed or open; the encoder
    /// writes exteriors with positive and holes with negative ``signedDoubleArea(_:)`` (spec 2.1 §4.3.4.4),
    /// reversing rings as needed.
    public var geometry: VectorTileGeometry
    /// Attributes; keys and values are de-duplicated per layer.
    public var properties: [(key: String, value: VectorTileValue)]

    /// Creates a feature.
    public init(id: UInt64? = nil, geometry: VectorTileGeometry, properties: [(key: String, value: VectorTileValue)]) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }

    /// Equal when id, geometry and the property list (in order) are equal.
    public static func == (a: MVTEncoderFeature, b: MVTEncoderFeature) -> Bool {
        a.id == b.id && a.geometry == b.geometry && a.properties.count == b.properties.count
            && zip(a.properties, b.properties).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A minimal Mapbox Vector Tile 2.1 writer (vector-tile-spec 2.1, `vector_tile.proto`): one or more layers of
/// features, geometry commands with zig-zag deltas. Features whose geometry becomes empty are left out.
public enum MVTEncoder {
    /// Encodes one tile.
    /// - Parameter layers: `(name, extent, features)` per layer, in order; extent is usually 4096.
    /// - Returns: the protobuf bytes of a `Tile` message (uncompressed).
    public static func encode(layers: [(name: String, extent: Int, features: [MVTEncoderFeature])]) -> [UInt8] {
        var tile = ProtoWriter()
        for layer in layers {
            tile.message(field: 3, encodeLayer(name: layer.name, extent: layer.extent, features: layer.features))
        }
        return tile.bytes
    }

    static func encodeLayer(name: String, extent: Int, features: [MVTEncoderFeature]) -> [UInt8] {
        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        var values: [VectorTileValue] = []
        var valueIndex: [VectorTileValue: Int] = [:]
        var layer = ProtoWriter()
        layer.varintField(15, 2)
        layer.bytesField(1, Array(name.utf8))
        for feature in features {
            let (type, commands) = geometryCommands(feature.geometry)
            guard type != 0, !commands.isEmpty else { continue }
            var f = ProtoWriter()
            if let id = feature.id { f.varintField(1, id) }
            var tags: [UInt32] = []
            for (key, value) in feature.properties {
                let k =
                    keyIndex[key]
                    ?? {
                        keys.append(key)
                        keyIndex[key] = keys.count - 1
                        return keys.count - 1
                    }()
                let v =
                    valueIndex[value]
                    ?? {
                        values.append(value)
                        valueIndex[value] = values.count - 1
                        return values.count - 1
                    }()
                tags.append(UInt32(k))
                tags.append(UInt32(v))
            }
            if !tags.isEmpty { f.packedField(2, tags) }
            f.varintField(3, UInt64(type))
            f.packedField(4, commands)
            layer.message(field: 2, f.bytes)
        }
        for key in keys { layer.bytesField(3, Array(key.utf8)) }
        for value in values {
            var v = ProtoWriter()
            switch value {
            case .string(let s): v.bytesField(1, Array(s.utf8))
            case .float(let x):
                v.key(2, wire: 5)
                v.fixed32(x.bitPattern)
            case .double(let x):
                v.key(3, wire: 1)
                v.fixed64(x.bitPattern)
            case .int(let x): v.varintField(4, UInt64(bitPattern: x))
            case .uint(let x): v.varintField(5, x)
            case .sint(let x): v.varintField(6, zigzag64(x))
            case .bool(let b): v.varintField(7, b ? 1 : 0)
            case .json(let s): v.bytesField(100, Array(s.utf8))
            }
            layer.message(field: 4, v.bytes)
        }
        layer.varintField(5, UInt64(max(1, extent)))
        return layer.bytes
    }

    static func zigzag64(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func zigzag(_ v: Int64) -> UInt32 { UInt32(truncatingIfNeeded: (v << 1) ^ (v >> 63)) }
    static func command(_ id: UInt32, _ count: Int) -> UInt32 { (id & 7) | (UInt32(count) << 3) }

    /// The geometry type (1 point, 2 line, 3 polygon, 0 nothing to write) and command integers.
    static func geometryCommands(_ geometry: VectorTileGeometry) -> (UInt32, [UInt32]) {
        var out: [UInt32] = []
        var cx: Int64 = 0
        var cy: Int64 = 0
        func delta(_ p: VectorTilePoint) {
            out.append(zigzag(Int64(p.x) - cx))
            out.append(zigzag(Int64(p.y) - cy))
            cx = Int64(p.x)
            cy = Int64(p.y)
        }
        switch geometry {
        case .unknown: return (0, [])
        case .points(let points):
            guard !points.isEmpty else { return (0, []) }
            out.append(command(1, points.count))
            for p in points { delta(p) }
            return (1, out)
        case .lineStrings(let lines):
            for raw in lines {
                let line = dedup(raw)
                guard line.count >= 2 else { continue }
                out.append(command(1, 1))
                delta(line[0])
                out.append(command(2, line.count - 1))
                for p in line.dropFirst() { delta(p) }
            }
            return out.isEmpty ? (0, []) : (2, out)
        case .polygons(let polygons):
            for polygon in polygons {
                var wroteExterior = false
                for (i, raw) in polygon.enumerated() {
                    var ring = dedup(raw)
                    if ring.count > 1, ring.first == ring.last { ring.removeLast() }
                    guard ring.count >= 3 else {
                        if i == 0 { break } else { continue }
                    }
                    let area = signedDoubleArea(ring)
                    guard area != 0 else {
                        if i == 0 { break } else { continue }
                    }
                    // Reversed as a closed ring, as geojson-vt rewinds: the first vertex stays first (it is where
                    // `symbol-placement: line` starts measuring along the ring).
                    if (i == 0) != (area > 0) { ring[1...].reverse() }
                    if i == 0 { wroteExterior = true }
                    guard wroteExterior else { continue }
                    out.append(command(1, 1))
                    delta(ring[0])
                    out.append(command(2, ring.count - 1))
                    for p in ring.dropFirst() { delta(p) }
                    out.append(command(7, 1))
                }
            }
            return out.isEmpty ? (0, []) : (3, out)
        }
    }

    static func dedup(_ points: [VectorTilePoint]) -> [VectorTilePoint] {
        var out: [VectorTilePoint] = []
        out.reserveCapacity(points.count)
        for p in points where out.last != p { out.append(p) }
        return out
    }
}

/// Protobuf wire-format writer for the few field kinds MVT and the server's merged glyph PBFs need. Any thread (a
/// value).
package struct ProtoWriter {
    /// The message written so far.
    package var bytes: [UInt8] = []

    /// An empty message.
    package init() {}

    /// Appends `value` as a base-128 varint.
    package mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends the key of field `field` with wire type `wire` (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32).
    package mutating func key(_ field: Int, wire: Int) { varint(UInt64(field << 3 | wire)) }

    /// Appends field `field` as a varint.
    package mutating func varintField(_ field: Int, _ value: UInt64) {
        key(field, wire: 0)
        varint(value)
    }

    /// Appends field `field` as length-delimited bytes.
    package mutating func bytesField(_ field: Int, _ data: [UInt8]) {
        key(field, wire: 2)
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    /// Appends an embedded message (its bytes) as field `field`.
    package mutating func message(field: Int, _ data: [UInt8]) { bytesField(field, data) }

    /// Appends `values` as field `field`, packed varints.
    package mutating func packedField(_ field: Int, _ values: [UInt32]) {
        var inner = ProtoWriter()
        for v in values { inner.varint(UInt64(v)) }
        bytesField(field, inner.bytes)
    }

    /// Appends `v` as 4 little-endian bytes.
    package mutating func fixed32(_ v: UInt32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) }
    }

    /// Appends `v` as 8 little-endian bytes.
    package mutating func fixed64(_ v: UInt64) {
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }
}

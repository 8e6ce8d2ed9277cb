/// A tiny Mapbox Vector Tile writer for tests (spec 2.1 protobuf layout), so scenes are built from known coordinates.
public struct MVTWriter {
    /// One feature's geometry in tile units (extent 4096, origin top-left, y down).
    public enum Geometry {
        case point(Int, Int)
        case line([(Int, Int)])
        /// Exterior ring (clockwise on screen, y down), open: the writer closes it.
        case polygon([(Int, Int)])
    }

    /// One feature: geometry, string properties and an optional id.
    public struct Feature {
        /// The geometry.
        public var geometry: Geometry
        /// String-valued properties.
        public var properties: [String: String] = [:]
        /// The feature id, if any.
        public var id: UInt64?

        /// Creates a feature.
        public init(geometry: Geometry, properties: [String: String] = [:], id: UInt64? = nil) {
            self.geometry = geometry
            self.properties = properties
            self.id = id
        }
    }

    /// The layers, in order.
    public var layers: [(name: String, features: [Feature])] = []

    /// Creates a writer for `layers`.
    public init(layers: [(name: String, features: [Feature])] = []) { self.layers = layers }

    /// The tile's protobuf bytes (uncompressed).
    public func encode() -> [UInt8] {
        var tile: [UInt8] = []
        for layer in layers {
            var body: [UInt8] = []
            field(&body, 15, varint: 2)
            field(&body, 1, bytes: Array(layer.name.utf8))
            var keys: [String] = []
            var values: [String] = []
            for feature in layer.features {
                var f: [UInt8] = []
                if let id = feature.id { field(&f, 1, varint: id) }
                var tags: [UInt8] = []
                for (k, v) in feature.properties.sorted(by: { $0.key < $1.key }) {
                    let ki =
                        keys.firstIndex(of: k)
                        ?? {
                            keys.append(k)
                            return keys.count - 1
                        }()
                    let vi =
                        values.firstIndex(of: v)
                        ?? {
                            values.append(v)
                            return values.count - 1
                        }()
                    appendVarint(&tags, UInt64(ki))
                    appendVarint(&tags, UInt64(vi))
                }
                if !tags.isEmpty { field(&f, 2, bytes: tags) }
                let (type, geometry) = encodeGeometry(feature.geometry)
                field(&f, 3, varint: type)
                field(&f, 4, bytes: geometry)
                field(&body, 2, bytes: f)
            }
            for k in keys { field(&body, 3, bytes: Array(k.utf8)) }
            for v in values {
                var value: [UInt8] = []
                field(&value, 1, bytes: Array(v.utf8))
                field(&body, 4, bytes: value)
            }
            field(&body, 5, varint: 4096)
            field(&tile, 3, bytes: body)
        }
        return tile
    }

    private func encodeGeometry(_ g: Geometry) -> (UInt64, [UInt8]) {
        var out: [UInt8] = []
        var cx = 0
        var cy = 0
        func command(_ id: Int, _ count: Int) { appendVarint(&out, UInt64((id & 7) | (count << 3))) }
        func point(_ p: (Int, Int)) {
            appendVarint(&out, zigzag(p.0 - cx))
            appendVarint(&out, zigzag(p.1 - cy))
            cx = p.0
            cy = p.1
        }
        switch g {
        case .point(let x, let y):
            command(1, 1)
            point((x, y))
            return (1, out)
        case .line(let pts):
            command(1, 1)
            point(pts[0])
            command(2, pts.count - 1)
            pts.dropFirst().forEach(point)
            return (2, out)
        case .polygon(let pts):
            command(1, 1)
            point(pts[0])
            command(2, pts.count - 1)
            pts.dropFirst().forEach(point)
            command(7, 1)
            return (3, out)
        }
    }

    private func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }

    private func appendVarint(_ out: inout [UInt8], _ value: UInt64) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private func field(_ out: inout [UInt8], _ number: Int, varint: UInt64) {
        appendVarint(&out, UInt64(number << 3))
        appendVarint(&out, varint)
    }

    private func field(_ out: inout [UInt8], _ number: Int, bytes: [UInt8]) {
        appendVarint(&out, UInt64(number << 3 | 2))
        appendVarint(&out, UInt64(bytes.count))
        out += bytes
    }
}

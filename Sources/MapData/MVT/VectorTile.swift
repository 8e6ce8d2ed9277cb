import Synchronization

/// Why a vector tile, layer or feature could not be decoded.
///
/// Tile- and layer-level errors are fatal for the tile (``VectorTile/layers()`` throws); feature-level errors make
/// ``VectorTileLayer/decodeFeatures(diagnostics:)`` skip the feature and record a ``VectorTileDiagnostic``.
public enum VectorTileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The protobuf framing is broken: a truncated varint or length, a field number 0, a group wire type.
    case malformed(String)
    /// A layer breaks the spec in a way that makes it unusable (missing name or version, unsupported version,
    /// wrong wire type, bad value message, extent 0) — mvt-fixtures "fatal" cases.
    case invalidLayer(String)
    /// A feature breaks the spec (missing type or geometry, odd tag count, key or value index out of range, bad
    /// geometry commands) — it is skipped, the rest of the layer is usable.
    case invalidFeature(String)

    /// A one-line explanation naming the layer (and feature index where known).
    public var description: String {
        switch self {
        case .malformed(let m): return "malformed tile: \(m)"
        case .invalidLayer(let m): return "invalid layer: \(m)"
        case .invalidFeature(let m): return "invalid feature: \(m)"
        }
    }
}

/// A recoverable problem found while decoding: a skipped duplicate layer, a skipped feature, a removed degenerate ring.
public struct VectorTileDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The layer name the problem was found in.
    public var layer: String
    /// The feature's index in its layer, or `nil` for a layer-level problem.
    public var featureIndex: Int?
    /// What was wrong and what the decoder did about it.
    public var message: String

    /// Creates a diagnostic.
    public init(layer: String, featureIndex: Int?, message: String) {
        self.layer = layer
        self.featureIndex = featureIndex
        self.message = message
    }

    /// `layer 'name' feature 3: message`.
    public var description: String {
        "layer '\(layer)'" + (featureIndex.map { " feature \($0)" } ?? "") + ": \(message)"
    }
}

/// A decoded Mapbox Vector Tile 2.1 (vector-tile-spec 2.1 README §4) over its uncompressed protobuf bytes.
///
/// Creating a tile does no work. The layer index (names, keys, values and the byte ranges of features) is built on
/// the first call to ``layers()`` and kept; features are decoded only when asked for, and geometry only by
/// ``VectorTileFeature/decodeGeometry(diagnostics:)``. Memory use is bounded by the input size: every count read from
/// the tile is checked against the bytes that remain before anything is allocated.
///
/// Thread rules: immutable after creation apart from the lazily built index, which is guarded by a mutex, so a tile may
/// be shared across threads.
public final class VectorTile: Sendable {
    /// The uncompressed tile bytes (inflate gzip/zlib tiles first; MBTiles sources do).
    public let bytes: [UInt8]
    private let index = Mutex<Result<LayerIndex, VectorTileError>?>(nil)

    struct LayerIndex: Sendable {
        var layers: [VectorTileLayer]
        var diagnostics: [VectorTileDiagnostic]
    }

    /// Wraps `bytes` (uncompressed MVT protobuf). Decoding is deferred to ``layers()``.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The tile's layers in file order, indexed on first call and cached.
    ///
    /// A later layer whose name repeats an earlier one's is dropped with a diagnostic (MVT spec §4.1: names MUST be
    /// unique; mvt-fixtures 015).
    /// - Throws: ``VectorTileError`` when the protobuf framing or any layer is invalid (the whole tile is rejected, as
    ///   the spec's "fatal" cases recommend). The same error is thrown again on later calls.
    public func layers() throws(VectorTileError) -> [VectorTileLayer] {
        try indexed().layers
    }

    /// The layer named `name`, or `nil`. Throws as ``layers()`` does.
    public func layer(named name: String) throws(VectorTileError) -> VectorTileLayer? {
        try indexed().layers.first { $0.name == name }
    }

    /// Problems found while indexing the layers (duplicate names). Empty when the tile is clean or failed to index.
    public var layerDiagnostics: [VectorTileDiagnostic] {
        (try? indexed().diagnostics) ?? []
    }

    private func indexed() throws(VectorTileError) -> LayerIndex {
        let result = index.withLock { state -> Result<LayerIndex, VectorTileError> in
            if let state { return state }
            let built: Result<LayerIndex, VectorTileError>
            do throws(VectorTileError) {
                built = .success(try Self.buildIndex(bytes))
            } catch {
                built = .failure(error)
            }
            state = built
            return built
        }
        return try result.get()
    }

    private static func buildIndex(_ bytes: [UInt8]) throws(VectorTileError) -> LayerIndex {
        var reader = ByteReader(bytes: bytes)
        var layers: [VectorTileLayer] = []
        var diagnostics: [VectorTileDiagnostic] = []
        var names: Set<String> = []
        while let field = try reader.readField(context: "tile") {
            guard field.number == 3 else { continue }  // unknown tile fields (extensions) are skipped
            guard case .lengthDelimited(let range) = field.payload else {
                throw .malformed("tile: layer field has wire type \(field.wireTypeName)")
            }
            let layer = try VectorTileLayer(bytes: bytes, range: range, index: layers.count)
            if names.contains(layer.name) {
                diagnostics.append(
                    VectorTileDiagnostic(
                        layer: layer.name, featureIndex: nil,
                        message: "duplicate layer name; this later layer is ignored (spec 4.1)"))
                continue
            }
            names.insert(layer.name)
            layers.append(layer)
        }
        return LayerIndex(layers: layers, diagnostics: diagnostics)
    }
}

/// One layer of a vector tile (MVT spec §4.1): its name, version, extent, key and value tables and its features.
///
/// Keys and values are decoded when the layer is indexed; features stay as byte ranges until
/// ``feature(at:)`` or ``decodeFeatures(diagnostics:)`` is called.
public struct VectorTileLayer: Sendable {
    /// The layer name (field 1), unique within the tile.
    public let name: String
    /// The spec major version (field 15): 1 or 2.
    public let version: Int
    /// The tile width and height in tile coordinates (field 5). Defaults to 4096; always ≥ 1.
    public let extent: Int
    /// The key table (field 3); feature tags index into it.
    public let keys: [String]
    /// The value table (field 4); feature tags index into it.
    public let values: [VectorTileValue]
    let bytes: [UInt8]
    let featureRanges: [Range<Int>]
    /// The tables every feature of the layer shares (one reference each).
    let tables: VectorTileLayerTables

    /// The number of features, including any that will fail to decode.
    public var featureCount: Int { featureRanges.count }

    init(bytes: [UInt8], range: Range<Int>, index: Int) throws(VectorTileError) {
        var reader = ByteReader(bytes: bytes, range: range)
        var name: String?
        var version: UInt64?
        var extent: UInt64 = 4096
        var keys: [String] = []
        var valueRanges: [Range<Int>] = []
        var featureRanges: [Range<Int>] = []
        let context = "layer #\(index)"
        while let field = try reader.readField(context: context) {
            switch (field.number, field.payload) {
            case (1, .lengthDelimited(let r)): name = String(decoding: bytes[r], as: UTF8.self)
            case (2, .lengthDelimited(let r)): featureRanges.append(r)
            case (3, .lengthDelimited(let r)): keys.append(String(decoding: bytes[r], as: UTF8.self))
            case (4, .lengthDelimited(let r)): valueRanges.append(r)
            case (5, .varint(let v)): extent = v
            case (15, .varint(let v)): version = v
            case (1...5, _), (15, _):
                throw .invalidLayer("\(context): field \(field.number) has the wrong wire type \(field.wireTypeName)")
            default: continue  // unknown fields are skipped (protobuf forward compatibility)
            }
        }
        guard let name, !name.isEmpty else { throw .invalidLayer("\(context): no name (spec 4.1)") }
        guard let version else { throw .invalidLayer("layer '\(name)': no version field (spec 4.1)") }
        guard version == 1 || version == 2 else {
            throw .invalidLayer("layer '\(name)': unsupported version \(version) (only 1 and 2 are known)")
        }
        guard extent >= 1 && extent <= UInt64(Int32.max) else {
            throw .invalidLayer("layer '\(name)': extent \(extent) outside 1...\(Int32.max)")
        }
        var values: [VectorTileValue] = []
        values.reserveCapacity(valueRanges.count)
        for r in valueRanges { values.append(try VectorTileValue.decode(bytes: bytes, range: r, layer: name)) }
        self.name = name
        self.version = Int(version)
        self.extent = Int(extent)
        self.keys = keys
        self.values = values
        self.bytes = bytes
        self.featureRanges = featureRanges
        tables = VectorTileLayerTables(name: name, keys: keys, values: values, bytes: bytes)
    }

    /// Decodes the feature at `index` (id, type, properties; geometry stays encoded until asked for).
    /// - Precondition: `0 <= index < featureCount`.
    /// - Throws: ``VectorTileError/invalidFeature(_:)`` or ``VectorTileError/malformed(_:)`` when the feature is bad
    ///   (missing or invalid type, missing or repeated geometry, odd tag count, key or value index out of range).
    public func feature(at index: Int) throws(VectorTileError) -> VectorTileFeature {
        precondition(index >= 0 && index < featureRanges.count, "feature index \(index) out of range")
        return try VectorTileFeature(
            tables: tables, extent: extent, version: version, range: featureRanges[index], index: index)
    }

    /// Decodes every feature, skipping the bad ones; each skipped feature adds a diagnostic.
    /// - Parameter diagnostics: receives one entry per skipped feature.
    /// - Returns: the good features in layer order.
    public func decodeFeatures(diagnostics: inout [VectorTileDiagnostic]) -> [VectorTileFeature] {
        var result: [VectorTileFeature] = []
        result.reserveCapacity(featureRanges.count)
        for i in featureRanges.indices {
            do throws(VectorTileError) {
                result.append(try feature(at: i))
            } catch {
                // The error names the layer and feature for callers of feature(at:); the diagnostic already does.
                let message = error.description.replacing("layer '\(name)' feature \(i): ", with: "")
                diagnostics.append(VectorTileDiagnostic(layer: name, featureIndex: i, message: "skipped, \(message)"))
            }
        }
        return result
    }
}

/// The geometry type of a feature (MVT spec §4.3.4, `GeomType`).
public enum VectorTileGeometryType: Int, Sendable, CaseIterable {
    /// `UNKNOWN` (0): the geometry is not interpreted.
    case unknown = 0
    /// `POINT` (1): one or more points.
    case point = 1
    /// `LINESTRING` (2): one or more line strings.
    case lineString = 2
    /// `POLYGON` (3): one or more polygons.
    case polygon = 3
}

/// A layer's name and its key, value and byte tables, held once for all its features (immutable).
final class VectorTileLayerTables: Sendable {
    let name: String
    let keys: [String]
    let values: [VectorTileValue]
    let bytes: [UInt8]

    init(name: String, keys: [String], values: [VectorTileValue], bytes: [UInt8]) {
        self.name = name
        self.keys = keys
        self.values = values
        self.bytes = bytes
    }
}

/// One feature of a layer (MVT spec §4.2): id, geometry type, properties, and its still-encoded geometry.
public struct VectorTileFeature: Sendable {
    /// The feature id (field 1), or `nil` when the feature has none.
    public let id: UInt64?
    /// The geometry type (field 3).
    public let type: VectorTileGeometryType
    /// The properties resolved from the tags through the layer's key and value tables; a repeated key keeps its last
    /// value. Built on each access (O(tags)); use ``value(forKey:)`` for one property.
    public var properties: [String: VectorTileValue] {
        var result: [String: VectorTileValue] = [:]
        result.reserveCapacity(tags.count / 2)
        forEachTag { result[keys[$0]] = values[$1] }
        return result
    }
    /// The tag pairs as validated indices into ``keys`` and ``values`` (even length).
    let tags: [UInt32]
    /// The feature's index within its layer.
    public let index: Int
    /// The layer's extent (tile coordinates span `0..<extent` on both axes).
    public let extent: Int
    /// The layer's spec version (1 or 2); version 1 layers allow `ClosePath` in line strings.
    public let layerVersion: Int
    /// The layer's name, for diagnostics.
    public var layerName: String { tables.name }
    /// The layer's key, value and byte tables, shared by all its features: copying a feature retains this and
    /// ``tags`` only.
    let tables: VectorTileLayerTables
    var keys: [String] { tables.keys }
    var values: [VectorTileValue] { tables.values }
    var bytes: [UInt8] { tables.bytes }
    let geometryRange: Range<Int>

    /// Decodes the feature in `range` of the layer whose tables, extent and version are given (the layer itself is
    /// not passed, so decoding a feature copies none of its arrays).
    init(tables: VectorTileLayerTables, extent: Int, version: Int, range: Range<Int>, index: Int)
        throws(VectorTileError)
    {
        let bytes = tables.bytes
        var reader = ByteReader(bytes: bytes, range: range)
        var id: UInt64?
        var type: UInt64?
        var tagsRange: Range<Int>?
        var geometryRange: Range<Int>?
        // Only an error names the feature: the text is made when one is thrown, not for every feature.
        func context() -> String { "layer '\(tables.name)' feature \(index)" }
        while let field = try reader.readField(context: context()) {
            switch (field.number, field.payload) {
            case (1, .varint(let v)): id = v
            case (2, .lengthDelimited(let r)):
                guard tagsRange == nil else { throw .invalidFeature("\(context()): more than one tags field") }
                tagsRange = r
            case (3, .varint(let v)): type = v
            case (4, .lengthDelimited(let r)):
                guard geometryRange == nil else { throw .invalidFeature("\(context()): more than one geometry field") }
                geometryRange = r
            case (1...4, _):
                throw .invalidFeature(
                    "\(context()): field \(field.number) has the wrong wire type \(field.wireTypeName)")
            default: continue
            }
        }
        guard let type else { throw .invalidFeature("\(context()): no geometry type (spec 4.2)") }
        guard let kind = VectorTileGeometryType(rawValue: Int(clamping: type)) else {
            throw .invalidFeature("\(context()): unknown geometry type \(type)")
        }
        guard let geometryRange else { throw .invalidFeature("\(context()): no geometry field (spec 4.2)") }
        var tags: [UInt32] = []
        if let tagsRange {
            tags.reserveCapacity(tagsRange.count)
            var reader = ByteReader(bytes: bytes, range: tagsRange)
            while !reader.isAtEnd {
                guard let k = reader.readVarint() else { throw .malformed("\(context()): truncated tag") }
                guard let v = reader.readVarint() else { throw .invalidFeature("\(context()): odd number of tags") }
                guard k < UInt64(tables.keys.count) else {
                    throw .invalidFeature("\(context()): key index \(k) out of range 0..<\(tables.keys.count)")
                }
                guard v < UInt64(tables.values.count) else {
                    throw .invalidFeature("\(context()): value index \(v) out of range 0..<\(tables.values.count)")
                }
                tags.append(UInt32(k))
                tags.append(UInt32(v))
            }
        }
        self.id = id
        self.type = kind
        self.tags = tags
        self.tables = tables
        self.index = index
        self.extent = extent
        self.layerVersion = version
        self.geometryRange = geometryRange
    }

    /// The value of property `key`, or `nil` when the feature has none; the last one wins if the key repeats.
    /// O(tags), no allocation.
    public func value(forKey key: String) -> VectorTileValue? {
        // From the last pair back, so the first match is the one that wins; names of another length are passed over
        // without comparing their bytes (most of a feature's keys, the filters' names being short and varied).
        let length = key.utf8.count
        let keys = tables.keys
        var i = tags.count & ~1
        while i >= 2 {
            i -= 2
            let name = keys[Int(tags[i])]
            if name.utf8.count == length && name == key { return tables.values[Int(tags[i + 1])] }
        }
        return nil
    }

    /// The number of properties (tag pairs, counting a repeated key each time).
    public var propertyCount: Int { tags.count / 2 }

    private func forEachTag(_ body: (Int, Int) -> Void) {
        var i = 0
        while i + 1 < tags.count {
            body(Int(tags[i]), Int(tags[i + 1]))
            i += 2
        }
    }

    /// The raw geometry integers (command integers and zigzag parameters, MVT spec §4.3), as stored.
    /// - Throws: ``VectorTileError/malformed(_:)`` when a varint is truncated or exceeds 32 bits.
    public func geometryCommands() throws(VectorTileError) -> [UInt32] {
        var reader = ByteReader(bytes: bytes, range: geometryRange)
        var result: [UInt32] = []
        result.reserveCapacity(min(geometryRange.count, 1 << 20))
        while !reader.isAtEnd {
            guard let v = reader.readVarint(), v <= UInt64(UInt32.max) else {
                throw .malformed("layer '\(layerName)' feature \(index): bad geometry integer")
            }
            result.append(UInt32(v))
        }
        return result
    }
}

import Foundation
import MapData
import MapGeometry

/// Inflates PMTiles sections and tiles with zlib: `.gzip` inflates (gzip or zlib framing), `.none` returns the bytes,
/// `.unknown` inflates only what starts with a gzip or zlib header; brotli and zstd throw.
let pmtilesDecompressor: PMTilesDecompressor = { bytes, compression, limit in
    switch compression {
    case .none:
        guard bytes.count <= limit else { throw InflateError(description: "\(bytes.count) bytes exceed \(limit)") }
        return bytes
    case .gzip: return try inflate(bytes, limit: limit)
    case .unknown: return try inflateIfCompressed(bytes, limit: limit)
    case .brotli, .zstd: throw InflateError(description: "\(compression) is not supported")
    }
}

/// A ``TileSource`` over a PMTiles v3 archive (spec: github.com/protomaps/PMTiles, `spec/v3`), read through a
/// ``RangeReader``: a local file (``init(path:limits:directoryCacheBytes:)``), or any other reader.
///
/// - Header, root directory and metadata are read at open; leaf directories on demand, kept in a
///   least-recently-used cache bounded in bytes (24 bytes per entry counted).
/// - Tiles are inflated per the header's tile compression (gzip, none, or sniffed when unknown).
/// - Hostile archives give ``PMTilesError`` naming the archive, within ``PMTilesLimits`` (see ``PMTilesArchive``).
/// - Metadata: `name`, `attribution`, `description` and other string keys of the JSON metadata, `vector_layers`
///   (top level, or inside a `json` string as MBTiles-converted archives carry it); bounds, center and zooms come
///   from the header; `format` from the tile type.
///
/// Thread rules: the leaf cache takes an internal lock; one instance may be shared across threads.
public final class PMTilesSource: TileSource, @unchecked Sendable {
    /// The archive's name (path or URL) as given.
    public let path: String
    /// The file's kind, absolute path, size and modification time (renderers on the same file share its decoded
    /// tiles); `nil` when ``path`` is not a local file.
    public var sharingIdentity: String? { fileSharingIdentity(kind: "pmtiles", path: path) }
    /// The decoded header, root directory and metadata.
    public let archive: PMTilesArchive
    /// The metadata (see the type's documentation).
    public let metadata: TileSourceMetadata
    /// The header's lowest zoom.
    public let minZoom: Int
    /// The header's highest zoom.
    public let maxZoom: Int
    /// The leaf cache bound in bytes.
    public let directoryCacheBytes: Int

    private let reader: any RangeReader
    private let lock = NSLock()
    private var leaves: [UInt64: (entries: [PMTilesEntry], cost: Int, used: UInt64)] = [:]
    private var cachedBytes = 0
    private var clock: UInt64 = 0

    /// Opens a local archive.
    /// - Parameters:
    ///   - path: a filesystem path to a `.pmtiles` file.
    ///   - limits: the hard limits. Defaults to ``PMTilesLimits/init()``.
    ///   - directoryCacheBytes: the leaf cache bound. Defaults to 4 MiB.
    /// - Throws: ``PMTilesError`` naming the file (missing, not PMTiles, version not 3, hostile directories).
    public convenience init(path: String, limits: PMTilesLimits = PMTilesLimits(), directoryCacheBytes: Int = 4 << 20)
        throws
    {
        try self.init(reader: FileRangeReader(path: path), limits: limits, directoryCacheBytes: directoryCacheBytes)
    }

    /// Opens an archive through any byte-range reader (the seam for HTTP range requests).
    /// - Throws: ``PMTilesError`` naming `reader.name`.
    public init(reader: any RangeReader, limits: PMTilesLimits = PMTilesLimits(), directoryCacheBytes: Int = 4 << 20)
        throws
    {
        self.reader = reader
        self.path = reader.name
        self.directoryCacheBytes = max(0, directoryCacheBytes)
        archive = try PMTilesArchive(reader: reader, decompress: pmtilesDecompressor, limits: limits)
        minZoom = archive.header.minZoom
        maxZoom = archive.header.maxZoom
        metadata = Self.metadata(archive)
    }

    /// The uncompressed payload of the XYZ tile at `address`, or `nil` when the archive has no such tile (or the
    /// address is invalid).
    /// - Throws: ``PMTilesError`` naming the archive for hostile directories, reads past the end, and payloads that do
    ///   not inflate.
    public func tileData(at address: TileID) throws -> [UInt8]? {
        guard let raw = try rawTileData(at: address) else { return nil }
        do {
            return try pmtilesDecompressor(raw, archive.header.tileCompression, archive.limits.maxTileBytes)
        } catch {
            throw PMTilesError(archive: path, reason: .badTile, detail: "tile \(address): \(error)")
        }
    }

    /// The payload of the tile at `address` exactly as stored (still compressed), or `nil` when absent.
    /// - Throws: ``PMTilesError`` naming the archive.
    public func rawTileData(at address: TileID) throws -> [UInt8]? {
        guard let entry = try archive.entry(for: PMTilesTileID.id(of: address), leaf: leaf) else {
            return nil
        }
        let range = archive.tileRange(entry)
        let bytes = try PMTilesArchive.read(reader, offset: range.offset, length: range.length)
        guard bytes.count == range.length else {
            throw PMTilesError(
                archive: path, reason: .badTile,
                detail: "tile \(address): \(bytes.count) of \(range.length) bytes (truncated archive)")
        }
        return bytes
    }

    /// Every tile entry (run lengths not expanded), in tile-id order, walking every leaf directory once.
    /// - Throws: ``PMTilesError`` for hostile directories (cycles, depth beyond the limit).
    public func tileEntries() throws -> [PMTilesEntry] {
        var result: [PMTilesEntry] = []
        func walk(_ entries: [PMTilesEntry], path: [UInt64]) throws {
            for entry in entries {
                if !entry.isLeaf {
                    result.append(entry)
                    continue
                }
                guard !path.contains(entry.offset) else {
                    throw PMTilesError(
                        archive: self.path, reason: .directoryCycle, detail: "leaf at offset \(entry.offset) revisited")
                }
                guard path.count < archive.limits.maxLeafDepth else {
                    throw PMTilesError(
                        archive: self.path, reason: .limitExceeded,
                        detail: "more than \(archive.limits.maxLeafDepth) levels of leaf directories")
                }
                let children = try archive.loadLeaf(entry, reader: reader, decompress: pmtilesDecompressor)
                try walk(children, path: path + [entry.offset])
            }
        }
        try walk(archive.root, path: [])
        return result
    }

    /// Every tile address the archive has data for (run lengths expanded), in tile-id order.
    /// - Parameter limit: the most addresses returned before throwing `.limitExceeded`. Defaults to 16,777,216.
    /// - Returns: one address per addressed tile (a run of `n` gives `n` consecutive ids), empty for an archive with
    ///   no entries.
    /// - Throws: ``PMTilesError`` naming the archive.
    public func tileAddresses(limit: Int = 1 << 24) throws -> [TileID] {
        var result: [TileID] = []
        for entry in try tileEntries() {
            for i in 0..<UInt64(entry.runLength) {
                guard result.count < limit else {
                    throw PMTilesError(
                        archive: path, reason: .limitExceeded, detail: "more than \(limit) tile addresses")
                }
                guard let address = PMTilesTileID.address(of: entry.tileID + i) else { break }
                result.append(address)
            }
        }
        return result
    }

    /// The leaf directory an entry points at, from the cache or the reader.
    private func leaf(_ entry: PMTilesEntry) throws -> [PMTilesEntry] {
        lock.lock()
        clock += 1
        if let hit = leaves[entry.offset] {
            leaves[entry.offset]?.used = clock
            lock.unlock()
            return hit.entries
        }
        lock.unlock()
        let entries = try archive.loadLeaf(entry, reader: reader, decompress: pmtilesDecompressor)
        let cost = entries.count * MemoryLayout<PMTilesEntry>.stride + 64
        guard cost <= directoryCacheBytes else { return entries }
        lock.lock()
        defer { lock.unlock() }
        if leaves[entry.offset] == nil {
            leaves[entry.offset] = (entries, cost, clock)
            cachedBytes += cost
        }
        while cachedBytes > directoryCacheBytes, let oldest = leaves.min(by: { $0.value.used < $1.value.used }) {
            cachedBytes -= oldest.value.cost
            leaves[oldest.key] = nil
        }
        return entries
    }

    /// The leaf cache's current size in bytes (for tests of the bound).
    package var cachedDirectoryBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return cachedBytes
    }

    private static func metadata(_ archive: PMTilesArchive) -> TileSourceMetadata {
        let h = archive.header
        var meta = TileSourceMetadata()
        meta.minZoom = h.minZoom
        meta.maxZoom = h.maxZoom
        meta.bounds = [h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7].map { Double($0) / 1e7 }
        meta.center = [Double(h.centerLonE7) / 1e7, Double(h.centerLatE7) / 1e7, Double(h.centerZoom)]
        meta.format = h.tileType.mbtilesFormat
        let text = String(decoding: archive.metadataJSON, as: UTF8.self)
        meta.json = text
        guard let object = try? JSONSerialization.jsonObject(with: Data(archive.metadataJSON)) as? [String: Any] else {
            return meta
        }
        for (key, value) in object {
            guard let string = value as? String else { continue }
            switch key {
            case "name": meta.name = string
            case "attribution": meta.attribution = string
            case "format": meta.format = meta.format ?? string
            case "json", "bounds", "center", "minzoom", "maxzoom": continue
            default: meta.extra[key] = string
            }
        }
        meta.vectorLayers = MBTilesSource.vectorLayers(fromJSON: text)
        if meta.vectorLayers.isEmpty, let inner = object["json"] as? String {
            meta.vectorLayers = MBTilesSource.vectorLayers(fromJSON: inner)
        }
        return meta
    }
}

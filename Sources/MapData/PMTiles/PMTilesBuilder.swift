import MapGeometry

/// Builds a clustered PMTiles v3 archive in memory (Waymark's own writer, after the spec's reference writers).
///
/// - Tiles may be added in any order; ``finish(metadataJSON:)`` lays the data out in tile-id order (clustered).
/// - Identical payloads are stored once; consecutive tile ids with the same payload become one run-length entry.
/// - Directories go into leaf directories when the root would not fit in the first 16,384 bytes (or always, with a
///   fixed ``leafSize``); leaves hold `leafSize` entries, starting at 4,096 and doubling until the root fits.
/// - Layout: header, root directory, metadata, leaf directories, tile data.
///
/// Memory: holds every distinct payload until ``finish(metadataJSON:)``. Thread rules: a value; use from one thread.
public struct PMTilesBuilder {
    /// The header fields a writer chooses (type, compression, bounds, center); the section fields, counts, zooms
    /// and `clustered` are filled in by ``finish(metadataJSON:)``.
    public var header: PMTilesHeader
    /// Entries per leaf directory, or `nil` to use leaves only when the root would exceed the first 16 KiB.
    public var leafSize: Int?
    private let compress: ([UInt8]) throws -> [UInt8]
    private var tiles: [UInt64: [UInt8]] = [:]

    /// Creates a builder.
    /// - Parameters:
    ///   - header: the header template (``PMTilesHeader/internalCompression`` decides whether `compress` is used).
    ///   - leafSize: a fixed leaf directory size (≥ 1), or `nil` for the automatic choice. Defaults to `nil`.
    ///   - compress: compresses directories and metadata when the header's internal compression is `.gzip`.
    public init(header: PMTilesHeader, leafSize: Int? = nil, compress: @escaping ([UInt8]) throws -> [UInt8]) {
        self.header = header
        self.leafSize = leafSize.map { max(1, $0) }
        self.compress = compress
    }

    /// How many tiles were added.
    public var count: Int { tiles.count }

    /// Adds (or replaces) the payload of the tile at `address`, stored exactly as given.
    public mutating func add(_ address: TileID, _ payload: [UInt8]) {
        tiles[PMTilesTileID.id(of: address)] = payload
    }

    /// The whole archive.
    /// - Parameter metadataJSON: the metadata JSON text (UTF-8), stored with the internal compression.
    /// - Returns: the archive's bytes (header, root directory, metadata, leaf directories, tile data), ready to write
    ///   to a `.pmtiles` file.
    /// - Throws: what `compress` throws; ``PMTilesError`` `.limitExceeded` when there are no tiles or a payload is
    ///   empty or larger than 4 GiB (the entry length is 32 bits).
    public func finish(metadataJSON: [UInt8]) throws -> [UInt8] {
        let ids = tiles.keys.sorted()
        guard let firstID = ids.first, let lastID = ids.last else {
            throw PMTilesError(archive: "(new archive)", reason: .limitExceeded, detail: "no tiles to write")
        }
        var entries: [PMTilesEntry] = []
        var data: [UInt8] = []
        var offsets: [[UInt8]: UInt64] = [:]
        for id in ids {
            let payload = tiles[id]!
            guard payload.count <= Int(UInt32.max), !payload.isEmpty else {
                throw PMTilesError(
                    archive: "(new archive)", reason: .limitExceeded,
                    detail: "tile \(id) has \(payload.count) bytes (1...\(UInt32.max) allowed)")
            }
            if let offset = offsets[payload] {
                if let last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == id,
                    last.runLength < UInt32.max
                {
                    entries[entries.count - 1].runLength += 1
                } else {
                    entries.append(
                        PMTilesEntry(tileID: id, offset: offset, length: UInt32(payload.count), runLength: 1))
                }
            } else {
                let offset = UInt64(data.count)
                offsets[payload] = offset
                data += payload
                entries.append(PMTilesEntry(tileID: id, offset: offset, length: UInt32(payload.count), runLength: 1))
            }
        }
        let internalCompress: ([UInt8]) throws -> [UInt8] =
            header.internalCompression == .gzip ? compress : { $0 }
        let (root, leaves) = try directories(entries, compress: internalCompress)
        let metadata = try internalCompress(metadataJSON)

        var h = header
        h.clustered = true
        h.minZoom = PMTilesTileID.address(of: firstID)?.z ?? 0
        h.maxZoom = PMTilesTileID.address(of: lastID)?.z ?? 0
        h.rootOffset = UInt64(PMTilesHeader.size)
        h.rootLength = UInt64(root.count)
        h.metadataOffset = h.rootOffset + h.rootLength
        h.metadataLength = UInt64(metadata.count)
        h.leafDirectoryOffset = h.metadataOffset + h.metadataLength
        h.leafDirectoryLength = UInt64(leaves.count)
        h.tileDataOffset = h.leafDirectoryOffset + h.leafDirectoryLength
        h.tileDataLength = UInt64(data.count)
        h.addressedTilesCount = UInt64(ids.count)
        h.tileEntriesCount = UInt64(entries.count)
        h.tileContentsCount = UInt64(offsets.count)
        return h.encoded() + root + metadata + leaves + data
    }

    /// The stored root directory and the leaf section.
    private func directories(_ entries: [PMTilesEntry], compress: ([UInt8]) throws -> [UInt8]) throws
        -> (root: [UInt8], leaves: [UInt8])
    {
        let budget = PMTilesHeader.rootRegionSize - PMTilesHeader.size
        if leafSize == nil {
            let root = try compress(PMTilesDirectory.encode(entries))
            if root.count <= budget { return (root, []) }
        }
        var size = leafSize ?? 4096
        while true {
            var rootEntries: [PMTilesEntry] = []
            var leaves: [UInt8] = []
            var start = 0
            while start < entries.count {
                let end = min(start + size, entries.count)
                let leaf = try compress(PMTilesDirectory.encode(Array(entries[start..<end])))
                rootEntries.append(
                    PMTilesEntry(
                        tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count),
                        runLength: 0))
                leaves += leaf
                start = end
            }
            let root = try compress(PMTilesDirectory.encode(rootEntries))
            if root.count <= budget || leafSize != nil { return (root, leaves) }
            size *= 2
        }
    }
}

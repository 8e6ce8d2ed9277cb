/// A source of byte ranges: a local file now, an HTTP server with `Range` requests later. The seam the PMTiles reader
/// reads through. Waymark's own.
///
/// Thread rules: implementations are `Sendable`; `read` may be called from several threads at once.
public protocol RangeReader: Sendable {
    /// The name used in errors: a file path or URL as given.
    var name: String { get }
    /// The total size in bytes when known (a file's size, an HTTP `Content-Range` total), else `nil`.
    var size: UInt64? { get }
    /// What identifies this version of the bytes (a file's size and modification time, an HTTP ETag), or `nil`
    /// when the reader cannot tell. A reader that sees a different identity mid-session throws a
    /// ``PMTilesError`` with reason `.changed`, so that caches keyed on the old identity are dropped.
    var identity: String? { get }
    /// The bytes `offset..<offset + length`; fewer only when the source ends first.
    /// - Throws: an error naming the source for I/O failures.
    func read(offset: UInt64, length: Int) throws -> [UInt8]
}

/// Inflates a directory, the metadata or a tile: `(bytes, compression, limit) → inflated bytes`, or the bytes
/// unchanged for `.none`. Supplied by the adapter layer (MapStorage uses zlib); the engine imports no C.
/// - Throws: for corrupt data or output beyond `limit` bytes.
public typealias PMTilesDecompressor =
    @Sendable (_ bytes: [UInt8], _ compression: PMTilesCompression, _ limit: Int)
    throws -> [UInt8]

/// An opened PMTiles v3 archive's fixed parts: the header, the root directory and the metadata, read through a
/// ``RangeReader``; and the walk from the root through leaf directories to a tile's entry.
///
/// Reads the first 16,384 bytes once (header and, per the spec, the root directory), then the metadata.
/// Thread rules: an immutable value; leaf loading (and caching) is the caller's.
public struct PMTilesArchive: Sendable {
    /// The archive's name for errors.
    public let name: String
    /// The header.
    public let header: PMTilesHeader
    /// The root directory's entries.
    public let root: [PMTilesEntry]
    /// The metadata JSON text, inflated (`{}` when the section is empty).
    public let metadataJSON: [UInt8]
    /// The reader's identity when the archive was opened.
    public let identity: String?
    /// The limits this archive is read with.
    public let limits: PMTilesLimits

    /// Reads the header, root directory and metadata.
    /// - Parameters:
    ///   - reader: the bytes.
    ///   - decompress: the inflater for gzip sections.
    ///   - limits: the hard limits. Defaults to ``PMTilesLimits/init()``.
    /// - Throws: ``PMTilesError`` naming `reader.name` (see ``PMTilesHeader/init(decoding:archive:archiveSize:)``
    ///   and ``PMTilesDirectory/decode(_:archive:limits:)``), `.cannotRead` for reader failures.
    public init(reader: any RangeReader, decompress: PMTilesDecompressor, limits: PMTilesLimits = PMTilesLimits())
        throws
    {
        name = reader.name
        self.limits = limits
        identity = reader.identity
        let first = try Self.read(reader, offset: 0, length: PMTilesHeader.rootRegionSize)
        let header = try PMTilesHeader(decoding: first, archive: name, archiveSize: reader.size)
        self.header = header
        let rootBytes: [UInt8]
        let rootEnd = header.rootOffset + header.rootLength
        if rootEnd <= UInt64(first.count) {
            rootBytes = Array(first[Int(header.rootOffset)..<Int(rootEnd)])
        } else {
            rootBytes = try Self.section(
                reader, offset: header.rootOffset, length: header.rootLength, limit: limits.maxDirectoryBytes,
                what: "root directory", name: name)
        }
        root = try Self.directory(rootBytes, header: header, decompress: decompress, limits: limits, name: name)
        if header.metadataLength == 0 {
            metadataJSON = Array("{}".utf8)
        } else {
            let stored = try Self.section(
                reader, offset: header.metadataOffset, length: header.metadataLength, limit: limits.maxMetadataBytes,
                what: "metadata", name: name)
            do {
                metadataJSON = try decompress(stored, header.internalCompression, limits.maxMetadataBytes)
            } catch {
                throw PMTilesError(archive: name, reason: .badHeader, detail: "metadata does not inflate: \(error)")
            }
        }
    }

    /// Reads and decodes the leaf directory `entry` points at (`offset` relative to the leaf section).
    /// - Throws: ``PMTilesError``: `.badDirectory` when it lies outside the leaf section, `.limitExceeded` when it is
    ///   larger than ``PMTilesLimits/maxDirectoryBytes``, decoding errors, `.cannotRead`.
    public func loadLeaf(_ entry: PMTilesEntry, reader: any RangeReader, decompress: PMTilesDecompressor) throws
        -> [PMTilesEntry]
    {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.leafDirectoryLength else {
            throw PMTilesError(
                archive: name, reason: .badDirectory,
                detail:
                    "leaf at \(entry.offset)+\(entry.length) past the \(header.leafDirectoryLength)-byte leaf section")
        }
        let bytes = try Self.section(
            reader, offset: header.leafDirectoryOffset + entry.offset, length: UInt64(entry.length),
            limit: limits.maxDirectoryBytes, what: "leaf directory", name: name)
        return try Self.directory(bytes, header: header, decompress: decompress, limits: limits, name: name)
    }

    /// Finds the tile entry for `tileID`, following leaf pointers through `leaf` (which loads, and may cache, the
    /// leaf an entry points at; see ``loadLeaf(_:reader:decompress:)``).
    /// - Returns: a tile entry (run length ≥ 1) whose payload lies inside the tile data section, or `nil` when the
    ///   archive has no such tile.
    /// - Throws: ``PMTilesError``: `.directoryCycle` for a leaf visited twice on the way (a leaf pointing at itself or
    ///   at an ancestor), `.limitExceeded` past ``PMTilesLimits/maxLeafDepth`` levels, `.badTile` for a payload
    ///   outside the tile data section or above ``PMTilesLimits/maxTileBytes``, and whatever `leaf` throws.
    public func entry(for tileID: UInt64, leaf: (PMTilesEntry) throws -> [PMTilesEntry]) throws -> PMTilesEntry? {
        var entries = root
        var visited: [UInt64] = []
        while true {
            guard let found = PMTilesDirectory.find(tileID, in: entries) else { return nil }
            if !found.isLeaf {
                let (end, overflow) = found.offset.addingReportingOverflow(UInt64(found.length))
                guard !overflow, end <= header.tileDataLength else {
                    throw PMTilesError(
                        archive: name, reason: .badTile,
                        detail: "tile \(tileID) at \(found.offset)+\(found.length) past the "
                            + "\(header.tileDataLength)-byte tile data section")
                }
                guard Int(found.length) <= limits.maxTileBytes else {
                    throw PMTilesError(
                        archive: name, reason: .limitExceeded,
                        detail: "tile \(tileID) of \(found.length) bytes (limit \(limits.maxTileBytes))")
                }
                return found
            }
            guard !visited.contains(found.offset) else {
                throw PMTilesError(
                    archive: name, reason: .directoryCycle,
                    detail: "leaf at offset \(found.offset) reached twice looking up tile \(tileID)")
            }
            guard visited.count < limits.maxLeafDepth else {
                throw PMTilesError(
                    archive: name, reason: .limitExceeded,
                    detail: "more than \(limits.maxLeafDepth) levels of leaf directories for tile \(tileID)")
            }
            visited.append(found.offset)
            entries = try leaf(found)
        }
    }

    /// The absolute byte range of a tile entry's payload (an offset past `UInt64.max` saturates, so reading it fails
    /// as past the end of the archive instead of trapping).
    public func tileRange(_ entry: PMTilesEntry) -> (offset: UInt64, length: Int) {
        let (offset, overflow) = header.tileDataOffset.addingReportingOverflow(entry.offset)
        return (overflow ? .max : offset, Int(entry.length))
    }

    // MARK: - Helpers

    /// `reader.read(offset:length:)`, with any non-PMTiles error wrapped as `.cannotRead` naming the reader.
    package static func read(_ reader: any RangeReader, offset: UInt64, length: Int) throws -> [UInt8] {
        do {
            return try reader.read(offset: offset, length: length)
        } catch let error as PMTilesError {
            throw error
        } catch {
            throw PMTilesError(archive: reader.name, reason: .cannotRead, detail: "\(error)")
        }
    }

    static func section(
        _ reader: any RangeReader, offset: UInt64, length: UInt64, limit: Int, what: String, name: String
    ) throws -> [UInt8] {
        guard length <= UInt64(limit) else {
            throw PMTilesError(
                archive: name, reason: .limitExceeded, detail: "\(what) of \(length) bytes (limit \(limit))")
        }
        let bytes = try read(reader, offset: offset, length: Int(length))
        guard bytes.count == Int(length) else {
            throw PMTilesError(
                archive: name, reason: .cannotRead,
                detail: "\(what) at \(offset): \(bytes.count) of \(length) bytes (truncated archive)")
        }
        return bytes
    }

    static func directory(
        _ stored: [UInt8], header: PMTilesHeader, decompress: PMTilesDecompressor, limits: PMTilesLimits,
        name: String
    ) throws -> [PMTilesEntry] {
        let plain: [UInt8]
        do {
            plain = try decompress(stored, header.internalCompression, limits.maxInflatedDirectoryBytes)
        } catch {
            throw PMTilesError(archive: name, reason: .badDirectory, detail: "does not inflate: \(error)")
        }
        return try PMTilesDirectory.decode(plain, archive: name, limits: limits)
    }
}

/// A ``RangeReader`` over bytes in memory (tests, fuzzing, archives already downloaded whole).
/// Thread rules: immutable.
public struct MemoryRangeReader: RangeReader {
    /// The name used in errors.
    public let name: String
    /// The bytes.
    public let bytes: [UInt8]
    /// `bytes.count`.
    public var size: UInt64? { UInt64(bytes.count) }
    /// The identity given at creation, or `nil`.
    public let identity: String?

    /// Creates a reader.
    public init(name: String, bytes: [UInt8], identity: String? = nil) {
        self.name = name
        self.bytes = bytes
        self.identity = identity
    }

    /// The bytes `offset..<offset + length` clipped to the buffer (empty past the end).
    public func read(offset: UInt64, length: Int) throws -> [UInt8] {
        guard offset < UInt64(bytes.count), length > 0 else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<start + min(length, bytes.count - start)])
    }
}

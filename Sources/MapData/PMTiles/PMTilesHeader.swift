/// Why a PMTiles archive could not be read. The description always names the archive (a file path or URL).
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The bytes could not be read (missing file, I/O error, short read).
        case cannotRead
        /// The archive does not start with `PMTiles` (it is not a PMTiles file).
        case badMagic
        /// The spec version byte is not 3 (v1/v2 archives and future versions are not read).
        case unsupportedVersion
        /// A compression Waymark does not decode (brotli, zstd, or an unknown code for directories).
        case unsupportedCompression
        /// A header field is out of range (sections past the end, zooms above 30, overflowing offsets).
        case badHeader
        /// A directory (root or leaf) is malformed: varint overflow, too few bytes, ids out of order, bad offsets.
        case badDirectory
        /// A documented limit of ``PMTilesLimits`` was exceeded (directory or tile size, entry count, leaf depth).
        case limitExceeded
        /// A leaf directory points at itself or at a leaf already visited on the way (a cycle).
        case directoryCycle
        /// A tile entry points outside the tile data section, or its payload does not decompress.
        case badTile
        /// The archive changed while it was being read (another identity: file size and time, or an HTTP ETag).
        case changed
    }

    /// The archive's path or URL as given.
    public var archive: String
    /// The kind of failure.
    public var reason: Reason
    /// Details (offsets, sizes, the underlying error).
    public var detail: String

    /// Creates an error.
    public init(archive: String, reason: Reason, detail: String) {
        self.archive = archive
        self.reason = reason
        self.detail = detail
    }

    /// `<archive>: <what>: <detail>`.
    public var description: String {
        let what: String
        switch reason {
        case .cannotRead: what = "cannot read"
        case .badMagic: what = "not a PMTiles archive"
        case .unsupportedVersion: what = "unsupported PMTiles version"
        case .unsupportedCompression: what = "unsupported compression"
        case .badHeader: what = "bad PMTiles header"
        case .badDirectory: what = "bad PMTiles directory"
        case .limitExceeded: what = "PMTiles limit exceeded"
        case .directoryCycle: what = "PMTiles leaf directory cycle"
        case .badTile: what = "bad tile"
        case .changed: what = "archive changed while reading"
        }
        return "\(archive): \(what): \(detail)"
    }
}

/// A compression code of the PMTiles v3 header (spec "Compression"), for directories, metadata and tiles.
public enum PMTilesCompression: UInt8, Sendable, Equatable {
    /// 0: not stated; Waymark inflates tiles that start with a gzip or zlib header and keeps the others as stored.
    case unknown = 0
    /// 1: stored as is.
    case none = 1
    /// 2: gzip (RFC 1952).
    case gzip = 2
    /// 3: brotli (not decoded by Waymark).
    case brotli = 3
    /// 4: zstd (not decoded by Waymark).
    case zstd = 4
}

/// The tile type code of the PMTiles v3 header (spec "Tile Type").
public enum PMTilesTileType: UInt8, Sendable, Equatable {
    /// 0: unknown or other.
    case unknown = 0
    /// 1: Mapbox Vector Tile (MBTiles format `pbf`).
    case mvt = 1
    /// 2: PNG.
    case png = 2
    /// 3: JPEG.
    case jpeg = 3
    /// 4: WebP.
    case webp = 4
    /// 5: AVIF.
    case avif = 5
    /// 6: MapLibre Tile.
    case mlt = 6

    /// The type for an MBTiles `format` value (`pbf`, `png`, `jpg`/`jpeg`, `webp`, `avif`, `mlt`); `.unknown` else.
    public init(mbtilesFormat: String?) {
        switch mbtilesFormat?.lowercased() {
        case "pbf", "mvt": self = .mvt
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "mlt": self = .mlt
        default: self = .unknown
        }
    }

    /// The MBTiles `format` value for this type (`pbf`, `png`, `jpg`, `webp`, `avif`, `mlt`), `nil` for unknown.
    public var mbtilesFormat: String? {
        switch self {
        case .mvt: return "pbf"
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .avif: return "avif"
        case .mlt: return "mlt"
        case .unknown: return nil
        }
    }
}

/// The 127-byte header at the start of every PMTiles v3 archive (spec "Header"): little-endian fields at fixed
/// offsets. Offsets and lengths are in bytes from the start of the archive; positions are degrees × 10^7.
public struct PMTilesHeader: Sendable, Equatable {
    /// The header's size in bytes: 127.
    public static let size = 127
    /// The spec's bound on header + root directory: the first 16,384 bytes of the archive hold both.
    public static let rootRegionSize = 16_384

    /// Where the root directory starts.
    public var rootOffset: UInt64 = 127
    /// The root directory's stored (possibly compressed) length.
    public var rootLength: UInt64 = 0
    /// Where the JSON metadata starts.
    public var metadataOffset: UInt64 = 0
    /// The metadata's stored length.
    public var metadataLength: UInt64 = 0
    /// Where the leaf directories section starts (leaf entry offsets are relative to it).
    public var leafDirectoryOffset: UInt64 = 0
    /// The leaf directories section's length (0 when there are no leaves).
    public var leafDirectoryLength: UInt64 = 0
    /// Where the tile data section starts (tile entry offsets are relative to it).
    public var tileDataOffset: UInt64 = 0
    /// The tile data section's length.
    public var tileDataLength: UInt64 = 0
    /// How many tile addresses have data (run lengths counted), 0 when unknown.
    public var addressedTilesCount: UInt64 = 0
    /// How many tile entries the directories hold, 0 when unknown.
    public var tileEntriesCount: UInt64 = 0
    /// How many distinct tile payloads the data section holds, 0 when unknown.
    public var tileContentsCount: UInt64 = 0
    /// Whether tile data is laid out in tile-id order (byte 96 is 1).
    public var clustered: Bool = true
    /// How directories and metadata are compressed (Waymark reads `.none` and `.gzip`).
    public var internalCompression: PMTilesCompression = .gzip
    /// How tiles are compressed (`.unknown`: inflated when they look compressed).
    public var tileCompression: PMTilesCompression = .gzip
    /// The kind of tiles.
    public var tileType: PMTilesTileType = .mvt
    /// The lowest zoom, `0...30`.
    public var minZoom: Int = 0
    /// The highest zoom, `minZoom...30`.
    public var maxZoom: Int = 0
    /// West edge, degrees × 10^7.
    public var minLonE7: Int32 = -1_800_000_000
    /// South edge, degrees × 10^7.
    public var minLatE7: Int32 = -850_511_287
    /// East edge, degrees × 10^7.
    public var maxLonE7: Int32 = 1_800_000_000
    /// North edge, degrees × 10^7.
    public var maxLatE7: Int32 = 850_511_287
    /// The suggested initial zoom.
    public var centerZoom: Int = 0
    /// The suggested initial longitude, degrees × 10^7.
    public var centerLonE7: Int32 = 0
    /// The suggested initial latitude, degrees × 10^7.
    public var centerLatE7: Int32 = 0

    /// Creates a header with the defaults above (for writers).
    public init() {}

    /// Decodes the first 127 bytes of `bytes`.
    /// - Parameters:
    ///   - bytes: at least the first 127 bytes of the archive.
    ///   - archive: the archive's name for errors.
    ///   - archiveSize: the archive's total size when known; every section must then end inside it.
    /// - Throws: ``PMTilesError`` naming `archive`: `.badMagic` (fewer than 127 bytes or no `PMTiles` magic),
    ///   `.unsupportedVersion` (not 3), `.unsupportedCompression` (internal compression other than none/gzip, tile
    ///   compression brotli/zstd or unknown codes), `.badHeader` (sections overflowing or past the end, zoom above
    ///   30 or min above max).
    public init(decoding bytes: [UInt8], archive: String, archiveSize: UInt64? = nil) throws {
        guard bytes.count >= Self.size, Array(bytes[0..<7]) == Array("PMTiles".utf8) else {
            throw PMTilesError(
                archive: archive, reason: .badMagic,
                detail: bytes.count < Self.size
                    ? "\(bytes.count) bytes, shorter than the 127-byte header" : "no 'PMTiles' magic at offset 0")
        }
        guard bytes[7] == 3 else {
            throw PMTilesError(
                archive: archive, reason: .unsupportedVersion, detail: "version \(bytes[7]), only version 3 is read")
        }
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        func i32(_ at: Int) -> Int32 {
            var v: UInt32 = 0
            for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[at + i]) }
            return Int32(bitPattern: v)
        }
        rootOffset = u64(8)
        rootLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoryOffset = u64(40)
        leafDirectoryLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTilesCount = u64(72)
        tileEntriesCount = u64(80)
        tileContentsCount = u64(88)
        clustered = bytes[96] == 1
        guard let stored = PMTilesCompression(rawValue: bytes[97]), stored == .none || stored == .gzip else {
            throw PMTilesError(
                archive: archive, reason: .unsupportedCompression,
                detail: "internal compression \(bytes[97]); only 1 (none) and 2 (gzip) are read")
        }
        internalCompression = stored
        guard let tiles = PMTilesCompression(rawValue: bytes[98]), tiles != .brotli, tiles != .zstd else {
            throw PMTilesError(
                archive: archive, reason: .unsupportedCompression,
                detail: "tile compression \(bytes[98]); only 0 (unknown), 1 (none) and 2 (gzip) are read")
        }
        tileCompression = tiles
        tileType = PMTilesTileType(rawValue: bytes[99]) ?? .unknown
        minZoom = Int(bytes[100])
        maxZoom = Int(bytes[101])
        minLonE7 = i32(102)
        minLatE7 = i32(106)
        maxLonE7 = i32(110)
        maxLatE7 = i32(114)
        centerZoom = Int(bytes[118])
        centerLonE7 = i32(119)
        centerLatE7 = i32(123)
        guard minZoom <= 30, maxZoom <= 30, minZoom <= maxZoom else {
            throw PMTilesError(
                archive: archive, reason: .badHeader, detail: "zoom range \(minZoom)...\(maxZoom) outside 0...30")
        }
        let sections: [(String, UInt64, UInt64)] = [
            ("root directory", rootOffset, rootLength), ("metadata", metadataOffset, metadataLength),
            ("leaf directories", leafDirectoryOffset, leafDirectoryLength),
            ("tile data", tileDataOffset, tileDataLength),
        ]
        for (name, offset, length) in sections {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= UInt64(Int64.max) else {
                throw PMTilesError(
                    archive: archive, reason: .badHeader,
                    detail: "\(name) offset \(offset) + length \(length) overflows")
            }
            if let archiveSize, end > archiveSize {
                throw PMTilesError(
                    archive: archive, reason: .badHeader,
                    detail: "\(name) ends at byte \(end), past the end of the \(archiveSize)-byte archive")
            }
        }
    }

    /// The 127 header bytes.
    public func encoded() -> [UInt8] {
        var out = Array("PMTiles".utf8)
        out.append(3)
        func u64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func i32(_ v: Int32) {
            let u = UInt32(bitPattern: v)
            for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: u >> (8 * UInt32(i)))) }
        }
        for v in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafDirectoryOffset, leafDirectoryLength,
            tileDataOffset, tileDataLength, addressedTilesCount, tileEntriesCount, tileContentsCount,
        ] { u64(v) }
        out += [
            clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue,
            UInt8(clamping: minZoom), UInt8(clamping: maxZoom),
        ]
        for v in [minLonE7, minLatE7, maxLonE7, maxLatE7] { i32(v) }
        out.append(UInt8(clamping: centerZoom))
        i32(centerLonE7)
        i32(centerLatE7)
        return out
    }
}

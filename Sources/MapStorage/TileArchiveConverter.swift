import CSQLite
import Foundation
import MapData
import MapGeometry

/// Converts tilesets between MBTiles and PMTiles v3, both ways, with every tile's bytes unchanged (Waymark's own,
/// behind `waymark tiles convert`).
///
/// - MBTiles → PMTiles: a clustered archive from ``PMTilesBuilder`` (gzip directories, leaves when the root would
///   exceed 16 KiB, identical tiles stored once, run-length entries for consecutive repeats). Metadata rows become
///   the JSON metadata's string members; the `json` row's members (`vector_layers`, `tilestats`, …) are merged in;
///   `bounds`, `center`, `minzoom`, `maxzoom` also fill the header. Tile compression is gzip when every payload starts
///   with the gzip magic, none when none does, unknown (0, sniffed by readers) otherwise; the tile type comes from
///   `format`.
/// - PMTiles → MBTiles: the flat MBTiles 1.3 schema with its unique index; JSON metadata members become rows (strings
///   as they are, `vector_layers` and `tilestats` into the `json` row, other values as JSON text); `bounds`,
///   `center`, `minzoom`, `maxzoom` and `format` come from the header when the metadata lacks them.
/// - The output is written to a temporary file beside `output` and renamed into place only after every tile read
///   back from it equals the input's (so a failed run leaves no partial file). The rename replaces `output` itself
///   (a symbolic link there is replaced, not followed): `waymark tiles` passes a temporary path of `AtomicFile`'s
///   instead, which follows links, keeps a replaced file's permissions and writes FIFOs through
///   (docs/BEHAVIOUR.md D24).
public enum TileArchiveConverter {
    /// A tileset file kind, by extension.
    public enum Format: String, Sendable {
        /// `.mbtiles`.
        case mbtiles
        /// `.pmtiles`.
        case pmtiles

        /// The format for a path's extension (case-insensitive), or `nil` for other extensions.
        public init?(path: String) {
            self.init(rawValue: (path as NSString).pathExtension.lowercased())
        }
    }

    /// What a conversion did.
    public struct Summary: Sendable, Equatable {
        /// Tiles copied (addresses, run lengths expanded).
        public var tiles: Int
        /// Distinct payloads.
        public var distinctTiles: Int
        /// The output's size in bytes.
        public var outputBytes: Int
        /// The tiles copied unchanged that cannot be used (`tile z/x/y: reason`, in address order): a payload that
        /// does not inflate, or past the inflate limit, or, in a vector tileset, one that is not a vector tile.
        public var unusableTiles: [String] = []
    }

    /// Why a conversion failed; the description names the file.
    public struct ConversionError: Error, Sendable, CustomStringConvertible {
        /// The file at fault.
        public var path: String
        /// What went wrong.
        public var message: String
        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Converts `input` to `output`, each an `.mbtiles` or `.pmtiles` path (same-format copies are refused).
    /// - Parameters:
    ///   - input: the tileset to read, `.mbtiles` or `.pmtiles` (by extension, case-insensitive).
    ///   - output: the file to write, of the other format; replaced only after the copy is verified.
    ///   - leafSize: PMTiles output only: entries per leaf directory, or `nil` for the automatic choice.
    ///   - overwrite: whether an existing `output` may be replaced. Defaults to `false`.
    ///   - maxTiles: PMTiles input only: the most tile addresses (run lengths expanded) converted; a larger archive
    ///     (or a small hostile one whose run lengths claim millions of tiles) fails with `.limitExceeded` before
    ///     anything is written. Defaults to 16,777,216.
    ///   - outputFormat: the format to write when `output`'s extension does not say it (a temporary path, as
    ///     `waymark tiles` passes through `AtomicFile`). Defaults to `nil`: by extension.
    /// - Returns: what was copied: tile and distinct-payload counts, the output's size and the unusable tiles.
    /// - Throws: ``ConversionError`` naming the file (unknown extension, same format, existing output, a tile that
    ///   reads back different), or the reader's error (``MBTilesError``, ``PMTilesError``) naming the input.
    @discardableResult
    public static func convert(
        input: String, output: String, leafSize: Int? = nil, overwrite: Bool = false, maxTiles: Int = 1 << 24,
        outputFormat: Format? = nil
    ) throws -> Summary {
        guard let from = Format(path: input) else {
            throw ConversionError(path: input, message: "unknown tileset type (expected .mbtiles or .pmtiles)")
        }
        guard let to = outputFormat ?? Format(path: output) else {
            throw ConversionError(path: output, message: "unknown tileset type (expected .mbtiles or .pmtiles)")
        }
        guard from != to else {
            throw ConversionError(path: output, message: "input and output are both .\(to.rawValue)")
        }
        guard overwrite || !FileManager.default.fileExists(atPath: output) else {
            throw ConversionError(path: output, message: "already exists")
        }
        let temporary = output + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let summary: Summary
        switch from {
        case .mbtiles: summary = try mbtilesToPMTiles(input: input, output: temporary, leafSize: leafSize)
        case .pmtiles: summary = try pmtilesToMBTiles(input: input, output: temporary, maxTiles: maxTiles)
        }
        // rename(2) replaces an existing output in one step: a failure leaves it whole.
        guard rename(temporary, output) == 0 else {
            let code = errno
            throw ConversionError(
                path: output, message: "cannot write: \(String(cString: strerror(code))) (errno \(code))")
        }
        return summary
    }

    // MARK: - MBTiles → PMTiles

    static func mbtilesToPMTiles(input: String, output: String, leafSize: Int?) throws -> Summary {
        let source = try MBTilesSource(path: input)
        let rows = try source.metadataRows()
        let addresses = try source.tileAddresses()
        guard !addresses.isEmpty else { throw ConversionError(path: input, message: "has no tiles") }
        var header = PMTilesHeader()
        header.tileType = PMTilesTileType(mbtilesFormat: source.metadata.format)
        var builder = PMTilesBuilder(header: header, leafSize: leafSize, compress: gzipCompress)
        var gzipped = 0
        for address in addresses {
            guard let payload = try source.rawTileData(at: address), !payload.isEmpty else { continue }
            if payload.count >= 2 && payload[0] == 0x1F && payload[1] == 0x8B { gzipped += 1 }
            builder.add(address, payload)
        }
        header.tileCompression = gzipped == builder.count ? .gzip : (gzipped == 0 ? .none : .unknown)
        let meta = source.metadata
        if let b = meta.bounds, b.count == 4 {
            header.minLonE7 = e7(b[0])
            header.minLatE7 = e7(b[1])
            header.maxLonE7 = e7(b[2])
            header.maxLatE7 = e7(b[3])
        }
        if let c = meta.center, c.count >= 2 {
            header.centerLonE7 = e7(c[0])
            header.centerLatE7 = e7(c[1])
            header.centerZoom = c.count >= 3 ? Int(max(0, min(30, c[2]))) : source.minZoom
        } else {
            header.centerLonE7 = Int32((Int64(header.minLonE7) + Int64(header.maxLonE7)) / 2)
            header.centerLatE7 = Int32((Int64(header.minLatE7) + Int64(header.maxLatE7)) / 2)
            header.centerZoom = source.minZoom
        }
        builder.header = header
        let archive = try builder.finish(metadataJSON: metadataJSON(rows: rows))
        try write(archive, to: output)
        let written = try PMTilesSource(path: output)
        try verify(addresses, from: source.rawTileData, to: written.rawTileData, output: output)
        return Summary(
            tiles: Int(clamping: written.archive.header.addressedTilesCount),
            distinctTiles: Int(clamping: written.archive.header.tileContentsCount), outputBytes: archive.count,
            unusableTiles: try unusable(addresses, read: source.rawTileData, vector: header.tileType == .mvt))
    }

    /// The PMTiles metadata object for MBTiles metadata rows (first row of a name wins, as ``MBTilesSource`` reads).
    static func metadataJSON(rows: [(name: String, value: String)]) throws -> [UInt8] {
        var object: [String: Any] = [:]
        for (name, value) in rows where object[name] == nil {
            if name == "json" { continue }
            object[name] = value
        }
        if let json = rows.first(where: { $0.name == "json" })?.value,
            let inner = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        {
            for (key, value) in inner where object[key] == nil { object[key] = value }
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return [UInt8](data)
    }

    private static func e7(_ degrees: Double) -> Int32 {
        Int32(max(-2_147_483_648, min(2_147_483_647, (degrees * 1e7).rounded())))
    }

    // MARK: - PMTiles → MBTiles

    static func pmtilesToMBTiles(input: String, output: String, maxTiles: Int = 1 << 24) throws -> Summary {
        let source = try PMTilesSource(path: input)
        let h = source.archive.header
        var rows: [(String, String)] = []
        var jsonRow: [String: Any] = [:]
        let object =
            (try? JSONSerialization.jsonObject(with: Data(source.archive.metadataJSON)) as? [String: Any]) ?? [:]
        for key in object.keys.sorted() {
            let value = object[key]!
            if key == "vector_layers" || key == "tilestats" {
                jsonRow[key] = value
            } else if let string = value as? String {
                rows.append((key, string))
            } else if JSONSerialization.isValidJSONObject([value]),
                let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]),
                let text = String(data: data, encoding: .utf8)
            {
                rows.append((key, String(text.dropFirst().dropLast())))
            }
        }
        func add(_ key: String, _ value: @autoclosure () -> String?) {
            if !rows.contains(where: { $0.0 == key }), let value = value() { rows.append((key, value)) }
        }
        func degrees(_ v: Int32) -> String { String(Double(v) / 1e7) }
        add("format", h.tileType.mbtilesFormat)
        add("minzoom", String(h.minZoom))
        add("maxzoom", String(h.maxZoom))
        add(
            "bounds",
            [h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7].map(degrees).joined(separator: ","))
        add("center", "\(degrees(h.centerLonE7)),\(degrees(h.centerLatE7)),\(h.centerZoom)")
        if !jsonRow.isEmpty, !rows.contains(where: { $0.0 == "json" }),
            let data = try? JSONSerialization.data(withJSONObject: jsonRow, options: [.sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        {
            rows.append(("json", text))
        }
        let addresses = try source.tileAddresses(limit: maxTiles)
        let writer = try MBTilesWriter(path: output)
        try writer.write(metadata: rows)
        for address in addresses {
            guard let payload = try source.rawTileData(at: address) else { continue }
            try writer.write(tile: address, payload: payload)
        }
        try writer.finish()
        let written = try MBTilesSource(path: output)
        try verify(addresses, from: source.rawTileData, to: written.rawTileData, output: output)
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return Summary(
            // The header's count is not trusted past the tiles there are (a hostile header says 2^63).
            tiles: addresses.count, distinctTiles: min(Int(clamping: h.tileContentsCount), addresses.count),
            outputBytes: size,
            unusableTiles: try unusable(addresses, read: source.rawTileData, vector: h.tileType == .mvt))
    }

    // MARK: - Shared

    /// Writes `bytes` to `path`; a failure names the step and `errno` (a full disk: "write: No space left on device
    /// (errno 28)"), docs/BEHAVIOUR.md D24.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        func failure(_ step: String) -> ConversionError {
            let code = errno
            return ConversionError(
                path: path, message: "cannot write (\(step)): \(String(cString: strerror(code))) (errno \(code))")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("write")
            }
            offset += n
        }
    }

    /// The tiles that cannot be used, as ``Summary/unusableTiles`` (each payload inflated within 64 MiB and, when
    /// `vector`, decoded as MVT).
    private static func unusable(_ addresses: [TileID], read: (TileID) throws -> [UInt8]?, vector: Bool)
        throws -> [String]
    {
        var found: [String] = []
        for address in addresses {
            guard let payload = try read(address) else { continue }
            do {
                let bytes = try decompressTileData(payload)
                if vector { _ = try VectorTile(bytes: bytes).layers() }
            } catch {
                found.append("tile \(address): \(error)")
            }
        }
        return found
    }

    /// Checks that every address reads back byte-identical from the written file.
    private static func verify(
        _ addresses: [TileID], from read: (TileID) throws -> [UInt8]?,
        to readBack: (TileID) throws -> [UInt8]?, output: String
    ) throws {
        for address in addresses where try read(address) != readBack(address) {
            throw ConversionError(path: output, message: "tile \(address) reads back different bytes")
        }
    }
}

/// Writes a new MBTiles 1.3 file (flat `tiles` table, `metadata` table, unique tile index) in one transaction.
/// Thread rules: use from one thread.
final class MBTilesWriter {
    private let path: String
    private var db: OpaquePointer?
    private var insert: OpaquePointer?

    /// Creates the file (which must not exist) and its tables.
    /// - Throws: ``MBTilesError`` naming the file.
    init(path: String) throws {
        self.path = path
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        db = handle
        guard status == SQLITE_OK else { throw failure("opening for writing") }
        try exec(
            """
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
            """)
        guard
            sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", -1, &insert, nil) == SQLITE_OK
        else { throw failure("preparing the tile insert") }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(db)
    }

    /// Inserts metadata rows.
    func write(metadata rows: [(String, String)]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?1, ?2)", -1, &statement, nil) == SQLITE_OK else {
            throw failure("preparing the metadata insert")
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (name, value) in rows {
            sqlite3_bind_text(statement, 1, name, -1, transient)
            sqlite3_bind_text(statement, 2, value, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("writing metadata '\(name)'") }
            sqlite3_reset(statement)
        }
    }

    /// Inserts one tile (XYZ address, stored as a TMS row).
    func write(tile address: TileID, payload: [UInt8]) throws {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_int64(insert, 1, Int64(address.z))
        sqlite3_bind_int64(insert, 2, Int64(address.x))
        sqlite3_bind_int64(insert, 3, Int64((1 << address.z) - 1 - address.y))
        payload.withUnsafeBytes { _ = sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32($0.count), transient) }
        defer { sqlite3_reset(insert) }
        guard sqlite3_step(insert) == SQLITE_DONE else { throw failure("writing tile \(address)") }
    }

    /// Adds the unique index, commits and closes.
    func finish() throws {
        try exec("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row); COMMIT;")
        sqlite3_finalize(insert)
        insert = nil
        sqlite3_close_v2(db)
        db = nil
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure("creating the tables") }
    }

    private func failure(_ context: String) -> MBTilesError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        return MBTilesError(path: path, reason: .cannotOpen, detail: "\(context): \(message)")
    }
}

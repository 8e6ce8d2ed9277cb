import CSQLite
import Foundation
import MapData
import MapGeometry

/// Why an MBTiles file could not be opened or read. The description always names the file.
public struct MBTilesError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The file does not exist or cannot be opened.
        case cannotOpen
        /// The file is not an SQLite database, or is corrupt or truncated (SQLite says so).
        case corrupt
        /// The database has no `tiles` table or view with the MBTiles columns.
        case notMBTiles
        /// Another process holds a lock longer than the busy timeout.
        case locked
        /// A tile's payload looks compressed but does not inflate.
        case badTile
    }

    /// The file's path as given.
    public var path: String
    /// The kind of failure.
    public var reason: Reason
    /// Details from SQLite or zlib.
    public var detail: String

    /// `<path>: <what>: <detail>`.
    public var description: String {
        let what: String
        switch reason {
        case .cannotOpen: what = "cannot open"
        case .corrupt: what = "not a valid SQLite database (corrupt or truncated)"
        case .notMBTiles: what = "not an MBTiles file"
        case .locked: what = "database is locked"
        case .badTile: what = "bad tile data"
        }
        return "\(path): \(what): \(detail)"
    }
}

/// Decompresses a tile payload when it starts with a gzip or zlib header and returns it unchanged otherwise.
/// - Parameters:
///   - bytes: the stored payload.
///   - limit: the largest inflated size accepted, in bytes. Defaults to 64 MiB.
/// - Returns: the inflated payload, or `bytes` themselves when they have no gzip or zlib header.
/// - Throws: an error describing the corrupt, truncated or oversized stream.
public func decompressTileData(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
    try inflateIfCompressed(bytes, limit: limit)
}

/// A ``TileSource`` over an MBTiles 1.3 file (SQLite), opened read-only.
///
/// - Reads the `metadata` table (name, format, bounds, center, minzoom, maxzoom, attribution, json); duplicate rows
///   keep the first value, missing rows are `nil`, and a missing table yields empty metadata.
/// - Reads tiles from the `tiles` table or view (flat schema, or the normalized `map` + `images` schema with its
///   `tiles` view). Rows are TMS: XYZ row `y` is stored as `tile_row = 2^z − 1 − y`. Rows outside the zoom's grid
///   (which GDAL writes) are never returned because only valid XYZ addresses are looked up.
/// - Inflates gzip and zlib payloads; other payloads are returned as stored. A `NULL` payload counts as missing.
/// - The zoom range comes from `minzoom`/`maxzoom` metadata, or from the `tiles` table when those are absent.
///
/// Locking: the connection uses `PRAGMA locking_mode=EXCLUSIVE`, so after the first read it keeps SQLite's *shared*
/// lock until the source is released. Other readers are unaffected; a process that wants to write the file gets
/// `SQLITE_BUSY` meanwhile. This removes the lock/unlock system calls around every lookup (about 13× faster lookups,
/// see BENCHMARKS.md "Tile reading").
///
/// Thread rules: every call takes an internal lock; one instance may be shared across threads.
public final class MBTilesSource: TileSource, @unchecked Sendable {
    /// The file's path as given to the initializer.
    public let path: String
    /// The file's kind, absolute path, size and modification time (renderers on the same file share its decoded
    /// tiles); `nil` when ``path`` is not a local file.
    public var sharingIdentity: String? { fileSharingIdentity(kind: "mbtiles", path: path) }
    /// The metadata table, parsed.
    public let metadata: TileSourceMetadata
    /// The lowest zoom with tiles, `0...30`.
    public let minZoom: Int
    /// The highest zoom with tiles, `minZoom...30`.
    public let maxZoom: Int

    private let lock = NSLock()
    private var db: OpaquePointer?
    private var tileStatement: OpaquePointer?

    /// Opens `path` read-only (`SQLITE_OPEN_READONLY`, busy timeout `busyTimeoutMilliseconds`) and reads its metadata.
    /// - Parameters:
    ///   - path: a filesystem path to an `.mbtiles` file.
    ///   - busyTimeoutMilliseconds: how long to wait for a writer's lock before failing. Defaults to 2000 ms.
    /// - Throws: ``MBTilesError`` naming the file when it is missing, unreadable, empty, not SQLite, corrupt, locked,
    ///   or lacks a `tiles` table.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 2000) throws {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        guard FileManager.default.fileExists(atPath: path) else {
            throw MBTilesError(path: path, reason: .cannotOpen, detail: "no such file")
        }
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite3_close(handle)
            throw MBTilesError(path: path, reason: .cannotOpen, detail: detail)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Keep the shared lock between queries instead of taking and dropping it around every tile read (several
        // system calls each): readers are unaffected, a writer waits until this source is closed.
        sqlite3_exec(handle, "PRAGMA locking_mode=EXCLUSIVE", nil, nil, nil)
        do {
            let tables = try Self.query(
                handle, path: path, "SELECT name FROM sqlite_master WHERE type IN ('table','view')")
            let names = Set(tables.compactMap { $0.first ?? nil })
            guard names.contains("tiles") else {
                throw MBTilesError(
                    path: path, reason: .notMBTiles,
                    detail: names.isEmpty ? "the database is empty" : "no 'tiles' table or view")
            }
            var meta = TileSourceMetadata()
            if names.contains("metadata") {
                for row in try Self.query(handle, path: path, "SELECT name, value FROM metadata") {
                    guard row.count == 2, let name = row[0], let value = row[1] else { continue }
                    Self.apply(name: name, value: value, to: &meta)
                }
            }
            var lo = meta.minZoom
            var hi = meta.maxZoom
            if lo == nil || hi == nil {
                let range = try Self.query(handle, path: path, "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles")
                if let row = range.first, row.count == 2 {
                    lo = lo ?? row[0].flatMap { Int($0) }
                    hi = hi ?? row[1].flatMap { Int($0) }
                }
            }
            let minZ = min(max(lo ?? 0, 0), 30)
            self.minZoom = minZ
            self.maxZoom = min(max(hi ?? minZ, minZ), 30)
            self.metadata = meta
            var statement: OpaquePointer?
            let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"
            let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            guard prepared == SQLITE_OK else {
                throw Self.error(handle, status: prepared, path: path, context: "preparing the tile query")
            }
            self.db = handle
            self.tileStatement = statement
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        sqlite3_finalize(tileStatement)
        sqlite3_close_v2(db)
    }

    /// The uncompressed payload of the XYZ tile at `address`, or `nil` when the file has no such tile (or the address
    /// is outside the grid, or the payload is `NULL`).
    /// - Throws: ``MBTilesError`` naming the file for SQLite failures (corrupt pages, lock timeouts) and for payloads
    ///   that look compressed but do not inflate.
    public func tileData(at address: TileID) throws -> [UInt8]? {
        guard let raw = try rawTileData(at: address) else { return nil }
        do {
            return try inflateIfCompressed(raw)
        } catch {
            throw MBTilesError(path: path, reason: .badTile, detail: "tile \(address): \(error)")
        }
    }

    /// The payload of the XYZ tile at `address` exactly as stored (still compressed), or `nil` when absent.
    /// - Throws: ``MBTilesError`` naming the file for SQLite failures.
    public func rawTileData(at address: TileID) throws -> [UInt8]? {
        let tmsRow = (1 << address.z) - 1 - address.y
        lock.lock()
        defer { lock.unlock() }
        guard let statement = tileStatement else { return nil }
        defer { sqlite3_reset(statement) }
        sqlite3_bind_int64(statement, 1, Int64(address.z))
        sqlite3_bind_int64(statement, 2, Int64(address.x))
        sqlite3_bind_int64(statement, 3, Int64(tmsRow))
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW:
            guard sqlite3_column_type(statement, 0) != SQLITE_NULL else { return nil }
            let count = Int(sqlite3_column_bytes(statement, 0))
            guard count > 0, let blob = sqlite3_column_blob(statement, 0) else { return [] }
            return Array(UnsafeRawBufferPointer(start: blob, count: count))
        case SQLITE_DONE:
            return nil
        default:
            throw Self.error(db, status: status, path: path, context: "reading tile \(address)")
        }
    }

    /// Every stored tile address (XYZ) with a valid grid position, sorted by z, x, y. For tools and tests.
    /// - Throws: ``MBTilesError`` naming the file for SQLite failures.
    public func tileAddresses() throws -> [TileID] {
        lock.lock()
        defer { lock.unlock() }
        guard let db else { return [] }
        let rows = try Self.query(db, path: path, "SELECT zoom_level, tile_column, tile_row FROM tiles")
        var result: [TileID] = []
        for row in rows {
            guard row.count == 3, let z = row[0].flatMap({ Int($0) }), let x = row[1].flatMap({ Int($0) }),
                let r = row[2].flatMap({ Int($0) }), z >= 0, z <= 30
            else { continue }
            if let address = TileID.valid(z: z, x: x, y: (1 << z) - 1 - r) { result.append(address) }
        }
        return result.sorted { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }
    }

    /// Every row of the `metadata` table as stored (name, value), in table order; empty when there is no such table.
    /// For converters that copy metadata verbatim. Rows with a `NULL` name or value are skipped.
    /// - Throws: ``MBTilesError`` naming the file for SQLite failures.
    public func metadataRows() throws -> [(name: String, value: String)] {
        lock.lock()
        defer { lock.unlock() }
        guard let db else { return [] }
        let tables = try Self.query(db, path: path, "SELECT name FROM sqlite_master WHERE name = 'metadata'")
        guard !tables.isEmpty else { return [] }
        return try Self.query(db, path: path, "SELECT name, value FROM metadata").compactMap { row in
            guard row.count == 2, let name = row[0], let value = row[1] else { return nil }
            return (name, value)
        }
    }

    // MARK: - SQLite helpers

    private static func apply(name: String, value: String, to meta: inout TileSourceMetadata) {
        func numbers(_ s: String) -> [Double]? {
            let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
            return parts.map { $0! }
        }
        func zoom(_ s: String) -> Int? {
            guard let v = Double(s.trimmingCharacters(in: .whitespaces)), v.isFinite, v >= 0, v <= 30 else {
                return nil
            }
            return Int(v)
        }
        // Duplicate rows (seen in merged files): the first one wins.
        switch name {
        case "name": meta.name = meta.name ?? value
        case "format": meta.format = meta.format ?? value
        case "bounds": meta.bounds = meta.bounds ?? numbers(value).flatMap { $0.count == 4 ? $0 : nil }
        case "center": meta.center = meta.center ?? numbers(value).flatMap { $0.count >= 2 ? $0 : nil }
        case "minzoom": meta.minZoom = meta.minZoom ?? zoom(value)
        case "maxzoom": meta.maxZoom = meta.maxZoom ?? zoom(value)
        case "attribution": meta.attribution = meta.attribution ?? value
        case "json":
            guard meta.json == nil else { return }
            meta.json = value
            meta.vectorLayers = vectorLayers(fromJSON: value)
        default: if meta.extra[name] == nil { meta.extra[name] = value }
        }
    }

    /// Parses the `vector_layers` array of the metadata `json` row; anything malformed is skipped.
    static func vectorLayers(fromJSON text: String) -> [TileSourceVectorLayer] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let layers = object["vector_layers"] as? [[String: Any]]
        else { return [] }
        return layers.compactMap { entry in
            guard let id = entry["id"] as? String else { return nil }
            var fields: [String: String] = [:]
            for (key, value) in entry["fields"] as? [String: Any] ?? [:] { fields[key] = "\(value)" }
            return TileSourceVectorLayer(
                id: id, minZoom: (entry["minzoom"] as? NSNumber)?.intValue,
                maxZoom: (entry["maxzoom"] as? NSNumber)?.intValue, fields: fields)
        }
    }

    private static func error(_ db: OpaquePointer?, status: Int32, path: String, context: String) -> MBTilesError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        let primary = status & 0xFF
        let reason: MBTilesError.Reason
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED: reason = .locked
        case SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_IOERR, SQLITE_FORMAT: reason = .corrupt
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: reason = .cannotOpen
        default:
            reason = message.contains("no such table") || message.contains("no such column") ? .notMBTiles : .corrupt
        }
        return MBTilesError(path: path, reason: reason, detail: "\(context): \(message)")
    }

    /// Runs `sql` and returns every row as text columns (`nil` for NULL).
    private static func query(_ db: OpaquePointer, path: String, _ sql: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(db, status: prepared, path: path, context: "running '\(sql)'")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(db, status: status, path: path, context: "running '\(sql)'") }
            let columns = sqlite3_column_count(statement)
            var row: [String?] = []
            for c in 0..<columns {
                if let text = sqlite3_column_text(statement, c) {
                    row.append(String(cString: text))
                } else {
                    row.append(nil)
                }
            }
            rows.append(row)
        }
        return rows
    }
}

import CSQLite
import Foundation

/// A persistent, size-bounded cache of HTTP responses (tiles, TileJSON, styles, sprites, glyphs) in one SQLite
/// file, `cache.sqlite` in a folder the app chooses. Waymark's own (Google's SDK caches privately).
///
/// Entries are keyed by URL and keep the body, the validators (`ETag`, `Last-Modified`) and the time until which
/// the body is fresh (from `Cache-Control: max-age` or `Expires`; `no-cache` makes it stale at once). The loader
/// (`MapNetwork.HTTPClient`) decides freshness and revalidation; this type only stores. When the stored bodies pass
/// ``byteLimit``, the least recently used entries (by last read or write) are deleted until they fit; a body larger
/// than the limit is not stored. Several processes may share a folder (SQLite WAL mode, 2 s busy timeout).
///
/// Errors never reach the map: a cache that cannot be read or written behaves as empty (the network is asked). A
/// read-only cache is still read; a corrupt one is moved aside and replaced, with one warning (docs/BEHAVIOUR.md).
/// Thread rules: every call takes an internal lock; one instance may be shared across threads.
public final class HTTPCache: @unchecked Sendable {
    /// One cached response.
    public struct Entry: Sendable, Equatable {
        /// The body as received (not decompressed).
        public var body: [UInt8]
        /// The `ETag` header, or `nil`.
        public var etag: String?
        /// The `Last-Modified` header, or `nil`.
        public var lastModified: String?
        /// Seconds since 1970 until which the body may be used without asking the server; a time in the past
        /// means "revalidate before use" (and, with the network gone, use anyway).
        public var freshUntil: Double

        /// Creates an entry.
        public init(body: [UInt8], etag: String? = nil, lastModified: String? = nil, freshUntil: Double) {
            self.body = body
            self.etag = etag
            self.lastModified = lastModified
            self.freshUntil = freshUntil
        }
    }

    /// The folder holding `cache.sqlite`.
    public let directory: String
    /// The most bytes of bodies kept (default 256 MiB); least recently used entries go first.
    public let byteLimit: Int

    private let lock = NSLock()
    private var db: OpaquePointer?
    private let now: @Sendable () -> Double
    private var useCounter: Double = 0

    /// The default folder: `$XDG_CACHE_HOME/waymark`, else `~/.cache/waymark` (XDG Base Directory specification).
    /// - Parameter environment: the environment to read. Defaults to the process's.
    /// - Returns: the folder's path, not created or checked (`$XDG_CACHE_HOME` counts only when it is absolute;
    ///   without `$HOME`, the user's home folder from the system).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/waymark" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/waymark"
    }

    /// Opens (creating when needed) the cache in `directory`.
    /// - Parameters:
    ///   - directory: the folder; created with its parents. Defaults to ``defaultDirectory(environment:)``.
    ///   - byteLimit: the size bound in bytes, at least 0. Defaults to 256 MiB.
    ///   - now: the clock, seconds since 1970 (tests inject one). Defaults to the system's.
    ///   - onWarning: told once, in a sentence naming the file, when the cache opens read-only (a read-only folder
    ///     or file: its entries are still used, nothing is stored) or when a file that is not a valid database (at
    ///     opening, or a damaged page met later) is moved to `cache.sqlite.corrupt` and a new cache started.
    ///     Default: a line on standard error.
    /// - Throws: ``MBTilesError`` with reason `.cannotOpen` naming the file when the folder or database cannot be
    ///   created or opened even read-only (a missing folder is created with its parents; an existing one is never
    ///   written to but for `cache.sqlite` and its WAL files).
    public init(
        directory: String = HTTPCache.defaultDirectory(), byteLimit: Int = 256 << 20,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        onWarning: @escaping @Sendable (String) -> Void = HTTPCache.printWarning
    ) throws {
        self.directory = directory
        self.onWarning = onWarning
        self.byteLimit = max(0, byteLimit)
        self.now = now
        let path = directory + "/cache.sqlite"
        self.path = path
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw MBTilesError(path: directory, reason: .cannotOpen, detail: "cannot create the cache folder")
            }
        }
        switch Self.open(path, readOnly: false) {
        case .opened(let handle):
            db = handle
            if sqlite3_db_readonly(handle, "main") == 1 {
                // SQLite opened a write-protected file read-only by itself.
                isReadOnly = true
                onWarning("the HTTP cache \(path) is read-only: its entries are used, nothing new is stored")
            }
        case .failed(let detail) where !FileManager.default.fileExists(atPath: path):
            throw MBTilesError(path: path, reason: .cannotOpen, detail: detail)
        case .failed(let detail):
            // A read-only folder or file (an offline copy, another user's cache): read, never written.
            guard case .opened(let handle) = Self.open(path, readOnly: true) else {
                throw MBTilesError(path: path, reason: .cannotOpen, detail: detail)
            }
            db = handle
            isReadOnly = true
            onWarning("the HTTP cache \(path) is read-only (\(detail)): its entries are used, nothing new is stored")
        case .corrupt(let detail):
            db = try Self.replaceCorrupt(path, detail: detail)
            onWarning(
                "the HTTP cache \(path) was not a valid database (\(detail)); moved to \(path).corrupt, starting anew")
        }
    }

    /// The database file, `<directory>/cache.sqlite`.
    public let path: String

    /// Whether the cache could only be opened read-only (a read-only folder or file): entries are read, nothing is
    /// stored, refreshed or deleted.
    public private(set) var isReadOnly = false

    /// Where the cache's warnings go (a read-only cache, a damaged file moved aside); see the initialiser.
    private let onWarning: @Sendable (String) -> Void

    /// Writes `waymark: <text>` to standard error.
    public static let printWarning: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data("waymark: \(text)\n".utf8))
    }

    private enum OpenResult {
        case opened(OpaquePointer)
        /// SQLite says the file is not a database or is damaged.
        case corrupt(String)
        /// Anything else (no permission, locked past the busy timeout, no space): the file is left alone.
        case failed(String)
    }

    /// Opens the database at `path` and makes (read-write) or checks (read-only) the schema.
    private static func open(_ path: String, readOnly: Bool) -> OpenResult {
        var handle: OpaquePointer?
        // Read-only: `immutable` reads a WAL database without its -shm file (which a read-only folder cannot hold).
        let flags = readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let name = readOnly ? "file:\(path)?immutable=1" : path
        let status = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite3_close(handle)
            return .failed(detail)
        }
        sqlite3_busy_timeout(handle, 2000)
        let schema =
            readOnly
            ? "SELECT url, body, etag, last_modified, fresh_until, size, last_used FROM entries LIMIT 1;"
            : """
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS entries(url TEXT PRIMARY KEY, body BLOB NOT NULL, etag TEXT,
              last_modified TEXT, fresh_until REAL NOT NULL, size INTEGER NOT NULL, last_used REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS entries_last_used ON entries(last_used);
            """
        let code = sqlite3_exec(handle, schema, nil, nil, nil)
        guard code == SQLITE_OK else {
            let detail = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            return isCorruption(code) ? .corrupt(detail) : .failed(detail)
        }
        return .opened(handle)
    }

    /// Whether an SQLite result code (primary or extended) says the file is damaged or not a database.
    private static func isCorruption(_ code: Int32) -> Bool {
        code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB
    }

    /// Moves the damaged `path` (and its -wal, -shm) to `path.corrupt…`, replacing an older one, and opens a new
    /// cache there.
    private static func replaceCorrupt(_ path: String, detail: String) throws(MBTilesError) -> OpaquePointer {
        for suffix in ["", "-wal", "-shm"] {
            let aside = path + ".corrupt" + suffix
            try? FileManager.default.removeItem(atPath: aside)
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside)
        }
        guard case .opened(let handle) = open(path, readOnly: false) else {
            throw MBTilesError(path: path, reason: .corrupt, detail: "\(detail); a new cache could not be made")
        }
        return handle
    }

    deinit { sqlite3_close_v2(db) }

    /// The entry for `url`, or `nil`; marks it used (for the least-recently-used order).
    public func entry(for url: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        var found: Entry?
        run("SELECT body, etag, last_modified, fresh_until FROM entries WHERE url = ?1", [.text(url)]) { s in
            let count = Int(sqlite3_column_bytes(s, 0))
            var body = [UInt8](repeating: 0, count: count)
            if count > 0, let blob = sqlite3_column_blob(s, 0) {
                body.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: count)) }
            }
            found = Entry(
                body: body, etag: Self.text(s, 1), lastModified: Self.text(s, 2),
                freshUntil: sqlite3_column_double(s, 3))
        }
        if found != nil { run("UPDATE entries SET last_used = ?2 WHERE url = ?1", [.text(url), .real(nextUse())]) }
        return found
    }

    /// Stores (or replaces) the entry for `url`, then deletes least recently used entries until the bodies fit in
    /// ``byteLimit``. A body larger than the limit is not stored (and an older entry for the URL is removed).
    public func store(_ entry: Entry, for url: String) {
        lock.lock()
        defer { lock.unlock() }
        guard entry.body.count <= byteLimit else {
            run("DELETE FROM entries WHERE url = ?1", [.text(url)])
            return
        }
        run(
            """
            INSERT OR REPLACE INTO entries(url, body, etag, last_modified, fresh_until, size, last_used)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """,
            [
                .text(url), .blob(entry.body), entry.etag.map(Value.text) ?? .null,
                entry.lastModified.map(Value.text) ?? .null, .real(entry.freshUntil), .int(entry.body.count),
                .real(nextUse()),
            ])
        evict()
    }

    /// Updates the freshness (and validators, when given) of the entry for `url` after a `304 Not Modified`.
    public func refresh(url: String, freshUntil: Double, etag: String?, lastModified: String?) {
        lock.lock()
        defer { lock.unlock() }
        run(
            """
            UPDATE entries SET fresh_until = ?2, etag = COALESCE(?3, etag), last_modified = COALESCE(?4, last_modified),
            last_used = ?5 WHERE url = ?1
            """,
            [
                .text(url), .real(freshUntil), etag.map(Value.text) ?? .null, lastModified.map(Value.text) ?? .null,
                .real(nextUse()),
            ])
    }

    /// Deletes the entry for `url`.
    public func remove(url: String) {
        lock.lock()
        defer { lock.unlock() }
        run("DELETE FROM entries WHERE url = ?1", [.text(url)])
    }

    /// Deletes every entry.
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        run("DELETE FROM entries", [])
    }

    /// The bytes of the stored bodies.
    public var totalBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return sumOfSizes()
    }

    /// How many entries are stored.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        var n = 0
        run("SELECT COUNT(*) FROM entries", []) { n = Int(sqlite3_column_int64($0, 0)) }
        return n
    }

    // MARK: SQLite

    private enum Value {
        case text(String)
        case blob([UInt8])
        case real(Double)
        case int(Int)
        case null
    }

    /// A strictly increasing use stamp: the clock's time, nudged past the previous stamp (several uses in one
    /// clock tick keep their order).
    private func nextUse() -> Double {
        useCounter = max(useCounter + 1e-6, now())
        return useCounter
    }

    private func sumOfSizes() -> Int {
        var total = 0
        run("SELECT COALESCE(SUM(size), 0) FROM entries", []) { total = Int(sqlite3_column_int64($0, 0)) }
        return total
    }

    private func evict() {
        var total = sumOfSizes()
        guard total > byteLimit else { return }
        var victims: [(String, Int)] = []
        run("SELECT url, size FROM entries ORDER BY last_used ASC", []) { s in
            guard total > self.byteLimit, let url = Self.text(s, 0) else { return }
            let size = Int(sqlite3_column_int64(s, 1))
            victims.append((url, size))
            total -= size
        }
        run("BEGIN", [])
        for (url, _) in victims { run("DELETE FROM entries WHERE url = ?1", [.text(url)]) }
        run("COMMIT", [])
    }

    private static func text(_ s: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_text(s, column).map { String(cString: $0) }
    }

    /// Runs one statement with `values` bound to `?1…`, calling `row` for each result row. Failures are ignored
    /// (the cache then behaves as empty or unchanged).
    private func run(_ sql: String, _ values: [Value], row: (OpaquePointer) -> Void = { _ in }) {
        guard let db else { return }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .text(let t): sqlite3_bind_text(statement, index, t, -1, transient)
            case .blob(let b) where b.isEmpty: sqlite3_bind_zeroblob(statement, index, 0)
            case .blob(let b):
                b.withUnsafeBytes { raw in
                    _ = sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), transient)
                }
            case .real(let r): sqlite3_bind_double(statement, index, r)
            case .int(let n): sqlite3_bind_int64(statement, index, Int64(n))
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            row(statement)
            code = sqlite3_step(statement)
        }
        if Self.isCorruption(code) && !isReadOnly { repairAfterCorruption(String(cString: sqlite3_errmsg(db))) }
    }

    /// Under the lock, after a query met a damaged page: the file is moved aside and a new cache started (one
    /// warning); the cache behaves as empty if that fails.
    private func repairAfterCorruption(_ detail: String) {
        sqlite3_close_v2(db)
        db = nil
        db = try? Self.replaceCorrupt(path, detail: detail)
        onWarning("the HTTP cache \(path) was damaged (\(detail)); moved to \(path).corrupt, starting anew")
    }
}

import Foundation
import MapData
import MapGeometry
import MapStorage

/// A ``RangeReader`` over HTTP(S) `Range` requests (``HTTPLoader/fetchRange(_:offset:length:priority:completion:)``),
/// for PMTiles archives served by any static web server.
///
/// Opening reads the first 16 KiB (the PMTiles header and root directory) and takes the size from `Content-Range`
/// and the ``identity`` from the `ETag`. A later answer with another ETag throws ``PMTilesError`` with reason
/// `.changed` (the archive was replaced: the caller re-opens it instead of mixing versions). A server that ignores
/// `Range` and answers `200` with the whole file is detected: the body (at most the loader's
/// ``HTTPLoaderOptions/maxResponseBytes``) is kept and later reads are served from it.
///
/// With a cache (``init(url:client:)``), every range answered (the header, directories, tiles) is stored in the
/// client's ``HTTPCache`` keyed by the URL and the byte range, under the cache's size bound and the rules of
/// docs/BEHAVIOUR.md D21: a fresh range (its `Cache-Control` / `Expires`) is answered without the network, a
/// `no-store` one is never stored, and with the network gone (transport error or 5xx) a cached range is answered
/// whatever its age, so an archive read once keeps drawing offline. A whole-file `200` answer is stored under the URL
/// alone (as a plain GET) and ranges are cut from it offline. Cached ranges of another ETag than the archive's are
/// not used.
///
/// Thread rules: any thread; `read` waits for the network, so call it off the frame thread (the pipeline reaches it
/// through ``BackgroundTileSource``).
public final class HTTPRangeReader: RangeReader, @unchecked Sendable {
    /// The URL as given.
    public let name: String
    /// The archive's size from the first answer, or `nil`.
    public let size: UInt64?
    /// The first answer's `ETag`, or `nil`.
    public let identity: String?
    private let url: URL
    private let loader: HTTPLoader
    private let client: HTTPClient?
    private let lock = NSLock()
    private var whole: [UInt8]?
    private let head: [UInt8]

    /// Opens `url` (one range request for the first 16 KiB), without a cache.
    /// - Parameters:
    ///   - url: an `http(s)://` URL.
    ///   - loader: the loader. Defaults to ``TileNetwork/shared``'s.
    /// - Throws: ``HTTPError`` naming the URL.
    public convenience init(url: URL, loader: HTTPLoader = TileNetwork.shared.client.loader) throws {
        try self.init(url: url, loader: loader, client: nil)
    }

    /// Opens `url` (one range request for the first 16 KiB, or the cached one) through `client`'s loader and
    /// cache (see the type).
    /// - Parameters:
    ///   - url: an `http(s)://` URL.
    ///   - client: the loader and cache (a client without a cache reads from the network only).
    /// - Throws: ``HTTPError`` naming the URL.
    public convenience init(url: URL, client: HTTPClient) throws {
        try self.init(url: url, loader: client.loader, client: client)
    }

    private init(url: URL, loader: HTTPLoader, client: HTTPClient?) throws {
        self.url = url
        self.loader = loader
        self.client = client
        name = url.absoluteString
        let first = try Self.range(url, offset: 0, length: 16_384, identity: nil, loader: loader, client: client)
        size = first.totalLength
        identity = first.etag
        whole = first.wholeFile
        head = first.bytes
    }

    /// The bytes `offset..<offset + length` (fewer at the end of the archive).
    /// - Throws: ``HTTPError`` for failures; ``PMTilesError`` `.changed` when the ETag changed.
    public func read(offset: UInt64, length: Int) throws -> [UInt8] {
        guard length > 0 else { return [] }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(length))
        if !overflow, end <= UInt64(head.count) {
            return Array(head[Int(offset)..<Int(offset) + length])
        }
        lock.lock()
        let kept = whole
        lock.unlock()
        if let kept {
            let start = Int(min(offset, UInt64(kept.count)))
            return Array(kept[start..<min(start + length, kept.count)])
        }
        let answer = try Self.range(
            url, offset: offset, length: length, identity: identity, loader: loader, client: client)
        if let identity, let etag = answer.etag, etag != identity {
            throw PMTilesError(archive: name, reason: .changed, detail: "ETag \(identity) became \(etag)")
        }
        if let body = answer.wholeFile {
            lock.lock()
            whole = body
            lock.unlock()
        }
        return answer.bytes
    }

    /// The cache key of the range `offset..<offset + length` of `url` (a space never appears in a URL).
    static func rangeKey(_ url: URL, offset: UInt64, length: Int) -> String {
        "\(url.absoluteString) bytes=\(offset)-\(offset &+ UInt64(length) &- 1)"
    }

    /// The cache key of the archive's total size (stored with the first range).
    static func sizeKey(_ url: URL) -> String { "\(url.absoluteString) size" }

    /// One range through the cache (see the type); `identity` is the archive's ETag once known.
    private static func range(
        _ url: URL, offset: UInt64, length: Int, identity: String?, loader: HTTPLoader, client: HTTPClient?
    ) throws(HTTPError) -> RangeResponse {
        guard let client, let cache = client.cache else {
            return try loader.readRange(url, offset: offset, length: length)
        }
        let key = rangeKey(url, offset: offset, length: length)
        let cached = cache.entry(for: key).flatMap { entry in
            identity == nil || entry.etag == nil || entry.etag == identity ? entry : nil
        }
        func answer(_ entry: HTTPCache.Entry) -> RangeResponse {
            let total =
                offset == 0
                ? cache.entry(for: sizeKey(url)).flatMap { UInt64(String(decoding: $0.body, as: UTF8.self)) } : nil
            return RangeResponse(
                bytes: entry.body, etag: entry.etag, servedWholeFile: false, wholeFile: nil, totalLength: total)
        }
        let now = client.now()
        if let cached, cached.freshUntil > now { return answer(cached) }
        let response: RangeResponse
        do { response = try loader.readRange(url, offset: offset, length: length) } catch {
            // Offline (or the server failing): what the cache holds, whatever its age.
            guard error.status == nil || error.status! >= 500 else { throw error }
            if let cached { return answer(cached) }
            if let file = cache.entry(for: url.absoluteString),
                identity == nil || file.etag == nil || file.etag == identity
            {
                let start = Int(min(offset, UInt64(file.body.count)))
                let end = Int(min(UInt64(start) + UInt64(length), UInt64(file.body.count)))
                return RangeResponse(
                    bytes: Array(file.body[start..<end]), etag: file.etag, servedWholeFile: true,
                    wholeFile: file.body, totalLength: UInt64(file.body.count))
            }
            throw error
        }
        let policy = CachePolicy(headers: response.headers, now: now)
        if policy.noStore {
            cache.remove(url: key)
        } else if let body = response.wholeFile {
            cache.store(
                HTTPCache.Entry(
                    body: body, etag: response.etag, lastModified: response.headers["last-modified"],
                    freshUntil: policy.freshUntil), for: url.absoluteString)
            cache.store(
                HTTPCache.Entry(body: response.bytes, etag: response.etag, freshUntil: policy.freshUntil), for: key)
        } else {
            cache.store(
                HTTPCache.Entry(
                    body: response.bytes, etag: response.etag, lastModified: response.headers["last-modified"],
                    freshUntil: policy.freshUntil), for: key)
        }
        if offset == 0, !policy.noStore, let total = response.totalLength {
            cache.store(
                HTTPCache.Entry(body: Array(String(total).utf8), freshUntil: policy.freshUntil), for: sizeKey(url))
        }
        return response
    }
}

/// Makes a synchronous ``TileSource`` that waits on the network (a PMTiles archive over HTTP) asynchronous for the
/// pipeline: ``requestTile(at:priority:completion:)`` runs `tileData(at:)` on threads of its own, at most
/// `concurrency` at once, lowest `priority` first, skipping requests cancelled before they start. Waymark's own.
///
/// The reads block (a range request and its wait), so they run on dedicated `Thread`s, never on Dispatch's shared
/// workers: blocked Dispatch workers starve the URLSession completions that would wake them, and Dispatch then adds
/// about one thread a second (seen as one range request a second). Idle threads end after 5 s.
///
/// Thread rules: any thread.
public final class BackgroundTileSource: TileSource, @unchecked Sendable {
    /// The wrapped source.
    public let base: any TileSource
    private let pool: BlockingReadPool

    /// Wraps `base`.
    /// - Parameters:
    ///   - base: the source (its reads may block).
    ///   - concurrency: reads at once, `1...64`. Default 8 (the loader's per-host bound).
    public init(_ base: any TileSource, concurrency: Int = 8) {
        self.base = base
        pool = BlockingReadPool(threads: min(max(concurrency, 1), 64))
    }

    /// The base's.
    public var minZoom: Int { base.minZoom }
    /// The base's.
    public var maxZoom: Int { base.maxZoom }
    /// The base's.
    public var metadata: TileSourceMetadata { base.metadata }
    /// `true`.
    public var isAsynchronous: Bool { true }

    /// The base's, on the calling thread.
    public func tileData(at address: TileID) throws -> [UInt8]? { try base.tileData(at: address) }

    /// Reads on the source's own threads; see the type.
    public func requestTile(
        at address: TileID, priority: Double, completion: @escaping @Sendable (TileLoadResult) -> Void
    ) -> TileRequestHandle {
        let state = CancelState()
        pool.submit(priority: priority) { [base] in
            guard !state.isCancelled else { return }
            completion(Result { try base.tileData(at: address) })
        }
        return TileRequestHandle { state.cancel() }
    }
}

extension BackgroundTileSource: TileLocating {
    /// The base's location when it has one, else `tile z/x/y`.
    public func location(of address: TileID) -> String {
        (base as? any TileLocating)?.location(of: address) ?? "tile \(address)"
    }
}

/// A bounded set of `Thread`s that run blocking jobs, lowest priority value first (ties in submission order),
/// started on demand and ended after 5 s idle. Any thread may submit.
final class BlockingReadPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [(priority: Double, order: Int, work: @Sendable () -> Void)] = []
    private var submitted = 0
    private var running = 0
    private var idle = 0
    private let maxThreads: Int
    /// Seconds an idle thread waits for work before it ends.
    static let idleSeconds = 5.0

    init(threads: Int) { maxThreads = threads }

    func submit(priority: Double, _ work: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append((priority.isNaN ? .infinity : priority, submitted, work))
        submitted += 1
        let spawn = idle == 0 && running < maxThreads
        if spawn { running += 1 }
        condition.signal()
        condition.unlock()
        if spawn {
            let thread = Thread { [self] in workLoop() }
            thread.name = "waymark.tiles.read"
            thread.start()
        }
    }

    private func workLoop() {
        while true {
            condition.lock()
            while jobs.isEmpty {
                idle += 1
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
                idle -= 1
                if !signalled && jobs.isEmpty {
                    running -= 1
                    condition.unlock()
                    return
                }
            }
            var best = 0
            for i in jobs.indices.dropFirst()
            where (jobs[i].priority, jobs[i].order) < (jobs[best].priority, jobs[best].order) {
                best = i
            }
            let job = jobs.remove(at: best)
            condition.unlock()
            job.work()
        }
    }
}

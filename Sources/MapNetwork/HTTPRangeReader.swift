import Foundation
import MapData
import MapGeometry

/// A ``RangeReader`` over HTTP(S) `Range` requests (``HTTPLoader/fetchRange(_:offset:length:priority:completion:)``),
/// for PMTiles archives served by any static web server.
///
/// Opening reads the first 16 KiB (the PMTiles header and root directory) and takes the size from `Content-Range`
/// and the ``identity`` from the `ETag`. A later answer with another ETag throws ``PMTilesError`` with reason
/// `.changed` (the archive was replaced: the caller re-opens it instead of mixing versions). A server that ignores
/// `Range` and answers `200` with the whole file is detected: the body (at most the loader's
/// ``HTTPLoaderOptions/maxResponseBytes``) is kept and later reads are served from it.
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
    private let lock = NSLock()
    private var whole: [UInt8]?
    private let head: [UInt8]

    /// Opens `url` (one range request for the first 16 KiB).
    /// - Parameters:
    ///   - url: an `http(s)://` URL.
    ///   - loader: the loader. Defaults to ``TileNetwork/shared``'s.
    /// - Throws: ``HTTPError`` naming the URL.
    public init(url: URL, loader: HTTPLoader = TileNetwork.shared.client.loader) throws {
        self.url = url
        self.loader = loader
        name = url.absoluteString
        let first = try loader.readRange(url, offset: 0, length: 16_384)
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
        let answer = try loader.readRange(url, offset: offset, length: length)
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

import Foundation
import MapData

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
        if offset + UInt64(length) <= UInt64(head.count) {
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
/// pipeline: ``requestTile(at:priority:completion:)`` runs `tileData(at:)` on a background queue, at most
/// `concurrency` at once, skipping requests cancelled before they start. Waymark's own.
///
/// Thread rules: any thread.
public final class BackgroundTileSource: TileSource, @unchecked Sendable {
    /// The wrapped source.
    public let base: any TileSource
    private let queue = DispatchQueue(label: "waymark.tiles.background", attributes: .concurrent)
    private let slots: DispatchSemaphore

    /// Wraps `base`.
    /// - Parameters:
    ///   - base: the source (its reads may block).
    ///   - concurrency: reads at once, `1...64`. Default 8 (the loader's per-host bound).
    public init(_ base: any TileSource, concurrency: Int = 8) {
        self.base = base
        slots = DispatchSemaphore(value: min(max(concurrency, 1), 64))
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
    public func tileData(at address: TileAddress) throws -> [UInt8]? { try base.tileData(at: address) }

    /// Reads on the background queue; see the type.
    public func requestTile(
        at address: TileAddress, priority: Double, completion: @escaping @Sendable (TileLoadResult) -> Void
    ) -> TileRequestHandle {
        let state = CancelState()
        queue.async { [self] in
            slots.wait()
            defer { slots.signal() }
            guard !state.isCancelled else { return }
            completion(Result { try base.tileData(at: address) })
        }
        return TileRequestHandle { state.cancel() }
    }
}

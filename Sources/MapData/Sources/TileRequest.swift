import MapGeometry

/// The tile-provider seam: how the frame pipeline asks a ``TileSource`` for a tile without waiting for it.
///
/// The pipeline's tile-preparation stage is the only caller. Synchronous sources (MBTiles, files, GeoJSON) need
/// nothing: the default ``TileSource/requestTile(at:priority:completion:)`` reads ``TileSource/tileData(at:)`` and
/// answers before returning, on the caller's thread. Asynchronous sources (HTTP) return at once and answer later
/// on a thread of their own; they say so with ``TileSource/isAsynchronous`` so the pipeline starts their requests
/// early (all of a frame's missing tiles concurrently) and prepares the tile only once every source has answered.

/// A cancellable tile request (``TileSource/requestTile(at:priority:completion:)``).
///
/// Cancelling is a hint: a request already answered, or answered while being cancelled, may still call its
/// completion, which the caller then ignores. Thread rules: `cancel()` may be called from any thread, more than once.
public struct TileRequestHandle: Sendable {
    private let onCancel: @Sendable () -> Void

    /// A handle whose ``cancel()`` calls `onCancel`.
    /// - Parameter onCancel: what cancelling does (drop the queued request, cancel the transfer); any thread.
    public init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    /// A handle for a request that is already answered (cancelling does nothing).
    public static let completed = TileRequestHandle(onCancel: {})

    /// Asks the source to stop working on the request.
    public func cancel() { onCancel() }
}

/// What a tile request gives back: the tile's uncompressed bytes, `nil` for "no tile here" (absent, HTTP 404 or 204,
/// outside the source's bounds or zooms), or the error that stopped it (already retried where the source retries).
public typealias TileLoadResult = Result<[UInt8]?, any Error>

extension TileSource {
    /// `false`: the source answers ``requestTile(at:priority:completion:)`` before returning (the default).
    public var isAsynchronous: Bool { false }

    /// Reads ``tileData(at:)`` on the calling thread and calls `completion` before returning (the synchronous
    /// sources' adapter to the seam).
    /// - Parameters:
    ///   - address: an XYZ address.
    ///   - priority: ignored (smaller is more urgent for asynchronous sources).
    ///   - completion: called once, here.
    /// - Returns: ``TileRequestHandle/completed``.
    public func requestTile(
        at address: TileID, priority: Double, completion: @escaping @Sendable (TileLoadResult) -> Void
    ) -> TileRequestHandle {
        completion(Result { try tileData(at: address) })
        return .completed
    }
}

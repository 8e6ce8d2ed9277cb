/// A store a backend keeps what it caches between frames in (the Cairo backend's label sprites), provided by the
/// host so that one byte budget covers it: MapPipeline's `MapEngine` hands each backend one
/// (``RenderBackend/useCacheStore(_:)``), whose entries live in the engine's one least-recently-used store beside
/// the tiles. Waymark's own.
///
/// Thread rules: any thread (implementations lock). A value may be dropped by the store at any time, on any thread
/// (the budget evicts it), so values must be safe to release from another thread and must not need the backend to
/// free them.
public protocol BackendCacheStore: AnyObject, Sendable {
    /// The value cached for `key`, or nil (never stored, or evicted).
    func cachedValue(for key: AnyHashable) -> AnyObject?
    /// Caches `value` for `key` at `cost` bytes (`≥ 0`), replacing any; the least recently used values of the
    /// store (of any backend) leave when the budget is exceeded.
    func cache(_ value: AnyObject, for key: AnyHashable, cost: Int)
    /// Drops every value this store holds (of its backend only).
    func removeAllValues()
}

extension RenderBackend {
    /// Default: the backend caches nothing between frames, so it ignores the store.
    public func useCacheStore(_ store: (any BackendCacheStore)?) {}
}

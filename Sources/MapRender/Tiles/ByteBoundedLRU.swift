/// A least-recently-used cache bounded by the total byte cost of its values.
///
/// Each value is inserted with its cost in bytes; when the total exceeds ``byteLimit``, the least recently used
/// entries are removed until it fits, and returned to the caller (so it can release backend resources). A single
/// value larger than the limit is not stored and comes straight back. Lookups and insertions are O(1) (a dictionary
/// plus an index-linked recency list in flat arrays). Thread rules: a value type; not shared between threads
/// (`MapPipeline.MapEngine` guards the one it shares with a lock).
public struct ByteBoundedLRU<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var previous: Int  // toward most recent; -1 = none
        var next: Int  // toward least recent; -1 = none
    }

    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var head = -1  // most recently used
    private var tail = -1  // least recently used

    /// The most bytes the cache holds, `≥ 0`.
    public private(set) var byteLimit: Int
    /// The bytes held now (sum of the costs of the stored values), always `≤ byteLimit`.
    public private(set) var totalBytes = 0
    /// Lookups that found a value since creation.
    public private(set) var hits = 0
    /// Lookups that found nothing since creation.
    public private(set) var misses = 0

    /// Creates an empty cache holding at most `byteLimit` bytes (negative values count as 0).
    public init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    /// Number of stored values.
    public var count: Int { index.count }

    /// The keys from most to least recently used.
    public var keysByRecency: [Key] {
        var out: [Key] = []
        var i = head
        while i >= 0, let node = nodes[i] {
            out.append(node.key)
            i = node.next
        }
        return out
    }

    /// Returns the value for `key` and marks it most recently used; counts a hit or a miss.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else {
            misses += 1
            return nil
        }
        hits += 1
        moveToFront(slot)
        return nodes[slot]!.value
    }

    /// Whether `key` is stored, without changing recency or the hit counters. O(1).
    public func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Returns the value for `key` without changing recency or the hit counters.
    public func peek(_ key: Key) -> Value? {
        index[key].flatMap { nodes[$0]?.value }
    }

    /// Stores `value` under `key` as most recently used, replacing any previous value, then evicts least recently used
    /// entries until the total fits. Returns what left the cache: the replaced value, the evicted values, or `value`
    /// itself when `cost > byteLimit`. `cost` is in bytes (negative counts as 0).
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Value] {
        var removed: [Value] = []
        if let old = removeValue(for: key) { removed.append(old) }
        let cost = max(0, cost)
        guard cost <= byteLimit else {
            removed.append(value)
            return removed
        }
        let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if head >= 0 { nodes[head]!.previous = slot }
        head = slot
        if tail < 0 { tail = slot }
        index[key] = slot
        totalBytes += cost
        removed.append(contentsOf: evict(toFit: byteLimit))
        return removed
    }

    /// Removes and returns the value for `key`, or `nil` when absent.
    @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        let node = nodes[slot]!
        unlink(slot)
        nodes[slot] = nil
        freeSlots.append(slot)
        totalBytes -= node.cost
        return node.value
    }

    /// Changes the limit and returns the values evicted to fit it.
    public mutating func setByteLimit(_ limit: Int) -> [Value] {
        byteLimit = max(0, limit)
        return evict(toFit: byteLimit)
    }

    /// Removes and returns every value (least recent first).
    public mutating func removeAll() -> [Value] { evict(toFit: -1) }

    /// Removes and returns the values for which `predicate` is true (least recent first). O(count).
    public mutating func removeAll(where predicate: (Key, Value) -> Bool) -> [Value] {
        var out: [Value] = []
        var i = tail
        while i >= 0, let node = nodes[i] {
            let previous = node.previous
            if predicate(node.key, node.value), let value = removeValue(for: node.key) { out.append(value) }
            i = previous
        }
        return out
    }

    private mutating func evict(toFit limit: Int) -> [Value] {
        var out: [Value] = []
        while totalBytes > limit || (limit < 0 && tail >= 0), tail >= 0 {
            let key = nodes[tail]!.key
            if let v = removeValue(for: key) { out.append(v) }
        }
        return out
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]!
        if node.previous >= 0 { nodes[node.previous]!.next = node.next } else { head = node.next }
        if node.next >= 0 { nodes[node.next]!.previous = node.previous } else { tail = node.previous }
        nodes[slot]!.previous = -1
        nodes[slot]!.next = -1
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        nodes[slot]!.next = head
        if head >= 0 { nodes[head]!.previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}

/// A least-recently-used cache bounded by the total byte cost of its values.
///
/// Each value is inserted with its cost in bytes; when the total exceeds ``byteLimit``, the least recently used
/// entries are removed until it fits, and returned to the caller (so it can release backend resources). A single
/// value larger than the limit is not stored and comes straight back. Lookups and insertions are O(1) (a dictionary
/// plus an index-linked recency list in flat arrays; the links live apart from the entries, so marking an entry
/// used moves integers only, never a key or value). Its methods are inlinable, so a cache of another module's types
/// (the engine's, in MapPipeline) is specialised for them rather than run through generic value witnesses on every
/// lookup. Thread rules: a value type; not shared between threads (`MapPipeline.MapEngine` guards the one it shares
/// with a lock).
public struct ByteBoundedLRU<Key: Hashable, Value> {
    @usableFromInline struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int

        @inlinable init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    /// The entries by slot (`nil`: a free slot).
    @usableFromInline var nodes: [Node?] = []
    /// By slot: the neighbour toward the most recently used entry, -1 for none.
    @usableFromInline var previous: [Int] = []
    /// By slot: the neighbour toward the least recently used entry, -1 for none.
    @usableFromInline var next: [Int] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var index: [Key: Int] = [:]
    /// The most recently used slot, -1 when empty.
    @usableFromInline var head = -1
    /// The least recently used slot, -1 when empty.
    @usableFromInline var tail = -1

    @usableFromInline var limit: Int
    @usableFromInline var bytes = 0
    @usableFromInline var found = 0
    @usableFromInline var missed = 0

    /// The most bytes the cache holds, `≥ 0`.
    @inlinable public var byteLimit: Int { limit }
    /// The bytes held now (sum of the costs of the stored values), always `≤ byteLimit`.
    @inlinable public var totalBytes: Int { bytes }
    /// Lookups that found a value since creation.
    @inlinable public var hits: Int { found }
    /// Lookups that found nothing since creation.
    @inlinable public var misses: Int { missed }

    /// Creates an empty cache holding at most `byteLimit` bytes (negative values count as 0).
    @inlinable public init(byteLimit: Int) { limit = max(0, byteLimit) }

    /// The bytes of bookkeeping an entry costs besides its value's own storage, from the real layout: its slot (the
    /// key, the value's inline part and the cost, the recency links and a free-slot index; the slot arrays grow by a
    /// quarter, so at most 5/4 of a slot an entry) and its index entry (key and slot, in a table of a power of two
    /// buckets at most 3/4 full: at most 8/3 of an entry an entry). Callers add it to the cost they insert so that
    /// ``byteLimit`` bounds what the entries really take.
    @inlinable public static var bytesPerEntry: Int {
        let slot = MemoryLayout<Node?>.stride + 3 * MemoryLayout<Int>.stride
        let indexEntry = MemoryLayout<Key>.stride + MemoryLayout<Int>.stride
        return (slot * 5 + 3) / 4 + (indexEntry * 8 + 2) / 3
    }

    /// Number of stored values.
    @inlinable public var count: Int { index.count }

    /// The keys from most to least recently used.
    @inlinable public var keysByRecency: [Key] {
        var out: [Key] = []
        var i = head
        while i >= 0, let node = nodes[i] {
            out.append(node.key)
            i = next[i]
        }
        return out
    }

    /// Returns the value for `key` and marks it most recently used; counts a hit or a miss.
    @inlinable public mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else {
            missed += 1
            return nil
        }
        found += 1
        moveToFront(slot)
        return nodes[slot]!.value
    }

    /// Whether `key` is stored, without changing recency or the hit counters. O(1).
    @inlinable public func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Returns the value for `key` without changing recency or the hit counters.
    @inlinable public func peek(_ key: Key) -> Value? {
        index[key].flatMap { nodes[$0]?.value }
    }

    /// Stores `value` under `key` as most recently used, replacing any previous value, then evicts least recently used
    /// entries until the total fits. Returns what left the cache: the replaced value, the evicted values, or `value`
    /// itself when `cost > byteLimit`. `cost` is in bytes (negative counts as 0).
    @inlinable @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Value] {
        var removed: [Value] = []
        insert(value, for: key, cost: cost) { removed.append($0) }
        return removed
    }

    /// ``insert(_:for:cost:)`` handing what leaves the cache to `removed` (in the same order) instead of returning
    /// it: no array is made, and the key is hashed once (a replaced value is found by the same index update that
    /// stores the new one). `removed` runs before this returns and must not use the cache.
    @inlinable
    public mutating func insert(_ value: Value, for key: Key, cost: Int, removed: (Value) -> Void) {
        let cost = max(0, cost)
        guard cost <= limit else {
            if let old = removeValue(for: key) { removed(old) }
            removed(value)
            return
        }
        let node = Node(key: key, value: value, cost: cost)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
            previous[slot] = -1
            next[slot] = head
        } else {
            slot = nodes.count
            if slot == nodes.capacity {
                // Grow by a quarter, not the standard library's doubling: the slots stay close to the entries.
                let capacity = slot + slot / 4 + 16
                nodes.reserveCapacity(capacity)
                previous.reserveCapacity(capacity)
                next.reserveCapacity(capacity)
            }
            nodes.append(node)
            previous.append(-1)
            next.append(head)
        }
        if head >= 0 { previous[head] = slot }
        head = slot
        if tail < 0 { tail = slot }
        if let old = index.updateValue(slot, forKey: key), let replaced = nodes[old] {
            unlink(old)
            nodes[old] = nil
            freeSlots.append(old)
            bytes -= replaced.cost
            removed(replaced.value)
        }
        bytes += cost
        evict(toFit: limit, removed)
    }

    /// Removes and returns the value for `key`, or `nil` when absent.
    @inlinable @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key), let node = nodes[slot] else { return nil }
        unlink(slot)
        nodes[slot] = nil
        freeSlots.append(slot)
        bytes -= node.cost
        return node.value
    }

    /// Changes the limit and returns the values evicted to fit it.
    @inlinable public mutating func setByteLimit(_ limit: Int) -> [Value] {
        self.limit = max(0, limit)
        return evict(toFit: self.limit)
    }

    /// Removes and returns every value (least recent first).
    @inlinable public mutating func removeAll() -> [Value] { evict(toFit: -1) }

    /// Removes and returns the values for which `predicate` is true (least recent first). O(count).
    @inlinable public mutating func removeAll(where predicate: (Key, Value) -> Bool) -> [Value] {
        var out: [Value] = []
        var i = tail
        while i >= 0, let node = nodes[i] {
            let before = previous[i]
            if predicate(node.key, node.value), let value = removeValue(for: node.key) { out.append(value) }
            i = before
        }
        return out
    }

    @inlinable mutating func evict(toFit limit: Int) -> [Value] {
        var out: [Value] = []
        evict(toFit: limit) { out.append($0) }
        return out
    }

    @inlinable mutating func evict(toFit limit: Int, _ removed: (Value) -> Void) {
        while bytes > limit || (limit < 0 && tail >= 0), tail >= 0 {
            let key = nodes[tail]!.key
            if let v = removeValue(for: key) { removed(v) }
        }
    }

    @inlinable mutating func unlink(_ slot: Int) {
        let p = previous[slot]
        let n = next[slot]
        if p >= 0 { next[p] = n } else { head = n }
        if n >= 0 { previous[n] = p } else { tail = p }
        previous[slot] = -1
        next[slot] = -1
    }

    @inlinable mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        next[slot] = head
        if head >= 0 { previous[head] = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}

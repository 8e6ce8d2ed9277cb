/// A least-recently-used cache bounded by a byte budget.
///
/// Each entry has a cost in bytes given by the caller (for tiles: the decoded or compressed size). Inserting beyond
/// ``capacityBytes`` evicts least-recently-used entries until the total cost fits; an entry whose own cost exceeds
/// the capacity is not stored. `get` and `put` are O(1) (a dictionary into a doubly linked list kept in arrays).
///
/// A value type with no locking: own it from one thread or wrap it in a lock or actor to share it.
public struct TileCache<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var previous: Int  // towards the most recently used end; -1 for none
        var next: Int  // towards the least recently used end; -1 for none
    }

    /// The byte budget, ≥ 0.
    public let capacityBytes: Int
    /// The summed cost of the stored entries, `0...capacityBytes`.
    public private(set) var totalBytes = 0
    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    private var head = -1  // most recently used
    private var tail = -1  // least recently used

    /// Creates an empty cache.
    /// - Parameter capacityBytes: the budget in bytes, ≥ 0 (for example `64 << 20` for 64 MiB).
    /// - Precondition: `capacityBytes >= 0`.
    public init(capacityBytes: Int) {
        precondition(capacityBytes >= 0, "TileCache capacity must be ≥ 0")
        self.capacityBytes = capacityBytes
    }

    /// The number of stored entries.
    public var count: Int { slots.count }

    /// The value for `key`, marking it most recently used; `nil` when absent. O(1).
    public mutating func get(_ key: Key) -> Value? {
        guard let i = slots[key] else { return nil }
        moveToFront(i)
        return nodes[i]!.value
    }

    /// Whether `key` is stored, without changing the recency order.
    public func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// Stores `value` under `key` with `cost` bytes as the most recently used entry, replacing any old value, then
    /// evicts least-recently-used entries until ``totalBytes`` ≤ ``capacityBytes``. O(1) amortised per eviction.
    /// - Parameters:
    ///   - value: the value to keep.
    ///   - key: its key.
    ///   - cost: its size in bytes, ≥ 0; a cost above ``capacityBytes`` means the value is not stored (and any old
    ///     value for `key` is removed).
    /// - Returns: the keys evicted to make room, least recently used first (the replaced key is not listed).
    @discardableResult
    public mutating func put(_ value: Value, forKey key: Key, cost: Int) -> [Key] {
        precondition(cost >= 0, "TileCache cost must be ≥ 0")
        removeValue(forKey: key)
        guard cost <= capacityBytes else { return [] }
        var evicted: [Key] = []
        while totalBytes + cost > capacityBytes, tail >= 0 {
            let key = nodes[tail]!.key
            removeValue(forKey: key)
            evicted.append(key)
        }
        let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
        let i: Int
        if let reused = free.popLast() {
            i = reused
            nodes[i] = node
        } else {
            i = nodes.count
            nodes.append(node)
        }
        if head >= 0 { nodes[head]!.previous = i }
        head = i
        if tail < 0 { tail = i }
        slots[key] = i
        totalBytes += cost
        return evicted
    }

    /// Removes and returns the value for `key`, or `nil` when absent. O(1).
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let i = slots.removeValue(forKey: key) else { return nil }
        unlink(i)
        let node = nodes[i]!
        nodes[i] = nil
        free.append(i)
        totalBytes -= node.cost
        return node.value
    }

    /// Removes every entry.
    public mutating func removeAll() {
        nodes = []
        free = []
        slots = [:]
        head = -1
        tail = -1
        totalBytes = 0
    }

    /// The keys from most to least recently used (for tests and diagnostics). O(n).
    public var keysByRecency: [Key] {
        var result: [Key] = []
        var i = head
        while i >= 0 {
            result.append(nodes[i]!.key)
            i = nodes[i]!.next
        }
        return result
    }

    private mutating func unlink(_ i: Int) {
        let p = nodes[i]!.previous
        let n = nodes[i]!.next
        if p >= 0 { nodes[p]!.next = n } else { head = n }
        if n >= 0 { nodes[n]!.previous = p } else { tail = p }
        nodes[i]!.previous = -1
        nodes[i]!.next = -1
    }

    private mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        nodes[i]!.next = head
        if head >= 0 { nodes[head]!.previous = i }
        head = i
        if tail < 0 { tail = i }
    }
}

extension TileCache: Sendable where Key: Sendable, Value: Sendable {}
extension TileCache.Node: Sendable where Key: Sendable, Value: Sendable {}

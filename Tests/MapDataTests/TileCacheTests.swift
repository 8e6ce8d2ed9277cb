import Testing

@testable import MapData

@Suite struct TileCacheTests {
    @Test func evictsLeastRecentlyUsedByBytes() {
        var cache = TileCache<String, Int>(capacityBytes: 100)
        #expect(cache.put(1, forKey: "a", cost: 40).isEmpty)
        #expect(cache.put(2, forKey: "b", cost: 40).isEmpty)
        #expect(cache.get("a") == 1)  // a is now the most recent
        // 40 + 40 + 30 > 100: the least recently used (b) goes.
        #expect(cache.put(3, forKey: "c", cost: 30) == ["b"])
        #expect(cache.get("b") == nil)
        #expect(cache.totalBytes == 70)
        #expect(cache.keysByRecency == ["c", "a"])
        // A 100-byte entry pushes out everything else.
        #expect(cache.put(4, forKey: "d", cost: 100) == ["a", "c"])
        #expect(cache.count == 1)
        #expect(cache.totalBytes == 100)
    }

    @Test func oversizedEntryIsNotStoredAndReplacesOldValue() {
        var cache = TileCache<Int, String>(capacityBytes: 10)
        cache.put("x", forKey: 1, cost: 5)
        #expect(cache.put("huge", forKey: 1, cost: 11).isEmpty)
        #expect(cache.get(1) == nil)
        #expect(cache.totalBytes == 0)
    }

    @Test func replacingAKeyUpdatesItsCost() {
        var cache = TileCache<Int, String>(capacityBytes: 10)
        cache.put("x", forKey: 1, cost: 8)
        cache.put("y", forKey: 1, cost: 2)
        #expect(cache.totalBytes == 2)
        #expect(cache.get(1) == "y")
        #expect(cache.removeValue(forKey: 1) == "y")
        #expect(cache.totalBytes == 0)
        #expect(cache.keysByRecency.isEmpty)
    }

    /// Against a naive reference model (an array ordered by recency) under a seeded random workload.
    @Test func matchesAReferenceModel() {
        var rng = SplitMix(seed: 7)
        var cache = TileCache<Int, Int>(capacityBytes: 500)
        var model: [(key: Int, value: Int, cost: Int)] = []  // most recent first
        for step in 0..<5000 {
            let key = Int(rng.next() % 40)
            if rng.next() % 3 == 0 {
                let expected = model.first { $0.key == key }?.value
                #expect(cache.get(key) == expected)
                if let i = model.firstIndex(where: { $0.key == key }) { model.insert(model.remove(at: i), at: 0) }
            } else {
                let cost = Int(rng.next() % 120)
                cache.put(step, forKey: key, cost: cost)
                model.removeAll { $0.key == key }
                model.insert((key, step, cost), at: 0)
                while model.reduce(0, { $0 + $1.cost }) > 500 { model.removeLast() }
            }
            #expect(cache.keysByRecency == model.map(\.key))
            #expect(cache.totalBytes == model.reduce(0) { $0 + $1.cost })
        }
    }
}

/// SplitMix64, local so this file needs nothing but MapData.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import MapDrawing
import MapGeometry
import MapTestSupport
import Testing

@Suite struct ByteBoundedLRUTests {
    @Test func evictsLeastRecentlyUsedToFitTheByteLimit() {
        var lru = ByteBoundedLRU<String, Int>(byteLimit: 100)
        #expect(lru.insert(1, for: "a", cost: 40).isEmpty)
        #expect(lru.insert(2, for: "b", cost: 40).isEmpty)
        #expect(lru.value(for: "a") == 1)  // a is now most recent
        #expect(lru.insert(3, for: "c", cost: 40) == [2])  // b was least recent
        #expect(lru.keysByRecency == ["c", "a"])
        #expect(lru.totalBytes == 80)
        #expect(lru.value(for: "b") == nil)
        #expect(lru.hits == 1 && lru.misses == 1)
    }

    @Test func replacingReturnsTheOldValueAndOversizedValuesAreRefused() {
        var lru = ByteBoundedLRU<String, Int>(byteLimit: 100)
        lru.insert(1, for: "a", cost: 60)
        #expect(lru.insert(2, for: "a", cost: 30) == [1])
        #expect(lru.totalBytes == 30)
        #expect(lru.insert(9, for: "big", cost: 101) == [9])
        #expect(lru.count == 1 && lru.peek("big") == nil)
        #expect(lru.setByteLimit(10) == [2])
        #expect(lru.count == 0 && lru.totalBytes == 0)
    }

    @Test func slotsAreReusedAfterRemoval() {
        var lru = ByteBoundedLRU<Int, Int>(byteLimit: 1000)
        for i in 0..<50 { lru.insert(i, for: i, cost: 10) }
        for i in 0..<50 where i % 2 == 0 { lru.removeValue(for: i) }
        for i in 100..<125 { lru.insert(i, for: i, cost: 10) }
        #expect(lru.count == 50 && lru.totalBytes == 500)
        #expect(lru.keysByRecency.first == 124 && lru.keysByRecency.last == 1)
        #expect(lru.removeAll().count == 50)
    }

    @Test func theCallbackInsertHandsOverWhatTheArrayInsertReturns() {
        var a = ByteBoundedLRU<Int, Int>(byteLimit: 100)
        var b = ByteBoundedLRU<Int, Int>(byteLimit: 100)
        var rng = SeededRandom(seed: 3)
        for step in 0..<2000 {
            let key = Int(rng.next() % 25)
            let cost = Int(rng.next() % 130)
            var handed: [Int] = []
            b.insert(step, for: key, cost: cost) { handed.append($0) }
            #expect(a.insert(step, for: key, cost: cost) == handed)
        }
        #expect(a.keysByRecency == b.keysByRecency)
        #expect(a.totalBytes == b.totalBytes)
    }

    @Test func bytesPerEntryCountsTheSlotAndTheIndexEntry() {
        // A slot of 40 bytes or more (key, value, cost, links), an index entry of 16 or more: at least 56 bytes.
        #expect(ByteBoundedLRU<Int, Int>.bytesPerEntry >= 56)
        // A bigger key costs more: it is stored in the slot and in the index.
        #expect(ByteBoundedLRU<String, Int>.bytesPerEntry > ByteBoundedLRU<Int, Int>.bytesPerEntry)
    }

    // The decoded-tile cache's cases (MapPipeline keeps decoded, prepared and symbol tiles in this LRU too).

    @Test func aFullSizeEntryPushesOutEverythingElse() {
        var lru = ByteBoundedLRU<String, Int>(byteLimit: 100)
        lru.insert(1, for: "a", cost: 40)
        lru.insert(2, for: "b", cost: 40)
        _ = lru.value(for: "a")
        #expect(lru.insert(3, for: "c", cost: 30) == [2])
        #expect(lru.totalBytes == 70)
        // Least recently used first.
        #expect(lru.insert(4, for: "d", cost: 100) == [1, 3])
        #expect(lru.count == 1)
        #expect(lru.totalBytes == 100)
        #expect(lru.contains("d") && !lru.contains("a"))
    }

    @Test func oversizedEntryIsNotStoredAndReplacesOldValue() {
        var lru = ByteBoundedLRU<Int, String>(byteLimit: 10)
        lru.insert("x", for: 1, cost: 5)
        #expect(lru.insert("huge", for: 1, cost: 11) == ["x", "huge"])
        #expect(lru.value(for: 1) == nil)
        #expect(lru.totalBytes == 0)
    }

    @Test func replacingAKeyUpdatesItsCost() {
        var lru = ByteBoundedLRU<Int, String>(byteLimit: 10)
        lru.insert("x", for: 1, cost: 8)
        lru.insert("y", for: 1, cost: 2)
        #expect(lru.totalBytes == 2)
        #expect(lru.value(for: 1) == "y")
        #expect(lru.removeValue(for: 1) == "y")
        #expect(lru.totalBytes == 0)
        #expect(lru.keysByRecency.isEmpty)
    }

    /// Against a naive reference model (an array ordered by recency) under a seeded random workload.
    @Test func matchesAReferenceModel() {
        var rng = SeededRandom(seed: 7)
        var lru = ByteBoundedLRU<Int, Int>(byteLimit: 500)
        var model: [(key: Int, value: Int, cost: Int)] = []  // most recent first
        for step in 0..<5000 {
            let key = Int(rng.next() % 40)
            if rng.next() % 3 == 0 {
                let expected = model.first { $0.key == key }?.value
                #expect(lru.value(for: key) == expected)
                if let i = model.firstIndex(where: { $0.key == key }) { model.insert(model.remove(at: i), at: 0) }
            } else {
                let cost = Int(rng.next() % 120)
                lru.insert(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.insert((key, step, cost), at: 0)
                while model.reduce(0, { $0 + $1.cost }) > 500 { model.removeLast() }
            }
            #expect(lru.keysByRecency == model.map(\.key))
            #expect(lru.totalBytes == model.reduce(0) { $0 + $1.cost })
        }
    }
}

@Suite struct TileImageCacheTests {
    private func tile(_ id: Int, side: Int = 512) -> ImageHandle {
        ImageHandle(id: id, pixelWidth: side, pixelHeight: side, scale: 1)
    }

    @Test func holdsAtMostTheByteBound() {
        // 512 × 512 × 4 = 1 MiB per tile; a 3.5 MiB bound holds three.
        var cache = TileImageCache(byteLimit: 3 << 20 + 1 << 19)
        var evicted: [ImageHandle] = []
        for i in 0..<5 {
            evicted += cache.insert(tile(i), for: TileImageKey(revision: 1, z: 3, x: i, y: 2, pixelScale: 1))
        }
        #expect(cache.count == 3)
        #expect(cache.totalBytes == 3 << 20)
        #expect(evicted.map(\.id) == [0, 1])
        #expect(cache.image(for: TileImageKey(revision: 1, z: 3, x: 2, y: 2, pixelScale: 1))?.id == 2)
        // x = 2 is now the most recent, so x = 3 goes next.
        evicted = cache.insert(tile(9), for: TileImageKey(revision: 1, z: 4, x: 0, y: 0, pixelScale: 1))
        #expect(evicted.map(\.id) == [3])
    }

    @Test func keysDistinguishRevisionAndScale() {
        var cache = TileImageCache()
        let key = TileImageKey(revision: 1, z: 0, x: 0, y: 0, pixelScale: 1)
        cache.insert(tile(1), for: key)
        cache.insert(tile(2, side: 1024), for: TileImageKey(revision: 1, z: 0, x: 0, y: 0, pixelScale: 2))
        cache.insert(tile(3), for: TileImageKey(revision: 2, z: 0, x: 0, y: 0, pixelScale: 1))
        #expect(cache.count == 3)
        #expect(cache.removeAll(exceptRevision: 2).map(\.id).sorted() == [1, 2])
        #expect(!cache.contains(key))
        #expect(cache.image(for: TileImageKey(revision: 2, z: 0, x: 0, y: 0, pixelScale: 1))?.id == 3)
    }
}

@Suite struct TileCompositorTests {
    private let tile = ImageHandle(id: 1, pixelWidth: 512, pixelHeight: 512, scale: 2)  // 256 pt

    @Test func neighboursShareSnappedEdgesAtFractionalZoom() {
        // Zoom z + 0.3: scale 2^0.3 ≈ 1.2311; tiles at 256 pt × 1.2311 = 315.17 pt apart, origin at 10.37 pt.
        let s = 1.2311444133449163
        let placements = (0..<3).map {
            TilePlacement(image: tile, origin: ScreenPoint(x: 10.37 + Double($0) * 256 * s, y: -3.1), scale: s)
        }
        let commands = TileCompositor.commands(
            for: placements, frame: ScreenSize(width: 1280, height: 720), scale: 2)
        let rects = commands.compactMap { c -> RenderRect? in
            if case .image(let i) = c { return i.rect }
            return nil
        }
        #expect(rects.count == 3)
        for (a, b) in zip(rects, rects.dropFirst()) { #expect(a.maxX == b.minX) }
        for r in rects {
            // Every edge lies on a device pixel (scale 2: multiples of 0.5 pt).
            for v in [r.minX, r.maxX, r.minY, r.maxY] { #expect((v * 2).rounded() == v * 2) }
        }
        #expect(rects[0].minX == 10.5 && rects[0].minY == -3)
    }

    @Test func tilesOutsideTheFrameAreSkipped() {
        let placements = [
            TilePlacement(image: tile, origin: ScreenPoint(x: -256, y: 0)),  // touches the left edge only
            TilePlacement(image: tile, origin: ScreenPoint(x: 100, y: 100)),
            TilePlacement(image: tile, origin: ScreenPoint(x: 0, y: 800)),
            TilePlacement(image: tile, origin: ScreenPoint(x: 0, y: 0), opacity: 0),
        ]
        let list = TileCompositor.displayList(
            for: placements, frame: ScreenSize(width: 640, height: 480), scale: 1, background: .white)
        #expect(
            list.description == """
                DisplayList 640x480 @1x (2 commands)
                  clear #ffffffff
                  image #1 rect=(100,100 256x256)

                """)
    }
}

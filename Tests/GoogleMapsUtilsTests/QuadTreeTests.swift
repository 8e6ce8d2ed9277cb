import MapTestSupport
import Testing

@testable import GoogleMapsUtils

/// A quadtree item at a fixed point.
final class TestQuadItem: GQTPointQuadTreeItem {
    let p: GQTPoint
    init(_ x: Double, _ y: Double) { p = GQTPoint(x: x, y: y) }
    func point() -> GQTPoint { p }
}

@Suite struct QuadTreeTests {
    @Test func addSearchRemoveAndCount() {
        let tree = GQTPointQuadTree(bounds: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1))
        let a = TestQuadItem(0.5, 0.5)
        let b = TestQuadItem(-0.5, -0.5)
        let edge = TestQuadItem(1, 1)
        #expect(tree.add(item: a))
        #expect(tree.add(item: b))
        #expect(tree.add(item: edge), "the bounds' edges are inside")
        #expect(!tree.add(item: TestQuadItem(1.5, 0)), "outside the bounds is refused")
        #expect(!tree.add(item: TestQuadItem(.nan, 0)), "NaN is refused")
        #expect(!tree.add(item: nil))
        #expect(tree.count == 3)
        let found = tree.search(withBounds: GQTBounds(minX: 0, minY: 0, maxX: 1, maxY: 1))
        #expect(found.count == 2 && found.contains { $0 === a } && found.contains { $0 === edge })
        #expect(tree.remove(item: a))
        #expect(!tree.remove(item: a), "already removed")
        #expect(!tree.remove(item: TestQuadItem(0.5, 0.5)), "found by identity, not by point")
        #expect(tree.count == 2)
        #expect(tree.search(withBounds: GQTBounds(minX: 0, minY: 0, maxX: 0.9, maxY: 0.9)).isEmpty)
        tree.clear()
        #expect(tree.count == 0 && tree.getCount() == 0)
        #expect(tree.search(withBounds: GQTBounds(minX: -1, minY: -1, maxX: 1, maxY: 1)).isEmpty)
    }

    @Test func manyItemsAtOnePointStopSplittingAtTheDepthLimit() {
        let tree = GQTPointQuadTree()
        let items = (0..<1000).map { _ in TestQuadItem(0.25, 0.25) }
        for i in items { #expect(tree.add(item: i)) }
        #expect(tree.count == 1000)
        #expect(tree.search(withBounds: GQTBounds(minX: 0.25, minY: 0.25, maxX: 0.25, maxY: 0.25)).count == 1000)
        for i in items.prefix(500) { #expect(tree.remove(item: i)) }
        #expect(tree.count == 500)
    }

    /// Random adds, removes and searches against a plain list.
    @Test(arguments: [1, 2, 3])
    func fuzzAgainstBruteForce(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let tree = GQTPointQuadTree(bounds: GQTBounds(minX: -10, minY: -5, maxX: 10, maxY: 5))
        var live: [TestQuadItem] = []
        for step in 0..<3000 {
            let r = Int.random(in: 0..<10, using: &rng)
            if r < 6 || live.isEmpty {
                // Clustered points make deep trees.
                let x = (Double.random(in: -10...10, using: &rng) * (r == 0 ? 0.001 : 1))
                let y = (Double.random(in: -5...5, using: &rng) * (r == 0 ? 0.001 : 1))
                let item = TestQuadItem(x, y)
                #expect(tree.add(item: item))
                live.append(item)
            } else if r < 9 {
                let i = Int.random(in: 0..<live.count, using: &rng)
                #expect(tree.remove(item: live[i]))
                live.remove(at: i)
            } else {
                let x0 = Double.random(in: -10...10, using: &rng)
                let y0 = Double.random(in: -5...5, using: &rng)
                let b = GQTBounds(
                    minX: x0, minY: y0, maxX: x0 + Double.random(in: 0...5, using: &rng),
                    maxY: y0 + Double.random(in: 0...3, using: &rng))
                let got = Set(tree.search(withBounds: b).map { ObjectIdentifier($0) })
                let want = Set(
                    live.filter { $0.p.x >= b.minX && $0.p.x <= b.maxX && $0.p.y >= b.minY && $0.p.y <= b.maxY }
                        .map { ObjectIdentifier($0) })
                #expect(got == want, "step \(step): \(got.count) found, \(want.count) expected")
            }
            #expect(tree.count == live.count)
        }
    }
}

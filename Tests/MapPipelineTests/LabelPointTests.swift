import Dispatch
import MapData
import MapGeometry
import Synchronization
import Testing

@testable import MapPipeline

/// A closed square ring of `size` units from `(x0, y0)`, as one polygon.
private func square(_ x0: Int32, _ y0: Int32, _ size: Int32) -> [[VectorTilePoint]] {
    [
        [
            .init(x: x0, y: y0), .init(x: x0 + size, y: y0), .init(x: x0 + size, y: y0 + size),
            .init(x: x0, y: y0 + size), .init(x: x0, y: y0),
        ]
    ]
}

@Suite struct LabelPointTests {
    @Test func multipolygonGetsOneLabelPointPerPolygon() {
        guard let plan = overzoomPlan(for: TileID(z: 0, x: 0, y: 0), minZoom: 0, maxZoom: 14) else {
            Issue.record("no plan")
            return
        }
        let points = labelPoints(
            .polygons([square(0, 0, 1000), square(3000, 3000, 200)]), plan: plan, extent: 4096)
        #expect(points.count == 2)
        #expect(abs(points[0].x - 500) < 8 && abs(points[0].y - 500) < 8)
        #expect(abs(points[1].x - 3100) < 8 && abs(points[1].y - 3100) < 8)
    }

    @Test func storeGivesEachFeatureTheLabelPointsOfItsUnclippedGeometryFromAnyThread() {
        // Over-zoomed (a zoom 15 tile of a zoom 14 source): the points go through the plan as the prepared tile's do.
        guard let plan = overzoomPlan(for: TileID(z: 15, x: 1, y: 1), minZoom: 0, maxZoom: 14) else {
            Issue.record("no plan")
            return
        }
        let store = LabelPointStore(plan: plan)
        let big: VectorTileGeometry = .polygons([square(0, 0, 1000)])
        let two: VectorTileGeometry = .polygons([square(3000, 3000, 200), square(100, 2000, 600)])
        let first = store.add(big, extent: 4096)
        let second = store.add(two, extent: 4096)
        func same(_ a: [(x: Double, y: Double)], _ b: [(x: Double, y: Double)]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.x == $1.x && $0.y == $1.y }
        }
        let expected = labelPoints(two, plan: plan, extent: 4096)
        #expect(expected.count == 2)
        // Read from several threads at once: every read gets the same points.
        let reads = Mutex<[[(x: Double, y: Double)]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let points = store.points(second)
            reads.withLock { $0.append(points) }
        }
        #expect(reads.withLock { $0.count } == 8)
        #expect(reads.withLock { $0.allSatisfy { same($0, expected) } })
        #expect(same(store.points(first), labelPoints(big, plan: plan, extent: 4096)))
        #expect(store.points(first).count == 1)
        #expect(store.points(2).isEmpty)
        #expect(store.points(-1).isEmpty)
    }

    @Test func poleOfInaccessibilityLiesInTheWideArmOfAnLShape() {
        // An L: a 20-wide bar up the left and a 20-wide bar along y 80…100. Its widest inside circle sits in the
        // corner, touching x = 0, y = 100 and the inner corner (20, 80): centre (c, 100 − c), c = 20√2 / (1 + √2).
        let l: [(x: Double, y: Double)] = [(0, 0), (20, 0), (20, 80), (100, 80), (100, 100), (0, 100), (0, 0)]
        let c = 20 * 2.0.squareRoot() / (1 + 2.0.squareRoot())
        let p = poleOfInaccessibility([l], precision: 0.1)
        #expect(p != nil)
        if let p {
            #expect(abs(p.x - c) < 1)
            #expect(abs(p.y - (100 - c)) < 1)
        }
    }

    @Test func holeMovesThePoleAway() {
        let outer: [(x: Double, y: Double)] = [(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)]
        let hole: [(x: Double, y: Double)] = [(40, 40), (60, 40), (60, 60), (40, 60), (40, 40)]
        let p = poleOfInaccessibility([outer, hole], precision: 0.5)
        #expect(p != nil)
        if let p {
            #expect(!(p.x > 40 && p.x < 60 && p.y > 40 && p.y < 60))
        }
        #expect(poleOfInaccessibility([], precision: 1) == nil)
    }
}

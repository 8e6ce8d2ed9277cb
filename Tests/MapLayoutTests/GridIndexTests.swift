import MapLayout
import MapTestSupport
import Testing

@Suite struct GridIndexTests {
    @Test func boxesOverlapOnlyWithPositiveArea() {
        var grid = GridIndex(width: 200, height: 100, cellSize: 25)
        let inserted = grid.insertBox(minX: 10, minY: 10, maxX: 40, maxY: 30, key: 7)
        #expect(inserted)
        // Overlapping by one point in each direction.
        #expect(grid.intersectsBox(minX: 39, minY: 29, maxX: 60, maxY: 50))
        // Touching the right edge and the bottom edge only.
        #expect(!grid.intersectsBox(minX: 40, minY: 10, maxX: 60, maxY: 30))
        #expect(!grid.intersectsBox(minX: 10, minY: 30, maxX: 40, maxY: 50))
        // Far away, in another cell.
        #expect(!grid.intersectsBox(minX: 150, minY: 60, maxX: 160, maxY: 70))
        #expect(grid.keysIntersecting(minX: 0, minY: 0, maxX: 200, maxY: 100) == [7])
        #expect(grid.count == 1)
    }

    @Test func circlesAgainstBoxesAndCircles() {
        var grid = GridIndex(width: 200, height: 200, cellSize: 32)
        grid.insertCircle(x: 100, y: 100, radius: 10, key: 1)
        // Circle–circle: centres 25 apart, radii 10 + 15 = 25 → touching, not intersecting; 24.9 apart → hit.
        #expect(!grid.intersectsCircle(x: 125, y: 100, radius: 15))
        #expect(grid.intersectsCircle(x: 124.9, y: 100, radius: 15))
        // Circle–box: the box corner (107, 107) is √98 ≈ 9.9 from the centre → hit; (108, 108) is √128 ≈ 11.3 → miss.
        #expect(grid.intersectsBox(minX: 107, minY: 107, maxX: 150, maxY: 150))
        #expect(!grid.intersectsBox(minX: 108, minY: 108, maxX: 150, maxY: 150))
        grid.insertBox(minX: 0, minY: 0, maxX: 20, maxY: 20, key: 2)
        // Box–circle from the query side: centre (30, 10) is 10 from the box's right edge.
        #expect(!grid.intersectsCircle(x: 30, y: 10, radius: 10))
        #expect(grid.intersectsCircle(x: 29, y: 10, radius: 10))
        #expect(grid.keysIntersecting(circleX: 60, y: 60, radius: 60) == [1, 2])
    }

    @Test func entriesOutsideTheRegionAreStillFound() {
        var grid = GridIndex(originX: -50, originY: -50, width: 100, height: 100, cellSize: 10)
        grid.insertBox(minX: 500, minY: 500, maxX: 520, maxY: 510, key: 3)
        grid.insertBox(minX: -1e300, minY: -10, maxX: -900, maxY: 10, key: 4)
        #expect(grid.intersectsBox(minX: 515, minY: 505, maxX: 600, maxY: 600))
        #expect(!grid.intersectsBox(minX: 520, minY: 505, maxX: 600, maxY: 600))
        #expect(grid.keysIntersecting(minX: -1000, minY: -1, maxX: -950, maxY: 1) == [4])
    }

    @Test func nonFiniteEntriesAreIgnoredAndRemoveAllEmpties() {
        var grid = GridIndex(width: 100, height: 100)
        let accepted = [
            grid.insertBox(minX: .nan, minY: 0, maxX: 10, maxY: 10, key: 1),
            grid.insertBox(minX: 10, minY: 0, maxX: 5, maxY: 10, key: 1),
            grid.insertCircle(x: 0, y: .infinity, radius: 1, key: 1),
            grid.insertCircle(x: 0, y: 0, radius: -1, key: 1),
        ]
        #expect(accepted == [false, false, false, false])
        #expect(grid.count == 0)
        grid.reserve(100)
        grid.insertBox(minX: 0, minY: 0, maxX: 10, maxY: 10, key: 1)
        #expect(!grid.intersectsBox(minX: .nan, minY: 0, maxX: 10, maxY: 10))
        #expect(grid.intersectsBox(minX: 5, minY: 5, maxX: 6, maxY: 6))
        grid.removeAll()
        #expect(grid.count == 0)
        #expect(!grid.intersectsBox(minX: 5, minY: 5, maxX: 6, maxY: 6))
    }

    /// Independent brute-force rules, written from the definitions in `GridIndex`'s documentation.
    enum Shape {
        case box(Double, Double, Double, Double)
        case circle(Double, Double, Double)

        func intersects(_ other: Shape) -> Bool {
            switch (self, other) {
            case (.box(let a0, let a1, let a2, let a3), .box(let b0, let b1, let b2, let b3)):
                return a0 < b2 && b0 < a2 && a1 < b3 && b1 < a3
            case (.circle(let x, let y, let r), .circle(let u, let v, let s)):
                return ((x - u) * (x - u) + (y - v) * (y - v)).squareRoot() < r + s
            case (.circle(let x, let y, let r), .box(let b0, let b1, let b2, let b3)),
                (.box(let b0, let b1, let b2, let b3), .circle(let x, let y, let r)):
                let dx = x < b0 ? b0 - x : (x > b2 ? x - b2 : 0)
                let dy = y < b1 ? b1 - y : (y > b3 ? y - b3 : 0)
                return (dx * dx + dy * dy).squareRoot() < r
            }
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func queriesMatchBruteForce(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        func value(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        func shape() -> Shape {
            // Mostly inside a 640 × 360 view, some reaching 100 points beyond its edges.
            if Bool.random(using: &random) {
                let x = value(-100...700)
                let y = value(-100...420)
                return .box(x, y, x + value(0...120), y + value(0...40))
            }
            return .circle(value(-100...700), value(-100...420), value(0...30))
        }
        var grid = GridIndex(width: 640, height: 360, cellSize: 32)
        var shapes: [Shape] = []
        for key in 0..<600 {
            let s = shape()
            shapes.append(s)
            switch s {
            case .box(let a, let b, let c, let d): grid.insertBox(minX: a, minY: b, maxX: c, maxY: d, key: UInt32(key))
            case .circle(let x, let y, let r): grid.insertCircle(x: x, y: y, radius: r, key: UInt32(key))
            }
        }
        var hits = 0
        for _ in 0..<400 {
            let q = shape()
            let expected = shapes.indices.filter { shapes[$0].intersects(q) }.map { UInt32($0) }
            let keys: [UInt32]
            let any: Bool
            switch q {
            case .box(let a, let b, let c, let d):
                keys = grid.keysIntersecting(minX: a, minY: b, maxX: c, maxY: d)
                any = grid.intersectsBox(minX: a, minY: b, maxX: c, maxY: d)
            case .circle(let x, let y, let r):
                keys = grid.keysIntersecting(circleX: x, y: y, radius: r)
                any = grid.intersectsCircle(x: x, y: y, radius: r)
            }
            #expect(keys == expected)
            #expect(any == !expected.isEmpty)
            hits += expected.isEmpty ? 0 : 1
        }
        // The data set must exercise both answers.
        #expect(hits > 40 && hits < 390)
    }
}

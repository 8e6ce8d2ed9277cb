import MapGeometry
import Testing

@Suite struct TileIDTests {
    @Test(arguments: [
        (2, -1, 3, -1), (2, 4, 0, 1), (2, 3, 3, 0), (2, -4, 0, -1), (2, -5, 3, -2), (0, 2, 0, 2), (3, 17, 1, 2),
    ])
    func unwrapped(z: Int, unwrappedX: Int, x: Int, wrap: Int) {
        let t = TileID(z: z, unwrappedX: unwrappedX, y: 0)
        #expect(t.x == x)
        #expect(t.wrap == wrap)
        #expect(t.unwrappedX == unwrappedX)
    }

    @Test func parentAndChildren() {
        let t = TileID(z: 5, x: 17, y: 9, wrap: -1)
        #expect(t.parent == TileID(z: 4, x: 8, y: 4, wrap: -1))
        #expect(TileID(z: 0, x: 0, y: 0).parent == nil)
        #expect(
            t.children == [
                TileID(z: 6, x: 34, y: 18, wrap: -1), TileID(z: 6, x: 35, y: 18, wrap: -1),
                TileID(z: 6, x: 34, y: 19, wrap: -1), TileID(z: 6, x: 35, y: 19, wrap: -1),
            ])
        for child in t.children { #expect(child.parent == t) }
        #expect(t.description == "5/17/9@-1")
        #expect(t.canonical.description == "5/17/9")
    }

    @Test func validOnlyOnTheGrid() {
        #expect(TileID.valid(z: 3, x: 7, y: 0) == TileID(z: 3, x: 7, y: 0))
        #expect(TileID.valid(z: 30, x: (1 << 30) - 1, y: 0) == TileID(z: 30, x: (1 << 30) - 1, y: 0))
        for (z, x, y) in [(3, 8, 0), (3, 0, 8), (-1, 0, 0), (31, 0, 0), (2, -1, 0), (2, 0, -1)] {
            #expect(TileID.valid(z: z, x: x, y: y) == nil, "\(z)/\(x)/\(y)")
        }
    }

    @Test func ancestorShiftsAndKeepsTheWorldCopy() {
        let t = TileID(z: 14, x: 9326, y: 4742, wrap: 2)
        #expect(t.ancestor(atZoom: 7) == TileID(z: 7, x: 72, y: 37, wrap: 2))
        #expect(t.ancestor(atZoom: 14) == t)
        #expect(t.ancestor(atZoom: 13) == t.parent)
        #expect(t.ancestor(atZoom: 0) == TileID(z: 0, x: 0, y: 0, wrap: 2))
    }

    @Test func geometry() {
        let t = TileID(z: 3, x: 2, y: 5, wrap: 1)
        #expect(t.northWest == WorldPoint(x: 10.0 / 8, y: 5.0 / 8))
        #expect(t.worldSize == 0.125)
        #expect(TileID.containing(WorldPoint(x: 0.5625, y: 0.3), zoom: 3) == TileID(z: 3, x: 4, y: 2))
        #expect(TileID.containing(WorldPoint(x: -0.01, y: 1.2), zoom: 1) == TileID(z: 1, x: 1, y: 1, wrap: -1))
    }
}

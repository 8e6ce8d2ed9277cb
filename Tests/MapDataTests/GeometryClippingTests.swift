import Testing

@testable import MapData

@Suite struct GeometryClippingTests {
    @Test func pointsOutsideTheBufferAreDropped() {
        let g = VectorTileGeometry.points([pt(-5, 5), pt(-4, 5), pt(14, 14), pt(15, 0), pt(5, 5)])
        #expect(clipGeometry(g, extent: 10, buffer: 4) == .points([pt(-4, 5), pt(14, 14), pt(5, 5)]))
    }

    @Test func lineIsCutAtTheBorder() {
        let g = VectorTileGeometry.lineStrings([[pt(-10, 5), pt(20, 5)]])
        #expect(clipGeometry(g, extent: 10, buffer: 0) == .lineStrings([[pt(0, 5), pt(10, 5)]]))
        // Diagonal through the corner region: y = x − 5 meets x = 10 at y = 5 and y = 0 at x = 5.
        let d = VectorTileGeometry.lineStrings([[pt(0, -5), pt(20, 15)]])
        #expect(clipGeometry(d, extent: 10, buffer: 0) == .lineStrings([[pt(5, 0), pt(10, 5)]]))
    }

    @Test func lineLeavingAndReenteringSplits() {
        let g = VectorTileGeometry.lineStrings([[pt(2, 2), pt(2, 20), pt(8, 20), pt(8, 2)]])
        #expect(
            clipGeometry(g, extent: 10, buffer: 0)
                == .lineStrings([[pt(2, 2), pt(2, 10)], [pt(8, 10), pt(8, 2)]]))
    }

    @Test func lineFullyOutsideVanishes() {
        let g = VectorTileGeometry.lineStrings([[pt(20, 20), pt(30, 30)]])
        #expect(clipGeometry(g, extent: 10, buffer: 0) == .lineStrings([]))
    }

    @Test func polygonIsCutToTheBufferedSquareKeepingWinding() {
        let big = [pt(-10, -10), pt(20, -10), pt(20, 20), pt(-10, 20), pt(-10, -10)]
        let hole = [pt(4, 4), pt(4, 6), pt(6, 6), pt(6, 4), pt(4, 4)]
        let clipped = clipGeometry(.polygons([[big, hole]]), extent: 10, buffer: 2)
        guard case .polygons(let polygons) = clipped else {
            Issue.record("expected polygons")
            return
        }
        #expect(polygons.count == 1)
        let exterior = polygons[0][0]
        #expect(Set(exterior) == [pt(-2, -2), pt(12, -2), pt(12, 12), pt(-2, 12)])
        #expect(exterior.first == exterior.last)
        #expect(signedDoubleArea(exterior) == 2 * 14 * 14)
        #expect(polygons[0][1] == hole)
        #expect(signedDoubleArea(polygons[0][1]) < 0)
    }

    @Test func triangleCutByOneEdge() {
        // Triangle (0,0) (20,0) (0,20) clipped to x,y ≤ 10: the hypotenuse x + y = 20 passes (10,10), so the result is
        // the square (0,0) (10,0) (10,10) (0,10).
        let tri = [pt(0, 0), pt(20, 0), pt(0, 20), pt(0, 0)]
        guard case .polygons(let p) = clipGeometry(.polygons([[tri]]), extent: 10, buffer: 0) else {
            Issue.record("the clipped triangle is not a polygon")
            return
        }
        #expect(Set(p[0][0]) == [pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)])
        #expect(signedDoubleArea(p[0][0]) == 200)
    }

    @Test func polygonOutsideIsDropped() {
        let outside = [pt(20, 20), pt(30, 20), pt(30, 30), pt(20, 20)]
        #expect(clipGeometry(.polygons([[outside]]), extent: 10, buffer: 2) == .polygons([]))
    }
}

@Suite struct GeometryClippingEdgeTests {
    @Test func emptyPartsAreHarmless() {
        #expect(clipGeometry(.lineStrings([[], [pt(1, 1)]]), extent: 10, buffer: 0) == .lineStrings([]))
        #expect(clipGeometry(.polygons([[]]), extent: 10, buffer: 0) == .polygons([]))
        #expect(clipGeometry(.points([]), extent: 10, buffer: 0) == .points([]))
        #expect(clipGeometry(.unknown, extent: 10, buffer: 0) == .unknown)
    }

    @Test func extremeCoordinatesClipWithoutOverflow() {
        let line = VectorTileGeometry.lineStrings([[pt(Int32.min, 5), pt(Int32.max, 5)]])
        #expect(clipGeometry(line, extent: 4096, buffer: 64) == .lineStrings([[pt(-64, 5), pt(4160, 5)]]))
    }
}

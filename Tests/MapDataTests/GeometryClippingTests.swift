import MapGeometry
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

/// Rings and lines wholly inside the buffered square skip the clip passes; the result must be what the passes give.
@Suite struct GeometryClippingInsideTests {
    private struct Sequence {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int32>) -> Int32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int32(truncatingIfNeeded: (state >> 33) % UInt64(range.count))
        }
    }

    @Test func shapesInsideClipAsThePassesClipThem() {
        var random = Sequence(state: 42)
        let extent = 4096
        let buffer = 64
        let box = ClipBox(min: Double(-buffer), max: Double(extent + buffer))
        var compared = 0
        for round in 0..<400 {
            // Edges included: some rings touch the buffered square's border exactly.
            let low: Int32 = round % 4 == 0 ? Int32(-buffer) : -20
            let high: Int32 = round % 4 == 0 ? Int32(extent + buffer) : 4000
            var ring = (0..<(3 + round % 12)).map { _ in
                VectorTilePoint(x: random.next(low...high), y: random.next(low...high))
            }
            if round % 3 == 0 { ring.append(ring[1]) }  // a point again
            if round % 5 == 0 { ring.insert(ring[0], at: 1) }  // a point twice in a row
            if round % 2 == 0 { ring.append(ring[0]) }  // closed, as tiles store rings
            let mapped = ring.map { (Double($0.x), Double($0.y)) }
            guard case .polygons(let polygons) = clipGeometry(.polygons([[ring]]), extent: extent, buffer: buffer)
            else {
                Issue.record("expected polygons")
                return
            }
            #expect(polygons.first?.first == box.clipRing(mapped), "round \(round)")
            guard case .lineStrings(let lines) = clipGeometry(.lineStrings([ring]), extent: extent, buffer: buffer)
            else {
                Issue.record("expected lines")
                return
            }
            #expect(lines == box.clipLine(mapped), "round \(round)")
            // Over-zoomed twice: the quarter of the ancestor at offset (1, 0) mapped into the requested tile.
            let transform = OverzoomTransform(source: TileID(z: 3, x: 2, y: 5), scale: 2, offsetX: 1, offsetY: 0)
            let quarter = ring.map { VectorTilePoint(x: $0.x / 2 + 2048, y: $0.y / 2) }
            let zoomed = quarter.map { transform.apply(x: Double($0.x), y: Double($0.y), extent: extent) }
            guard
                case .polygons(let deeper) = overzoomGeometry(
                    .polygons([[quarter]]), transform: transform, extent: extent, buffer: buffer)
            else {
                Issue.record("expected polygons")
                return
            }
            #expect(deeper.first?.first == box.clipRing(zoomed.map { ($0.x, $0.y) }), "round \(round), over-zoomed")
            compared += 1
        }
        #expect(compared == 400)
    }

    @Test func roundingIsTheStandardLibrarys() {
        for v in [0.5, -0.5, 1.5, -2.5, 0.49999999999999994, -0.49999999999999994, 4096.5, -64.5, 1e15 + 0.5, 0x1p53] {
            #expect(ClipBox.rounded(v).bitPattern == v.rounded().bitPattern, "\(v)")
        }
    }
}

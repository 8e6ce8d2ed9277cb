import MapDrawing
import MapGeometry
import Testing

@Suite struct LineTessellatorTests {
    private func mesh(
        _ points: [ScreenPoint], closed: Bool = false, join: LineJoin = .miter, cap: LineCap = .butt,
        miterLimit: Double = 2, sharpCornerOffset: Double = 0
    ) -> LineMesh {
        var t = LineTessellator(join: join, cap: cap, miterLimit: miterLimit, sharpCornerOffset: sharpCornerOffset)
        t.addLine(points, closed: closed)
        return t.mesh
    }

    private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

    private func length(_ e: ScreenPoint) -> Double { (e.x * e.x + e.y * e.y).squareRoot() }

    @Test func straightSegmentIsOneQuad() {
        let m = mesh([p(0, 0), p(10, 0)])
        #expect(m.vertices.count == 4)
        #expect(m.indices == [0, 1, 2, 2, 1, 3])
        // Left of the normal (screen down, `up` false) then right (screen up, `up` true) at each end.
        #expect(m.vertices.map(\.extrude) == [p(0, 1), p(0, -1), p(0, 1), p(0, -1)])
        #expect(m.vertices.map(\.up) == [false, true, false, true])
        #expect(m.vertices.map(\.distance) == [0, 0, 10, 10])
        #expect(m.vertices.allSatisfy { !$0.round && $0.direction == 0 })
        #expect(m.progressLength == 10)
    }

    @Test func rightAngleMiterIsOnePairOnTheBisector() {
        let m = mesh([p(0, 0), p(10, 0), p(10, 10)])
        #expect(m.vertices.count == 6)
        #expect(m.indices.count == 4 * 3)
        // The corner pair: ±(−1, 1), the miter of length √2.
        #expect(m.vertices[2].center == p(10, 0))
        #expect(m.vertices[2].extrude == p(-1, 1))
        #expect(m.vertices[3].extrude == p(1, -1))
        #expect(m.vertices[4].distance == 20)
    }

    @Test func bevelJoinCutsTheCornerWithTwoPairs() {
        let m = mesh([p(0, 0), p(10, 0), p(10, 10)], join: .bevel)
        #expect(m.vertices.count == 8)
        #expect(m.indices.count == 6 * 3)
        // Both corner pairs sit on the corner; one ends the first segment, one starts the second.
        #expect(m.vertices[2...5].allSatisfy { $0.center == p(10, 0) })
    }

    @Test func turnBeyondTheMiterLimitBecomesAFlipBevel() {
        // A near reversal: the miter would be ~20 widths long.
        let m = mesh([p(0, 0), p(100, 0), p(0, 10)])
        #expect(m.vertices.count == 8)
        #expect(m.indices.count == 6 * 3)
        // Byte extrusions never exceed 128 / 63.
        #expect(m.vertices.allSatisfy { abs($0.extrude.x) <= 128.0 / 63 && abs($0.extrude.y) <= 128.0 / 63 })
        // The two corner pairs are mirror images (the fold).
        #expect(m.vertices[2].extrude == p(-m.vertices[4].extrude.x, -m.vertices[4].extrude.y))
    }

    @Test func moderateRoundJoinIsAFakeRoundFan() {
        let m = mesh([p(0, 0), p(10, 0), p(10, 10)], join: .round)
        // Two pairs on the corner plus 3 fan vertices (≈ 88° in 20° steps), 2 pairs at the ends.
        #expect(m.vertices.count == 11)
        #expect(m.indices.count == 9 * 3)
        let fan = m.vertices[4...6]
        #expect(fan.allSatisfy { abs(length($0.extrude) - 1) < 0.03 && !$0.round })
    }

    @Test func sharpRoundJoinAndRoundCapsUseRoundVertices() {
        let join = mesh([p(0, 0), p(10, 0), p(0, 5)], join: .round)
        #expect(join.vertices.count == 12)
        #expect(join.vertices.filter(\.round).count == 4)
        let caps = mesh([p(0, 0), p(10, 0)], cap: .round)
        #expect(caps.vertices.count == 8)
        #expect(caps.indices.count == 6 * 3)
        // The start cap reaches half a width back along the line.
        #expect(caps.vertices[0].round && caps.vertices[0].extrude == p(-1, 1))
        #expect(caps.vertices[0].direction == -1)
        #expect(caps.vertices[7].round && caps.vertices[7].extrude == p(1, -1))
    }

    @Test func squareCapsPushTheEndsOut() {
        let m = mesh([p(0, 0), p(10, 0)], cap: .square)
        #expect(m.vertices.count == 4)
        #expect(m.vertices[0].extrude == p(-1, 1))
        #expect(m.vertices[3].extrude == p(1, -1))
    }

    @Test func closedRingJoinsItsLastPointToItsFirst() {
        let square = [p(0, 0), p(10, 0), p(10, 10), p(0, 10)]
        let m = mesh(square, closed: true)
        // Four miter corners plus the repeated first corner that closes the ring.
        #expect(m.vertices.count == 10)
        #expect(m.indices.count == 8 * 3)
        #expect(m.vertices[0].extrude == m.vertices[8].extrude)
        #expect(m.vertices[0].extrude == p(1, 1))
        // Repeating the first point explicitly changes nothing.
        #expect(mesh(square + [p(0, 0)], closed: true) == m)
    }

    @Test func duplicatePointsAreDropped() {
        let m = mesh([p(0, 0), p(0, 0), p(10, 0), p(10, 0), p(10, 0)])
        #expect(m == mesh([p(0, 0), p(10, 0)]))
    }

    @Test func sharpCornersNextToLongSegmentsAreSplit() {
        let plain = mesh([p(0, 0), p(100, 0), p(0, 10)])
        let split = mesh([p(0, 0), p(100, 0), p(0, 10)], sharpCornerOffset: 5)
        #expect(split.vertices.count == plain.vertices.count + 4)
        #expect(split.vertices[2].center == p(95, 0))
    }

    @Test func extrusionsAreQuantisedToSixtyThirds() {
        let m = mesh([p(0, 0), p(10, 3), p(17, -4)], join: .round)
        for v in m.vertices {
            #expect(abs((v.extrude.x * 63).rounded() - v.extrude.x * 63) < 1e-9)
            #expect(abs((v.extrude.y * 63).rounded() - v.extrude.y * 63) < 1e-9)
        }
    }

    @Test func degenerateInputDrawsNothing() {
        #expect(mesh([]).isEmpty)
        #expect(mesh([p(1, 1)]).isEmpty)
        #expect(mesh([p(1, 1), p(1, 1), p(1, 1)]).isEmpty)
        #expect(mesh([p(0, 0), p(.nan, 1), p(5, 5)]).isEmpty)
        #expect(mesh([p(0, 0), p(.infinity, 1)]).isEmpty)
        #expect(mesh([p(2, 2), p(2, 2), p(2, 2)], closed: true).isEmpty)
        var t = LineTessellator()
        t.addLine(coordinates: [0, 0, 1], closed: false)
        #expect(t.mesh.isEmpty)
    }

    @Test func everyPolylineRestartsItsDistance() {
        var t = LineTessellator()
        t.addLine([p(0, 0), p(30, 0)])
        t.addLine([p(0, 10), p(5, 10)])
        #expect(t.mesh.vertices.count == 8)
        #expect(t.mesh.indices.count == 4 * 3)
        #expect(t.mesh.vertices[4].distance == 0)
        #expect(t.mesh.progressLength == 30)
        // The second line's triangles use only its own vertices.
        #expect(t.mesh.indices[6...].allSatisfy { $0 >= 4 })
    }
}

import MapDrawing
import MapGeometry
import Testing

@Suite struct HairlineMeshTests {
    private func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }

    private func path(_ points: [ScreenPoint], closed: Bool) -> RenderPath {
        var path = RenderPath()
        path.move(to: points[0])
        for q in points.dropFirst() { path.line(to: q) }
        if closed { path.close() }
        return path
    }

    private func alpha(_ image: RasterImage, _ x: Int, _ y: Int) -> Int {
        Int(image.pixels[(y * image.width + x) * 4 + 3])
    }

    @Test func aClosedRingGivesOneQuadPerSegmentWithUnitNormals() {
        let square = [p(2, 2), p(10, 2), p(10, 10), p(2, 10)]
        let mesh = LineMesh.segments(of: path(square, closed: true))
        #expect(mesh.vertices.count == 16)
        #expect(mesh.indices.count == 24)
        for quad in 0..<4 {
            let a = square[quad]
            let b = square[(quad + 1) % 4]
            let v = Array(mesh.vertices[(4 * quad)..<(4 * quad + 4)])
            #expect(v.map(\.center) == [a, a, b, b])
            #expect(v.map(\.up) == [true, false, true, false])
            #expect(v.allSatisfy { !$0.round })
            for vertex in v {
                let e = vertex.extrude
                #expect(abs(e.x * e.x + e.y * e.y - 1) < 1e-12)
                #expect(abs(e.x * (b.x - a.x) + e.y * (b.y - a.y)) < 1e-12)
            }
        }
    }

    @Test func anOpenPathHasNoClosingSegmentAndSkipsEmptySegments() {
        let mesh = LineMesh.segments(of: path([p(0, 0), p(0, 0), p(5, 0), p(5, 4)], closed: false))
        #expect(mesh.vertices.count == 8)
        #expect(mesh.indices.count == 12)
        #expect(LineMesh.segments(of: RenderPath()).isEmpty)
    }

    @Test func oneDevicePixelWideItFadesOutOnePixelFromTheSegment() {
        // MapLibre's fill outline: alpha 1 on the segment, 0 one device pixel away; one pixel of ink across.
        for (y, rows) in [(5.5, [4: 0, 5: 255, 6: 0]), (6.0, [4: 0, 5: 128, 6: 128, 7: 0])] {
            var image = RasterImage(width: 12, height: 12)
            let mesh = LineMesh.segments(of: path([p(2, y), p(10, y)], closed: false))
            LineRasterizer.draw(
                LineMeshCommand(mesh: mesh, paint: .solid(.black), width: 1), into: &image, transform: .identity,
                pixelRatio: 1)
            for (row, expected) in rows {
                for x in 2..<10 { #expect(abs(alpha(image, x, row) - expected) <= 1, "pixel \(x),\(row) at y \(y)") }
            }
            // Butt ends: nothing before the first vertex or after the last.
            #expect(alpha(image, 1, 5) == 0)
            #expect(alpha(image, 10, 5) == 0)
        }
    }
}

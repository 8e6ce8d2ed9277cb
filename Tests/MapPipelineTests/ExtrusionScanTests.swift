import Testing

@testable import MapPipeline

/// The extrusion raster's scan conversion and depth test (ExtrusionScan.swift, ``ExtrusionRaster``): which pixel
/// centres a face covers, and which face a pixel keeps.
@Suite struct ExtrusionScanTests {
    /// A ring of `points` at `depth` (t = 0), appended to the raster's face as one more ring.
    private func ring(_ points: [(Double, Double)], depth: Double = 10, into raster: ExtrusionRaster) {
        raster.vertices += points.map { ExtrusionRaster.Vertex(x: $0.0, y: $0.1, depth: depth, t: 0) }
        raster.ringEnds.append(raster.vertices.count)
    }

    /// The runs the scan converter reports for the raster's face: `(row, x0, x1)`.
    private func runs(_ raster: ExtrusionRaster) -> [[Int]] {
        var out: [[Int]] = []
        raster.vertices.withUnsafeBufferPointer { all in
            raster.ringEnds.withUnsafeBufferPointer { ends in
                guard let rows = raster.rows(of: all) else { return }
                raster.scan(all, ends, rows: rows) { row, _, x0, x1 in out.append([row, x0, x1]) }
            }
        }
        return out
    }

    /// The BGRA word of the layer's pixel `(x, y)`.
    private func pixel(_ raster: ExtrusionRaster, _ x: Int, _ y: Int) -> UInt32 {
        let i = (y * raster.width + x) * 4
        let p = raster.pixels
        return UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
    }

    @Test func aRectangleCoversThePixelCentresInsideItsTopAndLeftEdges() {
        let raster = ExtrusionRaster()
        raster.beginLayer(width: 8, height: 8)
        // Edges through pixel centres: x = 1.5 and y = 1.5 are inside, x = 4.5 and y = 3.5 outside.
        ring([(1.5, 1.5), (4.5, 1.5), (4.5, 3.5), (1.5, 3.5)], into: raster)
        #expect(runs(raster) == [[1, 1, 3], [2, 1, 3]])
    }

    @Test func aHoleIsLeftOutEvenOdd() {
        let raster = ExtrusionRaster()
        raster.beginLayer(width: 8, height: 8)
        ring([(0, 0), (6, 0), (6, 6), (0, 6)], into: raster)
        ring([(2, 2), (2, 4), (4, 4), (4, 2)], into: raster)
        let spans = runs(raster)
        #expect(spans.filter { $0[0] == 3 } == [[3, 0, 1], [3, 4, 5]])
        #expect(spans.filter { $0[0] == 0 } == [[0, 0, 5]])
        #expect(spans.count == 8)
    }

    @Test func aFaceBeyondTheFrameOrNotFiniteCoversNothing() {
        let raster = ExtrusionRaster()
        raster.beginLayer(width: 8, height: 8)
        ring([(-20, 1), (-2, 1), (-2, 5)], into: raster)
        #expect(runs(raster).isEmpty)
        raster.vertices = []
        raster.ringEnds = []
        ring([(1, 1), (.infinity, 1), (1, 5)], into: raster)
        #expect(runs(raster).isEmpty)
        raster.vertices = []
        raster.ringEnds = []
        // Clipped to the frame: a face far larger than it covers every pixel once.
        ring([(-1e12, -1e12), (1e12, -1e12), (1e12, 1e12), (-1e12, 1e12)], into: raster)
        #expect(runs(raster) == (0..<8).map { [$0, 0, 7] })
    }

    @Test func theNearerFaceWinsAndATieKeepsTheFirstDrawn() {
        let raster = ExtrusionRaster()
        _ = raster.beginFrame()
        raster.beginLayer(width: 8, height: 8)
        let red = (1.0, 0.0, 0.0)
        let blue = (0.0, 0.0, 1.0)
        // Far red square, then a nearer blue one over its right three columns: blue shows there.
        ring([(0, 0), (8, 0), (8, 8), (0, 8)], depth: 20, into: raster)
        raster.fill(bottom: red, top: red)
        ring([(5, 0), (8, 0), (8, 8), (5, 8)], depth: 10, into: raster)
        raster.fill(bottom: blue, top: blue)
        #expect(pixel(raster, 4, 1) == 0xFFFF_0000)
        #expect(pixel(raster, 5, 1) == 0xFF00_00FF)
        #expect(pixel(raster, 7, 7) == 0xFF00_00FF)
        // A farther face drawn later changes nothing; one at the same depth neither.
        ring([(0, 0), (8, 0), (8, 8), (0, 8)], depth: 30, into: raster)
        raster.fill(bottom: blue, top: blue)
        ring([(0, 0), (4, 0), (4, 8), (0, 8)], depth: 20, into: raster)
        raster.fill(bottom: blue, top: blue)
        #expect(pixel(raster, 1, 1) == 0xFFFF_0000)
        #expect(raster.layerBox.minX == 0 && raster.layerBox.maxX == 7)
    }
}

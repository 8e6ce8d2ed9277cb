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

    /// Draws `faces` (quads of corners, depths, t, bottom and top colours) into `raster`, queued and drawn band by
    /// band when `queued`, against each band's own depths when `local`.
    private func draw(_ faces: [Face], into raster: ExtrusionRaster, queued: Bool, local: Bool = false) {
        raster.defersFaces = queued
        raster.bandLocalDepth = local
        for face in faces {
            raster.vertices = face.corners.indices.map {
                ExtrusionRaster.Vertex(
                    x: face.corners[$0].0, y: face.corners[$0].1, depth: face.depths[$0], t: face.t[$0])
            }
            raster.ringEnds = [raster.vertices.count]
            raster.fill(bottom: face.bottom, top: face.top)
        }
        if queued { raster.drawQueuedFaces() }
    }

    private struct Face {
        var corners: [(Double, Double)]
        var depths: [Double]
        var t: [Double]
        var bottom: (Double, Double, Double)
        var top: (Double, Double, Double)
    }

    /// `count` overlapping quads over a `width × height` frame (some at equal depths, some with a gradient), from a
    /// fixed seed.
    private func faces(_ count: Int, width: Double, height: Double, seed: UInt64) -> [Face] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { k in
            let (x, y) = (next() * width * 1.2 - width * 0.1, next() * height * 1.2 - height * 0.1)
            let (w, h) = (next() * width * 0.4, next() * height * 0.6)
            let skew = next() * 20 - 10
            let corners = [(x, y), (x + w, y + skew), (x + w + skew, y + h), (x - skew, y + h + skew)]
            let flat = k % 3 == 0
            let depths = flat ? Array(repeating: 10 + Double(k % 4), count: 4) : (0..<4).map { _ in 5 + next() * 20 }
            let bottom = (next(), next(), next())
            let top = k % 2 == 0 ? bottom : (next(), next(), next())
            return Face(corners: corners, depths: depths, t: [0, 0, 1, 1], bottom: bottom, top: top)
        }
    }

    @Test func facesDrawnBandByBandMatchThemDrawnOneAfterAnother() {
        let (width, height) = (203, 301)
        let scene = faces(120, width: Double(width), height: Double(height), seed: 7)
        var results: [([UInt8], [Float])] = []
        for (queued, local) in [(false, false), (true, false), (true, true)] {
            let raster = ExtrusionRaster()
            for _ in 0..<2 {
                // Twice: the second frame's band depths start from the first's leftovers.
                _ = raster.beginFrame()
                raster.beginLayer(width: width, height: height)
                draw(scene, into: raster, queued: queued, local: local)
            }
            let depths = Array(UnsafeBufferPointer(start: raster.inverseDepth, count: width * height))
            results.append((raster.pixels, depths))
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].1 == results[1].1)
        #expect(results[0].0 == results[2].0)
        // Band-local depths leave the frame's depth buffer alone.
        #expect(!results[2].1.contains { $0 != 0 })
        // The scene reaches every band and leaves some pixels empty.
        #expect(results[1].1.prefix(width * 64).contains { $0 > 0 })
        #expect(results[1].1.suffix(width * 64).contains { $0 > 0 })
        #expect(results[1].1.contains(0))
        #expect(results[0].0.contains { $0 != 0 })
    }

    /// `fill-extrusion-opacity` is multiplied into the pixels the faces draw (so the layer's image is composited as
    /// it is): every byte is the opaque byte multiplied as pixman multiplies two bytes, by the byte Cairo would paint
    /// the opaque image at, in each way faces are drawn.
    @Test func theLayersOpacityIsMultipliedIntoEveryByteDrawn() {
        #expect(ExtrusionRaster.opacityByte(1) == 255)
        #expect(ExtrusionRaster.opacityByte(0.9) == 230)
        #expect(ExtrusionRaster.opacityByte(0.5) == 128)
        #expect(ExtrusionRaster.opacityByte(0) == 0)
        #expect((0...255).allSatisfy { ExtrusionRaster.scaled(UInt8($0), 255) == UInt8($0) })
        #expect(ExtrusionRaster.scaled(200, 230) == 180)  // 200 × 230 / 255 = 180.4
        let (width, height) = (97, 141)
        let scene = faces(60, width: Double(width), height: Double(height), seed: 11)
        let alpha = ExtrusionRaster.opacityByte(0.6)
        for (queued, local) in [(false, false), (true, false), (true, true)] {
            var drawn: [[UInt8]] = []
            for opacity in [UInt8(255), alpha] {
                let raster = ExtrusionRaster()
                _ = raster.beginFrame()
                raster.beginLayer(width: width, height: height)
                raster.opacity = opacity
                draw(scene, into: raster, queued: queued, local: local)
                drawn.append(raster.pixels)
            }
            #expect(drawn[0].contains { $0 != 0 })
            #expect(drawn[1] == drawn[0].map { ExtrusionRaster.scaled($0, alpha) })
        }
    }

    @Test func aNewFramesQueuedFacesAreNotHiddenByTheLastFramesDepths() {
        let raster = ExtrusionRaster()
        let red = (1.0, 0.0, 0.0)
        let blue = (0.0, 0.0, 1.0)
        _ = raster.beginFrame()
        raster.beginLayer(width: 8, height: 80)
        draw(
            [
                Face(
                    corners: [(0, 0), (8, 0), (8, 80), (0, 80)], depths: [5, 5, 5, 5], t: [0, 0, 1, 1], bottom: red,
                    top: red)
            ],
            into: raster, queued: true)
        #expect(pixel(raster, 3, 70) == 0xFFFF_0000)
        _ = raster.beginFrame()
        raster.beginLayer(width: 8, height: 80)
        // Farther than the last frame's face, over its lower part only: drawn; the rest of the frame is empty.
        draw(
            [
                Face(
                    corners: [(0, 40), (8, 40), (8, 80), (0, 80)], depths: [50, 50, 50, 50], t: [0, 0, 1, 1],
                    bottom: blue, top: blue)
            ],
            into: raster, queued: true)
        #expect(pixel(raster, 3, 70) == 0xFF00_00FF)
        #expect(pixel(raster, 3, 10) == 0)
        #expect(raster.inverseDepth[10 * 8 + 3] == 0)
        #expect(raster.inverseDepth[70 * 8 + 3] == Float(1.0 / 50))
    }

    @Test func aLevelFaceHoldsItsOneDepthAtEveryPixel() {
        let raster = ExtrusionRaster()
        _ = raster.beginFrame()
        raster.beginLayer(width: 40, height: 30)
        let grey = (0.5, 0.5, 0.5)
        draw(
            [
                Face(
                    corners: [(2.3, 1.7), (37.1, 4.2), (33.6, 28.9), (5.5, 25.1)], depths: [7, 7, 7, 7],
                    t: [0, 0, 1, 1], bottom: grey, top: grey)
            ],
            into: raster, queued: true)
        let depths = Array(UnsafeBufferPointer(start: raster.inverseDepth, count: 40 * 30))
        #expect(Set(depths.filter { $0 != 0 }) == [Float(1.0 / 7)])
        #expect(depths.filter { $0 != 0 }.count > 500)
    }
}

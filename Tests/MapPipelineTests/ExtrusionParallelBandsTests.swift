import Foundation
import MapData
import MapGeometry
import MapStyle
import Testing

@testable import MapPipeline

/// The extrusion raster's bands of queued faces drawn on several threads (ExtrusionBands.swift): the same pixels,
/// depths and boxes as on one thread, each band writing its own rows alone, each thread with storage of its own.
@Suite struct ExtrusionParallelBandsTests {
    private struct Face {
        var rings: [[(Double, Double)]]
        var depths: [Double]
        var t: [Double]
        var bottom: (Double, Double, Double)
        var top: (Double, Double, Double)
    }

    /// `count` overlapping faces over a `width × height` frame from a fixed seed: quads (some level, some with a
    /// gradient), and every fifth a many-sided ring with a hole (a face with more edges than the others, so scratch
    /// storage grows mid-frame).
    private func scene(_ count: Int, width: Double, height: Double, seed: UInt64) -> [Face] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { k in
            let (x, y) = (next() * width * 1.2 - width * 0.1, next() * height * 1.2 - height * 0.1)
            let (w, h) = (next() * width * 0.4, next() * height * 0.5)
            let bottom = (next(), next(), next())
            let top = k % 2 == 0 ? bottom : (next(), next(), next())
            if k % 5 == 4 {
                // A star of 40 points around (x, y) with a square hole, at one depth or tilted.
                let sides = 40
                let outer = (0..<sides).map { i -> (Double, Double) in
                    let a = Double(i) * 2 * .pi / Double(sides)
                    let r = (i % 2 == 0 ? 1 : 0.6) * (w + h) / 3
                    return (x + r * cos(a), y + r * sin(a))
                }
                let s = (w + h) / 20
                let hole = [(x - s, y - s), (x - s, y + s), (x + s, y + s), (x + s, y - s)]
                let tilted = k % 10 == 9
                let depths = (0..<(sides + 4)).map { i in tilted ? 6 + Double(i % 7) * 0.01 : 9 }
                return Face(
                    rings: [outer, hole], depths: depths, t: Array(repeating: 1, count: sides + 4), bottom: bottom,
                    top: top)
            }
            let skew = next() * 20 - 10
            let corners = [(x, y), (x + w, y + skew), (x + w + skew, y + h), (x - skew, y + h + skew)]
            let level = k % 3 == 0
            let depths = level ? Array(repeating: 10 + Double(k % 4), count: 4) : (0..<4).map { _ in 5 + next() * 20 }
            return Face(rings: [corners], depths: depths, t: [0, 0, 1, 1], bottom: bottom, top: top)
        }
    }

    /// Queues `faces` in `raster` (its depth test on band depths when `local`).
    private func queue(_ faces: [Face], into raster: ExtrusionRaster, local: Bool) {
        raster.defersFaces = true
        raster.bandLocalDepth = local
        for face in faces {
            var k = 0
            for ring in face.rings {
                for (x, y) in ring {
                    raster.vertices.append(ExtrusionRaster.Vertex(x: x, y: y, depth: face.depths[k], t: face.t[k]))
                    k += 1
                }
                raster.ringEnds.append(raster.vertices.count)
            }
            raster.fill(bottom: face.bottom, top: face.top)
        }
    }

    private struct Drawn: Equatable {
        var pixels: [UInt8]
        var depths: [Float]
        var layerBox: [Int]
        var depthBox: [Int]
    }

    private func boxValues(_ box: ExtrusionRaster.PixelBox) -> [Int] {
        box.isEmpty ? [] : [box.minX, box.minY, box.maxX, box.maxY]
    }

    /// Two frames of `scenes` (one layer each) drawn on up to `threads` threads, sharing out any work; what the
    /// second left.
    private func draw(
        _ scenes: [[Face]], width: Int, height: Int, threads: Int, local: Bool
    ) -> (Drawn, ExtrusionRaster) {
        let raster = ExtrusionRaster()
        raster.threads = threads
        raster.parallelWork = 0
        for faces in scenes {
            _ = raster.beginFrame()
            raster.beginLayer(width: width, height: height)
            queue(faces, into: raster, local: local)
            raster.drawQueuedFaces()
        }
        let depths = Array(UnsafeBufferPointer(start: raster.inverseDepth, count: width * height))
        return (
            Drawn(
                pixels: raster.pixels, depths: depths, layerBox: boxValues(raster.layerBox),
                depthBox: boxValues(raster.depthBox)), raster
        )
    }

    @Test(arguments: [false, true])
    func bandsDrawnOnSeveralThreadsMatchThemDrawnOnOne(local: Bool) {
        // 11 bands, the last a partial one.
        let (width, height) = (257, 701)
        for seed: UInt64 in [3, 11] {
            let scenes = [
                scene(150, width: Double(width), height: Double(height), seed: seed),
                scene(90, width: Double(width), height: Double(height), seed: seed + 100),
            ]
            let (serial, _) = draw(scenes, width: width, height: height, threads: 1, local: local)
            // The scene reaches the first and last bands and leaves pixels empty.
            #expect(serial.pixels.prefix(width * 4 * 64).contains { $0 != 0 })
            #expect(serial.pixels.suffix(width * 4 * 60).contains { $0 != 0 })
            #expect(serial.pixels.contains(0))
            #expect(serial.depths.contains { $0 != 0 } == !local)
            for threads in [2, 3, 4, 16] {
                let (parallel, raster) = draw(scenes, width: width, height: height, threads: threads, local: local)
                #expect(parallel == serial, "threads \(threads), seed \(seed)")
                #expect(raster.bandWorkers.count == min(threads, 11))
            }
        }
    }

    @Test func manyParallelDrawsNeverDifferFromTheSerialOne() {
        // Threads racing on shared storage would, now and then, drop or smear a span: drawn again and again.
        let (width, height) = (301, 517)
        let scenes = [scene(200, width: Double(width), height: Double(height), seed: 29)]
        let (serial, _) = draw(scenes, width: width, height: height, threads: 1, local: true)
        var differing = 0
        for _ in 0..<25 {
            let (parallel, _) = draw(scenes, width: width, height: height, threads: 4, local: true)
            if parallel != serial { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test func eachThreadHasItsOwnScratchAndBandDepths() {
        let (width, height) = (120, 400)
        let (_, raster) = draw(
            [scene(80, width: Double(width), height: Double(height), seed: 5)], width: width, height: height,
            threads: 4, local: true)
        let workers = raster.bandWorkers
        #expect(workers.count == 4)
        #expect(Set(workers.map { ObjectIdentifier($0) }).count == 4)
        #expect(Set(workers.map { ObjectIdentifier($0.scratch) }).count == 4)
        #expect(!workers.contains { $0.scratch === raster.scanScratch })
        let depths = workers.compactMap { $0.depth.map { UInt(bitPattern: $0) } }
        #expect(Set(depths).count == depths.count)
        // Band depths are left all 0 between bands.
        for worker in workers {
            guard let depth = worker.depth else { continue }
            #expect(!UnsafeBufferPointer(start: depth, count: width * ExtrusionRaster.bandRows).contains { $0 != 0 })
        }
    }

    @Test(arguments: [false, true])
    func aBandWritesItsOwnRowsAloneAndTheBandsMakeTheFrame(local: Bool) {
        // Each band drawn on its own into an empty frame, with a worker of its own and its faces picked by the test:
        // it changes no pixel or depth outside its rows, and the bands' rows put together are the frame drawn on one
        // thread.
        let (width, height) = (150, 300)
        let bandRows = ExtrusionRaster.bandRows
        let bands = (height + bandRows - 1) / bandRows
        let faces = scene(90, width: Double(width), height: Double(height), seed: 17)
        let (serial, _) = draw([faces], width: width, height: height, threads: 1, local: local)
        let raster = ExtrusionRaster()
        _ = raster.beginFrame()
        raster.beginLayer(width: width, height: height)
        queue(faces, into: raster, local: local)
        let queued = raster.queuedFaces
        var joined = [UInt8](repeating: 0, count: width * height * 4)
        var joinedDepths = [Float](repeating: 0, count: width * height)
        var outside = 0
        for band in 0..<bands {
            let rows = (band * bandRows)...(min((band + 1) * bandRows, height) - 1)
            var starts = [Int](repeating: 0, count: bands + 1)
            let order = queued.indices.filter { rows.overlaps(queued[$0].minRow...queued[$0].maxRow) }.map { Int32($0) }
            for b in (band + 1)...bands { starts[b] = order.count }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            var depths = [Float](repeating: 0, count: width * height)
            let worker = ExtrusionRaster.BandWorker()
            raster.queuedVertices.withUnsafeBufferPointer { vertices in
                raster.queuedEnds.withUnsafeBufferPointer { ends in
                    queued.withUnsafeBufferPointer { faces in
                        starts.withUnsafeBufferPointer { starts in
                            order.withUnsafeBufferPointer { order in
                                pixels.withUnsafeMutableBufferPointer { pixels in
                                    depths.withUnsafeMutableBufferPointer { depths in
                                        let job = ExtrusionRaster.BandJob(
                                            vertices: vertices, ends: ends, faces: faces, starts: starts,
                                            order: order, pixels: pixels.baseAddress!, bytesPerRow: width * 4,
                                            width: width, height: height, local: local,
                                            inverseDepth: depths.baseAddress!,
                                            staleDepth: ExtrusionRaster.PixelBox(),
                                            staleLayer: ExtrusionRaster.PixelBox(), opacity: 255)
                                        ExtrusionRaster.drawBand(band, job, worker)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for y in 0..<height {
                let pixelRow = (y * width * 4)..<((y + 1) * width * 4)
                let depthRow = (y * width)..<((y + 1) * width)
                if rows.contains(y) {
                    joined.replaceSubrange(pixelRow, with: pixels[pixelRow])
                    joinedDepths.replaceSubrange(depthRow, with: depths[depthRow])
                } else {
                    outside += pixels[pixelRow].filter { $0 != 0 }.count + depths[depthRow].filter { $0 != 0 }.count
                }
            }
            if !worker.layerBox.isEmpty {
                #expect(rows.contains(worker.layerBox.minY) && rows.contains(worker.layerBox.maxY))
            }
        }
        #expect(outside == 0)
        #expect(joined == serial.pixels)
        #expect(joinedDepths == serial.depths)
    }
}

/// A plain extrusion layer's tiles queued on several threads (ExtrusionQueueing.swift): the same faces in the same
/// order as queued one tile after another.
@Suite struct ExtrusionParallelQueueTests {
    /// Buildings on the tiles around Helsinki at z16 from a fixed seed: boxes and L-shapes, some with a courtyard,
    /// some shifted on the ground, a few tall enough to reach behind the near plane of a pitched camera.
    private func tiles(_ camera: CameraTransform, seed: UInt64, shifted: Bool) -> [ExtrusionRaster.PlainTile] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let centre = TileID.containing(WebMercator.worldPoint(camera.state.center), zoom: 16)
        var out: [ExtrusionRaster.PlainTile] = []
        for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)] {
            let tile = TileID(z: 16, x: centre.x + dx, y: centre.y + dy)
            let count = 20 + Int(next() * 60)
            let features = (0..<count).map { k -> ExtrusionFeature in
                let (x, y) = (next() * 4000, next() * 4000)
                let (w, h) = (40 + next() * 300, 40 + next() * 300)
                func point(_ px: Double, _ py: Double) -> VectorTilePoint {
                    VectorTilePoint(x: Int32(px.rounded()), y: Int32(py.rounded()))
                }
                var outer = [point(x, y), point(x + w, y), point(x + w, y + h / 2), point(x + w / 2, y + h / 2)]
                outer += [point(x + w / 2, y + h), point(x, y + h), point(x, y)]
                var rings = [outer]
                if k % 4 == 0 {
                    let (cx, cy) = (x + w / 4, y + h / 4)
                    rings.append([point(cx, cy), point(cx, cy + 10), point(cx + 10, cy + 10), point(cx, cy)])
                }
                let height = k % 17 == 0 ? 20_000 : 5 + next() * 60
                let base = k % 3 == 0 ? next() * 5 : 0
                let polygon = ExtrusionPolygon(
                    rings: rings, minX: x.rounded(), minY: y.rounded(), maxX: (x + w).rounded(),
                    maxY: (y + h).rounded(), winding: MapRenderer.signedArea(outer))
                return ExtrusionFeature(
                    draw: k, extent: 4096, height: height, base: base,
                    color: StyleColor(red: next(), green: next(), blue: next(), alpha: 0.5 + next() / 2),
                    polygons: [polygon])
            }
            let grounds = shifted && dx == 1 ? features.map { _ in (next() * 20 - 10, next() * 20 - 10) } : []
            out.append(ExtrusionRaster.PlainTile(tile: tile, features: features, grounds: grounds))
        }
        return out
    }

    /// The faces `raster` queued, each as its record's numbers and its vertices'.
    private func queued(_ raster: ExtrusionRaster) -> [[Double]] {
        raster.queuedFaces.map { face in
            var values = [face.minRow, face.maxRow, face.count, face.endsCount].map(Double.init)
            values += [face.w.0, face.w.1, face.w.2, face.tw.0, face.tw.1, face.tw.2]
            values += [face.bottom.0, face.bottom.1, face.bottom.2, face.top.0, face.top.1, face.top.2]
            for v in raster.queuedVertices[face.start..<(face.start + face.count)] {
                values += [v.x, v.y, v.depth, v.t]
            }
            let ends = raster.queuedEnds[face.endsStart..<(face.endsStart + face.endsCount)]
            return values + ends.map(Double.init)
        }
    }

    @Test(arguments: [0.0, 55.0])
    func tilesQueuedOnSeveralThreadsQueueTheFacesQueuedOnOne(pitch: Double) {
        let state = CameraState(
            center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 16.4, bearing: 20, pitch: pitch,
            size: ScreenSize(width: 640, height: 400))
        let camera = CameraTransform(state)
        let frame = ExtrusionRaster.PlainFrame(
            camera: camera, light: ExtrusionLight(bearing: 20), verticalGradient: true, scale: 2, width: 1280,
            height: 800)
        let scene = tiles(camera, seed: 41, shifted: true)
        var results: [[[Double]]] = []
        for threads in [1, 2, 3, 8] {
            let raster = ExtrusionRaster()
            raster.threads = threads
            raster.parallelQueueing = 0
            // Twice: the second frame's queues start from the first's storage.
            for _ in 0..<2 {
                raster.queuedVertices.removeAll()
                raster.queuedEnds.removeAll()
                raster.queuedFaces.removeAll()
                raster.queuePlainFaces(scene, frame)
            }
            results.append(queued(raster))
            // A queue a run of up to 64 polygons of a tile (a polygon a feature here) when shared out.
            let runs = scene.reduce(0) { $0 + ($1.features.count + 63) / 64 }
            #expect(raster.tileQueues.count == (threads == 1 ? 1 : runs))
            #expect(!raster.tileQueues.dropFirst().contains { !$0.faces.records.isEmpty || !$0.faces.vertices.isEmpty })
        }
        #expect(results[0].count > 300)
        for result in results.dropFirst() { #expect(result == results[0]) }
    }
}

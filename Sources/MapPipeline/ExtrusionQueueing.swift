import Dispatch
import MapData
import MapGeometry

// A plain fill-extrusion layer's faces projected and queued tile by tile (``ExtrusionRaster/queuePlainFaces(_:_:)``):
// each run of a tile's features into a queue of its own, on several threads when the layer has many polygons, the
// queues then put one after another in tile and feature order. Each face is projected, culled, lit and prepared with the same
// arithmetic, and queued in the same order (tiles, features, polygons; walls ring by ring, then the roof), as when
// the tiles are queued one after another: the same faces, so the same pixels (ExtrusionBands.swift draws them).

extension ExtrusionRaster {
    /// What queueing a tile's plain faces reads: its features (ExtrusionPrepared.swift) and each one's shift on the
    /// ground (`fill-extrusion-translate`, world points; empty when the layer sets none).
    struct PlainTile: @unchecked Sendable {
        let tile: TileID
        let features: [ExtrusionFeature]
        let grounds: [(Double, Double)]
        /// The polygons of its features (how much work it is).
        let polygons: Int

        init(tile: TileID, features: [ExtrusionFeature], grounds: [(Double, Double)]) {
            self.tile = tile
            self.features = features
            self.grounds = grounds
            polygons = features.reduce(0) { $0 + $1.polygons.count }
        }
    }

    /// What every tile's plain faces share in a frame.
    struct PlainFrame: @unchecked Sendable {
        let camera: CameraTransform
        let light: ExtrusionLight
        let verticalGradient: Bool
        /// Device pixels per point, and the frame in device pixels.
        let scale: Double
        let width: Int
        let height: Int
    }

    /// Faces queued for ``drawQueuedFaces()`` (their vertices, ring ends and records, as ``queuedVertices``,
    /// ``queuedEnds`` and ``queuedFaces``), with the scratch storage of the face being made (``Faces``). Used by one
    /// thread at a time. A thread queueing into it takes its ``faces`` out for the while: a local value's arrays are
    /// not checked for exclusive access at each use, as a class's stored properties are (a quarter of the queueing's
    /// time before).
    final class FaceQueue: @unchecked Sendable {
        var faces = Faces()

        init() {}
    }

    /// A queue's faces and the scratch storage of the face being made (``FaceQueue``).
    struct Faces {
        var vertices: [Vertex] = []
        var ends: [Int] = []
        var records: [QueuedFace] = []
        /// The face being made: its rings' vertices one after another, and where each ring ends.
        var face: [Vertex] = []
        var faceEnds: [Int] = []
        /// A ring's vertices projected at one height; a polygon's rings' at its height, and where each ring's start
        /// (or -1: not all in front of the near plane).
        var ring: [Vertex] = []
        var top: [Vertex] = []
        var topStarts: [Int] = []

        /// Queues the face made in ``face`` coloured from `bottom` to `top` unless it covers no pixel of a
        /// `width × height` frame (``ExtrusionRaster/prepare(_:width:height:)``), as
        /// ``ExtrusionRaster/fill(bottom:top:)`` queues it, and empties ``face`` and ``faceEnds``.
        mutating func add(bottom: (Double, Double, Double), top: (Double, Double, Double), width: Int, height: Int) {
            defer {
                face.removeAll(keepingCapacity: true)
                faceEnds.removeAll(keepingCapacity: true)
            }
            guard face.count >= 3 else { return }
            let prepared = face.withUnsafeBufferPointer { ExtrusionRaster.prepare($0, width: width, height: height) }
            guard let (rows, w, tw) = prepared else { return }
            records.append(
                QueuedFace(
                    start: vertices.count, count: face.count, endsStart: ends.count, endsCount: faceEnds.count,
                    minRow: rows.lowerBound, maxRow: rows.upperBound, w: w, tw: tw, bottom: bottom, top: top))
            vertices.append(contentsOf: face)
            ends.append(contentsOf: faceEnds)
        }

        /// Empties the queue, keeping its storage.
        mutating func removeAll() {
            vertices.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }
    }

    /// A layer with at least this many polygons queues its tiles on several threads when ``threads`` allows.
    static let parallelPolygons = 256

    /// Polygons in a run of a tile's features queued by one thread (the last run of a tile may hold fewer): a
    /// frame's buildings crowd into a few tiles, so tiles alone share the work out unevenly.
    static let queuedRunPolygons = 64

    /// Queues the plain faces of `tiles` (in their order) for ``drawQueuedFaces()``: when they hold at least
    /// ``parallelQueueing`` polygons between them, each run of a tile's features (``queuedRunPolygons``) into a
    /// queue of its own (``queuePlainFaces(of:features:_:into:)``), the runs shared out between up to ``threads``
    /// threads (largest first), then appended in tile and feature order; else all one after another on this thread.
    /// The same queue either way.
    func queuePlainFaces(_ tiles: [PlainTile], _ frame: PlainFrame) {
        let polygons = tiles.reduce(0) { $0 + $1.polygons }
        let threads = min(max(threads, 1), tiles.count)
        let parallel = threads >= 2 && polygons >= parallelQueueing
        // The first tile (or all) straight into the raster's queue.
        if tileQueues.isEmpty { tileQueues.append(FaceQueue()) }
        let own = tileQueues[0]
        swap(&own.faces.vertices, &queuedVertices)
        swap(&own.faces.ends, &queuedEnds)
        swap(&own.faces.records, &queuedFaces)
        defer {
            swap(&own.faces.vertices, &queuedVertices)
            swap(&own.faces.ends, &queuedEnds)
            swap(&own.faces.records, &queuedFaces)
        }
        guard parallel else {
            for tile in tiles { Self.queuePlainFaces(of: tile, features: tile.features.indices, frame, into: own) }
            return
        }
        // The runs: a tile's features up to the one that brings a run to `queuedRunPolygons`, in order.
        var runs: [(tile: Int, features: Range<Int>, polygons: Int)] = []
        for (t, tile) in tiles.enumerated() {
            var (start, polygons) = (0, 0)
            for (f, feature) in tile.features.enumerated() {
                polygons += feature.polygons.count
                if polygons >= Self.queuedRunPolygons || f == tile.features.count - 1 {
                    runs.append((t, start..<(f + 1), polygons))
                    (start, polygons) = (f + 1, 0)
                }
            }
        }
        while tileQueues.count < runs.count { tileQueues.append(FaceQueue()) }
        let queues = Array(tileQueues.prefix(runs.count))
        let order = runs.indices.sorted { runs[$0].polygons > runs[$1].polygons }
        let runFeatures = runs.map { (tiles[$0.tile], $0.features) }
        let taken = BandCounter()
        DispatchQueue.concurrentPerform(iterations: min(threads, runs.count)) { _ in
            var next = taken.take()
            while next < order.count {
                let i = order[next]
                Self.queuePlainFaces(of: runFeatures[i].0, features: runFeatures[i].1, frame, into: queues[i])
                next = taken.take()
            }
        }
        var joined = Faces()
        swap(&joined, &own.faces)
        defer { swap(&joined, &own.faces) }
        for queue in queues.dropFirst() {
            let (vertexBase, endBase) = (joined.vertices.count, joined.ends.count)
            joined.vertices.append(contentsOf: queue.faces.vertices)
            joined.ends.append(contentsOf: queue.faces.ends)
            joined.records.append(
                contentsOf: queue.faces.records.lazy.map {
                    var face = $0
                    face.start += vertexBase
                    face.endsStart += endBase
                    return face
                })
            queue.faces.removeAll()
        }
    }

    /// Projects, culls, lights and queues into `faceQueue` the walls and roofs of `tile`'s features `features` in
    /// `frame` (their order: features, polygons, each ring's walls, then the roof), reading nothing else.
    static func queuePlainFaces(
        of tile: PlainTile, features: Range<Int>, _ frame: PlainFrame, into faceQueue: FaceQueue
    ) {
        // The queue's storage taken out while its faces are made (``FaceQueue``).
        var queue = Faces()
        swap(&queue, &faceQueue.faces)
        defer { swap(&queue, &faceQueue.faces) }
        let (scale, light, verticalGradient) = (frame.scale, frame.light, frame.verticalGradient)
        let (frameWidth, frameHeight) = (frame.width, frame.height)
        var projector = ExtrusionProjector(tile: tile.tile, extent: 4096, camera: frame.camera)
        var projectorExtent = 4096
        for index in features {
            let feature = tile.features[index]
            let extent = feature.extent
            if extent != projectorExtent {
                projector = ExtrusionProjector(tile: tile.tile, extent: extent, camera: frame.camera)
                projectorExtent = extent
            }
            let height = feature.height
            let base = feature.base
            let ground = tile.grounds.isEmpty ? (0.0, 0.0) : tile.grounds[index]
            func vertex(_ x: Double, _ y: Double, _ meters: Double, _ t: Double) -> (
                x: Double, y: Double, depth: Double, t: Double
            ) {
                let c = projector.cameraPoint(x, y, meters: meters, ground: ground)
                return (c.x, c.y, c.depth, t)
            }
            let e = Double(extent)
            // The vertical gradient (MapLibre: `(t + base) · sqrt(height / 150)` clamped to 0.84…1 at the default
            // intensity), at the walls' bottom and top.
            let lowest = 0.7 + (0.98 - 0.7) * (1 - light.intensity)
            let gradientBottom = min(max(base * (height / 150).squareRoot(), lowest), 1)
            let gradientTop = min(max((1 + base) * (height / 150).squareRoot(), lowest), 1)
            // The feature's colour lit (ExtrusionShared.swift): its roofs' colour, and its walls' per normal.
            let shader = light.shader(feature.color)
            let roof = shader.shade(directional: shader.directional((0, 0, 1)), 1)
            for prepared in feature.polygons {
                // A building wholly beyond the frame's edges is left out before its faces are projected.
                if prepared.hasPoints,
                    projector.missesFrame(
                        minX: prepared.minX, minY: prepared.minY, maxX: prepared.maxX, maxY: prepared.maxY,
                        base: base, height: height, ground: ground,
                        scale: scale, frameWidth: frameWidth, frameHeight: frameHeight)
                {
                    continue
                }
                let polygon = prepared.rings
                // The solid's winding: its outer ring's area in tile units (y down), positive for the vector tile
                // spec's clockwise outer rings. A wall seen from inside the solid (projected with the other winding)
                // is hidden behind the roof or a wall facing the camera, so it is not drawn (MapLibre culls back
                // faces too).
                let winding = prepared.winding
                // Each ring's vertices projected once at the height (the walls' tops and the roof) and, ring by ring,
                // at the base, when all lie in front of the near plane (a wall then takes its four corners from them,
                // as `project` gives them); else each face is projected and clipped on its own
                // (ExtrusionShared.swift).
                queue.top.removeAll(keepingCapacity: true)
                queue.topStarts.removeAll(keepingCapacity: true)
                for ring in polygon {
                    let start = queue.top.count
                    if projector.projectRing(
                        ring, meters: height, t: 1, ground: ground, scale: scale, into: &queue.ring)
                    {
                        queue.top.append(contentsOf: queue.ring)
                        queue.topStarts.append(start)
                    } else {
                        queue.topStarts.append(-1)
                    }
                }
                for (r, ring) in polygon.enumerated() where height > base {
                    let top = queue.topStarts[r]
                    let shared =
                        top >= 0
                        && projector.projectRing(
                            ring, meters: base, t: 0, ground: ground, scale: scale, into: &queue.ring)
                    MapRenderer.forEachWallEdgeIndex(of: ring, extent: e) { i, x1, y1, x2, y2, len in
                        let n: Int
                        if shared {
                            queue.face.append(queue.ring[i])
                            queue.face.append(queue.ring[i + 1])
                            queue.face.append(queue.top[top + i + 1])
                            queue.face.append(queue.top[top + i])
                            n = 4
                        } else {
                            n = projector.project(count: 4, scale: scale, into: &queue.face) { k in
                                switch k {
                                case 0: vertex(x1, y1, base, 0)
                                case 1: vertex(x2, y2, base, 0)
                                case 2: vertex(x2, y2, height, 1)
                                default: vertex(x1, y1, height, 1)
                                }
                            }
                        }
                        guard n >= 3, !ExtrusionRaster.facesAway(queue.face, winding: winding) else {
                            queue.face.removeAll(keepingCapacity: true)
                            return
                        }
                        queue.faceEnds.append(n)
                        // MapLibre's `perp()` of the edge: (-dy, dx).
                        let normal = (x: -(y2 - y1) / len, y: (x2 - x1) / len, z: 0.0)
                        let graded = verticalGradient && normal.y != 0
                        let directional = shader.directional(normal)
                        let bottom = shader.shade(directional: directional, graded ? gradientBottom : 1)
                        let top = shader.shade(directional: directional, graded ? gradientTop : 1)
                        queue.add(bottom: bottom, top: top, width: frameWidth, height: frameHeight)
                    }
                }
                for (r, ring) in polygon.enumerated() where ring.count >= 3 {
                    let n: Int
                    let top = queue.topStarts[r]
                    if top >= 0 {
                        queue.face.append(contentsOf: queue.top[top..<(top + ring.count)])
                        n = ring.count
                    } else {
                        n = projector.project(count: ring.count, scale: scale, into: &queue.face) { k in
                            vertex(Double(ring[k].x), Double(ring[k].y), height, 1)
                        }
                    }
                    if n >= 3 {
                        queue.faceEnds.append(queue.face.count)
                    } else {
                        queue.face.removeLast(n)
                    }
                }
                guard !queue.faceEnds.isEmpty else { continue }
                queue.add(bottom: roof, top: roof, width: frameWidth, height: frameHeight)
            }
        }
    }
}

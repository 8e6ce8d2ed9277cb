// ``ExtrusionRaster``'s queued faces, drawn band of rows by band of rows: a frame's depth buffer and layer image
// (a few MB each) do not stay in the cache while faces all over the frame are drawn one after another, and a face's
// row spans, a few cache lines each a row apart, miss it. Drawn band by band, each band's depths and colours are
// cleared just before its faces are drawn and stay in the cache while they are. Every pixel is tested and written by
// the same faces in the same order with the same arithmetic as when drawn one after another: the same pixels.

extension ExtrusionRaster {
    /// A queued face: where its vertices and ring ends are in ``queuedVertices`` and ``queuedEnds``, the rows it
    /// covers, its depth and gradient functions (``prepare(_:)``) and its colours.
    struct QueuedFace {
        var start: Int
        var count: Int
        var endsStart: Int
        var endsCount: Int
        var minRow: Int
        var maxRow: Int
        var w: (Double, Double, Double)
        var tw: (Double, Double, Double)
        var bottom: (Double, Double, Double)
        var top: (Double, Double, Double)
    }

    /// The rows a band holds: 64 rows of a 1280-pixel frame are 320 kB of depths and as much of colours.
    static let bandRows = 64

    /// Queues the face in ``vertices`` (rings ending at ``ringEnds``) coloured from `bottom` to `top`, unless it
    /// covers no pixel.
    func queueFace(bottom: (Double, Double, Double), top: (Double, Double, Double)) {
        let prepared = vertices.withUnsafeBufferPointer { prepare($0) }
        guard let (rows, w, tw) = prepared else { return }
        queuedFaces.append(
            QueuedFace(
                start: queuedVertices.count, count: vertices.count, endsStart: queuedEnds.count,
                endsCount: ringEnds.count, minRow: rows.lowerBound, maxRow: rows.upperBound, w: w, tw: tw,
                bottom: bottom, top: top))
        queuedVertices.append(contentsOf: vertices)
        queuedEnds.append(contentsOf: ringEnds)
    }

    /// Draws the queued faces (in the order they were queued, band by band), clearing the stale depths and colours
    /// (``clearStale(rows:depths:)``) of each band first, and stops queueing. With ``bandLocalDepth`` each band is
    /// tested against ``bandDepth`` instead (cleared over what the band before wrote), and ``inverseDepth``, its
    /// stale box and ``depthBox`` are left as they are.
    func drawQueuedFaces() {
        let local = bandLocalDepth
        defersFaces = false
        bandLocalDepth = false
        defer {
            queuedVertices.removeAll(keepingCapacity: true)
            queuedEnds.removeAll(keepingCapacity: true)
            queuedFaces.removeAll(keepingCapacity: true)
        }
        guard !queuedFaces.isEmpty, height > 0 else {
            clearStale(depths: !local)
            return
        }
        let bandRows = Self.bandRows
        let bands = (height + bandRows - 1) / bandRows
        // The faces of each band in queue order (a counting sort by band).
        var starts = bandStarts
        var order = bandFaces
        (bandStarts, bandFaces) = ([], [])
        defer { (bandStarts, bandFaces) = (starts, order) }
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: bands + 1))
        var total = 0
        for face in queuedFaces {
            for band in (face.minRow / bandRows)...(face.maxRow / bandRows) { starts[band + 1] += 1 }
            total += face.maxRow / bandRows - face.minRow / bandRows + 1
        }
        for band in 0..<bands { starts[band + 1] += starts[band] }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: repeatElement(0, count: total))
        var next = starts
        for (index, face) in queuedFaces.enumerated() {
            for band in (face.minRow / bandRows)...(face.maxRow / bandRows) {
                order[next[band]] = Int32(index)
                next[band] += 1
            }
        }
        if local && bandDepth == nil {
            bandDepth = .allocate(capacity: width * bandRows)
            bandDepth!.initialize(repeating: 0, count: width * bandRows)
        }
        let frameDepths = depthBox
        // What a band wrote in its own depths, cleared before the next band.
        var written = PixelBox()
        queuedVertices.withUnsafeBufferPointer { vertices in
            queuedEnds.withUnsafeBufferPointer { ends in
                queuedFaces.withUnsafeBufferPointer { faces in
                    withColours { pixels, bytesPerRow in
                        for band in 0..<bands {
                            let low = band * bandRows
                            let high = min(low + bandRows, height) - 1
                            clearStale(rows: low...high, depths: !local)
                            var depth = inverseDepth
                            var depthRow = 0
                            if local, let own = bandDepth {
                                if !written.isEmpty {
                                    for y in written.minY...written.maxY {
                                        (own + y * width + written.minX).update(
                                            repeating: 0, count: written.maxX - written.minX + 1)
                                    }
                                }
                                (depth, depthRow) = (own, low)
                                depthBox = PixelBox()
                            }
                            for k in starts[band]..<starts[band + 1] {
                                let face = faces[Int(order[k])]
                                let all = UnsafeBufferPointer(
                                    rebasing: vertices[face.start..<(face.start + face.count)])
                                let rings = UnsafeBufferPointer(
                                    rebasing: ends[face.endsStart..<(face.endsStart + face.endsCount)])
                                fill(
                                    all, rings, pixels, bytesPerRow,
                                    rows: max(face.minRow, low)...min(face.maxRow, high), depth: depth,
                                    depthRow: depthRow, w: face.w, tw: face.tw, bottom: face.bottom, top: face.top)
                            }
                            if local {
                                // In the band's own rows.
                                written = depthBox
                                if !written.isEmpty {
                                    written.minY -= low
                                    written.maxY -= low
                                }
                            }
                        }
                    }
                }
            }
        }
        if local {
            depthBox = frameDepths
            // Left all 0 for the next layer.
            if let own = bandDepth, !written.isEmpty {
                for y in written.minY...written.maxY {
                    (own + y * width + written.minX).update(repeating: 0, count: written.maxX - written.minX + 1)
                }
            }
        } else {
            // Every row of the frame was a band's: nothing stale is left.
            staleDepth = PixelBox()
        }
        staleLayer = PixelBox()
    }
}

// ``ExtrusionRaster``'s queued faces, drawn band of rows by band of rows: a frame's depth buffer and layer image
// (a few MB each) do not stay in the cache while faces all over the frame are drawn one after another, and a face's
// row spans, a few cache lines each a row apart, miss it. Drawn band by band, each band's depths and colours are
// cleared just before its faces are drawn and stay in the cache while they are. Every pixel is tested and written by
// the same faces in the same order with the same arithmetic as when drawn one after another: the same pixels.
//
// Bands hold disjoint rows, so when the faces cover many rows the bands are shared out between threads
// (`DispatchQueue.concurrentPerform`, as `ProjectiveBlit.draw` shares row blocks), each thread taking the next band
// not yet drawn (those with the most face rows first) and drawing it with its own scan scratch and band depths (``ExtrusionRaster/BandWorker``): a band's
// pixels are the same whichever thread draws it, and the boxes the bands drew in are joined afterwards.

import Dispatch
import Foundation
import Synchronization

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

    /// Queued faces covering at least this many rows between them (a row of a face a few to a few hundred pixels)
    /// are drawn on several threads when ``threads`` allows: below it, waking threads costs about what they save.
    static let parallelFaceRows = 2048

    /// The processors this process may run on (``threads`` is at most this many in frames).
    static let processors = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// One thread's storage for drawing bands: its scan scratch, its band's own depths (``bandLocalDepth``: made at
    /// the first band, ``bandRows`` rows of the frame's width, all 0 between bands) and the boxes its bands drew
    /// in. Used by one thread at a time (``drawQueuedFaces()`` gives each thread its own).
    final class BandWorker: @unchecked Sendable {
        let scratch = ScanScratch()
        private(set) var depth: UnsafeMutablePointer<Float>?
        /// What the worker's bands drew in: the layer image's rows, and the frame's depth buffer's (not with band
        /// depths).
        var layerBox = PixelBox()
        var depthBox = PixelBox()

        init() {}

        deinit { depth?.deallocate() }

        /// The band depths for a frame `width` pixels wide (all 0).
        func bandDepth(width: Int) -> UnsafeMutablePointer<Float> {
            if let depth { return depth }
            let made = UnsafeMutablePointer<Float>.allocate(capacity: width * ExtrusionRaster.bandRows)
            made.initialize(repeating: 0, count: width * ExtrusionRaster.bandRows)
            depth = made
            return made
        }
    }

    /// What every band of one ``drawQueuedFaces()`` reads and where it writes: the queued faces and each band's
    /// share of them, the layer's colours and the frame's depths. Bands write disjoint rows of `pixels` and
    /// `inverseDepth`; everything else is only read while they are drawn.
    struct BandJob: @unchecked Sendable {
        let vertices: UnsafeBufferPointer<Vertex>
        let ends: UnsafeBufferPointer<Int>
        let faces: UnsafeBufferPointer<QueuedFace>
        /// Where each band's faces start in `order` (one more than the bands), and the faces' indices band by band.
        let starts: UnsafeBufferPointer<Int>
        let order: UnsafeBufferPointer<Int32>
        let pixels: UnsafeMutablePointer<UInt8>
        let bytesPerRow: Int
        let width: Int
        let height: Int
        /// Whether each band is tested against its worker's own depths (``bandLocalDepth``).
        let local: Bool
        let inverseDepth: UnsafeMutablePointer<Float>
        /// The depths (not with band depths) and colours to clear in each band's rows before its faces are drawn.
        let staleDepth: PixelBox
        let staleLayer: PixelBox
        /// ``ExtrusionRaster/opacity``.
        let opacity: UInt8
    }

    /// Draws band `band` of `job` with `worker`: clears the stale depths and colours in its rows, then fills its
    /// faces in queue order over its rows alone, growing the worker's boxes.
    static func drawBand(_ band: Int, _ job: BandJob, _ worker: BandWorker) {
        let width = job.width
        let low = band * bandRows
        let high = min(low + bandRows, job.height) - 1
        if !job.local, !job.staleDepth.isEmpty {
            let box = job.staleDepth
            let (from, to) = (max(box.minY, low), min(box.maxY, high))
            if from <= to {
                for y in from...to {
                    (job.inverseDepth + y * width + box.minX).update(repeating: 0, count: box.maxX - box.minX + 1)
                }
            }
        }
        if !job.staleLayer.isEmpty {
            let box = job.staleLayer
            let (from, to) = (max(box.minY, low), min(box.maxY, high))
            if from <= to {
                for y in from...to {
                    (job.pixels + y * job.bytesPerRow + box.minX * 4).update(
                        repeating: 0, count: (box.maxX - box.minX + 1) * 4)
                }
            }
        }
        let depth = job.local ? worker.bandDepth(width: width) : job.inverseDepth
        let depthRow = job.local ? low : 0
        // Band depths: what this band writes in them, cleared after it (frame rows).
        var boxes = (layer: worker.layerBox, depth: job.local ? PixelBox() : worker.depthBox)
        for k in job.starts[band]..<job.starts[band + 1] {
            let face = job.faces[Int(job.order[k])]
            let all = UnsafeBufferPointer(rebasing: job.vertices[face.start..<(face.start + face.count)])
            let rings = UnsafeBufferPointer(rebasing: job.ends[face.endsStart..<(face.endsStart + face.endsCount)])
            fill(
                all, rings, job.pixels, job.bytesPerRow, rows: max(face.minRow, low)...min(face.maxRow, high),
                depth: depth, depthRow: depthRow, w: face.w, tw: face.tw, bottom: face.bottom, top: face.top,
                opacity: job.opacity, width: width, scratch: worker.scratch, boxes: &boxes)
        }
        worker.layerBox = boxes.layer
        if !job.local {
            worker.depthBox = boxes.depth
        } else if !boxes.depth.isEmpty {
            // Left all 0 for the worker's next band.
            let written = boxes.depth
            for y in written.minY...written.maxY {
                (depth + (y - low) * width + written.minX).update(
                    repeating: 0, count: written.maxX - written.minX + 1)
            }
        }
    }

    /// Draws the queued faces (in the order they were queued, band by band), clearing the stale depths and colours
    /// (``clearStale(rows:depths:)``) of each band first, and stops queueing. With ``bandLocalDepth`` each band is
    /// tested against depths of its own instead (``BandWorker``), and ``inverseDepth``, its stale box and
    /// ``depthBox`` are left as they are. The bands are shared out between up to ``threads`` threads when the faces
    /// cover at least ``parallelWork`` rows between them: the same pixels and boxes as on one.
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
        var faceRows = 0
        for face in queuedFaces {
            for band in (face.minRow / bandRows)...(face.maxRow / bandRows) { starts[band + 1] += 1 }
            total += face.maxRow / bandRows - face.minRow / bandRows + 1
            faceRows += face.maxRow - face.minRow + 1
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
        let threads = faceRows >= parallelWork ? min(max(threads, 1), bands) : 1
        while bandWorkers.count < threads { bandWorkers.append(BandWorker()) }
        let workers = Array(bandWorkers.prefix(threads))
        for worker in workers {
            worker.layerBox = PixelBox()
            worker.depthBox = PixelBox()
        }
        let (staleDepth, staleLayer) = (local ? PixelBox() : self.staleDepth, self.staleLayer)
        let (width, height, inverseDepth, opacity) = (width, height, inverseDepth, opacity)
        queuedVertices.withUnsafeBufferPointer { vertices in
            queuedEnds.withUnsafeBufferPointer { ends in
                queuedFaces.withUnsafeBufferPointer { faces in
                    starts.withUnsafeBufferPointer { starts in
                        order.withUnsafeBufferPointer { order in
                            withColours { pixels, bytesPerRow in
                                let job = BandJob(
                                    vertices: vertices, ends: ends, faces: faces, starts: starts, order: order,
                                    pixels: pixels, bytesPerRow: bytesPerRow, width: width, height: height,
                                    local: local, inverseDepth: inverseDepth, staleDepth: staleDepth,
                                    staleLayer: staleLayer, opacity: opacity)
                                if workers.count == 1 {
                                    for band in 0..<bands { Self.drawBand(band, job, workers[0]) }
                                } else {
                                    // Each thread takes the next band no thread has taken, those with the most face
                                    // rows first (so the last ones, drawn while other threads may wait, are short).
                                    var work = [Int](repeating: 0, count: bands)
                                    for face in faces {
                                        for band in (face.minRow / bandRows)...(face.maxRow / bandRows) {
                                            let low = band * bandRows
                                            work[band] +=
                                                min(face.maxRow, low + bandRows - 1) - max(face.minRow, low) + 1
                                        }
                                    }
                                    let order = (0..<bands).sorted { work[$0] > work[$1] }
                                    let taken = BandCounter()
                                    DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                                        var next = taken.take()
                                        while next < bands {
                                            Self.drawBand(order[next], job, workers[w])
                                            next = taken.take()
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for worker in workers {
            layerBox.formUnion(worker.layerBox)
            if !local { depthBox.formUnion(worker.depthBox) }
        }
        if !local {
            // Every row of the frame was a band's: nothing stale is left.
            self.staleDepth = PixelBox()
        }
        self.staleLayer = PixelBox()
    }

    /// The bands taken so far by the threads drawing them.
    final class BandCounter: Sendable {
        private let next = Atomic<Int>(0)

        /// The next band (0, 1, 2, … once each whichever thread asks).
        func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
    }
}

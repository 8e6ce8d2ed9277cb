import Dispatch
import MapData
import MapDrawing
import MapGeometry

extension SDFText {
    /// One label's glyph runs to make: ``glyphRuns(_:style:fontScale:pixelRatio:masks:)``'s arguments.
    struct GlyphRunRequest {
        var quads: [Quad]
        var style: TextStyle
        var fontScale: Double
        var pixelRatio: Double
    }

    /// Masks drawn on a miss are drawn on several threads when the batch's misses cover at least this many device
    /// pixels (their quads' areas, estimated from the glyphs' sizes and maps).
    static let parallelMaskPixels = 16_384

    /// ``glyphRuns(_:style:fontScale:pixelRatio:masks:)`` of each request in turn: the same runs, and the same
    /// operations on `masks` in the same order (glyphs and paints interned, masks looked up, missed masks kept), so
    /// the cache holds the same entries in the same order of use afterwards. Only the drawing of the missed masks is
    /// done first: the masks the batch will miss are gathered (looked at without counting or touching them) and
    /// drawn together, on several threads when `parallel` and they cover at least ``parallelMaskPixels`` pixels;
    /// a mask is a pure function of its key, so where it is drawn changes nothing. When interning the batch's glyphs
    /// and paints could reach ``GlyphMaskCache/internLimit`` (which empties the cache part way), each request is made
    /// in turn as ``glyphRuns(_:style:fontScale:pixelRatio:masks:)`` makes it.
    static func glyphRuns(
        batch requests: [GlyphRunRequest], masks: GlyphMaskCache, parallel: Bool = true
    ) -> [(halo: GlyphRunCommand?, fill: GlyphRunCommand?)] {
        let quadCount = requests.reduce(0) { $0 + $1.quads.count }
        guard masks.hasInternRoom(glyphs: quadCount, paints: requests.count) else {
            return requests.map {
                glyphRuns($0.quads, style: $0.style, fontScale: $0.fontScale, pixelRatio: $0.pixelRatio, masks: masks)
            }
        }
        // Every glyph and paint interned, in the order the requests made in turn intern them (none empties the cache:
        // there is room), and the keys looked up later: request `r`'s places are `places[ends[r - 1]..<ends[r]]`.
        var paints: [MaskPaint?] = []
        var places: [(place: MaskPlace, quad: Int)] = []
        var ends: [Int] = []
        paints.reserveCapacity(requests.count)
        places.reserveCapacity(quadCount)
        ends.reserveCapacity(requests.count)
        for r in requests.indices {
            let quads = requests[r].quads
            let style = requests[r].style
            let hasHalo = style.haloWidth > 0 && style.haloColor.alpha > 0
            let paint = MaskPaint(
                quads, style: style, fontScale: requests[r].fontScale, pixelRatio: requests[r].pixelRatio,
                drawHalo: hasHalo, drawFill: true, masks: masks)
            paints.append(paint)
            if let paint {
                for q in quads.indices {
                    guard let glyph = quads[q].glyph,
                        let place = MaskPlace(quads[q], glyph: glyph, paint: paint.id, masks: masks)
                    else { continue }
                    places.append((place, q))
                }
            }
            ends.append(places.count)
        }
        // The masks missing now, each once, drawn before the look-ups.
        var drawn: [GlyphMaskCache.Key: Int] = [:]
        var jobs: [MaskJob] = []
        var pixels = 0.0
        for r in requests.indices {
            guard let paint = paints[r] else { continue }
            for i in (r == 0 ? 0 : ends[r - 1])..<ends[r] {
                let (place, q) = places[i]
                guard !masks.contains(place.key), drawn[place.key] == nil, let glyph = requests[r].quads[q].glyph
                else { continue }
                drawn[place.key] = jobs.count
                jobs.append(MaskJob(glyph: glyph, local: place.local, paint: paint))
                // The quad's device pixels: its texels (the bitmap and its padding) times the map's area scale.
                let texels = (glyph.width + 2 * GlyphPBF.border + 2) * (glyph.height + 2 * GlyphPBF.border + 2)
                pixels += Double(texels) * abs(place.local.a * place.local.d - place.local.b * place.local.c)
            }
        }
        let entries =
            parallel && jobs.count >= 2 && pixels >= Double(parallelMaskPixels) ? drawMasks(jobs) : []
        // The look-ups in order, a miss taking its masks drawn above (or drawing them, when it was not foreseen: a
        // mask dropped again within the batch, or a batch drawn on this thread).
        var runs: [(halo: GlyphRunCommand?, fill: GlyphRunCommand?)] = []
        runs.reserveCapacity(requests.count)
        for r in requests.indices {
            guard let paint = paints[r] else {
                runs.append((nil, nil))
                continue
            }
            let range = (r == 0 ? 0 : ends[r - 1])..<ends[r]
            var halos: [GlyphRunCommand.Mask] = []
            var fills: [GlyphRunCommand.Mask] = []
            halos.reserveCapacity(paint.drawHalo ? requests[r].quads.count : 0)
            fills.reserveCapacity(requests[r].quads.count)
            for i in range {
                let place = places[i].place
                let entry = masks.masks(place.key) {
                    if let job = drawn[place.key], job < entries.count { return entries[job] }
                    return paint.entry(requests[r].quads[places[i].quad].glyph!, at: place)
                }
                paint.append(entry, at: place, halos: &halos, fills: &fills)
            }
            runs.append(
                (
                    halos.isEmpty ? nil : GlyphRunCommand(masks: halos, pixelRatio: paint.pixelRatio),
                    fills.isEmpty ? nil : GlyphRunCommand(masks: fills, pixelRatio: paint.pixelRatio)
                ))
        }
        return runs
    }

    /// A mask to draw: a glyph at a key's map and phase, with a paint's alphas.
    struct MaskJob: Sendable {
        var glyph: SDFGlyph
        var local: RenderTransform
        var halo: Bool
        var haloAlpha: SDFAlpha
        var fillAlpha: SDFAlpha

        /// `glyph` at `local` (a key's map and phase) with `paint`'s alphas.
        init(glyph: SDFGlyph, local: RenderTransform, paint: MaskPaint) {
            self.glyph = glyph
            self.local = local
            halo = paint.drawHalo
            haloAlpha = paint.haloAlpha
            fillAlpha = paint.fillAlpha
        }

        /// The job's masks (``SDFText/maskEntry(glyph:local:halo:haloAlpha:fillAlpha:)``).
        func draw() -> GlyphMaskCache.Masks {
            SDFText.maskEntry(glyph: glyph, local: local, halo: halo, haloAlpha: haloAlpha, fillAlpha: fillAlpha)
        }
    }

    /// Masks per job over chunks of ``maskChunk`` jobs shared out between threads, each written once into its own
    /// slot.
    static let maskChunk = 8

    /// The masks of `jobs`, in order, drawn in chunks on several threads.
    static func drawMasks(_ jobs: [MaskJob]) -> [GlyphMaskCache.Masks] {
        guard !jobs.isEmpty else { return [] }
        let chunks = (jobs.count + maskChunk - 1) / maskChunk
        return [GlyphMaskCache.Masks](unsafeUninitializedCapacity: jobs.count) { buffer, count in
            // The jobs read in place (no copy of a job, so no reference counting of a glyph's bitmap shared between
            // the threads for each mask).
            jobs.withUnsafeBufferPointer { jobs in
                let shared = MaskSlots(jobs: jobs, slots: buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for j in (chunk * maskChunk)..<min(shared.jobs.count, chunk * maskChunk + maskChunk) {
                        (shared.slots + j).initialize(to: shared.jobs[j].draw())
                    }
                }
            }
            count = jobs.count
        }
    }
}

/// The jobs of ``SDFText/drawMasks(_:)``, read by several threads, and their result slots, each initialised by one
/// thread (the chunks disjoint); both outlive the threads' work.
private struct MaskSlots: @unchecked Sendable {
    let jobs: UnsafeBufferPointer<SDFText.MaskJob>
    let slots: UnsafeMutablePointer<GlyphMaskCache.Masks>
}

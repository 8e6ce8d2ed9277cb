import MapData
import MapDrawing
import Testing

@testable import MapPipeline

/// A glyph `side × side` pixels whose SDF falls from 255 at the middle by `fall` a pixel: round for `fall` 24,
/// blurred for smaller, each glyph of a batch different by its codepoint.
private func glyph(_ id: Int, side: Int, fall: Double) -> SDFGlyph {
    let w = side + 2 * GlyphPBF.border
    var bitmap = [UInt8](repeating: 0, count: w * w)
    for y in 0..<w {
        for x in 0..<w {
            let dx = Double(x) + 0.5 - Double(w) / 2 + Double(id % 3) * 0.4
            let dy = Double(y) + 0.5 - Double(w) / 2
            bitmap[y * w + x] = UInt8(max(0, 255 - fall * (dx * dx + dy * dy).squareRoot()))
        }
    }
    return SDFGlyph(id: id, bitmap: bitmap, width: side, height: side, left: 0, top: side, advance: side + 2)
}

/// A small deterministic generator (the same labels every run).
private struct Generator {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// `count` labels of 3 to 8 glyphs from a set of 12 glyphs, at sub-pixel places of `frame` (each frame moves every
/// label by a fraction of a pixel, as a pan does), some turned, some with a halo, some with glyphs of their own colour.
private func requests(count: Int, frame: Int, seed: UInt64) -> [SDFText.GlyphRunRequest] {
    var random = Generator(state: seed)
    let glyphs = (0..<12).map { glyph(0x41 + $0, side: 8 + $0 % 4 * 2, fall: [24, 16, 30][$0 % 3]) }
    let styles = [
        TextStyle(
            color: RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1),
            haloColor: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.8), haloWidth: 1.5, haloBlur: 0.5),
        TextStyle(color: RGBAColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.7)),
        TextStyle(
            color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 1),
            haloColor: RGBAColor(red: 1, green: 1, blue: 0, alpha: 1),
            haloWidth: 2, haloBlur: 0),
    ]
    return (0..<count).map { label in
        let scale = [1.0, 1.25, 0.75][label % 3]
        let angle = label % 4 == 0 ? random.next() * 0.6 - 0.3 : 0
        let x = random.next() * 400 + Double(frame) * 0.37
        let y = random.next() * 300 + Double(frame) * 0.21
        let quads = (0..<(3 + label % 6)).map { i -> SDFText.Quad in
            let g = glyphs[Int(random.next() * 12) % 12]
            let local = RenderTransform.scale(x: scale, y: scale)
                .concatenating(.translation(x: Double(i) * 14 * scale, y: 0))
                .concatenating(.rotation(radians: angle))
                .concatenating(.translation(x: x, y: y))
            var q = SDFText.Quad(unpadded: g, transform: SDFText.quadTransform(glyph: g, pen: (0, 0), local: local))!
            if i == 1 && label % 5 == 0 { q.color = RGBAColor(red: 0, green: 0.5, blue: 0, alpha: 1) }
            return q
        }
        return SDFText.GlyphRunRequest(
            quads: quads, style: styles[label % styles.count], fontScale: scale, pixelRatio: 1)
    }
}

/// The runs of `requests` made one request after another, as the label stage made them before batches.
private func serialRuns(_ requests: [SDFText.GlyphRunRequest], masks: GlyphMaskCache)
    -> [(halo: GlyphRunCommand?, fill: GlyphRunCommand?)]
{
    requests.map {
        SDFText.glyphRuns($0.quads, style: $0.style, fontScale: $0.fontScale, pixelRatio: $0.pixelRatio, masks: masks)
    }
}

@Suite struct GlyphRunBatchTests {
    /// Device pixels of the masks a batch draws, as ``SDFText/glyphRuns(batch:masks:parallel:)`` estimates them.
    private func missedPixels(_ requests: [SDFText.GlyphRunRequest]) -> Double {
        requests.reduce(0) { sum, r in
            sum
                + r.quads.reduce(0) {
                    let t = $1.transform
                    return $0 + Double($1.width * $1.height) * abs(t.a * t.d - t.b * t.c)
                }
        }
    }

    @Test(arguments: [GlyphMaskCache.defaultByteLimit, 60_000])
    func aBatchMakesTheSerialRunsAndLeavesTheCacheInTheSameOrder(byteLimit: Int) {
        // Two caches, one made request by request and one by batches drawing their misses on several threads: the
        // same runs (masks, places, colours), the same look-ups counted and the same entries in the same order of
        // use, frame after frame (each frame a new sub-pixel phase for every label, as a pan frame; the small cache
        // drops masks within a batch that later labels need again).
        let serial = GlyphMaskCache(byteLimit: byteLimit)
        let batched = GlyphMaskCache(byteLimit: byteLimit)
        for frame in 0..<4 {
            let batch = requests(count: 80, frame: frame, seed: 7)
            // Far more than the parallel threshold: the batch's misses are drawn on several threads.
            #expect(missedPixels(batch) > 4 * Double(SDFText.parallelMaskPixels))
            let want = serialRuns(batch, masks: serial)
            let got = SDFText.glyphRuns(batch: batch, masks: batched)
            #expect(got.count == want.count)
            var runs = 0
            for (g, w) in zip(got, want) {
                #expect(g.halo == w.halo)
                #expect(g.fill == w.fill)
                runs += (w.halo == nil ? 0 : 1) + (w.fill == nil ? 0 : 1)
            }
            #expect(runs > 100)
            #expect(batched.keysByRecency == serial.keysByRecency)
            #expect(batched.hits == serial.hits && batched.misses == serial.misses)
            #expect(batched.byteCount == serial.byteCount)
        }
        // The small cache drops entries as it goes (fewer entries than misses); the large keeps them all.
        #expect(serial.misses > 100)
        #expect((serial.count < serial.misses) == (byteLimit < 1_000_000))
    }

    @Test func aBatchDrawnOnOneThreadIsTheSame() {
        let batch = requests(count: 40, frame: 3, seed: 11)
        let one = GlyphMaskCache()
        let several = GlyphMaskCache()
        let a = SDFText.glyphRuns(batch: batch, masks: one, parallel: false)
        let b = SDFText.glyphRuns(batch: batch, masks: several)
        for (x, y) in zip(a, b) {
            #expect(x.halo == y.halo)
            #expect(x.fill == y.fill)
        }
        #expect(one.keysByRecency == several.keysByRecency)
    }

    @Test func theMasksDrawnTogetherAreTheMasksDrawnOneByOne() {
        // The pure mask drawing, on several threads in chunks, gives each job's masks as drawn alone.
        var jobs: [SDFText.MaskJob] = []
        let masks = GlyphMaskCache()
        for r in requests(count: 30, frame: 1, seed: 5) {
            let paint = SDFText.MaskPaint(
                r.quads, style: r.style, fontScale: r.fontScale, pixelRatio: r.pixelRatio,
                drawHalo: r.style.haloWidth > 0, drawFill: true, masks: masks)!
            for q in r.quads {
                let place = SDFText.MaskPlace(q, glyph: q.glyph!, paint: paint.id, masks: masks)!
                jobs.append(SDFText.MaskJob(glyph: q.glyph!, local: place.local, paint: paint))
            }
        }
        #expect(jobs.count > 3 * SDFText.maskChunk)
        let drawn = SDFText.drawMasks(jobs)
        #expect(drawn.count == jobs.count)
        var covered = 0
        for (job, masks) in zip(jobs, drawn) {
            let alone = job.draw()
            #expect(masks.fill.coverage == alone.fill.coverage && masks.halo.coverage == alone.halo.coverage)
            #expect(
                masks.fill.x == alone.fill.x && masks.fill.y == alone.fill.y && masks.fill.width == alone.fill.width)
            #expect(masks.halo.x == alone.halo.x && masks.halo.height == alone.halo.height)
            covered += masks.fill.coverage.count
        }
        #expect(covered > 1000)
    }

    @Test func internRoomCountsTheGlyphsAndPaintsStillFree() {
        let masks = GlyphMaskCache()
        #expect(masks.hasInternRoom(glyphs: GlyphMaskCache.internLimit, paints: 1))
        #expect(!masks.hasInternRoom(glyphs: GlyphMaskCache.internLimit + 1, paints: 1))
        _ = masks.glyphID(glyph(1, side: 4, fall: 24))
        #expect(!masks.hasInternRoom(glyphs: GlyphMaskCache.internLimit, paints: 1))
        #expect(masks.hasInternRoom(glyphs: GlyphMaskCache.internLimit - 1, paints: GlyphMaskCache.internLimit))
    }
}

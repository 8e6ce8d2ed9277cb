import MapDrawing
import MapGeometry
import Testing

@testable import MapDrawingCairo

/// A small deterministic generator (the same runs every time).
private struct Generator {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// `count` runs of 2 to 9 masks each, 6 to 29 pixels a side, overlapping all over a `width × height` frame and
/// beyond its edges; some quads turned (their clip cuts the mask), some colours translucent, some runs faded.
private func runs(count: Int, width: Int, height: Int, seed: UInt64) -> [GlyphRunCommand] {
    var random = Generator(state: seed)
    return (0..<count).map { r in
        let masks = (0..<(2 + r % 8)).map { i -> GlyphRunCommand.Mask in
            let (w, h) = (6 + Int(random.next() * 24), 6 + Int(random.next() * 24))
            let x = Int(random.next() * Double(width + 40)) - 20
            let y = Int(random.next() * Double(height + 40)) - 20
            let coverage = (0..<(w * h)).map { k -> UInt8 in
                let v = random.next()
                return v < 0.3 ? 0 : v > 0.7 ? 255 : UInt8((v - 0.3) / 0.4 * 255)
            }
            let angle = i % 3 == 0 ? random.next() - 0.5 : 0
            let clip = RenderTransform.translation(x: -Double(x) - Double(w) / 2, y: -Double(y) - Double(h) / 2)
                .concatenating(.rotation(radians: angle))
                .concatenating(.translation(x: Double(w) / 2, y: Double(h) / 2))
            return GlyphRunCommand.Mask(
                coverage: coverage, x: x, y: y, width: w, height: h,
                color: RGBAColor(
                    red: random.next(), green: random.next(), blue: random.next(), alpha: r % 4 == 0 ? 0.6 : 1),
                clip: clip, clipWidth: Double(w), clipHeight: Double(h))
        }
        return GlyphRunCommand(masks: masks, opacity: r % 7 == 0 ? 0.5 : 1, pixelRatio: 1)
    }
}

/// `runs` composited over a grey `width × height` frame by ``GlyphRunBlocks/composite(_:into:offsetX:offsetY:clip:parallel:)``.
private func composited(
    _ runs: [GlyphRunCommand], width: Int, height: Int, offset: (x: Int, y: Int), clip: PixelRect, parallel: Bool
) -> [UInt8] {
    var pixels = [UInt8]((0..<(width * height)).flatMap { i in [UInt8(i % 251), 90, 40, 200] })
    pixels.withUnsafeMutableBufferPointer { buffer in
        GlyphRunBlocks.composite(
            runs,
            into: LinePixelTarget(base: buffer.baseAddress!, width: width, height: height, bytesPerRow: width * 4),
            offsetX: offset.x, offsetY: offset.y, clip: clip, parallel: parallel)
    }
    return pixels
}

@Suite struct GlyphRunBlocksTests {
    @Test(arguments: [(0, 0), (7, -5)])
    func blocksOnSeveralThreadsCompositeTheSerialPixels(offsetX: Int, offsetY: Int) {
        let (width, height) = (420, 300)
        let batch = runs(count: 150, width: width, height: height, seed: 3)
        let clip = PixelRect(minX: 3, minY: 2, maxX: 415, maxY: 297)
        let plan = GlyphRunBlocks.plan(
            batch, offsetX: offsetX, offsetY: offsetY, area: clip)
        // Enough for the threads, and blocks enough to share.
        #expect(plan.pixels >= GlyphRunBlocks.parallelPixels)
        #expect(plan.blocks.count >= 4)
        let serial = composited(
            batch, width: width, height: height, offset: (offsetX, offsetY), clip: clip, parallel: false)
        let parallel = composited(
            batch, width: width, height: height, offset: (offsetX, offsetY), clip: clip, parallel: true)
        #expect(serial == parallel)
        // Against the runs composited one after another by their own method (the path before blocks).
        var reference = [UInt8]((0..<(width * height)).flatMap { i in [UInt8(i % 251), 90, 40, 200] })
        reference.withUnsafeMutableBufferPointer { buffer in
            let target = LinePixelTarget(
                base: buffer.baseAddress!, width: width, height: height, bytesPerRow: width * 4)
            for run in batch { run.composite(into: target, offsetX: offsetX, offsetY: offsetY, clip: clip) }
        }
        #expect(parallel == reference)
        #expect(parallel != composited([], width: width, height: height, offset: (0, 0), clip: clip, parallel: false))
    }

    /// A run drawn with a shift (``GlyphRunCommand/shiftX``) draws the pixels of the same run with its masks moved
    /// by as much, on one thread or several.
    @Test func shiftedRunsCompositeAsTheirMovedMasks() {
        let (width, height) = (420, 300)
        let batch = runs(count: 150, width: width, height: height, seed: 5)
        let (sx, sy) = (5, -4)
        // Every third run's masks moved back by the shift, and the run shifted forward by it.
        let shifted = batch.enumerated().map { r, run -> GlyphRunCommand in
            guard r % 3 == 0 else { return run }
            var out = run
            for i in out.masks.indices {
                let c = out.masks[i].clip
                out.masks[i].x -= sx
                out.masks[i].y -= sy
                out.masks[i].clip.tx = c.tx + c.a * Double(sx) + c.c * Double(sy)
                out.masks[i].clip.ty = c.ty + c.b * Double(sx) + c.d * Double(sy)
            }
            (out.shiftX, out.shiftY) = (sx, sy)
            return out
        }
        #expect(shifted.map(\.bounds) == batch.map(\.bounds))
        let clip = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        let reference = composited(batch, width: width, height: height, offset: (2, 1), clip: clip, parallel: false)
        #expect(
            composited(shifted, width: width, height: height, offset: (2, 1), clip: clip, parallel: false) == reference)
        #expect(
            composited(shifted, width: width, height: height, offset: (2, 1), clip: clip, parallel: true) == reference)
    }

    /// A run shifted beyond ±2³⁰ pixels (bad input to the public field) draws nothing and has no bounds, on one
    /// thread or several, instead of overflowing.
    @Test func aRunShiftedOutOfRangeDrawsNothing() {
        let (width, height) = (420, 300)
        let batch = runs(count: 150, width: width, height: height, seed: 7).enumerated().map { r, run in
            var out = run
            (out.shiftX, out.shiftY) = r % 2 == 0 ? (Int.max, 0) : (0, Int.min)
            return out
        }
        #expect(batch.allSatisfy { $0.bounds == nil })
        let clip = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        let untouched = composited([], width: width, height: height, offset: (0, 0), clip: clip, parallel: false)
        #expect(
            composited(batch, width: width, height: height, offset: (0, 0), clip: clip, parallel: false) == untouched)
        #expect(
            composited(batch, width: width, height: height, offset: (0, 0), clip: clip, parallel: true) == untouched)
    }

    @Test func masksAndOffsetsOutOfRangeDrawNothingAndDoNotTrap() {
        // Public fields a caller may fill with anything: a mask placed near Int.max, one whose size overflows
        // width × height, and a target offset near Int.min. None traps; each draws nothing.
        let (width, height) = (64, 48)
        let colour = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        func mask(x: Int, y: Int, width w: Int, height h: Int) -> GlyphRunCommand.Mask {
            GlyphRunCommand.Mask(
                coverage: [UInt8](repeating: 255, count: 16), x: x, y: y, width: w, height: h, color: colour,
                clip: .identity, clipWidth: 1e9, clipHeight: 1e9)
        }
        let far = GlyphRunCommand(
            masks: [
                mask(x: Int.max - 2, y: 3, width: 4, height: 4), mask(x: 3, y: Int.min + 1, width: 4, height: 4),
                mask(x: 2, y: 2, width: Int.max / 2, height: 3), mask(x: 2, y: 2, width: 1 << 40, height: 1 << 40),
            ], pixelRatio: 1)
        #expect(far.bounds == nil)
        let clip = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        let untouched = composited([], width: width, height: height, offset: (0, 0), clip: clip, parallel: false)
        for parallel in [false, true] {
            #expect(
                composited([far], width: width, height: height, offset: (0, 0), clip: clip, parallel: parallel)
                    == untouched)
        }
        // A drawable mask at a target offset beyond ±2³² draws nothing; within it, it draws.
        let near = GlyphRunCommand(masks: [mask(x: 2, y: 2, width: 4, height: 4)], pixelRatio: 1)
        for parallel in [false, true] {
            #expect(
                composited(
                    [near], width: width, height: height, offset: (Int.min + 1, 0), clip: clip,
                    parallel: parallel) == untouched)
            #expect(
                composited([near], width: width, height: height, offset: (0, 0), clip: clip, parallel: parallel)
                    != untouched)
        }
    }

    @Test func blocksHoldDisjointRowsAndEveryMaskRowOnce() {
        let (width, height) = (300, 200)
        let batch = runs(count: 90, width: width, height: height, seed: 9)
        let area = PixelRect(minX: 0, minY: 5, maxX: width, maxY: height - 3)
        let plan = GlyphRunBlocks.plan(batch, offsetX: 2, offsetY: 1, area: area)
        // Rows in order, disjoint, inside the area, cut at band edges; a few blocks.
        for (a, b) in zip(plan.blocks, plan.blocks.dropFirst()) { #expect(a.rows.upperBound <= b.rows.lowerBound) }
        for block in plan.blocks {
            #expect(block.rows.lowerBound >= area.minY && block.rows.upperBound <= area.maxY)
            #expect((block.rows.lowerBound - area.minY) % GlyphRunBlocks.bandRows == 0 && !block.rows.isEmpty)
        }
        #expect(plan.blocks.count >= 4 && plan.blocks.count <= GlyphRunBlocks.blockCount + 1)
        // Each mask's rows inside the area are covered by exactly the blocks that list it, each listing it once, in
        // the batch's order.
        var rowsListed: [[Int]: Int] = [:]
        for block in plan.blocks {
            let order = block.masks.map { [Int($0.run), Int($0.mask)] }
            #expect(order == order.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
            #expect(Set(order).count == order.count)
            for item in block.masks {
                let m = batch[Int(item.run)].masks[Int(item.mask)]
                let rows = (m.y + 1)..<(m.y + 1 + m.height)
                #expect(rows.overlaps(block.rows))
                rowsListed[[Int(item.run), Int(item.mask)], default: 0] += rows.clamped(to: block.rows).count
            }
        }
        var listed = 0
        for (r, run) in batch.enumerated() where run.opacity > 0 {
            for (i, m) in run.masks.enumerated() {
                let rows = (m.y + 1)..<(m.y + 1 + m.height)
                let columns = (m.x + 2)..<(m.x + 2 + m.width)
                let inside = rows.clamped(to: area.minY..<area.maxY)
                let visible = !inside.isEmpty && columns.overlaps(area.minX..<area.maxX)
                #expect(rowsListed[[r, i]] == (visible ? inside.count : nil))
                if visible { listed += 1 }
            }
        }
        #expect(listed > 200)
        // A block composited alone writes only its own rows.
        for block in plan.blocks {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            pixels.withUnsafeMutableBufferPointer { buffer in
                let target = LinePixelTarget(
                    base: buffer.baseAddress!, width: width, height: height, bytesPerRow: width * 4)
                let rows = PixelRect(
                    minX: area.minX, minY: block.rows.lowerBound, maxX: area.maxX, maxY: block.rows.upperBound)
                for item in block.masks {
                    batch[Int(item.run)].composite(
                        maskAt: Int(item.mask), into: target, offsetX: 2, offsetY: 1, clip: rows)
                }
            }
            let written = (0..<height).filter { y in
                pixels[(y * width * 4)..<((y + 1) * width * 4)].contains { $0 != 0 }
            }
            #expect(!written.isEmpty && written.allSatisfy { block.rows.contains($0) })
        }
    }

    @Test func aSmallBatchIsCompositedOnTheCallingThreadAlike() {
        let batch = runs(count: 3, width: 40, height: 30, seed: 4)
        let clip = PixelRect(minX: 0, minY: 0, maxX: 40, maxY: 30)
        #expect(GlyphRunBlocks.plan(batch, offsetX: 0, offsetY: 0, area: clip).pixels < GlyphRunBlocks.parallelPixels)
        #expect(
            composited(batch, width: 40, height: 30, offset: (0, 0), clip: clip, parallel: true)
                == composited(batch, width: 40, height: 30, offset: (0, 0), clip: clip, parallel: false))
    }
}

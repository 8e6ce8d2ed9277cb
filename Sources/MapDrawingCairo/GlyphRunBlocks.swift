import Dispatch
import MapDrawing

/// The compositing of a batch of glyph runs shared out between threads: the target's rows go in a few blocks of about
/// equal work (the masks' pixels), each block blends every run's masks clipped to its rows, in the runs' order and each
/// run's masks' order, so every pixel sees the masks in the order ``GlyphRunCommand/composite(into:offsetX:offsetY:clip:)``
/// blends them one run after another, and the pixels are the same whatever the number of threads. Blocks write
/// disjoint rows.
enum GlyphRunBlocks {
    /// Batches whose masks cover at least this many pixels (inside the clip) are composited on several threads.
    static let parallelPixels = 65_536
    /// Blocks are cut at multiples of this many rows from the area's top.
    static let bandRows = 8
    /// Blocks of about equal work a batch is cut into (one more at most): a few a thread, for the threads to even out
    /// (a mask crossing a cut is set up once in each block, so fewer are better).
    static let blockCount = 8

    /// One block: target rows `rows` and the masks crossing them, `(run, mask)` indices in drawing order.
    struct Block: Sendable, Equatable {
        var rows: Range<Int>
        var masks: [Item]
    }

    /// A run's mask: indices into the batch and into the run's ``GlyphRunCommand/masks``.
    struct Item: Sendable, Equatable {
        var run: Int32
        var mask: Int32
    }

    /// The blocks of `runs` composited at `offsetX`/`offsetY` into the pixels of `area` (already cut to the
    /// target), and the pixels their masks cover inside it. Masks that draw nothing (empty, short coverage, a run at
    /// opacity 0) or lie outside `area` are left out; blocks without a mask are too. The rows are cut at band edges
    /// (``bandRows``) where the masks' pixels above reach each ``blockCount``-th of the whole.
    static func plan(_ runs: [GlyphRunCommand], offsetX: Int, offsetY: Int, area: PixelRect)
        -> (blocks: [Block], pixels: Int)
    {
        guard !area.isEmpty, runs.count <= Int(Int32.max) else { return ([], 0) }
        let bands = (area.maxY - area.minY + bandRows - 1) / bandRows
        // The masks' pixels by band, and each mask drawn with its rows inside the area.
        var work = [Int](repeating: 0, count: bands)
        var drawn: [(item: Item, top: Int, bottom: Int)] = []
        var pixels = 0
        for (r, run) in runs.enumerated() {
            let opacity = min(1, max(0, run.opacity.isNaN ? 0 : run.opacity))
            guard opacity > 0, run.isShiftInRange, GlyphRunCommand.isOffsetInRange(offsetX, offsetY),
                run.masks.count <= Int(Int32.max)
            else { continue }
            let (dx, dy) = (offsetX + run.shiftX, offsetY + run.shiftY)
            for (i, m) in run.masks.enumerated() where m.isDrawable {
                let top = max(area.minY, m.y + dy)
                let bottom = min(area.maxY, m.y + dy + m.height)
                let left = max(area.minX, m.x + dx)
                let right = min(area.maxX, m.x + dx + m.width)
                guard top < bottom, left < right else { continue }
                pixels += (bottom - top) * (right - left)
                drawn.append((Item(run: Int32(r), mask: Int32(i)), top, bottom))
                var y = top
                while y < bottom {
                    let band = (y - area.minY) / bandRows
                    let end = min(bottom, area.minY + (band + 1) * bandRows)
                    work[band] += (end - y) * (right - left)
                    y = end
                }
            }
        }
        // The cuts: a block ends with the band where the pixels so far pass another share of the whole.
        var blockOfBand = [Int](repeating: 0, count: bands)
        var rows: [Range<Int>] = []
        var (sum, start, passed) = (0, 0, 0)
        for band in 0..<bands {
            sum += work[band]
            blockOfBand[band] = rows.count
            let level = pixels > 0 ? Int((Double(sum) / Double(pixels) * Double(blockCount)).rounded(.down)) : 1
            if band == bands - 1 || level > passed {
                rows.append((area.minY + start * bandRows)..<min(area.maxY, area.minY + (band + 1) * bandRows))
                (start, passed) = (band + 1, level)
            }
        }
        var items = [[Item]](repeating: [], count: rows.count)
        for (item, top, bottom) in drawn {
            for b in blockOfBand[(top - area.minY) / bandRows]...blockOfBand[(bottom - 1 - area.minY) / bandRows] {
                items[b].append(item)
            }
        }
        var blocks: [Block] = []
        for (block, masks) in zip(rows, items) where !masks.isEmpty { blocks.append(Block(rows: block, masks: masks)) }
        return (blocks, pixels)
    }

    /// Composites `runs`, in order, into `target` as each run's
    /// ``GlyphRunCommand/composite(into:offsetX:offsetY:clip:)`` does one after another: on several threads
    /// (``plan(_:offsetX:offsetY:area:)``'s blocks) when their masks cover at least ``parallelPixels`` pixels and
    /// `parallel` allows it, else on the calling thread. The same pixels either way.
    static func composite(
        _ runs: [GlyphRunCommand], into target: LinePixelTarget, offsetX: Int, offsetY: Int, clip: PixelRect,
        parallel: Bool = true
    ) {
        let area = clip.intersection(PixelRect(minX: 0, minY: 0, maxX: target.width, maxY: target.height))
        guard !area.isEmpty else { return }
        // The masks' bytes bound the pixels they draw: a batch below the threshold by that bound is composited on this
        // thread without a plan.
        var bound = 0
        if parallel {
            for r in runs.indices {
                runs[r].masks.withUnsafeBufferPointer { masks in
                    for i in masks.indices { bound &+= masks[i].coverage.count }
                }
            }
        }
        if bound >= parallelPixels {
            let (blocks, pixels) = plan(runs, offsetX: offsetX, offsetY: offsetY, area: area)
            if pixels >= parallelPixels && blocks.count >= 2 {
                // The runs read in place (no copy of a run, so no reference counting shared between the threads for
                // each mask), the target written in disjoint rows.
                runs.withUnsafeBufferPointer { runs in
                    let shared = SharedPointers(runs: runs, target: target)
                    DispatchQueue.concurrentPerform(iterations: blocks.count) { b in
                        let block = blocks[b]
                        let rows = PixelRect(
                            minX: area.minX, minY: block.rows.lowerBound, maxX: area.maxX, maxY: block.rows.upperBound)
                        for item in block.masks {
                            shared.runs[Int(item.run)].composite(
                                maskAt: Int(item.mask), into: shared.target, offsetX: offsetX, offsetY: offsetY,
                                clip: rows)
                        }
                    }
                }
                return
            }
        }
        for run in runs { run.composite(into: target, offsetX: offsetX, offsetY: offsetY, clip: area) }
    }
}

/// The runs, read by several threads, and the target's pixels, written by them in disjoint blocks of rows
/// (``GlyphRunBlocks``); both outlive the threads' work.
private struct SharedPointers: @unchecked Sendable {
    let runs: UnsafeBufferPointer<GlyphRunCommand>
    let target: LinePixelTarget
}

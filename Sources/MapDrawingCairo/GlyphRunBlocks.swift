import Dispatch
import MapDrawing

/// The compositing of a batch of glyph runs shared out between threads: the target's rows go in blocks of
/// ``blockRows``, each block blends every run's masks clipped to its rows, in the runs' order and each run's masks'
/// order, so every pixel sees the masks in the order ``GlyphRunCommand/composite(into:offsetX:offsetY:clip:)`` blends
/// them one run after another, and the pixels are the same whatever the number of threads. Blocks write disjoint rows.
enum GlyphRunBlocks {
    /// Batches whose masks cover at least this many pixels (inside the clip) are composited on several threads.
    static let parallelPixels = 65_536
    /// Rows of a block shared out to one thread.
    static let blockRows = 32

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
    /// opacity 0 or a colour without alpha) or lie outside `area` are left out; blocks without a mask are too.
    static func plan(_ runs: [GlyphRunCommand], offsetX: Int, offsetY: Int, area: PixelRect)
        -> (blocks: [Block], pixels: Int)
    {
        guard !area.isEmpty, runs.count <= Int(Int32.max) else { return ([], 0) }
        let count = (area.maxY - area.minY + blockRows - 1) / blockRows
        var items = [[Item]](repeating: [], count: count)
        var pixels = 0
        for (r, run) in runs.enumerated() {
            let opacity = min(1, max(0, run.opacity.isNaN ? 0 : run.opacity))
            guard opacity > 0, run.masks.count <= Int(Int32.max) else { continue }
            for (i, m) in run.masks.enumerated()
            where m.width > 0 && m.height > 0 && m.coverage.count >= m.width * m.height {
                let top = max(area.minY, m.y + offsetY)
                let bottom = min(area.maxY, m.y + offsetY + m.height)
                let left = max(area.minX, m.x + offsetX)
                let right = min(area.maxX, m.x + offsetX + m.width)
                guard top < bottom, left < right else { continue }
                pixels += (bottom - top) * (right - left)
                let item = Item(run: Int32(r), mask: Int32(i))
                for b in ((top - area.minY) / blockRows)...((bottom - 1 - area.minY) / blockRows) {
                    items[b].append(item)
                }
            }
        }
        var blocks: [Block] = []
        for (b, masks) in items.enumerated() where !masks.isEmpty {
            let y0 = area.minY + b * blockRows
            blocks.append(Block(rows: y0..<min(y0 + blockRows, area.maxY), masks: masks))
        }
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
        if parallel {
            let (blocks, pixels) = plan(runs, offsetX: offsetX, offsetY: offsetY, area: area)
            if pixels >= parallelPixels && blocks.count >= 2 {
                let shared = SharedTarget(target: target)
                DispatchQueue.concurrentPerform(iterations: blocks.count) { b in
                    let block = blocks[b]
                    let rows = PixelRect(
                        minX: area.minX, minY: block.rows.lowerBound, maxX: area.maxX, maxY: block.rows.upperBound)
                    for item in block.masks {
                        runs[Int(item.run)].composite(
                            maskAt: Int(item.mask), into: shared.target, offsetX: offsetX, offsetY: offsetY, clip: rows)
                    }
                }
                return
            }
        }
        for run in runs { run.composite(into: target, offsetX: offsetX, offsetY: offsetY, clip: area) }
    }
}

/// The target's pixels, written by several threads in disjoint blocks of rows (``GlyphRunBlocks``).
private struct SharedTarget: @unchecked Sendable {
    let target: LinePixelTarget
}

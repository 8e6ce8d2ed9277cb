import Synchronization

/// The glyphs of one fontstack and 256-codepoint range, decoded (``GlyphPBF``), as a renderer queries them.
public struct GlyphRange: Sendable {
    /// The fontstack the range was asked for.
    public let fontstack: String
    /// The first codepoint (a multiple of 256).
    public let start: Int
    /// The glyphs by codepoint (from the PBF's stacks; only codepoints inside the range).
    public let glyphs: [Int: SDFGlyph]
    /// Why the range has no glyphs, when it failed to load or decode (`nil`: loaded, or the server has none).
    public let problem: String?

    /// The codepoints the range covers, `start...start + 255`.
    public var codepoints: ClosedRange<Int> { start...(start + 255) }

    /// The bytes the range holds (bitmaps and a fixed 64 bytes a glyph), for the store's bound.
    var byteCount: Int { glyphs.values.reduce(0) { $0 + $1.bitmap.count + 64 } }
}

/// Glyph PBF ranges made available to a renderer: fetched on first use through the host's loader (a style's
/// `glyphs` template over HTTP or from files; ``GlyphStore/Loader``), decoded once, kept under a byte bound.
/// `MapRenderer.setGlyphs(_:)` draws labels from such a store (the render-test runner gives it one; the map view's
/// text is still Pango's); tools may use it too. Waymark's own.
///
/// A range that failed (network error, bad PBF) is remembered with its ``GlyphRange/problem`` and not fetched again
/// until it is evicted; a range the server does not have (`nil` from the loader, HTTP 404) is an empty range.
///
/// Thread rules: any thread. ``range(fontstack:containing:)`` waits for the loader on a miss, so call it off the
/// frame thread (the tile worker, a prefetch); ``cachedRange(fontstack:containing:)`` never waits.
public final class GlyphStore: Sendable {
    /// Fetches one range's PBF bytes: the fontstack as the style names it, and the range's first codepoint; `nil`
    /// when there is none. Errors become the range's ``GlyphRange/problem``.
    public typealias Loader = @Sendable (_ fontstack: String, _ rangeStart: Int) throws -> [UInt8]?

    private let load: Loader
    private let byteLimit: Int
    private struct State {
        var ranges: [String: GlyphRange] = [:]
        var order: [String] = []
        var bytes = 0
    }
    private let state = Mutex(State())

    /// Creates a store.
    /// - Parameters:
    ///   - byteLimit: decoded bytes kept (oldest ranges out first; one range is always kept). Default 32 MiB.
    ///   - load: the loader.
    public init(byteLimit: Int = 32 << 20, load: @escaping Loader) {
        self.byteLimit = max(0, byteLimit)
        self.load = load
    }

    /// The decoded bytes held now.
    public var byteCount: Int { state.withLock { $0.bytes } }

    private static func key(_ fontstack: String, _ start: Int) -> String { "\(start)|\(fontstack)" }

    /// The first codepoint of the range holding `codepoint` (negative ones count as 0, ones past U+10FFFF as its
    /// last range).
    public static func rangeStart(of codepoint: Int) -> Int { min(max(codepoint, 0), 0x10FFFF) / 256 * 256 }

    /// The range holding `codepoint` when it is loaded already; never waits.
    public func cachedRange(fontstack: String, containing codepoint: Int) -> GlyphRange? {
        let key = Self.key(fontstack, Self.rangeStart(of: codepoint))
        return state.withLock { $0.ranges[key] }
    }

    /// The range holding `codepoint`, loaded and decoded on a miss (waits for the loader).
    public func range(fontstack: String, containing codepoint: Int) -> GlyphRange {
        let start = Self.rangeStart(of: codepoint)
        if let hit = cachedRange(fontstack: fontstack, containing: start) { return hit }
        var glyphs: [Int: SDFGlyph] = [:]
        var problem: String? = nil
        do {
            if let data = try load(fontstack, start) {
                let pbf = try GlyphPBF(bytes: data, name: "\(fontstack) \(start)-\(start + 255)")
                for stack in pbf.stacks {
                    for glyph in stack.glyphs where glyph.id >= start && glyph.id <= start + 255 {
                        glyphs[glyph.id] = glyph
                    }
                }
            }
        } catch {
            problem = "\(error)"
        }
        let range = GlyphRange(fontstack: fontstack, start: start, glyphs: glyphs, problem: problem)
        store(range)
        return range
    }

    /// The glyph for `codepoint` in `fontstack`, loading its range on a miss; `nil` when the range has none.
    public func glyph(fontstack: String, codepoint: Int) -> SDFGlyph? {
        range(fontstack: fontstack, containing: codepoint).glyphs[codepoint]
    }

    private func store(_ range: GlyphRange) {
        let key = Self.key(range.fontstack, range.start)
        let limit = byteLimit
        state.withLock { s in
            guard s.ranges[key] == nil else { return }
            s.ranges[key] = range
            s.order.append(key)
            s.bytes += range.byteCount
            while s.bytes > limit && s.order.count > 1 {
                let old = s.order.removeFirst()
                s.bytes -= s.ranges.removeValue(forKey: old)?.byteCount ?? 0
            }
        }
    }
}

import MapData
import MapDrawing
import MapGeometry

/// The coverage masks of glyph quads, drawn once per glyph, size, paint parameters and sub-pixel phase and then
/// reused (MapLibre's glyph atlas and cairo's glyph cache): a label that moves is composed again from its glyphs'
/// masks instead of sampling their signed distance fields again. Waymark's own.
///
/// A mask is the glyph's fill or halo coverage (``SDFText/fillAlpha(distance:fontScale:pixelRatio:gammaScale:)``,
/// ``SDFText/haloAlpha(distance:fontScale:pixelRatio:haloWidth:haloBlur:gammaScale:)``; one byte a device pixel,
/// 255 = 1) for the quad's linear map (size and rotation, exact) with its translation's fraction rounded to
/// 1 / ``phaseSteps`` device pixel on each axis: a glyph lies at most 1/16 device pixel from its exact place.
///
/// Bounded by bytes: at most ``byteLimit`` bytes of masks, each counted with what it really costs (its coverage, the
/// coverage array's header and the cache's bookkeeping, ``entryOverhead``), least recently used out first. A key is
/// small (48 bytes): the glyph and the paint are interned to integers (``glyphID(_:)``, ``paintID(halo:fontScale:pixelRatio:haloWidth:haloBlur:)``),
/// so an entry holds no glyph or bitmap of its own. Thread rules: one owner thread (a renderer's frame thread); not
/// thread-safe.
final class GlyphMaskCache {
    /// Sub-pixel phases kept per device pixel and axis.
    static let phaseSteps = 8
    /// Bytes counted for each mask besides its coverage bytes: the coverage array's header (32 bytes) and allocation
    /// rounding (16), and the LRU's slot and index entry (``ByteBoundedLRU/bytesPerEntry``, from the real layout).
    static let entryOverhead = 48 + ByteBoundedLRU<Key, Mask>.bytesPerEntry
    /// Default bound: 8 MiB a renderer, all of it counted (the bound was 4 MiB when an entry was counted at 160 bytes
    /// besides its coverage, which left about 12 MB of keys and index uncounted at the pan benchmark's peak). At 4 MiB
    /// counted this way the rotated benchmark (ten bearings in turn) draws masks again and is about 15 % slower.
    static let defaultByteLimit = 8 << 20
    /// Interned glyphs or paints kept before everything is dropped and interned again (the tables never shrink
    /// otherwise; a map shows a few hundred of each).
    static let internLimit = 1 << 16

    /// What a mask is drawn for.
    struct Key: Hashable {
        /// The quad's linear map, texels → device pixels.
        var a: Double
        var b: Double
        var c: Double
        var d: Double
        /// The glyph, ``GlyphMaskCache/glyphID(_:)``.
        var glyph: UInt32
        /// The pass and its parameters, ``GlyphMaskCache/paintID(halo:fontScale:pixelRatio:haloWidth:haloBlur:)``.
        var paint: UInt32
        /// The translation's phase, in 1 / ``phaseSteps`` device pixels, `0..<phaseSteps`.
        var phaseX: UInt8
        var phaseY: UInt8
    }

    /// A glyph identity for interning: equal only with the same metrics and bitmap (the bitmap's storage is compared
    /// first, so a glyph from the same store is recognised without reading its bytes).
    private struct InternedGlyph: Hashable {
        var glyph: SDFGlyph
        static func == (l: Self, r: Self) -> Bool { l.glyph == r.glyph }
        func hash(into hasher: inout Hasher) {
            hasher.combine(glyph.id)
            hasher.combine(glyph.width)
            hasher.combine(glyph.height)
            hasher.combine(glyph.left)
            hasher.combine(glyph.top)
        }
    }

    /// A pass's parameters (0 for a fill's halo width and blur).
    private struct Paint: Hashable {
        var halo: Bool
        var fontScale: Double
        var pixelRatio: Double
        var haloWidth: Double
        var haloBlur: Double
    }

    /// A glyph's coverage: `width × height` bytes, the top-left one at `(x, y)` device pixels from the whole pixel
    /// the quad's translation lies in.
    struct Mask {
        var coverage: [UInt8]
        private var origin: (x: Int32, y: Int32)
        private var size: (width: Int32, height: Int32)
        var x: Int { Int(origin.x) }
        var y: Int { Int(origin.y) }
        var width: Int { Int(size.width) }
        var height: Int { Int(size.height) }

        /// A mask; `x`, `y`, `width` and `height` within ±2³¹ (device pixels of one glyph).
        init(coverage: [UInt8], x: Int, y: Int, width: Int, height: Int) {
            self.coverage = coverage
            origin = (Int32(clamping: x), Int32(clamping: y))
            size = (Int32(clamping: width), Int32(clamping: height))
        }
    }

    private var masks: ByteBoundedLRU<Key, Mask>
    private var glyphs: [InternedGlyph: UInt32] = [:]
    private var paints: [Paint: UInt32] = [:]
    /// The next interned glyph's and paint's integers: never reused (not even after ``removeAll()``), so a key made
    /// before the tables were dropped never stands for another glyph or paint.
    private var nextGlyph: UInt32 = 0
    private var nextPaint: UInt32 = 0

    /// A cache of at most `byteLimit` bytes (negative counts as 0: nothing is kept).
    init(byteLimit: Int = GlyphMaskCache.defaultByteLimit) { masks = ByteBoundedLRU(byteLimit: byteLimit) }

    /// The most bytes held.
    var byteLimit: Int { masks.byteLimit }
    /// The bytes held now, `≤ byteLimit`.
    var byteCount: Int { masks.totalBytes }
    /// Masks held now.
    var count: Int { masks.count }
    /// Lookups answered from the cache, and those that drew a mask.
    var hits: Int { masks.hits }
    var misses: Int { masks.misses }

    /// Drops every mask and interned glyph and paint.
    func removeAll() {
        _ = masks.removeAll()
        glyphs.removeAll()
        paints.removeAll()
    }

    /// The small integer standing for `glyph` in ``Key/glyph`` (glyphs equal in metrics and bitmap share one).
    func glyphID(_ glyph: SDFGlyph) -> UInt32 {
        if let id = glyphs[InternedGlyph(glyph: glyph)] { return id }
        if glyphs.count >= Self.internLimit { removeAll() }
        let id = nextGlyph
        nextGlyph &+= 1
        glyphs[InternedGlyph(glyph: glyph)] = id
        return id
    }

    /// The small integer standing for a pass's parameters in ``Key/paint``: the halo's (`halo`, with its width and
    /// blur) or the fill's (`haloWidth` and `haloBlur` 0).
    func paintID(halo: Bool, fontScale: Double, pixelRatio: Double, haloWidth: Double, haloBlur: Double) -> UInt32 {
        let paint = Paint(
            halo: halo, fontScale: fontScale, pixelRatio: pixelRatio, haloWidth: haloWidth, haloBlur: haloBlur)
        if let id = paints[paint] { return id }
        if paints.count >= Self.internLimit { removeAll() }
        let id = nextPaint
        nextPaint &+= 1
        paints[paint] = id
        return id
    }

    /// The mask under `key`, drawn by `make` and kept on first use.
    func mask(_ key: Key, make: () -> Mask) -> Mask {
        if let hit = cached(key) { return hit }
        let mask = make()
        insert(mask, for: key)
        return mask
    }

    /// The mask under `key` if kept (counted as a hit or a miss).
    func cached(_ key: Key) -> Mask? { masks.value(for: key) }

    /// Whether a mask is kept under `key` (not counted).
    func contains(_ key: Key) -> Bool { masks.contains(key) }

    /// Keeps `mask` under `key` as the most recently used (older masks leave to stay within ``byteLimit``).
    func insert(_ mask: Mask, for key: Key) {
        masks.insert(mask, for: key, cost: mask.coverage.count + Self.entryOverhead) { _ in }
    }
}

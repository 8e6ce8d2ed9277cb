import MapData
import MapDrawing
import MapGeometry

/// The coverage masks of glyph quads, drawn once per glyph, size, paint parameters and sub-pixel phase and then
/// reused (MapLibre's glyph atlas and cairo's glyph cache): a label that moves is composed again from its glyphs'
/// masks instead of sampling their signed distance fields again. Waymark's own.
///
/// An entry holds a glyph's halo and fill masks together (``Masks``; the fill's alone for a paint without a halo),
/// drawn from one sampling of its field: a label's glyph costs one look-up for both passes. A mask is the glyph's fill
/// or halo coverage (``SDFText/fillAlpha(distance:fontScale:pixelRatio:gammaScale:)``,
/// ``SDFText/haloAlpha(distance:fontScale:pixelRatio:haloWidth:haloBlur:gammaScale:)``; one byte a device pixel,
/// 255 = 1) for the quad's linear map (size and rotation, exact) with its translation's fraction rounded to
/// 1 / ``phaseSteps`` device pixel on each axis: a glyph lies at most 1/16 device pixel from its exact place.
///
/// Bounded by bytes: at most ``byteLimit`` bytes of masks, each entry counted with what it really costs (its masks'
/// coverage, their arrays' headers and the cache's bookkeeping, ``entryOverhead``), least recently used out first. A key is
/// small (48 bytes): the glyph and the paint are interned to integers (``glyphID(_:)``, ``paintID(halo:fontScale:pixelRatio:haloWidth:haloBlur:)``),
/// so an entry holds no glyph or bitmap of its own. Thread rules: one owner thread (a renderer's frame thread); not
/// thread-safe.
final class GlyphMaskCache {
    /// Sub-pixel phases kept per device pixel and axis.
    static let phaseSteps = 8
    /// Bytes counted for each entry besides its coverage bytes: its two coverage arrays' headers (32 bytes) and
    /// allocation rounding (16) each, and the LRU's slot and index entry (``ByteBoundedLRU/bytesPerEntry``, from the
    /// real layout). A fill-only entry's empty halo array allocates nothing; counted all the same (a bound, simple).
    static let entryOverhead = 2 * 48 + ByteBoundedLRU<Key, Masks>.bytesPerEntry
    /// Default bound: 8 MiB a renderer, all of it counted (the bound was 4 MiB when an entry was counted at 160 bytes
    /// besides its coverage, which left about 12 MB of keys and index uncounted at the pan benchmark's peak). At 4 MiB
    /// counted this way the rotated benchmark (ten bearings in turn) draws masks again and is about 15 % slower.
    static let defaultByteLimit = 8 << 20
    /// Interned glyphs or paints kept before everything is dropped and interned again (the tables never shrink
    /// otherwise; a map shows a few hundred of each).
    static let internLimit = 1 << 16

    /// What an entry's masks are drawn for.
    struct Key: Hashable {
        /// The quad's linear map, texels → device pixels.
        var a: Double
        var b: Double
        var c: Double
        var d: Double
        /// The glyph, ``GlyphMaskCache/glyphID(_:)``.
        var glyph: UInt32
        /// The paint's parameters (halo and fill, or fill only),
        /// ``GlyphMaskCache/paintID(halo:fontScale:pixelRatio:haloWidth:haloBlur:)``.
        var paint: UInt32
        /// The translation's phase, in 1 / ``phaseSteps`` device pixels, `0..<phaseSteps`.
        var phaseX: UInt8
        var phaseY: UInt8

        /// Hashes two words instead of the key's six: the linear map's four bit patterns folded into one (rotated
        /// apart, so a swap of terms or a sign changes it), the glyph, paint and phase packed into the other.
        /// Equality still compares every field; a fold's collisions cost a comparison, never a wrong mask.
        func hash(into hasher: inout Hasher) {
            let map =
                a.bitPattern ^ (b.bitPattern &<< 17 | b.bitPattern &>> 47)
                ^ (c.bitPattern &<< 31 | c.bitPattern &>> 33) ^ (d.bitPattern &<< 47 | d.bitPattern &>> 17)
            let rest = UInt64(glyph) | UInt64(paint) &<< 32 ^ UInt64(phaseX) &<< 24 ^ UInt64(phaseY) &<< 56
            hasher.combine(map)
            hasher.combine(rest)
        }
    }

    /// A glyph identity for interning: equal only with the same metrics and bitmap (the bitmap's storage is compared
    /// first, so a glyph from the same store is recognised without reading its bytes).
    private struct InternedGlyph: Hashable {
        var glyph: SDFGlyph
        static func == (l: Self, r: Self) -> Bool { l.glyph == r.glyph }
        /// One word: the codepoint and metrics packed (folded where they overlap, which costs a comparison at most).
        func hash(into hasher: inout Hasher) {
            let packed =
                UInt64(truncatingIfNeeded: glyph.id) ^ UInt64(truncatingIfNeeded: glyph.width) &<< 21
                ^ UInt64(truncatingIfNeeded: glyph.height) &<< 32 ^ UInt64(truncatingIfNeeded: glyph.left) &<< 43
                ^ UInt64(truncatingIfNeeded: glyph.top) &<< 54
            hasher.combine(packed)
        }
    }

    /// A paint's parameters: the halo's and fill's (`halo`), or the fill's alone (halo width and blur 0).
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

    /// A glyph's masks at one key: its halo's (empty for a fill-only paint) and its fill's.
    struct Masks {
        var halo: Mask
        var fill: Mask
    }

    private var masks: ByteBoundedLRU<Key, Masks>
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
    /// Entries held now (a glyph's halo and fill masks count as one).
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

    /// Whether interning `glyphs` more glyphs and `paints` more paints (new ones or not) keeps both tables within
    /// ``internLimit``: no ``glyphID(_:)`` or ``paintID(halo:fontScale:pixelRatio:haloWidth:haloBlur:)`` among them
    /// drops everything.
    func hasInternRoom(glyphs: Int, paints: Int) -> Bool {
        self.glyphs.count + glyphs <= Self.internLimit && self.paints.count + paints <= Self.internLimit
    }

    /// The keys held, the most recently used first.
    var keysByRecency: [Key] { masks.keysByRecency }

    /// The small integer standing for `glyph` in ``Key/glyph`` (glyphs equal in metrics and bitmap share one).
    func glyphID(_ glyph: SDFGlyph) -> UInt32 {
        if let id = glyphs[InternedGlyph(glyph: glyph)] { return id }
        if glyphs.count >= Self.internLimit { removeAll() }
        let id = nextGlyph
        nextGlyph &+= 1
        glyphs[InternedGlyph(glyph: glyph)] = id
        return id
    }

    /// The small integer standing for a paint's parameters in ``Key/paint``: the halo's and the fill's (`halo`, with
    /// the halo's width and blur: entries hold both masks) or the fill's alone (`haloWidth` and `haloBlur` 0).
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

    /// The masks under `key`, drawn by `make` and kept on first use.
    func masks(_ key: Key, make: () -> Masks) -> Masks {
        if let hit = cached(key) { return hit }
        let made = make()
        insert(made, for: key)
        return made
    }

    /// The masks under `key` if kept (counted as a hit or a miss).
    func cached(_ key: Key) -> Masks? { masks.value(for: key) }

    /// Whether masks are kept under `key` (not counted).
    func contains(_ key: Key) -> Bool { masks.contains(key) }

    /// Keeps `entry` under `key` as the most recently used (older entries leave to stay within ``byteLimit``).
    func insert(_ entry: Masks, for key: Key) {
        masks.insert(
            entry, for: key, cost: entry.halo.coverage.count + entry.fill.coverage.count + Self.entryOverhead
        ) { _ in }
    }
}

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
/// Bounded by bytes: at most ``byteLimit`` bytes of masks (each costs its bytes plus ``entryOverhead``), least
/// recently used out first. Thread rules: one owner thread (a renderer's frame thread); not thread-safe.
final class GlyphMaskCache {
    /// Sub-pixel phases kept per device pixel and axis.
    static let phaseSteps = 8
    /// Bytes counted for each mask besides its coverage (key, array header, bookkeeping).
    static let entryOverhead = 160
    /// Default bound: 4 MiB a renderer (about 13,000 masks of 16 × 16 device pixels).
    static let defaultByteLimit = 4 << 20

    /// What a mask is drawn for.
    struct Key: Hashable {
        /// The glyph (hashed by its metrics; equal only with the same bitmap).
        var glyph: SDFGlyph
        /// The quad's linear map, texels → device pixels.
        var a: Double
        var b: Double
        var c: Double
        var d: Double
        /// The translation's phase, in 1 / ``phaseSteps`` device pixels, `0..<phaseSteps`.
        var phaseX: Int
        var phaseY: Int
        /// The halo pass (else the fill's) and its parameters (0 for fills).
        var halo: Bool
        var fontScale: Double
        var pixelRatio: Double
        var haloWidth: Double
        var haloBlur: Double

        func hash(into hasher: inout Hasher) {
            hasher.combine(glyph.id)
            hasher.combine(glyph.width)
            hasher.combine(glyph.height)
            hasher.combine(a)
            hasher.combine(b)
            hasher.combine(c)
            hasher.combine(d)
            hasher.combine(phaseX &* 64 &+ phaseY &* 2 &+ (halo ? 1 : 0))
            hasher.combine(fontScale)
            hasher.combine(haloWidth)
        }
    }

    /// A glyph's coverage: `width × height` bytes, the top-left one at `(x, y)` device pixels from the whole pixel
    /// the quad's translation lies in.
    struct Mask {
        var coverage: [UInt8]
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    private var masks: ByteBoundedLRU<Key, Mask>

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

    /// Drops every mask.
    func removeAll() { _ = masks.removeAll() }

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
        masks.insert(mask, for: key, cost: mask.coverage.count + Self.entryOverhead)
    }
}

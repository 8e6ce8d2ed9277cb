import MapData

/// Merges the glyph ranges of several fonts into one, as tileserver-gl (and `glyph-pbf-composite`) does for a
/// comma-separated fontstack: every codepoint of the range comes from the first font of the list that has it. Waymark's
/// own.
///
/// Each input is decoded with ``GlyphPBF`` (its limits apply: a file over 4 MiB or malformed is left out, as a font
/// without the range is); the answer is one `fontstack` message named by the fonts joined with `", "`, its range
/// `"{start}-{end}"`, its glyphs in codepoint order and only those inside the range.
///
/// Threads: pure functions, any thread.
enum ServedGlyphs {
    /// Most fonts in one requested fontstack (more answer 400). MapLibre styles list one to three.
    static let maxFonts = 8
    /// Largest merged answer, bytes: what ``GlyphPBF`` accepts, 4 MiB (a real range is 20–150 KiB; above this the
    /// server answers 500).
    static let maxMergedBytes = GlyphPBFLimits.maxBytes

    /// The merged PBF of `ranges` (each font's name and file bytes, in the list's order), or `nil` when none of them
    /// decodes.
    static func merge(_ ranges: [(font: String, bytes: [UInt8])], start: Int, end: Int) -> [UInt8]? {
        var chosen: [Int: SDFGlyph] = [:]
        var names: [String] = []
        for range in ranges {
            guard let pbf = try? GlyphPBF(bytes: range.bytes, name: range.font) else { continue }
            names.append(range.font)
            for stack in pbf.stacks {
                for glyph in stack.glyphs where (start...end).contains(glyph.id) && chosen[glyph.id] == nil {
                    chosen[glyph.id] = glyph
                }
            }
        }
        guard !names.isEmpty else { return nil }
        let glyphs = chosen.keys.sorted().map { chosen[$0]! }
        return encode(name: names.joined(separator: ", "), range: "\(start)-\(end)", glyphs: glyphs)
    }

    /// A glyph PBF of one fontstack (glyphs.proto, protocol version 1: `glyphs { repeated fontstack stacks = 1 }`,
    /// `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`, `glyph { id = 1; bitmap = 2; width = 3;
    /// height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`).
    static func encode(name: String, range: String, glyphs: [SDFGlyph]) -> [UInt8] {
        var stack = ProtoWriter()
        stack.bytesField(1, Array(name.utf8))
        stack.bytesField(2, Array(range.utf8))
        for glyph in glyphs {
            var g = ProtoWriter()
            g.varintField(1, UInt64(glyph.id))
            if !glyph.bitmap.isEmpty { g.bytesField(2, glyph.bitmap) }
            g.varintField(3, UInt64(glyph.width))
            g.varintField(4, UInt64(glyph.height))
            // sint32: the 32-bit range, zigzagged.
            g.varintField(5, zigzagEncode(Int64(Int32(clamping: glyph.left))))
            g.varintField(6, zigzagEncode(Int64(Int32(clamping: glyph.top))))
            g.varintField(7, UInt64(max(0, glyph.advance)))
            stack.message(field: 3, g.bytes)
        }
        var out = ProtoWriter()
        out.message(field: 1, stack.bytes)
        return out.bytes
    }
}

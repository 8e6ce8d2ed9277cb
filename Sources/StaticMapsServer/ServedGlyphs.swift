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
        var stack: [UInt8] = []
        appendBytes(&stack, field: 1, Array(name.utf8))
        appendBytes(&stack, field: 2, Array(range.utf8))
        for glyph in glyphs {
            var g: [UInt8] = []
            appendVarint(&g, field: 1, UInt64(glyph.id))
            if !glyph.bitmap.isEmpty { appendBytes(&g, field: 2, glyph.bitmap) }
            appendVarint(&g, field: 3, UInt64(glyph.width))
            appendVarint(&g, field: 4, UInt64(glyph.height))
            appendVarint(&g, field: 5, zigzag(glyph.left))
            appendVarint(&g, field: 6, zigzag(glyph.top))
            appendVarint(&g, field: 7, UInt64(max(0, glyph.advance)))
            appendBytes(&stack, field: 3, g)
        }
        var out: [UInt8] = []
        appendBytes(&out, field: 1, stack)
        return out
    }

    /// A 32-bit signed value in protobuf's zigzag form (`sint32`), clamped to the 32-bit range.
    static func zigzag(_ value: Int) -> UInt64 {
        let v = Int32(clamping: value)
        return UInt64(UInt32(bitPattern: (v << 1) ^ (v >> 31)))
    }

    private static func appendVarint(_ out: inout [UInt8], _ value: UInt64) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private static func appendVarint(_ out: inout [UInt8], field: Int, _ value: UInt64) {
        appendVarint(&out, UInt64(field << 3))
        appendVarint(&out, value)
    }

    private static func appendBytes(_ out: inout [UInt8], field: Int, _ bytes: [UInt8]) {
        appendVarint(&out, UInt64(field << 3 | 2))
        appendVarint(&out, UInt64(bytes.count))
        out += bytes
    }
}

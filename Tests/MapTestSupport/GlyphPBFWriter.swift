import MapData

/// Writes glyph PBF ranges (MapLibre's glyphs.proto: `glyphs { stacks { name, range, glyphs { id, bitmap, width,
/// height, left, top, advance } } }`) for tests, independently of the engine's decoder and the server's encoder.
public enum GlyphPBFWriter {
    /// A PBF of one fontstack `name` and `range` (for example `"0-255"`) holding `glyphs`.
    public static func range(name: String, range: String, glyphs: [SDFGlyph]) -> [UInt8] {
        var stack = field(1, Array(name.utf8)) + field(2, Array(range.utf8))
        for g in glyphs {
            let zigzag = { (v: Int) in UInt64(UInt32(bitPattern: Int32(v) << 1 ^ Int32(v) >> 31)) }
            stack += field(
                3,
                field(1, varint: UInt64(g.id)) + (g.bitmap.isEmpty ? [] : field(2, g.bitmap))
                    + field(3, varint: UInt64(g.width)) + field(4, varint: UInt64(g.height))
                    + field(5, varint: zigzag(g.left)) + field(6, varint: zigzag(g.top))
                    + field(7, varint: UInt64(g.advance)))
        }
        return field(1, stack)
    }

    /// `value` as a protobuf varint.
    public static func varint(_ value: UInt64) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        return out + [UInt8(v)]
    }

    /// A length-delimited field `number` holding `bytes`.
    public static func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] {
        varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes
    }

    /// A varint field `number` holding `value`.
    public static func field(_ number: Int, varint value: UInt64) -> [UInt8] {
        varint(UInt64(number << 3)) + varint(value)
    }
}

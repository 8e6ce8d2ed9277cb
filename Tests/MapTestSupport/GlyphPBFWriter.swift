/// Writes glyph PBF ranges (MapLibre's glyphs.proto: `glyphs { stacks { name, range, glyphs { id, bitmap, width,
/// height, left, top, advance } } }`) for tests, independently of the engine's decoder and the server's encoder.
public enum GlyphPBFWriter {
    /// One glyph's fields as the PBF holds them.
    public struct Glyph {
        /// The codepoint.
        public var id: Int
        /// The SDF bytes, `(width + 6) × (height + 6)`; empty for a glyph without a bitmap (then not written).
        public var bitmap: [UInt8]
        /// The bitmap's width without its 3-pixel border, pixels.
        public var width: Int
        /// The bitmap's height without its 3-pixel border, pixels.
        public var height: Int
        /// The bitmap's offset right of the pen, pixels (signed).
        public var left: Int
        /// The bitmap's top above the baseline less the font's ascent, pixels (signed).
        public var top: Int
        /// The pen's advance, pixels.
        public var advance: Int

        /// Creates a glyph; see the properties.
        public init(id: Int, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
            (self.id, self.bitmap, self.width, self.height) = (id, bitmap, width, height)
            (self.left, self.top, self.advance) = (left, top, advance)
        }
    }

    /// A PBF of one fontstack `name` and `range` (for example `"0-255"`) holding `glyphs`.
    public static func range(name: String, range: String, glyphs: [Glyph]) -> [UInt8] {
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

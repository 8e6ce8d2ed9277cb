/// One glyph of a MapLibre/Mapbox glyph PBF: a signed distance field and its metrics (glyphs.proto, protocol version
/// 1, message `glyph`).
///
/// The SDF has a border of ``GlyphPBF/border`` (3) pixels on each side, so ``bitmap`` holds
/// `(width + 6) × (height + 6)` bytes, rows top to bottom, one byte a pixel (192 is the glyph's edge in MapLibre's
/// encoding); an empty glyph (a space) has no bitmap. Metrics are in pixels at the PBF's 24 px size.
public struct SDFGlyph: Sendable, Equatable {
    /// The Unicode codepoint.
    public var id: Int
    /// The SDF bytes (`(width + 6) × (height + 6)`), empty for a glyph without a bitmap.
    public var bitmap: [UInt8]
    /// The glyph's width without the border, pixels.
    public var width: Int
    /// The glyph's height without the border, pixels.
    public var height: Int
    /// Horizontal offset of the bitmap from the pen position, pixels.
    public var left: Int
    /// Vertical offset of the bitmap's top from the baseline (up positive, MapLibre's `top`), pixels.
    public var top: Int
    /// Pen advance, pixels.
    public var advance: Int

    /// Creates a glyph.
    public init(id: Int, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
        self.id = id
        self.bitmap = bitmap
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
    }
}

/// One fontstack of a glyph PBF (message `fontstack`): its name, the range as written (`"0-255"`) and its glyphs.
public struct GlyphFontstack: Sendable, Equatable {
    /// The fontstack name, for example `Open Sans Regular,Arial Unicode MS Regular`.
    public var name: String
    /// The range as written, for example `0-255`.
    public var range: String
    /// The glyphs kept, in file order (invalid ones are left out and counted in ``GlyphPBF/skippedGlyphs``).
    public var glyphs: [SDFGlyph]
}

/// Why a glyph PBF could not be decoded (the input is named).
public struct GlyphPBFError: Error, Equatable, CustomStringConvertible {
    /// What the input was (a URL or file name).
    public var name: String
    /// What is wrong.
    public var message: String

    /// `glyph PBF <name>: <message>`.
    public var description: String { "glyph PBF \(name): \(message)" }
}

/// A decoded MapLibre/Mapbox glyph PBF (the `{fontstack}/{range}.pbf` files a style's `glyphs` URL names; the
/// protobuf schema `glyphs.proto`, protocol version 1: `glyphs { repeated fontstack stacks = 1 }`,
/// `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`, `glyph { id = 1; bitmap = 2; width = 3;
/// height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`). Pure Swift, over the MVT decoder's protobuf
/// reader.
///
/// Limits (hostile input never crashes and never allocates without bound): the input at most
/// ``GlyphPBFLimits/maxBytes``, at most ``GlyphPBFLimits/maxFontstacks`` stacks and ``GlyphPBFLimits/maxGlyphs``
/// glyphs in all; a glyph is skipped (counted in ``skippedGlyphs``) when its id is not a Unicode scalar value, its
/// width or height is ``GlyphPBFLimits/maxGlyphSide`` or more (MapLibre's bound), or its bitmap is neither empty nor
/// exactly `(width + 6) × (height + 6)` bytes. Unknown fields (the schema's extensions) are skipped.
public struct GlyphPBF: Sendable, Equatable {
    /// The SDF border on each side, pixels.
    public static let border = 3

    /// The stacks, in file order.
    public var stacks: [GlyphFontstack]
    /// Glyphs left out because they broke a rule above.
    public var skippedGlyphs: Int

    /// Decodes a glyph PBF (uncompressed; HTTP gzip is undone by the loader). The fuzzing entry point.
    /// - Parameters:
    ///   - bytes: the PBF bytes.
    ///   - name: what errors call the input (its URL). Default `<glyphs>`.
    /// - Throws: ``GlyphPBFError`` naming `name` for input over the limits, truncated or malformed protobuf, a
    ///   field of the wrong wire type, or a name or range that is not UTF-8.
    public init(bytes: [UInt8], name: String = "<glyphs>") throws(GlyphPBFError) {
        func fail(_ message: String) -> GlyphPBFError { GlyphPBFError(name: name, message: message) }
        guard bytes.count <= GlyphPBFLimits.maxBytes else {
            throw fail("\(bytes.count) bytes is over the limit of \(GlyphPBFLimits.maxBytes)")
        }
        var stacks: [GlyphFontstack] = []
        var skipped = 0
        var glyphCount = 0
        var reader = ByteReader(bytes: bytes)
        do {
            while let field = try reader.readField(context: "glyphs") {
                guard field.number == 1 else { continue }
                guard case .lengthDelimited(let range) = field.payload else {
                    throw fail("stacks (field 1) must be length-delimited, found \(field.wireTypeName)")
                }
                guard stacks.count < GlyphPBFLimits.maxFontstacks else {
                    throw fail("more than \(GlyphPBFLimits.maxFontstacks) fontstacks")
                }
                var stack = GlyphFontstack(name: "", range: "", glyphs: [])
                var sub = ByteReader(bytes: bytes, range: range)
                while let f = try sub.readField(context: "fontstack") {
                    switch (f.number, f.payload) {
                    case (1, .lengthDelimited(let r)), (2, .lengthDelimited(let r)):
                        guard let text = String(validating: bytes[r], as: UTF8.self) else {
                            throw fail("fontstack \(f.number == 1 ? "name" : "range") is not UTF-8")
                        }
                        if f.number == 1 { stack.name = text } else { stack.range = text }
                    case (3, .lengthDelimited(let r)):
                        glyphCount += 1
                        guard glyphCount <= GlyphPBFLimits.maxGlyphs else {
                            throw fail("more than \(GlyphPBFLimits.maxGlyphs) glyphs")
                        }
                        if let glyph = try Self.glyph(bytes, r, fail) {
                            stack.glyphs.append(glyph)
                        } else {
                            skipped += 1
                        }
                    case (1...3, _):
                        throw fail("fontstack field \(f.number) must be length-delimited, found \(f.wireTypeName)")
                    default: continue
                    }
                }
                stacks.append(stack)
            }
        } catch let error as VectorTileError {
            throw fail("\(error)")
        } catch let error as GlyphPBFError {
            throw error
        } catch {
            throw fail("\(error)")
        }
        self.stacks = stacks
        skippedGlyphs = skipped
    }

    /// One `glyph` message, or `nil` when it breaks a rule of the type (skipped, not an error).
    private static func glyph(
        _ bytes: [UInt8], _ range: Range<Int>, _ fail: (String) -> GlyphPBFError
    ) throws -> SDFGlyph? {
        var reader = ByteReader(bytes: bytes, range: range)
        var values = [UInt64](repeating: 0, count: 8)
        var seen = Set<UInt64>()
        var bitmap: Range<Int>? = nil
        while let f = try reader.readField(context: "glyph") {
            switch (f.number, f.payload) {
            case (2, .lengthDelimited(let r)): bitmap = r
            case (1, .varint(let v)), (3...7, .varint(let v)):
                values[Int(f.number)] = v
                seen.insert(f.number)
            case (1...7, _): throw fail("glyph field \(f.number) has the wrong wire type (\(f.wireTypeName))")
            default: continue
            }
        }
        guard seen.contains(1), values[1] <= 0x10FFFF, Unicode.Scalar(UInt32(values[1])) != nil else { return nil }
        let width = values[3]
        let height = values[4]
        guard width < UInt64(GlyphPBFLimits.maxGlyphSide), height < UInt64(GlyphPBFLimits.maxGlyphSide) else {
            return nil
        }
        let w = Int(width)
        let h = Int(height)
        let expected = w == 0 || h == 0 ? 0 : (w + 2 * border) * (h + 2 * border)
        let pixels = bitmap.map { Array(bytes[$0]) } ?? []
        guard pixels.count == expected else { return nil }
        func signed(_ v: UInt64) -> Int { Int(clamping: zigzagDecode(v)) }
        let advance = Int(clamping: min(values[7], UInt64(Int32.max)))
        return SDFGlyph(
            id: Int(values[1]), bitmap: pixels, width: w, height: h, left: signed(values[5]), top: signed(values[6]),
            advance: advance)
    }

    /// The first and last codepoint of a range as written (`"256-511"`), or `nil` when it is not two integers
    /// `first ≤ last` in `0...0x10FFFF`.
    public static func codepoints(ofRange text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b, b <= 0x10FFFF else {
            return nil
        }
        return a...b
    }
}

/// The bounds ``GlyphPBF`` enforces (documented for hostile input).
public enum GlyphPBFLimits {
    /// Largest PBF accepted: 4 MiB (real ranges are 20–150 KiB).
    public static let maxBytes = 4 << 20
    /// Most fontstacks in one PBF: 16 (servers send one).
    public static let maxFontstacks = 16
    /// Most glyphs in one PBF, all stacks together: 16 × 256.
    public static let maxGlyphs = 16 * 256
    /// A glyph's width and height must be below this: 256 pixels (MapLibre's bound).
    public static let maxGlyphSide = 256
}

import CairoGraphics
import StaticMapsServer
import Testing

/// The server's fast PNG writer gives the pixels Cairo's PNG writer gives.
@Suite struct StaticMapPNGTests {
    /// Valid premultiplied BGRA pixels from a fixed pseudo-random sequence: opaque, or with every alpha from 0 to 255
    /// and colour channels at most the alpha.
    static func pixels(width: Int, height: Int, opaque: Bool) -> [UInt8] {
        var state: UInt32 = 0x1234_5678
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
        var out: [UInt8] = []
        for i in 0..<width * height {
            let alpha = opaque ? 255 : UInt8(i % 256)
            for _ in 0..<3 { out.append(alpha == 0 ? 0 : UInt8(Int(next()) % (Int(alpha) + 1))) }
            out.append(alpha)
        }
        return out
    }

    @Test(arguments: [true, false]) func decodesToCairosPixels(opaque: Bool) throws {
        let (width, height) = (37, 23)
        let source = Self.pixels(width: width, height: height, opaque: opaque)
        let ours = try StaticMapPNG.encode(width: width, height: height, premultipliedBGRA: source)
        let cairos = try CairoSurface(width: width, height: height, premultipliedBGRA: source).pngData()
        let decoded = try CairoSurface.decodePNG(ours)
        #expect(decoded.width == width)
        #expect(decoded.height == height)
        #expect(decoded.premultipliedBGRA() == (try CairoSurface.decodePNG(cairos)).premultipliedBGRA())
        // The IHDR colour type (byte 25): RGB for an opaque image, RGBA otherwise, as Cairo chooses.
        #expect(ours[25] == (opaque ? 2 : 6))
        #expect(ours[25] == cairos[25])
        if opaque { #expect(decoded.premultipliedBGRA() == source) }
        // libpng checks the CRC of IHDR and IDAT while decoding; IEND's is a constant.
        #expect(Array(ours.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func refusesPixelsThatDoNotFitTheSize() {
        #expect(throws: (any Error).self) {
            try StaticMapPNG.encode(width: 2, height: 2, premultipliedBGRA: [0, 0, 0, 255])
        }
        #expect(throws: (any Error).self) { try StaticMapPNG.encode(width: 0, height: 0, premultipliedBGRA: []) }
    }

    /// libpng's own errors come back as Swift errors with its message (its error callback jumps out of the write):
    /// libpng refuses to write an image wider than its default limit of 1,000,000 pixels.
    @Test func libpngErrorsBecomeSwiftErrors() throws {
        let width = 1_000_001
        let opaqueRow = [UInt8](repeating: 255, count: width * 4)
        let error = #expect(throws: (any Error).self) {
            try StaticMapPNG.encode(width: width, height: 1, premultipliedBGRA: opaqueRow)
        }
        let message = String(describing: try #require(error))
        #expect(message.contains("libpng"))
        #expect(message.contains("IHDR"))
        // The writer still works after a failed write.
        let small = try StaticMapPNG.encode(width: 2, height: 1, premultipliedBGRA: [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(try CairoSurface.decodePNG(small).premultipliedBGRA() == [1, 2, 3, 255, 4, 5, 6, 255])
    }
}

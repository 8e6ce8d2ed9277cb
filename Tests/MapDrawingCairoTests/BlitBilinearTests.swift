import MapTestSupport
import Testing

@testable import MapDrawingCairo

extension SeededRandom {
    /// A premultiplied ARGB32 pixel: alpha first, each colour channel at most alpha.
    mutating func pixel() -> UInt32 {
        let r = next()
        let a = UInt32(truncatingIfNeeded: r & 255)
        func channel(_ shift: UInt64) -> UInt32 {
            a == 0 ? 0 : UInt32(truncatingIfNeeded: (r >> shift) & 0xFFFF) % (a + 1)
        }
        return a << 24 | channel(8) << 16 | channel(24) << 8 | channel(40)
    }
}

@Suite struct BlitBilinearTests {
    /// The blit's one-word bilinear blend gives the bytes of two horizontal blends and a vertical one, channel by
    /// channel, for random premultiplied pixels (and the extremes) at every weight step of 17/256.
    @Test func theOneWordBlendMatchesThreeChannelBlends() {
        var random = SeededRandom(seed: 33)
        var quads: [(UInt32, UInt32, UInt32, UInt32)] = [
            (0, 0, 0, 0), (0xFFFF_FFFF, 0, 0xFFFF_FFFF, 0), (0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF),
            (0x8040_2010, 0xFF00_FF00, 0x00FF_00FF, 0x7F7F_7F7F),
        ]
        for _ in 0..<400 { quads.append((random.pixel(), random.pixel(), random.pixel(), random.pixel())) }
        var mismatches = 0
        var checked = 0
        for (p00, p10, p01, p11) in quads {
            for wx in stride(from: UInt32(0), through: 255, by: 17) {
                for wy in stride(from: UInt32(0), through: 255, by: 17) {
                    let expected = ProjectiveBlit.lerp(
                        ProjectiveBlit.lerp(p00, p10, wx), ProjectiveBlit.lerp(p01, p11, wx), wy)
                    if ProjectiveBlit.bilinear(p00, p10, p01, p11, wx, wy) != expected { mismatches += 1 }
                    checked += 1
                }
            }
        }
        #expect(checked == 404 * 16 * 16)
        #expect(mismatches == 0)
        // A known blend: halfway between opaque black and opaque white on both axes is mid grey.
        #expect(ProjectiveBlit.bilinear(0xFF00_0000, 0xFFFF_FFFF, 0xFF00_0000, 0xFFFF_FFFF, 128, 128) == 0xFF80_8080)
    }
}

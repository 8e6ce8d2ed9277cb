import Testing

@testable import MapDrawing

/// `LineRasterizer.roundedSubpixel` snaps every mesh vertex to 1/256 pixel; it must give exactly what
/// `Double.rounded()` gives (halves away from zero, the sign of a zero kept), or the pixels of every line move.
@Suite struct SubpixelRoundingTests {
    @Test func itRoundsAsTheStandardLibraryDoes() {
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.5000000000000001,
            -0.5000000000000001, 1, -1, 255.5, -255.5, 1e-300, -1e-300, 0x1p29 - 0.5, -(0x1p29 - 0.5), 0x1p40 + 0.5,
            -(0x1p40 + 0.5), 0x1p51 + 0.5, 0x1p52 - 1,
        ]
        // A fixed sequence of values across the range vertices take (2²¹ pixels × 256), fractions included.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / 0x1p53
            let magnitude = Double(1 << Int(state & 31))
            values.append((unit * 2 - 1) * magnitude)
            values.append(Double(Int64(bitPattern: state) >> 40) + 0.5)
        }
        var mismatches: [Double] = []
        for v in values {
            let got = LineRasterizer.roundedSubpixel(v)
            let want = v.rounded()
            if got.bitPattern != want.bitPattern { mismatches.append(v) }
        }
        #expect(mismatches.isEmpty, "values rounded differently: \(mismatches.prefix(5))")
    }
}

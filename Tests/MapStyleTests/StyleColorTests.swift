import MapStyle
import MapTestSupport
import Testing

/// Expected channels are hand-computed: hex digits / 255, percentages / 100, HSL via CSS Color 4 §7.1.
let cssColorCases: [(String, [Double])] = [
    ("#fff", [1.0, 1, 1, 1]),
    ("#000", [0.0, 0, 0, 1]),
    ("#aadaff", [170.0 / 255, 218.0 / 255, 1, 1]),
    ("#AADAFF", [170.0 / 255, 218.0 / 255, 1, 1]),
    ("#f008", [1.0, 0, 0, 136.0 / 255]),
    ("#00ff0080", [0.0, 1, 0, 128.0 / 255]),
    ("rgb(255, 128, 0)", [1.0, 128.0 / 255, 0, 1]),
    ("rgba(0, 0, 255, 0.5)", [0.0, 0, 1, 0.5]),
    ("rgb(0 0 255 / 50%)", [0.0, 0, 1, 0.5]),
    ("rgb(100%, 50%, 0%)", [1.0, 0.5, 0, 1]),
    ("hsl(0, 100%, 50%)", [1.0, 0, 0, 1]),
    ("hsl(120, 100%, 25%)", [0.0, 0.5, 0, 1]),
    ("hsla(240, 100%, 50%, 0.25)", [0.0, 0, 1, 0.25]),
    ("hsl(240 100% 50% / 0)", [0.0, 0, 1, 0]),
    ("red", [1.0, 0, 0, 1]),
    ("  CornflowerBlue ", [100.0 / 255, 149.0 / 255, 237.0 / 255, 1]),
    ("rebeccapurple", [102.0 / 255, 51.0 / 255, 153.0 / 255, 1]),
    ("transparent", [0.0, 0, 0, 0]),
]

@Test(arguments: cssColorCases)
func parsesCSSColors(css: String, expected: [Double]) throws {
    let c = try #require(StyleColor(css: css))
    let got = [c.red, c.green, c.blue, c.alpha]
    for (a, b) in zip(got, expected) { #expect(isApproximatelyEqual(a, b, tolerance: 1e-9), "\(css): \(got)") }
}

@Test(arguments: ["", "#ff", "#fffff", "#ggg", "rgb(1,2)", "rgb(1 2 3 4)", "hsl(1, 2, 3)", "oops blue", "rgb(a,b,c)"])
func rejectsInvalidColors(css: String) {
    #expect(StyleColor(css: css) == nil)
}

@Test func clampsOutOfRangeChannels() throws {
    let c = try #require(StyleColor(css: "rgba(300, -5, 128, 2)"))
    #expect(c.red == 1 && c.green == 0 && c.alpha == 1)
}

@Test func interpolatesStraightRGBA() {
    // Red to transparent blue at 0.4: straight channels blend linearly (0.6, 0, 0.4, 0.6).
    let c = StyleColor.interpolate(
        StyleColor(red: 1, green: 0, blue: 0), StyleColor(red: 0, green: 0, blue: 1, alpha: 0), 0.4)
    #expect(isApproximatelyEqual(c.red, 0.6, tolerance: 1e-12))
    #expect(isApproximatelyEqual(c.blue, 0.4, tolerance: 1e-12))
    #expect(isApproximatelyEqual(c.alpha, 0.6, tolerance: 1e-12))
    #expect(c.premultipliedComponents.map { ($0 * 100).rounded() / 100 } == [0.36, 0, 0.24, 0.6])
}

@Test func describesAsCSSRGBA() {
    #expect(StyleColor(css: "#ff8000")?.description == "rgba(255,128,0,1)")
}

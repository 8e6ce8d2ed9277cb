import Foundation
import MapDrawing
import MapDrawingCairo
import MapTestSupport
import Testing

/// Pins fonts before the first Pango call: the repository's fontconfig file (DejaVu first, Noto as fallback), the
/// same file the Makefile exports. Touch ``TestFonts/pinned`` before creating a backend.
enum TestFonts {
    static let pinned: Void = Fixtures.pinFonts()
}

/// A backend with pinned fonts.
func makeBackend(labelCacheBytes: Int = 32 << 20) -> CairoBackend {
    TestFonts.pinned
    return CairoBackend(labelCacheBytes: labelCacheBytes)
}

/// Checks `image` against `Tests/MapDrawingCairoTests/Goldens/<name>.png` (practice 12) through the suite's one
/// golden harness, ``GoldenImage``: a pixel may differ by `tolerance` per premultiplied channel; at most
/// `allowedFraction` of the pixels may exceed it. `UPDATE=1` rewrites the golden and fails; a failure names the
/// folder holding `<name>-actual.png` and `<name>-diff.png`.
func expectGolden(
    _ image: RasterImage, named name: String, tolerance: Int = 8, allowedFraction: Double = 0.001,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    GoldenImage.expect(
        width: image.width, height: image.height, pixels: image.pixels,
        matches: Fixtures.golden(name, testTarget: "MapDrawingCairoTests"),
        channelTolerance: tolerance, maxDifferingFraction: allowedFraction, sourceLocation: sourceLocation)
}

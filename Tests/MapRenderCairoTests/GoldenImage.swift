import Foundation
import MapRender
import MapRenderCairo
import MapTestSupport
import Testing

/// Pins fonts before the first Pango call: the repository's fontconfig file (DejaVu first, Noto as fallback), the
/// same file the Makefile exports. Touch ``TestFonts/pinned`` before creating a backend.
enum TestFonts {
    static let pinned: Void = {
        let path = Fixtures.local.appendingPathComponent("fonts/fonts.conf").path
        setenv("FONTCONFIG_FILE", path, 1)
    }()
}

/// A backend with pinned fonts.
func makeBackend(labelCacheBytes: Int = 32 << 20) -> CairoBackend {
    TestFonts.pinned
    return CairoBackend(labelCacheBytes: labelCacheBytes)
}

/// The result of comparing two images pixel by pixel.
struct ImageDifference: CustomStringConvertible {
    /// Pixels whose largest channel difference (premultiplied, 0…255) exceeds the tolerance.
    var differingPixels: Int
    /// The largest channel difference seen.
    var maxChannelDelta: Int
    var totalPixels: Int
    var sizeMismatch: Bool

    var description: String {
        sizeMismatch
            ? "size mismatch"
            : "\(differingPixels) of \(totalPixels) pixels differ (max channel delta \(maxChannelDelta))"
    }
}

/// Compares two images: a pixel differs when any channel differs by more than `tolerance` (0…255).
func compare(_ actual: RasterImage, _ expected: RasterImage, tolerance: Int) -> ImageDifference {
    guard actual.width == expected.width, actual.height == expected.height else {
        return ImageDifference(differingPixels: 0, maxChannelDelta: 255, totalPixels: 0, sizeMismatch: true)
    }
    var differing = 0
    var maxDelta = 0
    actual.pixels.withUnsafeBufferPointer { a in
        expected.pixels.withUnsafeBufferPointer { e in
            var i = 0
            while i < a.count {
                var worst = 0
                for k in 0..<4 { worst = max(worst, abs(Int(a[i + k]) - Int(e[i + k]))) }
                if worst > tolerance { differing += 1 }
                maxDelta = max(maxDelta, worst)
                i += 4
            }
        }
    }
    return ImageDifference(
        differingPixels: differing, maxChannelDelta: maxDelta, totalPixels: actual.width * actual.height,
        sizeMismatch: false)
}

/// Checks `image` against `Tests/MapRenderCairoTests/Goldens/<name>.png` (practice 12).
///
/// A pixel may differ by `tolerance` per channel; at most `allowedFraction` of the pixels may exceed it. With
/// `UPDATE=1` the golden is rewritten and the test fails anyway ("recorded new golden"). On a mismatch the actual
/// image is written to `<name>.actual.png` beside the golden (git-ignored).
func expectGolden(
    _ image: RasterImage, named name: String, tolerance: Int = 8, allowedFraction: Double = 0.001,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let folder = Fixtures.repositoryRoot.appendingPathComponent("Tests/MapRenderCairoTests/Goldens")
    let golden = folder.appendingPathComponent("\(name).png").path
    let actualPath = folder.appendingPathComponent("\(name).actual.png").path
    if Fixtures.isUpdatingGoldens {
        try PNGCodec.write(image, to: golden)
        Issue.record("recorded new golden \(golden); run again without UPDATE=1", sourceLocation: sourceLocation)
        return
    }
    guard FileManager.default.fileExists(atPath: golden) else {
        try PNGCodec.write(image, to: actualPath)
        Issue.record(
            "missing golden \(golden) (actual written to \(actualPath); UPDATE=1 records it)",
            sourceLocation: sourceLocation)
        return
    }
    let expected = try PNGCodec.read(path: golden, scale: image.scale)
    let diff = compare(image, expected, tolerance: tolerance)
    let allowed = Int(Double(diff.totalPixels) * allowedFraction)
    if diff.sizeMismatch || diff.differingPixels > allowed {
        try PNGCodec.write(image, to: actualPath)
        Issue.record(
            "\(name): \(diff) (allowed \(allowed)); actual written to \(actualPath)", sourceLocation: sourceLocation)
    } else {
        try? FileManager.default.removeItem(atPath: actualPath)
    }
}

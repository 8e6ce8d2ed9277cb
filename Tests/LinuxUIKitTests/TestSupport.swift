import Foundation
import MapTestSupport
import Testing
import UIKitTestSupport
import WaymarkTime

@testable import LinuxUIKit

/// Pins fonts for text tests (``Fixtures/pinFonts()``).
let pinFonts: Void = Fixtures.pinFonts()

/// A fresh manual clock installed in the shared animator, with every animation and pending handler dropped.
@MainActor func installManualClock(start: Double = 100) -> ManualClock {
    _ = pinFonts
    UIAnimator.shared.reset()
    let clock = ManualClock(start: start)
    UIAnimator.shared.clock = clock
    return clock
}

/// Straight RGBA bytes of one pixel of an image's first frame.
func pixel(_ image: UIImage, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
    let p = image.bitmaps[0].pixel(x: x, y: y)
    return (Int(p.r), Int(p.g), Int(p.b), Int(p.a))
}

/// True when each channel of `p` is within `tolerance` of the expected bytes.
func pixelMatches(_ p: (r: Int, g: Int, b: Int, a: Int), _ r: Int, _ g: Int, _ b: Int, _ a: Int, tolerance: Int = 2)
    -> Bool
{
    abs(p.r - r) <= tolerance && abs(p.g - g) <= tolerance && abs(p.b - b) <= tolerance && abs(p.a - a) <= tolerance
}

/// A new empty directory under the system temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("uikit-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Compares `image` with the golden PNG `Tests/LinuxUIKitTests/Goldens/<name>.png`.
///
/// Pixels match when every premultiplied channel differs by at most `channelTolerance`; the image matches when at
/// most `maxDifferingFraction` of its pixels do not (the one harness, `GoldenImage`: `UPDATE=1` rewrites and fails;
/// a failure names the folder with the actual and diff images).
@MainActor func expectMatchesGolden(
    _ image: UIImage, named name: String, channelTolerance: Int = 10, maxDifferingFraction: Double = 0.003,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectImage(
        image, matchesGolden: name, channelTolerance: channelTolerance,
        maxDifferingFraction: maxDifferingFraction, sourceLocation: sourceLocation)
}

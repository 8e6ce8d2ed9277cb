import Foundation
import MapTestSupport
import Testing
import WaymarkTime

@testable import LinuxUIKit

/// Pins fonts for text tests: points fontconfig at the repository's fonts.conf before the first Pango call (the
/// Makefile exports the same variable; this is the safety net for plain `swift test`).
let pinFonts: Void = {
    let conf = Fixtures.local.appendingPathComponent("fonts/fonts.conf").path
    setenv("FONTCONFIG_FILE", conf, 1)
}()

/// A fresh manual clock installed in the shared animator, with every animation and pending handler dropped.
@MainActor func installManualClock(start: Double = 100) -> ManualClock {
    _ = pinFonts
    UIAnimator.shared._reset()
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

/// Compares `image` with the golden PNG `Tests/Fixtures/goldens/uikit/<name>.png`.
///
/// Pixels match when every straight RGBA channel differs by at most `channelTolerance`; the image matches when at
/// most `maxDifferingFraction` of its pixels do not. `UPDATE=1` rewrites the golden and fails (so a rewrite is never
/// green). On a mismatch the actual image is written next to the golden as `<name>.actual.png` (git-ignored).
@MainActor func expectMatchesGolden(
    _ image: UIImage, named name: String, channelTolerance: Int = 10, maxDifferingFraction: Double = 0.003,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = Fixtures.local.appendingPathComponent("goldens/uikit")
    let golden = folder.appendingPathComponent("\(name).png")
    if Fixtures.isUpdatingGoldens {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? image.pngData()?.write(to: golden)
        Issue.record(
            "UPDATE=1: rewrote \(golden.path); look at it, then run again without UPDATE",
            sourceLocation: sourceLocation)
        return
    }
    guard let expected = UIImage(contentsOfFile: golden.path) else {
        Issue.record("missing golden \(golden.path) (run with UPDATE=1 to create it)", sourceLocation: sourceLocation)
        return
    }
    let a = image.bitmaps[0]
    let e = expected.bitmaps[0]
    guard a.width == e.width, a.height == e.height else {
        Issue.record(
            "size \(a.width)×\(a.height) differs from golden \(e.width)×\(e.height)", sourceLocation: sourceLocation)
        return
    }
    var differing = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a.pixel(x: x, y: y)
            let q = e.pixel(x: x, y: y)
            // Fully transparent pixels have no meaningful colour.
            if p.a == 0 && q.a == 0 { continue }
            let d = max(
                abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            if d > channelTolerance { differing += 1 }
        }
    }
    let fraction = Double(differing) / Double(max(1, a.width * a.height))
    if fraction > maxDifferingFraction {
        let actual = folder.appendingPathComponent("\(name).actual.png")
        try? image.pngData()?.write(to: actual)
        Issue.record(
            "\(differing) pixels (\(fraction * 100) %) differ from \(golden.lastPathComponent); actual: \(actual.path)",
            sourceLocation: sourceLocation)
    }
}

/// A 24 × 24 point "house" drawn in opaque black on transparent (a square body and a triangular roof), for template
/// tests: body x 4…20, y 11…22; roof from (2, 12) up to (12, 2) and down to (22, 12).
@MainActor func makeHouseImage(scale: CGFloat = 1) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    return UIGraphicsImageRenderer(size: CGSize(width: 24, height: 24), format: format).image { context in
        let cg = context.cgContext
        cg.setFillColor(UIColor.black.cgColor)
        cg.fill(CGRect(x: 4, y: 11, width: 16, height: 11))
        cg.beginPath()
        cg.move(to: CGPoint(x: 2, y: 12))
        cg.addLine(to: CGPoint(x: 12, y: 2))
        cg.addLine(to: CGPoint(x: 22, y: 12))
        cg.closePath()
        cg.fillPath()
    }
}

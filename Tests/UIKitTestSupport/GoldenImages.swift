import Foundation
import MapTestSupport
import Testing

@testable import LinuxUIKit

/// Compares `image` with the golden PNG `Tests/Fixtures/goldens/<group>/<name>.png`; the one golden check of the
/// LinuxUIKit and GoogleMaps tests.
///
/// Pixels match when every straight RGBA channel differs by at most `channelTolerance` (0…255); fully transparent
/// pixels in both images always match. The image matches when at most `maxDifferingFraction` (0…1) of its pixels do
/// not. `UPDATE=1` rewrites the golden and records an issue (so a rewrite is never green). A missing golden or a size
/// mismatch records an issue; on a mismatch the actual image is written next to the golden as `<name>.actual.png`
/// (git-ignored). Main actor only (UIImage).
@MainActor public func expectImage(
    _ image: UIImage, matchesGolden name: String, group: String, channelTolerance: Int, maxDifferingFraction: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = Fixtures.local.appendingPathComponent("goldens/\(group)")
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

/// A 24 × 24 point "house" in `color` (default opaque black) on transparent, at `scale` pixels per point (default 1):
/// a square body x 4…20, y 11…22 and a triangular roof from (2, 12) up to (12, 2) and down to (22, 12). Used by the
/// template-image and marker-icon tests. Main actor only.
@MainActor public func makeHouseImage(scale: CGFloat = 1, color: UIColor = .black) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    return UIGraphicsImageRenderer(size: CGSize(width: 24, height: 24), format: format).image { context in
        let cg = context.cgContext
        cg.setFillColor(color.cgColor)
        cg.fill(CGRect(x: 4, y: 11, width: 16, height: 11))
        cg.beginPath()
        cg.move(to: CGPoint(x: 2, y: 12))
        cg.addLine(to: CGPoint(x: 12, y: 2))
        cg.addLine(to: CGPoint(x: 22, y: 12))
        cg.closePath()
        cg.fillPath()
    }
}

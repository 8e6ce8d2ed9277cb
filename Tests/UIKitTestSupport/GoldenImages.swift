import Foundation
import LinuxUIKit
import MapTestSupport
import Testing

/// Compares `image` with the golden PNG `Tests/<test target>/Goldens/<name>.png`, beside the calling test (the target
/// is the module of `sourceLocation`), through the suite's one
/// golden harness (``GoldenImage/expect(width:height:pixels:matches:channelTolerance:maxDifferingFraction:sourceLocation:)``):
/// a pixel differs when a premultiplied channel differs by more than `channelTolerance` (0…255); the image matches
/// when at most `maxDifferingFraction` (0…1) of its pixels differ. `UPDATE=1` rewrites the golden and records an
/// issue; a failure names the folder holding `<name>-actual.png` and `<name>-diff.png`. Main actor only (UIImage).
@MainActor public func expectImage(
    _ image: UIImage, matchesGolden name: String, channelTolerance: Int, maxDifferingFraction: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let golden = Fixtures.golden(name, testTarget: sourceLocation.moduleName)
    let bitmap = image.premultipliedBGRA()
    GoldenImage.expect(
        width: bitmap?.width ?? 0, height: bitmap?.height ?? 0, pixels: bitmap?.pixels ?? [],
        matches: golden, channelTolerance: channelTolerance, maxDifferingFraction: maxDifferingFraction,
        sourceLocation: sourceLocation)
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

import Foundation
import MapDrawing
import MapDrawingCairo
import MapTestSupport
import Testing

/// The one golden harness (`GoldenImage`, MapTestSupport): tolerances, the fraction allowed to differ, and the actual
/// and diff images a failure writes. Skipped under `UPDATE=1` (the harness then rewrites instead of comparing).
@Suite(.enabled(if: !Fixtures.isUpdatingGoldens)) struct GoldenHarnessTests {
    /// A 4 × 4 opaque white golden in a fresh temporary folder.
    func whiteGolden() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let golden = dir.appendingPathComponent("square.png")
        try PNGCodec.write(
            RasterImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)), to: golden.path)
        return golden
    }

    func artifacts(for golden: URL) -> URL {
        GoldenImage.artifactsFolder.appendingPathComponent(golden.deletingLastPathComponent().path)
    }

    @Test func aMismatchWritesTheActualAndDiffImagesWhereTheMessageSays() throws {
        let golden = try whiteGolden()
        var pixels = [UInt8](repeating: 255, count: 64)
        pixels[0] = 0  // pixel (0, 0): blue channel off by 255
        pixels[1] = 0
        pixels[2] = 0
        let folder = artifacts(for: golden)
        withKnownIssue {
            GoldenImage.expect(
                width: 4, height: 4, pixels: pixels, matches: golden, channelTolerance: 8, maxDifferingFraction: 0)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains(folder.path) && $0.rawValue.contains("square-diff.png") }
        }
        let actual = try PNGCodec.read(path: folder.appendingPathComponent("square-actual.png").path)
        #expect(actual.premultipliedRGBA(x: 0, y: 0).map { [$0.r, $0.g, $0.b] } == [0, 0, 0])
        let diff = try PNGCodec.read(path: folder.appendingPathComponent("square-diff.png").path)
        #expect(diff.premultipliedRGBA(x: 0, y: 0).map { [$0.r, $0.g, $0.b, $0.a] } == [255, 0, 0, 255])
        #expect(diff.premultipliedRGBA(x: 1, y: 0).map { [$0.r, $0.g, $0.b] } == [255, 255, 255])
        // The same pixels pass once one differing pixel in 16 is allowed, and the stale images go.
        GoldenImage.expect(
            width: 4, height: 4, pixels: pixels, matches: golden, channelTolerance: 8, maxDifferingFraction: 1.0 / 16)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("square-diff.png").path))
        try? FileManager.default.removeItem(at: golden.deletingLastPathComponent())
    }

    @Test func differencesWithinTheChannelToleranceMatch() throws {
        let golden = try whiteGolden()
        var pixels = [UInt8](repeating: 255, count: 64)
        for i in stride(from: 0, to: 64, by: 4) { pixels[i] = 247 }  // every pixel's blue off by 8
        #expect(
            GoldenImage.compare(
                pixels, [UInt8](repeating: 255, count: 64), width: 4, height: 4,
                channelTolerance: 7
            ).differingPixels == 16)
        GoldenImage.expect(
            width: 4, height: 4, pixels: pixels, matches: golden, channelTolerance: 8, maxDifferingFraction: 0)
        withKnownIssue {
            GoldenImage.expect(
                width: 4, height: 4, pixels: pixels, matches: golden, channelTolerance: 7, maxDifferingFraction: 0.5)
        }
        try? FileManager.default.removeItem(at: golden.deletingLastPathComponent())
        try? FileManager.default.removeItem(at: artifacts(for: golden))
    }

    @Test func aSizeMismatchOrMissingGoldenFails() throws {
        let golden = try whiteGolden()
        withKnownIssue {
            GoldenImage.expect(
                width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16), matches: golden, channelTolerance: 8,
                maxDifferingFraction: 1)
        }
        withKnownIssue {
            GoldenImage.expect(
                width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64),
                matches: golden.deletingLastPathComponent().appendingPathComponent("absent.png"), channelTolerance: 8,
                maxDifferingFraction: 1)
        }
        try? FileManager.default.removeItem(at: golden.deletingLastPathComponent())
        try? FileManager.default.removeItem(at: artifacts(for: golden))
    }
}

import CairoGraphics
import Foundation
import Testing

/// The result of comparing an image with its golden pixel by pixel (premultiplied B, G, R, A bytes).
public struct GoldenDifference: Sendable, CustomStringConvertible {
    /// Pixels whose largest channel difference exceeds the tolerance.
    public var differingPixels: Int
    /// The largest channel difference seen (0…255).
    public var maxChannelDelta: Int
    /// Pixels compared (`width × height`).
    public var totalPixels: Int

    /// The fraction of pixels that differ, 0…1.
    public var differingFraction: Double { Double(differingPixels) / Double(max(1, totalPixels)) }

    /// "N of M pixels (P %) differ (max channel delta D)".
    public var description: String {
        "\(differingPixels) of \(totalPixels) pixels (\(String(format: "%.3f", differingFraction * 100)) %) differ "
            + "(max channel delta \(maxChannelDelta))"
    }
}

/// The one golden-image harness of the test suite: LinuxUIKit's and GoogleMaps' image goldens
/// (`UIKitTestSupport.expectImage`), the Cairo backend's and the frame pipeline's all compare through it.
///
/// A pixel differs when any of its premultiplied channels differs from the golden's by more than
/// `channelTolerance` (0…255); the image matches when at most `maxDifferingFraction` (0…1) of its pixels differ.
/// Size each check's tolerances to its content (anti-aliased text and halos need more than flat fills).
///
/// - `UPDATE=1` rewrites the golden and records an issue, so a rewrite is never green (look at the PNG, then run
///   again without it).
/// - A missing golden, a size mismatch or too many differing pixels records an issue naming the folder
///   ``artifactsFolder`` where `<name>-actual.png` (what was drawn) and, for a mismatch of equal size,
///   `<name>-diff.png` (differing pixels red, the rest the golden faded) were written. A match removes stale ones.
public enum GoldenImage {
    /// Where failing comparisons write their images: `.build/golden-artifacts` in the repository (git-ignored), or
    /// `$WAYMARK_GOLDEN_ARTIFACTS` when set.
    public static var artifactsFolder: URL {
        if let env = ProcessInfo.processInfo.environment["WAYMARK_GOLDEN_ARTIFACTS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return Fixtures.repositoryRoot.appendingPathComponent(".build/golden-artifacts")
    }

    /// Compares two images of equal size (premultiplied BGRA bytes, `width × height × 4` each).
    public static func compare(
        _ actual: [UInt8], _ expected: [UInt8], width: Int, height: Int, channelTolerance: Int
    ) -> GoldenDifference {
        var differing = 0
        var maxDelta = 0
        let count = min(actual.count, expected.count, width * height * 4)
        actual.withUnsafeBufferPointer { a in
            expected.withUnsafeBufferPointer { e in
                var i = 0
                while i + 3 < count {
                    var worst = 0
                    for k in 0..<4 { worst = max(worst, abs(Int(a[i + k]) - Int(e[i + k]))) }
                    if worst > channelTolerance { differing += 1 }
                    maxDelta = max(maxDelta, worst)
                    i += 4
                }
            }
        }
        return GoldenDifference(differingPixels: differing, maxChannelDelta: maxDelta, totalPixels: width * height)
    }

    /// A diff image: pixels differing by more than `channelTolerance` opaque red, the others the golden's grey level
    /// faded to a quarter over white (premultiplied BGRA, opaque).
    public static func diffImage(
        _ actual: [UInt8], _ expected: [UInt8], width: Int, height: Int, channelTolerance: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            let i = p * 4
            var worst = 0
            for k in 0..<4 { worst = max(worst, abs(Int(actual[i + k]) - Int(expected[i + k]))) }
            if worst > channelTolerance {
                out[i] = 0
                out[i + 1] = 0
                out[i + 2] = 255
            } else {
                // Premultiplied over white: c + (255 − a); grey by luminance, faded towards white.
                let a = Int(expected[i + 3])
                let lum = (Int(expected[i + 2]) * 3 + Int(expected[i + 1]) * 6 + Int(expected[i])) / 10 + 255 - a
                let v = UInt8(255 - (255 - min(255, lum)) / 4)
                out[i] = v
                out[i + 1] = v
                out[i + 2] = v
            }
        }
        return out
    }

    /// Checks an image (premultiplied BGRA bytes) against the golden PNG at `golden`; see the type's rules.
    /// - Parameters:
    ///   - width: the image's width in pixels, > 0.
    ///   - height: the image's height in pixels, > 0.
    ///   - pixels: `width × height × 4` bytes, rows top to bottom without padding.
    ///   - golden: the golden file (the `matches:` argument); its path below the repository root names the
    ///     artifacts.
    ///   - channelTolerance: the largest per-channel difference (0…255) that still counts as equal.
    ///   - maxDifferingFraction: the largest fraction (0…1) of pixels allowed to differ.
    ///   - sourceLocation: where failures are recorded (the caller's line by default).
    public static func expect(
        width: Int, height: Int, pixels: [UInt8], matches golden: URL, channelTolerance: Int,
        maxDifferingFraction: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let name = golden.deletingPathExtension().lastPathComponent
        let root = Fixtures.repositoryRoot.path
        let relative =
            golden.deletingLastPathComponent().path.hasPrefix(root)
            ? String(golden.deletingLastPathComponent().path.dropFirst(root.count))
            : golden.deletingLastPathComponent().path
        let folder = artifactsFolder.appendingPathComponent(relative)
        let actualFile = folder.appendingPathComponent("\(name)-actual.png")
        let diffFile = folder.appendingPathComponent("\(name)-diff.png")
        func write(_ bytes: [UInt8], to file: URL) {
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try CairoSurface(width: width, height: height, premultipliedBGRA: bytes).writePNG(toFile: file.path)
            } catch {
                Issue.record("cannot write \(file.path): \(error)", sourceLocation: sourceLocation)
            }
        }
        guard width > 0, height > 0, pixels.count == width * height * 4 else {
            Issue.record(
                "\(name): the image is empty or malformed (\(width)×\(height), \(pixels.count) bytes)",
                sourceLocation: sourceLocation)
            return
        }
        if Fixtures.isUpdatingGoldens {
            write(pixels, to: golden)
            Issue.record(
                "UPDATE=1: rewrote \(golden.path); look at it, then run again without UPDATE",
                sourceLocation: sourceLocation)
            return
        }
        guard FileManager.default.fileExists(atPath: golden.path) else {
            write(pixels, to: actualFile)
            Issue.record(
                "missing golden \(golden.path) (UPDATE=1 records it); actual image in \(folder.path)",
                sourceLocation: sourceLocation)
            return
        }
        let expected: CairoSurface
        do {
            expected = try CairoSurface.readPNG(path: golden.path)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return
        }
        guard expected.width == width, expected.height == height else {
            write(pixels, to: actualFile)
            let message =
                "\(name): size \(width)×\(height) differs from the golden's \(expected.width)×\(expected.height); "
                + "actual image in \(folder.path)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            return
        }
        let reference = expected.premultipliedBGRA()
        let difference = compare(pixels, reference, width: width, height: height, channelTolerance: channelTolerance)
        if difference.differingFraction > maxDifferingFraction {
            write(pixels, to: actualFile)
            write(
                diffImage(pixels, reference, width: width, height: height, channelTolerance: channelTolerance),
                to: diffFile)
            let message =
                "\(name): \(difference) against \(golden.path) (allowed \(maxDifferingFraction * 100) % beyond "
                + "\(channelTolerance)); \(name)-actual.png and \(name)-diff.png in \(folder.path)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            try? FileManager.default.removeItem(at: actualFile)
            try? FileManager.default.removeItem(at: diffFile)
        }
    }
}

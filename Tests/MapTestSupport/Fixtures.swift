import Foundation
import Testing

/// Locates test inputs by path, relative to this source file (practice 13), so tests work from any working directory
/// and `UPDATE=1` runs write golden files back into the source tree.
public enum Fixtures {
    /// The repository root: the folder holding `Package.swift`.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MapTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures` inside the repository: small inputs that Waymark owns.
    public static let local: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The third-party suites in `../shared/fixtures` beside the checkout, or `WAYMARK_SHARED_FIXTURES` when set.
    /// `nil` when the folder is absent: tests that need it carry the trait `.needsSharedFixtures(_:)`, so the runner
    /// counts them as skipped.
    public static let shared: URL? = {
        let env = ProcessInfo.processInfo.environment["WAYMARK_SHARED_FIXTURES"]
        let url =
            env.map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url : nil
    }()

    /// A folder inside the shared fixtures, or `nil` when absent.
    public static func shared(_ relativePath: String) -> URL? {
        guard let base = shared else { return nil }
        let url = base.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The committed data products under `Data/` in the repository (basemap tiles, markers, geocoder database).
    public static let data: URL = repositoryRoot.appendingPathComponent("Data")

    /// The repository's fontconfig file, `Tests/Fixtures/fonts/fonts.conf`: DejaVu first, Noto as fallback, so text
    /// shapes the same on every machine. The Makefile exports the same path as `FONTCONFIG_FILE`.
    public static let fontConfig: URL = local.appendingPathComponent("fonts/fonts.conf")

    /// The environment a child process needs to draw text as the tests do: `FONTCONFIG_FILE` = ``fontConfig``.
    public static var fontEnvironment: [String: String] { ["FONTCONFIG_FILE": fontConfig.path] }

    /// Points fontconfig at ``fontConfig`` for this process. Call it before the first Pango or fontconfig call
    /// (fontconfig reads the variable once, at its first use); later calls do nothing. This is the only place the
    /// tests set `FONTCONFIG_FILE`, the safety net for a plain `swift test` without the Makefile.
    public static func pinFonts() { _ = pinnedFonts }

    private static let pinnedFonts: Void = { setenv("FONTCONFIG_FILE", fontConfig.path, 1) }()

    /// The golden PNG `Tests/<testTarget>/Goldens/<name>.png`: every golden lives beside the tests that check it, in
    /// its test target's `Goldens` folder (excluded from the target in Package.swift).
    public static func golden(_ name: String, testTarget: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/\(testTarget)/Goldens/\(name).png")
    }

    /// True when golden files should be rewritten (`UPDATE=1`); a test that rewrites still fails so it is never green.
    public static var isUpdatingGoldens: Bool { ProcessInfo.processInfo.environment["UPDATE"] == "1" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test (or every test of the suite) only when `relativePath` exists inside the shared fixtures
    /// (``Fixtures/shared(_:)``); otherwise the runner counts it as skipped, with a comment naming the missing path
    /// and `WAYMARK_SHARED_FIXTURES`. The test body then unwraps `Fixtures.shared(relativePath)` with `try #require`,
    /// so a body that disagrees with its trait fails instead of passing without running.
    /// - Parameters:
    ///   - relativePath: a file or folder inside the shared fixtures (`"mvt-fixtures/fixtures"`).
    ///   - sourceLocation: where the trait is written (the caller's line by default).
    /// - Returns: an `.enabled(if:)` condition trait that is true when the path exists, with the skip comment.
    public static func needsSharedFixtures(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> Self
    {
        .enabled(
            if: Fixtures.shared(relativePath) != nil,
            Comment(
                rawValue: "\(relativePath) is absent from the shared fixtures (../shared/fixtures beside the "
                    + "checkout, or the folder WAYMARK_SHARED_FIXTURES names)"),
            sourceLocation: sourceLocation)
    }
}

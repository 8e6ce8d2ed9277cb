import Foundation

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
    /// `nil` when the folder is absent: tests that need it must skip with ``missingSharedFixturesMessage``.
    public static let shared: URL? = {
        let env = ProcessInfo.processInfo.environment["WAYMARK_SHARED_FIXTURES"]
        let url =
            env.map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url : nil
    }()

    /// The message tests print when they skip because the shared fixtures are absent.
    public static let missingSharedFixturesMessage: String =
        "skipped: ../shared/fixtures is absent (set WAYMARK_SHARED_FIXTURES to the folder to run this test)"

    /// A folder inside the shared fixtures, or `nil` when absent.
    public static func shared(_ relativePath: String) -> URL? {
        guard let base = shared else { return nil }
        let url = base.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The committed data products under `Data/` in the repository (basemap tiles, markers, geocoder database).
    public static let data: URL = repositoryRoot.appendingPathComponent("Data")

    /// True when golden files should be rewritten (`UPDATE=1`); a test that rewrites still fails so it is never green.
    public static var isUpdatingGoldens: Bool { ProcessInfo.processInfo.environment["UPDATE"] == "1" }
}

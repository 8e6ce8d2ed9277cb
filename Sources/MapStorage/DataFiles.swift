import Foundation

/// Finds files of the embedded data (`Data/` in the repository: style, tiles, POIs, geocoder and indoor data) from
/// wherever a program runs. The one lookup every part of Waymark uses.
///
/// Order: `$WAYMARK_DATA_DIR/<relativePath>` when the variable is set and not empty; else the first existing
/// `Data/<relativePath>` in the working directory or one of its ancestors, then beside the executable or one of its
/// ancestors (so `.build/release/waymark` finds the checkout's `Data/`); else the working-directory candidate, so a
/// "not found" message names a sensible path. Thread rules: pure; safe from any thread.
public enum DataFiles {
    /// The URL of `Data/<relativePath>` by the documented order.
    /// - Parameters:
    ///   - relativePath: a path inside `Data/`, for example `styles/default.json` or `geocoder.sqlite`.
    ///   - environment: the environment to read `WAYMARK_DATA_DIR` from. Defaults to the process's.
    ///   - workingDirectory: where the ancestor search starts. Defaults to the process's working directory.
    ///   - executable: the program's path, whose folder starts the second search. Defaults to `argv[0]` with
    ///     symbolic links resolved.
    /// - Returns: `$WAYMARK_DATA_DIR/<relativePath>` when the variable is set (existing or not); else the first
    ///   existing candidate, or the working directory's `Data/<relativePath>` when none exists.
    public static func locate(
        _ relativePath: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    ) -> URL {
        if let dir = environment["WAYMARK_DATA_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent(relativePath)
        }
        var candidates: [URL] = []
        for start in [workingDirectory.standardizedFileURL, executable.deletingLastPathComponent().standardizedFileURL]
        {
            var dir = start
            while candidates.count < 128 {
                candidates.append(dir.appendingPathComponent("Data").appendingPathComponent(relativePath))
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0]
    }

    /// The path of `Data/<relativePath>`: ``locate(_:environment:workingDirectory:executable:)`` with the process's
    /// environment, working directory and executable.
    public static func path(_ relativePath: String) -> String { locate(relativePath).path }
}

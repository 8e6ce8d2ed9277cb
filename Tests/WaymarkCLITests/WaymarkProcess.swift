import Foundation
import MapTestSupport

/// Runs the built `waymark` executable as a user would, capturing its exit code and output.
struct WaymarkProcess {
    /// What one run produced.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output's bytes as written (a PNG for `-o -`).
        var stdoutBytes: [UInt8] = []

        /// `stdout` parsed as a JSON object, or `nil`.
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    /// The `waymark` binary beside the test bundle (SwiftPM puts every product of a build in one folder).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("waymark")
    }

    /// Runs `waymark` with `arguments` in `directory` (the repository root by default), with `environment` added to
    /// this process's environment, and waits for it.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? Fixtures.repositoryRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }
}

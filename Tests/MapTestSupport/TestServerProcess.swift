import Foundation

/// The repo's test HTTP server (`Tests/MapNetworkTests/Server/test_server.py`, Python's `http.server`) serving a
/// folder on 127.0.0.1 with a random port, started and stopped by the tests (faults, logs: see the script).
public final class TestServerProcess {
    /// The folder served under `/files/`.
    public let root: URL
    /// The port it listens on.
    public let port: Int
    private let process = Process()
    private let input = Pipe()

    /// Whether `python3` can be run (tests that need the server are counted skips without it).
    public static let available: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }()

    /// The script.
    public static let script = Fixtures.repositoryRoot.appendingPathComponent(
        "Tests/MapNetworkTests/Server/test_server.py")

    /// Starts the server over `root` and waits (at most 10 s) for its port.
    /// - Throws: when the server does not start.
    public init(root: URL) throws {
        self.root = root
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, root.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n") && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("PORT "), let p = Int(line.dropFirst(5))
        else {
            try? input.fileHandleForWriting.close()
            throw TestServerStartError(message: "the test server did not start: \(text)")
        }
        port = p
    }

    deinit { stop() }

    /// Stops the server (idempotent) and waits for it to exit: closing its standard input ends it.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:<port>/files/<path>`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/files/\(path)" }
}

/// The test server did not start.
public struct TestServerStartError: Error, CustomStringConvertible {
    /// What it printed.
    public let message: String
    /// The message.
    public var description: String { message }
}

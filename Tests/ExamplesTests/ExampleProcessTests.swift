import Foundation
import GoogleMaps
import MapTestSupport
import Testing

/// The examples as processes, as a user runs them: without a display they fall back to headless with one line on
/// stderr; `--window` without a display exits 1 with a clear message; `--headless --snapshot FILE.png` writes the
/// first idle frame at `--size`.
@Suite struct ExampleProcessTests {
    /// The built example next to the test bundle, or under `.build/debug/`.
    static func executable(_ name: String) -> String? {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            let dir = URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent()
            candidates += [
                dir.appendingPathComponent(name), dir.deletingLastPathComponent().appendingPathComponent(name),
            ]
        }
        candidates.append(Fixtures.repositoryRoot.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
    }

    static let eventsExample = executable("events-example")

    /// The built `events-example`; it is a dependency of this test target, so a missing one fails the test (it is
    /// never a skip).
    static func eventsExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(eventsExample, "events-example is not built next to the tests", sourceLocation: sourceLocation)
    }

    /// Runs `path` with `arguments`, no display variables, from the repository root; at most 120 s.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["SDL_VIDEODRIVER"] = nil
        process.environment = env
        process.currentDirectoryURL = Fixtures.repositoryRoot
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let err = try FileHandle(forWritingTo: errFile)
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try err.close()
        return (process.terminationStatus, (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
    }

    @Test
    func noDisplayFallsBackToHeadless() throws {
        let r = try Self.run(try Self.eventsExecutable(), [])
        #expect(r.status == 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(
            lines == ["events-example: no display (set DISPLAY or run under Xvfb); running headless"], "\(r.stderr)")
    }

    @Test
    func windowWithoutDisplayExitsOne() throws {
        let r = try Self.run(try Self.eventsExecutable(), ["--window"])
        #expect(r.status == 1)
        #expect(r.stderr == "events-example: no display (set DISPLAY or run under Xvfb)\n")
    }

    @Test
    @MainActor func headlessSnapshotWritesTheFirstIdleFrame() throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let r = try Self.run(
            try Self.eventsExecutable(), ["--headless", "--snapshot", png.path, "--size", "400x300"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let image = try #require(UIImage(contentsOfFile: png.path))
        #expect(image.size == CGSize(width: 400, height: 300))
    }
}

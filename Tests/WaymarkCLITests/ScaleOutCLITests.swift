import Foundation
import MapTestSupport
import Testing

/// Whether the tools the scale-out script drives are installed.
private let scaleOutToolsPresent = ["/usr/sbin/haproxy", "/usr/bin/wrk", "/usr/bin/curl"].allSatisfy {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Issue 35's scale-out test in `make test`: `scripts/serve/scaleout-test.sh` puts Debian's HAProxy in front of two
/// `waymark serve` processes of this build on 127.0.0.1, drives them with `wrk`, and kills one with SIGKILL halfway.
/// Only the requests in flight on the killed process may fail. The mix here is small images, so a debug build under
/// a loaded test run still answers well inside wrk's 10 s timeout; BENCHMARKS.md runs the full mix on a release build.
@Suite(
    .enabled(
        if: scaleOutToolsPresent,
        "haproxy and wrk are needed (Debian packages haproxy and wrk; scripts/dev/install-deps.sh installs them)"))
struct ScaleOutCLITests {
    @Test func killingOneOfTwoServersBehindHAProxyFailsOnlyTheRequestsInFlight() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waymark-scaleout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mix = folder.appendingPathComponent("mix.lua")
        try """
        paths = {
          "/maps/api/staticmap?center=60.1699,24.9443&zoom=12&size=128x128",
          "/maps/api/staticmap?center=30,10&zoom=2&size=128x128&markers=60.17,24.94",
        }
        dofile("scripts/serve/mix.lua")
        """.write(to: mix, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["scripts/serve/scaleout-test.sh", "10"]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging([
            "WAYMARK_BIN": WaymarkProcess.executable.path, "WAYMARK_MIX": mix.path,
        ]) { $1 }
        let output = folder.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Bounded: the run is 10 s of load plus start-up; a stuck child is killed after 120 s.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try handle.close()
        let text = try String(contentsOf: output, encoding: .utf8)

        let summary = text.split(separator: "\n").first { $0.hasPrefix("requests ") }.map(String.init) ?? ""
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let failedLine = text.split(separator: "\n").first { $0.hasPrefix("failed requests: ") }.map(String.init) ?? ""
        let failed = failedLine.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }
        #expect(text.contains("killed server a"), "the script killed one server: \(text.suffix(2000))")
        #expect((numbers.first ?? 0) >= 10, "wrk's summary line: \(summary)")
        #expect(failed != nil && failed! <= 4, "failed requests line: \(failedLine)")
        #expect(process.terminationStatus == 0, "scaleout-test.sh exit status; output: \(text.suffix(2000))")
    }
}

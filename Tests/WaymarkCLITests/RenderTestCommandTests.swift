import Foundation
import MapTestSupport
import Testing

/// Runs the built `waymark` binary with `arguments`; `nil` when it is not built.
private func runRenderTest(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String)? {
    let binary = Fixtures.repositoryRoot.appendingPathComponent(".build/debug/waymark")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["render-test"] + arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    try process.run()
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

@Test(arguments: [[String](), ["a", "b"], ["--bogus", "x"]])
func renderTestRejectsBadArgumentsWithExitCode2(arguments: [String]) throws {
    guard let result = try runRenderTest(arguments) else {
        print("skipped: .build/debug/waymark is not built")
        return
    }
    #expect(result.code == 2)
    #expect(result.stderr.contains("usage: waymark render-test"))
}

/// One line per case, a closing `N passed, M failed` line, exit 0 even with failures, 1 with `--strict`, and 2 when
/// asked to write into the suite.
@Test func renderTestReportsCasesAndExitCodes() throws {
    guard let suite = Fixtures.shared("maplibre-native-render/metrics/integration") else {
        print(Fixtures.missingSharedFixturesMessage)
        return
    }
    guard let ok = try runRenderTest([suite.path, "--filter", "background-color/literal"]) else {
        print("skipped: .build/debug/waymark is not built")
        return
    }
    #expect(ok.code == 0)
    #expect(ok.stdout.contains("PASS background-color/literal"))
    #expect(ok.stdout.hasSuffix("1 passed, 0 failed\n"))
    // background-pattern/pitch needs a perspective pattern, which Waymark does not draw yet: a failure.
    let failing = try #require(try runRenderTest([suite.path, "--filter", "background-pattern/pitch"]))
    #expect(failing.code == 0)
    #expect(failing.stdout.contains("FAIL background-pattern/pitch"))
    #expect(failing.stdout.hasSuffix("0 passed, 1 failed\n"))
    let strict = try #require(try runRenderTest([suite.path, "--filter", "background-pattern/pitch", "--strict"]))
    #expect(strict.code == 1)
    let inside = try #require(
        try runRenderTest([
            suite.path, "--filter", "background-color/literal", "--write-actual",
            suite.appendingPathComponent("out").path,
        ]))
    #expect(inside.code != 0)
    #expect(!FileManager.default.fileExists(atPath: suite.appendingPathComponent("out").path))
}

import Foundation
import MapTestSupport
import Testing

/// Runs `waymark render-test` with `arguments` (the binary built beside the tests).
private func runRenderTest(_ arguments: [String]) throws -> WaymarkProcess.Result {
    try WaymarkProcess.run(["render-test"] + arguments)
}

@Test(arguments: [[String](), ["a", "b"], ["--bogus", "x"]])
func renderTestRejectsBadArgumentsWithExitCode2(arguments: [String]) throws {
    let result = try runRenderTest(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: waymark render-test"))
}

private let renderTestSuite = "maplibre-native-render/metrics/integration"

/// One line per case, a closing `N passed, M failed` line, exit 0 even with failures, 1 with `--strict`, and 2 when
/// asked to write into the suite.
@Test(.needsSharedFixtures(renderTestSuite)) func renderTestReportsCasesAndExitCodes() throws {
    let suite = try #require(Fixtures.shared(renderTestSuite))
    let ok = try runRenderTest([suite.path, "--filter", "background-color/literal"])
    #expect(ok.status == 0)
    #expect(ok.stdout.contains("PASS background-color/literal"))
    #expect(ok.stdout.hasSuffix("1 passed, 0 failed\n"))
    // A case that cannot pass: background-color/literal's red style against background-color/default's expected
    // (black) image, in a suite made for the test (the shared suite's own cases pass or fail as Waymark improves).
    let made = FileManager.default.temporaryDirectory.appendingPathComponent("render-test-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: made) }
    let wrong = made.appendingPathComponent("render-tests/background-color/wrong")
    try FileManager.default.createDirectory(at: wrong, withIntermediateDirectories: true)
    let cases = suite.appendingPathComponent("render-tests/background-color")
    try FileManager.default.copyItem(
        at: cases.appendingPathComponent("literal/style.json"), to: wrong.appendingPathComponent("style.json"))
    try FileManager.default.copyItem(
        at: cases.appendingPathComponent("default/expected.png"), to: wrong.appendingPathComponent("expected.png"))
    let failing = try runRenderTest([made.path])
    #expect(failing.status == 0)
    #expect(failing.stdout.contains("FAIL background-color/wrong"))
    #expect(failing.stdout.hasSuffix("0 passed, 1 failed\n"))
    let strict = try runRenderTest([made.path, "--strict"])
    #expect(strict.status == 1)
    let inside = try runRenderTest([
        suite.path, "--filter", "background-color/literal", "--write-actual", suite.appendingPathComponent("out").path,
    ])
    #expect(inside.status != 0)
    #expect(!FileManager.default.fileExists(atPath: suite.appendingPathComponent("out").path))
}

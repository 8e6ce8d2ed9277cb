import Foundation
import MapTestSupport
import Testing

/// Runs the built `waymark` binary with the repository's test fonts.
private func runWaymark(_ arguments: [String]) throws -> WaymarkProcess.Result {
    try WaymarkProcess.run(arguments, environment: Fixtures.fontEnvironment)
}

@Test(arguments: [
    ["--camera", "60.17,24.94"],
    ["--camera", "abc,1,2"],
    ["--camera", "95,24.9,16"],
    ["--size", "0x10"],
    ["--size", "wide"],
    ["--scale", "9"],
    ["--bogus"],
    ["extra"],
])
func snapshotRejectsBadArgumentsWithExitCode2(arguments: [String]) throws {
    let result = try runWaymark(["snapshot"] + arguments + ["-o", "/tmp/waymark-never.png"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: waymark snapshot"))
}

@Test func snapshotWritesAPNGAndFailsWithExitCode1OnAMissingStyle() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-snapshot-test.png")
    try? FileManager.default.removeItem(at: out)
    let ok = try runWaymark([
        "snapshot", "--camera", "60.1699,24.9415,16,30,40", "--size", "200x120", "--markers",
        "Data/helsinki-pois.geojson", "-o", out.path,
    ])
    #expect(ok.status == 0)
    let bytes = try [UInt8](Data(contentsOf: out))
    #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    let missing = try runWaymark(["snapshot", "--style", "/nonexistent/style.json", "-o", out.path])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/nonexistent/style.json"))
    // A short reason, not a Foundation error dump, after the same prefix usage errors use.
    #expect(missing.stderr.hasPrefix("waymark snapshot: "), "stderr: \(missing.stderr)")
    #expect(missing.stderr.contains("no such file") && !missing.stderr.contains("NSCocoaErrorDomain"))
}

import Foundation
import MapTestSupport
import Testing

/// Runs the built `waymark` binary (`.build/debug/waymark`, built by `swift build --build-tests`).
private func runWaymark(_ arguments: [String]) throws -> (code: Int32, stderr: String)? {
    let binary = Fixtures.repositoryRoot.appendingPathComponent(".build/debug/waymark")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot
    var env = ProcessInfo.processInfo.environment
    env["FONTCONFIG_FILE"] = Fixtures.local.appendingPathComponent("fonts/fonts.conf").path
    process.environment = env
    let errPipe = Pipe()
    process.standardError = errPipe
    process.standardOutput = Pipe()
    try process.run()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: err, as: UTF8.self))
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
    guard let result = try runWaymark(["snapshot"] + arguments + ["-o", "/tmp/waymark-never.png"]) else {
        print("skipped: .build/debug/waymark is not built")
        return
    }
    #expect(result.code == 2)
    #expect(result.stderr.contains("usage: waymark snapshot"))
}

@Test func snapshotWritesAPNGAndFailsWithExitCode1OnAMissingStyle() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-snapshot-test.png")
    try? FileManager.default.removeItem(at: out)
    guard
        let ok = try runWaymark([
            "snapshot", "--camera", "60.1699,24.9415,16,30,40", "--size", "200x120", "--markers",
            "Data/helsinki-pois.geojson", "-o", out.path,
        ])
    else {
        print("skipped: .build/debug/waymark is not built")
        return
    }
    #expect(ok.code == 0)
    let bytes = try [UInt8](Data(contentsOf: out))
    #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    let missing = try #require(try runWaymark(["snapshot", "--style", "/nonexistent/style.json", "-o", out.path]))
    #expect(missing.code == 1)
    #expect(missing.stderr.contains("/nonexistent/style.json"))
    // A short reason, not a Foundation error dump, after the same prefix usage errors use.
    #expect(missing.stderr.hasPrefix("waymark snapshot: "), "stderr: \(missing.stderr)")
    #expect(missing.stderr.contains("no such file") && !missing.stderr.contains("NSCocoaErrorDomain"))
}

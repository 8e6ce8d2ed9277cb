import Foundation
import MapTestSupport
import Testing

/// A style fetched from `waymark serve` (`/styles/default/style.json`) draws the same map in `waymark snapshot` as
/// the style file itself: its sources, glyphs and sprite lead to the server's own routes.
@Test func snapshotOfTheServedStyleMatchesTheStyleFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-served-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("serve.json")
    try Data(#"{"port": 0, "workers": 1, "drainSeconds": 0}"#.utf8).write(to: config)

    let server = Process()
    server.executableURL = WaymarkProcess.executable
    server.arguments = ["serve", "--config", config.path]
    server.currentDirectoryURL = Fixtures.repositoryRoot
    server.environment = ProcessInfo.processInfo.environment.merging(Fixtures.fontEnvironment) { $1 }
    let out = Pipe()
    server.standardOutput = out
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
        server.terminate()
        server.waitUntilExit()
    }
    // "listening on http://127.0.0.1:PORT (…)"
    var line = ""
    while !line.contains("\n") {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line += String(decoding: chunk, as: UTF8.self)
    }
    let base = try #require(
        line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init), "\(line)")

    let viaServer = folder.appendingPathComponent("via.png")
    let fromFile = folder.appendingPathComponent("file.png")
    let served = try WaymarkProcess.run(
        ["snapshot", "--style", base + "/styles/default/style.json", "--size", "400x300", "-o", viaServer.path],
        environment: Fixtures.fontEnvironment)
    #expect(served.status == 0)
    #expect(!served.stderr.contains("may not read local files"), "\(served.stderr.prefix(1000))")
    #expect(!served.stderr.contains("source not found"), "\(served.stderr.prefix(1000))")
    let file = try WaymarkProcess.run(
        ["snapshot", "--style", "Data/styles/default.json", "--size", "400x300", "-o", fromFile.path],
        environment: Fixtures.fontEnvironment)
    #expect(file.status == 0)
    let a = try Data(contentsOf: viaServer)
    let b = try Data(contentsOf: fromFile)
    // The same PNG, byte for byte (a blank map would be a few hundred bytes).
    #expect(b.count > 20_000)
    #expect(a == b, "served style \(a.count) B, style file \(b.count) B")
}

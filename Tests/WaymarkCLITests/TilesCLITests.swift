import Foundation
import MapTestSupport
import Testing

/// `waymark tiles convert` as a user runs it: both directions, exit codes 0 / 1 / 2 and messages naming the file.
@Suite struct TilesCLITests {
    @Test func convertsBothWaysWithIdenticalTiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pm = folder.appendingPathComponent("h.pmtiles").path
        let back = folder.appendingPathComponent("h.mbtiles").path
        let first = try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", pm])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("19 tiles (15 distinct)"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: pm)).prefix(8)) == Array("PMTiles\u{3}".utf8))
        let second = try WaymarkProcess.run(["tiles", "convert", pm, back])
        #expect(second.status == 0, "\(second.stderr)")
        // The same tiles as the original (the converter verifies every tile's bytes; checked here as a user would).
        for tile in [["13", "4663", "2370"], ["14", "9326", "4741"]] {
            let flags = ["--z", tile[0], "--x", tile[1], "--y", tile[2]]
            let a = try WaymarkProcess.run(["decode-tile", "Data/helsinki.mbtiles"] + flags)
            let b = try WaymarkProcess.run(["decode-tile", back] + flags)
            #expect(a.status == 0 && a.stdout.contains("\"building\""))
            #expect(a.stdout == b.stdout && b.status == 0)
        }
        // An existing output: exit 1 naming it; --force replaces it.
        let again = try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", pm])
        #expect(again.status == 1 && again.stderr.contains(pm) && again.stderr.contains("already exists"))
        #expect(try WaymarkProcess.run(["tiles", "convert", "Data/helsinki.mbtiles", pm, "--force"]).status == 0)
        // A file that is not PMTiles: exit 1 naming it.
        let fake = folder.appendingPathComponent("fake.pmtiles").path
        try Data("not a tileset at all".utf8).write(to: URL(fileURLWithPath: fake))
        let bad = try WaymarkProcess.run(["tiles", "convert", fake, folder.appendingPathComponent("o.mbtiles").path])
        #expect(bad.status == 1 && bad.stderr.contains(fake) && bad.stderr.contains("not a PMTiles archive"))
        let missing = try WaymarkProcess.run(["tiles", "convert", "nope.mbtiles", pm])
        #expect(missing.status == 1 && missing.stderr.contains("nope.mbtiles"))
    }

    @Test func snapshotDrawsAPMTilesStyleAndNamesAnUnreachableRemoteArchive() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-style-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = Fixtures.data.path
        let style = try String(contentsOfFile: data + "/styles/default.json", encoding: .utf8)
            .replacingOccurrences(of: "mbtiles://../world.mbtiles", with: "mbtiles://\(data)/world.mbtiles")
            .replacingOccurrences(of: "../glyphs/", with: "\(data)/glyphs/")
        let local = folder.appendingPathComponent("local.json").path
        let remote = folder.appendingPathComponent("remote.json").path
        let pmtiles = Fixtures.local.appendingPathComponent("pmtiles/helsinki.pmtiles").path
        try style.replacingOccurrences(of: "mbtiles://../cities.mbtiles", with: "pmtiles://file://\(pmtiles)")
            .write(toFile: local, atomically: true, encoding: .utf8)
        // Port 9 on 127.0.0.1 refuses connections: the remote archive cannot be opened.
        try style.replacingOccurrences(
            of: "mbtiles://../cities.mbtiles", with: "pmtiles://http://127.0.0.1:9/helsinki.pmtiles"
        ).write(toFile: remote, atomically: true, encoding: .utf8)
        let camera = ["--camera", "60.1699,24.9443,16", "--size", "320x200"]
        let drawn = try WaymarkProcess.run(
            ["snapshot", "--style", local] + camera + ["-o", folder.appendingPathComponent("a.png").path])
        #expect(drawn.status == 0 && drawn.stderr.isEmpty, "\(drawn.stderr)")
        let failed = try WaymarkProcess.run(
            ["snapshot", "--style", remote] + camera + ["-o", folder.appendingPathComponent("b.png").path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("http://127.0.0.1:9/helsinki.pmtiles"), "\(failed.stderr)")
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [
            ["tiles"], ["tiles", "build"], ["tiles", "convert", "a.mbtiles"],
            ["tiles", "convert", "a.txt", "b.pmtiles"],
            ["tiles", "convert", "a.mbtiles", "b.mbtiles"],
            ["tiles", "convert", "a.mbtiles", "b.pmtiles", "--leaf-size", "0"],
        ] {
            let result = try WaymarkProcess.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr.contains("usage: waymark tiles convert"), "\(args)")
        }
        let help = try WaymarkProcess.run(["tiles", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--leaf-size"))
    }
}

import Foundation
import MapTestSupport
import Testing

@Suite struct DecodeTileCLITests {
    static let fixtureTile = "mvt-fixtures/fixtures/002/tile.mvt"

    @Test(.needsSharedFixtures(fixtureTile)) func decodesAFixtureTileToJSON() throws {
        let tile = try #require(Fixtures.shared(Self.fixtureTile))
        let r = try WaymarkProcess.run(["decode-tile", tile.path])
        #expect(r.status == 0, "\(r.stderr)")
        // mvt-fixtures 002: one layer "hello" with one point at (25, 17) and property hello=world (its tile.json).
        let layers = try #require(r.json?["layers"] as? [[String: Any]])
        #expect(layers.count == 1)
        #expect(layers.first?["name"] as? String == "hello")
        let feature = try #require((layers.first?["features"] as? [[String: Any]])?.first)
        #expect((feature["properties"] as? [String: Any])?["hello"] as? String == "world")
        let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Int]
        #expect(coordinates == [25, 17])
    }

    @Test func decodesAHelsinkiTileFromTheCommittedMBTiles() throws {
        // Central Helsinki, XYZ 14/9327/4742 (the TMS row is 11641): a street-level tile with roads and buildings.
        let r = try WaymarkProcess.run(
            ["decode-tile", "Data/helsinki.mbtiles", "--z", "14", "--x", "9327", "--y", "4742"],
            in: Fixtures.repositoryRoot)
        #expect(r.status == 0, "\(r.stderr)")
        let names = Set((r.json?["layers"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["transportation", "building", "water", "poi"]))
    }

    @Test func missingTileAddressForMBTilesIsAUsageError() throws {
        let r = try WaymarkProcess.run(["decode-tile", "Data/helsinki.mbtiles"], in: Fixtures.repositoryRoot)
        #expect(r.status == 2)
    }

    @Test func corruptInputIsARuntimeErrorNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("not-a-tile.mbtiles")
        try Data("this is not SQLite".utf8).write(to: bad)
        let r = try WaymarkProcess.run(["decode-tile", bad.path, "--z", "0", "--x", "0", "--y", "0"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("not-a-tile.mbtiles"))
    }
}

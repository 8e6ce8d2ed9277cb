import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

@testable import MapStorage

/// MBTiles edge cases from node-mbtiles and martin (in ../shared/fixtures); expected sizes and rows were read with the
/// sqlite3 CLI, and XYZ rows converted by hand with y = 2^z − 1 − tile_row.
@Suite struct MBTilesSourceTests {
    static let nodeFixtures = "node-mbtiles/test/fixtures"
    static let martinFixtures = "martin/tests/fixtures"

    /// The path of `name` in node-mbtiles' fixtures; fails the test (which carries `.needsSharedFixtures(nodeFixtures)`)
    /// when it is absent.
    static func nodeFixture(_ name: String) throws -> String {
        try #require(Fixtures.shared("\(nodeFixtures)/\(name)")).path
    }
    /// The path of `name` in martin's fixtures; fails the test (which carries `.needsSharedFixtures(martinFixtures)`)
    /// when it is absent.
    static func martinFixture(_ name: String) throws -> String {
        try #require(Fixtures.shared("\(martinFixtures)/\(name)")).path
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func plainFileReadsMetadataAndFlipsRows() throws {
        let path = try Self.nodeFixture("plain_1.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(source.metadata.name == "plain_1")
        #expect(source.metadata.bounds?.count == 4)
        #expect(source.metadata.extra["description"] == "demo description")
        #expect(source.metadata.json?.contains("level2") == true)
        // No minzoom/maxzoom rows: the range comes from the tiles table (z0–z4).
        #expect(source.minZoom == 0 && source.maxZoom == 4)
        // z3, column 0: rows 7, 5, 1 hold 103, 2990 and 103 bytes; row 0 is absent.
        #expect(try source.rawTileData(at: TileID(z: 3, x: 0, y: 0))?.count == 103)
        #expect(try source.rawTileData(at: TileID(z: 3, x: 0, y: 2))?.count == 2990)
        #expect(try source.rawTileData(at: TileID(z: 3, x: 0, y: 6))?.count == 103)
        #expect(try source.rawTileData(at: TileID(z: 3, x: 0, y: 7)) == nil)
        // PNG payloads are not compressed: returned as stored.
        let png = try #require(try source.tileData(at: TileID(z: 0, x: 0, y: 0)))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(try source.tileAddresses().count == 1 + 4 + 16 + 56 + 208)
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func unindexedFileGivesTheSameTiles() throws {
        let plain = try Self.nodeFixture("plain_1.mbtiles")
        let path = try Self.nodeFixture("unindexed.mbtiles")
        let a = try MBTilesSource(path: plain)
        let b = try MBTilesSource(path: path)
        for address in try a.tileAddresses() {
            #expect(try a.rawTileData(at: address) == b.rawTileData(at: address))
        }
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func nullTileIsMissing() throws {
        let path = try Self.nodeFixture("corrupt_null_tile.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(try source.tileData(at: TileID(z: 1, x: 0, y: 1)) == nil)  // tile_row 0 is NULL
        #expect(try source.tileData(at: TileID(z: 1, x: 0, y: 0)) != nil)
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func metadataZoomRangeAndMissingTiles() throws {
        let path = try Self.nodeFixture("some-empty-tiles.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(source.minZoom == 1 && source.maxZoom == 2)
        #expect(source.metadata.name == "US Debt Held By Foreign Nations")
        // z2 has 7 of 16 tiles: rows 1…3 only, so XYZ row 3 (tile_row 0) is missing everywhere.
        for x in 0..<4 { #expect(try source.tileData(at: TileID(z: 2, x: x, y: 3)) == nil) }
        #expect(try source.tileAddresses().count == 4 + 7)
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func fileNameWithSpacesAndNoTiles() throws {
        let path = try Self.nodeFixture("with spaces.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(source.metadata.extra["version"] == "1.0.0")
        #expect(try source.tileAddresses().isEmpty)
        #expect(try source.tileData(at: TileID(z: 0, x: 0, y: 0)) == nil)
    }

    @Test(.needsSharedFixtures(nodeFixtures)) func corruptFileGivesAnErrorNamingIt() throws {
        let path = try Self.nodeFixture("corrupt.mbtiles")
        let error = try #require(throws: MBTilesError.self) { try MBTilesSource(path: path) }
        #expect(error.reason == .corrupt)
        #expect(error.description.contains(path))
    }

    @Test(.needsSharedFixtures(martinFixtures)) func gzipVectorTilesDecode() throws {
        let path = try Self.martinFixture("mbtiles/world_cities.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(source.metadata.format == "pbf")
        #expect(source.minZoom == 0 && source.maxZoom == 6)
        #expect(source.metadata.center == [-75.9375, 38.788894, 6])
        #expect(
            source.metadata.vectorLayers == [
                TileSourceVectorLayer(id: "cities", minZoom: 0, maxZoom: 6, fields: ["name": "String"])
            ])
        // z2 rows 1 and 2 at column 3 → XYZ y 2 and 1; 151 and 263 compressed bytes.
        #expect(try source.rawTileData(at: TileID(z: 2, x: 3, y: 2))?.count == 151)
        #expect(try source.rawTileData(at: TileID(z: 2, x: 3, y: 1))?.count == 263)
        let bytes = try #require(try source.tileData(at: TileID(z: 0, x: 0, y: 0)))
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "cities"))
        var diagnostics: [VectorTileDiagnostic] = []
        let features = layer.decodeFeatures(diagnostics: &diagnostics)
        #expect(!features.isEmpty && diagnostics.isEmpty)
        #expect(features.allSatisfy { $0.type == .point && $0.properties["name"]?.stringValue != nil })
    }

    @Test(.needsSharedFixtures(martinFixtures)) func normalizedSchemaReadsThroughTheTilesView() throws {
        let path = try Self.martinFixture("mbtiles/normalized-dedup-id.mbtiles")
        let source = try MBTilesSource(path: path)
        #expect(source.metadata.format == "jpeg")
        #expect(source.maxZoom == 1)
        let jpeg = try #require(try source.tileData(at: TileID(z: 1, x: 1, y: 1)))
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
    }

    @Test(.needsSharedFixtures(martinFixtures)) func uncompressedVectorTilesAreReturnedAsStored() throws {
        let path = try Self.martinFixture("mbtiles/uncompressed_mvt.mbtiles")
        let source = try MBTilesSource(path: path)
        let raw = try source.rawTileData(at: TileID(z: 0, x: 0, y: 0))
        #expect(try source.tileData(at: TileID(z: 0, x: 0, y: 0)) == raw)
    }

    @Test(.needsSharedFixtures(martinFixtures)) func martinBrokenFiles() throws {
        let empty = try Self.martinFixture("files/invalid.mbtiles")
        let index = try Self.martinFixture("files/invalid-tile-idx.mbtiles")
        let format = try Self.martinFixture("files/invalid-tile-format.mbtiles")
        let hash = try Self.martinFixture("files/bad_hash.mbtiles")
        // 0-byte file: not an MBTiles file, named in the message.
        let error = try #require(throws: MBTilesError.self) { try MBTilesSource(path: empty) }
        #expect(error.reason == .notMBTiles && error.description.contains(empty))
        // Its only tile sits at z6 row 64, outside the 64-row grid: never returned.
        let outside = try MBTilesSource(path: index)
        #expect(try outside.tileAddresses().isEmpty)
        // A tile that is neither compressed nor a vector tile: returned as stored, rejected by the decoder.
        let bad = try MBTilesSource(path: format)
        let payload = try #require(try bad.tileData(at: TileID(z: 1, x: 0, y: 1)))
        #expect(payload == [0xFF])
        #expect(throws: VectorTileError.self) { try VectorTile(bytes: payload).layers() }
        // bad_hash opens (the agg_tiles_hash is not checked), but its one tile is a 9-byte gzip header with no
        // stream (checked with Python's gzip module): a bad-tile error naming the file and the tile.
        let hashed = try MBTilesSource(path: hash)
        let tileError = try #require(throws: MBTilesError.self) {
            try hashed.tileData(at: TileID(z: 6, x: 63, y: 39))
        }
        #expect(tileError.reason == .badTile && tileError.description.contains(hash))
        #expect(tileError.description.contains("6/63/39"))
        #expect(try hashed.rawTileData(at: TileID(z: 6, x: 63, y: 39))?.count == 9)
    }

    @Test func vectorLayersToleratesBadJSON() {
        #expect(MBTilesSource.vectorLayers(fromJSON: "{not json").isEmpty)
        #expect(
            MBTilesSource.vectorLayers(fromJSON: #"{"vector_layers": [{"minzoom": 1}, {"id": "water"}]}"#) == [
                TileSourceVectorLayer(id: "water")
            ])
    }

    @Test func missingFileAndNonSQLiteFile() throws {
        let missing = "/nonexistent/dir/none.mbtiles"
        let e1 = try #require(throws: MBTilesError.self) { try MBTilesSource(path: missing) }
        #expect(e1.reason == .cannotOpen && e1.description.contains(missing))
        let text = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waymark-not-sqlite-\(getpid()).mbtiles")
        try Data(repeating: 0x41, count: 4096).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let e2 = try #require(throws: MBTilesError.self) { try MBTilesSource(path: text.path) }
        #expect(e2.reason == .corrupt && e2.description.contains(text.path))
    }

    /// A file cut in half fails with an error naming it, when opened or when a tile is read — never a crash.
    @Test(.needsSharedFixtures(nodeFixtures)) func truncatedFile() throws {
        let plain = try Self.nodeFixture("plain_1.mbtiles")
        let data = try Data(contentsOf: URL(fileURLWithPath: plain))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-truncated-\(getpid()).mbtiles")
        try data.prefix(data.count / 2).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        var failure: MBTilesError?
        do {
            let source = try MBTilesSource(path: cut.path)
            for z in 0...4 {
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) { _ = try source.tileData(at: TileID(z: z, x: x, y: y)) }
                }
            }
        } catch let error as MBTilesError {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.description.contains(cut.path))
    }

    /// Another process holding an exclusive lock: the read fails after the busy timeout with `.locked`.
    @Test(.needsSharedFixtures(nodeFixtures), .enabled(if: SQLiteScript.available, "needs /usr/bin/sqlite3"))
    func lockedFile() throws {
        let plain = try Self.nodeFixture("plain_1.mbtiles")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-locked-\(getpid()).mbtiles")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: plain), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: SQLiteScript.shell)
        sqlite.arguments = [copy.path]
        let input = Pipe()
        let output = Pipe()
        sqlite.standardInput = input
        sqlite.standardOutput = output
        try sqlite.run()
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 'locked';\n".utf8))
        // Wait until the lock is held (the CLI prints after taking it).
        _ = output.fileHandleForReading.availableData
        defer {
            input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
            try? input.fileHandleForWriting.close()
            sqlite.waitUntilExit()
        }
        let error = try #require(throws: MBTilesError.self) {
            let source = try MBTilesSource(path: copy.path, busyTimeoutMilliseconds: 50)
            _ = try source.tileData(at: TileID(z: 0, x: 0, y: 0))
        }
        #expect(error.reason == .locked && error.description.contains(copy.path))
    }

    /// A file written by hand with the sqlite3 CLI: duplicate metadata rows, GDAL-style rows outside the grid, a
    /// zlib tile and a raw tile. The tile is a one-point MVT (layer "x", feature id 7 at (25, 17)) whose bytes and
    /// zlib stream were produced with Python's zlib module.
    @Test(.enabled(if: SQLiteScript.available, "needs /usr/bin/sqlite3")) func duplicatesOutOfGridRowsAndZlib() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-handmade-\(getpid()).mbtiles")
        try? FileManager.default.removeItem(at: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let tile = "1a1378020a01781209080718012203093222288020"
        let zlib = "789c9312ae60e262ac10e2e46097605462e63452d2685000001c0d02b8"
        let sql = """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
            INSERT INTO metadata VALUES ('name', 'first'), ('name', 'second'), ('minzoom', '1'), ('maxzoom', '2'),
              ('maxzoom', '9'), ('bounds', 'not numbers'), ('center', '24.94,60.17,14'), ('attribution', '© OSM');
            INSERT INTO tiles VALUES (1, 0, 1, X'\(zlib)'), (1, 1, 0, X'\(tile)'),
              (1, 0, -1, X'00'), (1, 2, 0, X'00'), (2, 4, 3, X'00'), (2, 0, 4, X'00');
            """
        #expect(try SQLiteScript.run(sql, database: file.path) == 0)
        let source = try MBTilesSource(path: file.path)
        #expect(source.metadata.name == "first")
        #expect(source.minZoom == 1 && source.maxZoom == 2)
        #expect(source.metadata.bounds == nil)
        #expect(source.metadata.center == [24.94, 60.17, 14])
        #expect(source.metadata.attribution == "© OSM")
        // tile_row 1 at z1 is XYZ y 0; tile_row 0 is y 1.
        let expected = try #require(hexBytes(tile))
        #expect(try source.tileData(at: TileID(z: 1, x: 0, y: 0)) == expected)
        #expect(try source.rawTileData(at: TileID(z: 1, x: 0, y: 0)) == hexBytes(zlib))
        #expect(try source.tileData(at: TileID(z: 1, x: 1, y: 1)) == expected)
        let feature = try #require(try VectorTile(bytes: expected).layer(named: "x")).feature(at: 0)
        #expect(feature.id == 7)
        // The four out-of-grid rows are invisible.
        #expect(try source.tileAddresses() == [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 1)])
    }
}

func hexBytes(_ hex: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = hex.makeIterator()
    while let high = iterator.next() {
        guard let low = iterator.next(), let byte = UInt8(String([high, low]), radix: 16) else { return nil }
        bytes.append(byte)
    }
    return bytes
}

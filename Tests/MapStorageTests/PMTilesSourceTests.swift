import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Synchronization
import Testing

@testable import MapStorage

/// PMTilesSource over the fixtures written by the pinned `pmtiles` package (scripts/data/make-pmtiles-fixtures.py) and by
/// our converter: every tile reads back byte-identical to Data/helsinki.mbtiles; bad and hostile files are errors
/// naming the file.
@Suite struct PMTilesSourceTests {
    static let helsinki = Fixtures.data.appendingPathComponent("helsinki.mbtiles").path
    static func fixture(_ name: String) -> String {
        Fixtures.local.appendingPathComponent("pmtiles/\(name)").path
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pmtiles-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every address of `mbtiles` up to `maxZoom` reads the same raw and inflated bytes from `pmtiles`, and the archive
    /// has no other tiles.
    static func expectSameTiles(_ pmtiles: PMTilesSource, _ mbtiles: MBTilesSource, maxZoom: Int = 30) throws {
        let addresses = try mbtiles.tileAddresses().filter { $0.z <= maxZoom }
        #expect(!addresses.isEmpty)
        for address in addresses {
            #expect(try pmtiles.rawTileData(at: address) == mbtiles.rawTileData(at: address), "\(address)")
            #expect(try pmtiles.tileData(at: address) == mbtiles.tileData(at: address), "\(address)")
        }
        #expect(Set(try pmtiles.tileAddresses()) == Set(addresses))
    }

    @Test func pythonFixturesReadBackTheHelsinkiTiles() throws {
        let mbtiles = try MBTilesSource(path: Self.helsinki)
        let whole = try PMTilesSource(path: Self.fixture("helsinki.pmtiles"))
        try Self.expectSameTiles(whole, mbtiles)
        #expect(whole.minZoom == 0 && whole.maxZoom == 14)
        #expect(whole.metadata.name == "Waymark Helsinki")
        #expect(whole.metadata.attribution == "© OpenStreetMap contributors")
        #expect(whole.metadata.format == "pbf")
        #expect(whole.metadata.vectorLayers.map(\.id) == mbtiles.metadata.vectorLayers.map(\.id))
        #expect(whole.metadata.bounds?.first.map { abs($0 - 24.9351762) < 1e-6 } == true)
        #expect(whole.archive.header.clustered && whole.archive.header.leafDirectoryLength == 0)

        let leaves = try PMTilesSource(path: Self.fixture("helsinki-leaves.pmtiles"))
        #expect(leaves.archive.header.leafDirectoryLength > 0)
        let rootIsAllLeaves = leaves.archive.root.allSatisfy { $0.isLeaf }
        #expect(rootIsAllLeaves)
        try Self.expectSameTiles(leaves, mbtiles, maxZoom: 13)

        let unclustered = try PMTilesSource(path: Self.fixture("unclustered.pmtiles"))
        #expect(!unclustered.archive.header.clustered)
        try Self.expectSameTiles(unclustered, mbtiles, maxZoom: 12)

        let plain = try PMTilesSource(path: Self.fixture("internal-none.pmtiles"))
        #expect(plain.archive.header.internalCompression == .none)
        try Self.expectSameTiles(plain, mbtiles, maxZoom: 12)
        #expect(try plain.tileData(at: TileID(z: 13, x: 0, y: 0)) == nil)
    }

    @Test func runLengthEntriesCoverEveryAddress() throws {
        let source = try PMTilesSource(path: Self.fixture("runlength.pmtiles"))
        let header = source.archive.header
        #expect(header.addressedTilesCount == 80 && header.tileEntriesCount == 3 && header.tileContentsCount == 2)
        #expect(try source.tileEntries().contains { $0.runLength > 1 })
        let mbtiles = try MBTilesSource(path: Self.helsinki)
        let z5 = try #require(try mbtiles.tileAddresses().first { $0.z == 5 })
        let z6 = try #require(try mbtiles.tileAddresses().first { $0.z == 6 })
        let odd = try #require(PMTilesTileID.address(of: 30))
        for z in 2...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let a = TileID(z: z, x: x, y: y)
                    let expected = try (a == odd ? mbtiles.rawTileData(at: z6) : mbtiles.rawTileData(at: z5))
                    #expect(try source.rawTileData(at: a) == expected, "\(a)")
                }
            }
        }
        #expect(try source.tileData(at: TileID(z: 4, x: 0, y: 0)) == nil)
        #expect(try source.tileAddresses().count == 80)
    }

    @Test func converterRoundTripsTileBytesBothWays() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try MBTilesSource(path: Self.helsinki)
        for leafSize in [nil, 2] as [Int?] {
            let pm = folder.appendingPathComponent("h\(leafSize ?? 0).pmtiles").path
            let back = folder.appendingPathComponent("h\(leafSize ?? 0).mbtiles").path
            let summary = try TileArchiveConverter.convert(input: Self.helsinki, output: pm, leafSize: leafSize)
            #expect(summary.tiles == 19 && summary.distinctTiles == 15)
            let archive = try PMTilesSource(path: pm)
            #expect(archive.archive.header.clustered)
            #expect(archive.archive.header.tileCompression == .gzip)
            #expect((archive.archive.header.leafDirectoryLength > 0) == (leafSize != nil))
            try Self.expectSameTiles(archive, original)
            #expect(archive.metadata.name == original.metadata.name)
            #expect(archive.metadata.vectorLayers == original.metadata.vectorLayers)
            #expect(archive.archive.header.centerZoom == 14)

            try TileArchiveConverter.convert(input: pm, output: back)
            let again = try MBTilesSource(path: back)
            #expect(try again.tileAddresses() == original.tileAddresses())
            for address in try original.tileAddresses() {
                #expect(try again.rawTileData(at: address) == original.rawTileData(at: address))
            }
            // Metadata rows survive the round trip (json as the same object).
            let rows = Dictionary(try original.metadataRows().map { ($0.name, $0.value) }) { a, _ in a }
            let rowsBack = Dictionary(try again.metadataRows().map { ($0.name, $0.value) }) { a, _ in a }
            #expect(Set(rows.keys) == Set(rowsBack.keys))
            for (key, value) in rows where key != "json" { #expect(rowsBack[key] == value, "\(key)") }
            #expect(again.metadata.vectorLayers == original.metadata.vectorLayers)
        }
        // The Python-written archive converts back to the same tiles too.
        let fromPython = folder.appendingPathComponent("py.mbtiles").path
        try TileArchiveConverter.convert(input: Self.fixture("helsinki.pmtiles"), output: fromPython)
        let py = try MBTilesSource(path: fromPython)
        for address in try original.tileAddresses() {
            #expect(try py.rawTileData(at: address) == original.rawTileData(at: address))
        }
        // Existing outputs are kept unless overwriting; same-format and unknown extensions are refused.
        let existing = folder.appendingPathComponent("h0.pmtiles").path
        #expect(throws: TileArchiveConverter.ConversionError.self) {
            try TileArchiveConverter.convert(input: Self.helsinki, output: existing)
        }
        try TileArchiveConverter.convert(input: Self.helsinki, output: existing, overwrite: true)
        #expect(throws: TileArchiveConverter.ConversionError.self) {
            try TileArchiveConverter.convert(
                input: Self.helsinki, output: folder.appendingPathComponent("x.mbtiles").path)
        }
        #expect(throws: TileArchiveConverter.ConversionError.self) {
            try TileArchiveConverter.convert(input: Self.helsinki, output: folder.appendingPathComponent("x.zip").path)
        }
        #expect(FileManager.default.fileExists(atPath: existing))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains("partial")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func worldConvertsWithRunLengthsAndSameTiles() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = Fixtures.data.appendingPathComponent("world.mbtiles").path
        let pm = folder.appendingPathComponent("world.pmtiles").path
        let summary = try TileArchiveConverter.convert(input: world, output: pm)
        let archive = try PMTilesSource(path: pm)
        let header = archive.archive.header
        #expect(summary.tiles > 5461 && header.addressedTilesCount == UInt64(summary.tiles))  // z0–8 and more
        #expect(header.tileEntriesCount < header.addressedTilesCount)  // run-length entries
        #expect(header.tileContentsCount < header.tileEntriesCount)  // identical tiles stored once
        try Self.expectSameTiles(archive, try MBTilesSource(path: world))
    }

    @Test func badFilesAreErrorsNamingTheFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func reason(_ path: String) -> PMTilesError.Reason? {
            do {
                _ = try PMTilesSource(path: path)
                return nil
            } catch let error as PMTilesError {
                #expect(error.description.hasPrefix(path + ": "), "\(error)")
                return error.reason
            } catch {
                Issue.record("unexpected \(error)")
                return nil
            }
        }
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture("helsinki.pmtiles"))))
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        #expect(reason(folder.appendingPathComponent("missing.pmtiles").path) == .cannotRead)
        #expect(reason(folder.path) == .cannotRead)
        #expect(reason(try file("empty.pmtiles", [])) == .badMagic)
        #expect(
            reason(try file("mbtiles.pmtiles", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.helsinki)))))
                == .badMagic)
        var v2 = good
        v2[7] = 2
        #expect(reason(try file("v2.pmtiles", v2)) == .unsupportedVersion)
        #expect(reason(try file("truncated.pmtiles", Array(good.prefix(good.count / 2)))) == .badHeader)
        // A corrupt root directory: gzip bytes flipped.
        var corrupt = good
        for i in 140..<160 { corrupt[i] ^= 0x5A }
        #expect(reason(try file("corrupt-root.pmtiles", corrupt)) == .badDirectory)
        // A corrupt tile: the archive opens; that tile's read fails naming the file; raw bytes still come back.
        var badTile = good
        let source = try PMTilesSource(path: Self.fixture("helsinki.pmtiles"))
        let z14 = try #require(try source.tileAddresses().last)
        let entry = try #require(try source.archive.entry(for: PMTilesTileID.id(of: z14)) { _ in [] })
        let start = Int(source.archive.tileRange(entry).offset)
        for i in start + 10..<start + 60 { badTile[i] ^= 0xFF }
        let damaged = try PMTilesSource(path: try file("bad-tile.pmtiles", badTile))
        #expect(try damaged.rawTileData(at: z14)?.count == Int(entry.length))
        #expect {
            try damaged.tileData(at: z14)
        } throws: { error in
            (error as? PMTilesError).map { $0.reason == .badTile && $0.archive.hasSuffix("bad-tile.pmtiles") } ?? false
        }
    }

    @Test func leafCacheStaysWithinItsBoundAndIsThreadSafe() throws {
        let mbtiles = try MBTilesSource(path: Self.helsinki)
        let addresses = try mbtiles.tileAddresses().filter { $0.z <= 13 }
        let tiny = try PMTilesSource(path: Self.fixture("helsinki-leaves.pmtiles"), directoryCacheBytes: 200)
        let roomy = try PMTilesSource(path: Self.fixture("helsinki-leaves.pmtiles"))
        for address in addresses {
            _ = try tiny.rawTileData(at: address)
            _ = try roomy.rawTileData(at: address)
            #expect(tiny.cachedDirectoryBytes <= 200)
        }
        #expect(roomy.cachedDirectoryBytes > tiny.cachedDirectoryBytes)
        let expected = try addresses.map { try mbtiles.rawTileData(at: $0) }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for (i, address) in addresses.enumerated() where (i + worker) % 2 == 0 {
                if (try? tiny.rawTileData(at: address)) != expected[i] { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}

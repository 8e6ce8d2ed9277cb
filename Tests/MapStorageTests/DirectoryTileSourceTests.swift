import Foundation
import MapData
import MapTestSupport
import Testing

@testable import MapStorage

@Suite struct DirectoryTileSourceTests {
    static let chicago = "mvt-fixtures/real-world/chicago"
    static let compressed = "mvt-fixtures/real-world/compressed"

    @Test(.needsSharedFixtures(chicago)) func realWorldFolderWithDashedNames() throws {
        let folder = try #require(Fixtures.shared(Self.chicago))
        let source = try DirectoryTileSource(directory: folder, template: "{z}-{x}-{y}.mvt")
        #expect(source.minZoom == 13 && source.maxZoom == 13)
        let bytes = try #require(try source.tileData(at: TileAddress(z: 13, x: 2098, y: 3042)))
        #expect(bytes.count == 31961)  // the file size, listed with ls
        #expect(try !VectorTile(bytes: bytes).layers().isEmpty)
        #expect(try source.tileData(at: TileAddress(z: 13, x: 2097, y: 3042)) == nil)
        // Above maxzoom the plan points at the ancestor file.
        #expect(source.plan(for: TileAddress(z: 15, x: 8393, y: 12170))?.source == TileAddress(z: 13, x: 2098, y: 3042))
    }

    @Test(.needsSharedFixtures(compressed)) func gzippedFilesAreInflated() throws {
        let folder = try #require(Fixtures.shared(Self.compressed))
        let source = try DirectoryTileSource(directory: folder, template: "{z}-{x}-{y}.mvt.gz")
        #expect(source.minZoom == 14 && source.maxZoom == 14)
        let bytes = try #require(try source.tileData(at: TileAddress(z: 14, x: 9384, y: 9577)))
        #expect(bytes.first == 0x1A)  // field 3 (layers), length-delimited
        #expect(try !VectorTile(bytes: bytes).layers().isEmpty)
    }

    @Test func missingFolderOrBadTemplate() {
        #expect(throws: MBTilesError.self) { try DirectoryTileSource(directory: URL(fileURLWithPath: "/no/such/dir")) }
        #expect(throws: MBTilesError.self) {
            try DirectoryTileSource(directory: URL(fileURLWithPath: "/tmp"), template: "{z}.mvt")
        }
    }
}

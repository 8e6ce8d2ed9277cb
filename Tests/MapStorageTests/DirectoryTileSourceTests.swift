import Foundation
import MapData
import MapGeometry
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
        let bytes = try #require(try source.tileData(at: TileID(z: 13, x: 2098, y: 3042)))
        #expect(bytes.count == 31961)  // the file size, listed with ls
        #expect(try !VectorTile(bytes: bytes).layers().isEmpty)
        #expect(try source.tileData(at: TileID(z: 13, x: 2097, y: 3042)) == nil)
        // Above maxzoom the plan points at the ancestor file.
        #expect(source.plan(for: TileID(z: 15, x: 8393, y: 12170))?.source == TileID(z: 13, x: 2098, y: 3042))
    }

    @Test(.needsSharedFixtures(compressed)) func gzippedFilesAreInflated() throws {
        let folder = try #require(Fixtures.shared(Self.compressed))
        let source = try DirectoryTileSource(directory: folder, template: "{z}-{x}-{y}.mvt.gz")
        #expect(source.minZoom == 14 && source.maxZoom == 14)
        let bytes = try #require(try source.tileData(at: TileID(z: 14, x: 9384, y: 9577)))
        #expect(bytes.first == 0x1A)  // field 3 (layers), length-delimited
        #expect(try !VectorTile(bytes: bytes).layers().isEmpty)
    }

    @Test func missingFolderOrBadTemplate() {
        #expect(throws: MBTilesError.self) { try DirectoryTileSource(directory: URL(fileURLWithPath: "/no/such/dir")) }
        #expect(throws: MBTilesError.self) {
            try DirectoryTileSource(directory: URL(fileURLWithPath: "/tmp"), template: "{z}.mvt")
        }
    }

    /// MapLibre's render-test layout (`tiles/{z}-{x}-{y}.mvt`, found by scanning) and a TMS `{-y}` row.
    @Test func renderTestLayoutAndTMSRows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-dirtiles-\(getpid())")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("tiles"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = MVTEncoder.encode(layers: [
            (
                name: "l", extent: 4096,
                features: [MVTEncoderFeature(geometry: .points([VectorTilePoint(x: 1, y: 2)]), properties: [])]
            )
        ])
        try Data(bytes).write(to: dir.appendingPathComponent("tiles/3-4-5.mvt"))
        let s = try DirectoryTileSource(directory: dir, template: "tiles/{z}-{x}-{y}.mvt")
        #expect(s.path(for: TileID(z: 3, x: 4, y: 5)).hasSuffix("tiles/3-4-5.mvt"))
        #expect(try s.tileData(at: TileID(z: 3, x: 4, y: 5)) == bytes)
        #expect(try s.tileData(at: TileID(z: 3, x: 4, y: 6)) == nil)
        let tms = try DirectoryTileSource(directory: dir, template: "{z}/{x}/{-y}")
        #expect(tms.path(for: TileID(z: 3, x: 4, y: 5)).hasSuffix("3/4/2"))
    }

    /// A template without placeholders names one file for every tile of the given zooms, as a MapLibre tile URL does;
    /// outside the zooms there is no tile.
    @Test func aTemplateWithoutPlaceholdersServesOneFileOverItsZooms() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-onetile-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([1, 2, 3]).write(to: dir.appendingPathComponent("one.mvt"))
        let s = try DirectoryTileSource(directory: dir, template: "one.mvt", zoomRange: 2...4)
        #expect(try s.tileData(at: TileID(z: 3, x: 1, y: 6)) == [1, 2, 3])
        #expect(try s.tileData(at: TileID(z: 5, x: 1, y: 6)) == nil)
        #expect(throws: MBTilesError.self) { try DirectoryTileSource(directory: dir, template: "one.mvt") }
    }
}

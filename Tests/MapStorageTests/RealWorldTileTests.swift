import Foundation
import MapData
import MapTestSupport
import Testing

@testable import MapStorage

/// Every real-world tile of mvt-fixtures (Mapbox Streets, terrain, OSM QA; some gzipped) decodes completely: all
/// layers, features and geometries, with no thrown error and no crash.
@Suite struct RealWorldTileTests {
    static let realWorld = "mvt-fixtures/real-world"

    /// Every `.mvt` and `.mvt.gz` file under `folder`, sorted.
    static func files(in folder: URL) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        var result: [String] = []
        while let name = enumerator.nextObject() as? String {
            if name.hasSuffix(".mvt") || name.hasSuffix(".mvt.gz") {
                result.append(folder.appendingPathComponent(name).path)
            }
        }
        return result.sorted()
    }

    @Test(.needsSharedFixtures(realWorld)) func decodesEveryRealWorldTile() throws {
        let files = try Self.files(in: try #require(Fixtures.shared(Self.realWorld)))
        #expect(files.count >= 200)
        var features = 0
        var points = 0
        var diagnostics: [VectorTileDiagnostic] = []
        for file in files {
            let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            let bytes = try decompressTileData(raw)
            if file.hasSuffix(".gz") { #expect(bytes.count > raw.count) }
            let layers = try VectorTile(bytes: bytes).layers()
            #expect(!layers.isEmpty, "\(file)")
            for layer in layers {
                for feature in layer.decodeFeatures(diagnostics: &diagnostics) {
                    features += 1
                    let geometry = try feature.decodeGeometry(diagnostics: &diagnostics)
                    points += clipGeometry(geometry, extent: feature.extent, buffer: 128).pointCount
                }
            }
        }
        #expect(features > 100_000)
        #expect(points > 0)
        // Producers do emit a few degenerate rings and repeated points; none may be a skipped feature.
        #expect(diagnostics.allSatisfy { !$0.message.hasPrefix("invalid feature") })
        print("real-world: \(files.count) tiles, \(features) features, \(diagnostics.count) geometry diagnostics")
    }

    @Test func inflateRejectsCorruptAndTruncatedStreams() throws {
        let gz: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
        #expect(throws: (any Error).self) { try decompressTileData(gz) }  // header only
        #expect(throws: (any Error).self) { try decompressTileData([0x1F, 0x8B, 0xFF, 0xFF, 0xFF]) }
        #expect(try decompressTileData([0x1A, 0x00]) == [0x1A, 0x00])  // raw MVT passes through
    }
}

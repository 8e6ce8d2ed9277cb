import Foundation
import MapData
import MapGeometry
import MapStorage

/// Where benchmark inputs live: the committed `Data/` folder and the shared third-party fixtures.
enum BenchmarkInputs {
    /// The repository root, found from this source file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures` beside the checkout, or `WAYMARK_SHARED_FIXTURES`.
    static var sharedFixtures: URL {
        ProcessInfo.processInfo.environment["WAYMARK_SHARED_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }

    static func data(_ name: String) -> String? {
        let path = repositoryRoot.appendingPathComponent("Data/\(name)").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The largest tile at `zoom` of an MBTiles file (by stored size), uncompressed.
    static func largestTile(in path: String, zoom: Int) throws -> (TileID, [UInt8])? {
        let source = try MBTilesSource(path: path)
        var best: (TileID, Int)?
        for address in try source.tileAddresses() where address.z == zoom {
            let size = try source.rawTileData(at: address)?.count ?? 0
            if size > best?.1 ?? -1 { best = (address, size) }
        }
        guard let (address, _) = best, let bytes = try source.tileData(at: address) else { return nil }
        return (address, bytes)
    }

    /// The largest `.mvt` under `mvt-fixtures/real-world/<folder>` (all folders when `nil`).
    static func largestRealWorldTile(folder: String?) throws -> (String, [UInt8])? {
        let base = sharedFixtures.appendingPathComponent("mvt-fixtures/real-world")
        guard let names = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] else { return nil }
        var best: (String, Int)?
        for name in names where name.hasSuffix(".mvt") && (folder == nil || name.hasPrefix(folder! + "/")) {
            let path = base.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > best?.1 ?? -1 { best = (path, size) }
        }
        guard let (path, _) = best else { return nil }
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data("  \(text)\n".utf8))
    }
}

/// Decodes every layer, feature, property dictionary and geometry of one tile; counts features.
func decodeWholeTile(_ bytes: [UInt8]) throws -> Int {
    let tile = VectorTile(bytes: bytes)
    var diagnostics: [VectorTileDiagnostic] = []
    var features = 0
    var points = 0
    for layer in try tile.layers() {
        for feature in layer.decodeFeatures(diagnostics: &diagnostics) {
            features += 1
            points &+= feature.properties.count
            points &+= (try? feature.decodeGeometry(diagnostics: &diagnostics))?.pointCount ?? 0
        }
    }
    blackHole(points)
    return features
}

/// Full decode (layers, properties, geometry) of the densest z14 tile of `Data/helsinki.mbtiles`, or, until that file
/// exists, of the largest Mapbox Streets tile in mvt-fixtures' real-world set (z15 San Francisco).
struct DecodeDenseTileBenchmark: Benchmark {
    let name = "decode-dense-tile"
    let unit = "features"
    var bytes: [UInt8] = []

    mutating func setUp() throws {
        if let path = BenchmarkInputs.data("helsinki.mbtiles"),
            let (address, data) = try BenchmarkInputs.largestTile(in: path, zoom: 14)
        {
            bytes = data
            BenchmarkInputs.note("decode-dense-tile input: \(path) tile \(address) (\(data.count) bytes)")
        } else if let (path, data) = try BenchmarkInputs.largestRealWorldTile(folder: "sanfrancisco") {
            bytes = data
            BenchmarkInputs.note("decode-dense-tile input: \(path) (\(data.count) bytes; Data/helsinki.mbtiles absent)")
        } else {
            throw RuntimeBenchmarkError("no input: neither Data/helsinki.mbtiles nor the shared fixtures exist")
        }
    }

    func run() throws -> Int { try decodeWholeTile(bytes) }
}

/// Full decode of the largest z3 tile of `Data/world.mbtiles`, or, until it exists, of the largest real-world
/// fixture overall (an OSM QA tile of Montevideo, ~3 MB, far heavier than a basemap tile).
/// `DecodeWorldTileBenchmark(zoom: 8)` ("decode-world-tile-z8") and `(zoom: 9)` ("decode-world-tile-z9", the
/// world's top zoom) decode the largest tile of that zoom: the densest ones the world has (coast, rivers and places).
struct DecodeWorldTileBenchmark: Benchmark {
    var zoom = 3
    var name: String { zoom == 3 ? "decode-world-tile" : "decode-world-tile-z\(zoom)" }
    let unit = "features"
    var bytes: [UInt8] = []
    var iterations: Int { 5 }

    mutating func setUp() throws {
        if let path = BenchmarkInputs.data("world.mbtiles"),
            let (address, data) = try BenchmarkInputs.largestTile(in: path, zoom: zoom)
        {
            bytes = data
            BenchmarkInputs.note("decode-world-tile input: \(path) tile \(address) (\(data.count) bytes)")
        } else if let (path, data) = try BenchmarkInputs.largestRealWorldTile(folder: nil) {
            bytes = data
            BenchmarkInputs.note("decode-world-tile input: \(path) (\(data.count) bytes; Data/world.mbtiles absent)")
        } else {
            throw RuntimeBenchmarkError("no input: neither Data/world.mbtiles nor the shared fixtures exist")
        }
    }

    func run() throws -> Int { try decodeWholeTile(bytes) }
}

/// Layer indexing plus feature headers (id, type, validated tags) without building property dictionaries or
/// decoding geometry: what a lazy consumer pays before it filters features.
struct DecodeLayersOnlyBenchmark: Benchmark {
    let name = "decode-layers-only"
    let unit = "features"
    var bytes: [UInt8] = []

    mutating func setUp() throws {
        var dense = DecodeDenseTileBenchmark()
        try dense.setUp()
        bytes = dense.bytes
    }

    func run() throws -> Int {
        var diagnostics: [VectorTileDiagnostic] = []
        return try VectorTile(bytes: bytes).layers().reduce(0) {
            $0 + $1.decodeFeatures(diagnostics: &diagnostics).count
        }
    }
}

/// A benchmark set-up failure with a message.
struct RuntimeBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

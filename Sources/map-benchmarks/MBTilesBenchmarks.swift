import Foundation
import MapData
import MapGeometry
import MapStorage

/// Random lookups of stored tiles by XYZ address in an MBTiles file (SQLite point query, TMS flip, payload copy, no
/// inflate). Uses `Data/helsinki.mbtiles` when present, else node-mbtiles
/// `plain_1.mbtiles` (285 PNG tiles); one run is 10,000 lookups cycling through every stored tile in a shuffled order.
struct MBTilesLookupBenchmark: Benchmark {
    let name = "mbtiles-lookup"
    let unit = "lookups"
    var source: MBTilesSource?
    var addresses: [TileID] = []

    mutating func setUp() throws {
        let shared = BenchmarkInputs.sharedFixtures
        let candidates = [
            BenchmarkInputs.data("helsinki.mbtiles"),
            shared.appendingPathComponent("node-mbtiles/test/fixtures/plain_1.mbtiles").path,
        ].compactMap { $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        guard let path = candidates.first else { throw RuntimeBenchmarkError("no MBTiles input found") }
        let source = try MBTilesSource(path: path)
        var rng = SystemRandomNumberGenerator()
        addresses = try source.tileAddresses().shuffled(using: &rng)
        guard !addresses.isEmpty else { throw RuntimeBenchmarkError("\(path) has no tiles") }
        self.source = source
        BenchmarkInputs.note("mbtiles-lookup input: \(path) (\(addresses.count) tiles)")
    }

    func run() throws -> Int {
        guard let source else { return 0 }
        var bytes = 0
        for i in 0..<10_000 {
            bytes &+= try source.rawTileData(at: addresses[i % addresses.count])?.count ?? 0
        }
        blackHole(bytes)
        return 10_000
    }
}

/// Lookups that include gzip inflate: `tileData(at:)` over every tile of the Helsinki file when present, else of
/// martin's gzipped `world_cities.mbtiles`.
struct MBTilesInflateLookupBenchmark: Benchmark {
    let name = "mbtiles-lookup-inflate"
    let unit = "lookups"
    var source: MBTilesSource?
    var addresses: [TileID] = []

    mutating func setUp() throws {
        let path =
            BenchmarkInputs.data("helsinki.mbtiles")
            ?? BenchmarkInputs.sharedFixtures.appendingPathComponent(
                "martin/tests/fixtures/mbtiles/world_cities.mbtiles"
            )
            .path
        let source = try MBTilesSource(path: path)
        addresses = try source.tileAddresses()
        self.source = source
        BenchmarkInputs.note("mbtiles-lookup-inflate input: \(path) (\(addresses.count) tiles)")
    }

    func run() throws -> Int {
        guard let source else { return 0 }
        var bytes = 0
        for _ in 0..<50 {
            for address in addresses { bytes &+= try source.tileData(at: address)?.count ?? 0 }
        }
        blackHole(bytes)
        return 50 * addresses.count
    }
}

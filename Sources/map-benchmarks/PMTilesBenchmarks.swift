import Foundation
import MapData
import MapGeometry
import MapStorage

/// PMTiles against MBTiles on the same tiles: `Data/world.mbtiles` (5,461 tiles, 2,691 distinct) and the same file
/// converted to PMTiles in a temporary folder by `TileArchiveConverter` (clustered, gzip directories, run lengths).
/// One run is 10,000 lookups cycling through every stored tile in one shuffled order, shared by both formats.
/// `inflate` uses `tileData(at:)` (gzip inflate included), otherwise `rawTileData(at:)` (bytes as stored).
struct TileFormatLookupBenchmark: Benchmark {
    /// Which file format the lookups go to.
    enum Format: String { case mbtiles, pmtiles }
    let format: Format
    let inflate: Bool
    var name: String { "\(format.rawValue)-world-lookup\(inflate ? "-inflate" : "")" }
    let unit = "lookups"
    private var lookup: ((TileID) throws -> [UInt8]?)?
    private var addresses: [TileID] = []
    private var folder: URL?

    init(_ format: Format, inflate: Bool) {
        self.format = format
        self.inflate = inflate
    }

    mutating func setUp() throws {
        guard let world = BenchmarkInputs.data("world.mbtiles") else {
            throw RuntimeBenchmarkError("Data/world.mbtiles not found")
        }
        let mbtiles = try MBTilesSource(path: world)
        var rng = BenchRandom(seed: 13)
        addresses = try mbtiles.tileAddresses().shuffled(using: &rng)
        switch format {
        case .mbtiles:
            lookup = inflate ? mbtiles.tileData : mbtiles.rawTileData
        case .pmtiles:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pmtiles-bench-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            let path = folder.appendingPathComponent("world.pmtiles").path
            try TileArchiveConverter.convert(input: world, output: path)
            let source = try PMTilesSource(path: path)
            lookup = inflate ? source.tileData : source.rawTileData
        }
        BenchmarkInputs.note("\(name) input: \(world) (\(addresses.count) tiles)")
    }

    func run() throws -> Int {
        guard let lookup else { return 0 }
        var bytes = 0
        for i in 0..<10_000 { bytes &+= try lookup(addresses[i % addresses.count])?.count ?? 0 }
        blackHole(bytes)
        return 10_000
    }

    mutating func tearDown() {
        lookup = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

// The render cases' SplitMix64 generator, so both formats see the same lookup order.
extension BenchRandom: RandomNumberGenerator {}

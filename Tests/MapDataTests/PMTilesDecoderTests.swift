import MapData
import MapGeometry
import Testing

/// PMTiles v3 decoding in MapData: tile ids, header, directories and the leaf walk, including hostile archives
/// (expected values from the spec's examples and the reference Python package `pmtiles` 3.8.1).
@Suite struct PMTilesDecoderTests {
    /// Directories and metadata stored uncompressed (internal compression 1): MapData has no zlib.
    static let plain: PMTilesDecompressor = { bytes, _, limit in
        guard bytes.count <= limit else { throw PMTilesError(archive: "t", reason: .limitExceeded, detail: "") }
        return bytes
    }

    /// An archive with the given root and leaf section (tile data: 100 bytes of 0xAB), internal compression none.
    static func archive(root: [PMTilesEntry], leaves: [UInt8] = [], tileData: Int = 100, version: UInt8 = 3)
        -> [UInt8]
    {
        var header = PMTilesHeader()
        header.internalCompression = .none
        let rootBytes = PMTilesDirectory.encode(root)
        header.rootLength = UInt64(rootBytes.count)
        header.metadataOffset = 127 + header.rootLength
        header.metadataLength = 2
        header.leafDirectoryOffset = header.metadataOffset + 2
        header.leafDirectoryLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoryOffset + header.leafDirectoryLength
        header.tileDataLength = UInt64(tileData)
        header.maxZoom = 14
        var bytes = header.encoded() + rootBytes + Array("{}".utf8) + leaves + [UInt8](repeating: 0xAB, count: tileData)
        bytes[7] = version
        return bytes
    }

    static func open(_ bytes: [UInt8], limits: PMTilesLimits = PMTilesLimits()) throws -> PMTilesArchive {
        try PMTilesArchive(
            reader: MemoryRangeReader(name: "mem.pmtiles", bytes: bytes), decompress: plain, limits: limits)
    }

    static func lookup(_ bytes: [UInt8], _ id: UInt64) throws -> PMTilesEntry? {
        let reader = MemoryRangeReader(name: "mem.pmtiles", bytes: bytes)
        let archive = try PMTilesArchive(reader: reader, decompress: plain)
        return try archive.entry(for: id) { try archive.loadLeaf($0, reader: reader, decompress: plain) }
    }

    /// Leaf directories whose encoded lengths depend on each other (a cycle): solved by iterating to a fixed point.
    static func leafSection(_ make: ([UInt32]) -> [[PMTilesEntry]], count: Int) -> (bytes: [UInt8], lengths: [UInt32]) {
        var lengths = [UInt32](repeating: 1, count: count)
        for _ in 0..<8 {
            let encoded = make(lengths).map(PMTilesDirectory.encode)
            let next = encoded.map { UInt32($0.count) }
            if next == lengths { return (encoded.flatMap { $0 }, lengths) }
            lengths = next
        }
        Issue.record("leaf lengths did not settle")
        return ([], lengths)
    }

    @Test func tileIDsFollowTheSpec() throws {
        // The spec's examples: z0 is id 0; z1 runs 1…4 along the Hilbert curve; z2 starts at 5; zoom 3 at 21.
        #expect(PMTilesTileID.id(of: TileID(z: 0, x: 0, y: 0)) == 0)
        #expect(PMTilesTileID.id(of: TileID(z: 1, x: 0, y: 0)) == 1)
        #expect(PMTilesTileID.id(of: TileID(z: 1, x: 0, y: 1)) == 2)
        #expect(PMTilesTileID.id(of: TileID(z: 1, x: 1, y: 1)) == 3)
        #expect(PMTilesTileID.id(of: TileID(z: 1, x: 1, y: 0)) == 4)
        #expect(PMTilesTileID.id(of: TileID(z: 2, x: 0, y: 0)) == 5)
        #expect(PMTilesTileID.id(of: TileID(z: 3, x: 0, y: 0)) == 21)
        // From pmtiles.tile.zxy_to_tileid (Python 3.8.1).
        #expect(PMTilesTileID.id(of: TileID(z: 14, x: 9326, y: 4740)) == 319_433_633)
        #expect(PMTilesTileID.id(of: TileID(z: 30, x: 1 << 29, y: 12345)) == 1_441_151_880_674_671_294)
        // Every tile of zooms 0…6 round-trips, and ids are dense.
        var next: UInt64 = 0
        var seen = Set<UInt64>()
        for z in 0...6 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let a = TileID(z: z, x: x, y: y)
                    let id = PMTilesTileID.id(of: a)
                    #expect(PMTilesTileID.address(of: id) == a)
                    seen.insert(id)
                }
            }
            next += UInt64(1 << (2 * z))
            #expect(seen.count == Int(next))
        }
        #expect(seen.max() == next - 1)
        // Large zooms round-trip; off-grid coordinates make no TileID; ids past zoom 30 have no address.
        for a in [TileID(z: 30, x: (1 << 30) - 1, y: 0), TileID(z: 25, x: 123_456, y: 7_654_321)] {
            #expect(PMTilesTileID.address(of: PMTilesTileID.id(of: a)) == a)
        }
        #expect(TileID.valid(z: 1, x: 2, y: 0) == nil)
        #expect(TileID.valid(z: 31, x: 0, y: 0) == nil)
        #expect(PMTilesTileID.address(of: UInt64.max) == nil)
    }

    @Test func headerRoundTripsAndRejectsBadMagicAndVersion() throws {
        var header = PMTilesHeader()
        header.rootLength = 10
        header.tileDataOffset = 200
        header.tileDataLength = 5
        header.minZoom = 2
        header.maxZoom = 14
        header.minLonE7 = -123_456_789
        header.centerZoom = 9
        header.tileType = .png
        header.clustered = false
        let bytes = header.encoded()
        #expect(bytes.count == 127)
        #expect(try PMTilesHeader(decoding: bytes, archive: "a") == header)

        func reason(_ bytes: [UInt8], size: UInt64? = nil) -> PMTilesError.Reason? {
            do {
                _ = try PMTilesHeader(decoding: bytes, archive: "x.pmtiles", archiveSize: size)
                return nil
            } catch let error as PMTilesError {
                #expect(error.description.hasPrefix("x.pmtiles: "))
                return error.reason
            } catch {
                return nil
            }
        }
        var bad = bytes
        bad[0] = UInt8(ascii: "Q")
        #expect(reason(bad) == .badMagic)
        #expect(reason(Array(bytes.prefix(100))) == .badMagic)
        bad = bytes
        bad[7] = 2
        #expect(reason(bad) == .unsupportedVersion)
        bad = bytes
        bad[97] = 3
        #expect(reason(bad) == .unsupportedCompression)  // brotli directories
        bad = bytes
        bad[98] = 4
        #expect(reason(bad) == .unsupportedCompression)  // zstd tiles
        bad = bytes
        bad[101] = 31
        #expect(reason(bad) == .badHeader)
        #expect(reason(bytes, size: 204) == .badHeader)  // tile data ends at 205
        #expect(reason(bytes, size: 205) == nil)
        bad = bytes
        for i in 56..<64 { bad[i] = 0xFF }  // tile data offset near 2^64: offset + length overflows
        #expect(reason(bad) == .badHeader)
    }

    @Test func directoryRoundTripsAndFindsRunsAndLeaves() throws {
        let entries = [
            PMTilesEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 5, offset: 10, length: 20, runLength: 3),  // contiguous: written as 0
            PMTilesEntry(tileID: 9, offset: 0, length: 10, runLength: 1),  // points back at tile 0's bytes
            PMTilesEntry(tileID: 100, offset: 500, length: 7, runLength: 0),  // a leaf
        ]
        let bytes = PMTilesDirectory.encode(entries)
        #expect(bytes == [4, 0, 5, 4, 91, 1, 3, 1, 0, 10, 20, 10, 7, 1, 0, 1, 245, 3])
        #expect(try PMTilesDirectory.decode(bytes, archive: "a") == entries)
        #expect(PMTilesDirectory.find(0, in: entries) == entries[0])
        #expect(PMTilesDirectory.find(1, in: entries) == nil)
        #expect(PMTilesDirectory.find(7, in: entries) == entries[1])  // 5 + run of 3 covers 5, 6, 7
        #expect(PMTilesDirectory.find(8, in: entries) == nil)
        #expect(PMTilesDirectory.find(99, in: entries) == nil)
        #expect(PMTilesDirectory.find(5000, in: entries) == entries[3])  // past a leaf pointer: the leaf
        #expect(PMTilesDirectory.find(3, in: []) == nil)
    }

    @Test func hostileDirectoriesAreErrors() throws {
        func reason(_ bytes: [UInt8], limits: PMTilesLimits = PMTilesLimits()) -> PMTilesError.Reason? {
            do {
                _ = try PMTilesDirectory.decode(bytes, archive: "h.pmtiles", limits: limits)
                return nil
            } catch let error as PMTilesError {
                #expect(error.archive == "h.pmtiles")
                return error.reason
            } catch {
                return nil
            }
        }
        #expect(reason([]) == .badDirectory)  // no count
        #expect(reason([UInt8](repeating: 0xFF, count: 11) + [1]) == .badDirectory)  // varint longer than 10 bytes
        #expect(reason([UInt8](repeating: 0xFF, count: 9) + [0x02]) == .badDirectory)  // beyond 64 bits
        #expect(reason([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) == .limitExceeded)  // 4 billion entries: refused, not allocated
        #expect(reason([100, 1, 1, 1, 1]) == .badDirectory)  // 100 entries cannot fit in 4 bytes
        #expect(reason([2, 1, 0, 1, 1, 1, 1, 1, 1]) == .badDirectory)  // tile ids not increasing
        #expect(reason([1, 0, 1, 0, 1]) == .badDirectory)  // zero length
        #expect(reason([1, 0, 1, 1, 0]) == .badDirectory)  // first offset "after the previous"
        #expect(reason([1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 1, 1]) == .badDirectory)  // run length beyond 32 bits
        #expect(reason([1, 0, 1, 1]) == .badDirectory)  // truncated
        var few = PMTilesLimits()
        few.maxEntries = 1
        #expect(
            reason(
                PMTilesDirectory.encode([
                    PMTilesEntry(tileID: 0, offset: 0, length: 1, runLength: 1),
                    PMTilesEntry(tileID: 1, offset: 1, length: 1, runLength: 1),
                ]), limits: few) == .limitExceeded)
    }

    @Test func leafWalkFindsTilesAndRejectsCyclesAndDeepChains() throws {
        // A root with one leaf holding tiles 10…12.
        let leaf = PMTilesDirectory.encode([
            PMTilesEntry(tileID: 10, offset: 0, length: 4, runLength: 1),
            PMTilesEntry(tileID: 11, offset: 4, length: 4, runLength: 2),
        ])
        let good = Self.archive(
            root: [PMTilesEntry(tileID: 10, offset: 0, length: UInt32(leaf.count), runLength: 0)], leaves: leaf)
        #expect(try Self.lookup(good, 12) == PMTilesEntry(tileID: 11, offset: 4, length: 4, runLength: 2))
        #expect(try Self.lookup(good, 13) == nil)
        #expect(try Self.lookup(good, 9) == nil)

        func reason(_ bytes: [UInt8], _ id: UInt64 = 20) -> PMTilesError.Reason? {
            do {
                _ = try Self.lookup(bytes, id)
                return nil
            } catch let error as PMTilesError {
                #expect(error.description.hasPrefix("mem.pmtiles: "))
                return error.reason
            } catch {
                return nil
            }
        }
        /// An archive whose root points at the first leaf of `section`.
        func rooted(_ section: (bytes: [UInt8], lengths: [UInt32])) -> [UInt8] {
            Self.archive(
                root: [PMTilesEntry(tileID: 0, offset: 0, length: section.lengths[0], runLength: 0)],
                leaves: section.bytes)
        }
        // A leaf pointing at itself.
        let selfLeaf = Self.leafSection(
            { l in [[PMTilesEntry(tileID: 0, offset: 0, length: l[0], runLength: 0)]] }, count: 1)
        #expect(reason(rooted(selfLeaf)) == .directoryCycle)
        // Two leaves pointing at each other.
        let pair = Self.leafSection(
            { l in
                [
                    [PMTilesEntry(tileID: 0, offset: UInt64(l[0]), length: l[1], runLength: 0)],
                    [PMTilesEntry(tileID: 0, offset: 0, length: l[0], runLength: 0)],
                ]
            }, count: 2)
        #expect(reason(rooted(pair)) == .directoryCycle)
        // A chain of six distinct leaves: deeper than the four levels followed.
        let chain = Self.leafSection(
            { l in
                (0..<6).map { i in
                    let start = l[0...i].reduce(0) { $0 + UInt64($1) }
                    return i == 5
                        ? [PMTilesEntry(tileID: 0, offset: 0, length: 4, runLength: 1)]
                        : [PMTilesEntry(tileID: 0, offset: start, length: l[i + 1], runLength: 0)]
                }
            }, count: 6)
        #expect(reason(rooted(chain)) == .limitExceeded)
        // A leaf outside the leaf section, a tile past the tile data, a huge tile.
        #expect(
            reason(Self.archive(root: [PMTilesEntry(tileID: 0, offset: 5, length: 100, runLength: 0)], leaves: leaf))
                == .badDirectory)
        #expect(
            reason(Self.archive(root: [PMTilesEntry(tileID: 20, offset: 90, length: 20, runLength: 1)]))
                == .badTile)
        #expect(
            reason(
                Self.archive(
                    root: [PMTilesEntry(tileID: 20, offset: 0, length: UInt32.max, runLength: 1)], tileData: 100))
                == .badTile)
        // A root directory whose stored length is beyond the limit (an archive claiming gigabytes) is refused before
        // any read of that size.
        var huge = Self.archive(root: [PMTilesEntry(tileID: 0, offset: 0, length: 1, runLength: 1)])
        var header = try PMTilesHeader(decoding: huge, archive: "h")
        header.rootOffset = 127
        header.rootLength = 1 << 40
        huge.replaceSubrange(0..<127, with: header.encoded())
        #expect(throws: PMTilesError.self) { try Self.open(huge) }
        // Wrong version and magic through the archive reader too.
        #expect(
            throws: PMTilesError(
                archive: "mem.pmtiles", reason: .unsupportedVersion, detail: "version 2, only version 3 is read")
        ) {
            try Self.open(Self.archive(root: [], version: 2))
        }
    }

    @Test func builderWritesClusteredArchivesWithRunsAndLeaves() throws {
        var header = PMTilesHeader()
        header.internalCompression = .none
        header.tileCompression = .none
        for leafSize in [nil, 2] as [Int?] {
            var builder = PMTilesBuilder(header: header, leafSize: leafSize, compress: { $0 })
            let a: [UInt8] = [1, 2, 3]
            let b: [UInt8] = [9]
            // Added out of order; zoom 2 all `a` except one `b`; zoom 0 also `a`.
            for x in 0..<4 { for y in 0..<4 { builder.add(TileID(z: 2, x: x, y: y), x == 3 && y == 0 ? b : a) } }
            builder.add(TileID(z: 0, x: 0, y: 0), a)
            let bytes = try builder.finish(metadataJSON: Array(#"{"name":"t"}"#.utf8))
            let reader = MemoryRangeReader(name: "built", bytes: bytes)
            let archive = try PMTilesArchive(reader: reader, decompress: Self.plain)
            #expect(archive.header.clustered)
            #expect(archive.header.addressedTilesCount == 17)
            #expect(archive.header.tileContentsCount == 2)
            #expect(archive.header.tileDataLength == 4)
            #expect(archive.header.minZoom == 0 && archive.header.maxZoom == 2)
            #expect((archive.header.leafDirectoryLength > 0) == (leafSize != nil))
            #expect(archive.metadataJSON == Array(#"{"name":"t"}"#.utf8))
            for x in 0..<4 {
                for y in 0..<4 {
                    let id = PMTilesTileID.id(of: TileID(z: 2, x: x, y: y))
                    let entry = try #require(
                        try archive.entry(for: id) { try archive.loadLeaf($0, reader: reader, decompress: Self.plain) })
                    let range = archive.tileRange(entry)
                    #expect(try reader.read(offset: range.offset, length: range.length) == (x == 3 && y == 0 ? b : a))
                }
            }
            // z0 (id 0) and the first z2 tiles (ids 5…) share `a` but are not consecutive: entries, not one run.
            #expect(archive.header.tileEntriesCount < 17)
        }
    }
}

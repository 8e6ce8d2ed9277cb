#if !FUZZ_SINGLE_MODULE
    import MapData
#endif

/// libFuzzer entry point for the PMTiles v3 decoders: reads `data` as a whole archive (header, root directory,
/// metadata, leaf directories; internal compression "none", since MapData has no zlib), looks up every tile id the
/// root names and a few derived from the input through the leaf walk, and decodes the bytes after the header as a
/// bare directory. Must never crash, trap, hang or allocate without bound. Run with `scripts/fuzz/fuzz-pmtiles.sh`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var sum: UInt64 = 0
    if let entries = try? PMTilesDirectory.decode(
        Array(bytes.dropFirst(min(bytes.count, PMTilesHeader.size))), archive: "fuzz")
    {
        for e in entries.prefix(64) {
            sum &+= PMTilesDirectory.find(e.tileID &+ 1, in: entries)?.offset ?? 0
            if let a = PMTilesTileID.address(of: e.tileID) { sum &+= PMTilesTileID.id(of: a) }
        }
    }
    let plain: PMTilesDecompressor = { bytes, compression, limit in
        guard compression == .none || compression == .unknown, bytes.count <= limit else {
            throw PMTilesError(archive: "fuzz", reason: .unsupportedCompression, detail: "")
        }
        return bytes
    }
    let reader = MemoryRangeReader(name: "fuzz", bytes: bytes)
    var limits = PMTilesLimits()
    limits.maxEntries = 1 << 16
    guard let archive = try? PMTilesArchive(reader: reader, decompress: plain, limits: limits) else {
        return sum == 1 ? 1 : 0
    }
    var ids = archive.root.prefix(32).map(\.tileID)
    for i in stride(from: 0, to: min(bytes.count, 64), by: 8) { ids.append(UInt64(bytes[i]) &* 37) }
    for id in ids {
        let found = try? archive.entry(for: id) { try archive.loadLeaf($0, reader: reader, decompress: plain) }
        if let found { sum &+= archive.tileRange(found).offset }
    }
    return sum == 1 ? 1 : 0
}

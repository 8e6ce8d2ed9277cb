import Foundation

#if !FUZZ_SINGLE_MODULE
    import MapStorage
#endif

/// The scratch folder of this fuzzing process (one per process: libFuzzer's workers each have their own).
private let scratch: String = {
    let path = NSTemporaryDirectory() + "waymark-fuzz-convert-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// libFuzzer entry point for the archive converter (`waymark tiles convert`, MapStorage's TileArchiveConverter):
/// writes `data` as a `.pmtiles` file and converts it to MBTiles, then, when that worked, back to PMTiles. Hostile
/// header counts (2^63), offsets past the end, leaf cycles, gzip bombs and truncated sections must give a
/// ConversionError or PMTilesError, never a trap, a hang or unbounded memory, and no `.partial` file may be left.
/// Run with `scripts/fuzz/fuzz-convert.sh`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConvert(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = scratch + "/in.pmtiles"
    let mbtiles = scratch + "/out.mbtiles"
    let back = scratch + "/back.pmtiles"
    FileManager.default.createFile(atPath: input, contents: Data(bytes: data, count: size))
    for path in [mbtiles, back] { try? FileManager.default.removeItem(atPath: path) }
    // At most 65,536 addresses: a 700-byte archive whose run lengths claim 16 M tiles is legal work up to the
    // default limit (minutes of SQLite inserts), not a finding; the limit itself is what is exercised here.
    if (try? TileArchiveConverter.convert(input: input, output: mbtiles, overwrite: true, maxTiles: 1 << 16)) != nil {
        _ = try? TileArchiveConverter.convert(input: mbtiles, output: back, leafSize: 4, overwrite: true)
    }
    let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
    if left.contains(where: { $0.contains(".partial") }) { fatalError("a .partial file was left: \(left)") }
    return 0
}

import Foundation
import MapStorage

/// `waymark tiles convert IN OUT [--force] [--leaf-size N]`: converts a tileset between MBTiles and PMTiles v3, both
/// ways, every tile's bytes unchanged (see `TileArchiveConverter`). Waymark's own.
///
/// Prints `IN -> OUT: N tiles (M distinct), B bytes` on success. Exit codes: 0 done; 1 a file could not be read,
/// written or verified (the message names it); 2 usage (unknown subcommand, wrong arguments, unknown extension).
struct TilesCommand: WaymarkCommand {
    static let name = "tiles"
    static let summary = "convert tilesets between MBTiles and PMTiles (tile bytes unchanged)"
    static let usage = """
        usage: waymark tiles convert IN OUT [--force] [--leaf-size N]
          IN, OUT         an .mbtiles and a .pmtiles file, in either order (the extensions choose the direction)
          --force         replace OUT when it exists
          --leaf-size N   PMTiles output: N entries per leaf directory (default: leaves only when the root
                          directory would exceed 16 KiB)
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(arguments, valued: ["--leaf-size"], switches: ["--force"])
        guard let sub = args.positionals.first else { throw UsageError("missing subcommand (convert)") }
        guard sub == "convert" else { throw UsageError("unknown subcommand '\(sub)' (expected convert)") }
        guard args.positionals.count == 3 else { throw UsageError("convert needs IN and OUT") }
        let input = args.positionals[1]
        let output = args.positionals[2]
        var leafSize: Int?
        if let text = args.value("--leaf-size") {
            guard let n = Int(text), n >= 1 else { throw UsageError("--leaf-size needs a positive integer") }
            leafSize = n
        }
        for path in [input, output] where TileArchiveConverter.Format(path: path) == nil {
            throw UsageError("\(path): expected a .mbtiles or .pmtiles file")
        }
        guard TileArchiveConverter.Format(path: input) != TileArchiveConverter.Format(path: output) else {
            throw UsageError("IN and OUT must be one .mbtiles and one .pmtiles")
        }
        guard FileManager.default.isReadableFile(atPath: input) else {
            throw RuntimeError("\(input): no such file or not readable")
        }
        do {
            let summary = try TileArchiveConverter.convert(
                input: input, output: output, leafSize: leafSize, overwrite: args.has("--force"))
            print(
                "\(input) -> \(output): \(summary.tiles) tiles (\(summary.distinctTiles) distinct), "
                    + "\(summary.outputBytes) bytes")
        } catch {
            throw RuntimeError("\(error)")
        }
    }
}

import CairoGraphics
import Foundation
import MapStorage

/// `waymark tiles convert IN OUT [--force] [--leaf-size N]`: converts a tileset between MBTiles and PMTiles v3, both
/// ways, every tile's bytes unchanged (see `TileArchiveConverter`). Waymark's own.
///
/// `waymark tiles build AREA.osm.pbf -o OUT.mbtiles|OUT.pmtiles [--schema openmaptiles|protomaps] [--name NAME]
/// [--force] [--no-install]`: builds vector tiles (z0–14 OpenMapTiles, z0–15 Protomaps) from an OpenStreetMap extract
/// with the repository's tilemaker scripts (see ``TileBuild``). Waymark's own.
///
/// Prints `IN -> OUT: N tiles (M distinct), B bytes` on success. Exit codes: 0 done; 1 a file could not be read,
/// written or verified, a tool is missing or the build failed (the message names it); 2 usage (unknown subcommand,
/// wrong arguments, unknown extension).
struct TilesCommand: WaymarkCommand {
    static let name = "tiles"
    static let summary = "build tiles from OpenStreetMap; convert between MBTiles and PMTiles (tile bytes unchanged)"
    static let usage = """
        usage: waymark tiles convert IN OUT [--force] [--leaf-size N]
               waymark tiles build AREA.osm.pbf -o OUT.mbtiles|OUT.pmtiles [--schema openmaptiles|protomaps]
                                   [--name NAME] [--force] [--no-install]
          convert         IN, OUT: an .mbtiles and a .pmtiles file, in either order (the extensions choose the
                          direction)
          --leaf-size N   PMTiles output: N entries per leaf directory (default: leaves only when the root
                          directory would exceed 16 KiB)
          build           AREA.osm.pbf: an OpenStreetMap extract with a header bounding box (Geofabrik, osmium
                          extract). Runs the repository's scripts/data/build-city.sh: OpenMapTiles schema, z0-14, the
                          tilemaker profile `make data` uses, or with --schema protomaps scripts/data/protomaps.lua,
                          z0-15; .pmtiles output is converted from the built MBTiles. Needs tilemaker, GDAL and the
                          scripts' Python venv: missing Debian packages are installed (scripts/dev/install-deps.sh tiles,
                          as root or through sudo) and the venv created (scripts/data/fetch-sources.sh --venv-only)
          --schema S      openmaptiles (default; Data/styles/default.json draws it) or protomaps
                          (Data/styles/protomaps.json draws it)
          --name NAME     the tileset's metadata name (default: OUT's file name without extension)
          --no-install    fail naming what is missing instead of installing it
          --force         replace OUT when it exists
          OUT is written whole or not at all, as snapshot's -o: an existing file is kept on failure and keeps its
          permissions when replaced; a symbolic link is followed (its target is replaced, the link stays); a FIFO or
          device is written through
        """

    @MainActor static func run(_ arguments: [String]) throws {
        let args = try ArgumentReader(
            arguments, valued: ["--leaf-size", "-o", "--output", "--schema", "--name"],
            switches: ["--force", "--no-install"])
        guard let sub = args.positionals.first else { throw UsageError("missing subcommand (convert or build)") }
        switch sub {
        case "convert": try convert(args)
        case "build": try build(args)
        default: throw UsageError("unknown subcommand '\(sub)' (expected convert or build)")
        }
    }

    @MainActor static func convert(_ args: ArgumentReader) throws {
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
        if !args.has("--force") && isRegularFile(output) {
            throw RuntimeError("\(output): already exists (use --force to replace it)")
        }
        do {
            let summary = try convertWhole(input: input, output: output, leafSize: leafSize)
            print(
                "\(input) -> \(output): \(summary.tiles) tiles (\(summary.distinctTiles) distinct), "
                    + "\(summary.outputBytes) bytes")
            // Tiles copied unchanged that no reader can use: named as decode-tile and snapshot name them.
            warn(
                summary.unusableTiles.map { "\(input) \($0) (copied unchanged)" }, from: input, command: "tiles convert"
            )
        } catch {
            throw RuntimeError("\(error)")
        }
    }

    @MainActor static func build(_ args: ArgumentReader) throws {
        guard args.positionals.count == 2 else { throw UsageError("build needs one AREA.osm.pbf input") }
        let input = args.positionals[1]
        guard let output = args.value("-o") ?? args.value("--output") else {
            throw UsageError("build needs -o OUT.mbtiles or -o OUT.pmtiles")
        }
        guard input.lowercased().hasSuffix(".pbf") else {
            throw UsageError("\(input): expected an OpenStreetMap .osm.pbf extract")
        }
        guard let format = TileArchiveConverter.Format(path: output) else {
            throw UsageError("\(output): expected a .mbtiles or .pmtiles output")
        }
        let schemaName = args.value("--schema") ?? TileBuild.Schema.openmaptiles.rawValue
        guard let schema = TileBuild.Schema(rawValue: schemaName) else {
            throw UsageError("--schema: '\(schemaName)' is not openmaptiles or protomaps")
        }
        guard FileManager.default.isReadableFile(atPath: input) else {
            throw RuntimeError("\(input): no such file or not readable")
        }
        if isRegularFile(output) && !args.has("--force") {
            throw RuntimeError("\(output): already exists (use --force to replace it)")
        }
        let name =
            args.value("--name") ?? URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
        let build = try TileBuild(schema: schema, install: !args.has("--no-install"))
        let started = Date()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let built = work.appendingPathComponent("\(name).mbtiles").path
        try build.run(input: input, output: built, name: name)
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tiles: Int
        let bytes: Int
        do {
            switch format {
            case .pmtiles:
                TileBuild.progress("converting to PMTiles: \(output)")
                let summary = try convertWhole(input: built, output: output, leafSize: nil)
                (tiles, bytes) = (summary.tiles, summary.outputBytes)
            case .mbtiles:
                tiles = try MBTilesSource(path: built).tileAddresses().count
                let size = try FileManager.default.attributesOfItem(atPath: built)[.size] as? NSNumber
                bytes = size?.intValue ?? 0
                try AtomicFile.write(to: output) { temporary in
                    // Moved when the work folder shares the output's file system (the work folder is removed
                    // afterwards), else copied.
                    guard rename(built, temporary) != 0 else { return }
                    do { try FileManager.default.copyItem(atPath: built, toPath: temporary) } catch {
                        throw RuntimeError("cannot copy the built tiles \(built): \(error.localizedDescription)")
                    }
                }
            }
        } catch {
            throw RuntimeError("\(output): \(error)")
        }
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        print(
            "\(input) -> \(output): \(tiles) tiles (\(schema.rawValue) schema, z0-\(schema.maxZoom)), \(bytes) bytes, "
                + "\(seconds) s")
    }
}

extension TilesCommand {
    /// Whether `path` (its symbolic links followed) is an existing regular file: what `--force` must allow
    /// replacing. A FIFO or a device is written through, not replaced.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Converts `input` into `output` through `AtomicFile` (docs/BEHAVIOUR.md D24, as `snapshot -o` writes): a
    /// symbolic link is followed and stays, a replaced file keeps its permission bits, a FIFO or device is written
    /// through, and a failure leaves an existing `output` as it was. The converter verifies every tile in the
    /// temporary file before it is renamed into place.
    /// - Throws: the converter's errors (naming `output`, not the temporary file), or `AtomicFile.Failure`.
    static func convertWhole(input: String, output: String, leafSize: Int?) throws -> TileArchiveConverter.Summary {
        var summary: TileArchiveConverter.Summary?
        try AtomicFile.write(to: output) { temporary in
            do {
                summary = try TileArchiveConverter.convert(
                    input: input, output: temporary, leafSize: leafSize, overwrite: true,
                    outputFormat: TileArchiveConverter.Format(path: output))
            } catch var error as TileArchiveConverter.ConversionError where error.path.hasPrefix(temporary) {
                error.path = output
                throw error
            }
        }
        return summary!
    }
}

/// One run of the repository's tile-building scripts for `waymark tiles build` (Waymark's own).
///
/// The scripts are found like the embedded data (`DataFiles`): `scripts/` beside the `Data/` folder that
/// `$WAYMARK_DATA_DIR`, the working directory or the executable leads to, so `.build/debug/waymark` in a checkout
/// finds `<checkout>/scripts`. Tools: `tilemaker` and `ogr2ogr` on `PATH` (Debian's `tilemaker` and `gdal-bin`,
/// installed by `scripts/dev/install-deps.sh tiles` unless `install` is false), and the scripts' Python venv
/// (`$WAYMARK_SOURCES/venv`, default `<checkout>/.sources/venv`, made by `scripts/data/fetch-sources.sh --venv-only`).
struct TileBuild {
    /// The tile schema, and so the script and its tilemaker profile.
    enum Schema: String {
        /// OpenMapTiles: Debian tilemaker's OpenMapTiles profile as `make data` patches it.
        case openmaptiles
        /// Protomaps basemap v4 (a subset): `scripts/data/protomaps.lua` with `scripts/data/protomaps-config.json`.
        case protomaps

        /// The highest zoom the script writes.
        var maxZoom: Int { self == .openmaptiles ? 14 : 15 }
    }

    /// The script, relative to the checkout (`CITY_SCHEMA` chooses the schema).
    static let scriptPath = "scripts/data/build-city.sh"
    /// The checkout's root folder.
    let root: URL
    /// The script to run.
    let script: URL
    /// The environment the script runs with.
    let environment: [String: String]

    /// Finds the script and makes sure its tools are there, installing them when `install` is true.
    /// - Throws: ``RuntimeError`` naming what is missing (the scripts folder, a tool that is not installed or could
    ///   not be installed, the venv).
    init(schema: Schema, install: Bool) throws {
        let script = DataFiles.locate("../\(Self.scriptPath)").standardizedFileURL
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw RuntimeError(
                "cannot find \(Self.scriptPath) (looked at \(script.path)): run waymark from a Waymark checkout, or "
                    + "set WAYMARK_DATA_DIR=<checkout>/Data")
        }
        self.script = script
        // scripts/data/build-city.sh → the checkout holding scripts/.
        root = script.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var environment = ProcessInfo.processInfo.environment
        let sources = environment["WAYMARK_SOURCES"].flatMap { $0.isEmpty ? nil : $0 } ?? root.path + "/.sources"
        environment["WAYMARK_SOURCES"] = sources
        environment["CITY_SCHEMA"] = schema.rawValue
        self.environment = environment

        let tools = ["tilemaker": "tilemaker", "ogr2ogr": "gdal-bin", "python3": "python3"]
        var missing = tools.keys.filter { Self.which($0, environment) == nil }.sorted()
        if !missing.isEmpty {
            let packages = missing.map { tools[$0]! }.joined(separator: " ")
            guard install else {
                throw RuntimeError(
                    "\(missing.joined(separator: ", ")) not found (Debian packages: \(packages)); install them with "
                        + "\(root.path)/scripts/dev/install-deps.sh tiles, or drop --no-install")
            }
            Self.progress("installing Debian packages for \(missing.joined(separator: ", ")) (\(packages))")
            let status = try Self.runScript(
                root.appendingPathComponent("scripts/dev/install-deps.sh"), ["tiles"], environment)
            missing = missing.filter { Self.which($0, environment) == nil }
            guard status == 0, missing.isEmpty else {
                throw RuntimeError(
                    "\(missing.isEmpty ? packages : missing.joined(separator: ", ")) missing and could not be "
                        + "installed (scripts/dev/install-deps.sh tiles exited with \(status)); install Debian's "
                        + "\(packages) and try again")
            }
        }
        let venvPython = sources + "/venv/bin/python"
        if !FileManager.default.isExecutableFile(atPath: venvPython) {
            guard install else {
                throw RuntimeError(
                    "\(venvPython) not found: create the scripts' venv with "
                        + "\(root.path)/scripts/data/fetch-sources.sh --venv-only, or drop --no-install")
            }
            Self.progress("creating the scripts' Python venv (pinned pyosmium) in \(sources)/venv")
            let status = try Self.runScript(
                root.appendingPathComponent("scripts/data/fetch-sources.sh"), ["--venv-only"], environment)
            guard status == 0, FileManager.default.isExecutableFile(atPath: venvPython) else {
                throw RuntimeError(
                    "\(venvPython) could not be created (scripts/data/fetch-sources.sh --venv-only exited with \(status))"
                )
            }
        }
    }

    /// Runs the script on `input`, writing the MBTiles file `output` with the metadata name `name`; its progress goes
    /// to standard error.
    /// - Throws: ``RuntimeError`` naming the input when the script fails.
    func run(input: String, output: String, name: String) throws {
        var env = environment
        env["CITY_NAME"] = name
        Self.progress("\(script.lastPathComponent) \(input) (progress below; tilemaker runs single-threaded)")
        let status = try Self.runScript(script, [input, output], env)
        guard status == 0, FileManager.default.fileExists(atPath: output) else {
            throw RuntimeError("\(input): \(script.lastPathComponent) failed (exit status \(status)); see above")
        }
    }

    /// Prints one progress line on standard error.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("waymark tiles build: \(line)\n".utf8))
    }

    /// The path of `tool` on the environment's `PATH`, or `nil`.
    static func which(_ tool: String, _ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs a script with `bash`, its output (both streams) on this process's standard error; returns its status.
    static func runScript(_ script: URL, _ arguments: [String], _ environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { throw RuntimeError("cannot run \(script.path): \(error)") }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

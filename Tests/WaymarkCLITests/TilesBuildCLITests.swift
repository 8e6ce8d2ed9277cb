import Foundation
import MapTestSupport
import Testing

/// `waymark tiles build` (issue 13) as a user runs it: argument and environment errors exit 2 or 1 naming the input;
/// a real build of the pinned Monaco extract (DATA.md) when tilemaker, GDAL, the extract and the scripts' venv are
/// there (a counted skip otherwise: `scripts/dev/install-deps.sh tiles`, `scripts/data/fetch-sources.sh`).
@Suite struct TilesBuildCLITests {
    static let sources = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["WAYMARK_SOURCES"]
            ?? Fixtures.repositoryRoot.appendingPathComponent(".sources").path)
    static let monaco = sources.appendingPathComponent("src/quackosm/tests/test_files/monaco.osm.pbf").path

    static func onPath(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// Whether the real build can run here without installing or downloading anything.
    static let canBuild =
        onPath("tilemaker") && onPath("ogr2ogr") && FileManager.default.fileExists(atPath: monaco)
        && FileManager.default.isExecutableFile(atPath: sources.appendingPathComponent("venv/bin/python").path)

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func argumentErrorsExitTwoNamingTheArgument() throws {
        for (args, named) in [
            (["tiles", "build"], "build needs one AREA.osm.pbf"),
            (["tiles", "build", "area.osm.pbf"], "-o OUT.mbtiles"),
            (["tiles", "build", "area.osm.pbf", "-o", "out.txt"], "out.txt"),
            (["tiles", "build", "area.osm", "-o", "out.pmtiles"], "area.osm"),
            (["tiles", "build", "area.osm.pbf", "-o", "out.pmtiles", "--schema", "shortbread"], "shortbread"),
            (["tiles", "build", "a.osm.pbf", "b.osm.pbf", "-o", "out.pmtiles"], "one AREA.osm.pbf"),
        ] {
            let result = try WaymarkProcess.run(args)
            #expect(result.status == 2, "\(args): \(result.stderr)")
            #expect(result.stderr.contains(named), "\(args): \(result.stderr)")
            #expect(result.stderr.contains("usage: waymark tiles"), "\(args)")
        }
        let help = try WaymarkProcess.run(["tiles", "--help"])
        #expect(
            help.status == 0 && help.stdout.contains("tiles build AREA.osm.pbf") && help.stdout.contains("--schema"))
    }

    @Test func environmentErrorsExitOneNamingWhatIsMissing() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("area.osm.pbf").path
        let output = folder.appendingPathComponent("out.pmtiles").path
        let missing = try WaymarkProcess.run(["tiles", "build", "nope.osm.pbf", "-o", output])
        #expect(missing.status == 1 && missing.stderr.contains("nope.osm.pbf: no such file"), "\(missing.stderr)")
        try Data("not really OSM".utf8).write(to: URL(fileURLWithPath: input))
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let exists = try WaymarkProcess.run(["tiles", "build", input, "-o", output])
        #expect(exists.status == 1 && exists.stderr.contains("\(output): already exists"), "\(exists.stderr)")
        try FileManager.default.removeItem(atPath: output)
        // No tool on PATH and no installing: the message names the tools and how to install them.
        let noTools = try WaymarkProcess.run(
            ["tiles", "build", input, "-o", output, "--no-install"], environment: ["PATH": folder.path])
        #expect(noTools.status == 1, "\(noTools.stderr)")
        #expect(noTools.stderr.contains("tilemaker") && noTools.stderr.contains("install-deps.sh tiles"))
        // Outside a checkout (no Data/ beside the working directory or the executable's folders found through
        // WAYMARK_DATA_DIR): the scripts cannot be found, and the message says where it looked.
        let noScripts = try WaymarkProcess.run(
            ["tiles", "build", input, "-o", output], in: folder,
            environment: ["WAYMARK_DATA_DIR": folder.appendingPathComponent("Data").path])
        #expect(noScripts.status == 1 && noScripts.stderr.contains("cannot find scripts/data/build-city.sh"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(
        .enabled(if: canBuild, "needs tilemaker, ogr2ogr and scripts/data/fetch-sources.sh's Monaco extract and venv"))
    func buildsTheMonacoExtractToPMTiles() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("monaco.pmtiles").path
        let built = try WaymarkProcess.run(["tiles", "build", Self.monaco, "-o", output, "--no-install"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("-> \(output): 23 tiles (openmaptiles schema, z0-14)"), "\(built.stdout)")
        #expect(built.stderr.contains("tilemaker"), "progress on the terminal")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(8)) == Array("PMTiles\u{3}".utf8))
        // The archive opens (converted back, every tile verified) and its z14 tile over Port Hercule is Monaco.
        let back = folder.appendingPathComponent("monaco.mbtiles").path
        let converted = try WaymarkProcess.run(["tiles", "convert", output, back])
        #expect(converted.status == 0, "\(converted.stderr)")
        let tile = try WaymarkProcess.run(["decode-tile", back, "--z", "14", "--x", "8529", "--y", "5974"])
        #expect(tile.status == 0, "\(tile.stderr)")
        for layer in ["\"building\"", "\"transportation\"", "\"water\"", "Port Hercule"] {
            #expect(tile.stdout.contains(layer), "z14 tile lacks \(layer)")
        }
    }
}

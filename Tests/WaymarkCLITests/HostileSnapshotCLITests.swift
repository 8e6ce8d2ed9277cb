import Foundation
import MapTestSupport
import Testing

/// `waymark snapshot` against the test server's hostile modes (issue 34), run as a child process whose peak memory
/// is measured: memory bounded, the `--timeout` deadline held, the URL named, and what was drawn from local data
/// kept.
@Suite(.enabled(if: TestServerProcess.available, "python3 is needed for the test HTTP server"))
struct HostileSnapshotCLITests {
    let folder: URL
    let server: TestServerProcess

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 6000).write(to: folder.appendingPathComponent("t.pbf"))
        server = try TestServerProcess(root: folder)
    }

    /// A style: the world's fill layers from `Data/world.mbtiles` and, with `fault`, a `city` source whose every
    /// tile is `t.pbf?fault=<fault>` on the test server.
    func style(fault: String?) throws -> String {
        let data = try Data(contentsOf: Fixtures.data.appendingPathComponent("styles/default.json"))
        let base = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var layers = (base["layers"] as! [[String: Any]]).filter {
            $0["type"] as? String == "background"
                || ($0["source"] as? String == "world" && $0["type"] as? String == "fill")
        }
        var sources: [String: Any] = [
            "world": [
                "type": "vector", "url": "mbtiles://" + Fixtures.data.appendingPathComponent("world.mbtiles").path,
            ]
        ]
        if let fault {
            sources["city"] = [
                "type": "vector", "tiles": [server.url("t.pbf") + "?z={z}&x={x}&y={y}&fault=\(fault)"], "maxzoom": 14,
            ]
            layers.append([
                "id": "city", "type": "fill", "source": "city", "source-layer": "water",
                "paint": ["fill-color": "#ff0000"],
            ])
        }
        let style: [String: Any] = ["version": 8, "sources": sources, "layers": layers]
        let path = folder.appendingPathComponent("style-\(fault ?? "none").json").path
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: path))
        return path
    }

    struct Run {
        var status: Int32
        var stderr: String
        var seconds: Double
        /// The child's peak resident memory, bytes.
        var peakBytes: Int
    }

    /// Runs `waymark snapshot ARGS` under a python3 parent that reports the child's peak RSS (`ru_maxrss`); with
    /// `fileSizeLimit`, the child can write files of at most that many bytes (`RLIMIT_FSIZE`, as a full disk).
    func snapshot(_ arguments: [String], fileSizeLimit: Int? = nil) throws -> Run {
        let rss = folder.appendingPathComponent("rss-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", "-c",
                "import resource,signal,subprocess,sys\n"
                    + "def limit():\n"
                    + "    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
                    + "    resource.setrlimit(resource.RLIMIT_FSIZE, (\(fileSizeLimit ?? -1), \(fileSizeLimit ?? -1)))\n"
                    + "r=subprocess.run(sys.argv[2:], preexec_fn=limit).returncode\n"
                    + "open(sys.argv[1],'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
                    + "sys.exit(r if r >= 0 else 128 - r)",
                rss, WaymarkProcess.executable.path, "snapshot",
            ] + arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["FONTCONFIG_FILE"] = Fixtures.local.appendingPathComponent("fonts/fonts.conf").path
        environment["WAYMARK_CACHE_DIR"] = folder.appendingPathComponent("cache").path
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let kilobytes = Int((try? String(contentsOfFile: rss, encoding: .utf8)) ?? "") ?? -1
        return Run(
            status: process.terminationStatus, stderr: String(decoding: errData, as: UTF8.self),
            seconds: Date().timeIntervalSince(start), peakBytes: kilobytes * 1024)
    }

    static let view = ["--camera", "60.17,24.94,11", "--size", "256x256"]

    @Test(arguments: ["huge", "endless", "bomb", "bombenc", "silent", "drip", "loop", "random", "html"])
    func hostileTileServersNeitherHangNorGrowNorLoseTheLocalMap(fault: String) throws {
        let baseline = folder.appendingPathComponent("baseline.png").path
        let ok = try snapshot(Self.view + ["--style", try style(fault: nil), "-o", baseline])
        #expect(ok.status == 0, "\(ok.stderr)")
        let out = folder.appendingPathComponent("\(fault).png").path
        let run = try snapshot(Self.view + ["--style", try style(fault: fault), "--timeout", "6", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakBytes > 0 && run.peakBytes < 512 << 20, "peak RSS \(run.peakBytes) bytes")
        #expect(run.seconds < 6 + 15, "took \(run.seconds) s with --timeout 6")
        #expect(run.stderr.contains("source 'city'") && run.stderr.contains("t.pbf?z="), "\(run.stderr)")
        #expect(run.stderr.contains("the snapshot is incomplete"), "\(run.stderr)")
        // Nothing already drawn is lost: the world layers are exactly as without the hostile source.
        let drawn = try Data(contentsOf: URL(fileURLWithPath: out))
        let expected = try Data(contentsOf: URL(fileURLWithPath: baseline))
        #expect(drawn == expected, "the hostile source changed the picture")
    }

    @Test func strictMakesAnIncompleteSnapshotFail() throws {
        let out = folder.appendingPathComponent("strict.png").path
        let run = try snapshot(Self.view + ["--style", try style(fault: "html"), "--strict", "-o", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("not a vector tile"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out), "the PNG is still written")
    }

    @Test func aStyleThatNeverArrivesIsAnErrorAfterTheDeadline() throws {
        let url = server.url("t.pbf?fault=silent")
        let run = try snapshot(
            Self.view + ["--style", url, "--timeout", "3", "-o", folder.appendingPathComponent("x.png").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains(url), "\(run.stderr)")
        #expect(run.seconds < 3 + 10, "took \(run.seconds) s")
    }

    @Test func aFailedWriteKeepsTheOldPNG() throws {
        // The child may write at most 1 KiB per file (as a full disk would stop it): the PNG cannot be written,
        // the error gives errno, and the existing file stays whole.
        let out = folder.appendingPathComponent("keep.png")
        let old = Data("old picture".utf8)
        try old.write(to: out)
        let run = try snapshot(Self.view + ["--style", try style(fault: nil), "-o", out.path], fileSizeLimit: 1024)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("errno 27"), "\(run.stderr)")
        #expect(try Data(contentsOf: out) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func tooLargeImagesAreRefusedBeforeDrawing() throws {
        let start = Date()
        let run = try snapshot([
            "--size", "8192x8192", "--scale", "4", "-o", folder.appendingPathComponent("big.png").path,
        ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("at most 16384"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test(.enabled(if: SQLiteScript.available, "sqlite3 builds the corrupt MBTiles"))
    func corruptMBTilesRowsAreReportedOnceNamingTheSourceAndTile() throws {
        // Every z1 tile is garbage: random bytes, a gzip header over garbage, an HTML page, a gzip bomb prefix.
        let path = folder.appendingPathComponent("corrupt.mbtiles").path
        let payloads: [[UInt8]] = [
            (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) },
            [0x1F, 0x8B, 0x08, 0x00] + Array("garbage".utf8),
            Array("<html><body>Sign in</body></html>".utf8),
            [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xFF],
        ]
        var sql = """
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO metadata VALUES ('name','corrupt'),('format','pbf'),('minzoom','0'),('maxzoom','1');
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);

            """
        for (i, payload) in payloads.enumerated() {
            sql += "INSERT INTO tiles VALUES (1, \(i % 2), \(i / 2), \(SQLiteScript.blob(payload)));\n"
        }
        #expect(try SQLiteScript.run(sql, database: path) == 0)
        let style: [String: Any] = [
            "version": 8, "sources": ["bad": ["type": "vector", "url": "mbtiles://" + path]],
            "layers": [
                ["id": "bg", "type": "background", "paint": ["background-color": "#ffffff"]],
                ["id": "bad", "type": "fill", "source": "bad", "source-layer": "water"],
            ],
        ]
        let stylePath = folder.appendingPathComponent("corrupt.json").path
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: stylePath))
        let out = folder.appendingPathComponent("corrupt.png").path
        let view = ["--camera", "0,0,1", "--size", "256x256", "--style", stylePath, "-o", out]
        let run = try snapshot(view)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("waymark: source 'bad'") }
        #expect(lines.count == 1, "once per source: \(run.stderr)")
        #expect(lines.first?.contains("corrupt.mbtiles tile 1/") == true, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the snapshot is incomplete"), "\(run.stderr)")
        #expect(try snapshot(view + ["--strict"]).status == 1)
    }

    @Test func everyStyleDiagnosticReachesStderr() throws {
        let style: [String: Any] = [
            "version": 8, "sources": [:] as [String: Any],
            "layers": [
                ["id": "bg", "type": "background"],
                ["id": "orphan", "type": "fill", "source": "nowhere"],
                ["id": "odd", "type": "hologram"],
            ],
        ]
        let stylePath = folder.appendingPathComponent("diagnostics.json").path
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: stylePath))
        let run = try snapshot(Self.view + ["--style", stylePath, "-o", folder.appendingPathComponent("d.png").path])
        #expect(run.stderr.contains("layers[1]") && run.stderr.contains("nowhere"), "\(run.stderr)")
        #expect(run.stderr.contains("layers[2]") && run.stderr.contains("hologram"), "\(run.stderr)")
    }

    @Test func markersThatAreNotAFeatureCollectionAreRefused() throws {
        let file = folder.appendingPathComponent("point.geojson")
        try Data(#"{"type":"Point","coordinates":[24.9,60.1]}"#.utf8).write(to: file)
        let run = try snapshot(Self.view + ["--markers", file.path, "-o", folder.appendingPathComponent("m.png").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("is not a GeoJSON FeatureCollection"), "\(run.stderr)")
    }

    @Test(arguments: ["1e308", "-1e308", "1e999"])
    func overlayVerticesFarOutsideTheWorldAreRejected(value: String) throws {
        let file = folder.appendingPathComponent("far-\(value).geojson")
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":"#
            + #"{"type":"LineString","coordinates":[[24.9,60.1],[\#(value),60.2]]}}]}"#
        try Data(text.utf8).write(to: file)
        let run = try snapshot(
            Self.view + ["--overlays", file.path, "-o", folder.appendingPathComponent("o.png").path])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("position 1"), "\(run.stderr)")
    }
}

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
    func style(fault: String?, tile: String = "t.pbf") throws -> String {
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
                "type": "vector", "tiles": [server.url(tile) + "?z={z}&x={x}&y={y}&fault=\(fault)"], "maxzoom": 14,
            ]
            layers.append([
                "id": "city", "type": "fill", "source": "city", "source-layer": "water",
                "paint": ["fill-color": "#ff0000"],
            ])
        }
        let style: [String: Any] = ["version": 8, "sources": sources, "layers": layers]
        let path = folder.appendingPathComponent("style-\(fault ?? "none")-\(tile).json").path
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
    /// With `command`, runs `waymark COMMAND ARGS` instead. With `defaultFileSizeSignal`, the child starts with
    /// SIGXFSZ's default action and unblocked (as from a shell with `ulimit -f`), not ignored (the test runner
    /// blocks it, which hid the kill).
    func snapshot(
        _ arguments: [String], fileSizeLimit: Int? = nil, cache: URL? = nil, asNobody: Bool = false,
        command: String = "snapshot", defaultFileSizeSignal: Bool = false
    ) throws -> Run {
        let process = try launch(
            arguments, fileSizeLimit: fileSizeLimit, cache: cache, asNobody: asNobody, command: command,
            defaultFileSizeSignal: defaultFileSizeSignal)
        let errData = process.err.fileHandleForReading.readDataToEndOfFile()
        process.process.waitUntilExit()
        let kilobytes = Int((try? String(contentsOfFile: process.rss, encoding: .utf8)) ?? "") ?? -1
        return Run(
            status: process.process.terminationStatus, stderr: String(decoding: errData, as: UTF8.self),
            seconds: Date().timeIntervalSince(process.start), peakBytes: kilobytes * 1024)
    }

    /// Starts `waymark snapshot ARGS` as ``snapshot(_:fileSizeLimit:cache:asNobody:)`` does, without waiting. With
    /// `asNobody` (when the tests run as root), the child runs as user and group 65534 (`setpriv`), for whom a
    /// folder with mode 0555 is read-only.
    /// With `direct`, the child is `waymark` itself (no python3 parent), so killing the process kills `waymark`.
    func launch(
        _ arguments: [String], fileSizeLimit: Int? = nil, cache: URL? = nil, asNobody: Bool = false,
        direct: Bool = false, command subcommand: String = "snapshot", defaultFileSizeSignal: Bool = false
    ) throws -> (process: Process, err: Pipe, rss: String, start: Date) {
        let rss = folder.appendingPathComponent("rss-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let limit = fileSizeLimit ?? -1
        let script: String =
            "import resource,signal,subprocess,sys\n" + "def limit():\n"
            + "    signal.signal(signal.SIGXFSZ, signal.\(defaultFileSizeSignal ? "SIG_DFL" : "SIG_IGN"))\n"
            + "    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])\n"
            + "    resource.setrlimit(resource.RLIMIT_FSIZE, (\(limit), \(limit)))\n"
            + "r=subprocess.run(sys.argv[2:], preexec_fn=limit).returncode\n"
            + "open(sys.argv[1],'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
            + "sys.exit(r if r >= 0 else 128 - r)"
        let nobody: [String] = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let command: [String] = [WaymarkProcess.executable.path, subcommand] + arguments
        process.arguments = ["python3", "-c", script, rss] + nobody + command
        if direct {
            process.executableURL = WaymarkProcess.executable
            process.arguments = [subcommand] + arguments
        }
        process.currentDirectoryURL = Fixtures.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment.merge(Fixtures.fontEnvironment) { _, pinned in pinned }
        environment["WAYMARK_CACHE_DIR"] = (cache ?? folder.appendingPathComponent("cache")).path
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        return (process, err, rss, start)
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
        // Against the same snapshot without the hostile source (56 MiB here): the bodies in flight hold at most 2 MiB
        // each plus the 64 MiB pool they share (D19; measured +55-60 MiB for endless and the bombs, +3 MiB for the
        // rest), so one body read whole (the 256 MiB bomb, the 2 GiB body) cannot pass unseen.
        #expect(
            run.peakBytes - ok.peakBytes < 160 << 20,
            "peak RSS \(run.peakBytes >> 20) MiB against \(ok.peakBytes >> 20) MiB without the hostile source")
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

    @Test func aConversionOntoAFullDiskNamesErrnoAndKeepsTheOldArchive() throws {
        // As `-o` above: at most 4 KiB per file, the PMTiles archive cannot be written; the error gives the step
        // and errno, the old archive stays whole and no partial file is left.
        let out = folder.appendingPathComponent("keep.pmtiles")
        let old = Data("old archive".utf8)
        try old.write(to: out)
        let run = try snapshot(
            ["convert", "Data/helsinki.mbtiles", out.path, "--force"], fileSizeLimit: 4096, command: "tiles")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write (write): File too large (errno 27)"), "\(run.stderr)")
        #expect(try Data(contentsOf: out) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains(".partial-")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func tooLargeImagesAreRefusedBeforeDrawing() throws {
        let start = Date()
        let run = try snapshot([
            "--size", "8192x8192", "--scale", "4", "-o", folder.appendingPathComponent("big.png").path,
        ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("at most 16384"), "\(run.stderr)")
        // Each side fits, but 16384×8192 device pixels are more than 8192×8192 (D22).
        let wide = try snapshot([
            "--size", "8192x4096", "--scale", "2", "-o", folder.appendingPathComponent("big.png").path,
        ])
        #expect(wide.status == 2)
        #expect(wide.stderr.contains("at most 67108864 (8192×8192)"), "\(wide.stderr)")
        #expect(Date().timeIntervalSince(start) < 20)
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
        // decode-tile and tiles convert name the same file and tiles.
        let decoded = try WaymarkProcess.run(["decode-tile", path, "--z", "1", "--x", "0", "--y", "0"])
        #expect(decoded.status == 1 && decoded.stderr.contains("corrupt.mbtiles tile 1/0/0"), "\(decoded.stderr)")
        let converted = try WaymarkProcess.run(["tiles", "convert", path, path + ".pmtiles"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let warnings = converted.stderr.split(separator: "\n").filter { $0.contains("(copied unchanged)") }
        #expect(warnings.count == 4, "every garbage tile, each named: \(converted.stderr)")
        #expect(warnings.allSatisfy { $0.contains("corrupt.mbtiles tile 1/") }, "\(converted.stderr)")
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
        #expect(run.stderr.contains("not a GeoJSON FeatureCollection"), "\(run.stderr)")
    }

    @Test(arguments: ["1e308", "-1e308", "1e999", "\"24.9\""])
    func markersFarOutsideTheWorldAreRejected(value: String) throws {
        // As overlay vertices: a marker at ±1e308 or Infinity is refused naming the feature, not drawn at the edge.
        let file = folder.appendingPathComponent("far-markers.geojson")
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","#
            + #""coordinates":[24.9,60.1]}},{"type":"Feature","geometry":{"type":"MultiPoint","#
            + #""coordinates":[[24.9,60.1],[\#(value),60.2]]}}]}"#
        try Data(text.utf8).write(to: file)
        let out = folder.appendingPathComponent("far-markers.png")
        let run = try snapshot(Self.view + ["--markers", file.path, "-o", out.path])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("far-markers.geojson': feature 1: position 1"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
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

    /// A tile with a `water` square in the middle of the tile (so every tile draws the same known shape).
    func writeGoodTile() throws {
        let square = MVTWriter.Feature(geometry: .polygon([(1024, 1024), (3072, 1024), (3072, 3072), (1024, 3072)]))
        try Data(MVTWriter(layers: [("water", [square])]).encode()).write(to: folder.appendingPathComponent("good.pbf"))
    }

    static var isRoot: Bool { getuid() == 0 }

    @Test(.enabled(if: SQLiteScript.available, "sqlite3 folds the cache's WAL into the file"))
    func aReadOnlyCacheIsStillReadOffline() throws {
        try writeGoodTile()
        let style = try style(fault: "none", tile: "good.pbf")
        let cache = folder.appendingPathComponent("ro-cache")
        let online = folder.appendingPathComponent("online.png")
        let first = try snapshot(Self.view + ["--style", style, "-o", online.path], cache: cache)
        #expect(first.status == 0 && !first.stderr.contains("incomplete"), "\(first.stderr)")
        server.stop()
        // As an offline copy: the WAL folded into the file and the -wal/-shm files gone (a read-only folder
        // cannot hold a new -shm).
        let file = cache.appendingPathComponent("cache.sqlite").path
        #expect(try SQLiteScript.run("PRAGMA wal_checkpoint(TRUNCATE);", database: file) == 0)
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("cache.sqlite-shm").path))
        // The cache folder and its files become read-only (for root: the child runs as nobody).
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        for name in files { chmod(cache.appendingPathComponent(name).path, 0o444) }
        chmod(cache.path, 0o555)
        defer { chmod(cache.path, 0o755) }
        let outFolder = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outFolder, withIntermediateDirectories: true)
        chmod(outFolder.path, 0o777)
        chmod(folder.path, 0o755)
        let offline = outFolder.appendingPathComponent("offline.png")
        let run = try snapshot(
            Self.view + ["--style", style, "-o", offline.path], cache: cache, asNobody: Self.isRoot)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("is read-only") }
        #expect(warnings.count == 1 && warnings[0].contains(cache.path), "\(run.stderr)")
        #expect(!run.stderr.contains("incomplete"), "every tile came from the read-only cache: \(run.stderr)")
        #expect(try Data(contentsOf: offline) == Data(contentsOf: online), "the same picture offline")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted() == files.sorted())
    }

    @Test func aProcessKilledWhileFillingASharedCacheLosesNothingComplete() throws {
        try writeGoodTile()
        // Each tile answers after 2.5 s, so the victim is surely still fetching when it is killed at 1.5 s.
        let style = try style(fault: "slow&delay=2500", tile: "good.pbf")
        let cache = folder.appendingPathComponent("shared-cache")
        let view = ["--camera", "60.17,24.94,12", "--size", "768x768"]
        let victim = try launch(
            view + ["--style", style, "-o", folder.appendingPathComponent("a.png").path], cache: cache, direct: true)
        let survivorPNG = folder.appendingPathComponent("b.png")
        let survivor = try launch(view + ["--style", style, "-o", survivorPNG.path], cache: cache)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(victim.process.isRunning, "killed in the middle of filling the cache")
        kill(victim.process.processIdentifier, SIGKILL)
        let survivorErr = String(decoding: survivor.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        survivor.process.waitUntilExit()
        victim.process.waitUntilExit()
        #expect(victim.process.terminationReason == .uncaughtSignal)
        #expect(survivor.process.terminationStatus == 0, "\(survivorErr)")
        #expect(!survivorErr.contains("incomplete"), "\(survivorErr)")
        // Offline, a third run draws every tile from the cache, with no cache warning.
        server.stop()
        let third = folder.appendingPathComponent("c.png")
        let run = try snapshot(view + ["--style", style, "-o", third.path], cache: cache)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("HTTP cache") && !run.stderr.contains("incomplete"), "\(run.stderr)")
        #expect(try Data(contentsOf: third) == Data(contentsOf: survivorPNG))
    }
}

import Foundation
import MapTestSupport
import Testing

/// What a new user's trial of issue 34 found: remote PMTiles offline, `ulimit -f` without SIGXFSZ, the cache opened
/// only for the network, `--strict` and style diagnostics, the vertex-limit warning.
extension HostileSnapshotCLITests {
    /// A style with the world's fill layers and a `city` fill layer over `pmtiles://<url>`.
    func pmtilesStyle(_ url: String) throws -> String {
        let path = try style(fault: nil)
        var json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        var sources = json["sources"] as! [String: Any]
        sources["city"] = ["type": "vector", "url": "pmtiles://" + url]
        json["sources"] = sources
        json["layers"] =
            (json["layers"] as! [[String: Any]]) + [
                [
                    "id": "city", "type": "fill", "source": "city", "source-layer": "water",
                    "paint": ["fill-color": "#ff0000"],
                ]
            ]
        let out = folder.appendingPathComponent("pmtiles-style.json")
        try JSONSerialization.data(withJSONObject: json).write(to: out)
        return out.path
    }

    @Test func aRemotePMTilesArchiveReadOnceDrawsTheSameOffline() throws {
        try FileManager.default.copyItem(
            at: Fixtures.local.appendingPathComponent("pmtiles/helsinki.pmtiles"),
            to: folder.appendingPathComponent("full.pmtiles"))
        let style = try pmtilesStyle(server.url("full.pmtiles"))
        let cache = folder.appendingPathComponent("pmcache")
        let view = ["--camera", "60.1699,24.9443,13", "--size", "256x256", "--style", style]
        let online = folder.appendingPathComponent("online.png").path
        let first = try snapshot(view + ["--strict", "-o", online], cache: cache)
        #expect(first.status == 0, "\(first.stderr)")
        server.stop()
        let offline = folder.appendingPathComponent("offline.png").path
        let second = try snapshot(view + ["--strict", "--timeout", "10", "-o", offline], cache: cache)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: offline)) == Data(contentsOf: URL(fileURLWithPath: online)),
            "the offline PNG differs from the online one")
    }

    @Test func aFileSizeLimitWithoutSIGXFSZIgnoredIsAnErrorThatKeepsTheOldPNG() throws {
        let out = folder.appendingPathComponent("existing.png")
        let old = Data("old picture".utf8)
        try old.write(to: out)
        let run = try snapshot(
            Self.view + ["--style", try style(fault: nil), "-o", out.path], fileSizeLimit: 1024,
            defaultFileSizeSignal: true)
        #expect(run.status == 1, "killed by a signal? \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("errno 27") && run.stderr.contains(out.path), "\(run.stderr)")
        #expect(try Data(contentsOf: out) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aStyleWithoutNetworkSourcesDoesNotOpenTheHTTPCache() throws {
        let cache = folder.appendingPathComponent("unused-cache")
        let run = try snapshot(
            Self.view + ["--style", try style(fault: nil), "-o", folder.appendingPathComponent("l.png").path],
            cache: cache)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache.path), "the cache folder was created")
    }

    @Test(arguments: [
        (#"{"type":"fill","source":"world","source-layer":"water","filter":["==",1]}"#, "filter"),
        (#"{"type":"fill","source":"nowhere","source-layer":"water"}"#, "not found"),
        (#"{"type":"sparkle","source":"world","source-layer":"water"}"#, "unknown layer type"),
    ])
    func strictFailsOnStyleDiagnosticsThatDropALayer(layer: String, named: String) throws {
        let base = try style(fault: nil)
        var json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base))) as! [String: Any]
        var extra = try JSONSerialization.jsonObject(with: Data(layer.utf8)) as! [String: Any]
        extra["id"] = "broken"
        json["layers"] = (json["layers"] as! [[String: Any]]) + [extra]
        let path = folder.appendingPathComponent("broken-\(named.count).json")
        try JSONSerialization.data(withJSONObject: json).write(to: path)
        let out = folder.appendingPathComponent("broken.png").path
        let lenient = try snapshot(Self.view + ["--style", path.path, "-o", out])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains(named), "\(lenient.stderr)")
        let strict = try snapshot(Self.view + ["--style", path.path, "--strict", "-o", out])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(
            strict.stderr.contains(named) && strict.stderr.contains("the snapshot is incomplete"), "\(strict.stderr)")
        #expect(FileManager.default.fileExists(atPath: out), "the PNG is still written")
        // The plain style has no such diagnostic: --strict passes.
        let clean = try snapshot(Self.view + ["--style", base, "--strict", "-o", out])
        #expect(clean.status == 0, "\(clean.stderr)")
    }

    @Test func theVertexLimitWarningReadsAsEnglish() throws {
        // A zigzag of 45,000 vertices inside the view: simplifying keeps them all, the limit keeps one in 3.
        let coordinates = (0..<45_000).map { i in
            "[\(24.90 + 0.08 * Double(i) / 45_000),\(i % 2 == 0 ? 60.15 : 60.19)]"
        }.joined(separator: ",")
        let file = folder.appendingPathComponent("zigzag.geojson")
        try Data(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"stroke-width":1},
             "geometry":{"type":"LineString","coordinates":[\(coordinates)]}}]}
            """.utf8
        ).write(to: file)
        let run = try snapshot(
            Self.view + [
                "--style", try style(fault: nil), "--overlays", file.path, "-o",
                folder.appendingPathComponent("z.png").path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("with one vertex in 3 (at most 20000 vertices"), "\(run.stderr)")
        #expect(!run.stderr.contains("th (at most"), "\(run.stderr)")
    }
}

import Foundation
import MapTestSupport
import Testing

/// `waymark snapshot --overlays FILE.geojson`: shapes from GeoJSON in the PNG; a bad file is a clear error, exit 1.
@Suite struct ShapeSnapshotCLITests {
    static func write(_ text: String, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func overlaysAreDrawnAndBadFilesExitWithCode1() throws {
        let good = try Self.write(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"stroke":"#ff0000","stroke-width":6},
             "geometry":{"type":"LineString","coordinates":[[24.93,60.1699],[24.96,60.1699]]}},
            {"type":"Feature","properties":{"fill":"#00ff00","fill-opacity":1,"stroke-width":0},
             "geometry":{"type":"Polygon","coordinates":[[[24.94,60.172],[24.95,60.172],[24.95,60.174],[24.94,60.174]]]}}
            ]}
            """, "good.geojson")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(UUID().uuidString).png")
        defer {
            try? FileManager.default.removeItem(at: good)
            try? FileManager.default.removeItem(at: out)
        }
        let ok = try WaymarkProcess.run([
            "snapshot", "--camera", "60.1699,24.9443,15", "--size", "300x200", "--overlays", good.path, "-o", out.path,
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bytes = try [UInt8](Data(contentsOf: out))
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

        let notJSON = try Self.write("{\"type\":", "bad.geojson")
        defer { try? FileManager.default.removeItem(at: notJSON) }
        for (file, reason) in [(notJSON.path, "is not JSON"), ("/nonexistent/x.geojson", "cannot read")] {
            let r = try WaymarkProcess.run(["snapshot", "--overlays", file, "-o", out.path])
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("waymark snapshot: ") && r.stderr.contains(file) && r.stderr.contains(reason))
        }
    }
}

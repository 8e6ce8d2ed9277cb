import Foundation
import MapTestSupport
import Testing

/// A file the user names on an example's command line must be read: `geojson-kml-example --kml /missing.kml` exits
/// 1 naming it instead of drawing the built-in sample and exiting 0.
extension ExampleProcessTests {
    @Test(arguments: [
        (["--kml", "/nonexistent/missing.kml"], "cannot read --kml file '/nonexistent/missing.kml'"),
        (["--geojson", "/nonexistent/missing.geojson"], "cannot read --geojson file '/nonexistent/missing.geojson'"),
        (["--kml", "/tmp"], "cannot read --kml file '/tmp'"),
        (["--kml"], "--kml needs a FILE"),
    ])
    func anUnreadableFileExitsOneAndDrawsNothing(arguments: [String], message: String) throws {
        let example = try #require(Self.executable("geojson-kml-example"), "geojson-kml-example is not built")
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("kml-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let r = try Self.run(example, ["--headless", "--snapshot", png.path] + arguments)
        #expect(r.status == 1)
        #expect(r.stderr.contains("geojson-kml-example: \(message)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png.path))
    }

    @Test func aFileThatDoesNotParseExitsOne() throws {
        let example = try #require(Self.executable("geojson-kml-example"), "geojson-kml-example is not built")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data("{\"type\": \"Point\", \"coordinates\": [8.5, \"north\"]}".utf8).write(to: broken)
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("kml-\(UUID().uuidString).png")
        defer {
            try? FileManager.default.removeItem(at: png)
            try? FileManager.default.removeItem(at: broken)
        }
        let r = try Self.run(example, ["--headless", "--snapshot", png.path, "--geojson", broken.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("geojson-kml-example: 1 problem(s) reading the files given"), "\(r.stderr)")
    }
}

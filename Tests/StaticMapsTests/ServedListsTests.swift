import Foundation
import MapData
import MapGeometry
import MapStorage
import MapTestSupport
import MicroHTTPServer
import StaticMapsServer
import Testing

/// tileserver-gl's behaviour the new-user trial found missing: merged fontstacks, the `/fonts.json`, `/data.json` and
/// `/styles.json` lists, and local `pmtiles://` sources served like `mbtiles://` ones. Each test runs a server on
/// 127.0.0.1 and stops it.
@Suite(.serialized) struct ServedListsTests {
    typealias Server = StaticMapsServerTests

    /// A folder removed when the test ends.
    final class Folder {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-served-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func write(_ path: String, _ bytes: [UInt8]) throws {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    // MARK: - A glyph PBF written here, independently of the server's encoder

    /// A glyph `id` of `side × side` pixels whose SDF bytes are all `fill`, advance `advance`.
    static func glyph(_ id: Int, side: Int = 2, fill: UInt8, advance: Int = 10) -> SDFGlyph {
        let edge = side + 2 * GlyphPBF.border
        return SDFGlyph(
            id: id, bitmap: [UInt8](repeating: fill, count: edge * edge), width: side, height: side, left: -1,
            top: -5, advance: advance)
    }

    static func pbf(_ name: String, range: String, _ glyphs: [SDFGlyph]) -> [UInt8] {
        GlyphPBFWriter.range(name: name, range: range, glyphs: glyphs)
    }

    static func glyphs(_ body: [UInt8]) throws -> [SDFGlyph] {
        try GlyphPBF(bytes: body).stacks.flatMap(\.glyphs)
    }

    @Test func aFontstackMergesItsFontsGlyphByGlyphInListOrder() throws {
        let folder = try Folder()
        try folder.write(
            "style.json",
            Array(#"{"version": 8, "sources": {}, "layers": [], "glyphs": "f/{fontstack}/{range}.pbf"}"#.utf8))
        let a = [Self.glyph(65, fill: 1), Self.glyph(66, fill: 1)]
        // B also has 'A' (drawn differently), 'C', and a glyph outside the range its file claims.
        let b = [Self.glyph(65, side: 3, fill: 2, advance: 12), Self.glyph(67, fill: 2), Self.glyph(300, fill: 2)]
        try folder.write("f/A/0-255.pbf", Self.pbf("A", range: "0-255", a))
        try folder.write("f/B/0-255.pbf", Self.pbf("B", range: "0-255", b))
        try folder.write("f/Broken/0-255.pbf", [0x0a, 0x7f, 0x01])
        let server = try StaticMapsServer(
            config: try Server.config(#"{"styles": {"default": "\#(folder.path("style.json"))"}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)/fonts/"

        let ab = try Server.fetch(base + "A,B/0-255.pbf")
        #expect(ab.status == 200)
        #expect(ab.headers["content-type"] == "application/x-protobuf")
        #expect(try Self.glyphs(ab.body) == [a[0], a[1], b[1]])
        #expect(try GlyphPBF(bytes: ab.body).stacks.map(\.range) == ["0-255"])
        // The other order takes 'A' from B; spaces after commas (MapLibre's joins) and missing or undecodable fonts
        // among found ones are skipped.
        #expect(try Self.glyphs(try Server.fetch(base + "B,A/0-255.pbf").body) == [b[0], a[1], b[1]])
        let skipping = try Server.fetch(base + "Missing,%20A,Broken,%20B/0-255.pbf")
        #expect(try Self.glyphs(skipping.body) == [a[0], a[1], b[1]])
        // One font found: its file as it is.
        #expect(try Server.fetch(base + "Missing,B/0-255.pbf").body == Self.pbf("B", range: "0-255", b))
        #expect(try Server.fetch(base + "Missing,Other/0-255.pbf").status == 404)
        #expect(try Server.fetch(base + "A,B/256-511.pbf").status == 404)
        let nine = (1...9).map { "F\($0)" }.joined(separator: ",")
        #expect(try Server.fetch(base + nine + "/0-255.pbf").status == 400)
        #expect(try Server.fetch(base + "A,B,A,B,A,B,A,B/0-255.pbf").status == 200)
    }

    @Test func aMergedRangeOverTheSizeLimitIsRefused() throws {
        let folder = try Folder()
        try folder.write(
            "style.json",
            Array(#"{"version": 8, "sources": {}, "layers": [], "glyphs": "f/{fontstack}/{range}.pbf"}"#.utf8))
        // Three fonts of 30 disjoint glyphs of 250 × 250 pixels: about 2 MB each, 3.9 MB for two (under the 4 MiB a
        // glyph PBF may have), 5.9 MB for three.
        for font in 0..<3 {
            let glyphs = (0..<30).map { Self.glyph(font * 30 + $0, side: 250, fill: UInt8(font + 1)) }
            try folder.write("f/F\(font)/0-255.pbf", Self.pbf("F\(font)", range: "0-255", glyphs))
        }
        let server = try StaticMapsServer(
            config: try Server.config(#"{"styles": {"default": "\#(folder.path("style.json"))"}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)/fonts/"
        let two = try Server.fetch(base + "F0,F1/0-255.pbf")
        #expect(two.status == 200)
        #expect(try Self.glyphs(two.body).count == 60)
        let three = try Server.fetch(base + "F0,F1,F2/0-255.pbf")
        #expect(three.status == 500)
        #expect(three.text.contains("over the limit"))
    }

    @Test func listsNameTheServedStylesDataAndFonts() throws {
        let server = try StaticMapsServer(
            config: try Server.config(#"{"styles": {"default": "bundled", "dark": "bundled-dark"}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"

        // The font folders beside the bundled glyph template.
        let glyphs = Fixtures.data.appendingPathComponent("glyphs")
        let folders = try FileManager.default.contentsOfDirectory(atPath: glyphs.path).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: glyphs.appendingPathComponent($0).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        let fonts = try Server.fetch(base + "/fonts.json")
        #expect(fonts.status == 200)
        #expect(fonts.headers["content-type"] == "application/json")
        let names = try #require(try JSONSerialization.jsonObject(with: Data(fonts.body)) as? [String])
        #expect(!names.isEmpty)
        #expect(names == folders.sorted())
        for name in names {
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(try Server.fetch(base + "/fonts/\(encoded)/0-255.pbf").status == 200, "\(name)")
        }

        // Every data set the styles name, each as its own TileJSON says, with its id.
        let data = try Server.fetch(base + "/data.json")
        #expect(data.status == 200)
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(data.body)) as? [[String: Any]])
        let style = try ServedStyleTests.object(try Server.fetch(base + "/styles/default/style.json").body)
        let sourceURLs = Set(
            (style["sources"] as? [String: [String: Any]] ?? [:]).values.compactMap { $0["url"] as? String })
        #expect(Set(sets.compactMap { $0["id"] as? String }.map { base + "/data/\($0).json" }) == sourceURLs)
        for set in sets {
            let id = try #require(set["id"] as? String)
            var own = try ServedStyleTests.object(try Server.fetch(base + "/data/\(id).json").body)
            own["id"] = id
            let same = { (o: [String: Any]) in try JSONSerialization.data(withJSONObject: o, options: .sortedKeys) }
            #expect(try same(own) == same(set), "\(id)")
        }

        // Every style, with the name its file gives and a URL that answers it.
        let styles = try Server.fetch(base + "/styles.json")
        #expect(styles.status == 200)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(styles.body)) as? [[String: Any]])
        #expect(list.compactMap { $0["id"] as? String } == ["dark", "default"])
        for entry in list {
            let id = try #require(entry["id"] as? String)
            let url = try #require(entry["url"] as? String)
            #expect(url == base + "/styles/\(id)/style.json")
            let file = try ServedStyleTests.object(try Server.fetch(url).body)
            #expect(entry["name"] as? String == file["name"] as? String)
            #expect(entry["version"] as? Int == 8)
        }
    }

    @Test func listsNeedAKeyAndCarryIt() throws {
        let service = try StaticMapsService(config: try Server.config(#"{"keys": {"k1": {}}}"#))
        defer { service.shutdown() }
        func get(_ target: String) -> ServerResponse {
            service.respond(ServerRequest(method: "GET", target: target, headers: ["host": "h:1"]))
        }
        for list in ["/styles.json", "/data.json", "/fonts.json"] {
            #expect(get(list).status == 403, "\(list)")
            #expect(get(list + "?key=k1").status == 200, "\(list)")
        }
        let styles = try #require(
            try JSONSerialization.jsonObject(with: Data(get("/styles.json?key=k1").body)) as? [[String: Any]])
        #expect(styles.first?["url"] as? String == "http://h:1/styles/default/style.json?key=k1")
        let sets = try #require(
            try JSONSerialization.jsonObject(with: Data(get("/data.json?key=k1").body)) as? [[String: Any]])
        #expect(!sets.isEmpty)
        for set in sets {
            let id = try #require(set["id"] as? String)
            #expect((set["tiles"] as? [String])?.first?.hasSuffix("/data/\(id)/{z}/{x}/{y}.pbf?key=k1") == true)
        }
    }

    @Test func localPMTilesSourcesAreServedLikeMBTilesOnes() throws {
        let folder = try Folder()
        let cities = Fixtures.data.appendingPathComponent("cities.mbtiles").path
        let world = Fixtures.data.appendingPathComponent("world.mbtiles").path
        try TileArchiveConverter.convert(input: cities, output: folder.path("area.pmtiles"))
        let style = """
            {"version": 8, "layers": [], "sources": {
              "relative": {"type": "vector", "url": "pmtiles://area.pmtiles"},
              "fileURL": {"type": "vector", "url": "pmtiles://file://\(folder.path("area.pmtiles"))"},
              "world": {"type": "vector", "url": "mbtiles://\(world)"},
              "missing": {"type": "vector", "url": "pmtiles://nothing.pmtiles"},
              "remote": {"type": "vector", "url": "pmtiles://https://example.org/x.pmtiles"}}}
            """
        try folder.write("style.json", Array(style.utf8))
        let server = try StaticMapsServer(
            config: try Server.config(#"{"styles": {"mine": "\#(folder.path("style.json"))"}}"#))
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        let served = try ServedStyleTests.object(try Server.fetch(base + "/styles/mine/style.json").body)
        let sources = try #require(served["sources"] as? [String: [String: Any]])
        // One archive, one data set, whichever way the style names it.
        #expect(sources["relative"]?["url"] as? String == base + "/data/area.json")
        #expect(sources["fileURL"]?["url"] as? String == base + "/data/area.json")
        #expect(sources["world"]?["url"] as? String == base + "/data/world.json")
        #expect(sources["missing"]?["url"] as? String == "pmtiles://nothing.pmtiles")
        #expect(sources["remote"]?["url"] as? String == "pmtiles://https://example.org/x.pmtiles")

        let tileJSON = try ServedStyleTests.object(try Server.fetch(base + "/data/area.json").body)
        let archive = try MBTilesSource(path: cities)
        #expect(tileJSON["maxzoom"] as? Int == archive.maxZoom)
        #expect(tileJSON["format"] as? String == "pbf")
        #expect((tileJSON["vector_layers"] as? [Any])?.count == archive.metadata.vectorLayers.count)
        let template = try #require((tileJSON["tiles"] as? [String])?.first)
        #expect(template == base + "/data/area/{z}/{x}/{y}.pbf")
        // Central Helsinki at z14: the same tile bytes as the MBTiles archive it was converted from.
        let tile = try Server.fetch(base + "/data/area/14/9326/4741.pbf")
        #expect(tile.status == 200)
        #expect(tile.headers["content-type"] == "application/x-protobuf")
        #expect(tile.body == (try archive.tileData(at: TileID(z: 14, x: 9326, y: 4741))))
        #expect(try Server.fetch(base + "/data/area/14/0/0.pbf").status == 204)
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(try Server.fetch(base + "/data.json").body)) as? [[String: Any]]
        )
        #expect(list.compactMap { $0["id"] as? String } == ["area", "world"])
    }
}

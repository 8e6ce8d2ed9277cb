import Foundation
import MapTestSupport
import MicroHTTPServer
import StaticMapsServer
import Testing

/// The style `waymark serve` hands out on `/styles/{id}/style.json` points at the server's own data, font and sprite
/// routes (as tileserver-gl's), and those routes answer.
@Suite(.serialized) struct ServedStyleTests {
    typealias Server = StaticMapsServerTests

    static func object(_ body: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    @Test func servedStyleLeadsToTheServersTileJSONTilesAndGlyphs() throws {
        let server = try StaticMapsServer(config: try Server.config())
        defer { server.drain(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        let answer = try Server.fetch(base + "/styles/default/style.json")
        #expect(answer.status == 200)
        #expect(!answer.text.contains("mbtiles://"))
        #expect(!answer.text.contains("../"))
        let style = try Self.object(answer.body)
        let sources = try #require(style["sources"] as? [String: [String: Any]])
        #expect(sources["world"]?["url"] as? String == base + "/data/world.json")
        #expect(sources["city"]?["url"] as? String == base + "/data/cities.json")
        let glyphs = try #require(style["glyphs"] as? String)
        #expect(glyphs == base + "/fonts/{fontstack}/{range}.pbf")
        #expect((style["layers"] as? [Any])?.count ?? 0 > 50)

        // The TileJSON the source names, and one tile through its template (central Helsinki at z14).
        let tileJSON = try Self.object(try Server.fetch(try #require(sources["city"]?["url"] as? String)).body)
        #expect(tileJSON["maxzoom"] as? Int == 14)
        #expect((tileJSON["vector_layers"] as? [Any])?.isEmpty == false)
        let template = try #require((tileJSON["tiles"] as? [String])?.first)
        #expect(template == base + "/data/cities/{z}/{x}/{y}.pbf")
        func tileURL(_ z: Int, _ x: Int, _ y: Int) -> String {
            template.replacingOccurrences(of: "{z}", with: "\(z)").replacingOccurrences(of: "{x}", with: "\(x)")
                .replacingOccurrences(of: "{y}", with: "\(y)")
        }
        let tile = try Server.fetch(tileURL(14, 9326, 4741))
        #expect(tile.status == 200)
        #expect(tile.headers["content-type"] == "application/x-protobuf")
        // A Mapbox vector tile: field 3 (layers), length-delimited, holding OpenMapTiles' layer names.
        #expect(tile.body.first == 0x1a)
        #expect(tile.text.contains("transportation"))
        #expect(try Server.fetch(tileURL(14, 0, 0)).status == 204)
        #expect(try Server.fetch(tileURL(3, 8, 0)).status == 400)
        #expect(try Server.fetch(base + "/data/nothing.json").status == 404)

        // One glyph range through the template: the bytes of the bundled file.
        let regular = glyphs.replacingOccurrences(of: "{fontstack}", with: "Noto%20Sans%20Regular")
            .replacingOccurrences(of: "{range}", with: "0-255")
        let range = try Server.fetch(regular)
        #expect(range.status == 200)
        let file = Fixtures.repositoryRoot.appendingPathComponent("Data/glyphs/Noto Sans Regular/0-255.pbf")
        #expect(range.body == [UInt8](try Data(contentsOf: file)))
        // A stack of which one font has the range answers that font's file as it is (ServedListsTests: merges).
        let stack = try Server.fetch(base + "/fonts/No%20Such%20Font,Noto%20Sans%20Bold/256-511.pbf")
        let bold = Fixtures.repositoryRoot.appendingPathComponent("Data/glyphs/Noto Sans Bold/256-511.pbf")
        #expect(stack.status == 200)
        #expect(stack.body == [UInt8](try Data(contentsOf: bold)))
        #expect(try Server.fetch(base + "/fonts/No%20Such%20Font/0-255.pbf").status == 404)
    }

    /// Paths are sent to the service as written (a URL library would remove `..` segments first).
    @Test func fontAndDataPathsCannotLeaveTheConfiguredFiles() throws {
        let service = try StaticMapsService(config: try Server.config())
        defer { service.shutdown() }
        func status(_ target: String) -> Int { service.respond(ServerRequest(method: "GET", target: target)).status }
        #expect(status("/fonts/Noto%20Sans%20Regular/0-255.pbf") == 200)
        for target in [
            "/fonts/../0-255.pbf", "/fonts/%2E%2E/0-255.pbf", "/fonts/..%2F..%2Fstyles/0-255.pbf",
            "/fonts/..%2Fglyphs%2FNoto%20Sans%20Regular/0-255.pbf", "/fonts/Noto%20Sans%20Regular/..%2F0-255.pbf",
            "/fonts/Noto%20Sans%20Regular/0-256.pbf",
            "/fonts/Noto%20Sans%20Regular/%2E%2E%2F0-255.pbf", "/fonts/a%00b/0-255.pbf", "/fonts//0-255.pbf",
        ] {
            #expect(status(target) == 400, "\(target)")
        }
        for target in [
            "/data/..%2Fworld.json", "/data/../world.json", "/data/%2E%2E/cities/14/9326/4741.pbf",
            "/fonts/Noto%20Sans%20Regular/x/0-255.pbf", "/data/world/../../etc/passwd",
            "/fonts/Noto%20Sans%20Regular/../../world.mbtiles",
        ] {
            #expect([400, 404].contains(status(target)), "\(target)")
        }
    }

    @Test func servedURLsFollowTheHostThePublicURLAndTheKey() throws {
        let plain = try StaticMapsService(config: try Server.config())
        defer { plain.shutdown() }
        func glyphs(_ service: StaticMapsService, _ target: String, host: String?) throws -> String? {
            let answer = service.respond(
                ServerRequest(method: "GET", target: target, headers: host.map { ["host": $0] } ?? [:]))
            return try Self.object(answer.body)["glyphs"] as? String
        }
        let style = "/styles/default/style.json"
        #expect(try glyphs(plain, style, host: "maps.test:81") == "http://maps.test:81/fonts/{fontstack}/{range}.pbf")
        // Without a Host header: the bind address and the configured port.
        #expect(try glyphs(plain, style, host: nil) == "http://127.0.0.1:0/fonts/{fontstack}/{range}.pbf")

        let public_ = try StaticMapsService(
            config: try Server.config(#"{"publicUrl": "https://maps.example.com/base/", "keys": {"k1": {}}}"#))
        defer { public_.shutdown() }
        let keyed = public_.respond(ServerRequest(method: "GET", target: style + "?key=k1", headers: ["host": "a"]))
        let sources = try #require(try Self.object(keyed.body)["sources"] as? [String: [String: Any]])
        #expect(sources["world"]?["url"] as? String == "https://maps.example.com/base/data/world.json?key=k1")
        let data = public_.respond(ServerRequest(method: "GET", target: "/data/world.json?key=k1"))
        #expect(
            (try Self.object(data.body)["tiles"] as? [String])?.first
                == "https://maps.example.com/base/data/world/{z}/{x}/{y}.pbf?key=k1")
        #expect(public_.respond(ServerRequest(method: "GET", target: "/data/world.json")).status == 403)
        #expect(
            public_.respond(ServerRequest(method: "GET", target: "/fonts/Noto%20Sans%20Bold/0-255.pbf")).status == 403)
        #expect(throws: StaticMapsConfigError.self) {
            try StaticMapsConfig(json: Data(#"{"publicUrl": "ftp://x"}"#.utf8))
        }
    }

    @Test func aLocalSpriteIsServedBesideItsStyle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waymark-sprite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let style = folder.appendingPathComponent("style.json")
        try Data(#"{"version": 8, "sources": {}, "layers": [], "sprite": "icons/sprite"}"#.utf8).write(to: style)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
        let index = Data(#"{"dot": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 2}}"#.utf8)
        try index.write(to: folder.appendingPathComponent("icons/sprite@2x.json"))
        let service = try StaticMapsService(config: try Server.config(#"{"styles": {"mine": "\#(style.path)"}}"#))
        defer { service.shutdown() }
        let served = service.respond(
            ServerRequest(method: "GET", target: "/styles/mine/style.json", headers: ["host": "h:1"]))
        #expect(try Self.object(served.body)["sprite"] as? String == "http://h:1/styles/mine/sprite")
        let sprite = service.respond(ServerRequest(method: "GET", target: "/styles/mine/sprite@2x.json"))
        #expect(sprite.status == 200)
        #expect(sprite.body == [UInt8](index))
        #expect(service.respond(ServerRequest(method: "GET", target: "/styles/mine/sprite.png")).status == 404)
        #expect(service.respond(ServerRequest(method: "GET", target: "/styles/mine/sprite.txt")).status == 404)
    }
}

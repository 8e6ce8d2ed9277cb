import Foundation
import MapNetwork
import MapStyle
import Testing

/// Style sources over HTTP as parsed, and styles, sprites and glyphs loaded through the network.
struct NetworkStyleSourceTests {
    @Test func vectorSourcesKeepSchemeBoundsAndTheTileJSONURL() throws {
        let json = #"""
            {"version": 8, "layers": [], "sources": {
              "a": {"type": "vector", "tiles": ["http://h/{z}/{x}/{y}"], "scheme": "tms", "bounds": [1, 2, 3, 4]},
              "b": {"type": "vector", "url": "https://h/tiles.json"},
              "c": {"type": "vector", "url": "file://sets/tiles.json"},
              "d": {"type": "vector", "tiles": ["http://h/{z}"], "bounds": [3, 2, 1]}}}
            """#
        let style = try Style.parse(bytes: Array(json.utf8), baseDirectory: "/styles")
        guard case .vector(let a)? = style.sources["a"], case .vector(let b)? = style.sources["b"],
            case .vector(let c)? = style.sources["c"], case .vector(let d)? = style.sources["d"]
        else {
            Issue.record("sources missing")
            return
        }
        #expect(a.scheme == "tms" && a.bounds == [1, 2, 3, 4])
        #expect(b.location == .tileJSON(url: "https://h/tiles.json"))
        #expect(c.location == .tileJSON(url: "file:///styles/sets/tiles.json"))
        #expect(d.bounds == TileJSON.worldBounds)
        #expect(style.diagnostics.map(\.path) == ["sources.d.bounds"], "no warning for http(s) and file URLs")
        #expect(SourceOpener.standard.needsNetwork(.vector(a)) && SourceOpener.standard.needsNetwork(.vector(b)))
    }
}

@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct NetworkResourceTests {
    let folder: URL
    let server: TestServer

    init() throws {
        folder = try temporaryFolder("resources")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("fonts/Noto Sans,Open Sans"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("fonts/Noto Sans,Open Sans/256-511.pbf"))
        try Data(#"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("style.json"))
        try Data(#"{"dot": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 1}}"#.utf8)
            .write(to: folder.appendingPathComponent("sprite.json"))
        try Data("not really a png".utf8).write(to: folder.appendingPathComponent("sprite.png"))
        server = try TestServer(root: folder)
    }

    @Test func glyphRangesAreFetchedAndCached() throws {
        let network = TileNetwork(cacheDirectory: try temporaryFolder("glyphs").path)
        let template = server.url("fonts/{fontstack}/{range}.pbf?cc=max-age=60")
        #expect(try network.glyphs(template: template, fontstack: "Noto Sans,Open Sans", range: 300) == [1, 2, 3])
        #expect(try network.glyphs(template: template, fontstack: "Noto Sans,Open Sans", range: 256) == [1, 2, 3])
        #expect(try server.requests(containing: "/fonts/").count == 1, "the second range came from the cache")
        #expect(try network.glyphs(template: template, fontstack: "Missing", range: 0) == nil)
    }

    @Test func stylesAndSpritesLoadOverHTTP() throws {
        let network = TileNetwork(cacheDirectory: nil)
        let style = try network.loadStyle(server.url("style.json"))
        #expect(style.layers.map(\.id) == ["bg"])
        let sprite = try #require(network.sprite(server.url("sprite")))
        #expect(sprite.png == Array("not really a png".utf8))
        #expect(network.sprite(server.url("nosprite")) == nil)
        #expect(throws: (any Error).self) { try network.loadStyle(server.url("missing.json")) }
    }
}

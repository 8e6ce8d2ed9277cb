import Foundation
import Testing

@testable import MapStyle

/// Relative references in a style or TileJSON resolve against the URL of the document holding them (RFC 3986, as
/// MapLibre resolves them).
struct StyleURLTests {
    static let base = URL(string: "http://h:8/styles/main/style.json?key=1")!

    @Test(arguments: [
        ("sprites/s", "http://h:8/styles/main/sprites/s"),
        ("../fonts/{fontstack}/{range}.pbf", "http://h:8/styles/fonts/{fontstack}/{range}.pbf"),
        ("/t/{z}/{x}/{y}.pbf", "http://h:8/t/{z}/{x}/{y}.pbf"),
        ("//cdn.example/t/{z}.png", "http://cdn.example/t/{z}.png"),
        ("tiles.json?v=2", "http://h:8/styles/main/tiles.json?v=2"),
        ("https://o/{z}/{x}/{y}", "https://o/{z}/{x}/{y}"),
        ("mbtiles://../world.mbtiles", "mbtiles://../world.mbtiles"),
    ])
    func referencesResolve(reference: String, expected: String) {
        #expect(StyleURL.resolve(reference, against: Self.base) == expected)
    }

    @Test func schemesAreRecognised() {
        #expect(StyleURL.hasScheme("http://x") && StyleURL.hasScheme("pmtiles://a") && StyleURL.hasScheme("a+b.c-d:x"))
        #expect(
            !StyleURL.hasScheme("a/b:c") && !StyleURL.hasScheme("/x:y") && !StyleURL.hasScheme("")
                && !StyleURL.hasScheme("1a:b"))
    }

    @Test func aStyleWithABaseURLResolvesEveryReference() throws {
        let json = #"""
            {"version": 8, "sprite": "../sprites/s", "glyphs": "fonts/{fontstack}/{range}.pbf", "layers": [],
             "sources": {
               "tj": {"type": "vector", "url": "tiles.json"},
               "xyz": {"type": "vector", "tiles": ["/v/{z}/{x}/{y}.pbf", "https://o/{z}/{x}/{y}.pbf"]},
               "pm": {"type": "vector", "url": "pmtiles://data/a.pmtiles"},
               "pmabs": {"type": "vector", "url": "pmtiles://https://x/a.pmtiles"},
               "r": {"type": "raster", "tiles": ["r/{z}/{x}/{y}.png"]},
               "rpm": {"type": "raster", "url": "pmtiles://geo.pmtiles"},
               "g": {"type": "geojson", "data": "points.geojson"}}}
            """#
        let style = try Style.parse(bytes: Array(json.utf8), baseURL: Self.base)
        #expect(style.sprite == "http://h:8/styles/sprites/s")
        #expect(style.glyphs == "http://h:8/styles/main/fonts/{fontstack}/{range}.pbf")
        guard case .vector(let tj)? = style.sources["tj"], case .vector(let xyz)? = style.sources["xyz"],
            case .vector(let pm)? = style.sources["pm"], case .vector(let pmabs)? = style.sources["pmabs"],
            case .raster(let r)? = style.sources["r"], case .raster(let rpm)? = style.sources["rpm"],
            case .geojson(let g)? = style.sources["g"]
        else {
            Issue.record("sources missing: \(style.sources.keys.sorted())")
            return
        }
        #expect(tj.location == .tileJSON(url: "http://h:8/styles/main/tiles.json"))
        #expect(xyz.tiles == ["http://h:8/v/{z}/{x}/{y}.pbf", "https://o/{z}/{x}/{y}.pbf"])
        #expect(pm.location == .pmtiles(.url("http://h:8/styles/main/data/a.pmtiles")))
        #expect(pmabs.location == .pmtiles(.url("https://x/a.pmtiles")))
        #expect(r.tiles == ["http://h:8/styles/main/r/{z}/{x}/{y}.png"])
        #expect(r.location == .templates(r.tiles, scheme: .xyz), "no local template")
        #expect(rpm.location == .pmtiles(.url("http://h:8/styles/main/geo.pmtiles")))
        #expect(g.url == "http://h:8/styles/main/points.geojson" && g.path == nil)
        #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    }

    @Test func aStyleFileResolvesRelativeTileJSONAndTilesToFileURLs() throws {
        let json = #"""
            {"version": 8, "glyphs": "fonts/{fontstack}/{range}.pbf", "layers": [], "sources": {
               "tj": {"type": "vector", "url": "sets/tiles.json"},
               "xyz": {"type": "vector", "tiles": ["v/{z}/{x}/{y}.pbf"]},
               "rpm": {"type": "raster", "url": "pmtiles://../geo.pmtiles"},
               "rfile": {"type": "raster", "url": "pmtiles://file:///data/geo.pmtiles"}}}
            """#
        let style = try Style.parse(bytes: Array(json.utf8), baseDirectory: "/styles/x")
        guard case .vector(let tj)? = style.sources["tj"], case .vector(let xyz)? = style.sources["xyz"],
            case .raster(let rpm)? = style.sources["rpm"], case .raster(let rfile)? = style.sources["rfile"]
        else {
            Issue.record("sources missing")
            return
        }
        #expect(tj.location == .tileJSON(url: "file:///styles/x/sets/tiles.json"))
        #expect(xyz.tiles == ["file:///styles/x/v/{z}/{x}/{y}.pbf"])
        #expect(style.glyphs == "file:///styles/x/fonts/{fontstack}/{range}.pbf")
        #expect(rpm.location == .pmtiles(.file(path: "/styles/geo.pmtiles")))
        #expect(rfile.location == .pmtiles(.file(path: "/data/geo.pmtiles")))
        #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    }
}

import Foundation
import MapData
import MapGeometry
import MapNetwork
import MapStyle
import Testing

/// `TileLocation` parsing (one rule for vector and raster sources) and `SourceOpener`'s handler per scheme.
struct SourceOpenerTests {
    static let json = #"""
        {"version": 8, "layers": [], "sources": {
          "mb": {"type": "vector", "url": "mbtiles://../w.mbtiles"},
          "rmb": {"type": "raster", "url": "mbtiles://../w.mbtiles"},
          "pf": {"type": "vector", "url": "pmtiles://a.pmtiles"},
          "rpf": {"type": "raster", "url": "pmtiles://a.pmtiles"},
          "ph": {"type": "vector", "url": "pmtiles://https://h/a.pmtiles"},
          "rph": {"type": "raster", "url": "pmtiles://https://h/a.pmtiles"},
          "tj": {"type": "vector", "url": "https://h/tiles.json"},
          "rtj": {"type": "raster", "url": "https://h/tiles.json"},
          "tjf": {"type": "vector", "url": "file://sets/tiles.json"},
          "th": {"type": "vector", "tiles": ["https://h/{z}/{x}/{y}.pbf"], "scheme": "tms"},
          "rth": {"type": "raster", "tiles": ["https://h/{z}/{x}/{y}.png"], "scheme": "tms"},
          "tf": {"type": "vector", "tiles": ["v/{z}/{x}/{y}.pbf"]},
          "rtf": {"type": "raster", "tiles": ["https://h/{z}/{x}/{y}.png", "r/{z}/{x}/{y}.png"]},
          "g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}}
        """#

    static func style() throws -> Style {
        try Style.parse(bytes: Array(json.utf8), baseDirectory: "/styles/x")
    }

    @Test func vectorAndRasterSourcesParseToTheSameLocations() throws {
        let sources = try Self.style().sources
        let location = { (id: String) in sources[id]?.tileLocation }
        #expect(location("mb") == .mbtiles(path: "/styles/w.mbtiles") && location("rmb") == location("mb"))
        #expect(location("pf") == .pmtiles(.file(path: "/styles/x/a.pmtiles")) && location("rpf") == location("pf"))
        #expect(location("ph") == .pmtiles(.url("https://h/a.pmtiles")) && location("rph") == location("ph"))
        #expect(location("tj") == .tileJSON(url: "https://h/tiles.json") && location("rtj") == location("tj"))
        #expect(location("tjf") == .tileJSON(url: "file:///styles/x/sets/tiles.json"))
        #expect(location("th") == .templates(["https://h/{z}/{x}/{y}.pbf"], scheme: .tms))
        #expect(location("rth") == .templates(["https://h/{z}/{x}/{y}.png"], scheme: .tms))
        #expect(location("tf") == .templates(["file:///styles/x/v/{z}/{x}/{y}.pbf"], scheme: .xyz))
        #expect(location("rtf") == .templates(["/styles/x/r/{z}/{x}/{y}.png"], scheme: .xyz), "local first")
        #expect(location("g") == nil)
    }

    @Test func eachLocationHasOneHandlerThatSaysWhetherItNeedsTheNetwork() throws {
        let sources = try Self.style().sources
        let opener = SourceOpener(network: {
            Issue.record("the network was asked for")
            return .shared
        })
        let expected: [String: (String, Bool)] = [
            "mb": ("mbtiles", false), "rmb": ("mbtiles", false), "pf": ("pmtiles+file", false),
            "rpf": ("pmtiles+file", false), "ph": ("pmtiles+http", true), "rph": ("pmtiles+http", true),
            "tj": ("tilejson+http", true), "rtj": ("tilejson+http", true), "tjf": ("tilejson+file", false),
            "th": ("templates+http", true), "rth": ("templates+http", true), "tf": ("templates+file", false),
            "rtf": ("templates+path", false),
        ]
        for (id, (scheme, network)) in expected {
            let source = try #require(sources[id])
            #expect(opener.handler(for: source)?.scheme == scheme, "\(id)")
            #expect(opener.needsNetwork(source) == network, "\(id)")
        }
        let geojson = try #require(sources["g"])
        #expect(opener.handler(for: geojson) == nil)
        #expect(!opener.needsNetwork(geojson))
        let tiles = try #require(try opener.open(id: "g", source: geojson), "a GeoJSON source is cut into tiles")
        #expect(tiles.metadata.name == GeoJSONSource.layerName)
        #expect(tiles.maxZoom == 18)
    }

    /// A user's style with a GeoJSON source draws it (inline or from a file beside the style), every layer on it
    /// reads the tiles' one layer whatever its `source-layer`, `buffer` reaches the tiles, and data that cannot be
    /// read is an error naming the source and the file or URL (not a silently empty layer). GeoJSON over `http(s)`:
    /// `RemoteStyleTests.geoJSONDataOverHTTPIsFetchedAndCutIntoTiles`.
    @Test func geoJSONSourcesOpenFromInlineDataAndFilesOrNameWhatIsWrong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opener-gj-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let square =
            #"{"type":"Feature","properties":{"k":1},"geometry":{"type":"Polygon","coordinates":"#
            + #"[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}"#
        try Data(square.utf8).write(to: folder.appendingPathComponent("square.geojson"))
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("bad.geojson"))
        let json = """
            {"version": 8, "sources": {
              "inline": {"type": "geojson", "data": \(square), "buffer": 0, "maxzoom": 12},
              "file": {"type": "geojson", "data": "square.geojson"},
              "bad": {"type": "geojson", "data": "bad.geojson"},
              "missing": {"type": "geojson", "data": "missing.geojson"},
              "remote": {"type": "geojson", "data": "https://example.org/a.geojson"}},
             "layers": [{"id": "f", "type": "fill", "source": "file", "source-layer": "ignored"},
                        {"id": "l", "type": "line", "source": "inline"}]}
            """
        let style = try Style.parse(bytes: Array(json.utf8), baseDirectory: folder.path)
        #expect(style.layers.map(\.sourceLayer) == [GeoJSONSource.layerName, GeoJSONSource.layerName])
        guard case .geojson(let inline)? = style.sources["inline"], case .geojson(let file)? = style.sources["file"]
        else {
            Issue.record("GeoJSON sources not parsed")
            return
        }
        #expect(inline.buffer == 0 && file.buffer == 128)
        let opener = SourceOpener(network: {
            Issue.record("the network was asked for")
            return .shared
        })
        for id in ["inline", "file"] {
            let source = try #require(style.sources[id])
            let tiles = try #require(try opener.open(id: id, source: source))
            let bytes = try #require(try tiles.tileData(at: TileID(z: 0, x: 0, y: 0)), "\(id)")
            let layer = try VectorTile(bytes: bytes).layer(named: GeoJSONSource.layerName)
            #expect(layer?.featureCount == 1, "\(id)")
            #expect(tiles.maxZoom == (id == "inline" ? 12 : 18))
        }
        #expect(opener.needsNetwork(try #require(style.sources["remote"])), "GeoJSON over https is fetched")
        #expect(!opener.needsNetwork(try #require(style.sources["file"])))
        // An opener over a custom handler list has no network: data over https is an error naming it.
        let offline = SourceOpener(handlers: SourceOpener.standard.handlers)
        for (id, says) in [
            ("bad", "bad.geojson"), ("missing", "missing.geojson cannot be read"),
            ("remote", "https://example.org/a.geojson is not read"),
        ] {
            let source = try #require(style.sources[id])
            #expect {
                try offline.open(id: id, source: source)
            } throws: { error in
                "\(error)".contains("GeoJSON source \"\(id)\"") && "\(error)".contains(says)
            }
        }
    }

    @Test func aLocalTemplateOpensAsFilesWithTMSRows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("t/1/0"), withIntermediateDirectories: true)
        // TMS row 0 at zoom 1 is XYZ row 1.
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("t/1/0/0.png"))
        let json =
            #"{"version": 8, "layers": [], "sources": {"r": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"], "scheme": "tms"}}}"#
        let style = try Style.parse(bytes: Array(json.utf8), baseDirectory: folder.path)
        let source = try #require(style.sources["r"])
        let tiles = try #require(try SourceOpener.standard.open(id: "r", source: source))
        #expect(try tiles.tileData(at: .init(z: 1, x: 0, y: 1)) == [1, 2, 3])
        #expect(try tiles.tileData(at: .init(z: 1, x: 0, y: 0)) == nil)
    }

    @Test func oneValidatorReadsBoundsAndSchemeOfBothSourceTypes() throws {
        let json = #"""
            {"version": 8, "layers": [], "sources": {
              "v": {"type": "vector", "tiles": ["https://h/{z}"], "scheme": "rows", "bounds": [30, 0, 10, 5]},
              "r": {"type": "raster", "tiles": ["https://h/{z}"], "scheme": "rows", "bounds": [30, 0, 10, 5]},
              "vok": {"type": "vector", "tiles": ["https://h/{z}"], "bounds": [-200, -95, 10, 95]}}}
            """#
        let style = try Style.parse(bytes: Array(json.utf8))
        let messages = { (id: String) in
            style.errors.filter { $0.path.hasPrefix("sources.\(id).") }.map { "\($0.path): \($0.message)" }
        }
        #expect(
            messages("v").map { $0.replacingOccurrences(of: "sources.v.", with: "") }
                == messages("r").map { $0.replacingOccurrences(of: "sources.r.", with: "") })
        #expect(messages("v").count == 2)
        guard case .vector(let ok)? = style.sources["vok"] else {
            Issue.record("vok missing")
            return
        }
        #expect(ok.bounds == [-180, -90, 10, 90])
    }
}

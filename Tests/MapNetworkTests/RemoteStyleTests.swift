import Foundation
import MapData
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle
import MapTestSupport
import Testing

/// The glyph range the tests serve: a real MapLibre glyph PBF from the shared render-test fixtures.
let sharedGlyphPBF = Fixtures.shared(
    "maplibre-native-render/metrics/integration/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf")

/// `geography-class-png.mbtiles` (martin's fixtures): a raster MBTiles, zooms 0–2.
let geographyClass = "martin/tests/fixtures/mbtiles/geography-class-png.mbtiles"

/// Styles loaded over HTTP whose `sprite`, `glyphs`, source `url` and TileJSON `tiles` are relative: they resolve
/// against the URL of the document holding them and draw the same picture as the local tiles.
@Suite(.enabled(if: TestServer.available, "python3 is needed for the test HTTP server"), .serialized)
struct RemoteStyleTests {
    let folder: URL
    let server: TestServer

    init() throws {
        folder = try temporaryFolder("remotestyle")
        _ = try exportHelsinki(into: folder.appendingPathComponent("helsinki"))
        server = try TestServer(root: folder)
    }

    func network(_ log: ProblemLog = ProblemLog()) -> TileNetwork {
        TileNetwork(
            cacheDirectory: nil, options: HTTPLoaderOptions(maxRetries: 1, retryBaseDelay: 0.01, timeout: 5),
            onProblem: log.add)
    }

    /// Writes a one-icon sprite (`<folder>/sprites/s.json`, `.png`) and, when the shared fixtures are there, a glyph
    /// range under `<folder>/fonts/Open Sans Semibold/0-255.pbf`.
    func writeResources() throws {
        let sprites = folder.appendingPathComponent("sprites")
        try FileManager.default.createDirectory(at: sprites, withIntermediateDirectories: true)
        try Data(#"{"dot": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#.utf8)
            .write(to: sprites.appendingPathComponent("s.json"))
        let png = try PNGCodec.encode(RasterImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)))
        try Data(png).write(to: sprites.appendingPathComponent("s.png"))
        if let glyphs = sharedGlyphPBF {
            let dir = folder.appendingPathComponent("fonts/Open Sans Semibold")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: glyphs, to: dir.appendingPathComponent("0-255.pbf"))
        }
    }

    /// Writes the resources and a style at `styles/main/style.json` whose source `url`, `sprite` and `glyphs` are
    /// relative (the TileJSON's `tiles` too), and loads it over HTTP. The `world` source (a local MBTiles, which a
    /// style over the network may not read) and its layers are left out.
    func loadRelativeStyle(_ net: TileNetwork) throws -> Style { try writeRelativeStyle(net).style }

    /// ``loadRelativeStyle(_:)``, with the path of the style file.
    func writeRelativeStyle(_ net: TileNetwork) throws -> (style: Style, path: String) {
        try writeResources()
        let tileJSON = #"{"tilejson":"3.0.0","tiles":["helsinki/{z}/{x}/{y}.pbf"],"minzoom":0,"maxzoom":14}"#
        try Data(tileJSON.utf8).write(to: folder.appendingPathComponent("helsinki.json"))
        let styles = folder.appendingPathComponent("styles/main")
        try FileManager.default.createDirectory(at: styles, withIntermediateDirectories: true)
        let path = try defaultStyle(
            helsinki: [
                "type": "vector", "url": "../../helsinki.json", "attribution": "© OpenStreetMap contributors",
            ], in: styles)
        var json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        json["sprite"] = "../../sprites/s"
        json["glyphs"] = "/files/fonts/{fontstack}/{range}.pbf"
        var sources = json["sources"] as! [String: Any]
        sources["world"] = nil
        json["sources"] = sources
        json["layers"] = (json["layers"] as! [[String: Any]]).filter { $0["source"] as? String != "world" }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return (try net.loadStyle(server.url("styles/main/style.json")), path)
    }

    @Test func relativeReferencesInAStyleOverHTTPResolveAgainstItsURL() throws {
        let log = ProblemLog()
        let net = network(log)
        let (style, path) = try writeRelativeStyle(net)
        #expect(style.baseURL?.absoluteString == server.url("styles/main/style.json"))
        #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
        #expect(style.sprite == server.url("sprites/s"))
        #expect(style.glyphs == server.url("fonts/{fontstack}/{range}.pbf"))
        guard case .vector(let city)? = style.sources["city"] else {
            Issue.record("no city source")
            return
        }
        #expect(city.location == .tileJSON(url: server.url("helsinki.json")))
        #expect(city.url == "../../helsinki.json", "the url as written is kept")

        // The TileJSON's own relative tiles resolve against the TileJSON's URL: the same picture as the same style
        // read from its folder (its TileJSON and tiles then read as files).
        let snap = try MapHost(style: style, resolveSource: NetworkRenderTests.resolver(net))
        let picture = try snap.render(camera: NetworkRenderTests.camera)
        let fromDisk = try MapHost(
            style: Style.load(contentsOfFile: path), resolveSource: NetworkRenderTests.resolver(network()))
        let local = try fromDisk.render(camera: NetworkRenderTests.camera)
        #expect(NetworkRenderTests.differingPixels(picture, local, "relative") == 0)
        let tileRequests = try server.requests(containing: "/files/helsinki/")
        #expect(!tileRequests.isEmpty)
        #expect(log.problems.isEmpty, "\(log.problems)")

        let spriteURL = try #require(style.sprite)
        let sprite = try #require(net.sprite(spriteURL))
        #expect(try PNGCodec.decode(sprite.png).width == 2)
    }

    /// A style loaded over HTTP may read only over HTTP (docs/BEHAVIOUR.md D23): `mbtiles://`, `file://` and
    /// `pmtiles://file://` sources, sprites and glyphs are refused with one error each naming them, and nothing is
    /// read from disk; a path after `pmtiles://` (`pmtiles:///a.pmtiles`) is a reference on the style's server, as
    /// every path in such a style is.
    @Test func aStyleOverHTTPMayNotNameLocalFiles() throws {
        let world = Fixtures.data.appendingPathComponent("world.mbtiles").path
        let style = #"""
            {"version": 8, "sprite": "file:///etc/sprite", "glyphs": "file:///fonts/{fontstack}/{range}.pbf",
             "sources": {
               "a": {"type": "vector", "url": "mbtiles://\#(world)"},
               "b": {"type": "vector", "url": "pmtiles://file:///tmp/x.pmtiles"},
               "onServer": {"type": "vector", "url": "pmtiles:///tmp/x.pmtiles"},
               "c": {"type": "vector", "tiles": ["file:///tmp/{z}/{x}/{y}.pbf"]},
               "d": {"type": "geojson", "data": "file:///etc/passwd"},
               "e": {"type": "raster", "url": "mbtiles:///tmp/r.mbtiles"},
               "ok": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"]}},
             "layers": []}
            """#
        try Data(style.utf8).write(to: folder.appendingPathComponent("local-refs.json"))
        let loaded = try network().loadStyle(server.url("local-refs.json"))
        #expect(loaded.sources.keys.sorted() == ["ok", "onServer"])
        guard case .vector(let onServer)? = loaded.sources["onServer"] else { return }
        #expect(
            onServer.location
                == .pmtiles(.url(server.url("").replacingOccurrences(of: "/files/", with: "/tmp/x.pmtiles"))))
        let refused = loaded.diagnostics.filter { $0.message.contains("may not read local files") }.map(\.path)
        #expect(
            refused.sorted() == ["glyphs", "sources.a", "sources.b", "sources.c", "sources.d", "sources.e", "sprite"])
        #expect(loaded.sprite == nil && loaded.glyphs == nil)
        // The same document read from a file keeps its local sources.
        let file = try Style.load(contentsOfFile: folder.appendingPathComponent("local-refs.json").path)
        #expect(file.sources.count == 7)
    }

    /// A style over HTTP whose GeoJSON source names its data by a relative URL: the data is fetched from the style's
    /// server (the opener says it needs the network), cut into tiles and drawn; a URL the server does not have, or
    /// that does not hold GeoJSON, is an error naming the source and the URL (`waymark snapshot` exits 1 on it).
    @Test func geoJSONDataOverHTTPIsFetchedAndCutIntoTiles() throws {
        let square =
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":"#
            + #"[[[24.9,60.16],[24.95,60.16],[24.95,60.18],[24.9,60.18],[24.9,60.16]]]}}"#
        try Data(square.utf8).write(to: folder.appendingPathComponent("square.geojson"))
        try Data("<html>".utf8).write(to: folder.appendingPathComponent("page.geojson"))
        let style = #"""
            {"version": 8, "sources": {
               "sq": {"type": "geojson", "data": "square.geojson"},
               "gone": {"type": "geojson", "data": "missing.geojson"},
               "page": {"type": "geojson", "data": "page.geojson"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "sq", "type": "fill", "source": "sq", "paint": {"fill-color": "#ff0000"}}]}
            """#
        try Data(style.utf8).write(to: folder.appendingPathComponent("geojson-style.json"))
        let net = network()
        let loaded = try net.loadStyle(server.url("geojson-style.json"))
        let opener = SourceOpener(network: { net })
        let source = try #require(loaded.sources["sq"])
        #expect(opener.needsNetwork(source))
        let tiles = try #require(try opener.open(id: "sq", source: source))
        let bytes = try #require(try tiles.tileData(at: TileID(z: 0, x: 0, y: 0)))
        #expect(try VectorTile(bytes: bytes).layer(named: GeoJSONSource.layerName)?.featureCount == 1)
        #expect(try server.requests(containing: "/files/square.geojson").count == 1)
        for (id, file) in [("gone", "missing.geojson"), ("page", "page.geojson")] {
            let bad = try #require(loaded.sources[id])
            #expect {
                try opener.open(id: id, source: bad)
            } throws: { error in
                "\(error)".contains("GeoJSON source \"\(id)\"") && "\(error)".contains(server.url(file))
            }
        }
        // Drawn: the square fills the frame's centre red.
        var only = loaded
        only.sources["gone"] = nil
        only.sources["page"] = nil
        let host = try MapHost(style: only, resolveSource: { try opener.open(id: $0, source: $1) })
        let camera = CameraState(
            center: LatLng(latitude: 60.17, longitude: 24.925), zoom: 12, size: ScreenSize(width: 64, height: 64))
        let picture = try host.render(camera: camera)
        let centre = (32 * picture.width + 32) * 4
        #expect(
            Array(picture.pixels[centre..<centre + 3]) == [0, 0, 255], "the centre pixel is the square's red (BGRA)")
    }

    /// The style's relative `glyphs` template resolves against its URL: one request a range, a missing range empty.
    @Test(
        .needsSharedFixtures(
            "maplibre-native-render/metrics/integration/glyphs/Open Sans Semibold,Arial Unicode MS Bold/0-255.pbf"))
    func glyphRangesOfAStyleOverHTTPResolveAgainstItsURL() throws {
        let net = network()
        let style = try loadRelativeStyle(net)
        let glyphs = try #require(MapHost.glyphStore(for: style, network: net))
        let a = try #require(glyphs.glyph(fontstack: "Open Sans Semibold", codepoint: 65))
        #expect(a.width > 0 && a.bitmap.count == (a.width + 6) * (a.height + 6))
        #expect(glyphs.range(fontstack: "Open Sans Semibold", containing: 300).glyphs.isEmpty, "a 404 range")
        let fontRequests = try server.requests(containing: "/fonts/")
        #expect(fontRequests.count == 2, "one request a range: \(fontRequests)")
    }

    @Test func aStyleFileResolvesARelativeTileJSONURLAgainstItsFolder() throws {
        let tileJSON = #"{"tilejson":"3.0.0","tiles":["\#(server.url("helsinki"))/{z}/{x}/{y}.pbf"],"maxzoom":14}"#
        try Data(tileJSON.utf8).write(to: folder.appendingPathComponent("local.json"))
        let path = try defaultStyle(
            helsinki: ["type": "vector", "url": "local.json", "attribution": "© OpenStreetMap contributors"],
            in: folder, name: "file-style.json")
        let style = try Style.load(contentsOfFile: path)
        guard case .vector(let city)? = style.sources["city"] else {
            Issue.record("no city source")
            return
        }
        #expect(
            city.location
                == .tileJSON(url: URL(fileURLWithPath: folder.appendingPathComponent("local.json").path).absoluteString)
        )
        #expect(style.diagnostics.filter { $0.path.hasPrefix("sources.city") }.isEmpty, "\(style.diagnostics)")
        let snap = try MapHost(style: style, resolveSource: NetworkRenderTests.resolver(network()))
        let picture = try snap.render(camera: NetworkRenderTests.camera)
        let local = try MapHost().render(camera: NetworkRenderTests.camera)
        #expect(NetworkRenderTests.differingPixels(picture, local, "file") == 0)
    }

    /// A raster style whose source has `url` (or, when it contains `{z}`, `tiles: [url]`), one raster layer without
    /// fades.
    static func rasterStyle(_ url: String) -> Style {
        var source: [String: JSONValue] = ["type": .string("raster"), "tileSize": .number(256)]
        if url.contains("{z}") { source["tiles"] = .array([.string(url)]) } else { source["url"] = .string(url) }
        return Style(
            json: .object([
                "version": .number(8),
                "sources": .object(["r": .object(source)]),
                "layers": .array([
                    .object([
                        "id": .string("r"), "type": .string("raster"), "source": .string("r"),
                        "paint": .object(["raster-fade-duration": .number(0)]),
                    ])
                ]),
            ]), baseDirectory: "/")
    }

    @Test(.needsSharedFixtures(geographyClass))
    func rasterPMTilesFromFileAndHTTPDrawLikeTheirMBTiles() throws {
        let mbtiles = try #require(Fixtures.shared(geographyClass)).path
        let pmtiles = folder.appendingPathComponent("geography.pmtiles").path
        try TileArchiveConverter.convert(input: mbtiles, output: pmtiles)
        let camera = CameraState(
            center: LatLng(latitude: 20, longitude: 0), zoom: 1, size: ScreenSize(width: 400, height: 300))
        let log = ProblemLog()
        let net = network(log)
        func picture(_ url: String) throws -> RasterImage {
            let style = Self.rasterStyle(url)
            #expect(style.errors.isEmpty, "\(style.errors)")
            return try MapHost(style: style, resolveSource: NetworkRenderTests.resolver(net)).render(camera: camera)
        }
        let original = try picture("mbtiles://" + mbtiles)
        var colours = Set<[UInt8]>()
        for i in stride(from: 0, to: original.pixels.count, by: 4 * 97) {
            colours.insert(Array(original.pixels[i..<i + 4]))
        }
        #expect(colours.count > 10, "the MBTiles picture has the map's colours: \(colours.count)")
        let fromFile = try picture("pmtiles://" + pmtiles)
        let fromFileURL = try picture("pmtiles://file://" + pmtiles)
        let fromHTTP = try picture("pmtiles://" + server.url("geography.pmtiles"))
        #expect(NetworkRenderTests.differingPixels(fromFile, original, "raster-file") == 0)
        #expect(NetworkRenderTests.differingPixels(fromFileURL, original, "raster-fileurl") == 0)
        #expect(NetworkRenderTests.differingPixels(fromHTTP, original, "raster-http") == 0)
        // The same tiles as an XYZ folder over HTTP.
        let source = try MBTilesSource(path: mbtiles)
        for address in try source.tileAddresses() {
            guard let bytes = try source.rawTileData(at: address) else { continue }
            let dir = folder.appendingPathComponent("geo/\(address.z)/\(address.x)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(bytes).write(to: dir.appendingPathComponent("\(address.y).png"))
        }
        let fromXYZ = try picture(server.url("geo/{z}/{x}/{y}.png"))
        #expect(NetworkRenderTests.differingPixels(fromXYZ, original, "raster-xyz") == 0)
        let ranges = try server.requests(containing: "geography.pmtiles").compactMap { $0["range"] as? String }
        #expect(!ranges.isEmpty && ranges.allSatisfy { $0.hasPrefix("bytes=") })
        #expect(log.problems.isEmpty, "\(log.problems)")
        // A raster archive that is not there: an error naming it.
        #expect(throws: (any Error).self) { try picture("pmtiles:///no/such/raster.pmtiles") }
    }
}

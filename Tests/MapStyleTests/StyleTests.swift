import FoundationEssentials
import MapStyle
import MapTestSupport
import Testing

let defaultStylePath = Fixtures.data.appendingPathComponent("styles/default.json").path

@Test func defaultStyleLoadsWithoutErrors() throws {
    let style = try Style.load(contentsOfFile: defaultStylePath)
    #expect(style.errors.isEmpty, "\(style.errors)")
    #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    // Both sources resolve next to Data/styles: Data/world.mbtiles and Data/cities.mbtiles.
    guard case .vector(let world)? = style.sources["world"], case .vector(let city)? = style.sources["city"]
    else {
        Issue.record("missing sources")
        return
    }
    #expect(world.location == .mbtiles(path: Fixtures.data.appendingPathComponent("world.mbtiles").path))
    #expect(city.location == .mbtiles(path: Fixtures.data.appendingPathComponent("cities.mbtiles").path))
    #expect(world.maxzoom == 9 && city.maxzoom == 14)
    // One schema: every OpenMapTiles source-layer is drawn from both sources by the same layer (the world's copy
    // has the id prefixed "world-"), and no layer reads anything else.
    let used = Set(style.layers.compactMap { l in l.source.map { "\($0)/\(l.sourceLayer ?? "")" } })
    let schema = [
        "water", "landuse", "landcover", "park", "building", "transportation", "transportation_name", "poi", "place",
        "housenumber", "water_name", "waterway", "boundary", "aeroway",
    ]
    for name in schema {
        #expect(used.contains("world/\(name)"), "world/\(name)")
        #expect(used.contains("city/\(name)"), "city/\(name)")
    }
    #expect(used.subtracting(schema.flatMap { ["world/\($0)", "city/\($0)"] }).isEmpty, "\(used)")
    // The 3D buildings are the city's alone: the world has no buildings, and an extrusion layer costs a full-frame
    // depth pass even without features.
    #expect(
        style.layers.filter { $0.type == .fillExtrusion }.map { "\($0.source ?? "")/\($0.id)" } == ["city/building-3d"])
    for layer in style.layers where layer.source == "city" && layer.type != .fillExtrusion {
        let twin = style.layer(id: "world-\(layer.id)")
        #expect(twin?.source == "world" && twin?.sourceLayer == layer.sourceLayer, "\(layer.id)")
    }
}

@Test func defaultStylePaintsRoadsByClass() throws {
    let style = try Style.load(contentsOfFile: defaultStylePath)
    let motorway = try #require(style.layer(id: "road-motorway"))
    let ctx = EvaluationContext(zoom: 14, properties: ["class": .string("motorway")], geometryType: .lineString)
    #expect(motorway.filter?.matches(ctx) == true)
    #expect(motorway.property("line-color")?.color(ctx) == StyleColor(css: "#fcd581"))
    let minor = try #require(style.layer(id: "road-minor"))
    #expect(minor.filter?.matches(ctx) == false)
    // Casing is wider than the fill at every zoom.
    for z in stride(from: 12.0, through: 18, by: 0.5) {
        let c = EvaluationContext(zoom: z, properties: ["class": .string("primary")])
        let fill = try #require(style.layer(id: "road-primary")?.property("line-width")?.number(c))
        let casing = try #require(style.layer(id: "road-primary-casing")?.property("line-width")?.number(c))
        #expect(casing > fill, "z\(z)")
    }
    // Places: the biggest win collisions (lower sort key first): rank 1 before rank 5, a national capital before
    // another place of its rank.
    let places = try #require(style.layer(id: "world-place-town"))
    func key(_ props: [String: ExpressionValue]) -> Double? {
        places.layout["symbol-sort-key"]?.number(EvaluationContext(zoom: 10, properties: props))
    }
    let big = try #require(key(["class": .string("city"), "rank": .number(1)]))
    let small = try #require(key(["class": .string("town"), "rank": .number(5)]))
    let capital = try #require(key(["class": .string("city"), "rank": .number(5), "capital": .number(2)]))
    #expect(big < small && capital < small)
    let hamlet = EvaluationContext(zoom: 9, properties: ["class": .string("hamlet"), "rank": .number(9)])
    #expect(places.filter?.matches(hamlet) == true)
    // A hamlet (rank 9) waits for camera zoom 10 (style zoom 9: the style's zooms are MapLibre's, one less than the
    // camera's, D25) even where the top zoom's tiles hold it.
    let early = EvaluationContext(zoom: 8.5, properties: ["class": .string("hamlet"), "rank": .number(9)])
    #expect(places.filter?.matches(early) == false)
    // Unranked places (the cities' OSM place nodes) leave the names to GeoNames.
    #expect(places.filter?.matches(EvaluationContext(zoom: 10, properties: ["class": .string("city")])) == false)
}

@Test func brokenStyleGivesDiagnosticsWithPathsAndStillLoads() throws {
    let text = #"""
        {
          "version": 7,
          "sources": {
            "s": {"type": "vector", "url": "mbtiles://tiles.mbtiles"},
            "r": {"type": "image", "url": "x"},
            "q": {"type": "bogus"}
          },
          "layers": [
            {"id": "bg", "type": "background", "paint": {"background-color": "nope"}},
            {"id": "roads", "type": "line", "source": "s", "source-layer": "transportation",
             "paint": {"line-width": ["+", 1, "x"], "line-color": "#fff", "fill-color": "red", "line-wobble": 3,
                       "line-trim-offset": [0, 0.5],
                       "line-width-transition": {"duration": -1}}},
            {"id": "h", "type": "sky", "source": "s", "source-layer": "poi"},
            {"id": "x", "type": "fill", "source": "missing", "source-layer": "a"},
            {"id": "roads", "type": "line", "source": "s", "source-layer": "b"},
            {"id": "f", "type": "fill", "source": "s", "source-layer": "water", "filter": ["==", ["get", "a"]],
             "paint": {"fill-color": ["feature-state", "hover"]}},
            {"id": "hidden", "type": "fill", "source": "s", "source-layer": "w", "layout": {"visibility": "none"}}
          ]
        }
        """#
    let style = try Style.parse(bytes: Array(text.utf8), baseDirectory: "/data/styles")
    #expect(style.layers.map(\.id) == ["bg", "roads", "f", "hidden"])
    let byPath = Dictionary(style.diagnostics.map { ($0.path, $0.severity) }, uniquingKeysWith: { a, _ in a })
    #expect(byPath["version"] == .error)
    #expect(byPath["sources.r.type"] == .warning)
    #expect(byPath["sources.q.type"] == .error)
    #expect(byPath["layers[0].paint.background-color"] == .error)
    #expect(byPath["layers[1].paint.line-width[2]"] == .error)
    #expect(byPath["layers[1].paint.fill-color"] == .error)
    #expect(byPath["layers[1].paint.line-wobble"] == .error)
    #expect(byPath["layers[1].paint.line-trim-offset"] == .warning)
    #expect(byPath["layers[1].paint.line-width-transition.duration"] == .error)
    #expect(byPath["layers[2].type"] == .warning)
    #expect(byPath["layers[3].source"] == .error)
    #expect(byPath["layers[4].id"] == .error)
    #expect(byPath["layers[5].filter"] == .error)
    #expect(byPath["layers[5].paint.fill-color[0]"] == .error)
    // Lines point at the offending value in the text (the nearest enclosing value for missing members).
    let lineOf = Dictionary(style.diagnostics.map { ($0.path, $0.line) }, uniquingKeysWith: { a, _ in a })
    #expect(lineOf["version"] == 2)
    #expect(lineOf["sources.q.type"] == 6)
    #expect(lineOf["layers[0].paint.background-color"] == 9)
    #expect(lineOf["layers[1].paint.line-width[2]"] == 11)
    #expect(
        style.diagnostics.first { $0.path == "version" }?.description == "error: version (line 2): expected 8, found 7")
    // Bad values fall back to defaults; good ones keep their value.
    let ctx = EvaluationContext(zoom: 10)
    #expect(style.layer(id: "bg")?.property("background-color")?.color(ctx) == .black)
    #expect(style.layer(id: "roads")?.property("line-width")?.number(ctx) == 1)
    #expect(style.layer(id: "roads")?.property("line-color")?.color(ctx) == .white)
    #expect(style.layer(id: "f")?.filter?.matches(ctx) == false)
    #expect(style.layer(id: "hidden")?.isVisible == false)
    if case .vector(let s)? = style.sources["s"] { #expect(s.location == .mbtiles(path: "/data/styles/tiles.mbtiles")) }
}

@Test func unparseableFileNamesTheFileAndPosition() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
        "waymark-style-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("bad.json")
    try Data("{\n  \"version\": 8,\n  \"layers\": [,]\n}".utf8).write(to: file)
    do {
        _ = try Style.load(contentsOfFile: file.path)
        Issue.record("loaded an invalid file")
    } catch {
        #expect(error.file == file.path)
        #expect(error.line == 3 && error.column == 14)
        #expect(error.description.hasPrefix(file.path + ":3:14: not JSON: "), "\(error)")
    }
    #expect(throws: StyleLoadError.self) {
        try Style.load(contentsOfFile: dir.appendingPathComponent("absent.json").path)
    }
    #expect(throws: StyleLoadError.self) { try Style.parse(bytes: Array("[1, 2]".utf8)) }
}

@Test func propertiesClampAndFallBackToDefaults() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "line", "source": "s",
                "layout": {"line-join": ["get", "join"], "line-cap": "round"},
                "paint": {"line-width": ["get", "w"], "line-opacity": ["get", "o"], "line-dasharray": [2, 1]}}]}
            """#))
    #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    let layer = try #require(style.layers.first)
    func ctx(_ p: [String: ExpressionValue]) -> EvaluationContext { EvaluationContext(zoom: 10, properties: p) }
    #expect(layer.property("line-width")?.number(ctx(["w": .number(-3)])) == 0)
    #expect(layer.property("line-width")?.number(ctx([:])) == 1)
    #expect(layer.property("line-width")?.number(ctx(["w": .string("wide")])) == 1)
    #expect(layer.property("line-opacity")?.number(ctx(["o": .number(7)])) == 1)
    #expect(layer.property("line-join")?.string(ctx(["join": .string("round")])) == "round")
    #expect(layer.property("line-join")?.string(ctx(["join": .string("zigzag")])) == "miter")
    #expect(layer.property("line-cap")?.string(ctx([:])) == "round")
    #expect(layer.property("line-dasharray")?.numbers(ctx([:])) == [2, 1])
    #expect(layer.property("line-miter-limit")?.number(ctx([:])) == 2)
    #expect(layer.property("fill-color") == nil)
}

@Test func iconPaddingAcceptsCSSShorthand() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "a", "type": "symbol", "source": "s", "layout": {"icon-padding": [1, 2]}},
                        {"id": "b", "type": "symbol", "source": "s", "layout": {"icon-padding": 3}},
                        {"id": "c", "type": "symbol", "source": "s"}]}
            """#))
    #expect(style.diagnostics.isEmpty, "\(style.diagnostics)")
    let ctx = EvaluationContext(zoom: 10)
    #expect(style.layer(id: "a")?.property("icon-padding")?.numbers(ctx) == [1, 2, 1, 2])
    #expect(style.layer(id: "b")?.property("icon-padding")?.numbers(ctx) == [3, 3, 3, 3])
    #expect(style.layer(id: "c")?.property("icon-padding")?.numbers(ctx) == [2, 2, 2, 2])
}

@Test func defaultStyleLabelsUseTheTilemakerNameAttributes() throws {
    // tilemaker's OpenMapTiles profile writes `name:latin` (not `name`) when no preferred language is set.
    let style = try Style.load(contentsOfFile: defaultStylePath)
    let poi = try #require(style.layer(id: "poi-label"))
    let ctx = EvaluationContext(
        zoom: 16, properties: ["name:latin": .string("Ateneum"), "class": .string("museum"), "rank": .number(3)])
    #expect(poi.filter?.matches(ctx) == true)
    #expect(poi.property("text-field")?.string(ctx) == "Ateneum")
    #expect(poi.property("text-color")?.color(ctx) == StyleColor(css: "#0f9d8a"))
    let unnamed = EvaluationContext(zoom: 16, properties: ["class": .string("museum"), "rank": .number(3)])
    #expect(poi.filter?.matches(unnamed) == false)
}

@Test func validatesLightTerrainAndFontFacesWithoutUsingThem() throws {
    let style = Style(
        json: json(
            #"""
            {"version": 8, "sources": {}, "layers": [], "font-faces": 3, "glyphs": "https://example.com/{range}.pbf",
             "light": {"anchor": "sideways", "position": [1, 2], "color": "nope", "intensity": 2, "foo": 1},
             "terrain": {"exaggeration": "x"}, "pitch": "45"}
            """#))
    #expect(
        Set(style.errors.map(\.path)) == [
            "font-faces", "glyphs", "light.anchor", "light.position", "light.color", "light.intensity", "light.foo",
            "terrain.source", "terrain.exaggeration", "pitch",
        ])
}

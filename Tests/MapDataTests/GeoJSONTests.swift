import Foundation
import MapGeometry
import MapTestSupport
import Testing

@testable import MapData

@Suite struct GeoJSONParsingTests {
    func parse(_ text: String) throws(GeoJSONError) -> GeoJSONDocument {
        try GeoJSONDocument.parse(bytes: Array(text.utf8))
    }

    @Test func parsesEveryGeometryType() throws {
        let doc = try parse(
            """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"properties":{"name":"a","n":1.5},"geometry":{"type":"Point","coordinates":[1,2]}},
              {"type":"Feature","properties":null,"geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4,5]]}},
              {"type":"Feature","id":"s","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]}]}},
              {"type":"Feature","properties":{},"geometry":null}
            ]}
            """)
        #expect(doc.features.count == 8)
        #expect(doc.features[0].id == .number(7))
        #expect(doc.features[0].properties["name"] == .string("a"))
        #expect(doc.features[0].geometry == .point(GeoJSONPosition(longitude: 1, latitude: 2)))
        #expect(
            doc.features[1].geometry
                == .multiPoint([.init(longitude: 1, latitude: 2), .init(longitude: 3, latitude: 4)]))
        #expect(doc.features[2].id == .string("s"))
        #expect(doc.features[7].geometry == nil)
        if case .geometryCollection(let parts)? = doc.features[6].geometry {
            #expect(parts.count == 1)
        } else {
            Issue.record("expected a GeometryCollection")
        }
    }

    @Test func bareGeometryIsOneFeature() throws {
        let doc = try parse(#"{"type":"Point","coordinates":[10,-20]}"#)
        #expect(doc.features == [GeoJSONFeature(geometry: .point(.init(longitude: 10, latitude: -20)))])
    }

    @Test func stringEscapes() throws {
        let v = try GeoJSONValue.parse(bytes: Array(#"["a\"b\\\n\u00e9\ud83d\ude00"]"#.utf8))
        #expect(v == .array([.string("a\"b\\\né😀")]))
    }

    @Test(arguments: [
        (
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1]}}"#,
            "$.geometry.coordinates"
        ),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0]]}}]}"#,
            "$.features[0].geometry.coordinates"
        ),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0]]]}"#, "$.coordinates[0]"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#, "$.coordinates[0]"),
        (#"{"type":"Point","coordinates":[0,"x"]}"#, "$.coordinates[1]"),
        (#"{"type":"Circle","coordinates":[0,0]}"#, "$.type"),
        (#"{"coordinates":[0,0]}"#, "$.type"),
        (#"[1,2]"#, "$"),
        (#"{"type":"Feature","properties":[],"geometry":null}"#, "$.properties"),
        (#"{"type":"Feature","properties":{}}"#, "$.geometry"),
        (#"{"type":"Feature","id":true,"properties":{},"geometry":null}"#, "$.id"),
        (#"{"type":"FeatureCollection","features":{}}"#, "$.features"),
        (#"{"type":"Point","coordinates":[0,0]"#, "$"),
        ("", "$"),
    ])
    func badInputNamesThePath(text: String, path: String) {
        do {
            _ = try parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    /// A ring that does not end at its first position is closed, as MapLibre closes it (render test
    /// `fill-extrusion-geometry/linestring`); a closed ring is kept as written.
    @Test func unclosedRingIsClosed() throws {
        let doc = try parse(
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#)
        let polygons = doc.features.first?.geometry
        let p = { (x: Double, y: Double) in GeoJSONPosition(longitude: x, latitude: y) }
        #expect(
            polygons
                == .multiPolygon([
                    [[p(0, 0), p(1, 0), p(1, 1), p(0, 1), p(0, 0)]], [[p(5, 5), p(6, 5), p(6, 6), p(5, 5)]],
                ]))
        // Three positions make a triangle once closed.
        let triangle = try parse(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}"#)
        #expect(triangle.features.first?.geometry == .polygon([[p(0, 0), p(1, 0), p(1, 1), p(0, 0)]]))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: GeoJSONError.self) { try parse(text) }
    }

    /// geojsonhint's good documents all parse; its bad ones that break RFC 7946's structure throw. The remaining bad
    /// files are hints about style, not structure (winding order, precision, duplicate keys, bbox shape, foreign
    /// members changing semantics, single-member collections), which a renderer accepts as MapLibre does.
    static let geojsonhintData = "geojsonhint/test/data"

    @Test(.needsSharedFixtures(geojsonhintData)) func geojsonhintFixtures() throws {
        let base = try #require(Fixtures.shared(Self.geojsonhintData))
        let fm = FileManager.default
        let good = try fm.contentsOfDirectory(atPath: base.appendingPathComponent("good").path)
            .filter { $0.hasSuffix(".geojson") }
        #expect(good.count >= 10)
        for name in good {
            let bytes = try [UInt8](Data(contentsOf: base.appendingPathComponent("good/" + name)))
            #expect(throws: Never.self, "\(name)") { try GeoJSONDocument.parse(bytes: bytes) }
        }
        let accepted: Set<String> = [
            "bad-duplicate-properties", "bad-polygon-interiorring-rhr", "polygon_winding_order", "bbox-4or6elements",
            "bbox-contains-string", "bbox-string", "excessive_precision_truncated", "feature_changed_semantics",
            "featurecollection_changed_semantics", "geometry_changed_semantics", "geometrycollection_single",
            "geometrycollection_nested", "point-toomany", "multipoint-multidimension", "bad-object-type",
            "bad-feature-with-number-id", "multiple_problems",
            // Rings that do not end at their first position: closed, as MapLibre closes them (three positions make a
            // triangle).
            "different-first-last", "different-first-size", "short-linearring",
        ]
        let bad = try fm.contentsOfDirectory(atPath: base.appendingPathComponent("bad").path)
            .filter { $0.hasSuffix(".geojson") }
        var rejected = 0
        for name in bad {
            let stem = String(name.dropLast(".geojson".count))
            let bytes = try [UInt8](Data(contentsOf: base.appendingPathComponent("bad/" + name)))
            let threw = (try? GeoJSONDocument.parse(bytes: bytes)) == nil
            if threw { rejected += 1 }
            if !accepted.contains(stem) {
                #expect(threw, "\(name) should be rejected")
            }
        }
        #expect(rejected >= 20)
    }

    static let googleMapsUtilsGeoJSON = "google-maps-ios-utils/Tests/GoogleMapsUtilsSwiftTests/Resources/GeoJSON"

    @Test(.needsSharedFixtures(googleMapsUtilsGeoJSON)) func googleMapsUtilsFixturesParse() throws {
        let base = try #require(Fixtures.shared(Self.googleMapsUtilsGeoJSON))
        let names = try FileManager.default.contentsOfDirectory(atPath: base.path).filter { $0.hasSuffix(".geojson") }
        #expect(names.count >= 9)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: base.appendingPathComponent(name)))
            let doc = try GeoJSONDocument.parse(bytes: bytes)
            #expect(!doc.features.isEmpty, "\(name)")
        }
    }
}

@Suite struct GeoJSONTileSourceTests {
    func source(_ text: String, maxZoom: Int = 18) throws -> GeoJSONTileSource {
        GeoJSONTileSource(document: try GeoJSONDocument.parse(bytes: Array(text.utf8)), maxZoom: maxZoom)
    }

    func decode(_ bytes: [UInt8]) throws -> [(VectorTileFeature, VectorTileGeometry)] {
        let tile = VectorTile(bytes: bytes)
        guard let layer = try tile.layer(named: "_geojson") else { return [] }
        var diagnostics: [VectorTileDiagnostic] = []
        let features = layer.decodeFeatures(diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try features.map { ($0, try $0.decodeGeometry(diagnostics: &diagnostics)) }
    }

    /// (0, 0) is the centre of the world: at z0 tile units (2048, 2048); at z1 the top-left corner of tile 1/1/1.
    @Test func pointAtOriginRoundTrips() throws {
        let s = try source(
            #"{"type":"Feature","id":42,"properties":{"name":"x","n":-3,"f":1.25,"b":true,"o":{"a":[1,2]},"z":null},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        )
        let z0 = try decode(try #require(try s.tileData(at: TileID(z: 0, x: 0, y: 0))))
        #expect(z0.count == 1)
        #expect(z0[0].1 == .points([VectorTilePoint(x: 2048, y: 2048)]))
        #expect(z0[0].0.id == 42)
        let props = z0[0].0.properties
        #expect(props["name"] == .string("x"))
        #expect(props["n"] == .sint(-3))
        #expect(props["f"] == .double(1.25))
        #expect(props["b"] == .bool(true))
        // Arrays and objects travel as JSON text in Waymark's extension field, not as plain strings.
        #expect(props["o"] == .json(#"{"a":[1,2]}"#))
        #expect(props["z"] == nil)
        let z1 = try decode(try #require(try s.tileData(at: TileID(z: 1, x: 1, y: 1))))
        #expect(z1.first?.1 == .points([VectorTilePoint(x: 0, y: 0)]))
        // In the buffer of the neighbouring tile too, at its right/bottom edge.
        let z1a = try decode(try #require(try s.tileData(at: TileID(z: 1, x: 0, y: 0))))
        #expect(z1a.first?.1 == .points([VectorTilePoint(x: 4096, y: 4096)]))
        // Far away: empty tile.
        #expect(try s.tileData(at: TileID(z: 4, x: 0, y: 0)) == [])
    }

    /// Longitude 90° E is x = 0.75 of the world; latitude 0 is y = 0.5: at z0 (3072, 2048).
    @Test func lineClippedToTilePlusBuffer() throws {
        let s = try source(#"{"type":"LineString","coordinates":[[-90,0],[90,0]]}"#)
        let z0 = try decode(try #require(try s.tileData(at: TileID(z: 0, x: 0, y: 0))))
        #expect(z0.first?.1 == .lineStrings([[VectorTilePoint(x: 1024, y: 2048), VectorTilePoint(x: 3072, y: 2048)]]))
        // At z1 tile (1,0) the line lies on the bottom edge y = 4096 and runs from x = −1024 (buffer) to 2048.
        let z1 = try decode(try #require(try s.tileData(at: TileID(z: 1, x: 1, y: 0))))
        #expect(z1.first?.1 == .lineStrings([[VectorTilePoint(x: -1024, y: 4096), VectorTilePoint(x: 2048, y: 4096)]]))
    }

    /// A polygon around the origin spanning four z1 tiles is cut to each tile's buffered box; ring winding follows
    /// the MVT rule whatever the input order; a hole stays a hole.
    @Test func polygonClippedAndWound() throws {
        // Counter-clockwise in lon/lat (RFC 7946 right-hand rule), hole clockwise.
        let s = try source(
            #"{"type":"Polygon","coordinates":[[[-90,-60],[90,-60],[90,60],[-90,60],[-90,-60]],[[-10,-10],[-10,10],[10,10],[10,-10],[-10,-10]]]}"#
        )
        let z0 = try decode(try #require(try s.tileData(at: TileID(z: 0, x: 0, y: 0))))
        guard case .polygons(let polys) = z0.first?.1 else {
            Issue.record("no polygon")
            return
        }
        #expect(polys.count == 1)
        #expect(polys[0].count == 2)
        #expect(signedDoubleArea(polys[0][0]) > 0)
        #expect(signedDoubleArea(polys[0][1]) < 0)
        // x from 1024 to 3072 at z0.
        #expect(polys[0][0].map(\.x).min() == 1024)
        #expect(polys[0][0].map(\.x).max() == 3072)
        // z2 tile (1,1) holds the north-west quarter: clipped at the buffered box edge x, y ≤ 4096 + 1024.
        let z2 = try decode(try #require(try s.tileData(at: TileID(z: 2, x: 1, y: 1))))
        guard case .polygons(let q)? = z2.first?.1 else {
            Issue.record("no polygon at z2")
            return
        }
        #expect(q[0][0].map(\.x).max() == 5120)
        #expect(q[0][0].map(\.y).max() == 5120)
        // −90° is the tile's left edge at z2 x=1.
        #expect(q[0][0].map(\.x).min() == 0)
    }

    /// A ring rewound to the MVT winding keeps its first vertex first (geojson-vt reverses the closed ring), so
    /// `symbol-placement: line` measures along it from the same corner as MapLibre.
    @Test func rewoundRingKeepsItsFirstVertex() throws {
        // Counter-clockwise in lon/lat from the south-west corner: clockwise on screen once reversed.
        let s = try source(#"{"type":"Polygon","coordinates":[[[-90,-60],[90,-60],[90,60],[-90,60],[-90,-60]]]}"#)
        let z0 = try decode(try #require(try s.tileData(at: TileID(z: 0, x: 0, y: 0))))
        guard case .polygons(let polys) = z0.first?.1 else {
            Issue.record("no polygon")
            return
        }
        let ring = polys[0][0]
        #expect(signedDoubleArea(ring) > 0)
        // South-west first, then north-west (up the west side), as the reversed closed ring runs.
        #expect(ring.count == 5)
        #expect(ring.first == ring.last)
        #expect(ring[0].x == 1024 && ring[0].y > 2048)
        #expect(ring[1].x == 1024 && ring[1].y < 2048)
        #expect(ring[2].x == 3072 && ring[2].y < 2048)
    }

    /// A GeometryCollection becomes one MVT feature per geometry kind, each with the feature's id and properties.
    @Test func geometryCollectionSplitsByKind() throws {
        let s = try source(
            #"{"type":"Feature","id":3,"properties":{"k":"v"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]},{"type":"LineString","coordinates":[[-90,0],[90,0]]},{"type":"Point","coordinates":[90,0]}]}}"#
        )
        let features = try decode(try #require(try s.tileData(at: TileID(z: 0, x: 0, y: 0))))
        #expect(features.count == 2)
        #expect(features.allSatisfy { $0.0.id == 3 && $0.0.properties["k"] == .string("v") })
        #expect(
            features[0].1 == .points([VectorTilePoint(x: 2048, y: 2048), VectorTilePoint(x: 3072, y: 2048)]))
        #expect(
            features[1].1 == .lineStrings([[VectorTilePoint(x: 1024, y: 2048), VectorTilePoint(x: 3072, y: 2048)]]))
    }

    /// A line leaving and re-entering the clip box comes out as two pieces.
    @Test func lineLeavingAndReenteringSplits() throws {
        // At z1 tile (0,0) the box spans x −1024…5120 in tile units; lon 0 is x = 4096, lon 90 is x = 6144 (outside).
        let s = try source(#"{"type":"LineString","coordinates":[[-45,60],[90,60],[90,70],[-45,70]]}"#)
        let f = try decode(try #require(try s.tileData(at: TileID(z: 1, x: 0, y: 0))))
        guard case .lineStrings(let lines)? = f.first?.1 else {
            Issue.record("no line")
            return
        }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains { $0.x == 5120 } })
    }

    @Test func tileAboveZoom24IsNil() throws {
        let s = try source(#"{"type":"Point","coordinates":[0,0]}"#, maxZoom: 30)
        #expect(s.maxZoom == 24)
        #expect(try s.tileData(at: TileID(z: 25, x: 1 << 24, y: 1 << 24)) == nil)
        #expect(try s.tileData(at: TileID(z: 24, x: 1 << 23, y: 1 << 23)) != nil)
    }
}

/// `lineMetrics: true`: every clipped piece carries where it starts and ends on the whole line, so `line-progress`
/// runs on across tile boundaries.
@Suite struct GeoJSONLineMetricsTests {
    func pieces(_ source: GeoJSONTileSource, _ address: TileID) throws -> [(
        start: Double, end: Double, points: [VectorTilePoint]
    )] {
        guard let bytes = try source.tileData(at: address),
            let layer = try VectorTile(bytes: bytes).layer(named: "_geojson")
        else { return [] }
        var diagnostics: [VectorTileDiagnostic] = []
        return try layer.decodeFeatures(diagnostics: &diagnostics).map { f in
            guard case .double(let s)? = f.properties["mapbox_clip_start"],
                case .double(let e)? = f.properties["mapbox_clip_end"],
                case .lineStrings(let lines) = try f.decodeGeometry(diagnostics: &diagnostics), lines.count == 1
            else { return (-1, -1, []) }
            return (s, e, lines[0])
        }
    }

    /// A line from 90° W to 90° E along the equator (world x 0.25…0.75) on the bottom edge of the z1 tiles (0, 0) and
    /// (1, 0); the buffer is a quarter tile (0.125 world units), so tile x = 0 keeps 0.25…0.625 and x = 1 keeps
    /// 0.375…0.75.
    @Test func piecesOnBothSidesOfATileBoundaryMeetInProgress() throws {
        let doc = try GeoJSONDocument.parse(
            bytes: Array(
                #"{"type":"Feature","properties":{"k":1},"geometry":{"type":"LineString","coordinates":[[-90,0],[90,0]]}}"#
                    .utf8))
        let s = GeoJSONTileSource(document: doc, lineMetrics: true)
        let left = try pieces(s, TileID(z: 1, x: 0, y: 0))
        let right = try pieces(s, TileID(z: 1, x: 1, y: 0))
        #expect(left.count == 1 && right.count == 1)
        // Fractions of the line's length 0.5: the left piece 0…0.75, the right one 0.25…1.
        #expect(abs(left[0].start) < 1e-9)
        #expect(abs(left[0].end - 0.75) < 1e-9)
        #expect(abs(right[0].start - 0.25) < 1e-9)
        #expect(abs(right[0].end - 1) < 1e-9)
        // The same ground point (the tile boundary, world x 0.5) maps to the same progress from both tiles:
        // progress = start + (end − start) × (distance along the piece / piece length).
        func progress(_ p: (start: Double, end: Double, points: [VectorTilePoint]), atTileX x: Double) -> Double {
            let x0 = Double(p.points[0].x)
            let x1 = Double(p.points[p.points.count - 1].x)
            return p.start + (p.end - p.start) * (x - x0) / (x1 - x0)
        }
        #expect(abs(progress(left[0], atTileX: 4096) - 0.5) < 1e-9)
        #expect(abs(progress(right[0], atTileX: 0) - 0.5) < 1e-9)
        // Without lineMetrics there are no such properties.
        let plain = GeoJSONTileSource(document: doc)
        let bytes = try #require(try plain.tileData(at: TileID(z: 1, x: 0, y: 0)))
        var diagnostics: [VectorTileDiagnostic] = []
        let f = try #require(
            try VectorTile(bytes: bytes).layer(named: "_geojson")?.decodeFeatures(diagnostics: &diagnostics).first)
        #expect(f.properties["mapbox_clip_start"] == nil)
        #expect(f.properties["k"] == .uint(1))
    }

    /// A line leaving and re-entering a tile gives two pieces, each with its own span.
    @Test func aLineCutTwiceGivesTwoSpans() throws {
        // World x 0.25 → 0.75 → 0.25 at two latitudes: a hairpin; at z0 with no buffer issue it stays one piece, at
        // z2 tile (1, 1) (x 0.25…0.5) the outgoing and returning legs are separate pieces.
        let doc = try GeoJSONDocument.parse(
            bytes: Array(#"{"type":"LineString","coordinates":[[-90,10],[90,10],[90,20],[-90,20]]}"#.utf8))
        let s = GeoJSONTileSource(document: doc, lineMetrics: true)
        let z0 = try pieces(s, TileID(z: 0, x: 0, y: 0))
        #expect(z0.count == 1)
        #expect(abs(z0[0].start) < 1e-9 && abs(z0[0].end - 1) < 1e-9)
        let z2 = try pieces(s, TileID(z: 2, x: 1, y: 1))
        #expect(z2.count == 2)
        #expect(z2.allSatisfy { $0.start < $0.end })
        #expect(z2[0].end < z2[1].start)
    }
}

import Foundation
import MapTestSupport
import Testing

@testable import GoogleMaps
@testable import GoogleMapsUtils

/// The google-maps-ios-utils fixtures (../shared/fixtures/google-maps-ios-utils).
enum UtilsFixtures {
    static let root = Fixtures.repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/google-maps-ios-utils")
    static let resources = root.appendingPathComponent("Tests/GoogleMapsUtilsSwiftTests/Resources")
    static var available: Bool { FileManager.default.fileExists(atPath: resources.path) }
    static func geoJSON(_ name: String) -> URL {
        resources.appendingPathComponent("GeoJSON/GeoJSON_\(name)_Test.geojson")
    }
    static func kml(_ name: String) -> URL { resources.appendingPathComponent("KML/KML_\(name)_Test.kml") }
}

func parsed(_ json: String) -> GMUGeoJSONParser {
    let parser = GMUGeoJSONParser(data: Data(json.utf8))
    parser.parse()
    return parser
}

@Suite(.enabled(if: UtilsFixtures.available, "needs ../shared/fixtures/google-maps-ios-utils"))
struct GeoJSONFixtureTests {
    func features(_ name: String) -> [GMUFeature] {
        let parser = GMUGeoJSONParser(url: UtilsFixtures.geoJSON(name))
        parser.parse()
        #expect(parser.error == nil, "\(parser.error.map { "\($0)" } ?? "")")
        return parser.features
    }

    @Test func point() {
        let f = features("Point")
        #expect(f.count == 1)
        let p = f[0].geometry as? GMUPoint
        #expect(p?.coordinate.latitude == 0.5 && p?.coordinate.longitude == 102)
        #expect(f[0].properties == nil && f[0].identifier == nil && f[0].boundingBox == nil)
    }

    @Test func lineStringAndMultiLineString() {
        let line = features("LineString")[0].geometry as! GMULineString
        #expect(
            line.path.count() == 2 && line.path.coordinate(at: 1).latitude == 1
                && line.path.coordinate(at: 1).longitude == 103)
        let multi = features("MultiLineString")[0].geometry as! GMUGeometryCollection
        #expect(multi.geometries.count == 2 && multi.geometries.allSatisfy { $0 is GMULineString })
        #expect((multi.geometries[1] as! GMULineString).path.coordinate(at: 0).longitude == 102)
    }

    @Test func polygonWithAHole() {
        let polygon = features("Polygon")[0].geometry as! GMUPolygon
        #expect(polygon.type == "Polygon" && polygon.paths.count == 2)
        #expect(polygon.paths[0].count() == 5 && polygon.paths[1].coordinate(at: 0).latitude == 12.5)
        let multi = features("MultiPolygon")[0].geometry as! GMUGeometryCollection
        #expect(
            multi.geometries.count == 2
                && (multi.geometries[1] as! GMUPolygon).paths[0].coordinate(at: 1).longitude == 101)
    }

    @Test func multiPointAndGeometryCollection() {
        let points = features("MultiPoint")[0].geometry as! GMUGeometryCollection
        #expect(points.geometries.map { ($0 as! GMUPoint).coordinate.longitude } == [100, 101])
        let collection = features("GeometryCollection")[0].geometry as! GMUGeometryCollection
        #expect(collection.geometries.map(\.type) == ["Point", "LineString"])
    }

    @Test func featureWithIdBboxAndProperties() {
        let f = features("Feature")
        #expect(f.count == 1)
        #expect(f[0].identifier == "Test Feature")
        #expect(f[0].properties?["description"] as? String == "A feature for unit testing")
        let bbox = f[0].boundingBox!
        #expect(bbox.southWest.latitude == -10 && bbox.southWest.longitude == -10)
        #expect(bbox.northEast.latitude == 10 && bbox.northEast.longitude == 10)
    }

    @Test func featureCollection() {
        let f = features("FeatureCollection")
        #expect(f.map(\.geometry.type) == ["Point", "LineString"])
        #expect(f[1].properties?["prop0"] as? String == "value0")
        #expect((f[1].properties?["prop1"] as? NSNumber)?.doubleValue == 0)
    }

    @Test func streamInput() throws {
        let stream = try #require(InputStream(url: UtilsFixtures.geoJSON("FeatureCollection")))
        let parser = GMUGeoJSONParser(stream: stream)
        parser.parse()
        #expect(parser.features.count == 2)
    }
}

@Suite struct GeoJSONErrorTests {
    @Test func invalidJSONNamesThePosition() {
        let p = parsed("{\"type\": \"Point\", \"coordinates\": [1, 2}")
        #expect(p.features.isEmpty)
        let e = try! #require(p.error)
        #expect(e.source == "data" && e.position == "line 1, column 39", "\(e)")
        #expect(e.reason == "not valid JSON: expected ',' or ']', found '}' (at character 38)", "\(e)")
        let trailingComma = parsed("{\n\"type\": \"Point\",\n\"coordinates\": [1, 2,]\n}")
        #expect(trailingComma.error?.position == "line 3, column 22", "\(String(describing: trailingComma.error))")
        #expect(trailingComma.error?.reason.contains("expected a value, found ']'") == true)
        #expect(parsed("{\"type\": \"Point\", \"coordinates\": [1, 2]} x").error?.reason.contains("after") == true)
        #expect(parsed("{\"type\": \"Po").error?.reason.contains("does not end") == true)
        #expect(parsed("").error?.reason.contains("the end of the document") == true)
        #expect(parsed("{\"type\": \"Point\", \"coordinates\": [01, 2]}").error?.position == "line 1, column 35")
    }

    @Test func deepArraysAreRefusedWithoutCrashing() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(parsed(json).error?.reason.contains("nest deeper than 256") == true)
    }

    @Test func propertiesAreFoundationValues() throws {
        let p = parsed(
            """
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties":
             {"s": "a\\u00e9\\"b\\ud83d\\ude00\\n", "n": 1.5, "i": -3, "big": 12345678901234567890, "t": true,
              "z": null, "a": [1, "x", {}], "o": {"k": 2}}}
            """)
        #expect(p.error == nil, "\(String(describing: p.error))")
        let props = try #require(p.features.first?.properties)
        #expect(props["s"] as? String == "a\u{e9}\"b\u{1F600}\n")
        #expect((props["n"] as? NSNumber)?.doubleValue == 1.5)
        #expect(props["i"] as? Int == -3)
        #expect((props["big"] as? NSNumber)?.doubleValue == 12345678901234567890.0)
        #expect(props["t"] as? Bool == true)
        #expect(props["z"] is NSNull)
        #expect((props["a"] as? [Any])?.count == 3 && (props["a"] as? [Any])?[1] as? String == "x")
        #expect((props["o"] as? [String: Any])?["k"] as? Int == 2)
        #expect(parsed("{\"type\": \"Feature\", \"geometry\": null, \"properties\": \"x\"}").error == nil)
        let wrong = parsed(
            "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}, \"properties\": 3}")
        #expect(
            wrong.error?.position == "$.properties" && wrong.error?.reason == "expected an object, found the number 3")
    }

    @Test func numbersReadAsSwiftReadsThem() throws {
        let literals = [
            "-122.4194155", "37.7749295", "0", "-0.0", "1e2", "1.5E-7", "0.1", "0.30000000000000004",
            "123456789012345678901234567890", "0.12345678901234567890123", "9007199254740993",
            "2.2250738585072014e-308",
            "179.99999999999997", "-90",
        ]
        let list = literals.map { "[\($0), \($0)]" }.joined(separator: ", ")
        let p = parsed("{\"type\": \"MultiPoint\", \"coordinates\": [\(list)]}")
        let points = try #require(p.features.first?.geometry as? GMUGeometryCollection).geometries
        #expect(points.count == literals.count)
        for (point, literal) in zip(points, literals) {
            #expect((point as? GMUPoint)?.coordinate.longitude == Double(literal), "\(literal)")
        }
    }

    /// A literal too large for a `Double` (`1e999` reads as infinity) is not a coordinate: the error names its
    /// position, whichever of the reader's shapes (pair, longer position, list of positions, general) held it.
    @Test func overflowingCoordinatesNameTheirPosition() {
        let cases: [(String, String)] = [
            ("{\"type\": \"Point\", \"coordinates\": [8.5, 1e999]}", "$.coordinates[1]"),
            ("{\"type\": \"Point\", \"coordinates\": [-1e999, 47, 3]}", "$.coordinates[0]"),
            ("{\"type\": \"LineString\", \"coordinates\": [[1e400, 2], [3, 4]]}", "$.coordinates[0][0]"),
            ("{\"type\": \"LineString\", \"coordinates\": [[1, 2], [3, 4, 5], [5, 1e999]]}", "$.coordinates[2][1]"),
            ("{\"type\": \"MultiPoint\", \"coordinates\": [[1, 2], [1e999, 4]]}", "$.coordinates[1][0]"),
            (
                "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1e999], [0, 0]]]}",
                "$.coordinates[0][2][1]"
            ),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": "
                    + "{\"type\": \"Point\", \"coordinates\": [8.5, 1e999]}}]}",
                "$.features[0].geometry.coordinates[1]"
            ),
        ]
        for (json, position) in cases {
            let p = parsed(json)
            #expect(p.features.isEmpty, "\(json)")
            #expect(p.error?.position == position, "\(json): \(String(describing: p.error))")
            #expect(p.error?.reason.hasSuffix("not a finite number") == true, "\(String(describing: p.error))")
        }
        // The largest finite Double still reads.
        #expect(parsed("{\"type\": \"Point\", \"coordinates\": [1.7976931348623157e308, 0]}").error == nil)
    }

    @Test func positionsInAnyFormAndOrder() throws {
        // Altitudes dropped; "coordinates" before "type"; white space everywhere.
        let p = parsed(
            "{ \"coordinates\" : [ [ 1 , 2 , 3 ] , [ 4 , 5 ] ] , \"type\" : \"LineString\" }")
        let line = try #require(p.features.first?.geometry as? GMULineString)
        #expect(line.path.count() == 2 && line.path.coordinate(at: 1).latitude == 5)
        let short = parsed("{\"type\": \"LineString\", \"coordinates\": [[1, 2], [3]]}")
        #expect(short.error?.position == "$.coordinates[1]" && short.error?.reason.contains("at least 2") == true)
        // A Point whose coordinates are a list of positions: one value where a position needs two numbers.
        let nested = parsed("{\"type\": \"Point\", \"coordinates\": [[1, 2]]}")
        #expect(nested.error?.position == "$.coordinates", "\(String(describing: nested.error))")
        #expect(nested.error?.reason == "a position needs at least 2 numbers, found 1")
        let bbox = parsed(
            "{\"type\": \"Feature\", \"bbox\": [[1, 2], [3, 4]], \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}}"
        )
        #expect(bbox.error?.position == "$.bbox[0]", "\(String(describing: bbox.error))")
        let ring = parsed("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, \"1\"], [0, 0]]]}")
        #expect(ring.error?.position == "$.coordinates[0][2][1]")
    }

    @Test func wrongTypesNameTheirPath() {
        let p = parsed(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": null},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, "x"]]}}
            ]}
            """)
        #expect(p.features.isEmpty, "a document is taken whole or not at all")
        #expect(p.error?.position == "$.features[1].geometry.coordinates[1][1]", "\(String(describing: p.error))")
        #expect(p.error?.reason == "expected a number, found the string \"x\"")
        #expect(parsed("{\"type\": \"Point\", \"coordinates\": [true, 2]}").error?.position == "$.coordinates[0]")
        #expect(parsed("{\"type\": \"Point\", \"coordinates\": [1]}").error?.reason.contains("at least 2") == true)
        #expect(
            parsed("{\"type\": \"Polygon\", \"coordinates\": {}}").error?.reason == "expected an array, found an object"
        )
        #expect(parsed("{\"type\": \"Blob\"}").error?.reason == "unknown geometry type \"Blob\"")
        #expect(parsed("[1, 2]").error?.position == "$")
        #expect(parsed("{\"type\": \"Feature\", \"id\": {}, \"geometry\": null}").error?.position == "$.id")
    }

    @Test func nullGeometriesAreSkippedAndNumbersBecomeIdentifiers() {
        let p = parsed(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": null, "properties": {}},
              {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [1, 2, 3]}}
            ]}
            """)
        #expect(p.error == nil && p.features.count == 1 && p.features[0].identifier == "7")
    }

    @Test func deepNestingIsRefused() {
        var json = "{\"type\": \"Point\", \"coordinates\": [0, 0]}"
        for _ in 0..<70 { json = "{\"type\": \"GeometryCollection\", \"geometries\": [\(json)]}" }
        #expect(parsed(json).error?.reason.contains("nest deeper than 64") == true)
    }

    @Test func unreadableFile() {
        let p = GMUGeoJSONParser(url: URL(fileURLWithPath: "/nonexistent/x.geojson"))
        p.parse()
        #expect(p.error?.source == "/nonexistent/x.geojson" && p.features.isEmpty)
    }
}

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
        #expect(e.source == "data" && e.position == "document")
        #expect(e.reason.contains("not valid JSON") && e.reason.contains("character"), "\(e)")
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

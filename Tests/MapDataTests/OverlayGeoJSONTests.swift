import Testing

@testable import MapData

/// The overlay GeoJSON reader behind `waymark snapshot --overlays` and `--markers` (docs/BEHAVIOUR.md D22).
@Suite struct OverlayGeoJSONTests {
    func json(_ text: String) throws -> GeoJSONValue { try GeoJSONValue.parse(text) }

    @Test func shapesKeepDocumentOrderAndSimplestyle() throws {
        let shapes = try OverlayGeoJSON.shapes(
            from: json(
                ##"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"stroke":"#f80","##
                    + #""stroke-width":5,"stroke-opacity":7},"geometry":{"type":"GeometryCollection","geometries":["#
                    + #"{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[1,2],[3,4,5]]},"#
                    + #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}]}}]}"#))
        #expect(shapes.count == 2)
        guard case .line(let line, let style) = shapes.first, case .polygon(let rings, _) = shapes.last else {
            Issue.record("\(shapes)")
            return
        }
        #expect(line == [GeoJSONPosition(longitude: 1, latitude: 2), GeoJSONPosition(longitude: 3, latitude: 4)])
        #expect(style.stroke == 0xFF_8800 && style.strokeWidth == 5 && style.strokeOpacity == 1)
        #expect(style.fill == 0x55_5555 && style.fillOpacity == 0.6)
        #expect(rings.count == 1 && rings[0].count == 4)
    }

    @Test func aFeatureWithoutGeometryIsNoShape() throws {
        // RFC 7946 §3.2 allows "geometry": null; it used to be refused as "unknown geometry type 'none'".
        #expect(try OverlayGeoJSON.shapes(from: json(#"{"type":"Feature","properties":{},"geometry":null}"#)).isEmpty)
    }

    @Test func markersAreThePointsOfAFeatureCollection() throws {
        let points = try OverlayGeoJSON.points(
            from: json(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"MultiPoint","#
                    + #""coordinates":[[1,2],[-360,-90]]}},{"type":"Feature","geometry":null},{"type":"Feature","#
                    + #""geometry":{"type":"LineString","coordinates":[[5,6],[7,8]]}}]}"#))
        #expect(
            points == [GeoJSONPosition(longitude: 1, latitude: 2), GeoJSONPosition(longitude: -360, latitude: -90)])
    }

    @Test(arguments: [
        (#"{"type":"Point","coordinates":[1,2]}"#, "not a GeoJSON FeatureCollection"),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1e308,0]}}]}"#,
            "feature 0: position [1e+308, 0.0] is outside ±360° longitude, ±90° latitude"
        ),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["1",0]}}]}"#,
            "feature 0: position is not [longitude, latitude]"
        ),
    ])
    func badMarkersAreRefusedNamingThePlace(text: String, message: String) throws {
        #expect(throws: OverlayGeoJSON.ReadError(message)) { try OverlayGeoJSON.points(from: json(text)) }
    }

    @Test(arguments: [
        (#"{"type":"MultiLineString","coordinates":{}}"#, "geometry: coordinates are not an array"),
        (#"{"type":"GeometryCollection"}"#, "geometry: geometries are not an array"),
        (#"{"type":"Polygon","coordinates":[]}"#, "geometry: polygon without rings"),
        (#"{"type":"LineString","coordinates":[[0,91]]}"#, "geometry: position 0 [0.0, 91.0] is outside"),
        (#"{"features":[]}"#, "not a GeoJSON object (no \"type\")"),
    ])
    func badShapesAreRefusedNamingThePlace(text: String, message: String) throws {
        #expect {
            try OverlayGeoJSON.shapes(from: json(text))
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}

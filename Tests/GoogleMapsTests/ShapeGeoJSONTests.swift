import Foundation
import Testing

@testable import GoogleMaps
@testable import LinuxUIKit

/// GeoJSON → shapes for the hosts (`waymark snapshot --overlays`, `map-viewer --overlays`).
@MainActor @Suite struct ShapeGeoJSONTests {
    /// The shapes of `text` written to a temporary file.
    func shapes(_ text: String) throws -> [GMSOverlay] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shapes-\(UUID().uuidString).geojson")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try GeoJSONShapes.shapes(fromFile: url.path)
    }

    @Test func linesAndPolygonsWithSimplestyleProperties() throws {
        let shapes = try shapes(
            """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"stroke":"#f00","stroke-width":6},
              "geometry":{"type":"LineString","coordinates":[[24.93,60.17],[24.96,60.17]]}},
             {"type":"Feature","properties":{"fill":"#00ff00","fill-opacity":0.25,"stroke":"#0000ff"},
              "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.1],[0.8,0.1],[0.8,0.2],[0.2,0.1]]]}},
             {"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}},
             {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}}
            ]}
            """)
        #expect(shapes.count == 4)
        let line = try #require(shapes[0] as? GMSPolyline)
        #expect(line.strokeColor == UIColor(red: 1, green: 0, blue: 0, alpha: 1) && line.strokeWidth == 6)
        #expect(line.path?.count() == 2 && line.path?.coordinate(at: 0).longitude == 24.93)
        let polygon = try #require(shapes[1] as? GMSPolygon)
        #expect(polygon.fillColor == UIColor(red: 0, green: 1, blue: 0, alpha: 0.25))
        #expect(polygon.strokeColor == UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(polygon.holes?.count == 1)
        // simplestyle defaults: #555555, width 2.
        let plain = try #require(shapes[2] as? GMSPolyline)
        #expect(
            plain.strokeWidth == 2
                && plain.strokeColor == UIColor(red: 0x55 / 255.0, green: 0x55 / 255.0, blue: 0x55 / 255.0, alpha: 1))
    }

    @Test func badDocumentsAreErrorsNamingTheFileAndPlace() throws {
        for (text, fragment) in [
            ("[1, 2]", "not a GeoJSON object"),
            (#"{"type":"LineString","coordinates":[[1,"x"]]}"#, "position 0"),
            (#"{"type":"Polygon","coordinates":[]}"#, "polygon without rings"),
            (#"{"type":"Blob"}"#, "unknown geometry type 'Blob'"),
        ] {
            #expect {
                try shapes(text)
            } throws: { error in
                "\(error)".contains(fragment) && "\(error)".contains(".geojson")
            }
        }
        #expect(throws: GeoJSONShapes.LoadError.self) { try GeoJSONShapes.shapes(fromFile: "/nonexistent/x.geojson") }
    }
}

import Testing

@testable import MapData

/// simplestyle properties of `--overlays` and `--markers` files: values that cannot be used are replaced (the
/// default, or clamped) and each is named in one warning (feature, property, value, what is drawn instead).
@Suite struct SimplestylePropertyTests {
    func json(_ text: String) throws -> GeoJSONValue { try GeoJSONValue.parse(text) }

    func style(_ properties: String) throws -> (OverlayGeoJSON.ShapeStyle, [String]) {
        var warnings: [String] = []
        let style = OverlayGeoJSON.ShapeStyle(properties: try json(properties), place: "feature 4", warnings: &warnings)
        return (style, warnings)
    }

    @Test func usableValuesAreTakenWithoutAWord() throws {
        let (s, warnings) = try style(
            ##"{"stroke":"#0a0","stroke-width":100,"stroke-opacity":0,"fill":"123456","fill-opacity":1,"title":3}"##)
        #expect(warnings == [])
        #expect(s.stroke == 0x00_AA00 && s.strokeWidth == 100 && s.strokeOpacity == 0)
        #expect(s.fill == 0x12_3456 && s.fillOpacity == 1)
        #expect(try style(#"{"stroke":null,"stroke-width":null}"#) == (OverlayGeoJSON.ShapeStyle(), []))
    }

    @Test func unusableValuesTakeTheirFallbackAndAreNamed() throws {
        let (s, warnings) = try style(
            #"{"stroke":"red","stroke-width":250,"stroke-opacity":-1,"fill":7,"fill-opacity":"x"}"#)
        #expect(s.stroke == 0x55_5555 && s.strokeWidth == 100 && s.strokeOpacity == 0)
        #expect(s.fill == 0x55_5555 && s.fillOpacity == 0.6)
        #expect(
            warnings == [
                #"feature 4: "stroke" "red" is not a #rgb or #rrggbb colour; drawn in the default #555555"#,
                #"feature 4: "stroke-width" 250 is more than 100; drawn 100 points wide"#,
                #"feature 4: "stroke-opacity" -1 is outside 0…1; drawn at 0"#,
                #"feature 4: "fill" 7 is not a #rgb or #rrggbb colour; drawn in the default #555555"#,
                #"feature 4: "fill-opacity" "x" is not a number; drawn at the default 0.6"#,
            ])
        let (negative, said) = try style(#"{"stroke-width":-0.5}"#)
        #expect(
            negative.strokeWidth == 2
                && said == [#"feature 4: "stroke-width" -0.5 is negative; drawn 2 points wide (the default)"#])
    }

    @Test func aFeatureIsReadOnceWhateverItsGeometries() throws {
        // A MultiLineString in a GeometryCollection: two shapes, one warning.
        var warnings: [String] = []
        let shapes = try OverlayGeoJSON.shapes(
            from: json(
                #"{"type":"Feature","properties":{"stroke-width":-1},"geometry":{"type":"GeometryCollection","#
                    + #""geometries":[{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}]}}"#),
            warnings: &warnings)
        #expect(shapes.count == 2)
        #expect(warnings == [#"feature: "stroke-width" -1 is negative; drawn 2 points wide (the default)"#])
    }

    @Test func markersReadColourSizeAndSymbol() throws {
        var warnings: [String] = []
        let markers = try OverlayGeoJSON.markers(
            from: json(
                #"{"type":"FeatureCollection","features":["#
                    + ##"{"type":"Feature","properties":{"marker-color":"#00f","marker-size":"small","marker-symbol":"a"},"##
                    + #""geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}},"#
                    + ##"{"type":"Feature","properties":{"marker-color":"#12345","marker-symbol":7},"##
                    + #""geometry":{"type":"Point","coordinates":[5,6]}},"#
                    + ##"{"type":"Feature","properties":{"marker-color":"#f00"},"##
                    + #""geometry":{"type":"LineString","coordinates":[[5,6],[7,8]]}}]}"#),
            warnings: &warnings)
        #expect(markers.map(\.style.color) == [0x00_00FF, 0x00_00FF, 0xEA_4335])
        #expect(markers.map(\.style.size) == [.small, .small, .medium])
        #expect(markers.map(\.style.size.radius) == [4, 4, 6])
        #expect(markers.map(\.style.symbol) == ["a", "a", "7"])
        #expect(
            markers.map(\.position)
                == (try OverlayGeoJSON.points(
                    from: json(
                        #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]}}]}"#
                    ))))
        #expect(
            warnings == [
                ##"feature 1: "marker-color" "#12345" is not a #rgb or #rrggbb colour; drawn in the default #ea4335"##,
                #"feature 0: "marker-symbol" "a" is not drawn (markers are plain circles); nor are the symbols of 1 more feature"#,
            ])
    }
}

import MapData
import MapGeometry
import MapJSON
import MapStyle
import Testing

@testable import MapPipeline

/// Array and object properties of a GeoJSON source reach expressions as arrays and objects, as in MapLibre Native
/// (render tests `text-offset/property-function`, `text-variable-anchor-offset/databind-coalesce`).
@Suite struct GeoJSONPropertyValueTests {
    func feature(_ properties: String) throws -> TileFeature {
        let text =
            #"{"type":"Feature","properties":"# + properties
            + #","geometry":{"type":"Point","coordinates":[0,0]}}"#
        let source = GeoJSONTileSource(document: try GeoJSONDocument.parse(bytes: Array(text.utf8)))
        let bytes = try #require(try source.tileData(at: TileID(z: 0, x: 0, y: 0)))
        var diagnostics: [VectorTileDiagnostic] = []
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "_geojson"))
        let f = try #require(layer.decodeFeatures(diagnostics: &diagnostics).first)
        #expect(diagnostics.isEmpty)
        return TileFeature(feature: f)
    }

    @Test func arrayPropertyReadsBackAsArray() throws {
        let f = try feature(#"{"offset":[1,2.5],"name":"[1,2]"}"#)
        #expect(f.styleProperty("offset") == .array([.number(1), .number(2.5)]))
        // A string that looks like JSON stays a string.
        #expect(f.styleProperty("name") == .string("[1,2]"))
        #expect(f.styleProperties["offset"] == .array([.number(1), .number(2.5)]))
    }

    @Test func objectPropertyReadsBackAsObject() throws {
        let f = try feature(#"{"o":{"a":[true,null],"b":"x"}}"#)
        #expect(f.styleProperty("o") == .object(["a": .array([.boolean(true), .null]), "b": .string("x")]))
    }

    @Test func getOfArrayPropertyGivesTheArray() throws {
        let f = try feature(#"{"offset":[1,2]}"#)
        let expression = try StyleExpression.compile(.array([.string("get"), .string("offset")]))
        #expect(try expression.evaluate(EvaluationContext(zoom: 0, feature: f)) == .array([.number(1), .number(2)]))
    }
}

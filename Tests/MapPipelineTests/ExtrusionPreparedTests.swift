import MapData
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// The values a fill-extrusion layer keeps with a tile's prepared draws (``ExtrusionFeatureCache``).
@Suite struct ExtrusionPreparedTests {
    private let layers = """
        {"id": "b", "type": "fill-extrusion", "source": "t", "source-layer": "shapes",
         "paint": {"fill-extrusion-height": ["to-number", ["get", "h"]],
                   "fill-extrusion-base": ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 10],
                   "fill-extrusion-color": ["interpolate", ["linear"], ["zoom"], 0, "#ff0000", 10, "#0000ff"]}}
        """

    /// The layer's draws of one square (100…300 tile units, wound as the spec's outer rings) with `h` = 20, its
    /// contexts at `zoom`.
    private func draws(zoom: Double) throws -> [TileDraw] {
        let bytes = MVTWriter(layers: [
            (
                "shapes",
                [.init(geometry: .polygon([(100, 100), (300, 100), (300, 300), (100, 300)]), properties: ["h": "20"])]
            )
        ]).encode()
        var diagnostics: [VectorTileDiagnostic] = []
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "shapes"))
        let feature = try #require(layer.decodeFeatures(diagnostics: &diagnostics).first)
        let geometry = try feature.decodeGeometry(diagnostics: &diagnostics)
        var ctx = EvaluationContext(zoom: zoom)
        ctx.feature = TileFeature(feature: feature)
        return [
            TileDraw(
                feature: PreparedFeature(feature: feature, geometry: geometry, labels: nil), context: ctx,
                kind: .feature
            )
        ]
    }

    @Test func aFeatureKeepsItsHeightBaseColourBoundsAndWindingAtTheDrawsZoom() throws {
        let layer = CompiledLayer(try testStyle(layers: layers).layers[0], index: 0)
        let cache = ExtrusionFeatureCache()
        let key = TileDrawKey(layer: 0, tile: TileID(z: 0, x: 0, y: 0), zoom: 5)
        let fives = try draws(zoom: 5)
        let feature = try #require(cache.features(layer, key: key, draws: fives).first)
        #expect(feature.draw == 0 && feature.extent == 4096)
        #expect(feature.height == 20 && feature.base == 5)
        #expect(feature.color.red == 0.5 && feature.color.blue == 0.5 && feature.color.green == 0)
        let polygon = try #require(feature.polygons.first)
        #expect(feature.polygons.count == 1)
        #expect(polygon.minX == 100 && polygon.minY == 100 && polygon.maxX == 300 && polygon.maxY == 300)
        #expect(polygon.winding == 80_000)
        // The same draws again: the kept values.
        #expect(cache.features(layer, key: key, draws: fives).first?.base == 5)
        // Draws prepared anew under the same key (another array): evaluated again, not the kept values.
        let tens = try draws(zoom: 10)
        let again = try #require(cache.features(layer, key: key, draws: tens).first)
        #expect(again.base == 10 && again.color.blue == 1 && again.color.red == 0)
    }
}

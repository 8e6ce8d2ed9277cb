import MapStyle
import Testing

/// The heatmap, hillshade and fill-extrusion layers and `raster-dem` sources (style spec "Layers", "Sources ›
/// raster-dem").
@Suite struct LayerTypeStyleTests {
    static func style(_ sources: String, _ layers: String) throws -> Style {
        try Style.parse(
            bytes: Array(#"{"version": 8, "sources": \#(sources), "layers": \#(layers)}"#.utf8), baseDirectory: "/s")
    }

    @Test func theThreeLayerTypesLoadWithTheirProperties() throws {
        let s = try Self.style(
            #"{"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"]}, "d": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"], "encoding": "terrarium", "tileSize": 256}}"#,
            #"""
            [{"id": "h", "type": "heatmap", "source": "v", "source-layer": "poi",
              "paint": {"heatmap-radius": ["get", "r"], "heatmap-intensity": 0.5,
                        "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "blue", 1, "red"]}},
             {"id": "s", "type": "hillshade", "source": "d",
              "paint": {"hillshade-exaggeration": 0.8, "hillshade-illumination-anchor": "map"}},
             {"id": "b", "type": "fill-extrusion", "source": "v", "source-layer": "building",
              "paint": {"fill-extrusion-height": ["get", "render_height"], "fill-extrusion-color": "#aaa"}}]
            """#)
        #expect(s.errors.isEmpty, "\(s.errors)")
        #expect(s.diagnostics.isEmpty, "\(s.diagnostics)")
        #expect(s.layers.map(\.type) == [.heatmap, .hillshade, .fillExtrusion])
        guard case .raster(let dem)? = s.sources["d"] else {
            Issue.record("raster-dem source missing")
            return
        }
        #expect(dem.demEncoding == .terrarium && dem.tileSize == 256)
        let heatmap = try #require(s.layer(id: "h"))
        #expect(heatmap.property("heatmap-radius")?.isFeatureConstant == false)
        #expect(heatmap.property("heatmap-weight")?.number(EvaluationContext(zoom: 3)) == 1)
        var ctx = EvaluationContext(zoom: 3)
        ctx.heatmapDensity = 1
        #expect(heatmap.property("heatmap-color")?.color(ctx) == StyleColor(css: "red"))
        let shade = HillshadePaint(layer: try #require(s.layer(id: "s")), zoom: 5)
        #expect(shade.exaggeration == 0.8 && !shade.anchorsToViewport && shade.illuminationDirection == 335)
        #expect(shade.highlightColor == .white && shade.shadowColor == .black)
        let building = try #require(s.layer(id: "b"))
        #expect(building.property("fill-extrusion-base")?.number(ctx) == 0)
        #expect(building.property("fill-extrusion-vertical-gradient")?.boolean(ctx) == true)
    }

    @Test func theDefaultHeatmapRampGoesFromTransparentBlueToRed() {
        var ctx = EvaluationContext(zoom: 0)
        ctx.heatmapDensity = 0
        #expect(StyleProperty.defaultHeatmapColor.color(ctx).alpha == 0)
        ctx.heatmapDensity = 1
        #expect(StyleProperty.defaultHeatmapColor.color(ctx) == StyleColor(css: "red"))
        ctx.heatmapDensity = 0.5
        #expect(StyleProperty.defaultHeatmapColor.color(ctx) == StyleColor(css: "lime"))
    }

    @Test func aHillshadeNeedsARasterDEMSourceAndADEMSourceOnlyFeedsHillshades() throws {
        let s = try Self.style(
            #"{"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"]}, "d": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"]}, "r": {"type": "raster", "tiles": ["r/{z}/{x}/{y}.png"]}}"#,
            #"""
            [{"id": "a", "type": "hillshade", "source": "v", "source-layer": "x"},
             {"id": "b", "type": "hillshade", "source": "r"},
             {"id": "c", "type": "raster", "source": "d"},
             {"id": "ok", "type": "hillshade", "source": "d"}]
            """#)
        #expect(s.layers.map(\.id) == ["ok"])
        #expect(Set(s.errors.map(\.path)) == ["layers[0]", "layers[1]", "layers[2]"])
        guard case .raster(let dem)? = s.sources["d"] else { return }
        #expect(dem.demEncoding == .mapbox)
    }

    @Test func anUnknownDEMEncodingIsAnErrorAndReadsAsMapbox() throws {
        let s = try Self.style(
            #"{"d": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"], "encoding": "rgb"}}"#, "[]")
        #expect(s.errors.map(\.path) == ["sources.d.encoding"])
        guard case .raster(let dem)? = s.sources["d"] else { return }
        #expect(dem.demEncoding == .mapbox)
    }

    @Test(arguments: [
        // Mapbox Terrain-RGB: -10000 + (R·65536 + G·256 + B)·0.1.
        (DEMEncoding.mapbox, UInt8(1), UInt8(134), UInt8(160), 0.0),
        (DEMEncoding.mapbox, UInt8(0), UInt8(0), UInt8(0), -10_000.0),
        // Terrarium: R·256 + G + B/256 - 32768.
        (DEMEncoding.terrarium, UInt8(128), UInt8(0), UInt8(0), 0.0),
        (DEMEncoding.terrarium, UInt8(129), UInt8(44), UInt8(128), 300.5),
    ])
    func demEncodingsDecodeMetres(encoding: DEMEncoding, r: UInt8, g: UInt8, b: UInt8, metres: Double) {
        #expect(abs(encoding.elevation(red: r, green: g, blue: b) - metres) < 1e-6)
    }
}

import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// `linePaint(_:_:)`: which ``LinePaint`` a line layer's properties become, as drawn through the pipeline.
@Suite struct LinePaintPipelineTests {
    /// One horizontal road across tile 0/0/0 (y = 128 points at zoom 0).
    let roadTile = MVTWriter(layers: [
        ("roads", [.init(geometry: .line([(0, 2048), (4096, 2048)]), properties: ["kind": "dot"])])
    ]).encode()

    func paints(_ layers: String, zoom: Double, tile: [UInt8]? = nil, sprite: Bool = false) throws -> [LinePaint] {
        let r = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile ?? roadTile],
            options: vectorOnly, backend: RecordingBackend())
        if sprite {
            // A 4 × 2 sheet whose right half is a 2 × 2 "dot".
            let index = SpriteIndex(
                json: try JSONValue.parse(#"{"dot": {"x": 2, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#))
            r.setSprite(
                SpriteSheet(
                    image: RasterImage(width: 4, height: 2, pixels: [UInt8](repeating: 255, count: 32)), index: index))
        }
        return r.displayList(camera: camera(zoom: zoom)).commands.compactMap {
            if case .lineMesh(let m) = $0 { return m.paint }
            return nil
        }
    }

    /// Dashes are measured in the width at the integer zoom, scaled by the zoom fraction; their edges are half a device
    /// pixel soft, one pixel at a whole zoom (MapLibre's cross-fade scales).
    @Test func dashesUseTheFloorWidthAndZoomScale() throws {
        let layer = """
            {"id": "d", "type": "line", "source": "t", "source-layer": "roads",
             "layout": {"line-cap": "round"},
             "paint": {"line-color": "#ff0000", "line-width": ["interpolate", ["linear"], ["zoom"], 0, 2, 1, 6],
                       "line-dasharray": [2, 1]}}
            """
        let fractional = try paints(layer, zoom: 0.5)
        guard case .dashed(let color, let dash)? = fractional.first else {
            Issue.record("expected a dashed paint, got \(fractional)")
            return
        }
        #expect(color == RGBAColor(red: 1, green: 0, blue: 0))
        let k = 2.0.squareRoot()
        #expect(abs(dash.unit - 2 * k) < 1e-9)  // width 2 at zoom 0, not 4 at zoom 0.5
        #expect(abs(dash.edge - 255 / 512 * k) < 1e-9)
        #expect(dash.round)
        guard case .dashed(_, let whole)? = try paints(layer, zoom: 0).first else {
            Issue.record("expected a dashed paint")
            return
        }
        #expect(abs(whole.edge - 255 / 256) < 1e-9)
    }

    /// A pattern wins over dashes and colour; its period is the image width, its outset half the width plus half a
    /// device pixel. A pattern the sprite lacks draws nothing.
    @Test func patternsComeFromTheSprite() throws {
        let layer = """
            {"id": "p", "type": "line", "source": "t", "source-layer": "roads",
             "paint": {"line-width": 4, "line-pattern": ["get", "kind"], "line-dasharray": [1, 1]}}
            """
        let found = try paints(layer, zoom: 0, sprite: true)
        guard case .pattern(let p)? = found.first else {
            Issue.record("expected a pattern paint, got \(found)")
            return
        }
        #expect(p.to.image.width == 2 && p.to.image.height == 2)
        #expect(p.to.length == 2)
        #expect(p.outset == 2.5)
        #expect(p.color(distance: 0.5, across: 0).alpha == 1)
        #expect(try paints(layer, zoom: 0, sprite: false).isEmpty)
    }

    /// `line-gradient` is sampled over `line-progress` (not folded to a constant), and a tile piece's
    /// `mapbox_clip_start/end` maps the mesh's own progress onto the whole line.
    @Test func gradientsFollowTheLineMetrics() throws {
        let tile = MVTEncoder.encode(layers: [
            (
                name: "roads", extent: 4096,
                features: [
                    MVTEncoderFeature(
                        geometry: .lineStrings([[VectorTilePoint(x: 0, y: 2048), VectorTilePoint(x: 4096, y: 2048)]]),
                        properties: [
                            (key: "mapbox_clip_start", value: .double(0.25)),
                            (key: "mapbox_clip_end", value: .double(0.75)),
                        ])
                ]
            )
        ])
        let layer = """
            {"id": "g", "type": "line", "source": "t", "source-layer": "roads",
             "paint": {"line-width": 4, "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]}}
            """
        let found = try paints(layer, zoom: 0, tile: tile)
        guard case .gradient(let g)? = found.first else {
            Issue.record("expected a gradient paint, got \(found)")
            return
        }
        #expect(g.clipStart == 0.25 && g.clipEnd == 0.75)
        let start = LinePaint.gradient(g).color(at: LineFragment(distance: 0, across: 0, progress: 0))
        #expect(abs(start.red - 0.75) < 0.01 && abs(start.blue - 0.25) < 0.01)
        // Without metrics the mesh is the whole line.
        guard case .gradient(let plain)? = try paints(layer, zoom: 0).first else {
            Issue.record("expected a gradient paint")
            return
        }
        #expect(plain.clipStart == 0 && plain.clipEnd == 1)
        #expect(plain.color(progress: 1) == RGBAColor(red: 0, green: 0, blue: 1))
    }
}

/// Over-zoomed line pieces keep their distance along the ancestor's line through a collinear lead-in.
@Test func overzoomedLinePiecesKeepTheirDistanceAlongTheLine() throws {
    // Ancestor line along y = 2048 from x = 0 to 4096; at scale 2 the right-hand child (offset 1, 0) sees it from
    // x = −64 (buffer) to 4096, having entered 4096 − 64 = 4032 units along the line (in child units, 2 × 2048 − 64).
    let line = [VectorTilePoint(x: 0, y: 2048), VectorTilePoint(x: 4096, y: 2048)]
    let plan = try #require(overzoomPlan(for: TileID(z: 1, x: 1, y: 0), minZoom: 0, maxZoom: 0))
    let pieces = overzoomLinesKeepingDistance([line], transform: plan, extent: 4096, buffer: 64)
    #expect(
        pieces == [
            [VectorTilePoint(x: -4096, y: 4096), VectorTilePoint(x: -64, y: 4096), VectorTilePoint(x: 4096, y: 4096)]
        ])
    // The left child sees the start of the line: no lead-in, cut at the buffer.
    let left = try #require(overzoomPlan(for: TileID(z: 1, x: 0, y: 0), minZoom: 0, maxZoom: 0))
    #expect(
        overzoomLinesKeepingDistance([line], transform: left, extent: 4096, buffer: 64) == [
            [VectorTilePoint(x: 0, y: 4096), VectorTilePoint(x: 4160, y: 4096)]
        ])
    // A line leaving and re-entering gives two pieces, the second with a lead-in as long as everything before it.
    let hairpin = [
        VectorTilePoint(x: 1000, y: 100), VectorTilePoint(x: 3000, y: 100), VectorTilePoint(x: 3000, y: 200),
        VectorTilePoint(x: 1000, y: 200),
    ]
    let cut = overzoomLinesKeepingDistance([hairpin], transform: left, extent: 4096, buffer: 0)
    #expect(cut.count == 2)
    // Second piece enters at x = 4096 going west after 2 × (2000 + 100) + 2 × (3000 − 2048) = 6104 child units.
    #expect(cut.last?.first == VectorTilePoint(x: 4096 + 6104, y: 400))
    #expect(cut.last?[1] == VectorTilePoint(x: 4096, y: 400))
    // Degenerate input draws nothing and does not trap.
    #expect(overzoomLinesKeepingDistance([[line[0]]], transform: plan, extent: 4096, buffer: 64).isEmpty)
}

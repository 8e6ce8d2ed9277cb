import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// One source tile 0/0/0: a square (1024…3072 tile units), a horizontal road through the middle, a point.
/// At zoom 0 in a 256-point view centred on (0°, 0°) a tile unit is 1/16 point, so the square spans 64…192 points,
/// the road y = 128 and the point (128, 64).
private let sceneTile: [UInt8] = MVTWriter(layers: [
    (
        "shapes",
        [
            .init(
                geometry: .polygon([(1024, 1024), (3072, 1024), (3072, 3072), (1024, 3072)]),
                properties: ["kind": "park"])
        ]
    ),
    ("roads", [.init(geometry: .line([(0, 2048), (4096, 2048)]), properties: ["name": "Main"])]),
    ("pois", [.init(geometry: .point(2048, 1024), properties: ["name": "Cafe"], id: 7)]),
]).encode()

private let sceneLayers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
    {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}},
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#0000ff", "line-width": 2}},
    {"id": "poi", "type": "circle", "source": "t", "source-layer": "pois", "paint": {"circle-radius": 3, "circle-color": "#00ff00"}}
    """

@Test func flatFrameDisplayListSnapshot() throws {
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: vectorOnly, backend: backend)
    let list = r.displayList(camera: camera(zoom: 0))
    let expected = """
        DisplayList 256x256 @1x (11 commands)
          clear #ffffffff
          save
            clip (0,0 256x256)
            fill #ff0000ff rule=evenodd path{1 sub, 4 pts, bounds=(64,64 128x128): M(64,64) (192,64) (192,192) (64,192) Z}
            line-mesh #ff0000ff width=1 mesh{16 verts, 8 tris, centers=(64,64 128x128)}
          restore
          save
            clip (0,0 256x256)
            line-mesh #0000ffff width=2 mesh{4 verts, 2 tris, centers=(0,128 256x0)}
          restore
          circle center=(128,64) r=3 fill=#00ff00ff

        """
    #expect(list.description == expected)
}

@Test func overzoomedSourceDrawsTheSameGroundAtHigherZoom() throws {
    // Zoom 1 in a 512-point view: the world is 512 points, so the square spans 128…384; four z1 tiles each draw the
    // quarter of the z0 source tile they over-zoom, with at most a 1-point overlap buffer.
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: vectorOnly, backend: backend)
    let list = r.displayList(camera: camera(zoom: 1, size: 512))
    var minX = Double.infinity
    var maxX = -Double.infinity
    var fills = 0
    for case .fill(let f) in list.commands {
        fills += 1
        let b = try #require(f.path.bounds)
        minX = min(minX, b.minX)
        maxX = max(maxX, b.maxX)
    }
    #expect(fills == 4)
    #expect(minX == 128)
    #expect(maxX == 384)
    #expect(r.lastFrameStatistics.tiles == 4)
    #expect(r.lastFrameStatistics.tilesDecoded == 1)
}

@Test func filtersZoomRangesAndVisibilityDropLayers() throws {
    let layers = """
        {"id": "a", "type": "fill", "source": "t", "source-layer": "shapes", "filter": ["==", ["get", "kind"], "water"], "paint": {"fill-color": "#ff0000"}},
        {"id": "b", "type": "fill", "source": "t", "source-layer": "shapes", "minzoom": 3, "paint": {"fill-color": "#ff0000"}},
        {"id": "c", "type": "fill", "source": "t", "source-layer": "shapes", "layout": {"visibility": "none"}, "paint": {"fill-color": "#ff0000"}},
        {"id": "d", "type": "fill", "source": "t", "source-layer": "shapes", "filter": ["==", "kind", "park"], "paint": {"fill-color": ["match", ["get", "kind"], "park", "#00ff00", "#000000"]}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let fills = r.displayList(camera: camera(zoom: 0)).commands.compactMap { c -> FillCommand? in
        if case .fill(let f) = c { return f }
        return nil
    }
    #expect(fills.count == 1)
    #expect(fills.first?.color == RGBAColor(red: 0, green: 1, blue: 0))
}

@Test func labelsAreDrawnOnceAcrossTileBoundaries() throws {
    // The point sits on the boundary between the four z2 tiles that over-zoom the z0 tile; each tile's buffer holds
    // a copy, but only one label may be drawn.
    let tile = MVTWriter(layers: [("pois", [.init(geometry: .point(2048, 2048), properties: ["name": "Centre"])])])
        .encode()
    let layers = """
        {"id": "label", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": ["get", "name"], "text-size": 12}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
        backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 2, size: 512))
    let texts = textCommands(list)
    #expect(texts.map(\.text) == ["Centre"])
    #expect(texts.first?.position == ScreenPoint(x: 256, y: 256))
    #expect(r.lastFrameStatistics.tiles == 4)
}

@Test func pointLabelsStayUprightUnderBearingAndPitch() throws {
    let layers = """
        {"id": "label", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": ["get", "name"], "text-size": 12}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 1, size: 512, bearing: 45, pitch: 40))
    let texts = textCommands(list)
    // The label, and near the top of the view its copy in the next world (MapLibre labels every world copy's tiles).
    #expect(texts.map(\.text) == ["Cafe", "Cafe"])
    #expect(texts.count == 2 && texts[0].position.y - texts[1].position.y > 100)
    #expect(texts.allSatisfy { $0.rotation == 0 })
}

@Test func pitchedFramesClipAtTheNearPlaneAndDropGroundBeyondTheHorizon() throws {
    // A square covering the whole world, seen at the largest pitch: every projected vertex must be finite and lie
    // below the horizon line (v = −D·cot p from the optical centre).
    let tile = MVTWriter(layers: [
        ("shapes", [.init(geometry: .polygon([(0, 0), (4096, 0), (4096, 4096), (0, 4096)]))])
    ])
    .encode()
    let layers = """
        {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
        backend: RecordingBackend())
    let cam = camera(zoom: 3, size: 400, pitch: 65)
    let list = r.displayList(camera: cam)
    let t = cam.transform
    let horizon = t.opticalCenter.y + t.horizonOffset
    var points = 0
    for case .fill(let f) in list.commands {
        for i in 0..<f.path.pointCount {
            let p = f.path.point(at: i)
            #expect(p.x.isFinite && p.y.isFinite)
            #expect(p.y > horizon)
            points += 1
        }
    }
    #expect(points > 0)
}

@Test func flatFramesComposeCachedTileImagesAndReuseThemWhenPanning() throws {
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: MapRenderOptions(tileSize: 256, drawsAttribution: false), backend: backend)
    var cam = camera(zoom: 1.5, size: 300)
    let first = r.displayList(camera: cam)
    #expect(r.lastFrameStatistics.composedFromTileImages)
    // Two runs (the circle layer forms its own): the fill and road in all four tiles, the circle in the two that
    // hold the point.
    #expect(r.lastFrameStatistics.tileImagesRendered == 6)
    #expect(first.commands.contains { if case .image = $0 { return true } else { return false } })
    // Tile images are 256-point squares drawn 2^0.5 times larger at zoom 1.5.
    for case .image(let i) in first.commands {
        #expect(abs(i.rect.width - 256 * 2.0.squareRoot()) <= 1)
    }
    cam.center = LatLng(latitude: 10, longitude: 10)
    _ = r.displayList(camera: cam)
    #expect(r.lastFrameStatistics.tileImagesRendered == 0)
    // Four tiles × two runs, the circle-less tiles' runs remembered as empty.
    #expect(r.lastFrameStatistics.tileImagesReused == 8)
    r.invalidate()
    _ = r.displayList(camera: cam)
    #expect(r.lastFrameStatistics.tileImagesRendered == 6)
}

@Test func attributionNamesTheSourcesInView() throws {
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: MapRenderOptions(usesTileImageCache: false), backend: backend)
    let list = r.displayList(camera: camera(zoom: 0))
    guard case .text(let t) = list.commands.last else {
        Issue.record("the last command is not the attribution text")
        return
    }
    #expect(t.text == "© OpenStreetMap contributors · Test source")
    #expect(t.anchor == .bottomLeft)
    #expect(t.position.x < 20 && t.position.y > 240)
    // No tiles in the source: only the base attribution remains.
    let empty = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [:], options: MapRenderOptions(usesTileImageCache: false),
        backend: RecordingBackend())
    _ = empty.displayList(camera: camera(zoom: 0))
    #expect(empty.lastFrameStatistics.attribution == "© OpenStreetMap contributors")
}

@Test func theAttributionIsLightGreyOverADarkBackground() throws {
    /// The attribution text's colour and halo over a background of `color`.
    func attribution(over color: String) throws -> (text: RGBAColor, halo: RGBAColor) {
        let layers = sceneLayers.replacingOccurrences(of: "#ffffff", with: color)
        let r = try renderer(
            style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
            options: MapRenderOptions(usesTileImageCache: false), backend: RecordingBackend())
        guard case .text(let t) = r.displayList(camera: camera(zoom: 0)).commands.last else {
            Issue.record("the last command is not the attribution text")
            return (.clear, .clear)
        }
        return (t.style.color, t.style.haloColor)
    }
    // Google's grey with a white halo over a light map (the map view's light controls), light grey with a dark halo
    // over a dark one (its dark controls, D16).
    let light = try attribution(over: "#f8f9fa")
    #expect(light.text == RGBAColor(rgb: 0x5f6368) && light.halo == RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.85))
    let dark = try attribution(over: "#1d2c4d")
    #expect(dark.text == RGBAColor(rgb: 0xbdc1c6))
    #expect(dark.halo == RGBAColor(red: 0x20 / 255, green: 0x21 / 255, blue: 0x24 / 255, alpha: 0.85))
    // The boundary: relative luminance ½, and a background mostly transparent counts as light.
    #expect(MapRenderer.isDarkBackground(RGBAColor(red: 0.45, green: 0.45, blue: 0.45, alpha: 1)))
    #expect(!MapRenderer.isDarkBackground(RGBAColor(red: 0.55, green: 0.55, blue: 0.55, alpha: 1)))
    #expect(!MapRenderer.isDarkBackground(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.2)))
}

@Test func aFailingResolverNamesTheSource() throws {
    struct Boom: Error {}
    #expect(throws: MapRendererError.self) {
        _ = try MapRenderer(style: testStyle(layers: sceneLayers), backend: RecordingBackend()) { _, _ in throw Boom() }
    }
}

@Test func tileSize512ShiftsTheStyleZoomByOne() throws {
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [:], options: MapRenderOptions(tileSize: 512),
        backend: RecordingBackend())
    #expect(r.styleZoom(for: camera(zoom: 3)) == 2)
}

@Test func theDefaultConventionIsMapLibresStyleZoomAndTiles() throws {
    // D25: by default a style is evaluated at camera zoom − 1 and vector tiles are 512-point tiles at that zoom. A
    // 1024-point view centred on a tile corner at camera zoom 3 is 2 × 2 tiles of 512 points at z2 (16 of 256 points
    // at z3 with Google's own convention).
    #expect(MapRenderOptions().tileSize == 512)
    let layers = """
        {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
        {"id": "from2", "type": "circle", "source": "t", "source-layer": "pois", "minzoom": 2,
         "paint": {"circle-radius": ["interpolate", ["linear"], ["zoom"], 2, 4, 3, 8], "circle-color": "#00ff00"}}
        """
    let tile = MVTWriter(layers: [("pois", [.init(geometry: .point(2600, 2600), properties: ["name": "Inn"])])])
    let tiles = [TileID(z: 0, x: 0, y: 0): tile.encode()]
    let r = try renderer(
        style: testStyle(layers: layers), tiles: tiles,
        options: MapRenderOptions(usesTileImageCache: false, drawsAttribution: false), backend: RecordingBackend())
    #expect(r.styleZoom(for: camera(zoom: 3)) == 2)
    func radii(_ zoom: Double) -> [Double] {
        r.displayList(camera: camera(zoom: zoom, size: 1024)).commands.compactMap {
            if case .circle(let c) = $0 { return c.radius }
            return nil
        }
    }
    #expect(radii(3) == [4], "the layer's minzoom 2 and its stop at 2 are reached at camera zoom 3")
    #expect(radii(2.9).isEmpty, "below camera zoom 3 the style zoom is under the layer's minzoom")
    _ = radii(3)
    #expect(r.lastFrameStatistics.tiles == 4)
    let google = try renderer(
        style: testStyle(layers: layers), tiles: tiles,
        options: MapRenderOptions(tileSize: 256, usesTileImageCache: false, drawsAttribution: false),
        backend: RecordingBackend())
    _ = google.displayList(camera: camera(zoom: 3, size: 1024))
    #expect(google.lastFrameStatistics.tiles == 16)
}

@Test func belowCameraZoomOneLayersWithoutMinzoomStillDraw() throws {
    // Camera zoom 0.5 is style zoom −0.5: layers without a positive minzoom draw (MapLibre GL JS's rule).
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: MapRenderOptions(usesTileImageCache: false, drawsAttribution: false), backend: RecordingBackend())
    #expect(r.styleZoom(for: camera(zoom: 0.5)) == -0.5)
    let list = r.displayList(camera: camera(zoom: 0.5))
    #expect(list.commands.contains { if case .circle = $0 { return true } else { return false } })
}

@Test(arguments: [Double.nan, .infinity])
func nonFiniteCamerasDrawNothingInsteadOfTrapping(value: Double) throws {
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: vectorOnly, backend: RecordingBackend())
    var cam = camera(zoom: 1)
    cam.zoom = value
    #expect(r.displayList(camera: cam).commands == [.clear(.clear)])
    cam = camera(zoom: 1)
    cam.center = LatLng(latitude: value, longitude: 0)
    #expect(r.displayList(camera: cam).commands == [.clear(.clear)])
}

@Test func aGarbageTileDrawsNothingButTheFrameGoesOn() throws {
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): [0xff, 0x13, 0x00, 0x42, 0x99]],
        options: vectorOnly, backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 0))
    #expect(list.commands == [.clear(RGBAColor(red: 1, green: 1, blue: 1))])
}

@Test func lineOffsetGapWidthAndTranslateMoveGeometryInScreenPoints() throws {
    // The road runs east along y = 128. Line meshes carry `line-offset` and `line-gap-width` to the line shader
    // (the centre line stays put; MapLibre's vertex shader moves it); `line-translate` [0, 3] moves the centres;
    // `fill-translate` [5, 0] moves the square (64…192) to 69…197, with its default outline (MapLibre's, in the fill
    // colour). A dashed line is a mesh too, with a dashed paint.
    let layers = """
        {"id": "o", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#000", "line-offset": 10}},
        {"id": "g", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#000", "line-width": 2, "line-gap-width": 6, "line-translate": [0, 3]}},
        {"id": "f", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#000", "fill-translate": [5, 0]}},
        {"id": "d", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#000", "line-offset": 10, "line-dasharray": [2, 1]}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let commands = Array(drawing(r.displayList(camera: camera(zoom: 0)).commands).dropFirst())  // after the clear
    guard commands.count == 5, case .lineMesh(let offset) = commands[0], case .lineMesh(let gap) = commands[1],
        case .fill(let fill) = commands[2], case .lineMesh(let outline) = commands[3],
        case .lineMesh(let dashed) = commands[4]
    else {
        Issue.record("unexpected commands \(commands)")
        return
    }
    #expect(offset.offset == 10 && offset.gapWidth == 0 && offset.width == 1)
    #expect(offset.mesh.vertices.map(\.center.y) == [128, 128, 128, 128])
    #expect(offset.mesh.vertices.map(\.center.x) == [0, 0, 256, 256])
    #expect(gap.gapWidth == 6 && gap.width == 2 && gap.offset == 0)
    #expect(gap.mesh.vertices.allSatisfy { $0.center.y == 131 })
    #expect(fill.path.bounds == RenderRect(x: 69, y: 64, width: 128, height: 128))
    // The opaque outline: one quad per side of the moved square, one device pixel wide, in the fill colour.
    #expect(outline.paint == .solid(fill.color) && outline.width == 1 && outline.mesh.vertices.count == 16)
    #expect(outline.mesh.vertices.map(\.center.x).min() == 69 && outline.mesh.vertices.map(\.center.x).max() == 197)
    #expect(dashed.offset == 10 && dashed.mesh.vertices.map(\.center.y) == [128, 128, 128, 128])
    guard case .dashed(_, let dash) = dashed.paint else {
        Issue.record("dashed line painted \(dashed.paint)")
        return
    }
    #expect(dash.period == 3 && !dash.isSolid)
}

@Test func lineMeshesTurnWithTheBearingAndStayInTheirTile() throws {
    // Under a bearing of 90° the road (east along the tile's middle) runs up the screen; its extrusions turn with
    // it, and the mesh is limited to the tile's screen quadrilateral (MapLibre's per-tile stencil).
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: vectorOnly, backend: RecordingBackend())
    // The road's mesh (width 2); the square's default outline is a mesh too, one point wide.
    let meshes = r.displayList(camera: camera(zoom: 0, bearing: 90)).commands.compactMap { c -> LineMeshCommand? in
        if case .lineMesh(let m) = c, m.width == 2 { return m }
        return nil
    }
    #expect(meshes.count == 1)
    guard let mesh = meshes.first else { return }
    for v in mesh.mesh.vertices {
        #expect(abs(v.center.x - 128) < 1e-9)
        #expect(abs(v.extrude.y) < 1e-9 && abs(abs(v.extrude.x) - 1) < 1e-9)
    }
    #expect(mesh.clipPolygon.count == 4)
    let xs = mesh.clipPolygon.map(\.x)
    #expect(abs((xs.min() ?? 0) - 0) < 1e-6 && abs((xs.max() ?? 0) - 256) < 1e-6)
}

@Test func offsetPathMitersCornersAtTheOffsetDistance() {
    // An L: east then south. Offsetting by 2 to the right of travel puts the corner at (8, 2) for a corner at
    // (10, 0): right of east is +y, right of south is −x, so the miter point is (10 − 2, 0 + 2).
    var path = RenderPath()
    path.move(to: ScreenPoint(x: 0, y: 0))
    path.line(to: ScreenPoint(x: 10, y: 0))
    path.line(to: ScreenPoint(x: 10, y: 10))
    let shifted = offsetPath(path, by: 2)
    #expect(shifted.point(at: 0) == ScreenPoint(x: 0, y: 2))
    #expect(abs(shifted.point(at: 1).x - 8) < 1e-9 && abs(shifted.point(at: 1).y - 2) < 1e-9)
    #expect(shifted.point(at: 2) == ScreenPoint(x: 8, y: 10))
}

@Test func severalSourcesWithTheirOwnZoomRangesDrawTogether() throws {
    // Source `a` stops at zoom 0 (over-zoomed at zoom 1); source `b` has its own z1 tiles, each with a point at its
    // centre. At zoom 1 in a 512-point view: one z0 tile of `a` decoded, four z1 tiles of `b`, four circles at the
    // z1 tile centres (128 or 384 on each axis), and both attributions.
    let json = """
        {"version": 8,
         "sources": {"a": {"type": "vector", "url": "mbtiles://a", "maxzoom": 0, "attribution": "Source A"},
                     "b": {"type": "vector", "url": "mbtiles://b", "maxzoom": 1, "attribution": "Source B"}},
         "layers": [
           {"id": "square", "type": "fill", "source": "a", "source-layer": "shapes", "paint": {"fill-color": "#f00"}},
           {"id": "dots", "type": "circle", "source": "b", "source-layer": "pois", "paint": {"circle-radius": 2}}]}
        """
    let style = try Style.parse(bytes: Array(json.utf8))
    let dot = MVTWriter(layers: [("pois", [.init(geometry: .point(2048, 2048))])]).encode()
    var bTiles: [TileID: [UInt8]] = [:]
    for x in 0..<2 { for y in 0..<2 { bTiles[TileID(z: 1, x: x, y: y)] = dot } }
    let sources: [String: MemoryTileSource] = [
        "a": MemoryTileSource(tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], maxZoom: 0),
        "b": MemoryTileSource(tiles: bTiles, minZoom: 1, maxZoom: 1),
    ]
    let r = try MapRenderer(
        style: style, backend: RecordingBackend(),
        options: MapRenderOptions(tileSize: 256, usesTileImageCache: false, baseAttribution: nil)
    ) { id, _ in sources[id] }
    let list = r.displayList(camera: camera(zoom: 1, size: 512))
    let centers = Set(
        list.commands.compactMap { c -> ScreenPoint? in
            if case .circle(let circle) = c { return circle.center }
            return nil
        })
    #expect(
        centers == [
            ScreenPoint(x: 128, y: 128), ScreenPoint(x: 384, y: 128), ScreenPoint(x: 128, y: 384),
            ScreenPoint(x: 384, y: 384),
        ])
    #expect(list.commands.contains { if case .fill = $0 { return true } else { return false } })
    #expect(r.lastFrameStatistics.tilesDecoded == 5)
    #expect(r.lastFrameStatistics.attribution == "Source A · Source B")
    #expect(r.resolvedSourceIDs == ["a", "b"])
}

@Test func bearingTurnsTheComposedTileImagesAboutTheOpticalCentre() throws {
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: MapRenderOptions(tileSize: 256, drawsAttribution: false), backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 1, size: 300, bearing: 90))
    // Turned frames warp each tile image (as pitched frames do) instead of drawing under a turned context.
    #expect(!list.commands.contains { if case .transform = $0 { return true } else { return false } })
    let warps = list.commands.compactMap { c -> ProjectedImageCommand? in
        if case .projectedImage(let p) = c { return p }
        return nil
    }
    // Zoom 1 in a 300-point view over (0, 0): the four tiles meet at the optical centre, which the turn keeps.
    #expect(warps.count == 4)
    for warp in warps {
        #expect(warp.homography.isAffine)
        #expect(warp.area.count == 4)
        #expect(warp.area.contains { abs($0.x - 150) < 1e-9 && abs($0.y - 150) < 1e-9 }, "\(warp.area)")
        // Bearing 90°: north points left, so east (the image's +x) shows up the screen.
        let size = warp.image.pointSize
        let c = try #require(warp.homography.apply(to: ScreenPoint(x: size.width / 2, y: size.height / 2)))
        let e = try #require(warp.homography.apply(to: ScreenPoint(x: size.width / 2 + 10, y: size.height / 2)))
        #expect(abs(e.x - c.x) < 1e-9 && e.y < c.y, "\(c) → \(e)")
    }
    // The four areas tile the turned square of the world: their union's bounds are the world's 512 points about
    // the centre.
    let xs = warps.flatMap { $0.area.map(\.x) }
    let ys = warps.flatMap { $0.area.map(\.y) }
    #expect(abs((xs.min() ?? 0) - (150 - 256)) < 1e-9 && abs((xs.max() ?? 0) - (150 + 256)) < 1e-9)
    #expect(abs((ys.min() ?? 0) - (150 - 256)) < 1e-9 && abs((ys.max() ?? 0) - (150 + 256)) < 1e-9)
}

@Test func iconsComeFromTheSpriteSheetAtIconSize() throws {
    // A 4×2-pixel sheet holding a 2×2 "dot" at its right half; icon-size 3 draws it 6 points wide, centred on the
    // point at (128, 64), so its box is (125, 61) 6×6. It is drawn as MapLibre's icon quad: the image with a
    // transparent pixel around it (4×4) over the box grown by a scaled pixel a side, (122, 58) 12×12, exactly and
    // bilinear (scaled). A name the sprite lacks draws nothing.
    let layers = """
        {"id": "icons", "type": "symbol", "source": "t", "source-layer": "pois",
         "layout": {"icon-image": ["get", "kind"], "icon-size": 3}},
        {"id": "missing", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"icon-image": "nope"}}
        """
    let tile = MVTWriter(layers: [("pois", [.init(geometry: .point(2048, 1024), properties: ["kind": "dot"])])])
        .encode()
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
        backend: backend)
    var pixels = [UInt8](repeating: 0, count: 4 * 2 * 4)
    for i in stride(from: 8, to: 32, by: 16) { for k in 0..<8 { pixels[i + k] = 255 } }
    let index = SpriteIndex(
        json: try JSONValue.parse(#"{"dot": {"x": 2, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#))
    r.setSprite(SpriteSheet(image: RasterImage(width: 4, height: 2, pixels: pixels), index: index))
    let images = r.displayList(camera: camera(zoom: 0)).commands.compactMap { c -> ImageCommand? in
        if case .image(let i) = c { return i }
        return nil
    }
    #expect(images.map(\.rect) == [RenderRect(x: 122, y: 58, width: 12, height: 12)])
    #expect(images.first?.image.pixelWidth == 4)
    #expect(images.first?.sourceRect == RenderRect(x: 0, y: 0, width: 4, height: 4))
    #expect(images.first?.nearestNeighbor == false)
}

@Test func layersDrawInStyleOrderAndCirclesSitOnEveryVertex() throws {
    // Style spec "layers": a background after a fill covers it (and the fill's default outline); MapLibre puts a
    // circle on each vertex of a polygon (the square's corners are at 64 and 192 points).
    let layers = """
        {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}},
        {"id": "cover", "type": "background", "paint": {"background-color": "#0000ff"}},
        {"id": "corners", "type": "circle", "source": "t", "source-layer": "shapes", "paint": {"circle-radius": 2}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let commands = drawing(r.displayList(camera: camera(zoom: 0)).commands)
    guard commands.count >= 4, case .clear(let clear) = commands[0], case .fill(let square) = commands[1],
        case .lineMesh(let outline) = commands[2], case .fill(let cover) = commands[3]
    else {
        Issue.record("unexpected commands \(commands)")
        return
    }
    #expect(clear == .clear)
    #expect(square.color == RGBAColor(red: 1, green: 0, blue: 0))
    #expect(outline.paint == .solid(square.color))
    #expect(cover.color == RGBAColor(red: 0, green: 0, blue: 1))
    #expect(cover.path.bounds == RenderRect(x: 0, y: 0, width: 256, height: 256))
    let centres = Set(
        commands.compactMap { c -> [Double]? in
            if case .circle(let k) = c { return [k.center.x, k.center.y] }
            return nil
        })
    #expect(centres == [[64, 64], [192, 64], [192, 192], [64, 192]])
}

@Test(arguments: [(1.0, true), (2.0, true), (1.0, false)])
func fillOutlinesAreDeviceHairlinesOnlyWithAntialias(scale: Double, antialias: Bool) throws {
    // Style spec `fill-outline-color`: drawn only when `fill-antialias` is true, even around a transparent fill;
    // MapLibre's outline is one device pixel wide, each side a line of its own (an opaque one in a flat frame is a
    // line mesh of one quad per side).
    let layers = """
        {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes",
         "paint": {"fill-color": "rgba(0,0,0,0)", "fill-outline-color": "#0000ff", "fill-antialias": \(antialias)}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let commands = r.displayList(camera: camera(zoom: 0), scale: scale).commands
    let meshes = commands.compactMap { c -> LineMeshCommand? in
        if case .lineMesh(let m) = c { return m }
        return nil
    }
    #expect(!commands.contains { if case .fill = $0 { true } else { false } })
    #expect(!commands.contains { if case .stroke = $0 { true } else { false } })
    if antialias {
        #expect(meshes.count == 1)
        #expect(meshes.first?.width == 1 / scale)
        #expect(meshes.first?.paint == .solid(RGBAColor(red: 0, green: 0, blue: 1)))
        let centres = meshes.first?.mesh.vertices.map(\.center) ?? []
        #expect(centres.count == 16)
        #expect(Set(centres.map(\.x)) == [64, 192] && Set(centres.map(\.y)) == [64, 192])
    } else {
        #expect(meshes.isEmpty)
    }
}

@Test func translucentFillOutlinesStayCairoHairlines() throws {
    // A translucent outline keeps the one-pixel stroke: quads meeting at a corner would blend it twice.
    let layers = """
        {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes",
         "paint": {"fill-color": "rgba(0,0,0,0)", "fill-outline-color": "#0000ff", "fill-opacity": 0.5}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let commands = r.displayList(camera: camera(zoom: 0), scale: 2).commands
    let strokes = commands.compactMap { c -> StrokeCommand? in
        if case .stroke(let s) = c { return s }
        return nil
    }
    #expect(!commands.contains { if case .lineMesh = $0 { true } else { false } })
    #expect(strokes.count == 1)
    #expect(strokes.first?.width == 0.5 && strokes.first?.opacity == 0.5)
    #expect(strokes.first?.path.bounds == RenderRect(x: 64, y: 64, width: 128, height: 128))
}

/// The commands that paint, without the per-tile `save`/`clip`/`restore` brackets.
private func drawing(_ commands: [DrawCommand]) -> [DrawCommand] {
    commands.filter {
        switch $0 {
        case .save, .restore, .clip: false
        default: true
        }
    }
}

@Test func flatFramesClipEachTilesFillsAndLinesToTheTileOnDevicePixels() throws {
    // Zoom 1 in a 256-point view centred on (0°, 0°): the four z1 tiles meet at (128, 128), each 256 points wide,
    // so tile 1/0/0 covers (-128, -128)…(128, 128). At scale 2 the edges land on device pixels already.
    let r = try renderer(
        style: testStyle(layers: sceneLayers, sourceMaxZoom: 0), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: vectorOnly, backend: RecordingBackend())
    let commands = r.displayList(camera: camera(zoom: 1), scale: 2).commands
    let clips = Set(
        commands.compactMap { c -> [Double]? in
            if case .clip(let rect) = c { return [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height] }
            return nil
        })
    #expect(clips == [[-128, -128, 256, 256], [128, -128, 256, 256], [-128, 128, 256, 256], [128, 128, 256, 256]])
    // Every clip sits in its own save/restore bracket, and circles are never clipped.
    var depth = 0
    for c in commands {
        switch c {
        case .save: depth += 1
        case .restore: depth -= 1
        case .circle: #expect(depth == 0)
        default: break
        }
        #expect(depth >= 0 && depth <= 1)
    }
    #expect(depth == 0)
}

@Test func aPointNearATileEdgeIsInBothTileImagesAndDrawnOnceAsVectors() throws {
    // z1 tiles over-zoomed from z0; the point lies 2 points (32 units) left of the edge between tiles (0, 0) and
    // (1, 0). Tile images are clipped to their tile, so both draw the circle (each its own half); a vector frame
    // does not clip circles, so only the tile that owns the point draws it.
    let tile = MVTWriter(layers: [("pois", [.init(geometry: .point(2048 - 16, 1024))])]).encode()
    let layers = """
        {"id": "dots", "type": "circle", "source": "t", "source-layer": "pois", "paint": {"circle-radius": 6}}
        """
    let style = try testStyle(layers: layers)
    let tiles = [TileID(z: 0, x: 0, y: 0): tile]
    let r = try renderer(style: style, tiles: tiles, options: vectorOnly, backend: RecordingBackend())
    func centres(_ commands: [DrawCommand]) -> [ScreenPoint] {
        commands.compactMap { c -> ScreenPoint? in
            if case .circle(let k) = c { return k.center }
            return nil
        }
    }
    let frame = r.displayList(camera: camera(zoom: 1, size: 512))
    #expect(centres(frame.commands) == [ScreenPoint(x: 254, y: 128)])
    var left: [DrawCommand] = []
    var right: [DrawCommand] = []
    r.appendTileImageCommands(TileID(z: 1, x: 0, y: 0), run: 0, into: &left)
    r.appendTileImageCommands(TileID(z: 1, x: 1, y: 0), run: 0, into: &right)
    #expect(centres(left) == [ScreenPoint(x: 254, y: 128)])
    #expect(centres(right) == [ScreenPoint(x: -2, y: 128)])
}

@Test func withinFiltersKeepTheFeaturesInsideThePolygonForLabelsAndCircles() throws {
    // Two points of one z0 tile: "West" at 90° W, 45° N-ish and "East" at 90° E, 45° S-ish; the polygon is the
    // north-western quarter of the world.
    let tile = MVTWriter(layers: [
        (
            "pois",
            [
                .init(geometry: .point(1024, 1024), properties: ["name": "West"]),
                .init(geometry: .point(3072, 3072), properties: ["name": "East"]),
            ]
        )
    ]).encode()
    let quarter = #"{"type": "Polygon", "coordinates": [[[-179, 1], [-1, 1], [-1, 84], [-179, 84], [-179, 1]]]}"#
    let layers = """
        {"id": "dots", "type": "circle", "source": "t", "source-layer": "pois", "filter": ["!", ["within", \(quarter)]],
         "paint": {"circle-radius": 4, "circle-color": "#ff0000"}},
        {"id": "label", "type": "symbol", "source": "t", "source-layer": "pois", "filter": ["within", \(quarter)],
         "layout": {"text-field": ["get", "name"], "text-size": 12}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): tile], options: vectorOnly,
        backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 0, size: 256))
    let texts = textCommands(list)
    #expect(texts.map(\.text) == ["West"])
    // The circle layer keeps only the point outside the polygon: one dot.
    let dots = list.description.components(separatedBy: "\n").filter { $0.contains("ff0000") }
    #expect(dots.count == 1)
    #expect(texts.first.map { $0.position.x < 128 && $0.position.y < 128 } == true)
}

/// The frame's text commands, in drawing order.
private func textCommands(_ list: DisplayList) -> [TextCommand] {
    list.commands.compactMap { c -> TextCommand? in
        if case .text(let t) = c { return t }
        return nil
    }
}

/// A failed expectation on a renderer operand describes it by its mirror: a few counters, not its caches.
@Test func aRendererReflectsAsAFewCounters() throws {
    let r = try renderer(
        style: testStyle(layers: sceneLayers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile],
        options: MapRenderOptions(tileSize: 256, drawsAttribution: false), backend: RecordingBackend())
    _ = r.displayList(camera: camera(zoom: 1, size: 300))
    let mirror = Mirror(reflecting: r)
    #expect(
        mirror.children.map(\.label) == [
            "pendingTileCount", "tileFetchesInFlight", "failedTileCount", "resolvedSourceIDs",
        ])
    #expect(
        mirror.children.allSatisfy {
            Mirror(reflecting: $0.value).children.count <= 1 || $0.label == "resolvedSourceIDs"
        })
}

@Test(arguments: [
    ("", true), ("\"text-pitch-alignment\": \"map\", ", true), ("\"text-pitch-alignment\": \"viewport\", ", false),
])
func streetNamesLieOnTheGroundUnderPitchUnlessAlignedToTheViewport(layout: String, onGround: Bool) throws {
    // The road "Main" crosses the z0 tile; its line label, pitched 50°, lies on the ground (a foreshortening
    // transform per glyph) by default (`auto` is `map` for line placement) and stays upright with `viewport`.
    let layers = """
        {"id": "names", "type": "symbol", "source": "t", "source-layer": "roads",
         "layout": {\(layout)"symbol-placement": "line", "text-field": "{name}", "text-size": 14}}
        """
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): sceneTile], options: vectorOnly,
        backend: RecordingBackend())
    let glyphs = r.displayList(camera: camera(zoom: 1, size: 512, pitch: 50)).commands.flatMap {
        c -> [GlyphPlacement] in
        if case .lineText(let t) = c { return t.glyphs }
        return []
    }
    #expect(!glyphs.isEmpty)
    #expect(glyphs.allSatisfy { ($0.transform != nil) == onGround })
}

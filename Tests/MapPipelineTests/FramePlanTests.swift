import MapData
import MapDrawing
import MapGeometry
import MapStyle
import MapTestSupport
import Testing

@testable import MapPipeline

/// One source tile 0/0/0: a square (1024…3072 tile units), a road through the middle and a named point.
private let planTile: [UInt8] = MVTWriter(layers: [
    ("shapes", [.init(geometry: .polygon([(1024, 1024), (3072, 1024), (3072, 3072), (1024, 3072)]))]),
    ("roads", [.init(geometry: .line([(0, 2048), (4096, 2048)]))]),
    ("pois", [.init(geometry: .point(2048, 1536), properties: ["name": "Cafe"], id: 7)]),
]).encode()

/// A fill, a label, a background that covers both, then a road: two runs of tile-drawn layers around a symbol
/// layer and a background.
private let interleavedLayers = """
    {"id": "square", "type": "fill", "source": "t", "source-layer": "shapes", "paint": {"fill-color": "#ff0000"}},
    {"id": "names", "type": "symbol", "source": "t", "source-layer": "pois", "layout": {"text-field": "{name}"}},
    {"id": "cover", "type": "background", "paint": {"background-color": "#0000ff", "background-opacity": 0.5}},
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-width": 4}}
    """

/// What a command draws, by kind, with the bookkeeping commands left out.
private func kinds(_ commands: [DrawCommand]) -> [String] {
    commands.compactMap { command -> String? in
        switch command {
        case .clear: "clear"
        case .fill(let f): f.pattern != nil ? "image" : "fill"
        case .lineMesh, .stroke: "line"
        case .circle: "circle"
        case .text, .lineText, .glyphRun: "text"
        case .image, .projectedImage: "image"
        case .save, .restore, .clip, .transform: nil
        }
    }
}

/// Consecutive equal kinds collapsed into one.
private func runs(_ kinds: [String]) -> [String] {
    kinds.reduce(into: []) { out, kind in if out.last != kind { out.append(kind) } }
}

@Test func theFramePlanGroupsConsecutiveTileLayersBetweenBackgroundsAndSymbols() throws {
    let layers = """
        {"id": "a", "type": "background"}, {"id": "b", "type": "fill", "source": "t", "source-layer": "x"},
        {"id": "c", "type": "line", "source": "t", "source-layer": "x"},
        {"id": "d", "type": "symbol", "source": "t", "source-layer": "x"},
        {"id": "e", "type": "circle", "source": "t", "source-layer": "x"}, {"id": "f", "type": "background"},
        {"id": "g", "type": "background"}, {"id": "h", "type": "symbol", "source": "t", "source-layer": "x"},
        {"id": "i", "type": "heatmap", "source": "t", "source-layer": "x"},
        {"id": "j", "type": "fill-extrusion", "source": "t", "source-layer": "x"},
        {"id": "k", "type": "line", "source": "t", "source-layer": "x"}
        """
    let style = try testStyle(layers: layers)
    let steps = FrameStep.plan(style.layers.enumerated().map { CompiledLayer($1, index: $0) })
    let described = steps.map { step -> String in
        switch step {
        case .backgrounds(let l): "bg " + l.map(\.layer.id).joined(separator: ",")
        case .tileLayers(let run, let l): "run\(run) " + l.map(\.layer.id).joined(separator: ",")
        case .symbols(let l): "sym " + l.layer.id
        case .frameImage(let l): "frame " + l.layer.id
        }
    }
    // Heatmaps and extrusions are frame images of their own, between the runs.
    #expect(
        described == ["bg a", "run0 b,c", "sym d", "run1 e", "bg f,g", "sym h", "frame i", "frame j", "run2 k"])
}

@Test(arguments: [false, true])
func framesFromTileImagesDrawTheStyleOrderAsVectorFramesDo(usesTileImages: Bool) throws {
    let r = try renderer(
        style: testStyle(layers: interleavedLayers), tiles: [TileID(z: 0, x: 0, y: 0): planTile],
        options: MapRenderOptions(usesTileImageCache: usesTileImages, drawsAttribution: false),
        backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 0))
    #expect(r.lastFrameStatistics.composedFromTileImages == usesTileImages)
    #expect(r.lastFrameStatistics.labelsPlaced == 1)
    // Square (run 0; as vectors with MapLibre's default outline, a stroke), the label, the half-transparent cover
    // over both, then the road (run 1) above the cover.
    let expected =
        usesTileImages
        ? ["clear", "image", "text", "fill", "image"] : ["clear", "fill", "line", "text", "fill", "line"]
    #expect(runs(kinds(list.commands)) == expected)
    if usesTileImages {
        // One image per tile and run.
        #expect(r.lastFrameStatistics.tileImagesRendered == 2)
        _ = r.displayList(camera: camera(zoom: 0))
        #expect(r.lastFrameStatistics.tileImagesRendered == 0)
        #expect(r.lastFrameStatistics.tileImagesReused == 2)
    }
}

/// The reference path (tile-image cache off) draws a pitched frame's vectors in style order.
@Test func pitchedFramesDrawTheSameStyleOrderAsVectors() throws {
    let r = try renderer(
        style: testStyle(layers: interleavedLayers), tiles: [TileID(z: 0, x: 0, y: 0): planTile],
        options: MapRenderOptions(usesTileImageCache: false, drawsAttribution: false), backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 1, size: 300, bearing: 30, pitch: 50))
    #expect(!r.lastFrameStatistics.composedFromTileImages)
    #expect(runs(kinds(list.commands)) == ["clear", "fill", "text", "fill", "line"])
}

@Test func aTileImageRenderedForAFrameLandsOnWholeDevicePixelsAtItsZoom() throws {
    // Zoom 0.5 with the centre 0.3 points off the tile grid: the image is rendered at zoom 0.5 (a 256·√2-point
    // square) with the sub-pixel phase inside it, so the frame draws it unscaled at whole device pixels.
    let r = try renderer(
        style: testStyle(layers: interleavedLayers), tiles: [TileID(z: 0, x: 0, y: 0): planTile],
        options: MapRenderOptions(tileSize: 256, drawsAttribution: false), backend: RecordingBackend())
    var cam = camera(zoom: 0.5, size: 300)
    cam.center = LatLng(latitude: 0, longitude: 0.3 * 360 / (256 * 2.0.squareRoot()))
    let list = r.displayList(camera: cam, scale: 2)
    let images = list.commands.compactMap { c -> ImageCommand? in
        if case .image(let i) = c { return i }
        return nil
    }
    #expect(images.count == 2)
    for i in images {
        #expect(abs(i.rect.width - Double(i.image.pixelWidth) / 2) < 1e-9)
        #expect((i.rect.minX * 2).rounded() == i.rect.minX * 2 && (i.rect.minY * 2).rounded() == i.rect.minY * 2)
        #expect(abs(i.rect.width - 256 * 2.0.squareRoot()) < 1)
    }
}

@Test func aMadeTileKeepsOneImagePerRunAndRemembersRunsThatDrawNothing() throws {
    let backend = RecordingBackend()
    let r = try renderer(
        style: testStyle(layers: interleavedLayers), tiles: [TileID(z: 0, x: 0, y: 0): planTile],
        options: MapRenderOptions(drawsAttribution: false), backend: backend)
    let tile = TileID(z: 0, x: 0, y: 0)
    let view = camera(zoom: 0).transform
    // What a tile thread or worker makes: both runs' images, as pixels from its own backend.
    let job = TileJob(
        key: TileImageKey(revision: r.revision, z: 0, x: 0, y: 0, pixelScale: 2),
        images: [0, 1].map { r.tileImages.imageSpec(tile, run: $0, camera: view, scale: 2) }, tileSize: 256,
        spriteVersion: 0,
        sprite: nil, priority: 0)
    let made = r.workOnTile(job, keepsImages: false)
    #expect(made.images.count == 2)
    r.integrate(made)
    #expect(r.lastFrameStatistics.tileImagesRendered == 0)
    for run in [0, 1] {
        guard case .image = r.tileImages.cachedTileImage(tile, run: run, scale: 2) else {
            Issue.record("run \(run) not cached")
            continue
        }
    }
    // A run with no visible layer at the tile is remembered as drawing nothing.
    let empty = TileImageSpec(
        key: TileImageKey(revision: r.revision, z: 0, x: 0, y: 0, pixelScale: 3, run: 0), zoom: 0, side: 256,
        offset: .zero, bearing: 0)
    r.integrate(TileResult(key: job.key, images: [(empty, .empty)], prepared: [:], sourceData: [:]))
    guard case .empty = r.tileImages.cachedTileImage(tile, run: 0, scale: 3) else {
        Issue.record("an empty run is not remembered")
        return
    }
}

@Test func circleLayersFormRunsOfTheirOwn() throws {
    let layers = """
        {"id": "a", "type": "fill", "source": "t", "source-layer": "x"},
        {"id": "b", "type": "circle", "source": "t", "source-layer": "x"},
        {"id": "c", "type": "circle", "source": "t", "source-layer": "x"},
        {"id": "d", "type": "line", "source": "t", "source-layer": "x"}
        """
    let style = try testStyle(layers: layers)
    let steps = FrameStep.plan(style.layers.enumerated().map { CompiledLayer($1, index: $0) })
    let described = steps.map { step -> String in
        if case .tileLayers(let run, let l) = step { return "run\(run) " + l.map(\.layer.id).joined(separator: ",") }
        return "other"
    }
    #expect(described == ["run0 a", "run1 b,c", "run2 d"])
}

/// With the tile-image cache on (the default): a pitched frame draws each fill/line run as one projected
/// tile image per tile (circle runs stay vectors) in style order, and tilting a little reuses the images.
@Test func pitchedFramesWarpTileImages() throws {
    let layers =
        interleavedLayers
            + """
            , {"id": "dots", "type": "circle", "source": "t", "source-layer": "pois", "paint": {"circle-radius": 3}}
            """
    let options = MapRenderOptions(drawsAttribution: false)
    let r = try renderer(
        style: testStyle(layers: layers), tiles: [TileID(z: 0, x: 0, y: 0): planTile], options: options,
        backend: RecordingBackend())
    let list = r.displayList(camera: camera(zoom: 1, size: 300, bearing: 30, pitch: 50))
    #expect(r.lastFrameStatistics.composedFromTileImages)
    #expect(runs(kinds(list.commands)) == ["clear", "image", "text", "fill", "image", "circle"])
    let warped = list.commands.compactMap { c -> ProjectedImageCommand? in
        if case .projectedImage(let p) = c { return p }
        return nil
    }
    #expect(!warped.isEmpty)
    for p in warped {
        #expect(p.area.count >= 3)
        // The area is the image's visible part: its corners map back inside the image (within rounding).
        let inverse = try #require(p.homography.inverse)
        let size = p.image.pointSize
        for corner in p.area {
            let q = try #require(inverse.apply(to: corner))
            #expect(q.x > -1e-6 && q.y > -1e-6 && q.x < size.width + 1e-6 && q.y < size.height + 1e-6)
        }
    }
    let rendered = r.lastFrameStatistics.tileImagesRendered
    #expect(rendered > 0)
    _ = r.displayList(camera: camera(zoom: 1, size: 300, bearing: 33, pitch: 52))
    #expect(r.lastFrameStatistics.tileImagesRendered == 0)
}

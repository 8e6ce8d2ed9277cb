import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapHosting
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

private let pipelineFrame = ScreenSize(width: 1280, height: 720)

/// A cold frame of the default style: every run forgets the renderer's caches (decoded tiles, tile images, symbols)
/// and renders 1280×720 into pixels, so tiles are read, decoded, styled, rasterised and composed again. Label
/// sprites stay warm in the backend (they are a separate cache).
final class PipelineColdFrameBenchmark: Benchmark {
    let name: String
    let unit = "frames"
    let iterations = 7
    private let camera: CameraState
    private var snapshotter: MapHost!

    /// A warm run keeps the caches: the frame redraws from decoded tiles and cached tile images.
    private let warm: Bool
    /// Tile threads (``MapRenderOptions/tileThreads``); `nil` the default (both cores here).
    private let threads: Int?

    init(name: String, camera: CameraState, warm: Bool = false, threads: Int? = nil) {
        self.name = name
        self.camera = camera
        self.warm = warm
        self.threads = threads
    }

    /// The same case made on one thread ("…-serial"): the figure the parallel tile stage is compared with.
    var serial: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(name: name + "-serial", camera: camera, warm: warm, threads: 1)
    }

    /// The bundled world (GSHHG, GeoNames) at `zoom` over `center`: "pipeline-cold-world-z<zoom>[-<place>]", or
    /// "pipeline-warm-…" when `warm`.
    static func world(_ place: String?, _ lat: Double, _ lon: Double, zoom: Double, warm: Bool = false)
        -> PipelineColdFrameBenchmark
    {
        PipelineColdFrameBenchmark(
            name: "pipeline-\(warm ? "warm" : "cold")-world-z\(Int(zoom))\(place.map { "-\($0)" } ?? "")",
            camera: CameraState(center: LatLng(latitude: lat, longitude: lon), zoom: zoom, size: pipelineFrame),
            warm: warm)
    }

    /// Central Helsinki at zoom 16.
    static var helsinkiZ16: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(
            name: "pipeline-cold-helsinki-z16",
            camera: CameraState(center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, size: pipelineFrame))
    }

    /// Central Helsinki at zoom 16, bearing 45°, pitch 50°: the pitched reference view of
    /// `../shared/bench/maplibre-native/compare-views.sh`, cold (issue 33's speed goal against MapLibre Native).
    static var helsinkiPitched: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(
            name: "pipeline-cold-helsinki-pitched",
            camera: CameraState(
                center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, bearing: 45, pitch: 50,
                size: pipelineFrame))
    }

    /// The world at zoom 2.
    static var worldZ2: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(
            name: "pipeline-world-z2",
            camera: CameraState(center: LatLng(latitude: 30, longitude: 10), zoom: 2, size: pipelineFrame))
    }

    func setUp() throws { snapshotter = try MapHost(options: MapRenderOptions(tileThreads: threads)) }

    func run() throws -> Int {
        if !warm { snapshotter.renderer.invalidate() }
        let image = try snapshotter.render(camera: camera)
        return image.width > 0 ? 1 : 0
    }
}

/// A frame composed from cached tile images with labels, the camera moved a little each run as a gesture moves it:
/// the tiles are rasterised and the label sprites warmed in `setUp`, each run places the labels again and draws the
/// frame into a 1280×720 Cairo surface. The figure returned is the number of labels drawn.
final class PipelineMovingFrameBenchmark: Benchmark {
    let name: String
    let unit = "labels"
    let iterations = 30
    private let camera: CameraState
    private let move: (CameraState, Int) -> CameraState
    /// Whether the style's `fill-extrusion` layers draw (`GMSMapView.isBuildingsEnabled`, default true).
    private let buildings: Bool
    private var snapshotter: MapHost!
    private var surface: CairoSurface!
    private var step = 0

    init(
        name: String, camera: CameraState, buildings: Bool = true,
        move: @escaping (CameraState, Int) -> CameraState
    ) {
        self.name = name
        self.camera = camera
        self.buildings = buildings
        self.move = move
    }

    /// Helsinki at zoom 17 (POIs, street names and house numbers), moved by a fractional number of points per run as
    /// a drag does.
    static var pan: PipelineMovingFrameBenchmark {
        PipelineMovingFrameBenchmark(
            name: "pipeline-pan-frame",
            camera: CameraState(center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 17, size: pipelineFrame)
        ) { camera, step in
            var c = camera
            let dx = Double(step % 20) * 3.3
            let dy = Double(step % 12) * 1.7
            if let p = c.latLng(for: ScreenPoint(x: 640 + dx, y: 360 + dy)) { c.center = p }
            return c
        }
    }

    /// ``pan`` with the style's 3D buildings hidden, as `GMSMapView.isBuildingsEnabled = false` hides them: the same
    /// work as the build before issue 33 drew, which left the `fill-extrusion` layer out.
    static var panWithoutBuildings: PipelineMovingFrameBenchmark {
        let pan = pan
        return PipelineMovingFrameBenchmark(
            name: "pipeline-pan-frame-no-buildings", camera: pan.camera, buildings: false, move: pan.move)
    }

    /// What a twist or pinch gesture draws: Helsinki at zoom 16.5 (tile images scaled by √2) with the bearing turning
    /// by 7° per run from 30°.
    static var rotated: PipelineMovingFrameBenchmark {
        PipelineMovingFrameBenchmark(
            name: "pipeline-rotated-frame",
            camera: CameraState(
                center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16.5, bearing: 30, size: pipelineFrame)
        ) { camera, step in
            var c = camera
            c.bearing = 30 + Double(step % 10) * 7
            return c
        }
    }

    /// ``rotated`` without the bearing: the labels the rotated frame should match (issue 17: at least 80 %).
    static var unrotated: PipelineMovingFrameBenchmark {
        PipelineMovingFrameBenchmark(
            name: "pipeline-unrotated-frame",
            camera: CameraState(center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16.5, size: pipelineFrame)
        ) { camera, _ in camera }
    }

    func setUp() throws {
        if buildings {
            snapshotter = try MapHost()
        } else {
            // The bundled style's fill-extrusion layers hidden, as the map view hides them.
            var style = try TileNetwork.openStyle(DataFiles.path("styles/default.json"))
            for i in style.layers.indices where style.layers[i].type == .fillExtrusion {
                style.layers[i].isVisible = false
            }
            snapshotter = try MapHost(style: style)
            snapshotter.useSprite(of: style)
        }
        surface = try CairoSurface(width: 1280, height: 720)
        for _ in 0..<3 { _ = try run() }  // rasterise the tiles and warm the label sprites
    }

    func run() throws -> Int {
        step += 1
        let list = snapshotter.renderer.displayList(camera: move(camera, step))
        snapshotter.backend.draw(list, into: surface, clearFirst: false)
        return snapshotter.renderer.lastFrameStatistics.labelsPlaced
    }
}

/// A warm pitched frame: Helsinki z16, bearing 45, pitch 50. Tiles stay decoded, prepared and rendered in the
/// engine's caches; every frame warps the tile images onto the ground (`pipeline-pitched-frame`, the default
/// frame path), or projects and draws every tile's vectors with the tile-image cache off
/// (`pipeline-pitched-frame-vectors`, the reference path), places the labels and draws into a 1280×720 Cairo
/// surface. `pipeline-pitched-frame-async` is the default path with asynchronous tiles (the map view in a window),
/// settled first (every tile image the workers make has arrived), so it times the frame thread's work alone.
final class PipelinePitchedFrameBenchmark: Benchmark {
    let name: String
    let unit = "frames"
    let iterations = 10
    private let usesTileImageCache: Bool
    private let asynchronous: Bool
    private var snapshotter: MapHost!
    private var surface: CairoSurface!
    private let camera = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, bearing: 45, pitch: 50, size: pipelineFrame)

    init(usesTileImageCache: Bool = true, asynchronous: Bool = false) {
        self.usesTileImageCache = usesTileImageCache
        self.asynchronous = asynchronous
        name =
            asynchronous
            ? "pipeline-pitched-frame-async"
            : usesTileImageCache ? "pipeline-pitched-frame" : "pipeline-pitched-frame-vectors"
    }

    func setUp() throws {
        var options = MapRenderOptions(usesTileImageCache: usesTileImageCache)
        if asynchronous {
            options.asyncTiles = AsyncTileRendering(
                labelBuildBudgetMilliseconds: .infinity, makeBackend: { CairoBackend() })
        }
        snapshotter = try MapHost(options: options)
        surface = try CairoSurface(width: 1280, height: 720)
        guard asynchronous else { return }
        let renderer = snapshotter.renderer
        let deadline = Date().addingTimeInterval(600)
        repeat {
            if !renderer.hasArrivedTiles { Thread.sleep(forTimeInterval: 0.01) }
            _ = renderer.displayList(camera: camera)
        } while renderer.hasPendingTiles && Date() < deadline
    }

    func run() throws -> Int {
        let list = snapshotter.renderer.displayList(camera: camera)
        snapshotter.backend.draw(list, into: surface, clearFirst: false)
        return 1
    }
}

/// Memory of map views (issue 17): `views` snapshotters (what a `GMSMapView` draws through) each render the
/// Helsinki z16 frame, on one engine (`shared`, as every map view of a process now does) or on an engine each (as
/// every view had its own caches before). The figure is the engines' cache bytes in KiB after the last view drew.
final class EngineMemoryBenchmark: Benchmark {
    let name: String
    let unit = "KiB cached"
    let iterations = 3
    private let views: Int
    private let shared: Bool

    init(views: Int, shared: Bool) {
        self.views = views
        self.shared = shared
        name = "engine-memory-\(views)-view\(views == 1 ? "" : "s")\(shared ? "" : "-separate")"
    }

    func run() throws -> Int {
        let camera = CameraState(
            center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, size: pipelineFrame)
        let engines = (0..<(shared ? 1 : views)).map { _ in MapEngine() }
        var snapshotters: [MapHost] = []
        for i in 0..<views {
            let s = try MapHost(options: MapRenderOptions(engine: engines[shared ? 0 : i]))
            _ = try s.render(camera: camera)
            snapshotters.append(s)
        }
        blackHole(snapshotters)
        return engines.reduce(0) { $0 + $1.cacheBytes } >> 10
    }
}

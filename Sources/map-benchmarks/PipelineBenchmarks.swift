import Foundation
import MapGeometry
import MapPipeline
import MapRender
import MapRenderCairo
import MapSnapshot

private let pipelineFrame = ScreenSize(width: 1280, height: 720)

/// A cold frame of the default style: every run forgets the renderer's caches (decoded tiles, tile images, symbols)
/// and renders 1280×720 into pixels, so tiles are read, decoded, styled, rasterised and composed again. Label
/// sprites stay warm in the backend (they are a separate cache).
final class PipelineColdFrameBenchmark: Benchmark {
    let name: String
    let unit = "frames"
    let iterations = 7
    private let camera: CameraState
    private var snapshotter: Snapshotter!

    init(name: String, camera: CameraState) {
        self.name = name
        self.camera = camera
    }

    /// Central Helsinki at zoom 16.
    static var helsinkiZ16: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(
            name: "pipeline-cold-helsinki-z16",
            camera: CameraState(center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, size: pipelineFrame))
    }

    /// The world at zoom 2.
    static var worldZ2: PipelineColdFrameBenchmark {
        PipelineColdFrameBenchmark(
            name: "pipeline-world-z2",
            camera: CameraState(center: LatLng(latitude: 30, longitude: 10), zoom: 2, size: pipelineFrame))
    }

    func setUp() throws { snapshotter = try Snapshotter() }

    func run() throws -> Int {
        snapshotter.renderer.invalidate()
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
    private var snapshotter: Snapshotter!
    private var surface: CairoSurface!
    private var step = 0

    init(name: String, camera: CameraState, move: @escaping (CameraState, Int) -> CameraState) {
        self.name = name
        self.camera = camera
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
        snapshotter = try Snapshotter()
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

/// A warm pitched frame: Helsinki z16, bearing 45, pitch 50. Tiles stay decoded and prepared in the renderer's cache,
/// but every frame projects and draws every tile's vectors (pitched frames use no tile images), places the labels
/// and draws into a 1280×720 Cairo surface.
final class PipelinePitchedFrameBenchmark: Benchmark {
    let name = "pipeline-pitched-frame"
    let unit = "frames"
    let iterations = 10
    private var snapshotter: Snapshotter!
    private var surface: CairoSurface!
    private let camera = CameraState(
        center: LatLng(latitude: 60.1699, longitude: 24.9415), zoom: 16, bearing: 45, pitch: 50, size: pipelineFrame)

    func setUp() throws {
        snapshotter = try Snapshotter()
        surface = try CairoSurface(width: 1280, height: 720)
    }

    func run() throws -> Int {
        let list = snapshotter.renderer.displayList(camera: camera)
        snapshotter.backend.draw(list, into: surface, clearFirst: false)
        return 1
    }
}

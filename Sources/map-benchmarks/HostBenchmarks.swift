import Foundation
import GoogleMaps

/// 60 frames of a 800 × 600 pt map over central Helsinki panning 4 points a frame, drawn directly (`tick()` then
/// `renderImage(scale: 1)`, as map-viewer's content did before issue 15): the baseline of ``HostFrameBenchmark``.
struct DirectMapFrameBenchmark: Benchmark {
    let name = "host-direct-map-frames"
    let unit = "frames"
    private var map: GMSMapView?

    mutating func setUp() throws {
        map = MainActor.assumeIsolated { makePanningMap() }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let map else { return 0 }
            for _ in 0..<60 {
                panByOneStep(map)
                map.tick()
                blackHole(map.renderImage(scale: 1).size.width)
            }
            return 60
        }
    }
}

/// The same 60 frames through the app's frame loop (`UIHeadlessHost`: run-loop service, frame-due checks over the
/// window's tree, display links, animation completions, the map's tick, layout, the window's render): the window
/// path's cost over ``DirectMapFrameBenchmark`` is the difference of the two medians.
struct HostFrameBenchmark: Benchmark {
    let name = "host-window-map-frames"
    let unit = "frames"
    private var host: UIHeadlessHost?
    private var map: GMSMapView?

    mutating func setUp() throws {
        (host, map) = MainActor.assumeIsolated {
            let map = makePanningMap()
            UIApplication.shared.resetForNextRun()
            let host = UIHeadlessHost(view: map)
            host.runUntilIdle()
            return (host, map)
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let host, let map else { return 0 }
            for _ in 0..<60 {
                panByOneStep(map)
                host.advance(by: UIHeadlessHost.frameInterval)
            }
            return 60
        }
    }
}

/// 600 snapshots of a still map through `UIHeadlessHost.snapshot()`: after the first frame nothing is drawn again.
struct HostStillSnapshotBenchmark: Benchmark {
    let name = "host-still-map-snapshots"
    let unit = "snapshots"
    private var host: UIHeadlessHost?

    mutating func setUp() throws {
        host = MainActor.assumeIsolated {
            let map = makePanningMap()
            UIApplication.shared.resetForNextRun()
            let host = UIHeadlessHost(view: map)
            host.runUntilIdle()
            return host
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let host else { return 0 }
            for _ in 0..<600 { blackHole(host.snapshot().size.width) }
            return 600
        }
    }
}

@MainActor private func makePanningMap() -> GMSMapView {
    GMSMapView(
        frame: CGRect(x: 0, y: 0, width: 800, height: 600),
        camera: GMSCameraPosition(latitude: 60.1699, longitude: 24.9443, zoom: 16))
}

/// Moves the camera 4 points east (a pan frame), wrapping back over the extract every 100 frames.
@MainActor private func panByOneStep(_ map: GMSMapView) {
    var camera = map.camera.target
    camera.longitude += 4 / (256 * pow(2, 16) / 360)
    if camera.longitude > 24.96 { camera.longitude = 24.93 }
    map.moveCamera(GMSCameraUpdate.setTarget(camera))
}

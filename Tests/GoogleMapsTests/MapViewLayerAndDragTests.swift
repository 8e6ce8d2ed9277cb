import Foundation
import MapPipeline
import Testing
import WaymarkTime

@testable import GoogleMaps
@testable import LinuxUIKit

@MainActor @Suite struct MapViewLayerAndDragTests {
    @Test func mapLayerReadsAndSetsTheCamera() {
        let clock = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 10, longitude: 20, zoom: 5))
        let delegate = RecordingDelegate()
        map.delegate = delegate
        #expect(map.layer === map.mapLayer)
        #expect(map.mapLayer.cameraLatitude == 10 && map.mapLayer.cameraLongitude == 20)
        #expect(map.mapLayer.value(forKey: kGMSLayerCameraZoomLevelKey) as? Float == 5)
        map.mapLayer.cameraZoomLevel = 30  // clamped (D3)
        #expect(map.camera.zoom == 21)
        map.mapLayer.setValue(200.0, forKey: kGMSLayerCameraLongitudeKey)  // wrapped
        #expect(abs(map.camera.target.longitude - -160) < 1e-9)
        map.mapLayer.cameraLatitude = 89  // clamped to 85
        #expect(map.camera.target.latitude == 85)
        run(map, clock, frames: 3)
        #expect(delegate.log == ["willMove(false)", "didChange", "idle"])
    }

    @Test func dragMovesTheMarkerBeforeEachCallback() {
        _ = installMapClock()
        let map = makeMap(GMSCameraPosition(latitude: 0, longitude: 0, zoom: 10))
        final class DragDelegate: GMSMapViewDelegate {
            var log: [String] = []
            func mapView(_ mapView: GMSMapView, didBeginDragging marker: GMSMarker) {
                log.append("begin \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
            func mapView(_ mapView: GMSMapView, didDrag marker: GMSMarker) {
                log.append("drag \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
            func mapView(_ mapView: GMSMapView, didEndDragging marker: GMSMarker) {
                log.append("end \(Int(mapView.projection.point(for: marker.position).x.rounded()))")
            }
        }
        let delegate = DragDelegate()
        map.delegate = delegate
        let m = GMSMarker(position: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        m.map = map
        // Not draggable: ignored.
        map.dragMarker(m, phase: .began, to: CGPoint(x: 250, y: 150))
        #expect(delegate.log.isEmpty)
        m.isDraggable = true
        map.dragMarker(m, phase: .began, to: CGPoint(x: 200, y: 150))
        map.dragMarker(m, phase: .changed, to: CGPoint(x: 230, y: 150))
        map.dragMarker(m, phase: .ended, to: CGPoint(x: 260, y: 150))
        #expect(delegate.log == ["begin 200", "drag 230", "end 260"])
        // The index follows: the marker is hit at its new place.
        #expect(map.markerHit(at: CGPoint(x: 260, y: 140)) === m)
        #expect(map.markerHit(at: CGPoint(x: 200, y: 140)) == nil)
    }
}

@MainActor @Suite struct MapViewRenderEventTests {
    final class RenderDelegate: GMSMapViewDelegate {
        var log: [String] = []
        func mapView(_ mapView: GMSMapView, idleAt position: GMSCameraPosition) { log.append("idle") }
        func mapViewDidStartTileRendering(_ mapView: GMSMapView) { log.append("start") }
        func mapViewDidFinishTileRendering(_ mapView: GMSMapView) { log.append("finish") }
        func mapViewSnapshotReady(_ mapView: GMSMapView) { log.append("ready") }
    }

    @Test func renderingEventsComeInOrderOncePerCamera() {
        let clock = installMapClock()
        let map = makeMap()
        let delegate = RenderDelegate()
        map.delegate = delegate
        // Nothing drawn yet: nothing reported.
        run(map, clock, frames: 2)
        #expect(delegate.log.isEmpty)
        for _ in 0..<3 {
            clock.advance(by: 1.0 / 60)
            _ = map.renderFrame(scale: 1)
        }
        map.tick()
        // The first settled camera is reported once (idleAt on first appearance), beside the rendering events.
        #expect(delegate.log.filter { $0 != "idle" } == ["start", "finish", "ready"])
        #expect(delegate.log.filter { $0 == "idle" }.count == 1)
        delegate.log = []
        map.animate(toZoom: 15)
        for _ in 0..<90 {
            clock.advance(by: 1.0 / 60)
            _ = map.renderFrame(scale: 1)
        }
        map.tick()
        // Started for the new camera, ready only after idle.
        #expect(delegate.log.first == "start")
        #expect(delegate.log.last == "ready")
        #expect(delegate.log.filter { $0 == "ready" }.count == 1)
        let idle = delegate.log.firstIndex(of: "idle") ?? Int.max
        #expect(idle < delegate.log.lastIndex(of: "ready")!)
    }

    /// Counts tile arrivals from the basemap's worker thread (every member takes the lock).
    final class Arrivals: @unchecked Sendable {
        private let condition = NSCondition()
        private var count = 0
        func arrived() {
            condition.lock()
            count += 1
            condition.broadcast()
            condition.unlock()
        }
        /// Waits until more than `seen` arrivals happened (30 s guard against hanging); returns the count.
        func wait(after seen: Int) -> Int {
            let deadline = Date(timeIntervalSinceNow: 30)
            condition.lock()
            defer { condition.unlock() }
            while count <= seen && condition.wait(until: deadline) {}
            return count
        }
    }

    /// A host that opts into off-main-thread tiles: the first frame draws stand-ins and only starts tile rendering;
    /// the map asks for frames only when tiles arrive (not while they are being made), and finishes tile rendering
    /// and reports the snapshot ready once a frame had every tile.
    @Test func anAsynchronousBasemapFinishesTileRenderingWhenItsTilesArrive() throws {
        let clock = installMapClock()
        let arrivals = Arrivals()
        // An engine of its own: the process's shared one may hold these tiles from other tests already.
        let vector = try VectorBasemapRenderer(onTileArrived: { arrivals.arrived() }, engine: MapEngine())
        let map = makeMap(GMSCameraPosition(latitude: 60.1699, longitude: 24.9415, zoom: 15))
        map.basemap = vector
        let delegate = RenderDelegate()
        map.delegate = delegate
        _ = map.renderFrame(scale: 1)
        map.tick()
        #expect(delegate.log.filter { $0 != "idle" } == ["start"])
        #expect(vector.isLoading)
        #expect(vector.snapshotter.renderer.lastFrameStatistics.tilesPending > 0)
        // The camera jumps on while tiles load: the rounds of start and finish still pair up.
        for step in 1...4 {
            map.camera = GMSCameraPosition(latitude: 60.1699, longitude: 24.9415 + 0.004 * Double(step), zoom: 16)
            clock.advance(by: 1.0 / 60)
            _ = map.renderFrame(scale: 1)
        }
        map.tick()
        var seen = 0
        var frames = 0
        while vector.isLoading && frames < 500 {
            // Only arrivals (and label work put off to the next frame) make the map want a frame.
            guard map.needsTick else {
                let before = seen
                seen = arrivals.wait(after: seen)
                if seen == before { break }  // no tile arrived within the wait's 30 s: the expectations below fail
                continue
            }
            clock.advance(by: 1.0 / 60)
            _ = map.renderFrame(scale: 1)
            frames += 1
        }
        #expect(!vector.isLoading)
        #expect(vector.snapshotter.renderer.lastFrameStatistics.tilesPending == 0)
        let asksForFrames1 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(asksForFrames1 || delegate.log.last == "finish")  // the finish is due (or just went out)
        map.tick()
        let rounds = delegate.log.filter { $0 == "start" || $0 == "finish" }
        #expect(rounds.count >= 2 && rounds.count % 2 == 0, "\(delegate.log)")
        #expect(rounds.enumerated().allSatisfy { $1 == ($0 % 2 == 0 ? "start" : "finish") }, "\(delegate.log)")
        #expect(delegate.log.last == "ready")
        #expect(delegate.log.filter { $0 == "ready" }.count == 1)
        let asksForFrames2 = map.needsTick  // a Bool, so a failure does not describe the whole map view
        #expect(!asksForFrames2)
    }

    @Test func badInputNeverCrashes() {
        _ = installMapClock()
        let map = GMSMapView()
        // A zero-size map renders and takes taps.
        _ = map.renderFrame(scale: 2)
        let m = GMSMarker()
        m.map = map
        #expect(map.handleTap(at: CGPoint(x: CGFloat.nan, y: 0)) == .map(nil))
        #expect(map.markerHit(at: CGPoint(x: CGFloat.infinity, y: 3)) == nil)
        map.camera = GMSCameraPosition(latitude: .nan, longitude: .infinity, zoom: .nan)
        #expect(map.camera.zoom == kGMSMinZoomLevel)
        m.groundAnchor = CGPoint(x: CGFloat.nan, y: 1e300)
        m.rotation = .infinity
        _ = map.renderFrame(scale: 1)
        map.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        _ = map.renderFrame(scale: 1)
        _ = map.handleTap(at: CGPoint(x: 50, y: 50))
    }
}

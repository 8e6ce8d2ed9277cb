import Foundation
import GoogleMaps

/// A deterministic generator for the shape benchmarks.
private struct ShapeRandom {
    var state: UInt64 = 0x5EED_0000_5A9E
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// The benchmark camera: Helsinki at zoom 12 on a 1280 × 720 map with no basemap (`mapType = .none`), so a frame
/// times the overlays alone. At zoom 12 one point is about 0.000343° of longitude and 0.000172° of latitude here.
@MainActor private func shapeMap() -> GMSMapView {
    let map = GMSMapView.map(
        withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
        camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
    map.mapType = .none
    return map
}

/// `count` random-walk routes of `points` points each, inside the benchmark view: each starts at a random point and
/// steps about 1.5 points in a slowly turning direction (a route ≈ 1,500 points long), reflected at the view edges.
private func routePaths(_ count: Int, points: Int) -> [[CLLocationCoordinate2D]] {
    var rng = ShapeRandom()
    let degX = 0.000343
    let degY = 0.000172
    return (0..<count).map { _ in
        var x = rng.next() * 1280
        var y = rng.next() * 720
        var heading = rng.next() * 2 * .pi
        return (0..<points).map { _ in
            heading += (rng.next() - 0.5) * 0.6
            x += cos(heading) * 1.5
            y += sin(heading) * 1.5
            if x < 0 || x > 1280 {
                heading = .pi - heading
                x = min(max(x, 0), 1280)
            }
            if y < 0 || y > 720 {
                heading = -heading
                y = min(max(y, 0), 720)
            }
            return CLLocationCoordinate2D(latitude: 60.17 + (360 - y) * degY, longitude: 24.94 + (x - 640) * degX)
        }
    }
}

/// `count` random pentagons about 12 points across, inside the benchmark view.
private func pentagonPaths(_ count: Int) -> [[CLLocationCoordinate2D]] {
    var rng = ShapeRandom(state: 77)
    return (0..<count).map { _ in
        let x = rng.next() * 1280
        let y = rng.next() * 720
        return (0..<5).map { k in
            let a = Double(k) * 2 * .pi / 5
            return CLLocationCoordinate2D(
                latitude: 60.17 + (360 - y - 6 * sin(a)) * 0.000172,
                longitude: 24.94 + (x + 6 * cos(a) - 640) * 0.000343)
        }
    }
}

@MainActor private func path(_ coordinates: [CLLocationCoordinate2D]) -> GMSMutablePath {
    let p = GMSMutablePath()
    for c in coordinates { p.add(c) }
    return p
}

/// Adds 1,000 polylines of 1,000 points each to a 1280 × 720 map (timed: making the polylines from the paths,
/// assigning `map`, and the first hit test, which indexes them and prepares the ones near the tap), then clears the
/// map (timed too). The map and its basemap are made once, outside the timing.
struct ShapeAddBenchmark: Benchmark {
    let name = "shape-add-1k-polylines"
    let unit = "polylines"
    let iterations = 10
    private var paths: [GMSMutablePath] = []
    private var map: GMSMapView?

    mutating func setUp() throws {
        paths = MainActor.assumeIsolated { routePaths(1000, points: 1000).map(path) }
        map = MainActor.assumeIsolated {
            let map = shapeMap()
            _ = map.tapTarget(CGPoint(x: 640, y: 360))
            return map
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let map else { return 0 }
            for p in paths { GMSPolyline(path: p).map = map }
            let hit = map.tapTarget(CGPoint(x: 640, y: 360))
            blackHole(hit == .map(nil) ? 0 : 1)
            map.clear()
            return paths.count
        }
    }
}

/// One pan frame (the camera moves 3 points each run) of a 1280 × 720 map with shapes visible and no basemap:
/// 1,000 polylines of 1,000 points (default width 1), or 10,000 filled pentagons.
struct ShapePanFrameBenchmark: Benchmark {
    enum Content { case polylines, polygons }
    let content: Content
    var name: String { content == .polylines ? "shape-pan-1k-polylines" : "shape-pan-10k-polygons" }
    var unit: String { content == .polylines ? "polylines" : "polygons" }
    let iterations = 20
    private var map: GMSMapView?
    private var step = 0

    init(_ content: Content) { self.content = content }

    mutating func setUp() throws {
        let content = self.content
        map = MainActor.assumeIsolated {
            let map = shapeMap()
            switch content {
            case .polylines:
                for r in routePaths(1000, points: 1000) { GMSPolyline(path: path(r)).map = map }
            case .polygons:
                for r in pentagonPaths(10_000) { GMSPolygon(path: path(r)).map = map }
            }
            _ = map.renderImage(scale: 1)
            return map
        }
    }

    mutating func run() throws -> Int {
        step += 1
        let step = self.step
        let content = self.content
        return MainActor.assumeIsolated {
            guard let map else { return 0 }
            let dx = Double(step % 2 == 0 ? 3 : -3) * 0.000343
            map.moveCamera(.setTarget(CLLocationCoordinate2D(latitude: 60.17, longitude: 24.94 + dx)))
            let image = map.renderImage(scale: 1)
            blackHole(Int(image.size.width))
            return content == .polylines ? 1000 : 10_000
        }
    }
}

/// 1,000 taps at scattered points of the 1280 × 720 map holding both shape sets above (1,000 routes and 10,000
/// tappable pentagons); the median run ÷ 1,000 is one hit test.
struct ShapeHitTestBenchmark: Benchmark {
    let name = "shape-hit-test"
    let unit = "taps"
    let iterations = 20
    private var map: GMSMapView?
    private var points: [CGPoint] = []

    mutating func setUp() throws {
        var rng = ShapeRandom(state: 99)
        points = (0..<1000).map { _ in CGPoint(x: rng.next() * 1280, y: rng.next() * 720) }
        map = MainActor.assumeIsolated {
            let map = shapeMap()
            for r in routePaths(1000, points: 1000) {
                let l = GMSPolyline(path: path(r))
                l.isTappable = true
                l.map = map
            }
            for r in pentagonPaths(10_000) {
                let p = GMSPolygon(path: path(r))
                p.isTappable = true
                p.map = map
            }
            _ = map.tapTarget(CGPoint(x: 1, y: 1))
            return map
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let map else { return 0 }
            var hits = 0
            for p in points { if case .overlay = map.tapTarget(p) { hits += 1 } }
            blackHole(hits)
            return points.count
        }
    }
}

/// Google's Polylines sample (maps-sdk-for-ios-samples' `PolylinesViewController`, in our words): 30 geodesic
/// polylines of six points looping the Pacific on a 1280 × 720 map at zoom 3 with no basemap; each run gives every
/// polyline new gradient spans (`GMSStyleSpansOffset`, 21 repeats of green-fade, red-fade and clear, shifted 50 km)
/// and draws the frame: what the sample does ten times a second.
struct ShapeSpansFrameBenchmark: Benchmark {
    let name = "shape-spans-frame"
    let unit = "polylines"
    let iterations = 20
    /// The map, its polylines, the sample's styles and the repeat length (metres), made in `setUp`.
    @MainActor private final class Scene {
        let map: GMSMapView
        var polylines: [GMSPolyline] = []
        let styles = [
            GMSStrokeStyle.gradient(from: .green, to: UIColor.green.withAlphaComponent(0)),
            GMSStrokeStyle.gradient(from: UIColor.red.withAlphaComponent(0), to: .red),
            GMSStrokeStyle.solidColor(UIColor(white: 0, alpha: 0)),
        ]
        var length: Double = 0
        var offset: Double = 0

        init() {
            map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: -30, longitude: -175, zoom: 3))
            map.mapType = .none
            var loop = GMSMutablePath()
            for (lat, lng) in [
                (-33.866901, 151.195988), (-18.0, 179.0), (21.291982, -157.821856), (37.423802, -122.091859),
                (-12.0, -77.0), (-33.866901, 151.195988),
            ] {
                loop.addLatitude(lat, longitude: lng)
            }
            loop = loop.pathOffset(byLatitude: -30, longitude: 0)
            length = loop.length(of: .geodesic) / 21
            for i in 0..<30 {
                let polyline = GMSPolyline(path: loop.pathOffset(byLatitude: Double(i) * 1.5, longitude: 0))
                polyline.strokeWidth = 8
                polyline.geodesic = true
                polyline.map = map
                polylines.append(polyline)
            }
            _ = map.renderImage(scale: 1)
        }

        /// The sample's step: new spans shifted 50 km, then a frame.
        func step() -> Int {
            offset -= 50_000
            for polyline in polylines {
                guard let path = polyline.path else { continue }
                polyline.spans = GMSStyleSpansOffset(path, styles, [NSNumber(value: length)], .geodesic, offset)
            }
            let image = map.renderImage(scale: 1)
            blackHole(Int(image.size.width))
            return polylines.count
        }
    }
    private var scene: Scene?

    mutating func setUp() throws {
        scene = MainActor.assumeIsolated { Scene() }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated { scene?.step() ?? 0 }
    }
}

import MapGeometry

/// The camera the projection benchmarks use: Manhattan, zoom 15.5, bearing 30°, pitch 45°, a 1024 × 768 view with
/// padding.
private let benchmarkCamera = CameraState(
    center: LatLng(latitude: 40.758, longitude: -73.9855), zoom: 15.5, bearing: 30, pitch: 45,
    size: ScreenSize(width: 1024, height: 768), padding: EdgeInsets(top: 40, left: 0, bottom: 80, right: 0))

/// Projects a million geographic positions to screen points through one `CameraTransform` (world → screen,
/// including the Mercator forward transform).
struct ProjectWorldToScreenBenchmark: Benchmark {
    let name = "projection-world-to-screen"
    let unit = "points"
    private var positions: [LatLng] = []

    mutating func setUp() throws {
        let t = benchmarkCamera.transform
        positions.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let sp = ScreenPoint(x: Double(i % 1000) * 1.024, y: 100 + Double(i / 1000) * 0.668)
            positions.append(t.latLng(for: sp)!)
        }
    }

    func run() throws -> Int {
        let t = benchmarkCamera.transform
        var sum = 0.0
        for p in positions {
            let s = t.screenPoint(for: p)
            sum += s.x + s.y
        }
        blackHole(sum)
        return positions.count
    }
}

/// Unprojects a million screen points to geographic positions (screen → world, including the Mercator inverse).
struct ProjectScreenToWorldBenchmark: Benchmark {
    let name = "projection-screen-to-world"
    let unit = "points"

    func run() throws -> Int {
        let t = benchmarkCamera.transform
        var sum = 0.0
        var count = 0
        for j in 0..<1000 {
            for i in 0..<1000 {
                if let p = t.latLng(for: ScreenPoint(x: Double(i) * 1.024, y: 100 + Double(j) * 0.668)) {
                    sum += p.latitude + p.longitude
                    count += 1
                }
            }
        }
        blackHole(sum)
        return count
    }
}

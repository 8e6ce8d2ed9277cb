import Foundation
import GoogleMaps

#if canImport(Glibc)
    import Glibc
#endif

/// Positions spread over Helsinki's centre (about 0.2° × 0.1°), deterministic.
private func helsinkiPositions(_ count: Int, spanLat: Double = 0.1, spanLng: Double = 0.2) -> [CLLocationCoordinate2D] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { _ in
        CLLocationCoordinate2D(latitude: 60.17 + (next() - 0.5) * spanLat, longitude: 24.94 + (next() - 0.5) * spanLng)
    }
}

/// The process's resident memory, bytes (`/proc/self/statm`, second field × page size); 0 when unreadable.
private func heapBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Creates a 1280 × 720 map and adds `count` default markers to it, takes one hit test (which indexes them) and removes
/// them with `clear()` (all timed). `setUp` prints the resident memory growth per marker once, measured around a
/// separate add and hit test.
struct MarkerAddBenchmark: Benchmark {
    let name: String
    let unit = "markers"
    let iterations: Int
    let count: Int
    private var positions: [CLLocationCoordinate2D] = []

    /// 100,000 markers (`marker-add-100k`, 5 runs) or 1,000,000 (`marker-add-1m`, 3 runs).
    init(count: Int) {
        self.count = count
        name = count >= 1_000_000 ? "marker-add-1m" : "marker-add-100k"
        iterations = count >= 1_000_000 ? 3 : 5
    }

    mutating func setUp() throws {
        positions = helsinkiPositions(count)
        let positions = self.positions
        let name = self.name
        MainActor.assumeIsolated {
            let before = heapBytes()
            let map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            var markers: [GMSMarker] = []
            markers.reserveCapacity(positions.count)
            for p in positions {
                let m = GMSMarker(position: p)
                m.map = map
                markers.append(m)
            }
            // Once tapped, the markers are in the quadtree's leaves (insertions are batched until the first query).
            blackHole(map.markerHit(at: CGPoint(x: 640, y: 360)))
            // The test's own array (8 bytes a marker) is not the marker's cost.
            let after = heapBytes() - markers.capacity * 8
            print(
                "\(name): \(String(format: "%.0f", Double(after - before) / Double(positions.count))) bytes per "
                    + "marker (resident memory growth, /proc/self/statm)")
            map.clear()
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            let map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            for p in positions {
                let m = GMSMarker(position: p)
                m.map = map
            }
            let hit = map.markerHit(at: CGPoint(x: 640, y: 360)) != nil ? 1 : 0
            map.clear()
            return positions.count + hit * 0
        }
    }
}

/// Renders one 1280 × 720 frame at scale 1 with 10,000 visible default markers over the map's default basemap (the
/// vector pipeline composing cached tile images once the first frame has rasterised them; the plain background when
/// `Data/` cannot be found).
struct MarkerFrameBenchmark: Benchmark {
    let name = "marker-frame-10k"
    let unit = "markers"
    let iterations = 20
    private var map: GMSMapView?

    mutating func setUp() throws {
        map = MainActor.assumeIsolated {
            let map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            // Zoom 12 at 60° N: 1280 pt ≈ 0.22° of longitude, 720 pt ≈ 0.062° of latitude; stay inside.
            for p in helsinkiPositions(10_000, spanLat: 0.05, spanLng: 0.2) {
                GMSMarker(position: p).map = map
            }
            return map
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            let image = map?.renderImage(scale: 1)
            blackHole(Int(image?.size.width ?? 0))
            return 10_000
        }
    }
}

/// 1,000 taps at scattered points of a 1280 × 720 map holding `count` markers in 0.2° × 0.1° of Helsinki; the median
/// run ÷ 1,000 is the median-run cost of one hit test. With 1,000,000 markers about 2,900 pins overlap under a tap.
struct MarkerHitTestBenchmark: Benchmark {
    let name: String
    let unit = "taps"
    let iterations = 20
    let count: Int
    private var map: GMSMapView?
    private var points: [CGPoint] = []

    /// 100,000 markers (`marker-hit-test-100k`) or 1,000,000 (`marker-hit-test-1m`).
    init(count: Int) {
        self.count = count
        name = count >= 1_000_000 ? "marker-hit-test-1m" : "marker-hit-test-100k"
    }

    mutating func setUp() throws {
        let count = self.count
        map = MainActor.assumeIsolated {
            let map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            for p in helsinkiPositions(count) {
                GMSMarker(position: p).map = map
            }
            return map
        }
        points = (0..<1000).map { CGPoint(x: Double(($0 * 7919) % 1280), y: Double(($0 * 104_729) % 720)) }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            var hits = 0
            for p in points where map?.markerHit(at: p) != nil { hits += 1 }
            blackHole(hits)
            return points.count
        }
    }
}

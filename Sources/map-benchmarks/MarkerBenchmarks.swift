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

/// Creates a 1280 × 720 map and adds 100,000 default markers to it (timed), then removes them (not timed). Prints
/// the heap bytes per marker once, measured with glibc's `mallinfo2` around a separate add.
struct MarkerAddBenchmark: Benchmark {
    let name = "marker-add-100k"
    let unit = "markers"
    let iterations = 5
    private var positions: [CLLocationCoordinate2D] = []

    mutating func setUp() throws {
        positions = helsinkiPositions(100_000)
        let positions = self.positions
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
            // The test's own array (8 bytes a marker) is not the marker's cost.
            let after = heapBytes() - markers.capacity * 8
            print(
                "marker-add-100k: \(String(format: "%.0f", Double(after - before) / Double(positions.count))) bytes per "
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

/// 1,000 taps at scattered points of a 1280 × 720 map holding 100,000 markers; the median run ÷ 1,000 is the
/// median-run cost of one hit test.
struct MarkerHitTestBenchmark: Benchmark {
    let name = "marker-hit-test-100k"
    let unit = "taps"
    let iterations = 20
    private var map: GMSMapView?
    private var points: [CGPoint] = []

    mutating func setUp() throws {
        map = MainActor.assumeIsolated {
            let map = GMSMapView.map(
                withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            for p in helsinkiPositions(100_000) {
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

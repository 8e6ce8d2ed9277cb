import Foundation
import GoogleMaps
import GoogleMapsUtils
import MapGeometry

#if canImport(Glibc)
    import Glibc
#endif

/// A deterministic generator for the utils benchmarks.
private struct UtilsRandom {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    /// A normal deviate (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(next(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * next())
    }
}

/// `count` positions over western Europe: 200 Gaussian city clusters (σ 0.05°–0.3°) holding 80 %, the rest uniform.
func europePositions(_ count: Int) -> [CLLocationCoordinate2D] {
    var rng = UtilsRandom(state: 0x5EED)
    let cities = (0..<200).map { _ in (43 + rng.next() * 12, -5 + rng.next() * 20, 0.05 + rng.next() * 0.25) }
    return (0..<count).map { i in
        if i % 5 == 4 { return CLLocationCoordinate2D(latitude: 43 + rng.next() * 12, longitude: -5 + rng.next() * 20) }
        let c = cities[Int(rng.next() * Double(cities.count))]
        return CLLocationCoordinate2D(latitude: c.0 + rng.gaussian() * c.2, longitude: c.1 + rng.gaussian() * c.2)
    }
}

/// A plain cluster item.
final class BenchItem: GMUClusterItem {
    let position: CLLocationCoordinate2D
    init(_ position: CLLocationCoordinate2D) { self.position = position }
}

/// The process's resident memory, bytes.
private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Clustering `count` items at `zoom` with Google's default algorithm (the work of a new zoom:
/// `clusters(atZoom:)`); items are added in `setUp`, which also clusters once (the first clustering after a change
/// makes the search grid) and prints the bytes the algorithm holds per item then.
struct ClusterBenchmark: Benchmark {
    let name: String
    let unit = "items"
    let count: Int
    let zoom: Float
    var iterations: Int { count >= 1_000_000 ? 3 : 10 }
    private var algorithm = GMUNonHierarchicalDistanceBasedAlgorithm()
    private var items: [BenchItem] = []

    init(count: Int, zoom: Float) {
        self.count = count
        self.zoom = zoom
        name = "cluster-\(count >= 1_000_000 ? "\(count / 1_000_000)m" : "\(count / 1000)k")-z\(Int(zoom))"
    }

    mutating func setUp() throws {
        items = europePositions(count).map(BenchItem.init)
        let before = residentBytes()
        let start = Date()
        algorithm.addItems(items)
        let added = Date().timeIntervalSince(start)
        // The first clustering makes the search grid the algorithm keeps until the items change.
        let first = Date()
        blackHole(algorithm.clusters(atZoom: zoom).count)
        let clustered = Date().timeIntervalSince(first)
        let grown = residentBytes() - before
        print(
            "\(name): add \(String(format: "%.0f", added * 1000)) ms, first clustering "
                + "\(String(format: "%.1f", clustered * 1000)) ms; algorithm holds \(algorithm.bytesHeld / count) B/item"
                + " (resident growth \(grown / count) B/item)")
    }

    mutating func run() throws -> Int {
        let clusters = algorithm.clusters(atZoom: zoom)
        return clusters.count > 0 ? count : 0
    }
}

/// Supercluster (pysupercluster, the C++ port) on the same points, timed inside Python: index build once, then
/// `getClusters` over the world at the zoom; the figure printed is Python's median of 10 runs.
struct SuperclusterBenchmark: Benchmark {
    let name: String
    let unit = "items"
    let count: Int
    let zoom: Int
    let iterations = 1

    init(count: Int, zoom: Int) {
        self.count = count
        self.zoom = zoom
        name = "supercluster-\(count >= 1_000_000 ? "\(count / 1_000_000)m" : "\(count / 1000)k")-z\(zoom)"
    }

    mutating func run() throws -> Int {
        let points = europePositions(count)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-supercluster-\(count).bin")
        var raw = [Double]()
        raw.reserveCapacity(points.count * 2)
        for p in points {
            raw.append(p.longitude)
            raw.append(p.latitude)
        }
        try raw.withUnsafeBytes { try Data($0).write(to: file) }
        let script = """
            import sys, time, statistics, numpy
            import pysupercluster
            pts = numpy.fromfile(sys.argv[1], dtype=numpy.float64).reshape(-1, 2)
            t = time.perf_counter()
            index = pysupercluster.SuperCluster(pts, min_zoom=0, max_zoom=16, radius=100, extent=256)
            build = time.perf_counter() - t
            runs = []
            for _ in range(10):
                t = time.perf_counter()
                c = index.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=int(sys.argv[2]))
                runs.append(time.perf_counter() - t)
            print("%s: index build %.1f ms (all zooms); getClusters median %.2f ms, min %.2f ms, %d clusters" % (
                sys.argv[3], build * 1000, statistics.median(runs) * 1000, min(runs) * 1000, len(c)))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file.path, "\(zoom)", name]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            print("\(name): pysupercluster not available (pip install pysupercluster)")
        }
        return count
    }
}

/// One heatmap tile over `count` weighted points all within it: `tileSize` pixels (the issue's goal is for a
/// 256-pixel tile, GMSTileLayer's default size; `heatmap-tile-100k`), or Google's 512 (`heatmap-tile-100k-512`).
struct HeatmapTileBenchmark: Benchmark {
    let name: String
    let unit = "tiles"
    let count: Int
    let tileSize: Int
    private var layer: GMUHeatmapTileLayer?

    init(count: Int, tileSize: Int = 256) {
        self.count = count
        self.tileSize = tileSize
        name = "heatmap-tile-\(count / 1000)k" + (tileSize == 256 ? "" : "-\(tileSize)")
    }

    mutating func setUp() throws {
        var rng = UtilsRandom(state: 77)
        // Tile (2074, 1409) at zoom 12 (Paris), 0.0879° wide: points Gaussian about its centre.
        let n = 4096.0
        let west = 2074 / n * 360 - 180
        let east = 2075 / n * 360 - 180
        func lat(_ y: Double) -> Double { WebMercator.latLng(WorldPoint(x: 0, y: y / n)).latitude }
        let north = lat(1409)
        let south = lat(1410)
        let data = (0..<count).map { _ in
            GMUWeightedLatLng(
                coordinate: CLLocationCoordinate2D(
                    latitude: min(max((north + south) / 2 + rng.gaussian() * (north - south) / 5, south), north),
                    longitude: min(max((west + east) / 2 + rng.gaussian() * (east - west) / 5, west), east)),
                intensity: Float(0.5 + rng.next()))
        }
        // The layer is a model object (nonisolated, as on iOS); only putting it on a map needs the main actor.
        let heatmap = GMUHeatmapTileLayer()
        heatmap.weightedData = data
        heatmap.tileSize = tileSize
        nonisolated(unsafe) let onMap = heatmap
        MainActor.assumeIsolated { onMap.map = GMSMapView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)) }
        layer = heatmap
    }

    mutating func run() throws -> Int {
        layer?.tileFor(x: 2074, y: 1409, zoom: 12) != nil ? 1 : 0
    }
}

/// One 1280 × 720 frame at scale 1 over Helsinki at zoom 12 with 10,000 items: clustered by a ``GMUClusterManager``
/// (default algorithm and renderer, no animation; `cluster-frame-10k`), or the same cluster and item markers put on
/// the map alone, without the manager (`cluster-markers-frame-10k`). The issue's goal: the first within 1 ms of the
/// second.
struct ClusterFrameBenchmark: Benchmark {
    let name: String
    let unit = "frames"
    let iterations = 20
    let clustered: Bool
    private var map: GMSMapView?
    private var manager: GMUClusterManager?

    init(clustered: Bool) {
        self.clustered = clustered
        name = clustered ? "cluster-frame-10k" : "cluster-markers-frame-10k"
    }

    mutating func setUp() throws {
        let clustered = self.clustered
        let name = self.name
        let (map, manager): (GMSMapView, GMUClusterManager?) = MainActor.assumeIsolated {
            @MainActor func makeMap() -> GMSMapView {
                GMSMapView.map(
                    withFrame: CGRect(x: 0, y: 0, width: 1280, height: 720),
                    camera: GMSCameraPosition(latitude: 60.17, longitude: 24.94, zoom: 12))
            }
            var rng = UtilsRandom(state: 10_000)
            let items: [any GMUClusterItem] = (0..<10_000).map { _ in
                BenchItem(
                    CLLocationCoordinate2D(
                        latitude: 60.17 + (rng.next() - 0.5) * 0.05, longitude: 24.94 + (rng.next() - 0.5) * 0.2))
            }
            let map = makeMap()
            let renderer = GMUDefaultClusterRenderer(
                mapView: map, clusterIconGenerator: GMUDefaultClusterIconGenerator())
            renderer.animatesClusters = false
            let manager = GMUClusterManager(
                map: map, algorithm: GMUNonHierarchicalDistanceBasedAlgorithm(), renderer: renderer)
            manager.add(items)
            manager.cluster()
            let markers = renderer.currentMarkers
            print("\(name): \(markers.count) markers")
            if clustered { return (map, manager) }
            // The same markers on a map of their own, with no manager or renderer.
            let alone = makeMap()
            for m in markers {
                let copy = GMSMarker(position: m.position)
                copy.icon = m.icon
                copy.groundAnchor = m.groundAnchor
                copy.zIndex = m.zIndex
                copy.map = alone
            }
            renderer.clear()
            return (alone, nil)
        }
        self.map = map
        self.manager = manager
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            let image = map?.renderImage(scale: 1)
            return Int(image?.size.width ?? 0) > 0 ? 1 : 0
        }
    }
}

/// A parse benchmark whose parser failed or read the wrong number of items: an error, not a figure.
struct ParseBenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// Parsing a generated GeoJSON (a FeatureCollection of points, lines and polygons with properties) of about
/// `megabytes` MB. A run that fails or reads a different number of features than generated throws.
struct GeoJSONParseBenchmark: Benchmark {
    let name: String
    let unit = "features"
    let megabytes: Int
    var iterations: Int { 5 }
    private var data = Data()
    private var expected = 0

    init(megabytes: Int) {
        self.megabytes = megabytes
        name = "geojson-parse-\(megabytes)mb"
    }

    mutating func setUp() throws {
        var rng = UtilsRandom(state: 5)
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        var i = 0
        func c() -> String {
            String(format: "[%.6f,%.6f]", -5 + rng.next() * 20, 43 + rng.next() * 12)
        }
        while text.utf8.count < megabytes * 1_000_000 {
            if i > 0 { text += "," }
            let geometry: String
            switch i % 3 {
            case 0: geometry = "{\"type\":\"Point\",\"coordinates\":\(c())}"
            case 1:
                geometry =
                    "{\"type\":\"LineString\",\"coordinates\":[\((0..<8).map { _ in c() }.joined(separator: ","))]}"
            default:
                let ring = (0..<12).map { _ in c() }
                geometry = "{\"type\":\"Polygon\",\"coordinates\":[[\((ring + [ring[0]]).joined(separator: ","))]]}"
            }
            text +=
                "{\"type\":\"Feature\",\"id\":\(i),\"geometry\":\(geometry),\"properties\":{\"name\":\"feature \(i)\",\"rank\":\(i % 10)}}"
            i += 1
        }
        text += "]}"
        data = Data(text.utf8)
        expected = i
        print("\(name): \(data.count) bytes, \(i) features")
    }

    mutating func run() throws -> Int {
        let parser = GMUGeoJSONParser(data: data)
        parser.parse()
        if let error = parser.error { throw ParseBenchmarkFailure(description: "\(name): \(error)") }
        guard parser.features.count == expected else {
            throw ParseBenchmarkFailure(description: "\(name): \(parser.features.count) features, expected \(expected)")
        }
        return parser.features.count
    }
}

/// Parsing a generated KML (placemarks with points, lines and polygons, shared styles) of about `megabytes` MB. A run
/// that fails or reads a different number of placemarks than generated throws.
struct KMLParseBenchmark: Benchmark {
    let name: String
    let unit = "placemarks"
    let megabytes: Int
    var iterations: Int { 5 }
    private var data = Data()
    private var expected = 0

    init(megabytes: Int) {
        self.megabytes = megabytes
        name = "kml-parse-\(megabytes)mb"
    }

    mutating func setUp() throws {
        var rng = UtilsRandom(state: 6)
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
        for s in 0..<10 {
            text += "<Style id=\"s\(s)\"><LineStyle><color>ff0000ff</color><width>\(s + 1)</width></LineStyle>"
            text += "<PolyStyle><color>7f00ff00</color></PolyStyle></Style>\n"
        }
        func c() -> String { String(format: "%.6f,%.6f,0", -5 + rng.next() * 20, 43 + rng.next() * 12) }
        var i = 0
        while text.utf8.count < megabytes * 1_000_000 {
            text += "<Placemark><name>placemark \(i)</name><styleUrl>#s\(i % 10)</styleUrl>"
            switch i % 3 {
            case 0: text += "<Point><coordinates>\(c())</coordinates></Point>"
            case 1:
                text +=
                    "<LineString><coordinates>\((0..<8).map { _ in c() }.joined(separator: " "))</coordinates></LineString>"
            default:
                let ring = (0..<12).map { _ in c() }
                text +=
                    "<Polygon><outerBoundaryIs><LinearRing><coordinates>\((ring + [ring[0]]).joined(separator: " "))"
                text += "</coordinates></LinearRing></outerBoundaryIs></Polygon>"
            }
            text += "</Placemark>\n"
            i += 1
        }
        text += "</Document></kml>\n"
        data = Data(text.utf8)
        expected = i
        print("\(name): \(data.count) bytes, \(i) placemarks")
    }

    mutating func run() throws -> Int {
        let parser = GMUKMLParser(data: data)
        parser.parse()
        if let error = parser.error { throw ParseBenchmarkFailure(description: "\(name): \(error)") }
        guard parser.placemarks.count == expected, parser.styles.count == 10 else {
            throw ParseBenchmarkFailure(
                description: "\(name): \(parser.placemarks.count) placemarks and \(parser.styles.count) styles,"
                    + " expected \(expected) and 10")
        }
        return parser.placemarks.count
    }
}

import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapLayout

/// The camera of the placement cases: Helsinki at z15, 1280 × 720.
private let placementCamera = CameraState(
    center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 15, size: ScreenSize(width: 1280, height: 720))

/// About 3,000 candidate labels over a 1280 × 720 view (2,400 point labels, 10 % with a 16 × 16 icon, and 600 road
/// names along 2–6-vertex lines), with real label sizes: 10–16 pt text of Helsinki street and place names.
func placementSymbols(camera: CameraState, seed: UInt64) -> [SymbolFeature] {
    var random = BenchRandom(seed: seed)
    let names = [
        "Kamppi", "Kallio", "Töölö", "Punavuori", "Katajanokka", "Sörnäinen", "Ruoholahti", "Pasila", "Esplanadi",
        "Senaatintori", "Suomenlinna", "Kaivopuisto", "Hakaniemi", "Hietalahti", "Kruununhaka", "Lauttasaari",
    ]
    let roads = [
        "Mannerheimintie", "Aleksanterinkatu", "Bulevardi", "Fredrikinkatu", "Hämeentie", "Runeberginkatu",
        "Topeliuksenkatu", "Unioninkatu", "Pohjoisesplanadi", "Lönnrotinkatu", "Tehtaankatu", "Sturenkatu",
    ]
    let width = camera.size.width
    let height = camera.size.height
    func world(_ x: Double, _ y: Double) -> WorldPoint { camera.worldPoint(for: ScreenPoint(x: x, y: y))! }
    var symbols: [SymbolFeature] = []
    symbols.reserveCapacity(3000)
    for i in 0..<2400 {
        let text = "\(names[i % names.count]) \(i % 97)"
        let style = TextStyle(
            size: Double(10 + i % 7), weight: i % 5 == 0 ? .bold : .regular, haloColor: .white, haloWidth: 1)
        var symbol = SymbolFeature(
            identity: SymbolIdentity(layer: i % 3 == 0 ? "place" : "poi", featureID: UInt64(i), text: text),
            geometry: .point(world(random.double(0...width), random.double(0...height))), text: text,
            textStyle: style, textAnchor: i % 10 == 0 ? .top : .center,
            textOffset: i % 10 == 0 ? ScreenPoint(x: 0, y: 0.8) : .zero, sortKey: Double(i % 13),
            layerIndex: i % 3 == 0 ? 3 : 2, sourceOrder: i)
        if i % 10 == 0 { symbol.icon = SymbolIcon(size: ScreenSize(width: 16, height: 16)) }
        symbols.append(symbol)
    }
    for i in 0..<600 {
        let text = roads[i % roads.count]
        var x = random.double(0...width)
        var y = random.double(0...height)
        var heading = random.double(0...(2 * Double.pi))
        var points = [world(x, y)]
        for _ in 0..<random.int(1...5) {
            heading += random.double(-0.4...0.4)
            let step = random.double(40...120)
            x += step * cosine(heading)
            y += step * sine(heading)
            points.append(world(x, y))
        }
        symbols.append(
            SymbolFeature(
                identity: SymbolIdentity(layer: "road-label", featureID: UInt64(i), text: text),
                geometry: .line(points), text: text, textStyle: TextStyle(size: 11, haloColor: .white, haloWidth: 1),
                placement: .line, layerIndex: 1, sourceOrder: i))
    }
    return symbols
}

/// `placement`: place about 3,000 candidate labels into a 1280 × 720 view with Pango-measured sizes; the placer's
/// measurement cache is warm after the warm-up run, as it is from frame to frame.
final class PlacementBenchmark: Benchmark {
    let name = "placement"
    let unit = "candidates"
    private var placer: SymbolPlacer!
    private var symbols: [SymbolFeature] = []
    private(set) var lastStatistics = PlacementStatistics()

    func setUp() throws {
        placer = SymbolPlacer(measurer: PangoTextShaper())
        symbols = placementSymbols(camera: placementCamera, seed: 5)
    }

    func run() throws -> Int {
        let result = placer.place(symbols, camera: placementCamera)
        lastStatistics = result.statistics
        blackHole(result.drawCommands())
        return result.statistics.candidates
    }

    func tearDown() {
        // What the timed runs did, for BENCHMARKS.md (stderr, so `--json` stays clean).
        FileHandle.standardError.write(Data("placement: \(lastStatistics)\n".utf8))
    }
}

/// `placement-cold`: the same frame with a new placer each run, so every text is measured with Pango first (the
/// first frame after a style or zoom change).
final class ColdPlacementBenchmark: Benchmark {
    let name = "placement-cold"
    let unit = "candidates"
    private var measurer: PangoTextShaper!
    private var symbols: [SymbolFeature] = []

    func setUp() throws {
        measurer = PangoTextShaper()
        symbols = placementSymbols(camera: placementCamera, seed: 5)
    }

    func run() throws -> Int {
        let result = SymbolPlacer(measurer: measurer).place(symbols, camera: placementCamera)
        blackHole(result.drawCommands())
        return result.statistics.candidates
    }
}

/// `placement-pitched`: the same labels seen with bearing 30 and pitch 50 (perspective ratios, depth culling).
final class PitchedPlacementBenchmark: Benchmark {
    let name = "placement-pitched"
    let unit = "candidates"
    private var placer: SymbolPlacer!
    private var symbols: [SymbolFeature] = []
    private var camera = placementCamera

    func setUp() throws {
        placer = SymbolPlacer(measurer: PangoTextShaper())
        symbols = placementSymbols(camera: placementCamera, seed: 5)
        camera.bearing = 30
        camera.pitch = 50
    }

    func run() throws -> Int {
        let result = placer.place(symbols, camera: camera)
        blackHole(result.drawCommands())
        return result.statistics.candidates
    }
}

/// `grid-index`: insert 10,000 label-sized boxes (20–120 × 10–24 pt) into a 1280 × 720 grid, then run 10,000 box
/// queries (early-exit `intersectsBox`); items are inserts + queries.
final class GridIndexBenchmark: Benchmark {
    let name = "grid-index"
    let unit = "operations"
    private var boxes: [(Double, Double, Double, Double)] = []
    private var grid = GridIndex(width: 1280, height: 720)

    func setUp() throws {
        var random = BenchRandom(seed: 17)
        boxes = (0..<20_000).map { _ in
            let x = random.double(-20...1280)
            let y = random.double(-10...720)
            return (x, y, x + random.double(20...120), y + random.double(10...24))
        }
        grid.reserve(10_000)
    }

    func run() throws -> Int {
        grid.removeAll()
        for (i, b) in boxes[0..<10_000].enumerated() {
            grid.insertBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, key: UInt32(i))
        }
        var hits = 0
        for b in boxes[10_000...] where grid.intersectsBox(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3) { hits += 1 }
        blackHole(hits)
        return 20_000
    }
}

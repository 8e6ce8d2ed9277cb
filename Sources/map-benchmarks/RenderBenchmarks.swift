import MapDrawing
import MapDrawingCairo
import MapGeometry

// Rendering-backend cases at 1280×720 (issue 4, "Rendering"): tile compositing, polygon fills, and a pan frame.

/// A small deterministic generator (SplitMix64) so every run draws the same scene.
struct BenchRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A double in `range`.
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

let benchFrame = ScreenSize(width: 1280, height: 720)

/// `count` small polygons (4–8 vertices, 3–14 px across), each with its own colour.
func smallPolygonCommands(count: Int, in size: ScreenSize, seed: UInt64) -> [DrawCommand] {
    var random = BenchRandom(seed: seed)
    var out: [DrawCommand] = []
    out.reserveCapacity(count)
    for _ in 0..<count {
        let cx = random.double(0...size.width)
        let cy = random.double(0...size.height)
        let radius = random.double(1.5...7)
        let n = random.int(4...8)
        var path = RenderPath(reservingPoints: n)
        for k in 0..<n {
            let a = Double(k) / Double(n) * 2 * Double.pi
            path.line(to: ScreenPoint(x: cx + radius * cosine(a), y: cy + radius * sine(a)))
        }
        path.close()
        let color = RGBAColor(
            red: random.double(0...1), green: random.double(0...1), blue: random.double(0...1), alpha: 1)
        out.append(.fill(FillCommand(path: path, color: color)))
    }
    return out
}

/// Twelve 512-px tile images with a background, roads and buildings, rendered once through the backend.
func makeTileImages(_ backend: CairoBackend) throws -> [ImageHandle] {
    try (0..<12).map { i in
        var list = DisplayList(size: ScreenSize(width: 512, height: 512))
        list.append(.clear(RGBAColor(rgb: 0xF2EFE9)))
        list.append(contentsOf: smallPolygonCommands(count: 400, in: list.size, seed: UInt64(i + 1)))
        var road = RenderPath()
        road.addPolyline([0, Double(i * 37 % 512), 512, Double((i * 91 + 200) % 512)], closed: false)
        list.append(.stroke(StrokeCommand(path: road, color: RGBAColor(rgb: 0xFFFFFF), width: 8, cap: .round)))
        return try backend.renderImage(list)
    }
}

/// The 4 × 3 placements of 512-px tiles, all overlapping the 1280 × 720 frame at scale 1 (columns from x = −300,
/// rows from y = −400), shifted by `offset` and scaled by `scale`.
func tilePlacements(_ tiles: [ImageHandle], offset: ScreenPoint, scale: Double) -> [TilePlacement] {
    tiles.enumerated().map { i, tile in
        TilePlacement(
            image: tile,
            origin: ScreenPoint(
                x: offset.x + Double(i % 4) * 512 * scale - 300, y: offset.y + Double(i / 4) * 512 * scale - 400),
            scale: scale)
    }
}

/// One frame composited from 12 cached 512-px tiles: `fractional` uses sub-pixel offsets and a 1.1× zoom (a
/// fractional zoom level, so every tile is resampled).
final class TileCompositeBenchmark: Benchmark {
    let name: String
    let unit = "tiles"
    let fractional: Bool
    private var backend: CairoBackend!
    private var surface: CairoSurface!
    private var list = DisplayList(size: benchFrame)

    init(fractional: Bool) {
        self.fractional = fractional
        name = fractional ? "render-tiles-fractional" : "render-tiles-integer"
    }

    func setUp() throws {
        backend = CairoBackend()
        surface = try CairoSurface(width: 1280, height: 720)
        let tiles = try makeTileImages(backend)
        let placements =
            fractional
            ? tilePlacements(tiles, offset: ScreenPoint(x: -150.3, y: -50.7), scale: 1.1)
            : tilePlacements(tiles, offset: ScreenPoint(x: -37.4, y: -21.6), scale: 1)
        list = TileCompositor.displayList(for: placements, frame: benchFrame, scale: 1, background: .white)
    }

    func run() throws -> Int {
        backend.draw(list, into: surface, clearFirst: false)
        return list.commands.count - 1
    }
}

/// 20,000 small anti-aliased polygon fills, each its own colour (toolchain notes §3 measured 127 ms in C).
final class PolygonFillBenchmark: Benchmark {
    let name = "render-polygons-20k"
    let unit = "polygons"
    private var backend: CairoBackend!
    private var surface: CairoSurface!
    private var list = DisplayList(size: benchFrame)

    func setUp() throws {
        backend = CairoBackend()
        surface = try CairoSurface(width: 1280, height: 720)
        list.append(.clear(.white))
        list.append(contentsOf: smallPolygonCommands(count: 20_000, in: benchFrame, seed: 7))
    }

    func run() throws -> Int {
        backend.draw(list, into: surface, clearFirst: false)
        return 20_000
    }
}

/// The interactive pan frame: 12 cached tiles at a pan offset plus 200 labels with halos from warm sprites.
/// Issue 4 target: median under 16 ms.
final class PanFrameBenchmark: Benchmark {
    let name = "render-pan-frame"
    let unit = "frames"
    private var backend: CairoBackend!
    private var surface: CairoSurface!
    private var tiles: [ImageHandle] = []
    private var labels: [DrawCommand] = []
    private var step = 0

    func setUp() throws {
        backend = CairoBackend()
        surface = try CairoSurface(width: 1280, height: 720)
        tiles = try makeTileImages(backend)
        labels = haloLabelCommands(count: 200, in: benchFrame, seed: 3)
        _ = try run()  // warm the sprites
    }

    func run() throws -> Int {
        // Each frame pans by a fractional amount, as a drag does; tiles are snapped, labels move with them.
        step += 1
        let pan = ScreenPoint(x: -Double(step % 50) * 3.3, y: Double(step % 30) * 1.7)
        var list = TileCompositor.displayList(
            for: tilePlacements(tiles, offset: pan, scale: 1), frame: benchFrame, scale: 1, background: .white)
        list.commands.reserveCapacity(list.commands.count + labels.count)
        for case .text(var t) in labels {
            t.position.x += pan.x
            t.position.y += pan.y
            list.append(.text(t))
        }
        backend.draw(list, into: surface, clearFirst: false)
        return 1
    }
}

import MapDrawing
import MapDrawingCairo
import MapGeometry

#if canImport(Glibc)
    import Glibc
#endif

func cosine(_ x: Double) -> Double { cos(x) }
func sine(_ x: Double) -> Double { sin(x) }

/// `count` point labels with white halos, sizes 10–20 pt, a quarter of them rotated, spread over `size`.
func haloLabelCommands(count: Int, in size: ScreenSize, seed: UInt64) -> [DrawCommand] {
    var random = BenchRandom(seed: seed)
    let names = [
        "Kamppi", "Kallio", "Töölö", "Punavuori", "Katajanokka", "Sörnäinen", "Ruoholahti", "Pasila", "Mannerheimintie",
        "Esplanadi", "Senaatintori", "Suomenlinna", "Kaivopuisto", "Hakaniemi", "Hietalahti", "Kruununhaka",
    ]
    return (0..<count).map { i in
        let style = TextStyle(
            size: Double(10 + i % 11), weight: i % 5 == 0 ? .bold : .regular, color: RGBAColor(rgb: 0x333333),
            haloColor: .white, haloWidth: Double(1 + i % 2))
        return .text(
            TextCommand(
                text: "\(names[i % names.count]) \(i)", style: style,
                position: ScreenPoint(x: random.double(0...size.width), y: random.double(0...size.height)),
                rotation: i % 4 == 0 ? random.double(-45...45) : 0))
    }
}

/// 1,000 labels with halos at 1280×720: `warm` blits cached sprites, cold rasterises every sprite first.
final class LabelSpriteBenchmark: Benchmark {
    let name: String
    let unit = "labels"
    let warm: Bool
    private var backend: CairoBackend!
    private var surface: CairoSurface!
    private var list = DisplayList(size: benchFrame)

    init(warm: Bool) {
        self.warm = warm
        name = warm ? "render-labels-warm" : "render-labels-cold"
    }

    func setUp() throws {
        backend = CairoBackend()
        surface = try CairoSurface(width: 1280, height: 720)
        list.append(.clear(RGBAColor(rgb: 0xE8E4DA)))
        list.append(contentsOf: haloLabelCommands(count: 1000, in: benchFrame, seed: 11))
    }

    func run() throws -> Int {
        if !warm { backend.labelSprites.removeAll() }
        backend.draw(list, into: surface, clearFirst: false)
        return 1000
    }
}

import MapDrawing
import MapGeometry

/// Coastline-like rings: random walks of short segments (2–8 px) in a 512-px tile, as the world's land cover and
/// water polygons are at zoom 2.
private func coastRings(count: Int, segments: ClosedRange<Int>, seed: UInt64) -> [[ScreenPoint]] {
    var random = BenchRandom(seed: seed)
    return (0..<count).map { _ in
        var x = random.double(20...492)
        var y = random.double(20...492)
        var heading = random.double(0...(2 * Double.pi))
        var ring: [ScreenPoint] = []
        for _ in 0..<random.int(segments) {
            ring.append(ScreenPoint(x: x, y: y))
            heading += random.double(-0.9...0.9)
            let step = random.double(2...8)
            x = min(511, max(1, x + step * cosine(heading)))
            y = min(511, max(1, y + step * sine(heading)))
        }
        return ring
    }
}

/// MapLibre's fill outline as the world z2 frame draws it: about 370 fills' rings, 6,500 segments of two
/// triangles each, one device pixel wide, in the fill's opaque colour over a 512-px tile image half covered by that
/// colour already (``LineRasterizer`` alone, no Cairo). The figure is the number of triangles.
final class LineRasterOutlineBenchmark: Benchmark {
    let name = "line-raster-outlines"
    let unit = "triangles"
    let iterations = 40
    private var commands: [LineMeshCommand] = []
    private var background: [UInt8] = []
    private var image = RasterImage(width: 512, height: 512)

    func setUp() throws {
        let colour = RGBAColor(red: 0.78, green: 0.87, blue: 0.69, alpha: 1)
        commands = coastRings(count: 370, segments: 6...30, seed: 11).map { ring in
            var path = RenderPath()
            path.move(to: ring[0])
            for p in ring.dropFirst() { path.line(to: p) }
            path.close()
            return LineMeshCommand(mesh: LineMesh.segments(of: path), paint: .solid(colour), width: 1)
        }
        background = [UInt8](repeating: 0, count: 512 * 512 * 4)
        for pixel in 0..<(512 * 256) {
            background.replaceSubrange((pixel * 4)..<(pixel * 4 + 4), with: [176, 222, 199, 255])
        }
    }

    func run() throws -> Int {
        image.pixels = background
        var triangles = 0
        for command in commands {
            LineRasterizer.draw(command, into: &image, transform: .identity, pixelRatio: 1)
            triangles += command.mesh.indices.count / 3
        }
        return image.pixels[512 * 4 * 300 + 3] == 7 ? 0 : triangles
    }
}

/// Thin round-joined lines as the world z2 frame's rivers and boundaries: five meshes of about 1,600 triangles,
/// 0.64 px wide, over a 512-px tile image. The figure is the number of triangles.
final class LineRasterThinLineBenchmark: Benchmark {
    let name = "line-raster-thin-lines"
    let unit = "triangles"
    let iterations = 40
    private var commands: [LineMeshCommand] = []
    private var image = RasterImage(width: 512, height: 512)

    func setUp() throws {
        let colour = RGBAColor(red: 0.6, green: 0.75, blue: 0.9, alpha: 1)
        let rings = coastRings(count: 100, segments: 4...12, seed: 12)
        commands = (0..<5).map { k in
            var tessellator = LineTessellator(join: .round, cap: .round)
            for ring in rings[(k * 20)..<(k * 20 + 20)] { tessellator.addLine(ring) }
            return LineMeshCommand(mesh: tessellator.mesh, paint: .solid(colour), width: 0.64)
        }
    }

    func run() throws -> Int {
        image.pixels = [UInt8](repeating: 0, count: 512 * 512 * 4)
        var triangles = 0
        for command in commands {
            LineRasterizer.draw(command, into: &image, transform: .identity, pixelRatio: 1)
            triangles += command.mesh.indices.count / 3
        }
        return image.pixels[512 * 4 * 300 + 3] == 7 ? 0 : triangles
    }
}

import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// MapLibre's fill-extrusion lighting (`fill_extrusion.vertex.glsl`) with the style's `light` (``StyleLight``).
struct ExtrusionLight {
    /// The light's direction in tile axes (x east, y south, z up), turned with the map's bearing when anchored to the
    /// viewport.
    var position: (x: Double, y: Double, z: Double)
    var intensity: Double
    var color: (red: Double, green: Double, blue: Double)

    /// `light` at the map's `bearing` (degrees).
    init(_ light: StyleLight = StyleLight(), bearing: Double) {
        let a = (light.position.azimuthal + 90) * .pi / 180
        let p = light.position.polar * .pi / 180
        let r = light.position.radial
        let x = r * cos(a) * sin(p)
        let y = r * sin(a) * sin(p)
        let z = r * cos(p)
        // Viewport anchoring: turned by the bearing (MapLibre's rotation by `-transform.angle`).
        let b = light.anchorsToViewport ? bearing * .pi / 180 : 0
        position = (x * cos(b) - y * sin(b), x * sin(b) + y * cos(b), z)
        intensity = light.intensity
        color = (light.color.red, light.color.green, light.color.blue)
    }

    /// The lit colour (premultiplied 0…1 RGB; alpha 1) of a face with unit `normal` of a feature coloured `color`
    /// (straight RGBA), with the vertical gradient factor `gradient` (1 for roofs).
    func shade(
        _ color: StyleColor, normal: (x: Double, y: Double, z: Double), gradient: Double
    ) -> (Double, Double, Double) {
        let c = color.premultipliedComponents
        let colorValue = c[0] * 0.2126 + c[1] * 0.7152 + c[2] * 0.0722
        var directional = min(
            max(normal.x * position.x + normal.y * position.y + normal.z * position.z, 0), 1)
        directional = (1 - intensity) + (max(1 - colorValue + intensity, 1) - (1 - intensity)) * directional
        directional *= gradient
        func channel(_ v: Double, _ light: Double) -> Double {
            min(max((v + 0.03) * directional * light, 0.3 * (1 - light)), 1)
        }
        return (channel(c[0], self.color.red), channel(c[1], self.color.green), channel(c[2], self.color.blue))
    }
}

/// Projects tile points with a height through a camera (MapLibre's perspective, also when flat: a roof is scaled by
/// `distance / (distance − height)` about the optical centre).
struct ExtrusionProjector {
    let camera: CameraTransform
    let nwX: Double
    let nwY: Double
    let unit: Double
    let sinB: Double
    let cosB: Double
    let sinP: Double
    let cosP: Double
    /// World points per metre at the camera's centre (MapLibre scales heights at the centre's latitude).
    let pointsPerMeter: Double

    init(tile: TileID, extent: Int, camera: CameraTransform) {
        self.camera = camera
        let n = Double(1 << tile.z)
        unit = 1 / (n * Double(extent))
        nwX = Double(tile.unwrappedX) / n
        nwY = Double(tile.y) / n
        let b = camera.state.bearing * .pi / 180
        let p = camera.state.pitch * .pi / 180
        (sinB, cosB, sinP, cosP) = (sin(b), cos(b), sin(p), cos(p))
        let latitude = WebMercator.latLng(camera.centerWorld).latitude
        pointsPerMeter = camera.worldSize / (2 * .pi * 6_371_008.8 * cos(latitude * .pi / 180))
    }

    /// Tile point `x, y` raised `meters` and shifted on the ground by `ground` world points, in camera space: `x`,
    /// `y` the screen offsets from the optical centre times the depth over the camera distance, and the depth.
    func cameraPoint(_ x: Double, _ y: Double, meters: Double, ground: (Double, Double)) -> (
        x: Double, y: Double, depth: Double
    ) {
        let w = camera.worldSize
        let ox = (nwX + x * unit - camera.centerWorld.x) * w + ground.0
        let oy = (nwY + y * unit - camera.centerWorld.y) * w + ground.1
        let rx = ox * cosB + oy * sinB
        let ry = -ox * sinB + oy * cosB
        let z = meters * pointsPerMeter
        return (rx, ry * cosP - z * sinP, camera.distance - ry * sinP - z * cosP)
    }

    /// The nearest depth drawn (MapLibre's near plane lies at a small fraction of the camera distance).
    var nearDepth: Double { camera.distance / 100 }

    /// Clips a planar ring of camera-space points (with their gradient parameter `t`) to ``nearDepth`` and projects
    /// it to device pixels at `scale`.
    func project(_ ring: [(x: Double, y: Double, depth: Double, t: Double)], scale: Double) -> [ExtrusionRaster.Vertex]
    {
        let near = nearDepth
        var clipped: [(x: Double, y: Double, depth: Double, t: Double)] = []
        if ring.allSatisfy({ $0.depth >= near }) {
            clipped = ring
        } else {
            for k in 0..<ring.count {
                let p = ring[k]
                let q = ring[(k + 1) % ring.count]
                if p.depth >= near { clipped.append(p) }
                if (p.depth >= near) != (q.depth >= near) {
                    let f = (near - p.depth) / (q.depth - p.depth)
                    clipped.append(
                        (p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f, near, p.t + (q.t - p.t) * f))
                }
            }
        }
        let d = camera.distance
        return clipped.map { c in
            let k = d / c.depth
            return ExtrusionRaster.Vertex(
                x: (camera.opticalCenter.x + c.x * k) * scale, y: (camera.opticalCenter.y + c.y * k) * scale,
                depth: c.depth, t: c.t)
        }
    }
}

/// A colour and depth buffer the extrusions' faces are drawn into as a GPU draws them: every planar face filled at
/// the device pixels whose centres it covers (even-odd, not anti-aliased), kept where it is nearer than what the
/// pixel holds (a depth test on `1 / depth`, which is affine over a planar face on the screen), its colour
/// interpolated perspective-correctly between its bottom and top colours (walls' vertical gradient).
struct ExtrusionRaster {
    let width: Int
    let height: Int
    /// `1 / depth` per pixel (0: nothing drawn), shared by a frame's extrusion layers (MapLibre's one depth buffer
    /// for its 3D pass: a layer's faces hide behind an earlier layer's).
    var inverseDepth: [Double]
    /// Straight RGB per pixel, 0…1, of this layer's faces.
    var rgb: [Double]
    /// The pixels this layer drew.
    var covered: [Bool]

    /// An empty buffer, or one over the depths earlier layers left (`depth`, when it has `width × height` values).
    init(width: Int, height: Int, depth: [Double]? = nil) {
        self.width = width
        self.height = height
        inverseDepth = depth?.count == width * height ? depth! : [Double](repeating: 0, count: width * height)
        rgb = [Double](repeating: 0, count: width * height * 3)
        covered = [Bool](repeating: false, count: width * height)
    }

    /// One vertex of a face: device position, depth, and where it lies between the face's bottom (0) and top (1).
    struct Vertex {
        var x: Double
        var y: Double
        var depth: Double
        var t: Double
    }

    /// Fills a planar face (its rings, even-odd) coloured from `bottom` (t = 0) to `top` (t = 1).
    mutating func fill(
        _ rings: [[Vertex]], bottom: (Double, Double, Double), top: (Double, Double, Double)
    ) {
        // `1 / depth` and `t / depth` as affine functions of the screen position, from the three vertices that span
        // the largest triangle.
        let all = rings.flatMap { $0 }
        guard all.count >= 3 else { return }
        var best = (0, 1, 2, 0.0)
        let p0 = all[0]
        for i in 1..<all.count {
            for j in (i + 1)..<all.count {
                let area = abs((all[i].x - p0.x) * (all[j].y - p0.y) - (all[j].x - p0.x) * (all[i].y - p0.y))
                if area > best.3 { best = (0, i, j, area) }
            }
            if all.count > 64 { break }
        }
        guard best.3 > 1e-9 else { return }
        let (a, b, c) = (all[best.0], all[best.1], all[best.2])
        func plane(_ f: (Vertex) -> Double) -> (Double, Double, Double) {
            // f = px · x + py · y + p0
            let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
            let fb = f(b) - f(a)
            let fc = f(c) - f(a)
            let px = (fb * (c.y - a.y) - fc * (b.y - a.y)) / det
            let py = ((b.x - a.x) * fc - (c.x - a.x) * fb) / det
            return (px, py, f(a) - px * a.x - py * a.y)
        }
        let w = plane { 1 / $0.depth }
        let tw = plane { $0.t / $0.depth }
        let minY = max(0, Int((all.map(\.y).min()! - 0.5).rounded(.up)))
        let maxY = min(height - 1, Int((all.map(\.y).max()! - 0.5).rounded(.down)))
        guard minY <= maxY else { return }
        var crossings: [Double] = []
        for py in minY...maxY {
            let cy = Double(py) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for ring in rings where ring.count >= 2 {
                for k in 0..<ring.count {
                    let p = ring[k]
                    let q = ring[(k + 1) % ring.count]
                    if (p.y <= cy) != (q.y <= cy) {
                        crossings.append(p.x + (cy - p.y) / (q.y - p.y) * (q.x - p.x))
                    }
                }
            }
            guard crossings.count >= 2 else { continue }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                let x0 = max(0, Int((crossings[k] - 0.5).rounded(.up)))
                let x1 = min(width - 1, Int((crossings[k + 1] - 0.5).rounded(.up)) - 1)
                k += 2
                guard x0 <= x1 else { continue }
                for px in x0...x1 {
                    let cx = Double(px) + 0.5
                    let inv = w.0 * cx + w.1 * cy + w.2
                    let i = py * width + px
                    guard inv > inverseDepth[i] else { continue }
                    inverseDepth[i] = inv
                    covered[i] = true
                    let t = min(max((tw.0 * cx + tw.1 * cy + tw.2) / inv, 0), 1)
                    rgb[i * 3] = bottom.0 + (top.0 - bottom.0) * t
                    rgb[i * 3 + 1] = bottom.1 + (top.1 - bottom.1) * t
                    rgb[i * 3 + 2] = bottom.2 + (top.2 - bottom.2) * t
                }
            }
        }
    }

    /// The covered pixels as an opaque premultiplied BGRA image (transparent elsewhere).
    func image(scale: Double) -> RasterImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) where covered[i] {
            func byte(_ v: Double) -> UInt8 { UInt8(min(max((v * 255).rounded(), 0), 255)) }
            pixels[i * 4] = byte(rgb[i * 3 + 2])
            pixels[i * 4 + 1] = byte(rgb[i * 3 + 1])
            pixels[i * 4 + 2] = byte(rgb[i * 3])
            pixels[i * 4 + 3] = 255
        }
        return RasterImage(width: width, height: height, scale: scale, pixels: pixels)
    }
}

extension MapRenderer {
    /// The `fill-extrusion` layer as MapLibre draws it: every polygon of the layer's features raised from
    /// `fill-extrusion-base` to `fill-extrusion-height` metres, its walls and roof lit by the style's default light
    /// (``ExtrusionLight``; walls shaded from bottom to top with `fill-extrusion-vertical-gradient`), drawn with a
    /// depth test into an image of their own (``ExtrusionRaster``) composited with `fill-extrusion-opacity`.
    /// Unpitched frames show the roofs (scaled by the camera's perspective, as MapLibre's). Walls along a tile's
    /// clipped edges are not drawn. `fill-extrusion-pattern` draws nothing.
    func fillExtrusionCommands(
        _ layer: CompiledLayer, tiles: [TileID], z: Double, camera transform: CameraTransform, scale: Double,
        size: ScreenSize
    ) -> [DrawCommand] {
        let zoomCtx = EvaluationContext(zoom: z)
        let opacity = min(max(layer.number("fill-extrusion-opacity", zoomCtx, 1), 0), 1)
        guard opacity > 0, layer.layer.source != nil, !layer.isSet("fill-extrusion-pattern") else { return [] }
        let frameWidth = Int((size.width * scale).rounded())
        let frameHeight = Int((size.height * scale).rounded())
        guard frameWidth > 0, frameHeight > 0, frameWidth <= 16384, frameHeight <= 16384 else { return [] }
        let light = ExtrusionLight(style.light, bearing: transform.state.bearing)
        let verticalGradient =
            layer.isSet("fill-extrusion-vertical-gradient")
            ? layer.bool("fill-extrusion-vertical-gradient", zoomCtx) : true
        var raster = ExtrusionRaster(width: frameWidth, height: frameHeight, depth: extrusionDepth)
        var any = false
        for tile in tiles {
            var projectors = ProjectorCache(tile: tile, camera: transform)
            let tilePoints = projectors.projector(extent: 4096).pointsPerUnit * 4096
            for draw in preparedDraws(layer, tile: tile, zoom: z, tilePoints: tilePoints, cached: false) {
                guard case .polygons(let polygons) = draw.feature.geometry else { continue }
                let ctx = draw.context
                let extent = draw.feature.feature.extent
                let projector = ExtrusionProjector(tile: tile, extent: extent, camera: transform)
                let height = max(0, layer.number("fill-extrusion-height", ctx, 0))
                let base = min(max(0, layer.number("fill-extrusion-base", ctx, 0)), height)
                let color =
                    layer.layer.property("fill-extrusion-color")?.evaluate(ctx).color
                    ?? StyleColor(red: 0, green: 0, blue: 0, alpha: 1)
                var ground = (0.0, 0.0)
                if let t = translateSetting(layer, "fill-extrusion", ctx) {
                    let b = t.viewport ? transform.state.bearing * .pi / 180 : 0
                    ground = (t.offset.x * cos(b) - t.offset.y * sin(b), t.offset.x * sin(b) + t.offset.y * cos(b))
                }
                func vertex(_ x: Double, _ y: Double, _ meters: Double, _ t: Double) -> (
                    x: Double, y: Double, depth: Double, t: Double
                ) {
                    let c = projector.cameraPoint(x, y, meters: meters, ground: ground)
                    return (c.x, c.y, c.depth, t)
                }
                let e = Double(extent)
                // The vertical gradient (MapLibre: `(t + base) · sqrt(height / 150)` clamped to 0.84…1 at the
                // default intensity), at the walls' bottom and top.
                let lowest = 0.7 + (0.98 - 0.7) * (1 - light.intensity)
                let gradientBottom = min(max(base * (height / 150).squareRoot(), lowest), 1)
                let gradientTop = min(max((1 + base) * (height / 150).squareRoot(), lowest), 1)
                for polygon in polygons {
                    for ring in polygon where ring.count >= 2 && height > base {
                        for i in 0..<(ring.count - 1) {
                            let (x1, y1) = (Double(ring[i].x), Double(ring[i].y))
                            let (x2, y2) = (Double(ring[i + 1].x), Double(ring[i + 1].y))
                            // Edges beyond the tile's edges (clipped in its buffer) get no wall (MapLibre's
                            // `isBoundaryEdge`).
                            if (x1 == x2 && (x1 < 0 || x1 > e)) || (y1 == y2 && (y1 < 0 || y1 > e)) { continue }
                            let len = ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()
                            guard len > 0 else { continue }
                            let wall = projector.project(
                                [
                                    vertex(x1, y1, base, 0), vertex(x2, y2, base, 0), vertex(x2, y2, height, 1),
                                    vertex(x1, y1, height, 1),
                                ], scale: scale)
                            guard wall.count >= 3 else { continue }
                            // MapLibre's `perp()` of the edge: (-dy, dx).
                            let normal = (x: -(y2 - y1) / len, y: (x2 - x1) / len, z: 0.0)
                            let graded = verticalGradient && normal.y != 0
                            let bottom = light.shade(color, normal: normal, gradient: graded ? gradientBottom : 1)
                            let top = light.shade(color, normal: normal, gradient: graded ? gradientTop : 1)
                            raster.fill([wall], bottom: bottom, top: top)
                            any = true
                        }
                    }
                    var rings: [[ExtrusionRaster.Vertex]] = []
                    for ring in polygon where ring.count >= 3 {
                        let projected = projector.project(
                            ring.map { vertex(Double($0.x), Double($0.y), height, 1) }, scale: scale)
                        if projected.count >= 3 { rings.append(projected) }
                    }
                    guard !rings.isEmpty else { continue }
                    let roof = light.shade(color, normal: (0, 0, 1), gradient: 1)
                    raster.fill(rings, bottom: roof, top: roof)
                    any = true
                }
            }
        }
        guard any else { return [] }
        extrusionDepth = raster.inverseDepth
        guard let handle = try? backend.register(raster.image(scale: scale)) else { return [] }
        frameImages.append(handle)
        return [
            .image(
                ImageCommand(
                    image: handle, rect: RenderRect(x: 0, y: 0, width: size.width, height: size.height),
                    opacity: opacity, nearestNeighbor: true))
        ]
    }
}

import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// MapLibre's heatmap kernel (`heatmap.vertex.glsl` / `heatmap.fragment.glsl`): each point adds a Gaussian of
/// standard deviation `radius / 3` to a density buffer, peaking at `weight × intensity / √(2π)`, over a square that
/// ends where the kernel falls to ``zero``.
enum HeatmapKernel {
    /// The density MapLibre treats as nothing: the kernel's square ends where it falls to this.
    static let zero = 1.0 / 255.0 / 16.0
    /// `1 / √(2π)`.
    static let gaussCoefficient = 0.3989422804014327

    /// Half the side of the kernel's square in units of `heatmap-radius` (MapLibre's `S`), or `nil` when the
    /// point's peak is below ``zero`` (MapLibre draws no square then).
    static func halfSide(weight: Double, intensity: Double) -> Double? {
        let peak = max(weight, zero) * max(intensity, zero) * gaussCoefficient
        let s2 = -2 * log(zero / peak)
        guard s2 > 0, s2.isFinite else { return nil }
        return s2.squareRoot() / 3
    }

    /// The density a point adds at `distance` radii from it (inside its square).
    static func value(weight: Double, intensity: Double, distanceInRadii d: Double) -> Double {
        weight * intensity * gaussCoefficient * exp(-4.5 * d * d)
    }
}

/// A density buffer at a fraction of the frame's device pixels (MapLibre Native renders it at a quarter of the
/// frame's width and height, then samples it bilinearly), and its colouring through `heatmap-color`.
struct HeatmapDensity {
    /// Frame size in device pixels.
    let frameWidth: Int
    let frameHeight: Int
    /// Buffer size (cells).
    let width: Int
    let height: Int
    var values: [Float]

    /// A zero buffer for a frame of `frameWidth × frameHeight` device pixels, `downsample` device pixels per cell.
    init(frameWidth: Int, frameHeight: Int, downsample: Int = 4) {
        self.frameWidth = max(1, frameWidth)
        self.frameHeight = max(1, frameHeight)
        width = max(1, self.frameWidth / max(1, downsample))
        height = max(1, self.frameHeight / max(1, downsample))
        values = [Float](repeating: 0, count: width * height)
    }

    /// Adds one point's kernel: centre in device pixels, `radius` in device pixels.
    mutating func add(x: Double, y: Double, radius: Double, weight: Double, intensity: Double) {
        add(x: x, y: y, axes: (radius, 0, 0, radius), weight: weight, intensity: intensity)
    }

    /// Adds one point's kernel under an affine map: centre in device pixels, `axes` the device-pixel offsets of one
    /// radius east (`ux, uy`) and one radius south (`vx, vy`) of the point (a circle under a flat, unturned camera).
    mutating func add(
        x: Double, y: Double, axes: (ux: Double, uy: Double, vx: Double, vy: Double), weight: Double,
        intensity: Double
    ) {
        let det = axes.ux * axes.vy - axes.vx * axes.uy
        guard det != 0, det.isFinite, x.isFinite, y.isFinite,
            let s = HeatmapKernel.halfSide(weight: weight, intensity: intensity)
        else { return }
        // The square of half-side `s` radii, projected: its device-pixel bounds.
        let hx = s * (abs(axes.ux) + abs(axes.vx))
        let hy = s * (abs(axes.uy) + abs(axes.vy))
        // Cell (i, j)'s centre in device pixels; the cells whose centres lie inside the square get the kernel.
        let sx = Double(frameWidth) / Double(width)
        let sy = Double(frameHeight) / Double(height)
        let i0 = max(0, Int(((x - hx) / sx - 0.5).rounded(.up)))
        let i1 = min(width - 1, Int(((x + hx) / sx - 0.5).rounded(.down)))
        let j0 = max(0, Int(((y - hy) / sy - 0.5).rounded(.up)))
        let j1 = min(height - 1, Int(((y + hy) / sy - 0.5).rounded(.down)))
        guard i0 <= i1, j0 <= j1 else { return }
        let peak = weight * intensity * HeatmapKernel.gaussCoefficient
        // Device offset → radii along the two axes (the inverse of the axes' matrix).
        let (a, b, c, d) = (axes.vy / det, -axes.vx / det, -axes.uy / det, axes.ux / det)
        for j in j0...j1 {
            let dy = (Double(j) + 0.5) * sy - y
            let row = j * width
            for i in i0...i1 {
                let dx = (Double(i) + 0.5) * sx - x
                let u = a * dx + b * dy
                let v = c * dx + d * dy
                guard abs(u) <= s, abs(v) <= s else { continue }
                values[row + i] += Float(peak * exp(-4.5 * (u * u + v * v)))
            }
        }
    }

    /// Adds one point's kernel whose square (half-side ``HeatmapKernel/halfSide(weight:intensity:)`` radii) lies
    /// on the ground under perspective: `corners` are its projected corners in device pixels, in the order
    /// (−S, −S), (S, −S), (S, S), (−S, S) radii east and south of the point. Each cell inside the quadrilateral gets
    /// the kernel at its distance on the ground (the square → quadrilateral homography inverted, as a GPU
    /// interpolates the kernel's varying perspective-correctly).
    mutating func add(corners q: [ScreenPoint], weight: Double, intensity: Double) {
        guard q.count == 4, q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }),
            let s = HeatmapKernel.halfSide(weight: weight, intensity: intensity),
            let h = SquareHomography(q)
        else { return }
        let sx = Double(frameWidth) / Double(width)
        let sy = Double(frameHeight) / Double(height)
        let xs = q.map(\.x)
        let ys = q.map(\.y)
        let i0 = max(0, Int((xs.min()! / sx - 0.5).rounded(.up)))
        let i1 = min(width - 1, Int((xs.max()! / sx - 0.5).rounded(.down)))
        let j0 = max(0, Int((ys.min()! / sy - 0.5).rounded(.up)))
        let j1 = min(height - 1, Int((ys.max()! / sy - 0.5).rounded(.down)))
        guard i0 <= i1, j0 <= j1 else { return }
        let peak = weight * intensity * HeatmapKernel.gaussCoefficient
        for j in j0...j1 {
            let cy = (Double(j) + 0.5) * sy
            for i in i0...i1 {
                guard let (a, b) = h.inverse(x: (Double(i) + 0.5) * sx, y: cy), a >= 0, a <= 1, b >= 0, b <= 1
                else { continue }
                let u = (2 * a - 1) * s
                let v = (2 * b - 1) * s
                values[j * width + i] += Float(peak * exp(-4.5 * (u * u + v * v)))
            }
        }
    }

    /// The density at a device pixel's centre, sampled bilinearly (clamped at the edges) as a GPU samples the
    /// buffer's texture.
    func sample(pixelX: Int, pixelY: Int) -> Double {
        let u = (Double(pixelX) + 0.5) / Double(frameWidth) * Double(width) - 0.5
        let v = (Double(pixelY) + 0.5) / Double(frameHeight) * Double(height) - 0.5
        let uc = min(max(u, 0), Double(width - 1))
        let vc = min(max(v, 0), Double(height - 1))
        let i0 = Int(uc.rounded(.down))
        let j0 = Int(vc.rounded(.down))
        let i1 = min(i0 + 1, width - 1)
        let j1 = min(j0 + 1, height - 1)
        let fx = uc - Double(i0)
        let fy = vc - Double(j0)
        let a = Double(values[j0 * width + i0])
        let b = Double(values[j0 * width + i1])
        let c = Double(values[j1 * width + i0])
        let d = Double(values[j1 * width + i1])
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }
}

/// The projective map of the unit square onto a quadrilateral (corners in the order (0, 0), (1, 0), (1, 1), (0, 1)),
/// and its inverse (Heckbert's square-to-quad).
struct SquareHomography {
    /// `x = (a u + b v + c) / w`, `y = (d u + e v + f) / w`, `w = g u + h v + 1`.
    let m: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double)

    init?(_ q: [ScreenPoint]) {
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y)
        let sx = x0 - x1 + x2 - x3
        let sy = y0 - y1 + y2 - y3
        var g = 0.0
        var h = 0.0
        if sx != 0 || sy != 0 {
            let (dx1, dx2, dy1, dy2) = (x1 - x2, x3 - x2, y1 - y2, y3 - y2)
            let den = dx1 * dy2 - dx2 * dy1
            guard den != 0 else { return nil }
            g = (sx * dy2 - dx2 * sy) / den
            h = (dx1 * sy - sx * dy1) / den
        }
        m = (x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h)
    }

    /// The square's coordinates of the point `x, y`, or `nil` where the map is singular.
    func inverse(x: Double, y: Double) -> (Double, Double)? {
        // The adjugate of [[a, b, c], [d, e, f], [g, h, 1]] applied to (x, y, 1).
        let (a, b, c, d, e, f, g, h) = m
        let u = (e - f * h) * x + (c * h - b) * y + (b * f - c * e)
        let v = (f * g - d) * x + (a - c * g) * y + (c * d - a * f)
        let w = (d * h - e * g) * x + (b * g - a * h) * y + (a * e - b * d)
        guard w != 0, w.isFinite else { return nil }
        return (u / w, v / w)
    }
}

/// `heatmap-color` as MapLibre Native uploads it: 256 premultiplied RGBA entries, entry `i` the colour at density
/// `i / 256` with channels floored to bytes, sampled bilinearly with the density clamped to the ends.
struct HeatmapColorRamp {
    /// 256 × 4 premultiplied bytes (R, G, B, A).
    var entries: [UInt8]

    init(_ property: StyleProperty, zoom: Double) {
        entries = [UInt8](repeating: 0, count: 256 * 4)
        var ctx = EvaluationContext(zoom: zoom)
        for i in 0..<256 {
            ctx.heatmapDensity = Double(i) / 256
            let c = property.evaluate(ctx).color ?? .transparent
            let a = min(max(c.alpha, 0), 1)
            let channels = [c.red * a, c.green * a, c.blue * a, a]
            for k in 0..<4 { entries[i * 4 + k] = UInt8(min(max((channels[k] * 255).rounded(.down), 0), 255)) }
        }
    }

    /// The premultiplied colour (0…1 channels R, G, B, A) at `density`.
    func color(at density: Double) -> (Double, Double, Double, Double) {
        let p = min(max(density * 256 - 0.5, 0), 255)
        let i0 = Int(p.rounded(.down))
        let i1 = min(i0 + 1, 255)
        let f = p - Double(i0)
        func channel(_ k: Int) -> Double {
            (Double(entries[i0 * 4 + k]) * (1 - f) + Double(entries[i1 * 4 + k]) * f) / 255
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }
}

extension MapRenderer {
    /// The `heatmap` layer's image over the whole frame, as MapLibre draws it: every point of the layer's features
    /// (each tile's own points, `0 ≤ x, y < extent`, so a point in two tiles' buffers counts once; points of lines
    /// and polygons too) adds its kernel (``HeatmapKernel``; `heatmap-weight` per feature, `heatmap-intensity` and
    /// `heatmap-radius` in points) to a density buffer at a quarter of the frame's device pixels
    /// (``HeatmapDensity``), which is coloured through `heatmap-color` (``HeatmapColorRamp``) and drawn with
    /// `heatmap-opacity`. Under pitch a kernel's square lies on the ground, projected (``HeatmapDensity/add(corners:weight:intensity:)``).
    /// Returns nothing when the layer draws nothing.
    func heatmapCommands(
        _ layer: CompiledLayer, tiles: [TileID], z: Double, camera transform: CameraTransform, scale: Double,
        size: ScreenSize
    ) -> [DrawCommand] {
        let zoomCtx = EvaluationContext(zoom: z)
        let opacity = min(max(layer.number("heatmap-opacity", zoomCtx, 1), 0), 1)
        guard opacity > 0, layer.layer.source != nil else { return [] }
        let intensity = max(0, layer.number("heatmap-intensity", zoomCtx, 1))
        let frameWidth = Int((size.width * scale).rounded())
        let frameHeight = Int((size.height * scale).rounded())
        guard frameWidth > 0, frameHeight > 0, frameWidth <= 16384, frameHeight <= 16384 else { return [] }
        var density = HeatmapDensity(frameWidth: frameWidth, frameHeight: frameHeight)
        var any = false
        for tile in tiles {
            var projectors = ProjectorCache(tile: tile, camera: transform)
            let tilePoints = projectors.projector(extent: 4096).pointsPerUnit * 4096
            for draw in preparedDraws(layer, tile: tile, zoom: z, tilePoints: tilePoints, cached: false) {
                let f = draw.feature
                let extent = f.feature.extent
                let projector = projectors.projector(extent: extent)
                let weight = layer.number("heatmap-weight", draw.context, 1)
                let radius = layer.number("heatmap-radius", draw.context, 30)
                guard weight.isFinite, radius.isFinite, radius > 0 else { continue }
                func add(_ p: VectorTilePoint) {
                    guard p.x >= 0, p.y >= 0, Int(p.x) < extent, Int(p.y) < extent else { return }
                    let x = Double(p.x)
                    let y = Double(p.y)
                    guard projector.isVisible(x, y) else { return }
                    if projector.isPerspective {
                        // The kernel's square on the ground, its half-side in tile units as MapLibre extrudes it
                        // (the radius in points at the frame's zoom, unpitched), projected.
                        guard let s = HeatmapKernel.halfSide(weight: weight, intensity: intensity) else { return }
                        let r = s * radius / projector.pointsPerUnit
                        let corners = [(-r, -r), (r, -r), (r, r), (-r, r)].map { d -> ScreenPoint in
                            let p = projector.project(x + d.0, y + d.1)
                            return ScreenPoint(x: p.x * scale, y: p.y * scale)
                        }
                        guard
                            [(-r, -r), (r, -r), (r, r), (-r, r)].allSatisfy({ projector.isVisible(x + $0.0, y + $0.1) })
                        else { return }
                        density.add(corners: corners, weight: weight, intensity: intensity)
                    } else {
                        let c = projector.project(x, y)
                        density.add(
                            x: c.x * scale, y: c.y * scale, radius: radius * scale, weight: weight, intensity: intensity
                        )
                    }
                    any = true
                }
                switch f.geometry {
                case .points(let points):
                    for p in points { add(p) }
                case .lineStrings(let lines):
                    for line in lines { for p in line { add(p) } }
                case .polygons(let polygons):
                    for polygon in polygons { for ring in polygon { for p in ring { add(p) } } }
                default: break
                }
            }
        }
        guard any else { return [] }
        let ramp = HeatmapColorRamp(layer.layer.paint["heatmap-color"] ?? .defaultHeatmapColor, zoom: z)
        var pixels = [UInt8](repeating: 0, count: frameWidth * frameHeight * 4)
        for py in 0..<frameHeight {
            for px in 0..<frameWidth {
                let (r, g, b, a) = ramp.color(at: density.sample(pixelX: px, pixelY: py))
                guard a > 0 || r > 0 || g > 0 || b > 0 else { continue }
                let o = (py * frameWidth + px) * 4
                func byte(_ v: Double) -> UInt8 { UInt8(min(max((v * opacity * 255).rounded(), 0), 255)) }
                // BGRA, premultiplied.
                pixels[o] = byte(b)
                pixels[o + 1] = byte(g)
                pixels[o + 2] = byte(r)
                pixels[o + 3] = byte(a)
            }
        }
        let image = RasterImage(width: frameWidth, height: frameHeight, scale: scale, pixels: pixels)
        guard let handle = try? backend.register(image) else { return [] }
        frameImages.append(handle)
        return [
            .image(
                ImageCommand(
                    image: handle, rect: RenderRect(x: 0, y: 0, width: size.width, height: size.height),
                    nearestNeighbor: true))
        ]
    }

    /// Unregisters the images the previous frame made for itself alone (heatmaps); its display list was drawn.
    func releaseFrameImages() {
        for handle in frameImages { backend.unregister(handle) }
        frameImages.removeAll()
    }
}

import MapDrawing
import MapGeometry
import MapLayout

/// Debug overlays a renderer can draw over its frames (Waymark's own, after MapLibre Native's `MapDebugOptions`;
/// not in Google's API). Set them with ``MapRenderOptions/debugOverlays``; the default, none, draws nothing extra.
public struct MapDebugOverlays: OptionSet, Hashable, Sendable {
    /// The overlays' bits (``collisionShapes`` is bit 0, ``tileBorders`` bit 1).
    public let rawValue: Int

    /// Creates overlays from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The collision shapes of every label the frame's placement tested (MapLibre's `MapDebugOptions::Collision`):
    /// point text and icon boxes, padding included, as one-device-pixel outlines, and the circles of line text as
    /// rings; blue at 25 % when placed, red at 50 % when not (MapLibre's `collision_box` and `collision_circle`
    /// shaders), a tenth of that when the shape is not used (``CollisionDebugShape/used``). Each symbol layer's shapes are drawn right over its labels.
    public static let collisionShapes = MapDebugOverlays(rawValue: 1 << 0)

    /// The outline of every tile the frame covers (MapLibre's `MapDebugOptions::TileBorders`): opaque red, 2 points
    /// inside each tile's edge (a 4-point line on the border shared by two tiles), over every layer.
    public static let tileBorders = MapDebugOverlays(rawValue: 1 << 1)
}

/// Colour of a placed shape: MapLibre's `vec4(0, 0, 1, 0.5) * 0.5` (premultiplied), blue at a quarter opacity.
let placedCollisionColor = RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.25)
/// Colour of a shape that was not placed: MapLibre's `vec4(1, 0, 0, 1) * 0.5` (premultiplied), red at half opacity.
let collidedCollisionColor = RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)

/// The draw commands of the collision overlay for one symbol layer: each box's four edges as one-device-pixel
/// bands on the pixel rows and columns a GPU's one-pixel lines cover (each edge blended on its own, so corners
/// two edges share are blended twice, as MapLibre's line segments are), each circle as a ring.
/// - Parameters:
///   - shapes: the frame's shapes (``PlacementResult/collisionShapes``).
///   - layerIndex: the symbol layer's index; other layers' shapes are skipped.
///   - scale: device pixels per point, `> 0`.
/// - Returns: the commands, in `shapes` order.
func collisionDebugCommands(_ shapes: [CollisionDebugShape], layerIndex: Int, scale: Double) -> [DrawCommand] {
    let s = scale.isFinite && scale > 0 ? scale : 1
    var out: [DrawCommand] = []
    for shape in shapes where shape.layerIndex == layerIndex {
        var color = shape.placed ? placedCollisionColor : collidedCollisionColor
        // MapLibre fades a shape that is not used to a tenth (`fragColor *= .1`).
        if !shape.used { color = color.withOpacity(0.1) }
        switch shape.geometry {
        case .box(let r):
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { continue }
            // Device pixels: a horizontal edge at y covers row floor(y) from x0 to x1; a vertical one at x the column left
            // of x (ceil(x) − 1: a whole x is the right edge of the column it draws, as a GPU's line there does).
            let x0 = r.minX * s
            let y0 = r.minY * s
            let x1 = r.maxX * s
            let y1 = r.maxY * s
            func band(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
                guard w > 0, h > 0 else { return }
                var path = RenderPath()
                path.addRect(RenderRect(x: x / s, y: y / s, width: w / s, height: h / s))
                out.append(.fill(FillCommand(path: path, color: color, antialias: false)))
            }
            band(x0, y0.rounded(.down), x1 - x0, 1)
            band(x1.rounded(.up) - 1, y0, 1, y1 - y0)
            band(x0, y1.rounded(.down), x1 - x0, 1)
            band(x0.rounded(.up) - 1, y0, 1, y1 - y0)
        case .circle(let center, let radius):
            guard center.x.isFinite, center.y.isFinite, radius.isFinite, radius > 0 else { continue }
            // MapLibre's collision_circle: a ring fading over its inner edge; drawn as a one-point ring.
            out.append(
                .circle(
                    CircleCommand(
                        center: center, radius: max(radius - 0.5, 0), fillColor: .clear, strokeColor: color,
                        strokeWidth: 1)))
        }
    }
    return out
}

/// The draw commands of the tile-border overlay: for each of `tiles`, a band 2 points wide inside its edges in
/// opaque red, drawn without anti-aliasing (pixels whose centre lies in the band), as MapLibre Native's 4-pixel
/// line strip clipped to each tile.
func tileBorderCommands(_ tiles: [TileID], camera: CameraTransform) -> [DrawCommand] {
    let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    var out: [DrawCommand] = []
    for tile in tiles {
        var projectors = ProjectorCache(tile: tile, camera: camera)
        let p = projectors.projector(extent: 4096)
        let corners = [p.project(0, 0), p.project(4096, 0), p.project(4096, 4096), p.project(0, 4096)]
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
        // The inner outline: each corner moved 2 points inward along both of its edges' normals (the tile's
        // quadrilateral is convex and its corners run clockwise on the screen).
        let edge = (0..<4).map { i -> ScreenPoint in
            let a = corners[i]
            let b = corners[(i + 1) % 4]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            return length > 0 ? ScreenPoint(x: dx / length, y: dy / length) : .zero
        }
        var inner: [ScreenPoint] = []
        for i in 0..<4 {
            let before = edge[(i + 3) % 4]
            let after = edge[i]
            // Inward normals of a clockwise (y down) outline: the edge direction turned by +90°.
            let n1 = ScreenPoint(x: -before.y, y: before.x)
            let n2 = ScreenPoint(x: -after.y, y: after.x)
            inner.append(ScreenPoint(x: corners[i].x + 2 * (n1.x + n2.x), y: corners[i].y + 2 * (n1.y + n2.y)))
        }
        var path = RenderPath()
        path.move(to: corners[0])
        for c in corners.dropFirst() { path.line(to: c) }
        path.close()
        path.move(to: inner[0])
        for c in inner.dropFirst() { path.line(to: c) }
        path.close()
        out.append(.fill(FillCommand(path: path, color: red, fillRule: .evenOdd, antialias: false)))
    }
    return out
}

// Hairlines as line meshes: MapLibre's fill outline pass (`fill_outline` shaders) draws every ring segment of an
// antialiased fill as a GL line of its own (no joins, no caps), fading to nothing one device pixel from the segment.
// The same segments drawn as ``LineMeshCommand`` quads go through ``LineRasterizer`` (far cheaper than a Cairo stroke
// of a detailed coastline) and fade alike: width 1 device pixel gives an outset of 1 device pixel and a fade of 1.
import MapGeometry

extension LineMesh {
    /// A mesh of one quad per segment of every sub-path of `path` (closed sub-paths include the closing segment):
    /// butt ends, no joins, each segment blended on its own, as GL lines are. Draw it with a ``LineMeshCommand`` of
    /// width one device pixel (`1 / pixelRatio` points) for MapLibre's fill outline. Segments of zero length or with a
    /// non-finite end are left out; an empty path gives an empty mesh.
    ///
    /// Waymark's own API (MapLibre's outline geometry for Cairo-free drawing).
    public static func segments(of path: RenderPath) -> LineMesh {
        var mesh = LineMesh()
        mesh.vertices.reserveCapacity(4 * path.pointCount)
        mesh.indices.reserveCapacity(6 * path.pointCount)
        let c = path.coordinates
        for s in 0..<path.subpathCount {
            let range = path.subpathRange(s)
            guard range.count >= 2 else { continue }
            let closed = path.subpathClosed[s]
            let last = closed ? range.upperBound : range.upperBound - 1
            for i in range.lowerBound..<last {
                let j = i + 1 < range.upperBound ? i + 1 : range.lowerBound
                let ax = c[2 * i]
                let ay = c[2 * i + 1]
                let bx = c[2 * j]
                let by = c[2 * j + 1]
                let dx = bx - ax
                let dy = by - ay
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 0, length.isFinite, ax.isFinite, ay.isFinite else { continue }
                // Left-hand unit normal (y down): the `up` side.
                let n = ScreenPoint(x: dy / length, y: -dx / length)
                let m = ScreenPoint(x: -n.x, y: -n.y)
                let a = ScreenPoint(x: ax, y: ay)
                let b = ScreenPoint(x: bx, y: by)
                let base = UInt32(mesh.vertices.count)
                mesh.vertices.append(LineMeshVertex(center: a, extrude: n, round: false, up: true, distance: 0))
                mesh.vertices.append(LineMeshVertex(center: a, extrude: m, round: false, up: false, distance: 0))
                mesh.vertices.append(LineMeshVertex(center: b, extrude: n, round: false, up: true, distance: length))
                mesh.vertices.append(LineMeshVertex(center: b, extrude: m, round: false, up: false, distance: length))
                // One by one: an array literal here would be a heap allocation per segment.
                mesh.indices.append(base)
                mesh.indices.append(base + 1)
                mesh.indices.append(base + 2)
                mesh.indices.append(base + 1)
                mesh.indices.append(base + 3)
                mesh.indices.append(base + 2)
            }
        }
        return mesh
    }
}

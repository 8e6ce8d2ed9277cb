import MapData
import MapStyle

// What a fill-extrusion polygon's faces share in a frame, worked out once for them: a feature's lit colours (its
// colour's part of ``ExtrusionLight/shade(_:normal:gradient:)``), and each ring vertex projected once at the base and
// once at the height (a wall's corners are its neighbours' and the roof's). The same arithmetic on the same values as
// when worked out per face: the same pixels.

extension ExtrusionLight {
    /// ``ExtrusionLight/shade(_:normal:gradient:)`` for one feature colour: what depends on the colour alone is
    /// worked out once.
    struct Shader {
        /// The premultiplied colour.
        let c: (Double, Double, Double)
        /// `1 − intensity` and `max(1 − luminance + intensity, 1) − (1 − intensity)`.
        let low: Double
        let range: Double
        let position: (x: Double, y: Double, z: Double)
        let light: (red: Double, green: Double, blue: Double)

        /// The lit colour for the clamped directional term `directional` (`normal · position` clamped to 0…1).
        @inline(__always) func shade(directional d: Double, _ gradient: Double) -> (Double, Double, Double) {
            var directional = low + range * d
            directional *= gradient
            @inline(__always) func channel(_ v: Double, _ light: Double) -> Double {
                min(max((v + 0.03) * directional * light, 0.3 * (1 - light)), 1)
            }
            return (channel(c.0, light.red), channel(c.1, light.green), channel(c.2, light.blue))
        }

        /// The clamped directional term of `normal`.
        @inline(__always) func directional(_ normal: (x: Double, y: Double, z: Double)) -> Double {
            min(max(normal.x * position.x + normal.y * position.y + normal.z * position.z, 0), 1)
        }
    }

    /// The shader of features coloured `color` (straight RGBA).
    func shader(_ color: StyleColor) -> Shader {
        let c = (color.red * color.alpha, color.green * color.alpha, color.blue * color.alpha)
        let colorValue = c.0 * 0.2126 + c.1 * 0.7152 + c.2 * 0.0722
        return Shader(
            c: c, low: 1 - intensity, range: max(1 - colorValue + intensity, 1) - (1 - intensity),
            position: position, light: self.color)
    }
}

extension ExtrusionProjector {
    /// Projects every point of `ring` raised `meters` and shifted on the ground by `ground` to device pixels at
    /// `scale` with gradient parameter `t`, replacing `out`, as ``project(count:scale:into:_:)`` projects a point in
    /// front of the near plane; returns `false` (`out` then holds part of them) when one is not in front of it.
    @inline(__always) func projectRing(
        _ ring: [VectorTilePoint], meters: Double, t: Double, ground: (Double, Double), scale: Double,
        into out: inout [ExtrusionRaster.Vertex]
    ) -> Bool {
        out.removeAll(keepingCapacity: true)
        let near = nearDepth
        let d = camera.distance
        let (ocx, ocy) = (camera.opticalCenter.x, camera.opticalCenter.y)
        for point in ring {
            let c = cameraPoint(Double(point.x), Double(point.y), meters: meters, ground: ground)
            guard c.depth >= near else { return false }
            let k = d / c.depth
            out.append(
                ExtrusionRaster.Vertex(x: (ocx + c.x * k) * scale, y: (ocy + c.y * k) * scale, depth: c.depth, t: t))
        }
        return true
    }
}

extension MapRenderer {
    /// ``forEachWallEdge(of:extent:_:)`` with the index `i` of each edge's first end (its second is `i + 1`).
    @inline(__always)
    static func forEachWallEdgeIndex(
        of ring: [VectorTilePoint], extent e: Double,
        _ body: (_ i: Int, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ len: Double) -> Void
    ) {
        guard ring.count >= 2 else { return }
        for i in 0..<(ring.count - 1) {
            let (x1, y1) = (Double(ring[i].x), Double(ring[i].y))
            let (x2, y2) = (Double(ring[i + 1].x), Double(ring[i + 1].y))
            if (x1 == x2 && (x1 < 0 || x1 > e)) || (y1 == y2 && (y1 < 0 || y1 > e)) { continue }
            let len = ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()
            guard len > 0 else { continue }
            body(i, x1, y1, x2, y2, len)
        }
    }
}

extension ExtrusionRaster {
    /// The first vertices (`0`, `i`, `j`) among those ``spanningTriangle(_:)`` searches, in its order, that span a
    /// triangle of more than about no area, or `nil` when it finds none either: for a face whose planes are constant
    /// (``prepare(_:)``), any such triangle fits them alike.
    static func firstTriangle(_ all: UnsafeBufferPointer<Vertex>) -> (Int, Int, Int)? {
        guard all.count >= 3 else { return nil }
        let p0 = all[0]
        for i in 1..<all.count {
            for j in (i + 1)..<all.count {
                let area = abs((all[i].x - p0.x) * (all[j].y - p0.y) - (all[j].x - p0.x) * (all[i].y - p0.y))
                if area > 1e-9 { return (0, i, j) }
            }
            if all.count > 64 { break }
        }
        return nil
    }
}

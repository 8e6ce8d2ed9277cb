import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

// `fill-extrusion-pattern`: the faces of a patterned extrusion sample the sprite image on the GPU's terms (MapLibre
// `fill_extrusion_pattern.vertex.glsl` / `.fragment.glsl`): roofs on the world's pixel grid at the integer zoom like
// `fill-pattern`, walls along the ring's distance (across) and the height (up), the texel times the face's light.

/// A sprite image as an extrusion's faces sample it: premultiplied BGRA texels, repeated, filtered bilinearly
/// (MapLibre's pattern atlas pads each image with its wrapped edges and samples it linearly).
struct ExtrusionPattern {
    let image: RasterImage
    /// One period in points (the image's size over its pixel ratio).
    var pointWidth: Double { Double(image.width) / image.scale }
    var pointHeight: Double { Double(image.height) / image.scale }

    /// The premultiplied texel (B, G, R, A in 0…255) at pattern position `(u, v)` in periods (`fract` of each is
    /// the place in the image).
    @inline(__always) func sample(_ u: Double, _ v: Double, _ texels: UnsafePointer<UInt8>) -> (
        Double, Double, Double, Double
    ) {
        let w = image.width
        let h = image.height
        let fu = u - u.rounded(.down)
        let fv = v - v.rounded(.down)
        let sx = fu * Double(w) - 0.5
        let sy = fv * Double(h) - 0.5
        let x0f = sx.rounded(.down)
        let y0f = sy.rounded(.down)
        let ax = sx - x0f
        let ay = sy - y0f
        @inline(__always) func wrap(_ i: Int, _ n: Int) -> Int {
            let r = i % n
            return r < 0 ? r + n : r
        }
        let x0 = wrap(Int(x0f), w)
        let y0 = wrap(Int(y0f), h)
        let x1 = x0 + 1 == w ? 0 : x0 + 1
        let y1 = y0 + 1 == h ? 0 : y0 + 1
        let p00 = texels + (y0 * w + x0) * 4
        let p10 = texels + (y0 * w + x1) * 4
        let p01 = texels + (y1 * w + x0) * 4
        let p11 = texels + (y1 * w + x1) * 4
        let w00 = (1 - ax) * (1 - ay)
        let w10 = ax * (1 - ay)
        let w01 = (1 - ax) * ay
        let w11 = ax * ay
        @inline(__always) func channel(_ c: Int) -> Double {
            Double(p00[c]) * w00 + Double(p10[c]) * w10 + Double(p01[c]) * w01 + Double(p11[c]) * w11
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }
}

extension ExtrusionLight {
    /// The light of a patterned face with unit `normal` (0…1 RGB), times the vertical gradient factor `gradient` (1
    /// for roofs): MapLibre's pattern lighting, which has no colour term (`max(0.5 + intensity, 1)` at full light).
    func patternShade(normal: (x: Double, y: Double, z: Double), gradient: Double) -> (Double, Double, Double) {
        var directional = min(max(normal.x * position.x + normal.y * position.y + normal.z * position.z, 0), 1)
        directional = (1 - intensity) + (max(0.5 + intensity, 1) - (1 - intensity)) * directional
        directional *= gradient
        func channel(_ light: Double) -> Double { min(max(directional * light, 0.3 * (1 - light)), 1) }
        return (channel(color.red), channel(color.green), channel(color.blue))
    }
}

extension ExtrusionRaster {
    /// Fills the planar face in ``vertices`` (rings ending at ``ringEnds``, even-odd) with `pattern`: `uv[k]` is
    /// vertex `k`'s pattern position (periods), interpolated perspective-correctly like its `t`; each texel is
    /// multiplied by the light interpolated from `bottom` (t = 0) to `top` (t = 1) replaces what the pixel holds
    /// where the face is nearer (MapLibre's 3D pass: depth test and write, no blending). Empties both.
    func fillPattern(
        _ uv: [(Double, Double)], pattern: ExtrusionPattern, bottom: (Double, Double, Double),
        top: (Double, Double, Double)
    ) {
        defer {
            vertices.removeAll(keepingCapacity: true)
            ringEnds.removeAll(keepingCapacity: true)
        }
        guard vertices.count >= 3, uv.count == vertices.count, pattern.image.width > 0, pattern.image.height > 0 else {
            return
        }
        clearStale()
        vertices.withUnsafeBufferPointer { all in
            ringEnds.withUnsafeBufferPointer { ends in
                withColours { out, bytesPerRow in
                    pattern.image.pixels.withUnsafeBufferPointer { texels in
                        guard let texels = texels.baseAddress else { return }
                        fillPattern(
                            all, ends, uv, out, bytesPerRow, texels, pattern: pattern, bottom: bottom, top: top)
                    }
                }
            }
        }
    }

    private func fillPattern(
        _ all: UnsafeBufferPointer<Vertex>, _ ends: UnsafeBufferPointer<Int>, _ uv: [(Double, Double)],
        _ out: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int, _ texels: UnsafePointer<UInt8>,
        pattern: ExtrusionPattern,
        bottom: (Double, Double, Double), top: (Double, Double, Double)
    ) {
        guard let rows = rows(of: all), let (ia, ib, ic) = Self.spanningTriangle(all) else { return }
        let (a, b, c) = (all[ia], all[ib], all[ic])
        let w = Self.plane(a, b, c, 1 / a.depth, 1 / b.depth, 1 / c.depth)
        let tw = Self.plane(a, b, c, a.t / a.depth, b.t / b.depth, c.t / c.depth)
        let uw = Self.plane(a, b, c, uv[ia].0 / a.depth, uv[ib].0 / b.depth, uv[ic].0 / c.depth)
        let vw = Self.plane(a, b, c, uv[ia].1 / a.depth, uv[ib].1 / b.depth, uv[ic].1 / c.depth)
        let width = width
        let depth = inverseDepth
        let opacity = opacity
        let delta = (top.0 - bottom.0, top.1 - bottom.1, top.2 - bottom.2)
        var box = layerBox
        var frameBox = depthBox
        defer {
            layerBox = box
            depthBox = frameBox
        }
        scan(all, ends, rows: rows) { py, cy, x0, x1 in
            var drawn = false
            for px in x0...x1 {
                let cx = Double(px) + 0.5
                let inv = w.0 * cx + w.1 * cy + w.2
                let i = py * width + px
                guard Float(inv) > depth[i] else { continue }
                depth[i] = Float(inv)
                drawn = true
                let t = min(max((tw.0 * cx + tw.1 * cy + tw.2) / inv, 0), 1)
                let u = (uw.0 * cx + uw.1 * cy + uw.2) / inv
                let v = (vw.0 * cx + vw.1 * cy + vw.2) / inv
                let texel = pattern.sample(u, v, texels)
                // Premultiplied texel × light, replacing the pixel (MapLibre's 3D pass draws unblended).
                let o = out + py * bytesPerRow + px * 4
                o[0] = Self.scaled(Self.byte(texel.0 * (bottom.2 + delta.2 * t) / 255), opacity)
                o[1] = Self.scaled(Self.byte(texel.1 * (bottom.1 + delta.1 * t) / 255), opacity)
                o[2] = Self.scaled(Self.byte(texel.2 * (bottom.0 + delta.0 * t) / 255), opacity)
                o[3] = Self.scaled(Self.byte(texel.3 / 255), opacity)
            }
            if drawn {
                box.add(row: py, from: x0, to: x1)
                frameBox.add(row: py, from: x0, to: x1)
            }
        }
    }
}

extension MapRenderer {
    /// The pattern image a feature's `fill-extrusion-pattern` names, or `nil` when the name is empty or the sprite
    /// lacks it.
    func extrusionPattern(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> ExtrusionPattern? {
        guard let name = patternName(layer, "fill-extrusion-pattern", ctx), let image = spritePixels(name),
            image.width > 0, image.height > 0, image.scale > 0
        else { return nil }
        return ExtrusionPattern(image: image)
    }

    /// Draws one patterned polygon's walls and roof into `raster` (see ``fillExtrusionCommands``); returns whether
    /// it drew a face.
    ///
    /// MapLibre's pattern positions, in periods of the image's point size: `(tileRatio · pos + offset) / size`, where
    /// `tileRatio` is points per MapLibre tile unit (extent 8192) at the integer zoom, `offset` the tile's corner on
    /// the world's pixel grid there modulo the size, and `pos` a roof vertex's tile position or, on a wall, the
    /// distance along the ring (whole units, restarting with every ring) across and `−2^z / 512 / 8` units per
    /// metre of height up. Walls facing away from the camera are culled, so a roof's transparent texels show what
    /// lies behind the building, not its far walls.
    func drawPatternedExtrusion(
        _ polygon: [[VectorTilePoint]], pattern: ExtrusionPattern, tile: TileID, zoom: Double, extent: Int,
        base: Double, height: Double, light: ExtrusionLight, verticalGradient: Bool, scale: Double,
        raster: ExtrusionRaster,
        vertex: (Double, Double, Double, Double) -> (x: Double, y: Double, depth: Double, t: Double),
        projector: ExtrusionProjector
    ) -> Bool {
        let floorZoom = zoom.rounded(.down)
        let side = (512 * pow(2, floorZoom - Double(tile.z))).rounded(.down)
        let toUnits = 8192 / Double(max(1, extent))
        let tileRatio = side / 8192
        let pw = pattern.pointWidth
        let ph = pattern.pointHeight
        func positiveMod(_ v: Double, _ m: Double) -> Double {
            let r = v.truncatingRemainder(dividingBy: m)
            return r < 0 ? r + m : r
        }
        let offX = positiveMod(positiveMod(Double(tile.unwrappedX), pw) * side, pw)
        let offY = positiveMod(positiveMod(Double(tile.y), ph) * side, ph)
        let heightFactor = -pow(2, Double(tile.z)) / 512 / 8
        func periods(_ px: Double, _ py: Double) -> (Double, Double) {
            ((tileRatio * px + offX) / pw, (tileRatio * py + offY) / ph)
        }
        let e = Double(extent)
        let lowest = 0.7 + (0.98 - 0.7) * (1 - light.intensity)
        let gradientBottom = min(max(base * (height / 150).squareRoot(), lowest), 1)
        let gradientTop = min(max((1 + base) * (height / 150).squareRoot(), lowest), 1)
        var any = false
        var uv: [(Double, Double)] = []
        /// Projects the ring of `count` points three times (the projection clips to the near plane and interpolates
        /// the fourth value): with the pattern's u, its v, then the real `t`; returns the vertex count.
        func project(
            _ count: Int, _ point: (Int) -> (x: Double, y: Double, meters: Double, t: Double, u: Double, v: Double)
        ) -> Int {
            let before = raster.vertices.count
            let nu = projector.project(count: count, scale: scale, into: &raster.vertices) { k in
                let p = point(k)
                return vertex(p.x, p.y, p.meters, p.u)
            }
            let us = raster.vertices[before...].map(\.t)
            raster.vertices.removeLast(nu)
            let nv = projector.project(count: count, scale: scale, into: &raster.vertices) { k in
                let p = point(k)
                return vertex(p.x, p.y, p.meters, p.v)
            }
            let vs = raster.vertices[before...].map(\.t)
            raster.vertices.removeLast(nv)
            let n = projector.project(count: count, scale: scale, into: &raster.vertices) { k in
                let p = point(k)
                return vertex(p.x, p.y, p.meters, p.t)
            }
            guard n == nu, n == nv else {
                raster.vertices.removeLast(n)
                return 0
            }
            for k in 0..<n { uv.append((us[k], vs[k])) }
            return n
        }
        for ring in polygon where height > base {
            var edgeDistance = 0.0
            Self.forEachWallEdge(of: ring, extent: e) { x1, y1, x2, y2, len in
                // MapLibre walks the ring backwards for walls: the edge's far end gets the distance so far.
                let dist = (len * toUnits).rounded(.towardZero)
                let near = edgeDistance
                edgeDistance += dist
                let far = edgeDistance
                uv.removeAll(keepingCapacity: true)
                let n = project(4) { k in
                    let (x, y, m, t, d) =
                        switch k {
                        case 0: (x1, y1, base, 0.0, far)
                        case 1: (x2, y2, base, 0.0, near)
                        case 2: (x2, y2, height, 1.0, near)
                        default: (x1, y1, height, 1.0, far)
                        }
                    let q = periods(d, m * heightFactor)
                    return (x, y, m, t, q.0, q.1)
                }
                // Back faces are culled (MapLibre draws extrusions with back-face culling): a wall of an exterior
                // ring (clockwise on the y-down screen in vector tiles) faces the camera when its quad
                // (bottom 1, bottom 2, top 2, top 1) turns clockwise on the screen too.
                var turn = 0.0
                let quad = raster.vertices
                for k in 0..<quad.count {
                    let p = quad[k]
                    let q = quad[(k + 1) % quad.count]
                    turn += p.x * q.y - q.x * p.y
                }
                guard n >= 3, turn > 0 else {
                    raster.vertices.removeAll(keepingCapacity: true)
                    return
                }
                raster.ringEnds.append(n)
                let normal = (x: -(y2 - y1) / len, y: (x2 - x1) / len, z: 0.0)
                let graded = verticalGradient && normal.y != 0
                let bottom = light.patternShade(normal: normal, gradient: graded ? gradientBottom : 1)
                let top = light.patternShade(normal: normal, gradient: graded ? gradientTop : 1)
                raster.fillPattern(uv, pattern: pattern, bottom: bottom, top: top)
                any = true
            }
        }
        uv.removeAll(keepingCapacity: true)
        for ring in polygon where ring.count >= 3 {
            let n = project(ring.count) { k in
                let (x, y) = (Double(ring[k].x), Double(ring[k].y))
                let q = periods(x * toUnits, y * toUnits)
                return (x, y, height, 1, q.0, q.1)
            }
            if n >= 3 {
                raster.ringEnds.append(raster.vertices.count)
            } else if n > 0 {
                raster.vertices.removeLast(n)
                uv.removeLast(n)
            }
        }
        guard !raster.ringEnds.isEmpty else {
            raster.vertices.removeAll(keepingCapacity: true)
            return any
        }
        let roof = light.patternShade(normal: (0, 0, 1), gradient: 1)
        raster.fillPattern(uv, pattern: pattern, bottom: roof, top: roof)
        return true
    }
}

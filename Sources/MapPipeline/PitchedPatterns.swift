import MapDrawing
import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MapRenderer {
    /// A `background-pattern` under a pitched camera: the pattern lies on the ground (MapLibre draws the background
    /// per tile, its pattern on the world's pixel grid at the integer zoom), so the frame is filled one device-pixel
    /// row at a time, each row with the affine map the ground's projection has along it.
    ///
    /// Without roll the horizon is level, so every point of a screen row has the same depth and the projection is
    /// affine along the row: the derivative at the row's middle maps the row exactly (and the row's own height,
    /// one device pixel, to second order). Rows at or above the horizon are left out.
    /// - Parameters:
    ///   - handle: the pattern image; its point size is one period at the integer zoom.
    ///   - k: `2^(zoom − floor zoom)`, the period's scale at the style zoom.
    ///   - worldSize: world points at the style zoom.
    ///   - camera: the frame's camera (pitch ≠ 0).
    ///   - size: the frame in points.
    ///   - scale: device pixels per point.
    ///   - opacity: `background-opacity`.
    /// - Returns: one pattern fill per device-pixel row below the horizon.
    func pitchedBackgroundPattern(
        _ handle: ImageHandle, k: Double, worldSize: Double, camera: CameraState, size: ScreenSize, scale: Double,
        opacity: Double
    ) -> [DrawCommand] {
        let pw = handle.pointSize.width
        let ph = handle.pointSize.height
        guard pw > 0, ph > 0, k > 0, worldSize > 0, scale > 0, scale.isFinite else { return [] }
        let transform = CameraTransform(camera)
        let centre = WebMercator.worldPoint(camera.center)
        // Pattern point q ↔ world point: centre + (k·q − f) / worldSize, with f the centre's offset into the period
        // (as the flat frame places it).
        let fx = (centre.x * worldSize).truncatingRemainder(dividingBy: pw * k)
        let fy = (centre.y * worldSize).truncatingRemainder(dividingBy: ph * k)
        func screen(_ qx: Double, _ qy: Double) -> ScreenPoint {
            transform.screenPoint(
                forUnwrapped: WorldPoint(
                    x: centre.x + (k * qx - fx) / worldSize, y: centre.y + (k * qy - fy) / worldSize))
        }
        func positiveMod(_ v: Double, _ m: Double) -> Double {
            let r = v.truncatingRemainder(dividingBy: m)
            return r < 0 ? r + m : r
        }
        let rows = Int((size.height * scale).rounded(.up))
        let rowHeight = 1 / scale
        var out: [DrawCommand] = []
        out.reserveCapacity(rows)
        for row in 0..<max(0, rows) {
            let y = (Double(row) + 0.5) * rowHeight
            guard let g = transform.worldPoint(for: ScreenPoint(x: size.width / 2, y: y)) else { continue }
            let qx = ((g.x - centre.x) * worldSize + fx) / k
            let qy = ((g.y - centre.y) * worldSize + fy) / k
            // Central differences of one pattern point: exact along the row, where the projection is affine.
            let s0 = screen(qx, qy)
            let sxp = screen(qx + 1, qy)
            let sxm = screen(qx - 1, qy)
            let syp = screen(qx, qy + 1)
            let sym = screen(qx, qy - 1)
            let a = (sxp.x - sxm.x) / 2
            let b = (sxp.y - sxm.y) / 2
            let c = (syp.x - sym.x) / 2
            let d = (syp.y - sym.y) / 2
            // The same map from a pattern point a whole number of periods away (small numbers for the backend).
            let ox = positiveMod(qx, pw)
            let oy = positiveMod(qy, ph)
            let t = RenderTransform(a: a, b: b, c: c, d: d, tx: s0.x - a * ox - c * oy, ty: s0.y - b * ox - d * oy)
            guard t.isFinite, a * d - b * c != 0 else { continue }
            var path = RenderPath()
            path.addRect(RenderRect(x: 0, y: Double(row) * rowHeight, width: size.width, height: rowHeight))
            out.append(
                .fill(
                    FillCommand(
                        path: path, color: .black, opacity: opacity,
                        pattern: FillPattern(image: handle, transform: t))))
        }
        return out
    }
}

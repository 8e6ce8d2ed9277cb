import Foundation
import LinuxUIKit
import MapGeometry
import MapRender

/// Ground overlays on the overlay stage: the icon as a `MapRender` image command under the affine transform that
/// puts image points on the map (flat frames), or an 8 × 8 grid of such pieces, each clipped to its cell (pitched
/// frames; pieces with a corner nearer than a fifth of the camera distance are skipped).
extension GMSGroundOverlay: OverlayRenderable {
    var overlayZIndex: Int32 { zIndex }
    var overlayIsTappable: Bool { isTappable }
    var overlayReach: Double { 0 }
    var overlayIndexBoxes: [OverlayBounds] { overlayBounds.map { [$0] } ?? [] }

    var overlayBounds: OverlayBounds? {
        guard icon != nil else { return nil }
        let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].compactMap { worldPoint(u: $0.0, v: $0.1) }
        guard corners.count == 4 else { return nil }
        return OverlayBounds(flat: corners.flatMap { [$0.x, $0.y] })
    }

    private var clampedOpacity: Double {
        opacity.isNaN ? 1 : Double(min(max(opacity, 0), 1))
    }

    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand]) {
        guard let icon, let bounds = overlayBounds, clampedOpacity > 0,
            let handle = frame.stage.imageHandle(for: self, image: icon)
        else { return }
        let iw = Double(icon.size.width)
        let ih = Double(icon.size.height)
        guard iw > 0, ih > 0 else { return }
        let t = frame.camera
        let near = t.distance * 0.2
        let cells = frame.isFlat ? 1 : 8
        for copy in frame.copies(of: bounds, reach: 0) {
            func screen(_ u: Double, _ v: Double) -> ScreenPoint? {
                guard var w = worldPoint(u: u, v: v) else { return nil }
                w.x += copy
                guard t.depth(of: w) >= near else { return nil }
                return t.screenPoint(forUnwrapped: w)
            }
            for row in 0..<cells {
                for column in 0..<cells {
                    let u0 = Double(column) / Double(cells)
                    let v0 = Double(row) / Double(cells)
                    let u1 = Double(column + 1) / Double(cells)
                    let v1 = Double(row + 1) / Double(cells)
                    guard let p00 = screen(u0, v0), let p10 = screen(u1, v0), let p01 = screen(u0, v1),
                        screen(u1, v1) != nil
                    else { continue }
                    // Image points (x, y) → screen: p00 + (x − x0)·ex + (y − y0)·ey.
                    let dx = (u1 - u0) * iw
                    let dy = (v1 - v0) * ih
                    let ex = ((p10.x - p00.x) / dx, (p10.y - p00.y) / dx)
                    let ey = ((p01.x - p00.x) / dy, (p01.y - p00.y) / dy)
                    let x0 = u0 * iw
                    let y0 = v0 * ih
                    let m = RenderTransform(
                        a: ex.0, b: ex.1, c: ey.0, d: ey.1, tx: p00.x - x0 * ex.0 - y0 * ey.0,
                        ty: p00.y - x0 * ex.1 - y0 * ey.1)
                    commands.append(.save)
                    commands.append(.transform(m))
                    if cells > 1 {
                        // A hair of overlap (a tenth of an image point) so neighbouring cells leave no seam.
                        commands.append(.clip(RenderRect(x: x0 - 0.1, y: y0 - 0.1, width: dx + 0.2, height: dy + 0.2)))
                    }
                    commands.append(
                        .image(
                            ImageCommand(
                                image: handle, rect: RenderRect(x: 0, y: 0, width: iw, height: ih),
                                opacity: clampedOpacity)))
                    commands.append(.restore)
                }
            }
        }
    }

    func overlayContains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool {
        guard icon != nil, let bounds = overlayBounds, let world = frame.camera.worldPoint(for: point) else {
            return false
        }
        for copy in frame.copies(of: bounds, reach: 0) {
            guard let f = imageFraction(at: WorldPoint(x: world.x - copy, y: world.y)) else { continue }
            if f.u >= 0, f.u <= 1, f.v >= 0, f.v <= 1 { return true }
        }
        return false
    }
}

import Foundation
import LinuxUIKit
import MapDrawing
import MapGeometry

/// Ground overlays on the overlay stage: the icon drawn by `MapDrawing.ImageQuad` under the affine transform that
/// puts image points on the map (flat frames), or an 8 × 8 grid of such pieces, each clipped to its cell (pitched
/// frames; pieces with a corner nearer than a fifth of the camera distance are skipped).
@MainActor extension GMSGroundOverlay: @MainActor OverlayRenderable {
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
            ImageQuad.append(
                handle, cells: cells, opacity: clampedOpacity,
                screen: { u, v in
                    guard var w = worldPoint(u: u, v: v) else { return nil }
                    w.x += copy
                    guard t.depth(of: w) >= near else { return nil }
                    let s = t.screenPoint(forUnwrapped: w)
                    return ScreenPoint(x: s.x, y: s.y)
                }, into: &commands)
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

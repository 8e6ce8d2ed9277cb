import Foundation
import LinuxUIKit
import MapGeometry

// Advanced markers' collision behaviour (GMSCollisionBehavior): which of a frame's candidate markers are hidden
// because they overlap a marker of higher priority. Only advanced markers whose behaviour is not `.required` take part
// (``MarkerStore/collidingSlots``); their icons' upright rectangles on screen are the collision shapes (a rotated or
// flat icon collides by its unrotated rectangle). Priority: `.requiredAndHidesOptional` markers are always placed,
// then the optional ones by zIndex (higher first) and, at equal zIndex, the one lower on the screen first; an optional
// marker that intersects a rectangle placed before it is hidden.

extension MarkerStore {
    /// `list` without the markers the collisions hide, which are remembered in ``collisionHidden`` for hit tests.
    func resolveCollisions(_ list: [DrawCandidate], camera t: CameraTransform) -> [DrawCandidate] {
        struct Entrant {
            var slot: Int32
            var rect: CGRect
            var required: Bool
            var zIndex: Int32
        }
        var entrants: [Entrant] = []
        let minDepth = t.distance * 1e-3
        for c in list where collidingSlots.contains(c.slot) {
            guard let marker = marker(inSlot: c.slot) as? GMSAdvancedMarker, isValidPosition(marker.position) else {
                continue
            }
            let near = t.nearestWorldCopy(of: WebMercator.worldPoint(LatLng(marker.position)))
            guard t.depth(of: near) > minDepth else { continue }
            let s = t.screenPoint(forUnwrapped: near)
            let (size, insets) = IconMetrics.of(marker)
            let w = size.width - insets.left - insets.right
            let h = size.height - insets.top - insets.bottom
            let rect = CGRect(
                x: CGFloat(s.x) - marker.groundAnchor.x * w, y: CGFloat(s.y) - marker.groundAnchor.y * h, width: w,
                height: h)
            entrants.append(
                Entrant(
                    slot: c.slot, rect: rect, required: marker.collisionBehavior == .requiredAndHidesOptional,
                    zIndex: marker.zIndex))
        }
        entrants.sort { a, b in
            if a.required != b.required { return a.required }
            if a.zIndex != b.zIndex { return a.zIndex > b.zIndex }
            return a.rect.maxY > b.rect.maxY
        }
        // The placed rectangles in a grid of 64-point cells, each rectangle in every cell it touches.
        let cell: CGFloat = 64
        var grid: [Int64: [CGRect]] = [:]
        func cells(_ r: CGRect) -> [Int64] {
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return [] }
            let x0 = Int64((max(-1e6, r.minX) / cell).rounded(.down))
            let x1 = Int64((min(1e6, r.maxX) / cell).rounded(.down))
            let y0 = Int64((max(-1e6, r.minY) / cell).rounded(.down))
            let y1 = Int64((min(1e6, r.maxY) / cell).rounded(.down))
            guard x0 <= x1, y0 <= y1 else { return [] }
            var out: [Int64] = []
            for y in y0...y1 { for x in x0...x1 { out.append(y &* 1_000_003 &+ x) } }
            return out
        }
        var hidden: Set<Int32> = []
        for e in entrants {
            let touched = cells(e.rect)
            if !e.required && touched.contains(where: { key in grid[key]?.contains { $0.intersects(e.rect) } == true })
            {
                hidden.insert(e.slot)
                continue
            }
            for key in touched { grid[key, default: []].append(e.rect) }
        }
        collisionHidden = hidden
        return hidden.isEmpty ? list : list.filter { !hidden.contains($0.slot) }
    }
}

import Foundation
import LinuxUIKit
import MapGeometry
import MapLayout

// Advanced markers' collision behaviour (GMSCollisionBehavior): which of a frame's candidate markers are hidden
// because they overlap a marker of higher priority. Only advanced markers whose behaviour is not `.required` take part
// (``MarkerStore/collidingSlots``); their icons' upright rectangles on screen are the collision shapes (a rotated or
// flat icon collides by its unrotated rectangle). Priority: `.requiredAndHidesOptional` markers are always placed,
// then the optional ones by zIndex (higher first) and, at equal zIndex, the one lower on the screen first; an optional
// marker that intersects a rectangle placed before it is hidden.

extension MarkerStore {
    /// `list` (a frame's candidates for a `width` × `height` point view) without the markers the collisions hide,
    /// which are remembered in ``collisionHidden`` for hit tests.
    func resolveCollisions(
        _ list: [DrawCandidate], camera t: CameraTransform, width: Double, height: Double
    ) -> [DrawCandidate] {
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
            // The indexed anchor, or the position of a marker the index does not hold (one with a layer).
            let world =
                c.x.isFinite && c.y.isFinite
                ? WorldPoint(x: c.x, y: c.y) : WebMercator.worldPoint(LatLng(marker.position))
            let near = t.nearestWorldCopy(of: world)
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
        // The placed rectangles in the labels' collision grid over the view (rectangles beyond it land in its border
        // cells and are still found).
        var placed = GridIndex(width: width, height: height, cellSize: 64)
        var hidden: Set<Int32> = []
        for e in entrants {
            let (minX, minY, maxX, maxY) = (
                Double(e.rect.minX), Double(e.rect.minY), Double(e.rect.maxX), Double(e.rect.maxY)
            )
            if !e.required && placed.intersectsBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY) {
                hidden.insert(e.slot)
                continue
            }
            _ = placed.insertBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY, key: UInt32(bitPattern: e.slot))
        }
        collisionHidden = hidden
        return hidden.isEmpty ? list : list.filter { !hidden.contains($0.slot) }
    }
}

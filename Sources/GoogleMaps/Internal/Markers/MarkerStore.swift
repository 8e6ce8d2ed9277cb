import Foundation
import LinuxUIKit
import MapGeometry

/// A map's markers: slots (the map keeps its markers alive), drawing order (zIndex, then order of addition) and each
/// slot's rank in it, a point quadtree over their world positions whose entries carry that rank (hit testing ranks
/// candidates inside the leaf), and the bookkeeping for appear animations and tracked icon views. Main actor.
@MainActor final class MarkerStore {
    private var slots: [GMSMarker?] = []
    private var freeSlots: [Int32] = []
    private var tree = PointQuadtree()
    private var nextSequence: UInt64 = 0
    /// The drawing order (and the ranks) need rebuilding.
    var orderDirty = false
    private var ordered: [GMSMarker] = []
    /// Per slot: the marker's index in ``ordered`` (valid while the order is not dirty), also each tree entry's tag.
    private var ranks: [UInt32] = []
    /// Largest distance from a ground anchor to an icon corner among the markers ever added, points.
    private(set) var maxReach: CGFloat = DefaultPin.size.height
    /// Union over upright billboard markers of their tappable rectangle relative to the ground anchor, points
    /// (rotation 0): x from `minX` to `maxX`, y from `minY` to `maxY` (y down). Starts as the default pin's.
    private(set) var uprightExtent = (minX: CGFloat(-13), maxX: CGFloat(13), minY: CGFloat(-37), maxY: CGFloat(0))
    /// Set once any marker was rotated or flat: hit testing then searches within ``maxReach``.
    private(set) var hasTurnedMarkers = false
    private var appearing: [GMSMarker] = []
    private var iconViewMarkers: [ObjectIdentifier: GMSMarker] = [:]
    /// Number of markers on the map.
    private(set) var count = 0
    /// Blit-ready pixels of the still icons drawn lately, by image (the image is kept so its identity stays unique).
    private var sprites: [ObjectIdentifier: (image: UIImage, sprite: BlitSprite?)] = [:]

    /// Duration of the pop and fade-in appear animations, seconds.
    static let appearDuration: Double = 0.2

    var hasAppearAnimations: Bool { !appearing.isEmpty }
    var hasTrackingViews: Bool { iconViewMarkers.values.contains { $0.tracksViewChanges } }

    func add(_ marker: GMSMarker, now: Double) {
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)] = marker
        } else {
            slot = Int32(slots.count)
            slots.append(marker)
            ranks.append(0)
        }
        marker.slot = slot
        marker.sequence = nextSequence
        nextSequence += 1
        count += 1
        if !orderDirty && (ordered.last.map { $0.zIndex <= marker.zIndex } ?? true) {
            ranks[Int(slot)] = UInt32(ordered.count)
            ordered.append(marker)
        } else {
            orderDirty = true
        }
        index(marker)
        noteGeometry(marker)
        if marker.appearAnimation != .none {
            marker.appearStart = now
            appearing.append(marker)
        } else {
            marker.appearStart = nil
        }
        // Multi-frame icons play from their addition (still icons need no clock).
        marker.iconAnimationStart = marker.icon?.images != nil ? now : 0
    }

    func remove(_ marker: GMSMarker) {
        guard marker.slot >= 0, Int(marker.slot) < slots.count, slots[Int(marker.slot)] === marker else { return }
        unindex(marker)
        slots[Int(marker.slot)] = nil
        freeSlots.append(marker.slot)
        marker.slot = -1
        marker.appearStart = nil
        appearing.removeAll { $0 === marker }
        iconViewMarkers[ObjectIdentifier(marker)] = nil
        count -= 1
        if ordered.last === marker {
            ordered.removeLast()
        } else {
            orderDirty = true
        }
    }

    /// Re-indexes `marker` after a change of position, icon, anchor, rotation or flatness.
    func update(_ marker: GMSMarker) {
        guard marker.slot >= 0 else { return }
        unindex(marker)
        index(marker)
        noteGeometry(marker)
    }

    private func index(_ marker: GMSMarker) {
        guard isValidPosition(marker.position) else { return }
        let w = WebMercator.worldPoint(LatLng(marker.position))
        tree.insert(id: marker.slot, x: w.x, y: w.y, tag: ranks[Int(marker.slot)])
    }

    private func unindex(_ marker: GMSMarker) {
        tree.remove(id: marker.slot)
    }

    private func noteGeometry(_ marker: GMSMarker) {
        if marker.iconView != nil {
            iconViewMarkers[ObjectIdentifier(marker)] = marker
        } else {
            iconViewMarkers[ObjectIdentifier(marker)] = nil
        }
        if marker.rotation != 0 || marker.isFlat { hasTurnedMarkers = true }
        if marker.icon?.images != nil && marker.iconAnimationStart == 0 {
            marker.iconAnimationStart = UIAnimator.shared.now
        }
        // The default pin (the common case) is already covered by the initial reach and extent.
        guard marker.icon != nil || marker.iconView != nil || marker.groundAnchor != kGMSMarkerDefaultGroundAnchor
        else { return }
        let (size, insets) = IconMetrics.of(marker)
        maxReach = max(
            maxReach, MarkerPlacement.reach(imageSize: size, insets: insets, groundAnchor: marker.groundAnchor))
        let p = MarkerPlacement(
            screenPoint: .zero, imageSize: size, insets: insets, groundAnchor: marker.groundAnchor, rotation: 0,
            flat: false, bearing: 0, pitch: 0)
        let r = p.contentRect.applying(p.transform)
        if r.minX.isFinite && r.maxX.isFinite && r.minY.isFinite && r.maxY.isFinite {
            uprightExtent = (
                min(uprightExtent.minX, r.minX), max(uprightExtent.maxX, r.maxX), min(uprightExtent.minY, r.minY),
                max(uprightExtent.maxY, r.maxY)
            )
        }
    }

    /// The blit-ready pixels of `image` (nil for animated images), prepared once and kept for the next frames (at most
    /// 512 images; the cache starts over beyond).
    func sprite(for image: UIImage) -> BlitSprite? {
        let key = ObjectIdentifier(image)
        if let hit = sprites[key] { return hit.sprite }
        if sprites.count >= 512 { sprites.removeAll() }
        let sprite = BlitSprite(image: image)
        sprites[key] = (image, sprite)
        return sprite
    }

    func marker(inSlot slot: Int32) -> GMSMarker? {
        slot >= 0 && Int(slot) < slots.count ? slots[Int(slot)] : nil
    }

    /// Markers bottom to top: zIndex ascending, ties in order of addition.
    func drawOrder() -> [GMSMarker] {
        if orderDirty {
            ordered = slots.compactMap { $0 }.sorted {
                $0.zIndex != $1.zIndex ? $0.zIndex < $1.zIndex : $0.sequence < $1.sequence
            }
            for (i, marker) in ordered.enumerated() { ranks[Int(marker.slot)] = UInt32(i) }
            let ranks = self.ranks
            tree.retag { ranks[Int($0)] }
            orderDirty = false
        }
        return ordered
    }

    func allMarkers() -> [GMSMarker] { drawOrder() }

    func finishAppearAnimations(now: Double) {
        guard !appearing.isEmpty else { return }
        appearing.removeAll { marker in
            guard let start = marker.appearStart else { return true }
            if now - start >= Self.appearDuration {
                marker.appearStart = nil
                return true
            }
            return false
        }
    }

    /// The top-most tappable marker whose drawn icon (anchor, rotation, flatness, alignment insets applied; model
    /// values) contains `point` (view points) for camera `t`, or nil. Markers with invalid positions are never hit
    /// (D14); opacity 0 markers are (D13); ties in zIndex go to the later marker.
    ///
    /// The candidates are the markers whose anchors lie in the world box under the screen box the hit marker's anchor
    /// must lie in (the upright extent of every icon, or the largest reach once a marker was turned or flat), exact
    /// under rotation and tilt because each candidate is then tested in view space, from the highest drawing rank
    /// down (the quadtree's entries carry the rank). A tap among thousands
    /// of overlapping pins ranks them inside the leaves and tests the few top ones exactly.
    func topmostHit(at point: CGPoint, camera t: CameraTransform) -> GMSMarker? {
        guard point.x.isFinite, point.y.isFinite, count > 0 else { return nil }
        if orderDirty { _ = drawOrder() }
        // The screen box the hit marker's anchor must lie in.
        let box: (minX: Double, maxX: Double, minY: Double, maxY: Double)
        if hasTurnedMarkers {
            let r = Double(maxReach)
            box = (Double(point.x) - r, Double(point.x) + r, Double(point.y) - r, Double(point.y) + r)
        } else {
            let e = uprightExtent
            box = (
                Double(point.x - e.maxX), Double(point.x - e.minX), Double(point.y - e.maxY), Double(point.y - e.minY)
            )
        }
        func contains(_ marker: GMSMarker, _ wx: Double, _ wy: Double) -> Bool {
            guard marker.isTappable else { return false }
            let near = FrameRenderer.nearestCopy(WorldPoint(x: wx, y: wy), camera: t)
            guard t.depth(of: near) > t.distance * 1e-3 else { return false }
            let s = t.screenPoint(forUnwrapped: near)
            let (size, insets) = IconMetrics.of(marker)
            if marker.rotation == 0 && !marker.isFlat {
                // Upright billboard: a plain rectangle test.
                let w = size.width - insets.left - insets.right
                let h = size.height - insets.top - insets.bottom
                let left = CGFloat(s.x) - marker.groundAnchor.x * w
                let top = CGFloat(s.y) - marker.groundAnchor.y * h
                return point.x >= left && point.x <= left + w && point.y >= top && point.y <= top + h
            }
            let placement = MarkerPlacement(
                screenPoint: CGPoint(x: s.x, y: s.y), imageSize: size, insets: insets,
                groundAnchor: marker.groundAnchor,
                rotation: marker.rotation, flat: marker.isFlat, bearing: t.state.bearing, pitch: t.state.pitch)
            if placement.isAxisAligned {
                let r = placement.contentRect.applying(placement.transform)
                return point.x >= r.minX && point.x <= r.maxX && point.y >= r.minY && point.y <= r.maxY
            }
            return placement.contains(viewPoint: point)
        }
        // Near or above the horizon the world box of the screen box is unbounded: search every marker, top first.
        let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
        let world = corners.compactMap { t.worldPoint(for: ScreenPoint(x: $0.0, y: $0.1)) }
        guard world.count == 4 else {
            for marker in ordered.reversed() {
                if let e = tree.entry(id: marker.slot), contains(marker, e.x, e.y) { return marker }
            }
            return nil
        }
        var minX = world[0].x
        var maxX = world[0].x
        var minY = world[0].y
        var maxY = world[0].y
        for w in world.dropFirst() {
            minX = min(minX, w.x)
            maxX = max(maxX, w.x)
            minY = min(minY, w.y)
            maxY = max(maxY, w.y)
        }
        // World copies: a box wider than the world searches every x; otherwise the box shifted by -1, 0 and +1.
        let ranges =
            maxX - minX >= 1
            ? [(-Double.infinity, Double.infinity)]
            : [-1.0, 0, 1].filter { maxX + $0 >= 0 && minX + $0 <= 1 }.map { (minX + $0, maxX + $0) }
        /// The highest-ranked candidate ranked below `limit`.
        func highest(below limit: Int64) -> PointQuadtree.Entry? {
            var top: PointQuadtree.Entry?
            for (lo, hi) in ranges {
                if let e = tree.topEntry(inMinX: lo, minY: minY, maxX: hi, maxY: maxY, below: UInt64(limit)),
                    e.tag > top?.tag ?? 0 || top == nil
                {
                    top = e
                }
            }
            return top
        }
        // Candidates from the top down: usually the first is hit (the box is exact for upright icons of one shape).
        var limit = Int64.max
        for _ in 0..<4 {
            guard let e = highest(below: limit) else { return nil }
            if let marker = slots[Int(e.id)], contains(marker, e.x, e.y) { return marker }
            limit = Int64(e.tag)
        }
        // Many misses on top (non-tappable markers, mixed icons): rank the remaining candidates once.
        var rest: [PointQuadtree.Entry] = []
        for (lo, hi) in ranges {
            tree.forEachLeaf(inMinX: lo, minY: minY, maxX: hi, maxY: maxY) { entries in
                for e in entries where e.x >= lo && e.x <= hi && e.y >= minY && e.y <= maxY && Int64(e.tag) < limit {
                    rest.append(e)
                }
            }
        }
        rest.sort { $0.tag > $1.tag }
        for e in rest {
            if let marker = slots[Int(e.id)], contains(marker, e.x, e.y) { return marker }
        }
        return nil
    }
}

/// The size and alignment insets of what a marker draws: its icon view's bounds, its icon, or the default pin.
@MainActor enum IconMetrics {
    static func of(_ marker: GMSMarker) -> (size: CGSize, insets: UIEdgeInsets) {
        if let view = marker.iconView { return (view.bounds.size, .zero) }
        if let icon = marker.icon { return (icon.size, icon.alignmentRectInsets) }
        return (DefaultPin.size, .zero)
    }
}

import Foundation
import LinuxUIKit
import MapGeometry

/// A map's markers: slots (the map keeps its markers alive), drawing order (zIndex, then order of addition), a
/// point quadtree over their world positions for hit testing, and the bookkeeping for appear animations and
/// tracked icon views. Main actor.
@MainActor final class MarkerStore {
    private var slots: [GMSMarker?] = []
    private var freeSlots: [Int32] = []
    private(set) var tree = PointQuadtree()
    private var nextSequence: UInt64 = 0
    /// The drawing order needs rebuilding.
    var orderDirty = false
    private var ordered: [GMSMarker] = []
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
        }
        marker.slot = slot
        marker.sequence = nextSequence
        nextSequence += 1
        count += 1
        index(marker)
        noteGeometry(marker)
        if marker.appearAnimation != .none {
            marker.appearStart = now
            appearing.append(marker)
        } else {
            marker.appearStart = nil
        }
        marker.iconAnimationStart = now
        if !orderDirty && (ordered.last.map { $0.zIndex <= marker.zIndex } ?? true) {
            ordered.append(marker)
        } else {
            orderDirty = true
        }
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
        if tree.insert(id: marker.slot, x: w.x, y: w.y) { marker.indexedPoint = (w.x, w.y) }
    }

    private func unindex(_ marker: GMSMarker) {
        if let p = marker.indexedPoint { tree.remove(id: marker.slot, x: p.x, y: p.y) }
        marker.indexedPoint = nil
    }

    private func noteGeometry(_ marker: GMSMarker) {
        if marker.iconView != nil {
            iconViewMarkers[ObjectIdentifier(marker)] = marker
        } else {
            iconViewMarkers[ObjectIdentifier(marker)] = nil
        }
        if marker.rotation != 0 || marker.isFlat { hasTurnedMarkers = true }
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

    func marker(inSlot slot: Int32) -> GMSMarker? {
        slot >= 0 && Int(slot) < slots.count ? slots[Int(slot)] : nil
    }

    /// Markers bottom to top: zIndex ascending, ties in order of addition.
    func drawOrder() -> [GMSMarker] {
        if orderDirty {
            ordered = slots.compactMap { $0 }.sorted {
                $0.zIndex != $1.zIndex ? $0.zIndex < $1.zIndex : $0.sequence < $1.sequence
            }
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

    /// Markers whose world position lies in the box (x may extend past [0, 1]: world copies are searched).
    func forEach(
        worldMinX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (GMSMarker, Double, Double) -> Void
    ) {
        if maxX - worldMinX >= 1 {
            tree.forEach(inMinX: -.infinity, minY: minY, maxX: .infinity, maxY: maxY) { id, x, y in
                if let m = marker(inSlot: id) { body(m, x, y) }
            }
            return
        }
        for shift in [-1.0, 0, 1] {
            let lo = worldMinX + shift
            let hi = maxX + shift
            guard hi >= 0, lo <= 1 else { continue }
            tree.forEach(inMinX: lo, minY: minY, maxX: hi, maxY: maxY) { id, x, y in
                if let m = marker(inSlot: id) { body(m, x, y) }
            }
        }
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

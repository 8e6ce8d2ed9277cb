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
    /// Per slot: how the frame draws the marker: ``generalStyle``, ``floatingStyle`` or an index + 1 into ``styles``.
    private var styleOfSlot: [UInt32] = []
    /// The icon styles (icon and ground anchor) of the markers drawn straight from the store, and their index by key.
    private(set) var styles: [MarkerIconStyle] = []
    private var styleIndex: [MarkerIconStyle.Key: UInt32] = [:]
    private var lastStyle: (key: MarkerIconStyle.Key, value: UInt32)?
    /// The zIndex of the last marker in ``ordered`` (appending keeps the order while it is not above the new one).
    private var lastOrderedZIndex: Int32 = 0
    /// Slots of the markers with a `GMSMarkerLayer`: their presented position may differ from the indexed one, so
    /// every frame considers them (``floatingStyle``).
    private var floating: Set<Int32> = []
    /// How many markers the last frame considered (to size the next frame's list).
    private var lastCandidateCount = 0
    /// The slots of advanced markers whose collision behaviour is not `.required` (MarkerCollisions.swift).
    var collidingSlots: Set<Int32> = []
    /// The markers the last frame's collisions hid: not drawn, not hit.
    var collisionHidden: Set<Int32> = []
    /// The frame's icon compositor (its buffers reused from frame to frame) and, in its atlas, the blit-ready pixels
    /// of the still icons drawn lately.
    let batch = SpriteBatch()

    /// Duration of the pop and fade-in appear animations, seconds.
    static let appearDuration: Double = 0.2
    /// ``styleOfSlot`` value: drawn through ``FrameRenderer``'s general path (icon view, rotation, flat, opacity,
    /// appear animation, animated icon), culled by its indexed position.
    nonisolated static let generalStyle: UInt32 = 0
    /// ``styleOfSlot`` value: general path, considered every frame wherever it is indexed (it has a layer).
    nonisolated static let floatingStyle: UInt32 = .max
    /// Most distinct icon styles drawn straight from the store; markers of further styles take the general path.
    static let maximumStyles = 4096

    var hasAppearAnimations: Bool { !appearing.isEmpty }
    /// The icon-view markers the last frame drew (``MarkerDrawing``'s general path fills it each frame).
    var drawnIconViewMarkers: Set<ObjectIdentifier> = []
    /// Whether an icon view that tracks its changes, on a marker the last frame drew, changed since (asked for display
    /// or layout): such markers are drawn again then, not on every frame, so a still map lets the host sleep. A marker
    /// outside the view costs nothing, as on iOS: its view is snapshotted when a frame next draws it.
    var hasChangedTrackingViews: Bool {
        drawnIconViewMarkers.contains { id in
            guard let marker = iconViewMarkers[id], marker.tracksViewChanges else { return false }
            return marker.iconView?.needsRedrawInTree ?? false
        }
    }

    /// What the store reads of a marker, read once per change: each read of a class property costs an exclusivity
    /// check, which dominated adding a million markers.
    private struct Traits {
        var icon: UIImage?
        var hasIconView: Bool
        var groundAnchor: CGPoint
        var isFlat: Bool
        var opacity: Float
        /// Whether the marker has its rarely set state allocated (rotation, layer, animation clocks); when not, they
        /// are at their defaults.
        var hasExtras: Bool
        var rotation: Double
        var hasLayer: Bool
        var isAppearing: Bool

        @MainActor init(_ marker: GMSMarker) {
            icon = marker.icon
            hasIconView = marker.iconView != nil
            groundAnchor = marker.groundAnchor
            isFlat = marker.isFlat
            opacity = marker.opacity
            hasExtras = marker.hasExtras
            rotation = hasExtras ? marker.rotation : 0
            hasLayer = hasExtras && marker.layerIfCreated != nil
            isAppearing = hasExtras && marker.appearStart != nil
        }
    }

    func add(_ marker: GMSMarker, now: Double) {
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)] = marker
        } else {
            slot = Int32(slots.count)
            slots.append(marker)
            ranks.append(0)
            styleOfSlot.append(Self.generalStyle)
        }
        marker.slot = slot
        marker.sequence = nextSequence
        nextSequence += 1
        count += 1
        let zIndex = marker.zIndex
        if !orderDirty && (ordered.isEmpty || lastOrderedZIndex <= zIndex) {
            ranks[Int(slot)] = UInt32(ordered.count)
            ordered.append(marker)
            lastOrderedZIndex = zIndex
        } else {
            orderDirty = true
        }
        index(slot, marker.position)
        var traits = Traits(marker)
        noteGeometry(marker, traits)
        if marker.appearAnimation != .none {
            marker.appearStart = now
            appearing.append(marker)
            traits.isAppearing = true
        } else if traits.hasExtras {
            marker.appearStart = nil
            traits.isAppearing = false
        }
        // Multi-frame icons play from their addition (still icons need no clock).
        if traits.icon?.images != nil {
            marker.iconAnimationStart = now
        } else if traits.hasExtras {
            marker.iconAnimationStart = 0
        }
        restyle(marker, slot: slot, traits)
    }

    func remove(_ marker: GMSMarker) {
        let slot = marker.slot
        guard slot >= 0, Int(slot) < slots.count, slots[Int(slot)] === marker else { return }
        tree.remove(id: slot)
        slots[Int(slot)] = nil
        if styleOfSlot[Int(slot)] == Self.floatingStyle { floating.remove(slot) }
        styleOfSlot[Int(slot)] = Self.generalStyle
        if !collidingSlots.isEmpty { collidingSlots.remove(slot) }
        freeSlots.append(slot)
        marker.slot = -1
        if marker.hasExtras { marker.appearStart = nil }
        if !appearing.isEmpty { appearing.removeAll { $0 === marker } }
        if !iconViewMarkers.isEmpty { iconViewMarkers[ObjectIdentifier(marker)] = nil }
        count -= 1
        if ordered.last === marker {
            ordered.removeLast()
        } else {
            orderDirty = true
        }
    }

    /// Re-indexes `marker` after a change of position, icon, anchor, rotation or flatness.
    func update(_ marker: GMSMarker) {
        let slot = marker.slot
        guard slot >= 0 else { return }
        tree.remove(id: slot)
        index(slot, marker.position)
        let traits = Traits(marker)
        noteGeometry(marker, traits)
        restyle(marker, slot: slot, traits)
    }

    /// Recomputes how the frame draws `marker` (after a change of icon, icon view, anchor, rotation, flatness,
    /// opacity or layer, or the end of its appear animation).
    func restyle(_ marker: GMSMarker) {
        restyle(marker, slot: marker.slot, Traits(marker))
    }

    private func restyle(_ marker: GMSMarker, slot: Int32, _ traits: Traits) {
        guard slot >= 0, Int(slot) < styleOfSlot.count, slots[Int(slot)] === marker else { return }
        // Advanced markers that collide (a type check first: plain markers come by the million).
        if type(of: marker) != GMSMarker.self, let advanced = marker as? GMSAdvancedMarker,
            advanced.collisionBehavior != .required
        {
            collidingSlots.insert(slot)
        } else if !collidingSlots.isEmpty {
            collidingSlots.remove(slot)
        }
        let old = styleOfSlot[Int(slot)]
        let new: UInt32
        if traits.hasLayer {
            new = Self.floatingStyle
        } else if traits.hasIconView || traits.opacity < 1 || traits.isFlat || traits.isAppearing
            || traits.icon?.images != nil || !Self.isUpright(traits.rotation)
        {
            new = Self.generalStyle
        } else {
            new = style(icon: traits.icon, groundAnchor: traits.groundAnchor)
        }
        guard new != old else { return }
        if old == Self.floatingStyle { floating.remove(slot) }
        if new == Self.floatingStyle { floating.insert(slot) }
        styleOfSlot[Int(slot)] = new
    }

    /// Whether `rotation` draws as no rotation (a whole number of turns, or non-finite: D13).
    private static func isUpright(_ rotation: Double) -> Bool {
        !rotation.isFinite || rotation.truncatingRemainder(dividingBy: 360) == 0
    }

    /// The style value of markers drawing `icon` (nil: the default pin) at `groundAnchor`, interned
    /// (``generalStyle`` once ``maximumStyles`` are in use).
    private func style(icon: UIImage?, groundAnchor: CGPoint) -> UInt32 {
        let key = MarkerIconStyle.Key(
            icon: icon.map(ObjectIdentifier.init), anchorX: groundAnchor.x, anchorY: groundAnchor.y)
        // Markers come in runs of one style (no hashing then).
        if let last = lastStyle, last.key == key { return last.value }
        let value: UInt32
        if let hit = styleIndex[key] {
            value = hit
        } else {
            guard styles.count < Self.maximumStyles else { return Self.generalStyle }
            styles.append(MarkerIconStyle(icon: icon, groundAnchor: groundAnchor))
            value = UInt32(styles.count)
            styleIndex[key] = value
        }
        lastStyle = (key, value)
        return value
    }

    /// The style value of the marker in `slot` (see ``styleOfSlot``).
    func styleValue(ofSlot slot: Int32) -> UInt32 { styleOfSlot[Int(slot)] }

    private func index(_ slot: Int32, _ position: CLLocationCoordinate2D) {
        guard isValidPosition(position) else { return }
        let w = WebMercator.worldPoint(LatLng(position))
        tree.insert(id: slot, x: w.x, y: w.y, tag: ranks[Int(slot)])
    }

    private func noteGeometry(_ marker: GMSMarker, _ traits: Traits) {
        if traits.hasIconView {
            iconViewMarkers[ObjectIdentifier(marker)] = marker
        } else if !iconViewMarkers.isEmpty {
            iconViewMarkers[ObjectIdentifier(marker)] = nil
        }
        if traits.rotation != 0 || traits.isFlat { hasTurnedMarkers = true }
        if traits.icon?.images != nil && marker.iconAnimationStart == 0 {
            marker.iconAnimationStart = UIAnimator.shared.now
        }
        // The default pin (the common case) is already covered by the initial reach and extent.
        guard traits.icon != nil || traits.hasIconView || traits.groundAnchor != kGMSMarkerDefaultGroundAnchor
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
            // Sorted by keys (no marker read per comparison), only when zIndex differs: order of addition otherwise.
            var keys: [(zIndex: Int32, sequence: UInt64, slot: Int32)] = []
            keys.reserveCapacity(count)
            var zIndexesDiffer = false
            for case let marker? in slots {
                if let first = keys.first, first.zIndex != marker.zIndex { zIndexesDiffer = true }
                keys.append((marker.zIndex, marker.sequence, marker.slot))
            }
            Self.sortByOrder(&keys, zIndexesDiffer: zIndexesDiffer)
            ordered.removeAll(keepingCapacity: true)
            for (i, key) in keys.enumerated() {
                ranks[Int(key.slot)] = UInt32(i)
                ordered.append(slots[Int(key.slot)]!)
            }
            Self.retag(&tree, ranks: ranks)
            lastOrderedZIndex = keys.last?.zIndex ?? 0
            orderDirty = false
        }
        return ordered
    }

    func allMarkers() -> [GMSMarker] { drawOrder() }

    /// Sorts drawing keys: zIndex, then order of addition (nonisolated: no executor check a comparison).
    private nonisolated static func sortByOrder(
        _ keys: inout [(zIndex: Int32, sequence: UInt64, slot: Int32)], zIndexesDiffer: Bool
    ) {
        if zIndexesDiffer {
            keys.sort { $0.zIndex != $1.zIndex ? $0.zIndex < $1.zIndex : $0.sequence < $1.sequence }
        } else {
            keys.sort { $0.sequence < $1.sequence }
        }
    }

    /// Sets every tree entry's tag to its slot's rank.
    private nonisolated static func retag(_ tree: inout PointQuadtree, ranks: [UInt32]) {
        tree.retag { ranks[Int($0)] }
    }

    func finishAppearAnimations(now: Double) {
        guard !appearing.isEmpty else { return }
        var finished: [GMSMarker] = []
        appearing.removeAll { marker in
            guard let start = marker.appearStart else { return true }
            if now - start >= Self.appearDuration {
                marker.appearStart = nil
                finished.append(marker)
                return true
            }
            return false
        }
        for marker in finished { restyle(marker) }
    }

    /// The world boxes holding every world point whose screen point (camera `t`) lies in the screen box `box`: one x
    /// range per world copy the box meets (x shifted by -1, 0 or +1 into the stored [0, 1]; every x once the box is a
    /// world wide) and one y range; nil when the box reaches the horizon (its world box is unbounded). The ground is
    /// a plane, so the screen box's four corners bound it.
    static func worldBox(
        of box: (minX: Double, maxX: Double, minY: Double, maxY: Double), camera t: CameraTransform
    ) -> (ranges: [(Double, Double)], minY: Double, maxY: Double)? {
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            guard let w = t.worldPoint(for: ScreenPoint(x: x, y: y)) else { return nil }
            minX = min(minX, w.x)
            maxX = max(maxX, w.x)
            minY = min(minY, w.y)
            maxY = max(maxY, w.y)
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        let ranges =
            maxX - minX >= 1
            ? [(-Double.infinity, Double.infinity)]
            : [-1.0, 0, 1].filter { maxX + $0 >= 0 && minX + $0 <= 1 }.map { (minX + $0, maxX + $0) }
        return (ranges, minY, maxY)
    }

    /// The markers a frame for camera `t` over a `width` × `height` point view may draw, bottom to top: those whose
    /// indexed anchor lies within ``maxReach`` of the view (found in the quadtree: culled before sorting, sorted by
    /// rank only), plus every marker with a layer (its presented position may be anywhere). Markers with invalid
    /// positions are not indexed, so never drawn (D14).
    func drawCandidates(camera t: CameraTransform, width: Double, height: Double) -> [DrawCandidate] {
        if orderDirty { _ = drawOrder() }
        let r = Double(maxReach)
        var list: [DrawCandidate] = []
        list.reserveCapacity(min(count, lastCandidateCount + lastCandidateCount / 8 + 16))
        let box = Self.worldBox(of: (-r, width + r, -r, height + r), camera: t)
        Self.gather(into: &list, tree: &tree, box: box, styles: styleOfSlot)
        for slot in floating {
            list.append(
                DrawCandidate(rank: ranks[Int(slot)], slot: slot, style: Self.floatingStyle, x: .nan, y: .nan))
        }
        Self.sortByRank(&list)
        lastCandidateCount = list.count
        if !collidingSlots.isEmpty || !collisionHidden.isEmpty {
            list = resolveCollisions(list, camera: t, width: width, height: height)
        }
        return list
    }

    /// Appends the tree's entries in `box` (every entry when nil) that are not floating. Nonisolated, like
    /// ``sortByRank(_:)``: a main-actor closure would check its executor on every call.
    private nonisolated static func gather(
        into list: inout [DrawCandidate], tree: inout PointQuadtree,
        box: (ranges: [(Double, Double)], minY: Double, maxY: Double)?, styles: [UInt32]
    ) {
        guard let (ranges, minY, maxY) = box else {
            tree.forEachEntry { e in
                let style = styles[Int(e.id)]
                if style != floatingStyle {
                    list.append(DrawCandidate(rank: e.tag, slot: e.id, style: style, x: e.x, y: e.y))
                }
            }
            return
        }
        for (lo, hi) in ranges {
            tree.forEachLeaf(inMinX: lo, minY: minY, maxX: hi, maxY: maxY) { entries in
                for e in entries where e.x >= lo && e.x <= hi && e.y >= minY && e.y <= maxY {
                    let style = styles[Int(e.id)]
                    if style != floatingStyle {
                        list.append(DrawCandidate(rank: e.tag, slot: e.id, style: style, x: e.x, y: e.y))
                    }
                }
            }
        }
    }

    /// Sorts `list` by rank, stably. Ranks are positions in the drawing order (below the store's count), so when they
    /// span at most a few times the list's length (a frame's thousands of candidates) a counting sort places each
    /// candidate in one pass; an already sorted list is left as it is; sparse ranks (a few candidates among many
    /// markers) go through the merge sort, which finds the leaves' ascending runs.
    nonisolated static func sortByRank(_ list: inout [DrawCandidate]) {
        let n = list.count
        guard n > 1 else { return }
        var maxRank: UInt32 = 0
        var previous: UInt32 = 0
        var ascending = true
        for c in list {
            if c.rank < previous { ascending = false }
            previous = c.rank
            maxRank = max(maxRank, c.rank)
        }
        if ascending { return }
        let bound = Int(maxRank) + 1
        guard bound <= 4 * n + 64 else {
            list.sort { $0.rank < $1.rank }
            return
        }
        // Counting sort: each rank's first place from a histogram's prefix sums, then every candidate in its place.
        var next = [Int32](repeating: 0, count: bound + 1)
        for c in list { next[Int(c.rank) + 1] &+= 1 }
        for r in 0..<bound { next[r + 1] &+= next[r] }
        let source = list
        list.withUnsafeMutableBufferPointer { out in
            for c in source {
                let r = Int(c.rank)
                out[Int(next[r])] = c
                next[r] &+= 1
            }
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
            guard marker.isTappable, collisionHidden.isEmpty || !collisionHidden.contains(marker.slot) else {
                return false
            }
            let near = t.nearestWorldCopy(of: WorldPoint(x: wx, y: wy))
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
        guard let (ranges, minY, maxY) = Self.worldBox(of: box, camera: t) else {
            for marker in ordered.reversed() {
                if let e = tree.entry(id: marker.slot), contains(marker, e.x, e.y) { return marker }
            }
            return nil
        }
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

/// A marker a frame may draw: its rank in the drawing order, slot, style value (``MarkerStore/generalStyle``, …) and
/// indexed world position (NaN for floating markers, whose position the frame reads from the marker).
struct DrawCandidate {
    var rank: UInt32
    var slot: Int32
    var style: UInt32
    var x: Double
    var y: Double
}

/// The size and alignment insets of what a marker draws: its icon view's bounds, its icon, or the default pin.
@MainActor enum IconMetrics {
    static func of(_ marker: GMSMarker) -> (size: CGSize, insets: UIEdgeInsets) {
        if let view = marker.iconView { return (view.bounds.size, .zero) }
        if let icon = marker.icon { return (icon.size, icon.alignmentRectInsets) }
        return (DefaultPin.size, .zero)
    }
}

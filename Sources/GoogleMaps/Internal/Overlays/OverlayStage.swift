import Foundation
import LinuxUIKit
import MapDrawing
import MapDrawingCairo
import MapGeometry

/// The bounds of what an overlay draws in world units (the unit square; x may run outside [0, 1] for shapes across
/// the antimeridian, which are drawn on every world copy they reach).
struct OverlayBounds: Equatable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    /// The bounds of flat world coordinates, or nil when there are none or one is not finite.
    init?(flat: [Double]) {
        guard flat.count >= 2 else { return nil }
        var x0 = Double.infinity
        var y0 = Double.infinity
        var x1 = -Double.infinity
        var y1 = -Double.infinity
        var i = 0
        while i + 1 < flat.count {
            x0 = min(x0, flat[i])
            x1 = max(x1, flat[i])
            y0 = min(y0, flat[i + 1])
            y1 = max(y1, flat[i + 1])
            i += 2
        }
        guard [x0, y0, x1, y1].allSatisfy(\.isFinite) else { return nil }
        self.init(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest bounds holding both.
    func union(_ o: OverlayBounds) -> OverlayBounds {
        OverlayBounds(
            minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
}

/// One frame as the overlays see it: the camera, its integer zoom (the level geometry is prepared at), whether it
/// is flat (no pitch: screen = a similarity of the world, so prepared meshes are reused under a transform) and the
/// device scale.
@MainActor struct OverlayFrame {
    /// The camera's projection.
    let camera: CameraTransform
    /// `floor(zoom)` clamped to 0…22: the zoom level geometry is prepared (subdivided, simplified, tessellated) at.
    let level: Int
    /// Device pixels per point.
    let scale: Double
    /// The stage (image registration with its backend).
    unowned let stage: OverlayStage

    /// Pitch is 0: world → screen is a rotation, scale and translation.
    var isFlat: Bool { camera.state.pitch == 0 }

    /// The world x offsets (whole numbers) of the copies of `bounds` that can be on screen.
    func copies(of bounds: OverlayBounds, reach: Double) -> [Double] {
        let visible = stage.visibleBounds
        let lo = (visible.minX - bounds.maxX - reach).rounded(.up)
        let hi = (visible.maxX - bounds.minX + reach).rounded(.down)
        guard lo.isFinite, hi.isFinite, hi >= lo, hi - lo < 64 else { return lo.isFinite && hi >= lo ? [lo] : [] }
        return stride(from: lo, through: hi, by: 1).map { $0 }
    }
}

/// An overlay drawn by the ordered overlay stage between the basemap and the markers: shapes now, Google's tile
/// layers later.
///
/// Implementations prepare their geometry once per edit and integer zoom and only re-project it per frame. The
/// stage calls them on the main actor, in draw order, with the frame's camera. The protocol itself is nonisolated and
/// the public overlay classes conform with main-actor *isolated conformances* (`extension GMSTileLayer: @MainActor
/// OverlayRenderable`): a class conforming to a main-actor protocol would make every app subclass of it (a
/// `GMSSyncTileLayer` subclass, say) main-actor, unlike Google's nonisolated classes.
protocol OverlayRenderable: AnyObject {
    /// Drawing order: higher above lower; ties keep the order of addition (later above).
    var overlayZIndex: Int32 { get }
    /// Whether taps on it are reported.
    var overlayIsTappable: Bool { get }
    /// World bounds of what it draws, or nil when it draws nothing (not drawn, never hit).
    var overlayBounds: OverlayBounds? { get }
    /// The boxes it is indexed under: its bounds, or several smaller boxes covering everything it draws and takes
    /// taps on (long lines: runs of points).
    var overlayIndexBoxes: [OverlayBounds] { get }
    /// How far beyond ``overlayBounds`` it draws, in screen points (half its stroke width).
    var overlayReach: Double { get }
    /// Appends its draw commands (screen points) for `frame`.
    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand])
    /// Whether the screen point `point` lies on what it draws (`slop` points of tolerance around strokes).
    func overlayContains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool
    /// Whether what it draws depends only on its own edits and the camera, so a flat frame may reuse the stage's
    /// cached raster of it. Overlays whose content arrives or changes between edits (tile layers: tiles load, fade
    /// in) return false, and flat frames holding one are drawn afresh. Defaults to true.
    var overlayIsCacheable: Bool { get }
}

extension OverlayRenderable {
    /// Shapes and ground overlays change only through edits, which bump the stage's revision.
    var overlayIsCacheable: Bool { true }
}

/// The map's non-marker overlays in draw order, with an ``OverlayIndex`` over their world bounds for culling and hit
/// testing, and the backend (``MapBackends``) that executes their draw commands.
///
/// Order: ascending zIndex, ties by order of addition (an overlay removed and added again counts as new).
@MainActor final class OverlayStage {
    /// How far outside a shape's stroke (beyond half its width) a tap still hits it, in points. Waymark's choice;
    /// Google does not document its tolerance.
    static let tapSlop = 8.0

    struct Entry {
        let object: AnyObject
        let renderable: (any OverlayRenderable)?
        let sequence: Int
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// How many entries are not ``OverlayRenderable/overlayIsCacheable`` (kept on add and remove, so frames need
    /// not scan every overlay to decide whether the raster cache may serve them).
    private var uncacheableCount = 0
    private var nextSequence = 0
    private var ordered: [ObjectIdentifier] = []
    private var orderDirty = false
    /// Each overlay's place in ``ordered`` (valid while the order is not dirty).
    private var position: [ObjectIdentifier: Int] = [:]
    /// The largest stroke reach (half width, points) of any overlay indexed so far (it never shrinks: it only widens
    /// the box tap candidates are looked up in).
    private var maxReach = 0.0
    private var index = OverlayIndex()
    /// Bumped by every change that can alter a frame (add, remove, edit, order); each bump calls ``onChange``.
    private var revision = 0 {
        didSet { onChange?() }
    }
    /// Called after every change that can alter a frame (the map view marks itself for display).
    var onChange: (() -> Void)?

    /// What a cached overlay raster was drawn for: flat frames that differ only by a pan reuse it.
    private struct RasterKey: Equatable {
        var revision: Int
        var zoom: Double
        var bearing: Double
        var size: ScreenSize
        var opticalCenter: ScreenPoint
        var scale: Double
    }

    /// The overlays of a flat frame drawn once into an image ``rasterMargin`` larger than the view on every side,
    /// and the camera centre it was drawn for; pans within the margin blit it at whole device pixels.
    private var raster: (key: RasterKey, center: WorldPoint, handle: ImageHandle, margin: Double)?

    /// The raster's margin around the view, as a fraction of the view's larger side.
    static let rasterMargin = 0.25
    /// Overlays whose bounds must be (re)indexed.
    private var stale: Set<ObjectIdentifier> = []
    /// The world bounds of the visible area in the frame being drawn or hit-tested.
    private(set) var visibleBounds = OverlayBounds(minX: 0, minY: 0, maxX: 1, maxY: 1)
    /// The stage's backend. No renderer hands it an engine's store, so its label sprites (the stage draws none
    /// today: shapes, ground overlays and tile layers have no text) stay in its own store, whose budget is set here.
    private lazy var backend = MapBackends.make(labelCacheBytes: Self.labelSpriteBytes)
    /// The byte budget of the stage backend's own label-sprite store.
    static let labelSpriteBytes = 1 << 20
    /// Registered images by their source object (ground overlay icons).
    private var images: [ObjectIdentifier: (source: AnyObject, handle: ImageHandle)] = [:]
    /// The commands of the last frame drawn (tests read them through ``lastCommandCount``).
    private(set) var lastCommandCount = 0

    /// Number of overlays on the stage.
    var count: Int { entries.count }

    /// Whether `object` is on the stage.
    func contains(_ object: AnyObject) -> Bool { entries[ObjectIdentifier(object)] != nil }

    /// Every object on the stage, in draw order.
    var objects: [AnyObject] {
        sortIfNeeded()
        return ordered.compactMap { entries[$0]?.object }
    }

    /// Adds `object` on top of its zIndex group (`renderable` nil: kept, never drawn).
    func add(_ object: AnyObject, renderable: (any OverlayRenderable)?) {
        let id = ObjectIdentifier(object)
        revision += 1
        if entries[id] != nil { remove(object) }
        entries[id] = Entry(object: object, renderable: renderable, sequence: nextSequence)
        if renderable?.overlayIsCacheable == false { uncacheableCount += 1 }
        nextSequence += 1
        ordered.append(id)
        orderDirty = true
        stale.insert(id)
    }

    /// Removes `object`; nothing happens when it is not on the stage.
    func remove(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        guard let entry = entries[id] else { return }
        revision += 1
        unindex(id)
        if entry.renderable?.overlayIsCacheable == false { uncacheableCount -= 1 }
        entries[id] = nil
        stale.remove(id)
        ordered.removeAll { $0 == id }
        orderDirty = true
        if images[id] != nil { unregisterImage(for: object) }
    }

    /// Removes everything and returns what was removed, in draw order.
    func removeAll() -> [AnyObject] {
        let all = objects
        revision += 1
        dropRaster()
        entries.removeAll()
        uncacheableCount = 0
        ordered.removeAll()
        index.removeAll()
        stale.removeAll()
        for (_, image) in images { backend.unregister(image.handle) }
        images.removeAll()
        return all
    }

    /// The geometry of `object` changed: it is re-indexed before the next frame or hit test.
    func geometryDidChange(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        revision += 1
        guard entries[id] != nil, !stale.contains(id) else { return }
        unindex(id)
        stale.insert(id)
    }

    /// Indexes the overlays added or changed since the last query.
    private func indexStale() {
        guard !stale.isEmpty else { return }
        for id in stale { reindex(id) }
        stale.removeAll()
    }

    /// Something `object` draws changed that leaves its bounds alone (a tile layer's opacity).
    func contentDidChange(_ object: AnyObject) {
        guard entries[ObjectIdentifier(object)] != nil else { return }
        revision += 1
    }

    /// A zIndex changed.
    func orderDidChange() {
        orderDirty = true
        revision += 1
    }

    private func sortIfNeeded() {
        guard orderDirty else { return }
        orderDirty = false
        let keyed = ordered.map { id -> (Int32, Int, ObjectIdentifier) in
            let e = entries[id]!
            return (e.renderable?.overlayZIndex ?? 0, e.sequence, id)
        }
        ordered = keyed.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.2)
        position = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element, $0.offset) })
    }

    // MARK: Index

    private func reindex(_ id: ObjectIdentifier) {
        guard let r = entries[id]?.renderable, r.overlayBounds != nil else { return }
        index.insert(id, boxes: r.overlayIndexBoxes)
        let reach = r.overlayReach
        if reach.isFinite { maxReach = max(maxReach, reach) }
    }

    private func unindex(_ id: ObjectIdentifier) { index.remove(id) }

    /// The entries whose indexed bounds may meet the world box, in draw order (bottom first).
    private func candidates(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [ObjectIdentifier] {
        sortIfNeeded()
        indexStale()
        let found = index.query(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        if found.count * 8 > ordered.count {
            let set = Set(found)
            return ordered.filter { set.contains($0) }
        }
        return found.map { (position[$0] ?? 0, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    // MARK: Frames

    private func frame(for camera: CameraState, scale: Double) -> OverlayFrame {
        let t = camera.transform
        let w = camera.size.width
        let h = camera.size.height
        let corners = [
            ScreenPoint(x: 0, y: 0), ScreenPoint(x: w, y: 0), ScreenPoint(x: 0, y: h), ScreenPoint(x: w, y: h),
        ].map { t.worldPointClampedToHorizon(for: $0) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        visibleBounds = OverlayBounds(
            minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 1, maxY: ys.max() ?? 1)
        let level = Int(min(22, max(0, camera.zoom.isFinite ? camera.zoom.rounded(.down) : 0)))
        return OverlayFrame(camera: t, level: level, scale: scale, stage: self)
    }

    /// The draw commands of every visible overlay for `camera`, bottom to top.
    func displayList(camera: CameraState, scale: Double) -> DisplayList {
        let frame = frame(for: camera, scale: scale)
        var commands: [DrawCommand] = []
        let v = visibleBounds
        // Reach: the widest stroke is a few points; a margin of 1/16 of the view in world units covers it.
        let margin = 64 / frame.camera.worldSize
        for id in candidates(minX: v.minX - margin, minY: v.minY - margin, maxX: v.maxX + margin, maxY: v.maxY + margin)
        {
            entries[id]?.renderable?.appendDrawCommands(for: frame, into: &commands)
        }
        lastCommandCount = commands.count
        return DisplayList(
            size: ScreenSize(width: camera.size.width, height: camera.size.height), scale: scale,
            commands: commands)
    }

    /// Draws every visible overlay into `context` (the map view's context: points, already scaled by `scale`).
    ///
    /// Flat frames go through a raster cache: the overlays are drawn into an image larger than the view by
    /// ``rasterMargin`` on each side, which later frames that only pan (same overlays, zoom, bearing, size, padding
    /// and scale; the centre moved less than the margin) draw at the new offset rounded to whole device pixels
    /// (at most half a device pixel from the exact place). Pitched frames, and frames with an overlay that is not
    /// ``OverlayRenderable/overlayIsCacheable`` (tile layers), are drawn directly.
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        guard !entries.isEmpty else {
            lastCommandCount = 0
            dropRaster()
            return
        }
        let s = Double(scale)
        guard camera.pitch == 0, s > 0, uncacheableCount == 0 else {
            dropRaster()
            let list = displayList(camera: camera, scale: s)
            if !list.commands.isEmpty { MapBackends.draw(list, with: backend, into: context) }
            return
        }
        let t = camera.transform
        let key = RasterKey(
            revision: revision, zoom: camera.zoom, bearing: camera.bearing, size: camera.size,
            opticalCenter: t.opticalCenter, scale: s)
        func offset(from center: WorldPoint) -> (x: Double, y: Double) {
            // Where the raster's centre world point lands now, relative to where it was drawn.
            let p = t.screenPoint(forUnwrapped: center)
            return (p.x - t.opticalCenter.x, p.y - t.opticalCenter.y)
        }
        if let r = raster, r.key == key {
            let d = offset(from: r.center)
            if abs(d.x) < r.margin && abs(d.y) < r.margin {
                blit(r.handle, margin: r.margin, dx: d.x, dy: d.y, camera: camera, scale: s, into: context)
                return
            }
        }
        dropRaster()
        let margin = (max(camera.size.width, camera.size.height) * Self.rasterMargin).rounded(.up)
        var wide = camera
        wide.size = ScreenSize(width: camera.size.width + 2 * margin, height: camera.size.height + 2 * margin)
        wide.padding = EdgeInsets(
            top: camera.padding.top + margin, left: camera.padding.left + margin,
            bottom: camera.padding.bottom + margin, right: camera.padding.right + margin)
        let list = displayList(camera: wide, scale: s)
        guard let handle = try? backend.renderImage(list) else { return }
        raster = (key, t.centerWorld, handle, margin)
        blit(handle, margin: margin, dx: 0, dy: 0, camera: camera, scale: s, into: context)
    }

    private func blit(
        _ handle: ImageHandle, margin: Double, dx: Double, dy: Double, camera: CameraState, scale: Double,
        into context: CGContext
    ) {
        let x = ((dx - margin) * scale).rounded() / scale
        let y = ((dy - margin) * scale).rounded() / scale
        let rect = RenderRect(
            x: x, y: y, width: Double(handle.pixelWidth) / scale, height: Double(handle.pixelHeight) / scale)
        let list = DisplayList(
            size: ScreenSize(width: camera.size.width, height: camera.size.height), scale: scale,
            commands: [.image(ImageCommand(image: handle, rect: rect))])
        MapBackends.draw(list, with: backend, into: context)
    }

    private func dropRaster() {
        if let r = raster { backend.unregister(r.handle) }
        raster = nil
    }

    /// The top-most tappable overlay under `point` (view points) for `camera`, or nil. Highest zIndex first, later
    /// added first on ties.
    func hit(at point: ScreenPoint, camera: CameraState, scale: Double) -> AnyObject? {
        guard !entries.isEmpty, point.x.isFinite, point.y.isFinite,
            let world = camera.transform.worldPoint(for: point)
        else { return nil }
        let frame = frame(for: camera, scale: scale)
        sortIfNeeded()
        indexStale()
        // Candidates whose bounds, grown by the largest reach, hold the point on some world copy.
        let reach = (maxReach + Self.tapSlop + 1) / frame.camera.worldSize / max(frame.camera.scale(at: world), 1e-6)
        let x = world.x - (world.x).rounded(.down)
        var ids = candidates(minX: x - reach, minY: world.y - reach, maxX: x + reach, maxY: world.y + reach)
        ids.reverse()
        for id in ids {
            guard let entry = entries[id], let r = entry.renderable, r.overlayIsTappable else { continue }
            if r.overlayContains(point, slop: Self.tapSlop, frame: frame) { return entry.object }
        }
        return nil
    }

    // MARK: Images

    /// The backend handle of `image` (registered on first use, again when `source` shows a different image).
    func imageHandle(for source: AnyObject, image: UIImage) -> ImageHandle? {
        let id = ObjectIdentifier(source)
        if let known = images[id], known.source === image { return known.handle }
        unregisterImage(for: source)
        guard let data = image.pngData(),
            let raster = try? PNGCodec.decode([UInt8](data), scale: Double(image.scale)),
            let handle = try? backend.register(raster)
        else { return nil }
        images[id] = (image, handle)
        return handle
    }

    /// Registers pixels with the stage's backend (tile layers' tiles); nil when the backend refuses them.
    func registerRaster(_ image: RasterImage) -> ImageHandle? { try? backend.register(image) }

    /// Releases an image from ``registerRaster(_:)``.
    func unregisterRaster(_ handle: ImageHandle) { backend.unregister(handle) }

    /// Forgets the image registered for `source`.
    func unregisterImage(for source: AnyObject) {
        let id = ObjectIdentifier(source)
        if let known = images.removeValue(forKey: id) { backend.unregister(known.handle) }
    }
}

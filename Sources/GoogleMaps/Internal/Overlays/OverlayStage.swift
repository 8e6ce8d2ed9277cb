import Foundation
import LinuxUIKit
import MapGeometry
import MapRender
import MapRenderCairo

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
/// stage calls them on the main actor, in draw order, with the frame's camera.
@MainActor protocol OverlayRenderable: AnyObject {
    /// Drawing order: higher above lower; ties keep the order of addition (later above).
    var overlayZIndex: Int32 { get }
    /// Whether taps on it are reported.
    var overlayIsTappable: Bool { get }
    /// World bounds of what it draws, or nil when it draws nothing (not drawn, never hit).
    var overlayBounds: OverlayBounds? { get }
    /// How far beyond ``overlayBounds`` it draws, in screen points (half its stroke width).
    var overlayReach: Double { get }
    /// Appends its draw commands (screen points) for `frame`.
    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand])
    /// Whether the screen point `point` lies on what it draws (`slop` points of tolerance around strokes).
    func overlayContains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool
}

/// The map's non-marker overlays in draw order, with a grid index over their world bounds for culling and hit
/// testing, and the Cairo backend that executes their draw commands.
///
/// Order: ascending zIndex, ties by order of addition (an overlay removed and added again counts as new).
/// The grid has 64 × 64 cells over the world square; overlays larger than a quarter of the world are kept in a
/// separate list that every query visits.
@MainActor final class OverlayStage {
    /// How far outside a shape's stroke (beyond half its width) a tap still hits it, in points. Waymark's choice;
    /// Google does not document its tolerance.
    static let tapSlop = 8.0

    struct Entry {
        let object: AnyObject
        let renderable: (any OverlayRenderable)?
        let sequence: Int
        /// Cells the entry is in, or nil for the large list / no bounds.
        var cells: [Int] = []
        var bounds: OverlayBounds?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextSequence = 0
    private var ordered: [ObjectIdentifier] = []
    private var orderDirty = false
    private static let gridSize = 64
    private var grid = [[ObjectIdentifier]](repeating: [], count: 64 * 64)
    private var large: Set<ObjectIdentifier> = []
    /// Overlays whose bounds must be (re)indexed.
    private var stale: Set<ObjectIdentifier> = []
    /// The world bounds of the visible area in the frame being drawn or hit-tested.
    private(set) var visibleBounds = OverlayBounds(minX: 0, minY: 0, maxX: 1, maxY: 1)
    private lazy var backend = CairoBackend(labelCacheBytes: 1 << 20)
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
        if entries[id] != nil { remove(object) }
        entries[id] = Entry(object: object, renderable: renderable, sequence: nextSequence)
        nextSequence += 1
        ordered.append(id)
        orderDirty = true
        stale.insert(id)
    }

    /// Removes `object`; nothing happens when it is not on the stage.
    func remove(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        guard entries[id] != nil else { return }
        unindex(id)
        entries[id] = nil
        stale.remove(id)
        ordered.removeAll { $0 == id }
        if images[id] != nil { unregisterImage(for: object) }
    }

    /// Removes everything and returns what was removed, in draw order.
    func removeAll() -> [AnyObject] {
        let all = objects
        entries.removeAll()
        ordered.removeAll()
        grid = [[ObjectIdentifier]](repeating: [], count: Self.gridSize * Self.gridSize)
        large.removeAll()
        stale.removeAll()
        for (_, image) in images { backend.unregister(image.handle) }
        images.removeAll()
        return all
    }

    /// The geometry of `object` changed: it is re-indexed before the next frame or hit test.
    func geometryDidChange(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        guard entries[id] != nil, !stale.contains(id) else { return }
        unindex(id)
        stale.insert(id)
    }

    /// Indexes the overlays added or changed since the last query.
    private func indexStale() {
        guard !stale.isEmpty else { return }
        for id in stale { index(id) }
        stale.removeAll()
    }

    /// A zIndex changed.
    func orderDidChange() { orderDirty = true }

    private func sortIfNeeded() {
        guard orderDirty else { return }
        orderDirty = false
        ordered.sort { a, b in
            let ea = entries[a]!
            let eb = entries[b]!
            let za = ea.renderable?.overlayZIndex ?? 0
            let zb = eb.renderable?.overlayZIndex ?? 0
            return za != zb ? za < zb : ea.sequence < eb.sequence
        }
    }

    private func rank(_ id: ObjectIdentifier) -> (Int32, Int) {
        let e = entries[id]!
        return (e.renderable?.overlayZIndex ?? 0, e.sequence)
    }

    // MARK: Index

    private func index(_ id: ObjectIdentifier) {
        guard var entry = entries[id], let bounds = entry.renderable?.overlayBounds else { return }
        entry.bounds = bounds
        let n = Self.gridSize
        if bounds.maxX - bounds.minX > 0.25 || bounds.maxY - bounds.minY > 0.25 {
            large.insert(id)
            entry.cells = []
        } else {
            var cells: [Int] = []
            let y0 = Self.cell(bounds.minY)
            let y1 = Self.cell(bounds.maxY)
            var x = (bounds.minX * Double(n)).rounded(.down)
            let xEnd = (bounds.maxX * Double(n)).rounded(.down)
            while x <= xEnd {
                let cx = ((Int(x) % n) + n) % n
                for cy in y0...y1 { cells.append(cy * n + cx) }
                x += 1
            }
            for c in cells { grid[c].append(id) }
            entry.cells = cells
        }
        entries[id] = entry
    }

    private func unindex(_ id: ObjectIdentifier) {
        guard var entry = entries[id] else { return }
        for c in entry.cells { grid[c].removeAll { $0 == id } }
        large.remove(id)
        entry.cells = []
        entry.bounds = nil
        entries[id] = entry
    }

    private static func cell(_ v: Double) -> Int {
        let n = gridSize
        guard v.isFinite else { return 0 }
        return min(n - 1, max(0, Int((v * Double(n)).rounded(.down))))
    }

    /// The entries whose indexed bounds may meet the world box, in draw order (bottom first).
    private func candidates(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [ObjectIdentifier] {
        sortIfNeeded()
        indexStale()
        let n = Self.gridSize
        var found = large
        if maxX - minX >= 1 {
            for cell in grid { for id in cell { found.insert(id) } }
        } else {
            let y0 = Self.cell(minY)
            let y1 = Self.cell(maxY)
            var x = (minX * Double(n)).rounded(.down)
            let xEnd = (maxX * Double(n)).rounded(.down)
            guard x.isFinite, xEnd.isFinite else { return [] }
            while x <= xEnd {
                let cx = ((Int(x) % n) + n) % n
                for cy in y0...y1 { for id in grid[cy * n + cx] { found.insert(id) } }
                x += 1
            }
        }
        if found.count * 4 > ordered.count {
            return ordered.filter { found.contains($0) }
        }
        return found.sorted { a, b in
            let ra = rank(a)
            let rb = rank(b)
            return ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1
        }
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
            size: RenderSize(width: camera.size.width, height: camera.size.height), scale: scale,
            commands: commands)
    }

    /// Draws every visible overlay into `context` (the map view's context: points, already scaled by `scale`).
    func draw(camera: CameraState, in context: CGContext, scale: CGFloat) {
        guard !entries.isEmpty else {
            lastCommandCount = 0
            return
        }
        let list = displayList(camera: camera, scale: Double(scale))
        guard !list.commands.isEmpty else { return }
        backend.draw(list, context: context._cairoContext, isScaled: true)
    }

    /// The top-most tappable overlay under `point` (view points) for `camera`, or nil. Highest zIndex first, later
    /// added first on ties.
    func hit(at point: ScreenPoint, camera: CameraState, scale: Double) -> AnyObject? {
        guard !entries.isEmpty, point.x.isFinite, point.y.isFinite,
            let world = camera.transform.worldPoint(for: point)
        else { return nil }
        let frame = frame(for: camera, scale: scale)
        // Candidates whose bounds, grown by the largest reach, hold the point on some world copy.
        let reach = (64 + Self.tapSlop) / frame.camera.worldSize / max(frame.camera.scale(at: world), 1e-6)
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

import Foundation
import MapData
import MapDrawing
import MapGeometry
import MapStyle

/// MapLibre's fill-extrusion lighting (`fill_extrusion.vertex.glsl`) with the style's `light` (``StyleLight``).
struct ExtrusionLight {
    /// The light's direction in tile axes (x east, y south, z up), turned with the map's bearing when anchored to the
    /// viewport.
    var position: (x: Double, y: Double, z: Double)
    var intensity: Double
    var color: (red: Double, green: Double, blue: Double)

    /// `light` at the map's `bearing` (degrees).
    init(_ light: StyleLight = StyleLight(), bearing: Double) {
        let a = (light.position.azimuthal + 90) * .pi / 180
        let p = light.position.polar * .pi / 180
        let r = light.position.radial
        let x = r * cos(a) * sin(p)
        let y = r * sin(a) * sin(p)
        let z = r * cos(p)
        // Viewport anchoring: turned by the bearing (MapLibre's rotation by `-transform.angle`).
        let b = light.anchorsToViewport ? bearing * .pi / 180 : 0
        position = (x * cos(b) - y * sin(b), x * sin(b) + y * cos(b), z)
        intensity = light.intensity
        color = (light.color.red, light.color.green, light.color.blue)
    }

    /// The lit colour (premultiplied 0…1 RGB; alpha 1) of a face with unit `normal` of a feature coloured `color`
    /// (straight RGBA), with the vertical gradient factor `gradient` (1 for roofs).
    func shade(
        _ color: StyleColor, normal: (x: Double, y: Double, z: Double), gradient: Double
    ) -> (Double, Double, Double) {
        // `color.premultipliedComponents` without the array.
        let c = (color.red * color.alpha, color.green * color.alpha, color.blue * color.alpha)
        let colorValue = c.0 * 0.2126 + c.1 * 0.7152 + c.2 * 0.0722
        var directional = min(
            max(normal.x * position.x + normal.y * position.y + normal.z * position.z, 0), 1)
        directional = (1 - intensity) + (max(1 - colorValue + intensity, 1) - (1 - intensity)) * directional
        directional *= gradient
        func channel(_ v: Double, _ light: Double) -> Double {
            min(max((v + 0.03) * directional * light, 0.3 * (1 - light)), 1)
        }
        return (channel(c.0, self.color.red), channel(c.1, self.color.green), channel(c.2, self.color.blue))
    }
}

/// Projects tile points with a height through a camera (MapLibre's perspective, also when flat: a roof is scaled by
/// `distance / (distance − height)` about the optical centre).
struct ExtrusionProjector {
    let camera: CameraTransform
    let nwX: Double
    let nwY: Double
    let unit: Double
    let sinB: Double
    let cosB: Double
    let sinP: Double
    let cosP: Double
    /// World points per metre at the camera's centre (MapLibre scales heights at the centre's latitude).
    let pointsPerMeter: Double

    init(tile: TileID, extent: Int, camera: CameraTransform) {
        self.camera = camera
        let n = Double(1 << tile.z)
        unit = 1 / (n * Double(extent))
        nwX = Double(tile.unwrappedX) / n
        nwY = Double(tile.y) / n
        let b = camera.state.bearing * .pi / 180
        let p = camera.state.pitch * .pi / 180
        (sinB, cosB, sinP, cosP) = (sin(b), cos(b), sin(p), cos(p))
        let latitude = WebMercator.latLng(camera.centerWorld).latitude
        pointsPerMeter = camera.worldSize / (2 * .pi * 6_371_008.8 * cos(latitude * .pi / 180))
    }

    /// Tile point `x, y` raised `meters` and shifted on the ground by `ground` world points, in camera space: `x`,
    /// `y` the screen offsets from the optical centre times the depth over the camera distance, and the depth.
    func cameraPoint(_ x: Double, _ y: Double, meters: Double, ground: (Double, Double)) -> (
        x: Double, y: Double, depth: Double
    ) {
        let w = camera.worldSize
        let ox = (nwX + x * unit - camera.centerWorld.x) * w + ground.0
        let oy = (nwY + y * unit - camera.centerWorld.y) * w + ground.1
        let rx = ox * cosB + oy * sinB
        let ry = -ox * sinB + oy * cosB
        let z = meters * pointsPerMeter
        return (rx, ry * cosP - z * sinP, camera.distance - ry * sinP - z * cosP)
    }

    /// The nearest depth drawn (MapLibre's near plane lies at a small fraction of the camera distance).
    var nearDepth: Double { camera.distance / 100 }

    /// Clips a planar ring of `count` camera-space points (`point(k)`, with their gradient parameter `t`) to
    /// ``nearDepth`` and appends it, projected to device pixels at `scale`, to `out`; returns how many it appended.
    @inline(__always)
    func project(
        count: Int, scale: Double, into out: inout [ExtrusionRaster.Vertex],
        _ point: (Int) -> (x: Double, y: Double, depth: Double, t: Double)
    ) -> Int {
        let near = nearDepth
        let d = camera.distance
        let (ocx, ocy) = (camera.opticalCenter.x, camera.opticalCenter.y)
        let before = out.count
        @inline(__always) func emit(_ x: Double, _ y: Double, _ depth: Double, _ t: Double) {
            let k = d / depth
            out.append(ExtrusionRaster.Vertex(x: (ocx + x * k) * scale, y: (ocy + y * k) * scale, depth: depth, t: t))
        }
        guard count > 0 else { return 0 }
        let first = point(0)
        var p = first
        for k in 0..<count {
            let q = k + 1 < count ? point(k + 1) : first
            if p.depth >= near { emit(p.x, p.y, p.depth, p.t) }
            if (p.depth >= near) != (q.depth >= near) {
                let f = (near - p.depth) / (q.depth - p.depth)
                emit(p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f, near, p.t + (q.t - p.t) * f)
            }
            p = q
        }
        return out.count - before
    }
}

/// A colour and depth buffer the extrusions' faces are drawn into as a GPU draws them: every planar face filled at
/// the device pixels whose centres it covers (even-odd, not anti-aliased), kept where it is nearer than what the
/// pixel holds (a depth test on `1 / depth`, which is affine over a planar face on the screen, kept as a `Float` a
/// pixel like a GPU's depth buffer), its colour interpolated perspective-correctly between its bottom and top colours
/// (walls' vertical gradient). Scan conversion: ExtrusionScan.swift.
///
/// Kept by the renderer between frames (allocated once per frame size): the depth buffer is cleared over the box the
/// last frame wrote before the frame's first face is drawn. A layer's colours are written straight into its image in
/// the backend (``drawLayer(in:scale:_:)``): the frame's first extrusion layer into one image, its second into
/// another, each kept between frames and cleared over the box it last drew in. While a plain layer draws, its faces
/// are queued and then drawn band of rows by band of rows, each band's clears just before its faces
/// (ExtrusionBands.swift): the same pixels, with the band's depths and colours in the cache.
final class ExtrusionRaster {
    private(set) var width = 0
    private(set) var height = 0
    /// `1 / depth` per pixel (0: nothing drawn), shared by a frame's extrusion layers (MapLibre's one depth buffer
    /// for its 3D pass: a layer's faces hide behind an earlier layer's). A face's value is computed in `Double` and
    /// rounded to `Float` before the test.
    var inverseDepth = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    /// Premultiplied opaque BGRA per pixel of the current layer's faces (0: not drawn) when no layer image is being
    /// drawn (``drawLayer(in:scale:_:)``): the raster on its own, as its tests use it; made at the first face.
    var pixels: [UInt8] = []
    /// Where the layer's colours go while ``drawLayer(in:scale:_:)`` runs: the image's first row and the bytes from
    /// one row to the next.
    private var target: (pixels: UnsafeMutablePointer<UInt8>, bytesPerRow: Int)?
    /// The boxes (inclusive pixel bounds) the frame's depths and the layer's colours were written in.
    var depthBox = PixelBox()
    var layerBox = PixelBox()
    /// The boxes still to be cleared before a face is drawn: the depths the last frames wrote, and the colours the
    /// layer image being drawn held (``clearStale(rows:)``).
    var staleDepth = PixelBox()
    var staleLayer = PixelBox()
    /// Whether ``fill(bottom:top:)`` queues faces for ``drawQueuedFaces()`` instead of drawing them.
    var defersFaces = false
    /// The layer's `fill-extrusion-opacity` as the byte every pixel the faces draw is multiplied by (``opacityByte(_:)``;
    /// 255 leaves them as they are). The layer's image is then composited at full opacity: the same bytes as the
    /// opaque image composited at the opacity, one full-frame multiply fewer.
    var opacity: UInt8 = 255
    /// Whether the queued faces are the frame's only extrusion faces: their depths need not outlast the layer, so
    /// each band is tested against a band-sized depth buffer of its own (``BandWorker``), kept in the cache, and
    /// ``inverseDepth`` is left as it is.
    var bandLocalDepth = false
    /// The most threads a plain layer's faces are queued on (``queuePlainFaces(_:_:)``) and their bands drawn on
    /// (``drawQueuedFaces()``); at least 1, the renderer sets it from ``MapRenderOptions/tileThreads`` and the
    /// processors. The pixels are the same whatever it is.
    var threads = 1
    /// Queued faces covering fewer rows than this between them are drawn on the calling thread alone
    /// (``parallelFaceRows``; tests set 0 to share out any work).
    var parallelWork = ExtrusionRaster.parallelFaceRows
    /// Each thread's storage for drawing bands (ExtrusionBands.swift), made as needed and kept while the frame size
    /// stays; the first also draws the bands when they are not shared out.
    var bandWorkers: [BandWorker] = []
    /// Layers with fewer polygons than this queue their tiles' faces on the calling thread alone
    /// (``parallelPolygons``; tests set 0 to share out any work).
    var parallelQueueing = ExtrusionRaster.parallelPolygons
    /// The queues of a plain layer's tiles (ExtrusionQueueing.swift): the first holds the raster's own queue while
    /// faces are queued, the others one run of a tile's features each when they are queued on several threads.
    var tileQueues: [FaceQueue] = []
    /// The queued faces (ExtrusionBands.swift): their vertices and ring ends one face after another, and each face's
    /// record.
    var queuedVertices: [Vertex] = []
    var queuedEnds: [Int] = []
    var queuedFaces: [QueuedFace] = []
    /// Scratch storage of ``drawQueuedFaces()``: where each band's faces start in `bandFaces`, and the faces' indices
    /// band by band.
    var bandStarts: [Int] = []
    var bandFaces: [Int32] = []
    /// The backend images of the frame's extrusion layers, in the order the layers draw, each with the box its last
    /// draw wrote in; kept between frames while the frame size stays.
    private(set) var layerImages: [(handle: ImageHandle, box: PixelBox)] = []
    /// How many extrusion layers drew since the frame started.
    private var layersThisFrame = 0
    /// Scratch storage of one face: its rings' vertices one after another, and where each ring ends.
    var vertices: [Vertex] = []
    var ringEnds: [Int] = []
    /// The scan converter's scratch storage (ExtrusionScan.swift) for faces drawn as they come (patterned ones,
    /// and plain ones when not queued).
    let scanScratch = ScanScratch()
    /// Whether an extrusion layer began since the frame started.
    private var usedThisFrame = false
    /// The extrusion features of the tiles' prepared draws with their frame-independent values
    /// (ExtrusionPrepared.swift).
    let features = ExtrusionFeatureCache()

    struct PixelBox {
        var minX = Int.max
        var minY = Int.max
        var maxX = Int.min
        var maxY = Int.min
        var isEmpty: Bool { minX > maxX || minY > maxY }
        @inline(__always) mutating func add(row: Int, from x0: Int, to x1: Int) {
            if row < minY { minY = row }
            if row > maxY { maxY = row }
            if x0 < minX { minX = x0 }
            if x1 > maxX { maxX = x1 }
        }
        /// Grows the box to hold `other`.
        mutating func formUnion(_ other: PixelBox) {
            guard !other.isEmpty else { return }
            minX = Swift.min(minX, other.minX)
            minY = Swift.min(minY, other.minY)
            maxX = Swift.max(maxX, other.maxX)
            maxY = Swift.max(maxY, other.maxY)
        }
    }

    init() {
        inverseDepth.initialize(to: 0)
    }

    deinit {
        inverseDepth.deallocate()
    }

    /// Starts a frame: no depth drawn yet (the last frame's are cleared before the first face is drawn). The buffers
    /// are given back when the last frame drew no extrusion layer. Returns the layer images the last frame did not
    /// draw, for the caller to unregister (its display list, drawn, was the last to show them).
    func beginFrame() -> [ImageHandle] {
        features.beginFrame()
        staleDepth.formUnion(depthBox)
        depthBox = PixelBox()
        if !usedThisFrame && width > 0 {
            inverseDepth.deallocate()
            inverseDepth = .allocate(capacity: 1)
            inverseDepth.initialize(to: 0)
            pixels = []
            (width, height) = (0, 0)
            layerBox = PixelBox()
            staleDepth = PixelBox()
            bandWorkers = []
            tileQueues = []
        }
        usedThisFrame = false
        let unused = layerImages[min(layersThisFrame, layerImages.count)...].map(\.handle)
        layerImages.removeLast(unused.count)
        layersThisFrame = 0
        return unused
    }

    /// Gives up every layer image, returning their handles for the caller to unregister.
    func releaseImages() -> [ImageHandle] {
        defer { layerImages = [] }
        return layerImages.map(\.handle)
    }

    /// Draws the frame's next extrusion layer (begun with ``beginLayer(width:height:)``) with `draw` into its image in
    /// `backend` (``RenderBackend/writeImage(_:width:height:scale:_:)``): the image this layer's place in the frame
    /// drew into last frame, cleared over the box it drew in then, or a new transparent one. Returns the image's
    /// handle, or `nil` when the backend could not make it (`draw` not called).
    func drawLayer(in backend: any RenderBackend, scale: Double, _ draw: () -> Void) -> ImageHandle? {
        let slot = layersThisFrame
        let old = slot < layerImages.count ? layerImages[slot] : nil
        layerBox = PixelBox()
        let width = width
        guard
            let handle = try? backend.writeImage(
                old?.handle, width: width, height: height, scale: scale,
                { base, step in
                    // Cleared before the first face drawn, band by band for queued faces.
                    staleLayer = old?.box ?? PixelBox()
                    target = (base, step)
                    defer {
                        target = nil
                        staleLayer = PixelBox()
                    }
                    draw()
                    drawQueuedFaces()
                })
        else { return nil }
        if slot < layerImages.count {
            layerImages[slot] = (handle, layerBox)
        } else {
            layerImages.append((handle, layerBox))
        }
        layersThisFrame += 1
        return handle
    }

    /// Calls `body` with where the layer's colours go: the layer image's pixels while ``drawLayer(in:scale:_:)``
    /// runs, else ``pixels`` (made transparent at the frame's size when it is not); and the bytes a row.
    @inline(__always) func withColours(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        if let target {
            body(target.pixels, target.bytesPerRow)
            return
        }
        if pixels.count != width * height * 4 { pixels = [UInt8](repeating: 0, count: width * height * 4) }
        var pixels = self.pixels
        self.pixels = []
        defer { self.pixels = pixels }
        let step = width * 4
        pixels.withUnsafeMutableBufferPointer { body($0.baseAddress!, step) }
    }

    /// Starts a layer on a `width × height` frame (the buffers are remade, empty, when the size changed; the layer
    /// images are then remade too).
    func beginLayer(width: Int, height: Int) {
        usedThisFrame = true
        if !layerBox.isEmpty && !pixels.isEmpty {
            let box = layerBox
            let stride = self.width
            pixels.withUnsafeMutableBufferPointer { pixels in
                for y in box.minY...box.maxY {
                    (pixels.baseAddress! + (y * stride + box.minX) * 4).update(
                        repeating: 0, count: (box.maxX - box.minX + 1) * 4)
                }
            }
            layerBox = PixelBox()
        }
        guard width != self.width || height != self.height else { return }
        inverseDepth.deallocate()
        inverseDepth = .allocate(capacity: width * height)
        inverseDepth.initialize(repeating: 0, count: width * height)
        pixels = []
        (self.width, self.height) = (width, height)
        depthBox = PixelBox()
        layerBox = PixelBox()
        staleDepth = PixelBox()
        bandWorkers = []
        // Another size: the images are replaced by new transparent ones, nothing of them to clear.
        for i in layerImages.indices { layerImages[i].box = PixelBox() }
    }

    /// Clears the rows `rows` of ``staleDepth`` in the depth buffer and of ``staleLayer`` in the layer image being
    /// drawn (all of them by default, leaving both empty).
    func clearStale(rows: ClosedRange<Int>? = nil, depths: Bool = true) {
        if depths && !staleDepth.isEmpty {
            let box = staleDepth
            let low = max(box.minY, rows?.lowerBound ?? box.minY)
            let high = min(box.maxY, rows?.upperBound ?? box.maxY)
            if low <= high {
                for y in low...high {
                    (inverseDepth + y * width + box.minX).update(repeating: 0, count: box.maxX - box.minX + 1)
                }
            }
        }
        if !staleLayer.isEmpty, let target {
            let box = staleLayer
            let low = max(box.minY, rows?.lowerBound ?? box.minY)
            let high = min(box.maxY, rows?.upperBound ?? box.maxY)
            if low <= high {
                for y in low...high {
                    (target.pixels + y * target.bytesPerRow + box.minX * 4).update(
                        repeating: 0, count: (box.maxX - box.minX + 1) * 4)
                }
            }
        }
        if rows == nil {
            if depths { staleDepth = PixelBox() }
            staleLayer = PixelBox()
        }
    }

    /// One vertex of a face: device position, depth, and where it lies between the face's bottom (0) and top (1).
    struct Vertex {
        var x: Double
        var y: Double
        var depth: Double
        var t: Double
    }

    /// Whether the face in ``vertices`` (one ring, projected) is wound against `winding` (its solid's outer ring's
    /// area in tile units): seen from inside its solid. A face of about no area, or a solid of no area, never is.
    func facesAway(winding: Double) -> Bool {
        Self.facesAway(vertices, winding: winding)
    }

    /// Whether the face of `vertices` (one ring, projected) is wound against `winding` (``facesAway(winding:)``).
    static func facesAway(_ vertices: [Vertex], winding: Double) -> Bool {
        guard winding != 0, vertices.count >= 3 else { return false }
        var twice = 0.0
        var p = vertices[vertices.count - 1]
        for q in vertices {
            twice += p.x * q.y - q.x * p.y
            p = q
        }
        return abs(twice) > 1e-6 && (twice > 0) != (winding > 0)
    }

    /// The byte Cairo multiplies an image's pixels by when it paints it at `opacity` (`0…1`): the high byte of the
    /// opacity as a rounded 16-bit value (`cairo_paint_with_alpha` through pixman's solid mask).
    static func opacityByte(_ opacity: Double) -> UInt8 {
        guard opacity > 0 else { return 0 }
        guard opacity < 1 else { return 255 }
        return UInt8(Int(opacity * 65535 + 0.5) >> 8)
    }

    /// `value × opacity / 255` rounded as pixman multiplies two bytes (`MUL_UN8`): a pixel byte drawn at
    /// ``opacity`` is the byte an opaque pixel composited at that opacity would give. `value` itself at 255.
    @inline(__always) static func scaled(_ value: UInt8, _ opacity: UInt8) -> UInt8 {
        let t = UInt32(value) &* UInt32(opacity) &+ 0x80
        return UInt8(truncatingIfNeeded: ((t &>> 8) &+ t) &>> 8)
    }

    /// The byte of a 0…1 channel: `(v · 255).rounded()` clamped to 0…255 (halves away from zero), without `round`.
    @inline(__always) static func byte(_ v: Double) -> UInt8 {
        let s = v * 255
        guard s > 0 else { return 0 }
        guard s < 255 else { return 255 }
        let r = Int(s)
        return UInt8(s - Double(r) >= 0.5 ? r + 1 : r)
    }

    /// Fills the planar face in ``vertices`` (its rings ending at ``ringEnds``, even-odd) coloured from `bottom`
    /// (t = 0) to `top` (t = 1), and empties both. While ``defersFaces`` is set the face is queued instead, drawn
    /// at ``drawQueuedFaces()`` (ExtrusionBands.swift) with the same pixels.
    func fill(bottom: (Double, Double, Double), top: (Double, Double, Double)) {
        defer {
            vertices.removeAll(keepingCapacity: true)
            ringEnds.removeAll(keepingCapacity: true)
        }
        let count = vertices.count
        guard count >= 3 else { return }
        if defersFaces {
            queueFace(bottom: bottom, top: top)
            return
        }
        clearStale()
        vertices.withUnsafeBufferPointer { all in
            ringEnds.withUnsafeBufferPointer { ends in
                guard let (rows, w, tw) = prepare(all) else { return }
                var boxes = (layer: layerBox, depth: depthBox)
                defer { (layerBox, depthBox) = boxes }
                withColours {
                    Self.fill(
                        all, ends, $0, $1, rows: rows, depth: inverseDepth, depthRow: 0, w: w, tw: tw, bottom: bottom,
                        top: top, opacity: opacity, width: width, scratch: scanScratch, boxes: &boxes)
                }
            }
        }
    }

    /// The rows a face in `all` covers and its `1 / depth` and `t / depth` as affine functions of the screen
    /// position (from the three vertices that span the largest triangle), or `nil` when it covers no pixel.
    func prepare(
        _ all: UnsafeBufferPointer<Vertex>
    ) -> (ClosedRange<Int>, (Double, Double, Double), (Double, Double, Double))? {
        Self.prepare(all, width: width, height: height)
    }

    /// ``prepare(_:)`` in a `width × height` frame.
    static func prepare(
        _ all: UnsafeBufferPointer<Vertex>, width: Int, height: Int
    ) -> (ClosedRange<Int>, (Double, Double, Double), (Double, Double, Double))? {
        guard let rows = rows(of: all, width: width, height: height) else { return nil }
        // A face whose vertices share one depth and one `t` (a roof when unpitched): both functions are constant
        // (`(±0, ±0, f)` with `f` the first vertex's value, whatever the triangle), so the first triangle of more than
        // about no area among those searched gives the same as the largest (ExtrusionShared.swift).
        let first = all[0]
        var same = true
        for v in all where v.depth != first.depth || v.t != first.t {
            same = false
            break
        }
        guard let (ia, ib, ic) = same ? Self.firstTriangle(all) : Self.spanningTriangle(all) else { return nil }
        let (a, b, c) = (all[ia], all[ib], all[ic])
        let w = Self.plane(a, b, c, 1 / a.depth, 1 / b.depth, 1 / c.depth)
        let tw = Self.plane(a, b, c, a.t / a.depth, b.t / b.depth, c.t / c.depth)
        return (rows, w, tw)
    }

    /// Fills the face in `all` (rings ending at `ends`) over `rows` (of those it covers) of a `width`-pixel frame
    /// with its depth and colour functions `w`, `tw` (``prepare(_:)``), testing against the depths in `depth`, whose
    /// first row is the frame's row `depthRow` (``inverseDepth`` from row 0, or a band's own depths), and grows
    /// `boxes` by the rows it drew in. Touches nothing but `pixels`' and `depth`'s rows in `rows`, `scratch` and
    /// `boxes`: threads drawing disjoint rows with scratch of their own do not meet.
    @inline(__always) static func fill(
        _ all: UnsafeBufferPointer<Vertex>, _ ends: UnsafeBufferPointer<Int>, _ pixels: UnsafeMutablePointer<UInt8>,
        _ bytesPerRow: Int, rows: ClosedRange<Int>, depth: UnsafeMutablePointer<Float>, depthRow: Int,
        w: (Double, Double, Double), tw: (Double, Double, Double), bottom: (Double, Double, Double),
        top: (Double, Double, Double), opacity: UInt8, width: Int, scratch: ScanScratch,
        boxes: inout (layer: PixelBox, depth: PixelBox)
    ) {
        let delta = (top.0 - bottom.0, top.1 - bottom.1, top.2 - bottom.2)
        var box = boxes.layer
        var frameBox = boxes.depth
        defer { boxes = (box, frameBox) }
        guard bottom == top else {
            scan(all, ends, rows: rows, width: width, scratch: scratch) { py, cy, x0, x1 in
                let wy = w.1 * cy
                let twy = tw.1 * cy
                var drawn = false
                for px in x0...x1 {
                    let cx = Double(px) + 0.5
                    let inv = w.0 * cx + wy + w.2
                    let i = (py - depthRow) * width + px
                    guard Float(inv) > depth[i] else { continue }
                    depth[i] = Float(inv)
                    drawn = true
                    let t = min(max((tw.0 * cx + twy + tw.2) / inv, 0), 1)
                    let o = pixels + py * bytesPerRow + px * 4
                    o[0] = Self.scaled(Self.byte(bottom.2 + delta.2 * t), opacity)
                    o[1] = Self.scaled(Self.byte(bottom.1 + delta.1 * t), opacity)
                    o[2] = Self.scaled(Self.byte(bottom.0 + delta.0 * t), opacity)
                    o[3] = opacity
                }
                if drawn {
                    box.add(row: py, from: x0, to: x1)
                    frameBox.add(row: py, from: x0, to: x1)
                }
            }
            return
        }
        // One colour (roofs, walls without a gradient): `bottom + 0 · t` is `bottom` for every pixel. Four pixels at a
        // time (the same arithmetic per pixel), their depths and colours replaced where the face is nearer.
        let uniform =
            UInt32(Self.scaled(Self.byte(bottom.2), opacity)) | UInt32(Self.scaled(Self.byte(bottom.1), opacity)) << 8
            | UInt32(Self.scaled(Self.byte(bottom.0), opacity)) << 16 | UInt32(opacity) << 24
        let colour = SIMD4<UInt32>(repeating: uniform)
        let words = UnsafeMutableRawPointer(pixels)
        let offsets = SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
        // A face at one depth (every roof when unpitched): `w.0 · x + w.1 · y + w.2` is `±0 + ±0 + w.2 = w.2` at
        // every (finite) pixel centre, so its `Float` is the same for all of them.
        let level = w.0 == 0 && w.1 == 0 && w.2 != 0
        let flat = Float(w.2)
        scan(all, ends, rows: rows, width: width, scratch: scratch) { py, cy, x0, x1 in
            let wy = w.1 * cy
            // The row's depths and colours (indices within the frame: no overflow).
            let held = UnsafeMutableRawPointer(depth + (py &- depthRow) &* width)
            let colours = words + py &* bytesPerRow
            var drawn = false
            var px = x0
            @inline(__always) func four(_ inv: SIMD4<Float>) {
                let d = held + px &<< 2
                let c = colours + px &<< 2
                let old = d.loadUnaligned(as: SIMD4<Float>.self)
                let nearer = inv .> old
                if Swift.all(nearer) {
                    // All four nearer (a roof over empty pixels, most often): the colours are stored without
                    // reading the old ones.
                    drawn = true
                    d.storeBytes(of: inv, as: SIMD4<Float>.self)
                    c.storeBytes(of: colour, as: SIMD4<UInt32>.self)
                } else if any(nearer) {
                    drawn = true
                    d.storeBytes(of: old.replacing(with: inv, where: nearer), as: SIMD4<Float>.self)
                    let oldColour = c.loadUnaligned(as: SIMD4<UInt32>.self)
                    c.storeBytes(of: oldColour.replacing(with: colour, where: nearer), as: SIMD4<UInt32>.self)
                }
            }
            @inline(__always) func one(_ inv: Float) {
                let d = held + px &<< 2
                if inv > d.load(as: Float.self) {
                    d.storeBytes(of: inv, as: Float.self)
                    drawn = true
                    (colours + px &<< 2).storeBytes(of: uniform, as: UInt32.self)
                }
            }
            if level {
                let inv = SIMD4<Float>(repeating: flat)
                while px &+ 3 <= x1 {
                    four(inv)
                    px &+= 4
                }
                while px <= x1 {
                    one(flat)
                    px &+= 1
                }
            } else {
                while px &+ 3 <= x1 {
                    four(SIMD4<Float>(w.0 * (Double(px) + offsets) + wy + w.2))
                    px &+= 4
                }
                while px <= x1 {
                    one(Float(w.0 * (Double(px) + 0.5) + wy + w.2))
                    px &+= 1
                }
            }
            if drawn {
                box.add(row: py, from: x0, to: x1)
                frameBox.add(row: py, from: x0, to: x1)
            }
        }
    }
}

extension MapRenderer {
    /// Calls `body` with each edge of `ring` that gets a wall, in ring order: its ends `(x1, y1) → (x2, y2)` and its
    /// length `len > 0`, in tile units. Edges along or beyond the tile's edges (`0` and extent `e`: clipped in its
    /// buffer) get no wall (MapLibre's `isBoundaryEdge`), nor do zero-length ones.
    @inline(__always)
    static func forEachWallEdge(
        of ring: [VectorTilePoint], extent e: Double,
        _ body: (_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ len: Double) -> Void
    ) {
        forEachWallEdgeIndex(of: ring, extent: e) { _, x1, y1, x2, y2, len in body(x1, y1, x2, y2, len) }
    }

    /// Twice the signed area of `ring` (tile units, y down; positive for the vector tile spec's outer rings).
    static func signedArea(_ ring: [VectorTilePoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var twice = 0.0
        var p = ring[ring.count - 1]
        for q in ring {
            twice += Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            p = q
        }
        return twice
    }

    /// The `fill-extrusion` layer as MapLibre draws it: every polygon of the layer's features raised from
    /// `fill-extrusion-base` to `fill-extrusion-height` metres, its walls and roof lit by the style's default light
    /// (``ExtrusionLight``; walls shaded from bottom to top with `fill-extrusion-vertical-gradient`), drawn with a
    /// depth test into an image of their own (``ExtrusionRaster``), its pixels multiplied by `fill-extrusion-opacity`.
    /// Unpitched frames show the roofs (scaled by the camera's perspective, as MapLibre's). Walls along a tile's
    /// clipped edges are not drawn. `fill-extrusion-pattern`: ExtrusionPatterns.swift. The layer's prepared draws of a
    /// tile (its filtered features in drawing order) are kept in the engine between frames like other layers'.
    func fillExtrusionCommands(
        _ layer: CompiledLayer, tiles: [TileID], z: Double, camera transform: CameraTransform, scale: Double,
        size: ScreenSize
    ) -> [DrawCommand] {
        let zoomCtx = EvaluationContext(zoom: z)
        let opacity = min(max(layer.number("fill-extrusion-opacity", zoomCtx, 1), 0), 1)
        guard opacity > 0, layer.layer.source != nil else { return [] }
        let frameWidth = Int((size.width * scale).rounded())
        let frameHeight = Int((size.height * scale).rounded())
        guard frameWidth > 0, frameHeight > 0, frameWidth <= 16384, frameHeight <= 16384 else { return [] }
        let light = ExtrusionLight(style.light, bearing: transform.state.bearing)
        // The opacity goes into the faces' pixels; the image is composited as it is.
        extrusionRaster.opacity = ExtrusionRaster.opacityByte(opacity)
        let verticalGradient =
            layer.isSet("fill-extrusion-vertical-gradient")
            ? layer.bool("fill-extrusion-vertical-gradient", zoomCtx) : true
        // Looked up once for the layer (an unset translate is no shift).
        let patterned = layer.isSet("fill-extrusion-pattern")
        let translates = layer.isSet("fill-extrusion-translate")
        let raster = extrusionRaster
        // The style's only extrusion layer: no other layer's faces hide behind its faces or its behind theirs.
        let lone =
            assembly.steps.lazy.filter {
                if case .frameImage(let other) = $0 { other.type == .fillExtrusion } else { false }
            }.count == 1
        raster.beginLayer(width: frameWidth, height: frameHeight)
        // Bands of queued faces drawn on as many threads as the frame may make tiles on (ExtrusionBands.swift).
        raster.threads = min(options.tileThreads, ExtrusionRaster.processors)
        // A tile's draws and its features with their style values as the draws' zoom gives them (height, base,
        // colour, bounds and winding: ExtrusionPrepared.swift).
        func tileFeatures(_ tile: TileID) -> (draws: [TileDraw], features: [ExtrusionFeature]) {
            var projectors = ProjectorCache(tile: tile, camera: transform)
            let tilePoints = projectors.projector(extent: 4096).pointsPerUnit * 4096
            let draws = preparedDraws(layer, tile: tile, zoom: z, tilePoints: tilePoints, cached: true)
            let features = raster.features.features(
                layer, key: TileDrawKey(layer: layer.index, tile: tile.canonical, zoom: z), draws: draws)
            return (draws, features)
        }
        // A feature's `fill-extrusion-translate` on the ground, turned with the map when it is in viewport units.
        func groundShift(_ context: EvaluationContext) -> (Double, Double) {
            guard translates, let t = translateSetting(layer, "fill-extrusion", context) else { return (0, 0) }
            let b = t.viewport ? transform.state.bearing * .pi / 180 : 0
            return (t.offset.x * cos(b) - t.offset.y * sin(b), t.offset.x * sin(b) + t.offset.y * cos(b))
        }
        // The faces are drawn straight into the layer's image in the backend, kept between frames.
        let drawnImage = raster.drawLayer(in: backend, scale: scale) {
            // Plain faces are queued and drawn band by band when the layer ends (ExtrusionBands.swift), against
            // depths of their own when no other extrusion layer shares the frame's depth buffer.
            raster.defersFaces = !patterned
            raster.bandLocalDepth = !patterned && lone
            guard patterned else {
                // Each tile's features with their style values (ExtrusionPrepared.swift) and shifts, read here;
                // their faces projected and queued tile by tile, on several threads when there are many
                // (ExtrusionQueueing.swift).
                var plain: [ExtrusionRaster.PlainTile] = []
                for tile in tiles {
                    let (draws, features) = tileFeatures(tile)
                    let grounds = translates ? features.map { groundShift(draws[$0.draw].context) } : []
                    plain.append(ExtrusionRaster.PlainTile(tile: tile, features: features, grounds: grounds))
                }
                raster.queuePlainFaces(
                    plain,
                    ExtrusionRaster.PlainFrame(
                        camera: transform, light: light, verticalGradient: verticalGradient, scale: scale,
                        width: frameWidth, height: frameHeight))
                return
            }
            for tile in tiles {
                let (draws, features) = tileFeatures(tile)
                var projector = ExtrusionProjector(tile: tile, extent: 4096, camera: transform)
                var projectorExtent = 4096
                for feature in features {
                    let extent = feature.extent
                    if extent != projectorExtent {
                        projector = ExtrusionProjector(tile: tile, extent: extent, camera: transform)
                        projectorExtent = extent
                    }
                    let ground = groundShift(draws[feature.draw].context)
                    func vertex(_ x: Double, _ y: Double, _ meters: Double, _ t: Double) -> (
                        x: Double, y: Double, depth: Double, t: Double
                    ) {
                        let c = projector.cameraPoint(x, y, meters: meters, ground: ground)
                        return (c.x, c.y, c.depth, t)
                    }
                    // ExtrusionPatterns.swift; a name the sprite lacks leaves the feature out.
                    guard let pattern = extrusionPattern(layer, draws[feature.draw].context) else { continue }
                    for polygon in feature.polygons {
                        _ = drawPatternedExtrusion(
                            polygon.rings, pattern: pattern, tile: tile, zoom: z, extent: extent, base: feature.base,
                            height: feature.height, light: light, verticalGradient: verticalGradient, scale: scale,
                            raster: raster, vertex: vertex, projector: projector)
                    }
                }
            }
        }
        // The layer's image is frame-sized and transparent beyond the box its faces drew in: only that box (its edges
        // on device pixels) is composited.
        let box = raster.layerBox
        guard let handle = drawnImage, !box.isEmpty else { return [] }
        let image = DrawCommand.image(
            ImageCommand(
                image: handle,
                rect: RenderRect(
                    x: 0, y: 0, width: Double(frameWidth) / scale, height: Double(frameHeight) / scale),
                nearestNeighbor: true))
        if box.minX == 0 && box.minY == 0 && box.maxX == frameWidth - 1 && box.maxY == frameHeight - 1 {
            return [image]
        }
        let clip = RenderRect(
            x: Double(box.minX) / scale, y: Double(box.minY) / scale, width: Double(box.maxX - box.minX + 1) / scale,
            height: Double(box.maxY - box.minY + 1) / scale)
        return [.save, .clip(clip), image, .restore]
    }
}

import Foundation
import LinuxUIKit
import MapDrawing
import MapDrawingCairo
import MapGeometry

/// How one stroked piece of a shape is coloured.
enum ShapeStrokePaint {
    /// One colour.
    case solid(RGBAColor)
    /// From the first colour at the piece's start to the second at its end.
    case gradient(RGBAColor, RGBAColor)
}

/// What a polyline, polygon or circle draws, in geographic terms: stroked pieces (each with its paint) and an
/// optional fill. Built from the overlay's properties whenever one changes; ``ShapeDrawing`` turns it into meshes.
struct ShapeSpec {
    /// One stroked line or ring.
    struct Stroke {
        var coordinates: [CLLocationCoordinate2D]
        /// A ring (polygon outline): its last point joins its first.
        var closed: Bool
        var paint: ShapeStrokePaint
        /// An image stamped along the piece over its paint (``GMSStampStyle``), or nil.
        var stamp: UIImage? = nil
    }

    /// The lines to stroke, bottom first.
    var strokes: [Stroke] = []
    /// Rings to fill (the first the shell, the others holes), or empty.
    var fillRings: [[CLLocationCoordinate2D]] = []
    /// The fill colour (nil: no fill drawn; the interior still counts for taps when ``tappableInterior``).
    var fillColor: RGBAColor?
    /// Whether a tap inside ``fillRings`` hits (polygons and circles).
    var tappableInterior = false
    /// Stroke width in points, `≥ 0`.
    var strokeWidth: Double = 1
    /// Segments follow great circles.
    var geodesic = false

    /// An empty spec.
    init() {}

    /// A spec with these settings and nothing to draw yet; a non-finite width counts as 0.
    init(strokeWidth: CGFloat, geodesic: Bool = false, tappableInterior: Bool = false) {
        self.strokeWidth = strokeWidth.isFinite ? Double(strokeWidth) : 0
        self.geodesic = geodesic
        self.tappableInterior = tappableInterior
    }
}

extension RGBAColor {
    /// The components of a UIKit colour.
    init(_ color: UIColor) {
        let c = color.rgba
        self.init(red: Double(c.red), green: Double(c.green), blue: Double(c.blue), alpha: Double(c.alpha))
    }
}

/// The prepared geometry of one shape: per integer zoom, its lines geodesically subdivided, simplified to a quarter
/// pixel, tessellated by `LineTessellator` (round joins and caps, as Google draws polylines) and its fill rings
/// (holes wound against the shell; filled non-zero, so a self-intersecting shell is filled where it winds), all in
/// world pixels of that zoom relative to the shape's origin. Per frame the prepared meshes are reused: flat frames
/// draw them under one rotation + translation per world copy (rescaled once per fractional zoom), pitched frames
/// project each vertex.
@MainActor final class ShapeDrawing {
    /// What to draw; setting it drops every prepared level.
    var spec = ShapeSpec() {
        didSet { rebuildSource() }
    }

    /// The shape's world bounds (nil: nothing to draw).
    private(set) var bounds: OverlayBounds?
    /// The boxes the stage indexes the shape under: the bounds, or for a stroke-only shape with straight segments
    /// the bounds of runs of ``indexRunLength`` segments of each line (so a tap or a view meets only the lines
    /// passing near it).
    private(set) var indexBoxes: [OverlayBounds] = []
    /// Segments per indexed run of a long line (more runs: fewer tap candidates, slower adds).
    static let indexRunLength = 100
    /// The most vertices a fill ring or a stroked line keeps after simplifying to a quarter pixel: a longer one (a
    /// hostile or over-detailed shape, which Cairo's fill would take minutes over when it crosses itself) keeps
    /// every k-th vertex, with one warning per shape. Waymark's own limit: 20,000 (docs/BEHAVIOUR.md D22).
    static let maxFillVertices = 20_000
    private var warnedAboutVertices = false
    /// World point every prepared coordinate is relative to (the first valid coordinate, x unwrapped near it).
    private var origin = WorldPoint(x: 0, y: 0)

    /// One prepared zoom level (a class: hit tests and frames read it without copying its arrays).
    final class Level {
        let level: Int
        /// World pixels per world unit at this level.
        let unit: Double

        init(level: Int, unit: Double) {
            self.level = level
            self.unit = unit
        }

        /// Stroked lines (world pixels relative to the origin): points, closedness, paint, stamp, hit-test chunk boxes.
        var lines:
            [(
                points: [Double], closed: Bool, paint: ShapeStrokePaint, stamp: UIImage?,
                chunks: [(Double, Double, Double, Double)]
            )] = []
        var fillRings: [[Double]] = []
        var fillPath = RenderPath()
    }

    private var levels: [Int: Level] = [:]
    /// The stroke meshes of a prepared level (made on first draw: hit tests need only the lines).
    private var levelMeshes: [Int: [LineMeshCommand]] = [:]
    /// The prepared level rescaled to a fractional zoom (points at that zoom): level, zoom, meshes, fill path.
    private var scaled: (level: Int, zoom: Double, meshes: [LineMeshCommand], fill: RenderPath)?

    /// Number of levels prepared since the last edit (tests check the cache).
    var preparedLevelCount: Int { levels.count }

    private func rebuildSource() {
        levels.removeAll()
        levelMeshes.removeAll()
        stamps.removeAll()
        scaled = nil
        let rings = spec.strokes.map { ($0.coordinates, $0.closed) } + spec.fillRings.map { ($0, true) }
        if spec.geodesic {
            // Great circles bulge poleward of their ends: bounds of the subdivided lines, padded by the tolerance so
            // they hold the true arcs. The tolerance is about a pixel at zoom 10, or 1/2048 of the shape's extent
            // for a large one (the bounds are the whole shape's box, which only culls it: slack of 1/2048 of its
            // size costs nothing), so a line across an ocean is not cut into thousands of pieces each time its
            // spans change (Google's Polylines sample changes them ten times a second).
            var lo = (x: Double.infinity, y: Double.infinity)
            var hi = (x: -Double.infinity, y: -Double.infinity)
            for (coordinates, _) in rings {
                guard let d = ShapeGeometry.degreeBounds(coordinates) else { continue }
                let sw = WebMercator.worldPoint(LatLng(latitude: d.minLat, longitude: d.minLng))
                let ne = WebMercator.worldPoint(LatLng(latitude: d.maxLat, longitude: d.maxLng))
                lo = (min(lo.x, sw.x), min(lo.y, ne.y))
                hi = (max(hi.x, ne.x), max(hi.y, sw.y))
            }
            let extent = lo.x <= hi.x ? min(1, max(hi.x - lo.x, hi.y - lo.y)) : 0
            let tolerance = max(1.0 / (256 * 1024), extent / 2048)
            var all: OverlayBounds?
            var first: WorldPoint?
            for (coordinates, closed) in rings {
                var flat = ShapeGeometry.worldPath(coordinates, closed: closed, geodesic: true, tolerance: tolerance)
                guard flat.count >= 2 else { continue }
                if let first { Self.shift(&flat, near: first.x) } else { first = WorldPoint(x: flat[0], y: flat[1]) }
                guard let b = OverlayBounds(flat: flat) else { continue }
                all = all?.union(b) ?? b
            }
            origin = first ?? WorldPoint(x: 0, y: 0)
            bounds = all.map {
                OverlayBounds(
                    minX: $0.minX - tolerance, minY: $0.minY - tolerance, maxX: $0.maxX + tolerance,
                    maxY: $0.maxY + tolerance)
            }
            indexBoxes = bounds.map { [$0] } ?? []
            return
        }
        var chunks: [OverlayBounds] = []
        // Straight Mercator segments: the bounds of the coordinates, projected at their extremes only.
        var all: OverlayBounds?
        var firstLng: Double?
        for (coordinates, _) in rings {
            guard let d = ShapeGeometry.degreeBounds(coordinates) else { continue }
            let shift = firstLng.map { 360 * ((d.first - $0) / 360 + 0.5).rounded(.down) } ?? 0
            if firstLng == nil {
                firstLng = d.first
                let c = coordinates.first(where: ShapeGeometry.isValid)!
                origin = WebMercator.worldPoint(LatLng(c))
            }
            let sw = WebMercator.worldPoint(LatLng(latitude: d.minLat, longitude: d.minLng - shift))
            let ne = WebMercator.worldPoint(LatLng(latitude: d.maxLat, longitude: d.maxLng - shift))
            let b = OverlayBounds(minX: sw.x, minY: ne.y, maxX: ne.x, maxY: sw.y)
            all = all?.union(b) ?? b
            if !spec.tappableInterior && coordinates.count > 2 * Self.indexRunLength {
                // Runs of segments sharing their end points, unwrapped like the whole line.
                var start = 0
                var lng = d.first
                while start < coordinates.count - 1 {
                    let end = min(start + Self.indexRunLength, coordinates.count - 1)
                    var lo = (lng: Double.infinity, lat: Double.infinity)
                    var hi = (lng: -Double.infinity, lat: -Double.infinity)
                    for c in coordinates[start...end] where ShapeGeometry.isValid(c) {
                        var delta = c.longitude - lng
                        delta -= 360 * (delta / 360 + 0.5).rounded(.down)
                        lng += delta
                        lo = (min(lo.lng, lng), min(lo.lat, c.latitude))
                        hi = (max(hi.lng, lng), max(hi.lat, c.latitude))
                    }
                    // The run's last point starts the next run: step back to it.
                    if let last = coordinates[start...end].last(where: ShapeGeometry.isValid) {
                        var delta = last.longitude - lng
                        delta -= 360 * (delta / 360 + 0.5).rounded(.down)
                        lng += delta
                    }
                    if lo.lng.isFinite {
                        let a = WebMercator.worldPoint(LatLng(latitude: lo.lat, longitude: lo.lng - shift))
                        let z = WebMercator.worldPoint(LatLng(latitude: hi.lat, longitude: hi.lng - shift))
                        chunks.append(OverlayBounds(minX: a.x, minY: z.y, maxX: z.x, maxY: a.y))
                    }
                    start = end
                }
            } else {
                chunks.append(b)
            }
        }
        if firstLng == nil { origin = WorldPoint(x: 0, y: 0) }
        bounds = all
        indexBoxes = all == nil ? [] : chunks
    }

    /// Moves a flat world path by whole worlds so that its first point is within half a world of `x`.
    private static func shift(_ flat: inout [Double], near x: Double) {
        let k = (flat[0] - x + 0.5).rounded(.down)
        guard k != 0 else { return }
        var i = 0
        while i < flat.count {
            flat[i] -= k
            i += 2
        }
    }

    /// `flat` (x, y pairs) when it has at most ``maxFillVertices`` vertices, else every k-th vertex (the fewest
    /// steps that fit) and one warning per shape: the work of a frame stays bounded whatever the overlay.
    private func bounded(_ flat: [Double], what: String, drawn: String) -> [Double] {
        let count = flat.count / 2
        guard count > Self.maxFillVertices else { return flat }
        let step = (count + Self.maxFillVertices - 1) / Self.maxFillVertices
        if !warnedAboutVertices {
            warnedAboutVertices = true
            GMSLog.warning(
                "GMSPolygon/GMSPolyline: a \(what) of \(count) vertices after simplification is \(drawn) with one vertex "
                    + "in \(step) (at most \(Self.maxFillVertices) vertices; docs/BEHAVIOUR.md D22)")
        }
        var kept: [Double] = []
        kept.reserveCapacity(Self.maxFillVertices * 2 + 2)
        var v = 0
        while v < count {
            kept.append(flat[2 * v])
            kept.append(flat[2 * v + 1])
            v += step
        }
        return kept
    }

    /// The geometry prepared at `level` (built on first use).
    func level(_ level: Int) -> Level {
        if let prepared = levels[level] { return prepared }
        if levels.count >= 3 {
            levels.removeAll()
            levelMeshes.removeAll()
        }
        let unit = 256 * exp2(Double(level))
        let out = Level(level: level, unit: unit)
        let tolerance = 0.25 / unit
        func local(_ flat: [Double]) -> [Double] {
            var flat = flat
            Self.shift(&flat, near: origin.x)
            var i = 0
            while i + 1 < flat.count {
                flat[i] = (flat[i] - origin.x) * unit
                flat[i + 1] = (flat[i + 1] - origin.y) * unit
                i += 2
            }
            return ShapeGeometry.simplified(flat, tolerance: 0.25)
        }
        for stroke in spec.strokes {
            var flat = local(
                ShapeGeometry.worldPath(
                    stroke.coordinates, closed: stroke.closed, geodesic: spec.geodesic, tolerance: tolerance))
            guard flat.count >= 2 else { continue }
            flat = bounded(flat, what: "line", drawn: "stroked")
            out.lines.append(
                (flat, stroke.closed, stroke.paint, stroke.stamp, ShapeGeometry.chunkBoxes(flat, closed: stroke.closed))
            )
        }
        for (i, ring) in spec.fillRings.enumerated() {
            var flat = local(ShapeGeometry.worldPath(ring, closed: true, geodesic: spec.geodesic, tolerance: tolerance))
            guard flat.count >= 6 else { continue }
            flat = bounded(flat, what: "ring", drawn: "filled")
            // Shell clockwise on screen (positive), holes the other way: non-zero then cuts the holes out.
            let area = ShapeGeometry.signedArea2(flat)
            if (i == 0) != (area > 0) { flat = ShapeGeometry.reversedRing(flat) }
            out.fillRings.append(flat)
            out.fillPath.addPolyline(flat, closed: true)
        }
        levels[level] = out
        return out
    }

    /// The stroke meshes of `prepared` (tessellated on first use).
    private func meshes(_ prepared: Level) -> [LineMeshCommand] {
        if let made = levelMeshes[prepared.level] { return made }
        let width = spec.strokeWidth.isFinite ? max(0, spec.strokeWidth) : 0
        var out: [LineMeshCommand] = []
        for line in prepared.lines where width > 0 {
            var tessellator = LineTessellator(join: .round, cap: line.closed ? .butt : .round)
            tessellator.addLine(coordinates: line.points, closed: line.closed)
            let mesh = tessellator.mesh
            guard !mesh.isEmpty else { continue }
            let paint: LinePaint?
            switch line.paint {
            case .solid(let c):
                paint = c.alpha > 0 ? .solid(c) : nil
            case .gradient(let a, let b):
                paint = .gradient(
                    LineGradient { p in
                        RGBAColor(
                            red: a.red + (b.red - a.red) * p, green: a.green + (b.green - a.green) * p,
                            blue: a.blue + (b.blue - a.blue) * p, alpha: a.alpha + (b.alpha - a.alpha) * p)
                    })
            }
            if let paint { out.append(LineMeshCommand(mesh: mesh, paint: paint, width: width)) }
            if let stamp = line.stamp, let pattern = stampPattern(stamp, width: width) {
                out.append(LineMeshCommand(mesh: mesh, paint: .pattern(pattern), width: width))
            }
        }
        levelMeshes[prepared.level] = out
        return out
    }

    private var stamps: [ObjectIdentifier: (image: UIImage, width: Double, pattern: LinePattern)] = [:]

    /// A stamp image as a line pattern: the image's rows run along the line (its top towards the start), each stamp
    /// squeezed to a square one stroke width on a side, stamps end to end. Nil when the image cannot be read.
    private func stampPattern(_ image: UIImage, width: Double) -> LinePattern? {
        let id = ObjectIdentifier(image)
        if let known = stamps[id], known.image === image, known.width == width { return known.pattern }
        guard width > 0, let data = image.pngData(), let s = try? PNGCodec.decode([UInt8](data)), s.width > 0,
            s.height > 0
        else { return nil }
        // The pattern's x runs along the line (the image's y), its y across (the image's x).
        var pixels = [UInt8](repeating: 0, count: s.width * s.height * 4)
        for y in 0..<s.height {
            for x in 0..<s.width {
                let from = (y * s.width + x) * 4
                let to = (x * s.height + y) * 4
                for k in 0..<4 { pixels[to + k] = s.pixels[from + k] }
            }
        }
        let raster = RasterImage(width: s.height, height: s.width, scale: Double(s.width) / width, pixels: pixels)
        let pattern = LinePattern(to: LinePatternImage(image: raster, length: width), outset: width / 2 + 0.5)
        stamps[id] = (image, width, pattern)
        return pattern
    }

    /// The rotation + translation putting points at the frame's zoom (relative to the origin, world copy `copy`)
    /// on screen, for a flat frame.
    private func flatTransform(_ frame: OverlayFrame, copy: Double) -> RenderTransform {
        let t = frame.camera
        let o = t.screenPoint(forUnwrapped: WorldPoint(x: origin.x + copy, y: origin.y))
        let b = t.state.bearing * .pi / 180
        return RenderTransform(a: cos(b), b: -sin(b), c: sin(b), d: cos(b), tx: o.x, ty: o.y)
    }

    /// Appends the fill, then the strokes, for every visible world copy.
    func appendDrawCommands(for frame: OverlayFrame, into commands: inout [DrawCommand]) {
        guard let bounds else { return }
        let reach = (spec.strokeWidth.isFinite ? spec.strokeWidth : 0) / frame.camera.worldSize
        let copies = frame.copies(of: bounds, reach: reach)
        guard !copies.isEmpty else { return }
        let prepared = level(frame.level)
        let fillColor = spec.fillColor.flatMap { $0.alpha > 0 ? $0 : nil }
        if frame.isFlat {
            let zoom = frame.camera.state.zoom
            let s = exp2(zoom - Double(prepared.level))
            if scaled?.level != prepared.level || scaled?.zoom != zoom {
                scaled = (
                    prepared.level, zoom, Self.scaled(meshes(prepared), by: s), Self.scaled(prepared.fillPath, by: s)
                )
            }
            guard let scaled else { return }
            for copy in copies {
                let transform = flatTransform(frame, copy: copy)
                if let fillColor, !scaled.fill.isEmpty {
                    // In screen points, so runs of opaque same-colour fills reach the backend together (drawn as
                    // one coverage group, no seams, one Cairo fill).
                    commands.append(
                        .fill(FillCommand(path: Self.transformed(scaled.fill, transform), color: fillColor)))
                }
                guard !scaled.meshes.isEmpty else { continue }
                commands.append(.save)
                commands.append(.transform(transform))
                for mesh in scaled.meshes { commands.append(.lineMesh(mesh)) }
                commands.append(.restore)
            }
            return
        }
        for copy in copies {
            let projector = PitchedProjector(frame: frame, origin: origin, copy: copy, unit: prepared.unit)
            if let fillColor {
                var path = RenderPath()
                for ring in prepared.fillRings {
                    let clipped = projector.project(ring: ring)
                    if clipped.count >= 6 { path.addPolyline(clipped, closed: true) }
                }
                if !path.isEmpty { commands.append(.fill(FillCommand(path: path, color: fillColor))) }
            }
            for mesh in meshes(prepared) {
                var m = mesh
                m.mesh = projector.project(mesh: mesh.mesh)
                commands.append(.lineMesh(m))
            }
        }
    }

    private static func scaled(_ meshes: [LineMeshCommand], by s: Double) -> [LineMeshCommand] {
        guard s != 1 else { return meshes }
        return meshes.map { command in
            var c = command
            for i in c.mesh.vertices.indices {
                c.mesh.vertices[i].center.x *= s
                c.mesh.vertices[i].center.y *= s
                c.mesh.vertices[i].distance *= s
            }
            c.mesh.progressLength *= s
            c.mesh.progressStart *= s
            return c
        }
    }

    private static func scaled(_ path: RenderPath, by s: Double) -> RenderPath {
        guard s != 1, !path.isEmpty else { return path }
        return transformed(path, .scale(x: s, y: s))
    }

    private static func transformed(_ path: RenderPath, _ t: RenderTransform) -> RenderPath {
        var out = RenderPath(reservingPoints: path.pointCount)
        for sub in 0..<path.subpathCount {
            let range = path.subpathRange(sub)
            var flat: [Double] = []
            flat.reserveCapacity(range.count * 2)
            for i in range {
                let p = t.apply(to: path.point(at: i))
                flat.append(p.x)
                flat.append(p.y)
            }
            out.addPolyline(flat, closed: path.subpathClosed[sub])
        }
        return out
    }

    /// Whether `point` (screen points) is within half the stroke width plus `slop` of a stroked line, or (for area
    /// shapes) inside the fill rings, on any world copy.
    func contains(_ point: ScreenPoint, slop: Double, frame: OverlayFrame) -> Bool {
        guard let bounds, let world = frame.camera.worldPoint(for: point) else { return false }
        // Screen points per world unit at the tap (isotropic estimate under pitch); the reach in world units.
        let pointsPerWorld = frame.camera.worldSize * frame.camera.scale(at: world)
        guard pointsPerWorld > 0, pointsPerWorld.isFinite else { return false }
        let reach = ((spec.strokeWidth.isFinite ? max(0, spec.strokeWidth) : 0) / 2 + slop) / pointsPerWorld
        // The world copies whose bounds, grown by the reach, hold the point.
        let first = (world.x - bounds.maxX - reach).rounded(.up)
        let last = (world.x - bounds.minX + reach).rounded(.down)
        guard first <= last, last - first < 64, world.y >= bounds.minY - reach, world.y <= bounds.maxY + reach
        else { return false }
        let prepared = level(frame.level)
        let tolerance = reach * prepared.unit
        for copy in stride(from: first, through: last, by: 1) {
            let x = world.x - copy
            guard x >= bounds.minX - reach, x <= bounds.maxX + reach, world.y >= bounds.minY - reach,
                world.y <= bounds.maxY + reach
            else { continue }
            let lx = (x - origin.x) * prepared.unit
            let ly = (world.y - origin.y) * prepared.unit
            if spec.tappableInterior, ShapeGeometry.winding(prepared.fillRings, x: lx, y: ly) != 0 { return true }
            for line in prepared.lines
            where ShapeGeometry.isNear(
                line.points, closed: line.closed, chunks: line.chunks, x: lx, y: ly, limit: tolerance)
            {
                return true
            }
        }
        return false
    }
}

/// Projects prepared geometry (world pixels of a level, relative to an origin, on one world copy) through a pitched
/// camera. Points nearer than a fifth of the camera distance are cut off: rings are clipped against that plane in
/// world space, mesh vertices behind it become NaN (their triangles draw nothing).
@MainActor struct PitchedProjector {
    let camera: CameraTransform
    let ox: Double
    let oy: Double
    let unit: Double
    let near: Double

    init(frame: OverlayFrame, origin: WorldPoint, copy: Double, unit: Double) {
        camera = frame.camera
        ox = origin.x + copy
        oy = origin.y
        self.unit = unit
        near = frame.camera.distance * 0.2
    }

    private func world(_ x: Double, _ y: Double) -> WorldPoint { WorldPoint(x: ox + x / unit, y: oy + y / unit) }

    /// The ring clipped to the near plane and projected: flat screen coordinates.
    func project(ring: [Double]) -> [Double] {
        let n = ring.count / 2
        var out: [Double] = []
        out.reserveCapacity(ring.count)
        func emit(_ w: WorldPoint) {
            let s = camera.screenPoint(forUnwrapped: w)
            out.append(s.x)
            out.append(s.y)
        }
        for i in 0..<n {
            let j = (i + 1) % n
            let a = world(ring[2 * i], ring[2 * i + 1])
            let b = world(ring[2 * j], ring[2 * j + 1])
            let da = camera.depth(of: a) - near
            let db = camera.depth(of: b) - near
            if da >= 0 { emit(a) }
            if (da >= 0) != (db >= 0) {
                let f = da / (da - db)
                emit(WorldPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))
            }
        }
        return out
    }

    /// The mesh with its centres projected and its extrusions turned into screen directions (constant screen width:
    /// the direction along the line is mapped through the local projection, the extrusion stays its length).
    func project(mesh: LineMesh) -> LineMesh {
        var m = mesh
        var last = ScreenPoint(x: .nan, y: .nan)
        var center = ScreenPoint.zero
        var j = (a: 0.0, b: 0.0, c: 0.0, d: 0.0)
        var valid = false
        for i in m.vertices.indices {
            let p = m.vertices[i].center
            if p != last {
                last = p
                let w = world(p.x, p.y)
                valid = camera.depth(of: w) >= near
                if valid {
                    let s = camera.screenPoint(forUnwrapped: w)
                    let sx = camera.screenPoint(forUnwrapped: WorldPoint(x: w.x + 1 / unit, y: w.y))
                    let sy = camera.screenPoint(forUnwrapped: WorldPoint(x: w.x, y: w.y + 1 / unit))
                    center = ScreenPoint(x: s.x, y: s.y)
                    j = (sx.x - s.x, sx.y - s.y, sy.x - s.x, sy.y - s.y)
                }
            }
            guard valid else {
                m.vertices[i].center = ScreenPoint(x: .nan, y: .nan)
                continue
            }
            let e = m.vertices[i].extrude
            let length = (e.x * e.x + e.y * e.y).squareRoot()
            // Along-line direction = e turned 90°, mapped, normalised, turned back.
            let ax = -e.y
            let ay = e.x
            let mx = j.a * ax + j.c * ay
            let my = j.b * ax + j.d * ay
            let ml = (mx * mx + my * my).squareRoot()
            m.vertices[i].center = center
            m.vertices[i].extrude = ml > 0 ? ScreenPoint(x: my / ml * length, y: -mx / ml * length) : e
        }
        return m
    }
}

import MapData
import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MapRenderer {
    /// Appends the fill, line or circle commands of `layer` for the features of `tile`.
    ///
    /// The features are prepared in tile space first (``preparedDraws(_:tile:zoom:tilePoints:cached:)``: filtered,
    /// sorted, styled, lines tessellated; kept per layer, tile and zoom for pitched or rotated frames), then projected for the
    /// frame: rings and mesh vertices through the tile's projector. Under pitch, a feature whose bounds leave the
    /// visible depth range is clipped to it and, for lines, tessellated again from the clipped geometry.
    ///
    /// Circles: prepared points keep a buffer (``MapRenderer/pointBufferPoints``) beyond the tile. A tile image
    /// (`clipsToImage`) draws the circles of its buffered points too, so a circle straddling a tile edge is drawn in
    /// part by both images and appears whole; a frame drawn as vectors does not clip circles, so there a tile draws
    /// only the circles of the points it owns (`0 ≤ x, y < extent`) and a shared point is drawn once.
    func drawLayer(
        _ layer: CompiledLayer, tile: TileID, zoom: Double, projectors: inout ProjectorCache,
        clipsToImage: Bool = false, into out: inout [DrawCommand]
    ) {
        if layer.type == .raster {
            return drawRaster(layer, tile: tile, zoom: zoom, projectors: &projectors, into: &out)
        }
        if layer.type == .hillshade {
            return drawHillshade(layer, tile: tile, zoom: zoom, projectors: &projectors, into: &out)
        }
        guard layer.layer.source != nil else { return }
        // Points per tile side: every extent's projector has the same flat scale × extent.
        let tilePoints = projectors.projector(extent: 4096).pointsPerUnit * 4096
        // A frame drawn through a tilted or turned camera keeps them (TileDraws.swift): the next frame of the gesture
        // re-projects them instead of filtering, styling and tessellating the tile's features again.
        let cached = projectors.camera.map { $0.state.pitch != 0 || $0.state.bearing != 0 } ?? false
        let draws = preparedDraws(layer, tile: tile, zoom: zoom, tilePoints: tilePoints, cached: cached)
        for draw in draws {
            let f = draw.feature
            let extent = f.feature.extent
            let projector = projectors.projector(extent: extent)
            switch draw.kind {
            case .fill(let style, let rings):
                let inside = projector.containsDepthRange(
                    minX: draw.minX, minY: draw.minY, maxX: draw.maxX, maxY: draw.maxY)
                emitFill(
                    style,
                    inside
                        ? rings
                        : clippedRings(f.geometry, projector, TileEdge(extent: extent, opaque: style.isOpaque)),
                    projector, &out)
            case .line(let style, let mesh):
                let inside = projector.containsDepthRange(
                    minX: draw.minX, minY: draw.minY, maxX: draw.maxX, maxY: draw.maxY)
                emitLine(
                    style, inside ? mesh : tessellate(f.geometry, style, projector, extent: extent), projector,
                    extent: extent, &out)
            case .feature:
                switch layer.type {
                case .fill:
                    drawPatternFill(layer, f.geometry, draw.context, projector, tile: tile, extent: extent, &out)
                case .circle:
                    drawCircles(
                        layer, f.geometry, draw.context, projector,
                        drawnWithin: clipsToImage
                            ? worldBounds(tile, extent: extent) : (0, 0, extent, extent), &out)
                default: break
                }
            }
        }
    }

    /// A solid fill's paint for one feature, or `nil` when it draws nothing.
    func fillStyle(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> FillStyle? {
        guard let color = layer.color("fill-color", ctx) else { return nil }
        let opacity = layer.number("fill-opacity", ctx, 1)
        let antialias = layer.isSet("fill-antialias") ? layer.bool("fill-antialias", ctx) : true
        // Style spec `fill-outline-color`: the outline is drawn only with `fill-antialias` on and without
        // `fill-pattern`; it defaults to the fill colour (MapLibre's `RenderFillLayer::evaluate`), and a transparent
        // fill can still have a visible outline.
        let explicit = layer.isSet("fill-outline-color")
        let outline: RGBAColor? = antialias ? (explicit ? layer.color("fill-outline-color", ctx) : color) : nil
        guard opacity > 0, color.alpha > 0 || (outline?.alpha ?? 0) > 0 else { return nil }
        return FillStyle(
            color: color, opacity: opacity, antialias: antialias, outline: outline, outlineIsDefault: !explicit,
            translate: translateSetting(layer, "fill", ctx))
    }

    /// Whether a fill's outline is drawn through `projector`. MapLibre draws every antialiased fill's outline, in
    /// the fill colour unless `fill-outline-color` is set: one device pixel along each edge, which widens a fill by
    /// about half a pixel and keeps polygons thinner than a pixel (rivers, coastlines) visible. Its outline shader
    /// interpolates the edge's screen position perspective-correctly, so under pitch the line fades away from the
    /// vertices of long edges; the default outline is therefore drawn in flat frames only (not through a
    /// perspective projector, nor into a pitched frame's warped tile images). An explicit `fill-outline-color`
    /// is always drawn.
    func drawsOutline(_ style: FillStyle, _ projector: TileProjector) -> Bool {
        guard let outline = style.outline, outline.alpha > 0 else { return false }
        return !style.outlineIsDefault || !(projector.isPerspective || assembly.drawsWarpedImage)
    }

    /// The rings of a polygon feature clipped to the projector's visible depth range, their segments along the tile's
    /// edge pushed outward by `edge` (as ``preparedDraws(_:tile:zoom:tilePoints:cached:)`` does).
    private func clippedRings(_ geometry: VectorTileGeometry, _ projector: TileProjector, _ edge: TileEdge)
        -> [[Double]]
    {
        guard case .polygons(let polygons) = geometry else { return [] }
        return polygons.flatMap { polygon in
            polygon.map { ring in projector.clipRing(edge.ring(ring)) }
        }
    }

    /// The fill (and outline) of tile-unit rings, projected.
    private func emitFill(
        _ style: FillStyle, _ rings: [[Double]], _ projector: TileProjector, _ out: inout [DrawCommand]
    ) {
        var path = RenderPath()
        for pts in rings { appendProjected(pts, closed: true, projector, &path) }
        guard !path.isEmpty else { return }
        path = translated(path, by: screenTranslation(style.translate, projector))
        if style.color.alpha > 0 {
            out.append(
                .fill(
                    FillCommand(
                        path: path, color: style.color, opacity: style.opacity, fillRule: .evenOdd,
                        antialias: style.antialias)))
        }
        if let outline = style.outline, drawsOutline(style, projector) {
            // MapLibre's outline pass draws each segment as a GL line fading out one device pixel from it, without
            // joins. An opaque outline in a flat frame is drawn so, by the line rasteriser (a Cairo stroke of a
            // detailed coastline costs several times more). A translucent one keeps Cairo's one-pixel stroke (the
            // segments' quads overlap at a corner and would darken it, where GL's lines cover it once), and so does
            // one drawn under pitch or into a warped tile image, where the rasteriser's fade is sized for the frame.
            let flat = !(projector.isPerspective || assembly.drawsWarpedImage)
            if flat && outline.alpha * style.opacity >= 1 {
                let mesh = LineMesh.segments(of: path)
                if !mesh.isEmpty {
                    out.append(
                        .lineMesh(
                            LineMeshCommand(
                                mesh: mesh, paint: .solid(outline), width: 1 / frameScale, opacity: style.opacity)))
                }
            } else {
                out.append(
                    .stroke(
                        StrokeCommand(path: path, color: outline, width: 1 / frameScale, opacity: style.opacity)))
            }
        }
    }

    /// A `fill-pattern` fill: the registered sprite image repeated on the world pixel grid.
    private func drawPatternFill(
        _ layer: CompiledLayer, _ geometry: VectorTileGeometry, _ ctx: EvaluationContext, _ projector: TileProjector,
        tile: TileID, extent: Int, _ out: inout [DrawCommand]
    ) {
        guard case .polygons(let polygons) = geometry else { return }
        // `fill-pattern` replaces `fill-color`; a name the sprite lacks leaves the feature out (MapLibre).
        guard let patternImage = patternHandle(layer, "fill-pattern", ctx) else { return }
        let opacity = layer.number("fill-opacity", ctx, 1)
        let antialias = layer.isSet("fill-antialias") ? layer.bool("fill-antialias", ctx) : true
        guard opacity > 0 else { return }
        var path = RenderPath()
        // A visible point of the feature (tile units), about which a pitched projection is linearised for a pattern.
        var anchor: (x: Double, y: Double)? = nil
        for polygon in polygons {
            for ring in polygon {
                let pts = projector.clipRing(ring) { (Double($0.x), Double($0.y)) }
                if anchor == nil, pts.count >= 2 { anchor = (pts[0], pts[1]) }
                appendProjected(pts, closed: true, projector, &path)
            }
        }
        guard !path.isEmpty else { return }
        let t = translation(layer, "fill", ctx, projector)
        path = translated(path, by: t)
        guard
            let transform = fillPatternTransform(
                image: patternImage, tile: tile, zoom: ctx.zoom ?? 0, projector: projector, extent: extent,
                anchor: anchor ?? (Double(extent) / 2, Double(extent) / 2))
        else { return }
        let pattern = FillPattern(image: patternImage, transform: transform.concatenating(.translation(x: t.x, y: t.y)))
        out.append(
            .fill(
                FillCommand(
                    path: path, color: .black, opacity: opacity, fillRule: .evenOdd, antialias: antialias,
                    pattern: pattern)))
    }

    /// A clipped polygon ring `[x0, y0, …]` (tile units) cut into open polylines where it runs along the clip box
    /// outside the tile (a horizontal or vertical segment at `x ≤ 0`, `x ≥ extent`, `y ≤ 0` or `y ≥ extent`), each
    /// cut end extended `extend` units straight on; `nil` when the ring has no such segment.
    ///
    /// MapLibre's tiles keep a wide buffer, so the outline along the clip edge lies far outside the tile and its
    /// stencil hides it; ours keep a narrow one for fills, so the edge would show as a line along the tile border.
    /// Extending the cut ends keeps the outline's width up to and past the tile edge.
    func ringPieces(_ pts: [Double], extent: Double, extend: Double) -> [[Double]]? {
        var n = pts.count / 2
        if n > 1 && pts[0] == pts[2 * n - 2] && pts[1] == pts[2 * n - 1] { n -= 1 }
        guard n >= 3 else { return nil }
        @inline(__always) func onClipEdge(_ i: Int) -> Bool {
            let j = (i + 1) % n
            let ax = pts[2 * i]
            let ay = pts[2 * i + 1]
            let bx = pts[2 * j]
            let by = pts[2 * j + 1]
            return (ax == bx && (ax <= 0 || ax >= extent)) || (ay == by && (ay <= 0 || ay >= extent))
        }
        guard let s = (0..<n).first(where: onClipEdge) else { return nil }
        var pieces: [[Double]] = []
        var piece: [Double] = []
        func finish() {
            guard piece.count >= 4 else { return }
            let m = piece.count
            for (end, next) in [(0, 2), (m - 2, m - 4)] {
                let dx = piece[end] - piece[next]
                let dy = piece[end + 1] - piece[next + 1]
                let l = (dx * dx + dy * dy).squareRoot()
                guard l > 0 else { continue }
                piece[end] += dx / l * extend
                piece[end + 1] += dy / l * extend
            }
            pieces.append(piece)
        }
        for step in 1...n {
            let i = (s + step) % n
            piece.append(pts[2 * i])
            piece.append(pts[2 * i + 1])
            if onClipEdge(i) {
                finish()
                piece = []
            }
        }
        return pieces
    }

    /// Limits the line meshes of `commands[start...]` to `tile`'s screen quadrilateral (MapLibre's per-tile stencil)
    /// when the frame has no rectangular tile clip: under bearing, and under pitch when the whole tile lies in the
    /// visible depth range (a tile crossing the near plane has no finite quadrilateral and stays unlimited). Tiles
    /// sharing an edge project its corners identically, so each pixel along it is drawn by one tile.
    func limitLineMeshes(_ commands: inout [DrawCommand], from start: Int, to tile: TileID, camera: CameraTransform) {
        let n = Double(1 << tile.z)
        let x0 = Double(tile.unwrappedX) / n
        let x1 = Double(tile.unwrappedX + 1) / n
        let y0 = Double(tile.y) / n
        let y1 = Double(tile.y + 1) / n
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map { WorldPoint(x: $0.0, y: $0.1) }
        if camera.state.pitch != 0 {
            let near = camera.distance * TileProjector.nearDepthFactor
            let far = camera.distance * CameraTransform.maximumDepthFactor
            for c in corners {
                let d = camera.depth(of: c)
                guard d >= near, d <= far else { return }
            }
        }
        let quad = corners.map { c -> ScreenPoint in
            let s = camera.screenPoint(forUnwrapped: c)
            return ScreenPoint(x: s.x, y: s.y)
        }
        for i in start..<commands.count {
            guard case .lineMesh(var m) = commands[i] else { continue }
            m.clipPolygon = quad
            commands[i] = .lineMesh(m)
        }
    }

    /// A line's paint and layout for one feature, or `nil` when nothing is drawn (no `line-color`, a `line-pattern`
    /// the sprite lacks, no width or opacity).
    func lineStyle(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> LineStyle? {
        guard let paint = linePaint(layer, ctx) else { return nil }
        let width = layer.number("line-width", ctx, 1)
        let opacity = layer.number("line-opacity", ctx, 1)
        guard width > 0, width.isFinite, opacity > 0, (paint.uniformColor?.alpha ?? 1) > 0 else { return nil }
        return LineStyle(
            paint: paint, width: width, gapWidth: max(0, layer.number("line-gap-width", ctx, 0)),
            offset: layer.number("line-offset", ctx, 0), blur: max(0, layer.number("line-blur", ctx, 0)),
            opacity: min(1, opacity), cap: LineCap(rawValue: layer.string("line-cap", ctx)) ?? .butt,
            join: LineJoin(rawValue: layer.string("line-join", ctx)) ?? .miter,
            miterLimit: layer.number("line-miter-limit", ctx, 2),
            roundLimit: layer.number("line-round-limit", ctx, 1.05),
            translate: translateSetting(layer, "line", ctx))
    }

    /// The line as a MapLibre triangle mesh in MapLibre's tile units (the tile's units scaled to extent 8192, where
    /// MapLibre's line bucket works: its 15-pixel sharp-corner split is 240 units, rounded to whole units), after
    /// `projector`'s depth clipping (none when flat). Polygon outlines are cut where they run along the clip box.
    func tessellate(
        _ geometry: VectorTileGeometry, _ style: LineStyle, _ projector: TileProjector, extent: Int
    ) -> LineMesh {
        let unitScale = 8192 / Double(max(1, extent))
        var tessellator = LineTessellator(
            join: style.join, cap: style.cap, miterLimit: style.miterLimit, roundLimit: style.roundLimit,
            sharpCornerOffset: 15 * 8192 / 512, roundsSplitVertices: true)
        // How far the cut ends of polygon outlines are extended, in tile units: well past the tile and the line.
        let half = (style.width + style.gapWidth * 2) / 2 + abs(style.offset)
        let reach = max(Double(extent) / 16, 4 * half / max(projector.pointsPerUnit, 1e-9))
        switch geometry {
        case .lineStrings(let lines):
            // A flat projector clips nothing, so the points are scaled as they are read (no second array per line);
            // depth clipping works in tile units, so under pitch the pieces are scaled after it.
            let (readScale, pieceScale) = projector.isPerspective ? (1.0, unitScale) : (unitScale, 1.0)
            for line in lines {
                for piece in projector.clipLine(line, map: { (Double($0.x) * readScale, Double($0.y) * readScale) }) {
                    tessellator.addLine(
                        coordinates: pieceScale == 1 ? piece : piece.map { $0 * pieceScale }, closed: false)
                }
            }
        case .polygons(let polygons):
            for polygon in polygons {
                for ring in polygon {
                    let pts = projector.clipRing(ring) { (Double($0.x), Double($0.y)) }
                    let pieces = ringPieces(pts, extent: Double(extent), extend: reach)
                    guard let pieces else {
                        tessellator.addLine(coordinates: pts.map { $0 * unitScale }, closed: true)
                        continue
                    }
                    // Polygon outlines start and end with butt "caps" (MapLibre's line bucket).
                    tessellator.cap = .butt
                    for piece in pieces { tessellator.addLine(coordinates: piece.map { $0 * unitScale }) }
                    tessellator.cap = style.cap
                }
            }
        default: break
        }
        return tessellator.mesh
    }

    /// The line mesh (MapLibre tile units, from ``tessellate(_:_:_:extent:)``) mapped to points as a
    /// ``LineMeshCommand``: centres through the projector, extrusions through its Jacobian divided by the flat scale
    /// (points per tile unit), so a flat frame (a similarity) gets MapLibre's geometry exactly — extrusions merely
    /// turn with the bearing — and a pitched one a per-vertex linearisation of MapLibre's projected extrusion (lines
    /// narrow with distance as on the ground). Distances along the line are in points at the flat scale.
    /// `line-translate` shifts the centres in points.
    private func emitLine(
        _ style: LineStyle, _ tileMesh: LineMesh, _ projector: TileProjector, extent: Int,
        _ out: inout [DrawCommand]
    ) {
        var mesh = tileMesh
        guard !mesh.isEmpty else { return }
        let t = screenTranslation(style.translate, projector)
        // k: points per tile unit at the flat scale; u: tile units per MapLibre unit.
        let k = projector.pointsPerUnit
        let u = Double(max(1, extent)) / 8192
        guard k > 0, k.isFinite else { return }
        mesh.progressLength *= k * u
        // MapLibre stores a vertex's distance along the line (`linesofar`, MapLibre units) as a whole number of
        // `LINE_DISTANCE_SCALE` = 2 units, cut toward zero (`LineProgram::layoutVertex`): dashes and patterns start
        // their period from that stored value. Gradients read the line's progress instead (kept exact).
        if case .gradient = style.paint {
        } else {
            for i in mesh.vertices.indices {
                mesh.vertices[i].distance = (mesh.vertices[i].distance / 2).rounded(.towardZero) * 2
            }
        }
        switch projector.mode {
        case .affine(let a, let b, let c, let d, let tx, let ty):
            let ra = a / k
            let rb = b / k
            let rc = c / k
            let rd = d / k
            for i in mesh.vertices.indices {
                let p = mesh.vertices[i].center
                let e = mesh.vertices[i].extrude
                let x = p.x * u
                let y = p.y * u
                mesh.vertices[i].center = ScreenPoint(x: a * x + c * y + tx + t.x, y: b * x + d * y + ty + t.y)
                mesh.vertices[i].extrude = ScreenPoint(x: ra * e.x + rc * e.y, y: rb * e.x + rd * e.y)
                mesh.vertices[i].distance *= k * u
            }
        case .perspective:
            var last = ScreenPoint(x: Double.nan, y: Double.nan)
            var center = ScreenPoint.zero
            var jx = ScreenPoint.zero
            var jy = ScreenPoint.zero
            for i in mesh.vertices.indices {
                let p = mesh.vertices[i].center
                if p != last {
                    last = p
                    let x = p.x * u
                    let y = p.y * u
                    center = projector.project(x, y)
                    let px = projector.project(x + 1, y)
                    let py = projector.project(x, y + 1)
                    jx = ScreenPoint(x: (px.x - center.x) / k, y: (px.y - center.y) / k)
                    jy = ScreenPoint(x: (py.x - center.x) / k, y: (py.y - center.y) / k)
                }
                let e = mesh.vertices[i].extrude
                mesh.vertices[i].center = ScreenPoint(x: center.x + t.x, y: center.y + t.y)
                mesh.vertices[i].extrude = ScreenPoint(x: jx.x * e.x + jy.x * e.y, y: jx.y * e.x + jy.y * e.y)
                mesh.vertices[i].distance *= k * u
            }
        }
        out.append(
            .lineMesh(
                LineMeshCommand(
                    mesh: mesh, paint: style.paint, width: style.width, gapWidth: style.gapWidth,
                    offset: style.offset, blur: style.blur, opacity: style.opacity)))
    }

    /// The registered sprite image the feature's `fill-pattern`/`background-pattern` names (still-render: the
    /// value at the current zoom, MapLibre's cross-fade finished), or `nil` when the name is empty or the sprite
    /// lacks it.
    func patternHandle(_ layer: CompiledLayer, _ name: String, _ ctx: EvaluationContext) -> ImageHandle? {
        guard let image = patternName(layer, name, ctx), let handle = spriteImage(image), handle.pixelWidth > 0,
            handle.pixelHeight > 0
        else { return nil }
        return handle
    }

    /// The sprite image name the feature's `*-pattern` property `name` gives (an image or string value), or `nil` for
    /// another value or an empty name.
    func patternName(_ layer: CompiledLayer, _ name: String, _ ctx: EvaluationContext) -> String? {
        switch layer.value(name, ctx) {
        case .image(let n, _), .string(let n): return n.isEmpty ? nil : n
        default: return nil
        }
    }

    /// `path` moved by `t` points.
    private func translated(_ path: RenderPath, by t: ScreenPoint) -> RenderPath {
        guard t.x != 0 || t.y != 0 else { return path }
        var out = RenderPath(reservingPoints: path.pointCount)
        for i in 0..<path.subpathCount {
            var first = true
            for k in path.subpathRange(i) {
                let p = path.point(at: k)
                let q = ScreenPoint(x: p.x + t.x, y: p.y + t.y)
                if first {
                    out.move(to: q)
                    first = false
                } else {
                    out.line(to: q)
                }
            }
            if path.subpathClosed[i] { out.close() }
        }
        return out
    }

    /// `<prefix>-translate` of one feature as set, or `nil` when it is unset or zero.
    func translateSetting(_ layer: CompiledLayer, _ prefix: String, _ ctx: EvaluationContext) -> TranslateSetting? {
        let v = layer.numbers("\(prefix)-translate", ctx)
        guard v.count == 2, v[0] != 0 || v[1] != 0 else { return nil }
        return TranslateSetting(
            offset: ScreenPoint(x: v[0], y: v[1]),
            viewport: layer.string("\(prefix)-translate-anchor", ctx) == "viewport")
    }

    /// `<prefix>-translate` applied in screen points: anchored to the map (the default) it turns with the bearing.
    func translation(_ layer: CompiledLayer, _ prefix: String, _ ctx: EvaluationContext, _ projector: TileProjector)
        -> ScreenPoint
    {
        screenTranslation(translateSetting(layer, prefix, ctx), projector)
    }

    /// A translate setting in screen points under `projector`: anchored to the map it turns with the bearing.
    func screenTranslation(_ setting: TranslateSetting?, _ projector: TileProjector) -> ScreenPoint {
        guard let setting else { return .zero }
        let v = (setting.offset.x, setting.offset.y)
        if let turn = projector.imageBearing {
            // A north-up tile image turned by `turn` when composed: map-anchored offsets stay as they are, viewport
            // ones are turned back so they point the same way on screen.
            guard setting.viewport && turn != 0 else { return setting.offset }
            let b = turn * .pi / 180
            return ScreenPoint(x: cos(b) * v.0 - sin(b) * v.1, y: sin(b) * v.0 + cos(b) * v.1)
        }
        let bearing = projector.bearing
        if bearing == 0 || setting.viewport {
            return setting.offset
        }
        let b = bearing * .pi / 180
        return ScreenPoint(x: cos(b) * v.0 + sin(b) * v.1, y: -sin(b) * v.0 + cos(b) * v.1)
    }

    /// The tile-unit bounds `x0 ≤ x < x1`, `y0 ≤ y < y1` of the points whose circles a tile image draws: its
    /// buffered points too (a neighbour's circle straddling the shared edge), except beyond the world's edges, where
    /// MapLibre has no neighbouring tile to draw them (its circle bucket keeps only the points inside its tile).
    func worldBounds(_ tile: TileID, extent: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let n = 1 << tile.z
        return (
            tile.x == 0 ? 0 : Int.min, tile.y == 0 ? 0 : Int.min, tile.x == n - 1 ? extent : Int.max,
            tile.y == n - 1 ? extent : Int.max
        )
    }

    /// Appends a circle per point (or vertex) inside `bounds` (tile units, `x0 ≤ x < x1`, `y0 ≤ y < y1`).
    private func drawCircles(
        _ layer: CompiledLayer, _ geometry: VectorTileGeometry, _ ctx: EvaluationContext, _ projector: TileProjector,
        drawnWithin bounds: (x0: Int, y0: Int, x1: Int, y1: Int), _ out: inout [DrawCommand]
    ) {
        // MapLibre draws a circle at every vertex of lines and polygon rings too.
        let points: [VectorTilePoint]
        switch geometry {
        case .points(let p): points = p
        case .lineStrings(let lines): points = lines.flatMap { $0 }
        case .polygons(let polygons): points = polygons.flatMap { $0.flatMap { $0 } }
        default: return
        }
        let radius = layer.number("circle-radius", ctx, 5)
        let color = layer.color("circle-color", ctx) ?? .black
        let opacity = layer.number("circle-opacity", ctx, 1)
        let strokeWidth = layer.number("circle-stroke-width", ctx, 0)
        let strokeColor = (layer.color("circle-stroke-color", ctx) ?? .black).withOpacity(
            layer.number("circle-stroke-opacity", ctx, 1))
        let blur = layer.number("circle-blur", ctx, 0)
        let t = translation(layer, "circle", ctx, projector)
        let scalesWithMap = layer.string("circle-pitch-scale", ctx) != "viewport"
        // `circle-pitch-alignment: map` under pitch: the disc lies on the ground (a flat map draws it the same either
        // way).
        var onGround = false
        if case .perspective = projector.mode, layer.string("circle-pitch-alignment", ctx) == "map" { onGround = true }
        for p in points {
            if p.x < bounds.x0 || p.y < bounds.y0 || p.x >= bounds.x1 || p.y >= bounds.y1 { continue }
            let x = Double(p.x)
            let y = Double(p.y)
            guard projector.isVisible(x, y) else { continue }
            var center = projector.project(x, y)
            center.x += t.x
            center.y += t.y
            if onGround {
                out.append(
                    .circle(
                        CircleCommand(
                            center: center, radius: radius, fillColor: color, strokeColor: strokeColor,
                            strokeWidth: strokeWidth, blur: blur, opacity: opacity, mapLibreShading: true,
                            groundCorners: Self.groundCorners(
                                x, y, radius + strokeWidth, scalesWithMap: scalesWithMap, projector, shift: t))))
                continue
            }
            // `circle-pitch-scale: map`: circles shrink with distance like the ground under them.
            let k = scalesWithMap ? projector.perspectiveScale(x, y) : 1
            out.append(
                .circle(
                    CircleCommand(
                        center: center, radius: radius * k, fillColor: color, strokeColor: strokeColor,
                        strokeWidth: strokeWidth * k, blur: blur, opacity: opacity, mapLibreShading: true)))
        }
    }

    /// The screen corners of the ground square `outer` points (at the camera's zoom) about the tile point `(x, y)`
    /// on each side, corners in ``CircleCommand/groundCorners`` order, moved by `shift` points: MapLibre's
    /// map-aligned circle quad. Without `scalesWithMap` (`circle-pitch-scale: viewport`) the square grows with the
    /// distance so the disc keeps its size on screen at its centre.
    static func groundCorners(
        _ x: Double, _ y: Double, _ outer: Double, scalesWithMap: Bool, _ projector: TileProjector, shift: ScreenPoint
    ) -> [ScreenPoint] {
        var r = outer / projector.pointsPerUnit
        if !scalesWithMap { r /= projector.perspectiveScale(x, y) }
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map {
            let p = projector.project(x + $0.0 * r, y + $0.1 * r)
            return ScreenPoint(x: p.x + shift.x, y: p.y + shift.y)
        }
    }

    private func appendProjected(_ pts: [Double], closed: Bool, _ projector: TileProjector, _ path: inout RenderPath) {
        var n = pts.count / 2
        // A closed ring repeats its first point; the path's close does that.
        if closed && n > 1 && pts[0] == pts[2 * n - 2] && pts[1] == pts[2 * n - 1] { n -= 1 }
        guard n >= (closed ? 3 : 2) else { return }
        var lastX = Double.nan
        var lastY = Double.nan
        var started = false
        for i in 0..<n {
            let p = projector.project(pts[2 * i], pts[2 * i + 1])
            // Drop vertices closer than a tenth of a point to the previous one.
            if started && abs(p.x - lastX) < 0.1 && abs(p.y - lastY) < 0.1 && i != n - 1 { continue }
            if started {
                path.line(to: p)
            } else {
                path.move(to: p)
                started = true
            }
            lastX = p.x
            lastY = p.y
        }
        if closed { path.close() }
    }
}

/// Offsets every sub-path of `path` sideways by `d` points (positive: to the right of the direction of travel, as
/// `line-offset`), joining segments with miters limited to 4 × |d|.
func offsetPath(_ path: RenderPath, by d: Double) -> RenderPath {
    guard d != 0 else { return path }
    var out = RenderPath(reservingPoints: path.pointCount)
    for s in 0..<path.subpathCount {
        let range = path.subpathRange(s)
        let closed = path.subpathClosed[s]
        let pts = range.map { path.point(at: $0) }
        let n = pts.count
        guard n >= 2 else { continue }
        func normal(_ a: ScreenPoint, _ b: ScreenPoint) -> ScreenPoint? {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 1e-9 else { return nil }
            return ScreenPoint(x: -dy / len, y: dx / len)
        }
        for i in 0..<n {
            let prev: ScreenPoint? = i > 0 ? normal(pts[i - 1], pts[i]) : (closed ? normal(pts[n - 1], pts[0]) : nil)
            let next: ScreenPoint? =
                i < n - 1 ? normal(pts[i], pts[i + 1]) : (closed ? normal(pts[n - 1], pts[0]) : nil)
            var shift = ScreenPoint.zero
            switch (prev, next) {
            case (let a?, let b?):
                let mx = a.x + b.x
                let my = a.y + b.y
                let ml = (mx * mx + my * my).squareRoot()
                if ml < 1e-6 {
                    shift = ScreenPoint(x: b.x * d, y: b.y * d)
                } else {
                    let ux = mx / ml
                    let uy = my / ml
                    let cosHalf = max(ux * b.x + uy * b.y, 0.25)
                    shift = ScreenPoint(x: ux * d / cosHalf, y: uy * d / cosHalf)
                }
            case (let a?, nil): shift = ScreenPoint(x: a.x * d, y: a.y * d)
            case (nil, let b?): shift = ScreenPoint(x: b.x * d, y: b.y * d)
            case (nil, nil): break
            }
            let q = ScreenPoint(x: pts[i].x + shift.x, y: pts[i].y + shift.y)
            if i == 0 { out.move(to: q) } else { out.line(to: q) }
        }
        if closed { out.close() }
    }
    return out
}

import MapData
import MapDrawing
import MapGeometry
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The tile-image stage: the runs of tile-drawn layers, their images in the engine (keys, lookups, stores), stand-ins
// for images not there yet, and the composition of a frame's runs from them (placed north-up here, warped when turned
// or pitched in WarpedTileImages.swift). The images are drawn by tile jobs (TileSupply.swift) through the layer
// painters (`MapRenderer.appendTileImageCommands`, below).

/// The tile-image stage of a renderer: the style's runs of consecutive tile-drawn layers and the images of each
/// tile's run, kept in the renderer's ``MapEngine`` under its group and revision (which the renderer keeps in step
/// here). It asks the tile supply its decisions (whether a missing image is made again now, whether arrived images
/// fade in, which arrived images it keeps) and never calls the renderer: what only the renderer can do (draw an image
/// again, a raster run's fade) comes in as parameters. Frame thread only.
final class TileImageStage {
    /// The layers of each tile-layer run, by run (``FrameStep/tileLayers(run:layers:)``).
    let runs: [[CompiledLayer]]
    /// The style's sources that have a tile source (a run draws only their layers).
    let sources: [String: ResolvedSource]
    /// The store of the images, the renderer's backend's token in it, and the renderer's group and revision (the
    /// images' keys; kept in step by the renderer).
    let engine: MapEngine
    let backendToken: Int
    var group = 0
    var revision = 0
    /// The renderer's options (tile size), kept in step by the renderer.
    var options: MapRenderOptions
    /// The renderer's tile supply, asked for its decisions.
    let tileSupply: any TileSupply
    /// Stand-ins drawn since the count was last taken (``FrameStatistics/standIns``).
    var standInCount = 0

    /// The stage of the tile-layer runs of `steps`, storing images in `engine` for the backend of `backendToken`.
    init(
        steps: [FrameStep], sources: [String: ResolvedSource], engine: MapEngine, backendToken: Int,
        options: MapRenderOptions, tileSupply: any TileSupply
    ) {
        runs = steps.compactMap { step in
            if case .tileLayers(_, let runLayers) = step { return runLayers }
            return nil
        }
        self.sources = sources
        self.engine = engine
        self.backendToken = backendToken
        self.options = options
        self.tileSupply = tileSupply
    }

    /// The stand-ins drawn since the last call (for the frame's statistics); the count starts again from 0.
    func takeStandInCount() -> Int {
        defer { standInCount = 0 }
        return standInCount
    }

    /// The style zoom of `camera` (``MapRenderer/styleZoom(for:)``).
    func styleZoom(for camera: CameraState) -> Double {
        MapRenderer.styleZoom(for: camera, tileSize: options.tileSize)
    }

    /// The image commands that compose one run of tile-drawn layers (``FrameStep/tileLayers(run:layers:)``) of a
    /// flat frame from cached tile images (made by the frame's tile stage,
    /// ``MapRenderer/provideTiles(_:camera:scale:composes:)``; asynchronous mode: stand-ins for those still on their
    /// way). `remakeTileImage` makes an evicted image again now (``MapRenderer/remakeTileImage(_:of:scale:)``);
    /// `rasterFadeAlpha` is a raster run's fade of an arrived image (``MapRenderer/rasterFadeAlpha(_:run:scale:)``).
    func composeTileImages(
        _ tiles: [TileID], run: Int, camera: CameraTransform, scale: Double,
        remakeTileImage: (TileImageSpec, TileID, Double) -> Void, rasterFadeAlpha: (TileID, Int, Double) -> Double
    ) -> [DrawCommand] {
        var placements: [TilePlacement] = []
        var placedTiles: [TileID] = []
        let c = camera.centerWorld
        let o = camera.opticalCenter
        /// A tile's north-up rectangle in points, edges on device pixels.
        func place(_ tile: TileID) -> RenderRect {
            let n = Double(1 << tile.z)
            let x0 = snap(o.x + (Double(tile.unwrappedX) / n - c.x) * camera.worldSize, scale)
            let y0 = snap(o.y + (Double(tile.y) / n - c.y) * camera.worldSize, scale)
            let x1 = snap(o.x + (Double(tile.unwrappedX + 1) / n - c.x) * camera.worldSize, scale)
            let y1 = snap(o.y + (Double(tile.y + 1) / n - c.y) * camera.worldSize, scale)
            return RenderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        var standIns: [PlacedTileImage] = []
        for tile in tiles where runDraws(run, atZoom: tile.z) {
            var cached = cachedTileImage(tile, run: run, scale: scale)
            if case .missing = cached {
                // Evicted since the tile stage made it (a budget smaller than a frame): made again now; or on its way
                // from the workers: stand-ins (an ancestor's or the children's images) for the first run only.
                if tileSupply.remakesMissingImages {
                    remakeTileImage(imageSpec(tile, run: run, camera: camera, scale: scale), tile, scale)
                } else if run == 0 {
                    standIns.append(contentsOf: standIn(for: tile, scale: scale, place: place))
                }
                cached = cachedTileImage(tile, run: run, scale: scale)
            }
            let image: ImageHandle
            let frame: TileImageFrame
            switch cached {
            case .image(let handle, let f):
                image = handle
                frame = f
            case .empty, .missing: continue
            }
            // A raster run's image that arrived from the workers fading in (`raster-fade-duration`) over its stand-in.
            let opacity = tileSupply.fadesArrivedImages ? rasterFadeAlpha(tile, run, scale) : 1
            if opacity < 1 { standIns.append(contentsOf: standIn(for: tile, scale: scale, run: run, place: place)) }
            let n = Double(1 << tile.z)
            let origin = tileOrigin(tile, camera: camera)
            // The image's content square and where its tile's corner sits in it (``TileImageFrame``).
            let k = camera.worldSize / (n * frame.side)
            placements.append(
                TilePlacement(
                    image: image,
                    origin: ScreenPoint(x: origin.x - frame.offset.x * k, y: origin.y - frame.offset.y * k), scale: k,
                    opacity: opacity))
            placedTiles.append(tile)
        }
        let bearing = camera.state.bearing
        let frame = ScreenSize(width: camera.state.size.width, height: camera.state.size.height)
        if !Self.warpsTileImages(camera) {
            return standIns.flatMap(\.northUpCommands)
                + TileCompositor.commands(for: placements, frame: frame, scale: scale)
        }
        // Under bearing: the tiles are placed in the north-up frame and the whole set turned about the optical
        // centre, each image warped (``DrawCommand/projectedImage(_:)``, as pitched frames are) over its own tile's
        // rectangle, so neighbours share their edges exactly and no pixel is drawn twice. (No culling against the
        // north-up rectangle: the tile cover already kept exactly the visible tiles.)
        let b = bearing * .pi / 180
        let cosB = cos(b)
        let sinB = sin(b)
        let turn = RenderHomography(
            RenderTransform(
                a: cosB, b: -sinB, c: sinB, d: cosB, tx: o.x - cosB * o.x - sinB * o.y,
                ty: o.y + sinB * o.x - cosB * o.y))
        var out = standIns.compactMap { $0.warped(by: turn) }
        for (p, tile) in zip(placements, placedTiles) {
            let size = p.image.pointSize
            let x0 = snap(p.origin.x, scale)
            let y0 = snap(p.origin.y, scale)
            let x1 = snap(p.origin.x + size.width * p.scale, scale)
            let y1 = snap(p.origin.y + size.height * p.scale, scale)
            guard x1 > x0, y1 > y0 else { continue }
            let placed = PlacedTileImage(
                image: p.image, rect: RenderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), area: place(tile),
                opacity: p.opacity)
            if let command = placed.warped(by: turn) { out.append(command) }
        }
        return out
    }

    private func snap(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }

    /// Whether some layer of tile-layer run `run` can draw in a tile of zoom `z` (zoom range, visibility, source).
    func runDraws(_ run: Int, atZoom z: Int) -> Bool {
        runs[run].contains { layer in
            guard let s = layer.layer.source, sources[s] != nil else { return false }
            return layer.layer.isVisible(atZoom: Double(z))
        }
    }

    /// Where a tile's north-west corner falls in the frame, in points (unsnapped).
    func tileOrigin(_ tile: TileID, camera: CameraTransform) -> ScreenPoint {
        let n = Double(1 << tile.z)
        let c = camera.centerWorld
        let o = camera.opticalCenter
        return ScreenPoint(
            x: o.x + (Double(tile.unwrappedX) / n - c.x) * camera.worldSize,
            y: o.y + (Double(tile.y) / n - c.y) * camera.worldSize)
    }

    /// What the tile-image cache knows of a tile.
    enum CachedTileImage {
        case image(ImageHandle, TileImageFrame)
        /// The tile draws nothing.
        case empty
        case missing
    }

    /// The key of a tile's image of one run at the current revision.
    func tileImageKey(_ tile: TileID, run: Int, scale: Double) -> TileImageKey {
        let canonical = tile.canonical
        return TileImageKey(
            revision: revision, z: tile.z, x: canonical.x, y: canonical.y, pixelScale: scale, run: run)
    }

    /// The tile's image of one run from the engine's store.
    func cachedTileImage(_ tile: TileID, run: Int, scale: Double) -> CachedTileImage {
        let key = tileImageKey(tile, run: run, scale: scale)
        guard case .image(let entry)? = engine.value(.image(group: group, key: key)) else { return .missing }
        guard let handle = entry.handle else { return .empty }
        return .image(handle, entry.frame)
    }

    /// How a missing image of a tile's layers of one run is drawn for the frame that first needs it, so that frame
    /// draws exactly what its vectors would: at the frame's style zoom (the content square is
    /// `tileSize · 2^(zoom − tile zoom)` points), with the tile's corner moved by the sub-pixel part of its device
    /// position so the image lands on whole device pixels, and the frame's bearing for viewport-anchored
    /// translations. Later frames reuse it scaled and moved (``TileImageFrame``), as the compositor always did.
    /// Pitched frames: ``pitchedImageSpec(_:run:projector:camera:scale:)``.
    func imageSpec(_ tile: TileID, run: Int, camera: CameraTransform, scale: Double) -> TileImageSpec {
        if camera.state.pitch != 0 {
            let projector = TileProjector(tile: tile, extent: Int(Self.warpExtent), camera: camera)
            return pitchedImageSpec(tile, run: run, projector: projector, camera: camera, scale: scale)
        }
        let zoom = styleZoom(for: camera.state)
        let fraction = zoom.isFinite ? min(max(zoom - Double(tile.z), 0), 1) : 0
        let side = options.tileSize * pow(2, fraction)
        let origin = tileOrigin(tile, camera: camera)
        func phase(_ v: Double) -> Double { v.isFinite ? (v * scale - (v * scale).rounded()) / scale : 0 }
        return TileImageSpec(
            key: tileImageKey(tile, run: run, scale: scale), zoom: Double(tile.z) + fraction, side: side,
            offset: ScreenPoint(x: phase(origin.x), y: phase(origin.y)), bearing: camera.state.bearing)
    }

    /// Caches a tile image of this renderer's backend (and its frame) in the engine.
    func storeTileImage(_ handle: ImageHandle, for key: TileImageKey, frame: TileImageFrame) {
        engine.insert(
            .image(TileImageEntry(handle: handle, frame: frame, backend: backendToken)),
            for: .image(group: group, key: key), cost: handle.byteCount)
    }

    /// Remembers that a run draws nothing in a tile (so it is not drawn again every frame).
    func markEmpty(_ key: TileImageKey) {
        engine.insert(
            .image(TileImageEntry(handle: nil, frame: TileImageFrame(side: 0, offset: .zero), backend: backendToken)),
            for: .image(group: group, key: key), cost: 64)
    }

    /// Asynchronous mode: the images of a canonical tile's run at this revision the engine still keeps, at any pixel
    /// scale or style zoom (an entry without a handle: the run draws nothing there); keys the engine evicted are
    /// forgotten. The stand-ins of pitched frames (``warpedStandIn(for:run:wanted:projector:area:camera:)``).
    func keptTileImages(_ canonical: TileID, run: Int) -> [KeptTileImage] {
        tileSupply.keptTileImages(canonical, run: run, revision: revision) { key in
            guard case .image(let entry)? = engine.value(.image(group: group, key: key)) else { return nil }
            return entry
        }
    }
}

extension MapRenderer {
    /// The commands of a canonical tile's image of one run: the run's layers styled at `zoom` (default the tile's
    /// own), in points of a `side`-point square (default ``MapRenderOptions/tileSize``) whose tile corner sits at
    /// `offset`, for an image turned by `bearing` when composed.
    func appendTileImageCommands(
        _ canonical: TileID, run: Int, zoom: Double? = nil, side: Double? = nil, offset: ScreenPoint = .zero,
        bearing: Double = 0, into commands: inout [DrawCommand]
    ) {
        let zoom = zoom ?? Double(canonical.z)
        var projectors = ProjectorCache(
            tile: canonical, imageSize: side ?? options.tileSize, offset: offset, bearing: bearing)
        let side = side ?? options.tileSize
        let n = 1 << canonical.z
        for layer in tileImages.runs[run] {
            guard layer.layer.isVisible(atZoom: zoom), let s = layer.layer.source, sources[s] != nil else { continue }
            drawLayer(layer, tile: canonical, zoom: zoom, projectors: &projectors, clipsToImage: true, into: &commands)
            // Circles are not clipped to their tile, and GeoJSON sources buffer no points across the antimeridian
            // (geojson-vt does): a tile image at the world's edge also draws the circles of the tile beyond it
            // (itself at zoom 0). A vector tile's own buffer already holds what MapLibre draws there.
            guard layer.type == .circle, case .geojson? = style.sources[s] else { continue }
            for dx in [-1, 1] where !(0..<n).contains(canonical.x + dx) {
                let beyond = TileID(z: canonical.z, x: (canonical.x + dx + n) % n, y: canonical.y)
                var shifted = ProjectorCache(
                    tile: beyond, imageSize: side, offset: ScreenPoint(x: offset.x + Double(dx) * side, y: offset.y),
                    bearing: bearing)
                var wrapped: [DrawCommand] = []
                drawLayer(layer, tile: beyond, zoom: zoom, projectors: &shifted, clipsToImage: true, into: &wrapped)
                for case .circle(let c) in wrapped {
                    let reach = c.radius + c.strokeWidth + c.blur * c.radius + 1
                    if c.center.x + reach > 0 && c.center.x - reach < side { commands.append(.circle(c)) }
                }
            }
        }
    }
}

/// A canonical tile's run of tile-drawn layers (the kept images of ``WorkerTileSupply``).
struct TileRunSlot: Hashable {
    let z: Int
    let x: Int
    let y: Int
    let run: Int
}

/// A tile image the engine keeps, as a stand-in uses it: its key, its handle (`nil`: the run draws nothing in the
/// tile) and where the tile sits in it.
struct KeptTileImage {
    let key: TileImageKey
    let handle: ImageHandle?
    let frame: TileImageFrame
}

/// Where a tile sits in its cached image: the tile's content square is `side` points (``MapRenderOptions/tileSize``
/// at the tile's zoom, larger when rendered for a fractional zoom) and its north-west corner is at `offset` points
/// from the image's (the sub-pixel phase it was rendered at, within ±½ device pixel).
struct TileImageFrame {
    var side: Double
    var offset: ScreenPoint
}

/// A tile image placed in a flat frame's north-up space (points): the image scaled to fill `rect`, drawn only over
/// `area` (the whole `rect` when `nil`), at `opacity`. Stand-ins and the tiles' own images of a flat frame
/// (``TileImageStage/composeTileImages(_:run:camera:scale:remakeTileImage:rasterFadeAlpha:)``).
struct PlacedTileImage {
    var image: ImageHandle
    var rect: RenderRect
    var area: RenderRect? = nil
    var opacity = 1.0

    /// North-up frames: an image command, clipped to ``area`` when set.
    var northUpCommands: [DrawCommand] {
        let command = DrawCommand.image(ImageCommand(image: image, rect: rect, opacity: opacity))
        guard let area else { return [command] }
        return [.save, .clip(area), command, .restore]
    }

    /// Turned frames: the image warped by `turn` (north-up points → screen points, affine) over ``area`` (or
    /// ``rect``) turned; `nil` when the image or the rectangle is degenerate.
    func warped(by turn: RenderHomography) -> DrawCommand? {
        let size = image.pointSize
        guard size.width > 0, size.height > 0, rect.width > 0, rect.height > 0 else { return nil }
        let place = RenderHomography(
            rect.width / size.width, 0, rect.minX, 0, rect.height / size.height, rect.minY, 0, 0, 1)
        let r = area ?? rect
        let corners = [
            ScreenPoint(x: r.minX, y: r.minY), ScreenPoint(x: r.maxX, y: r.minY), ScreenPoint(x: r.maxX, y: r.maxY),
            ScreenPoint(x: r.minX, y: r.maxY),
        ]
        let turned = corners.compactMap { turn.apply(to: $0) }
        guard turned.count == 4 else { return nil }
        return .projectedImage(
            ProjectedImageCommand(
                image: image, homography: turn.concatenating(after: place), area: turned, opacity: opacity))
    }
}

import MapData
import MapGeometry
import MapRender
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MapRenderer {
    /// The image commands that compose one run of tile-drawn layers (``FrameStep/tileLayers(run:layers:)``) of a
    /// flat frame from cached tile images, rasterising missing ones (asynchronous mode: asking the worker and drawing
    /// stand-ins meanwhile).
    func composeTileImages(_ tiles: [TileID], run: Int, camera: CameraTransform, scale: Double) -> [DrawCommand] {
        let tileSize = options.tileSize
        var placements: [TilePlacement] = []
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
        var standIns: [DrawCommand] = []
        for tile in tiles where runDraws(run, atZoom: tile.z) {
            var image = ImageHandle(id: -1, pixelWidth: 0, pixelHeight: 0, scale: 1)
            var opacity = 1.0
            if workQueue != nil {
                switch cachedTileImage(tile, run: run, scale: scale) {
                case .image(let cached):
                    image = cached
                    // A raster run's image fading in (`raster-fade-duration`) over its stand-in.
                    opacity = rasterFadeAlpha(tile, run: run, scale: scale)
                    if opacity < 1 {
                        standIns.append(contentsOf: standIn(for: tile, scale: scale, run: run, place: place))
                    }
                case .empty: continue
                case .missing:
                    requestTile(tile.canonical, scale: scale, wantsImage: true)
                    // Stand-ins (an ancestor's or the children's images) are kept for the first run only.
                    if run == 0 { standIns.append(contentsOf: standIn(for: tile, scale: scale, place: place)) }
                    continue
                }
            }
            let n = Double(1 << tile.z)
            let nwX = Double(tile.unwrappedX) / n
            let nwY = Double(tile.y) / n
            let origin = RenderPoint(
                x: o.x + (nwX - c.x) * camera.worldSize, y: o.y + (nwY - c.y) * camera.worldSize)
            if workQueue == nil {
                guard let rendered = tileImage(tile, run: run, scale: scale, camera: camera, origin: origin) else {
                    continue
                }
                image = rendered
            }
            // The image's content square and where its tile's corner sits in it (``TileImageFrame``).
            let frame = tileImageFrames[image] ?? TileImageFrame(side: tileSize, offset: .zero)
            let k = camera.worldSize / (n * frame.side)
            placements.append(
                TilePlacement(
                    image: image,
                    origin: RenderPoint(x: origin.x - frame.offset.x * k, y: origin.y - frame.offset.y * k), scale: k,
                    opacity: opacity))
        }
        let bearing = camera.state.bearing
        let frame = RenderSize(width: camera.state.size.width, height: camera.state.size.height)
        if bearing == 0 || !bearing.isFinite {
            return standIns + TileCompositor.commands(for: placements, frame: frame, scale: scale)
        }
        guard !placements.isEmpty || !standIns.isEmpty else { return [] }
        // Under bearing: place the tiles in the north-up frame and turn the whole set about the optical centre (no
        // culling against the north-up rectangle: the tile cover already kept exactly the visible tiles).
        let b = bearing * .pi / 180
        let cosB = cos(b)
        let sinB = sin(b)
        var out: [DrawCommand] = [
            .save,
            .transform(
                RenderTransform(
                    a: cosB, b: -sinB, c: sinB, d: cosB, tx: o.x - cosB * o.x - sinB * o.y,
                    ty: o.y + sinB * o.x - cosB * o.y)),
        ]
        out.append(contentsOf: standIns)
        for p in placements {
            let size = p.image.pointSize
            let x0 = snap(p.origin.x, scale)
            let y0 = snap(p.origin.y, scale)
            let x1 = snap(p.origin.x + size.width * p.scale, scale)
            let y1 = snap(p.origin.y + size.height * p.scale, scale)
            guard x1 > x0, y1 > y0 else { continue }
            out.append(
                .image(
                    ImageCommand(
                        image: p.image, rect: RenderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                        opacity: p.opacity)))
        }
        out.append(.restore)
        return out
    }

    private func snap(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }

    /// Whether some layer of tile-layer run `run` can draw in a tile of zoom `z` (zoom range, visibility, source).
    func runDraws(_ run: Int, atZoom z: Int) -> Bool {
        tileLayerRuns[run].contains { layer in
            guard let s = layer.layer.source, sources[s] != nil else { return false }
            return layer.layer.isVisible(atZoom: Double(z))
        }
    }

    /// What the tile-image cache knows of a tile.
    enum CachedTileImage {
        case image(ImageHandle)
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

    /// The tile's image of one run from the cache only (asynchronous frames).
    func cachedTileImage(_ tile: TileID, run: Int, scale: Double) -> CachedTileImage {
        let key = tileImageKey(tile, run: run, scale: scale)
        if let hit = tileImages.image(for: key) {
            frameStats.tileImagesReused += 1
            return .image(hit)
        }
        return emptyTileImages.contains(key) ? .empty : .missing
    }

    /// The cached image of a tile's layers of one run, rendered now when missing; `nil` when the run draws nothing
    /// in the tile or the backend fails.
    ///
    /// A missing image is rendered for the frame that needs it, so that frame draws exactly what its vectors would:
    /// at the frame's style zoom (the content square is `tileSize · 2^(zoom − tile zoom)` points), with the tile's
    /// corner moved by the sub-pixel part of its device position (`origin`) so the image lands on whole device
    /// pixels, and the frame's bearing for viewport-anchored translations. Later frames reuse it scaled and moved
    /// (``TileImageFrame``), as the compositor always did.
    private func tileImage(
        _ tile: TileID, run: Int, scale: Double, camera: CameraTransform, origin: RenderPoint
    ) -> ImageHandle? {
        let key = tileImageKey(tile, run: run, scale: scale)
        switch cachedTileImage(tile, run: run, scale: scale) {
        case .image(let hit): return hit
        case .empty: return nil
        case .missing: break
        }
        let zoom = camera.state.zoom - log2(options.tileSize / 256)
        let fraction = zoom.isFinite ? min(max(zoom - Double(tile.z), 0), 1) : 0
        let side = options.tileSize * pow(2, fraction)
        func phase(_ v: Double) -> Double { v.isFinite ? (v * scale - (v * scale).rounded()) / scale : 0 }
        let offset = RenderPoint(x: phase(origin.x), y: phase(origin.y))
        var list = DisplayList(size: RenderSize(width: side, height: side), scale: scale)
        appendTileImageCommands(
            tile.canonical, run: run, zoom: Double(tile.z) + fraction, side: side, offset: offset,
            bearing: camera.state.bearing, into: &list.commands)
        guard !list.commands.isEmpty else {
            markEmpty(key)
            return nil
        }
        guard let handle = try? backend.renderImage(list) else { return nil }
        frameStats.tileImagesRendered += 1
        store(handle, for: key, frame: TileImageFrame(side: side, offset: offset))
        return handle
    }

    /// Caches a tile image (and its frame), releasing what the cache evicts.
    private func store(_ handle: ImageHandle, for key: TileImageKey, frame: TileImageFrame?) {
        if let frame { tileImageFrames[handle] = frame }
        releaseTileImages(tileImages.insert(handle, for: key).filter { $0 != handle })
    }

    /// Unregisters tile images that left the cache.
    func releaseTileImages(_ handles: [ImageHandle]) {
        for handle in handles {
            tileImageFrames[handle] = nil
            backend.unregister(handle)
        }
    }

    private func markEmpty(_ key: TileImageKey) {
        if emptyTileImages.count > 4096 { emptyTileImages.removeAll() }
        emptyTileImages.insert(key)
    }

    /// The commands of a canonical tile's image of one run: the run's layers styled at `zoom` (default the tile's
    /// own), in points of a `side`-point square (default ``MapRenderOptions/tileSize``) whose tile corner sits at
    /// `offset`, for an image turned by `bearing` when composed.
    private func appendTileImageCommands(
        _ canonical: TileID, run: Int, zoom: Double? = nil, side: Double? = nil, offset: RenderPoint = .zero,
        bearing: Double = 0, into commands: inout [DrawCommand]
    ) {
        let zoom = zoom ?? Double(canonical.z)
        var projectors = ProjectorCache(
            tile: canonical, imageSize: side ?? options.tileSize, offset: offset, bearing: bearing)
        let side = side ?? options.tileSize
        let n = 1 << canonical.z
        for layer in tileLayerRuns[run] {
            guard layer.layer.isVisible(atZoom: zoom), let s = layer.layer.source, sources[s] != nil else { continue }
            drawLayer(layer, tile: canonical, zoom: zoom, projectors: &projectors, clipsToImage: true, into: &commands)
            // Circles are not clipped to their tile, and sources buffer no points across the antimeridian: a tile
            // image at the world's edge also draws the circles of the tile beyond it (itself at zoom 0).
            guard layer.type == .circle else { continue }
            for dx in [-1, 1] where !(0..<n).contains(canonical.x + dx) {
                let beyond = TileID(z: canonical.z, x: (canonical.x + dx + n) % n, y: canonical.y)
                var shifted = ProjectorCache(
                    tile: beyond, imageSize: side, offset: RenderPoint(x: offset.x + Double(dx) * side, y: offset.y),
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

    /// Device pixel rows of one tile image at `scale`.
    private func tileImageRows(scale: Double) -> Int {
        DisplayList(size: RenderSize(width: options.tileSize, height: options.tileSize), scale: scale).pixelHeight
    }

    /// The display list of every run's image of a canonical tile stacked top to bottom (run 0 at the top, each
    /// ``tileImageRows(scale:)`` device rows tall and clipped to its square), `nil` when no run draws anything: what
    /// the asynchronous worker rasterises in one go; ``storeTileImageStack(_:for:)`` cuts it apart again.
    func tileImageList(_ canonical: TileID, scale: Double) -> DisplayList? {
        let side = options.tileSize
        let rowPoints = Double(tileImageRows(scale: scale)) / scale
        var list = DisplayList(
            size: RenderSize(width: side, height: rowPoints * Double(tileLayerRuns.count)), scale: scale)
        var drew = false
        for run in tileLayerRuns.indices where runDraws(run, atZoom: canonical.z) {
            var commands: [DrawCommand] = []
            appendTileImageCommands(canonical, run: run, into: &commands)
            guard !commands.isEmpty else { continue }
            drew = true
            let top = rowPoints * Double(run)
            list.append(.save)
            list.append(.clip(RenderRect(x: 0, y: top, width: side, height: side)))
            list.append(.transform(RenderTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: top)))
            list.append(contentsOf: commands)
            list.append(.restore)
        }
        return drew ? list : nil
    }

    /// Takes a tile's stacked run images (``tileImageList(_:scale:)``, rasterised by the asynchronous worker) into
    /// the cache: run 0 and every later run that has a visible pixel, the others remembered as empty. `key` is the
    /// run-0 key of the tile; `stack` `nil` means no run draws anything.
    func storeTileImageStack(_ stack: RasterImage?, for key: TileImageKey) {
        let rows = tileImageRows(scale: key.pixelScale)
        var stored = false
        for run in tileLayerRuns.indices {
            var runKey = key
            runKey.run = run
            guard let stack, stack.height >= rows * (run + 1), rows > 0 else {
                markEmpty(runKey)
                continue
            }
            let bytes = rows * stack.bytesPerRow
            let slice = Array(stack.pixels[(run * bytes)..<((run + 1) * bytes)])
            // The stack does not say which runs drew: a later run with no visible pixel counts as empty (sparse
            // overlays such as POI dots then cost nothing); run 0 is kept as the image always was.
            guard run == 0 || slice.contains(where: { $0 != 0 }) else {
                markEmpty(runKey)
                continue
            }
            // A backend that cannot take the image leaves the run missing (asked for again by a later frame).
            let image = RasterImage(width: stack.width, height: rows, scale: stack.scale, pixels: slice)
            guard let handle = try? backend.register(image) else { continue }
            store(handle, for: runKey, frame: nil)
            noteTileImageArrival(runKey)
            stored = true
        }
        if stored { frameStats.tilesArrived += 1 }
    }
}

/// Where a tile sits in its cached image: the tile's content square is `side` points (``MapRenderOptions/tileSize``
/// at the tile's zoom, larger when rendered for a fractional zoom) and its north-west corner is at `offset` points
/// from the image's (the sub-pixel phase it was rendered at, within ±½ device pixel).
struct TileImageFrame {
    var side: Double
    var offset: RenderPoint
}

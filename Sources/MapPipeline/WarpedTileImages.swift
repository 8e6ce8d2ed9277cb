import MapGeometry
import MapRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pitched frames composed from tile images: each run of tile-drawn layers (but circle runs, which stay round on the
/// screen as `circle-pitch-alignment: viewport` wants and are drawn as vectors) is the tiles' images warped by each
/// tile's ground-plane homography (``TileProjector/homography``) through ``DrawCommand/projectedImage(_:)``. The
/// images are the same tile images flat frames use (``TileImageCache`` keys, made by the frame's tile stage), drawn
/// at the frame's style zoom at a resolution of one image pixel to about one device pixel where the tile is nearest
/// (most magnified), rounded to a power of two of the frame-zoom size, and doubled, so tilting reuses them. Every
/// pitched frame with ``MapRenderOptions/usesTileImageCache`` whose tiles are made in the frame (synchronous tiles)
/// is composed so; asynchronous pitched frames draw vectors.
extension MapRenderer {
    /// Extent of the tile units the warps are computed in.
    static let warpExtent = 4096.0

    /// Whether tile-layer run `run` of `tile` is drawn from a tile image in a frame with `camera`: flat frames, every
    /// run with a layer visible at the tile's zoom; pitched frames, every run but circle runs with a layer visible
    /// at the frame's style zoom (the zoom the vectors would be drawn at).
    func composesRun(_ run: Int, tile: TileID, camera: CameraTransform) -> Bool {
        guard camera.state.pitch != 0 else { return runDraws(run, atZoom: tile.z) }
        let layers = tileLayerRuns[run]
        guard !layers.allSatisfy({ $0.type == .circle }) else { return false }
        let zoom = camera.state.zoom - log2(options.tileSize / 256)
        return layers.contains { layer in
            guard let s = layer.layer.source, sources[s] != nil else { return false }
            return layer.layer.isVisible(atZoom: zoom)
        }
    }

    /// How a pitched frame's image of a tile's run is drawn: at the frame's style zoom (a square of
    /// `tileSize · 2^(zoom − tile zoom)` points), at `scale · 2^(k+1)` pixels per point where `2^k` is the largest
    /// magnification of the tile's visible part (camera distance over its nearest depth) rounded up to a power of
    /// two (up to 2^0.05 of magnification is let pass), its pixel side kept within 16…2048, with the line fade of
    /// the frame's `scale` (``TileImageKey/antialiasingScale``). Lines so drawn warp to the edges the frame's vector
    /// lines have (a fade of one point on the ground, hard triangle edges): the line-pitch render tests pass with
    /// them, and fail narrowly with a fade of one image pixel or an image of half this resolution (BENCHMARKS.md).
    /// `projector` is the tile's ``TileProjector`` at ``warpExtent`` for `camera`.
    func pitchedImageSpec(
        _ tile: TileID, run: Int, projector: TileProjector, camera: CameraTransform, scale: Double
    ) -> TileImageSpec {
        let zoom = camera.state.zoom - log2(options.tileSize / 256)
        let level = Int(zoom.rounded(.down))
        let side = options.tileSize * pow(2, zoom - Double(tile.z))
        var k = 0
        if let depths = projector.visibleDepths(extent: Self.warpExtent), depths.lowerBound > 0 {
            let magnification = camera.distance / depths.lowerBound
            k = Int((log2(magnification) - 0.05).rounded(.up))
        }
        k += 1
        while k > -12 && side * scale * pow(2, Double(k)) > 2048 { k -= 1 }
        while k < 12 && side * scale * pow(2, Double(k)) < 16 { k += 1 }
        let canonical = tile.canonical
        let key = TileImageKey(
            revision: revision, z: tile.z, x: canonical.x, y: canonical.y, pixelScale: scale * pow(2, Double(k)),
            run: run, styleZoom: level == tile.z ? nil : level, antialiasingScale: scale)
        return TileImageSpec(key: key, zoom: zoom, side: side, offset: .zero, bearing: camera.state.bearing)
    }

    /// The commands that compose one run of a pitched frame from its tiles' images: one projected image per tile,
    /// over the tile's square clipped to the visible ground (near plane, horizon limit).
    func composeWarpedTileImages(_ tiles: [TileID], run: Int, camera: CameraTransform, scale: Double) -> [DrawCommand] {
        var out: [DrawCommand] = []
        for tile in tiles where composesRun(run, tile: tile, camera: camera) {
            let projector = TileProjector(tile: tile, extent: Int(Self.warpExtent), camera: camera)
            let spec = pitchedImageSpec(tile, run: run, projector: projector, camera: camera, scale: scale)
            var entry = engine.value(.image(group: group, key: spec.key))
            if entry == nil, supply.framesReadTiles {
                // Evicted since the tile stage made it (a budget smaller than a frame): made again now.
                integrate(
                    workOnTile(
                        TileJob(
                            key: TileImageKey(
                                revision: revision, z: tile.z, x: spec.key.x, y: spec.key.y, pixelScale: scale),
                            images: [spec], tileSize: options.tileSize, spriteVersion: spriteVersion, sprite: sprite,
                            priority: 0),
                        keepsImages: true))
                entry = engine.value(.image(group: group, key: spec.key))
            }
            guard case .image(let image)? = entry, let handle = image.handle, image.frame.side > 0 else { continue }
            let square = projector.visibleSquare(extent: Self.warpExtent)
            guard square.count >= 3 else { continue }
            // Image points → tile units (the tile's square is `frame.side` points from `frame.offset`) → screen.
            let k = Self.warpExtent / image.frame.side
            let toTile = RenderHomography(
                k, 0, -image.frame.offset.x * k, 0, k, -image.frame.offset.y * k, 0, 0, 1)
            out.append(
                .projectedImage(
                    ProjectedImageCommand(
                        image: handle, homography: projector.homography.concatenating(after: toTile),
                        area: square.map { projector.project($0.x, $0.y) })))
        }
        return out
    }
}

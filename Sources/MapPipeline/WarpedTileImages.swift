import MapDrawing
import MapGeometry

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
/// pitched frame with ``MapRenderOptions/usesTileImageCache`` is composed so: synchronous frames make the images in
/// their tile stage; asynchronous ones ask the workers for them and warp a stand-in (an image the engine already has
/// of the tile, an ancestor or the children) until they arrive, so the frame thread draws no tile vectors.
extension TileImageStage {
    /// Extent of the tile units the warps are computed in.
    static let warpExtent = 4096.0

    /// Whether tile-layer run `run` of a frame with `camera` is drawn from tile images: every run of north-up flat
    /// frames; in frames whose images are warped (turned or pitched, ``warpsTileImages(_:)``) every run but circle
    /// runs, which are drawn as vectors (they stay round on the screen, as `circle-pitch-alignment: viewport` wants,
    /// and a run of a few dots costs far less drawn than a screenful of mostly transparent texels warped).
    func composesRun(_ run: Int, camera: CameraTransform) -> Bool {
        !(Self.warpsTileImages(camera) && runs[run].allSatisfy { $0.type == .circle })
    }

    /// Whether a frame composed from tile images warps them (``DrawCommand/projectedImage(_:)``): under a bearing
    /// or a pitch; north-up flat frames place them on the pixel grid.
    static func warpsTileImages(_ camera: CameraTransform) -> Bool {
        let bearing = camera.state.bearing
        return camera.state.pitch != 0 || (bearing != 0 && bearing.isFinite)
    }

    /// Whether tile-layer run `run` of `tile` is drawn from a tile image in a frame with `camera`
    /// (``composesRun(_:camera:)``): flat frames, every such run with a layer visible at the tile's zoom; pitched
    /// frames, every such run with a layer visible at the frame's style zoom (the zoom the vectors would be drawn
    /// at).
    func composesRun(_ run: Int, tile: TileID, camera: CameraTransform) -> Bool {
        guard composesRun(run, camera: camera) else { return false }
        guard camera.state.pitch != 0 else { return runDraws(run, atZoom: tile.z) }
        let zoom = styleZoom(for: camera.state)
        return runs[run].contains { layer in
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
        let zoom = styleZoom(for: camera.state)
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
        return TileImageSpec(
            key: key, zoom: zoom, side: side, offset: .zero, bearing: camera.state.bearing, drawnMinified: true)
    }

    /// The commands that compose one run of a pitched frame from its tiles' images: one projected image per tile,
    /// over the tile's square clipped to the visible ground (near plane, horizon limit). Asynchronous frames draw a
    /// warped stand-in for a tile whose image the workers have not made yet
    /// (``warpedStandIn(for:run:wanted:projector:area:camera:)``); synchronous frames make an evicted image again
    /// (`remakeTileImage`, ``MapRenderer/remakeTileImage(_:of:scale:)``).
    func composeWarpedTileImages(
        _ tiles: [TileID], run: Int, camera: CameraTransform, scale: Double,
        remakeTileImage: (TileImageSpec, TileID, Double) -> Void
    ) -> [DrawCommand] {
        var out: [DrawCommand] = []
        for tile in tiles where composesRun(run, tile: tile, camera: camera) {
            let projector = TileProjector(tile: tile, extent: Int(Self.warpExtent), camera: camera)
            let square = projector.visibleSquare(extent: Self.warpExtent)
            guard square.count >= 3 else { continue }
            let area = square.map { projector.project($0.x, $0.y) }
            let spec = pitchedImageSpec(tile, run: run, projector: projector, camera: camera, scale: scale)
            var entry = engine.value(.image(group: group, key: spec.key))
            if entry == nil {
                // Evicted since the tile stage made it (a budget smaller than a frame): made again now; or asked of
                // the workers by the tile stage: meanwhile the best image the engine has of the tile.
                if tileSupply.remakesMissingImages {
                    remakeTileImage(spec, tile, scale)
                } else {
                    out.append(
                        contentsOf: warpedStandIn(
                            for: tile, run: run, wanted: spec.key, projector: projector, area: area, camera: camera))
                }
                entry = engine.value(.image(group: group, key: spec.key))
            }
            if case .image(let image)? = entry, let handle = image.handle, image.frame.side > 0 {
                out.append(warpedImage(handle, frame: image.frame, projector: projector, area: area))
            }
        }
        return out
    }

    /// One tile image warped onto the ground: image points → the units of the image's tile (its square is
    /// `frame.side` points from `frame.offset`) → screen through `projector` (that tile's ``TileProjector`` at
    /// ``warpExtent``), drawn over `area` (screen points, convex).
    func warpedImage(
        _ handle: ImageHandle, frame: TileImageFrame, projector: TileProjector, area: [ScreenPoint]
    ) -> DrawCommand {
        let k = Self.warpExtent / frame.side
        let toTile = RenderHomography(k, 0, -frame.offset.x * k, 0, k, -frame.offset.y * k, 0, 0, 1)
        return .projectedImage(
            ProjectedImageCommand(
                image: handle, homography: projector.homography.concatenating(after: toTile), area: area))
    }

    /// What an asynchronous pitched frame draws for a tile's run whose image (`wanted`) is not made yet: an image
    /// the engine already has, warped through its own tile's homography and drawn over the tile's visible `area`
    /// (screen points; `projector` is the tile's). In order: the same tile's image at another resolution or style
    /// zoom (the flat frames' image, or the one of an earlier pitch: nearest in pixel scale, finer on a tie); else
    /// the nearest ancestor's (up to 8 zooms up; the tile's sub-square of it); else the images of the tile's four
    /// children, each over its own visible square. A tile or ancestor known to draw nothing in the run gives
    /// nothing; with none of these the background shows. Counted in ``FrameStatistics/standIns``.
    func warpedStandIn(
        for tile: TileID, run: Int, wanted: TileImageKey, projector: TileProjector, area: [ScreenPoint],
        camera: CameraTransform
    ) -> [DrawCommand] {
        let own = keptTileImages(tile.canonical, run: run)
        if !own.isEmpty {
            func distance(_ key: TileImageKey) -> (Double, Double) {
                (abs(log2(key.pixelScale / wanted.pixelScale)), -key.pixelScale)
            }
            guard let best = own.filter({ $0.handle != nil }).min(by: { distance($0.key) < distance($1.key) }),
                let handle = best.handle
            else { return [] }
            standInCount += 1
            return [warpedImage(handle, frame: best.frame, projector: projector, area: area)]
        }
        for up in 1...min(8, max(tile.z, 1)) where tile.z - up >= 0 {
            let ancestor = TileID(z: tile.z - up, unwrappedX: tile.unwrappedX >> up, y: tile.y >> up)
            let kept = keptTileImages(ancestor.canonical, run: run)
            guard !kept.isEmpty else { continue }
            guard let (handle, frame) = Self.finestDrawn(kept) else { return [] }
            standInCount += 1
            let p = TileProjector(tile: ancestor, extent: Int(Self.warpExtent), camera: camera)
            return [warpedImage(handle, frame: frame, projector: p, area: area)]
        }
        guard tile.z < 24 else { return [] }
        var out: [DrawCommand] = []
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let child = TileID(z: tile.z + 1, unwrappedX: tile.unwrappedX * 2 + dx, y: tile.y * 2 + dy)
            guard let (handle, frame) = Self.finestDrawn(keptTileImages(child.canonical, run: run)) else { continue }
            let p = TileProjector(tile: child, extent: Int(Self.warpExtent), camera: camera)
            let square = p.visibleSquare(extent: Self.warpExtent)
            guard square.count >= 3 else { continue }
            out.append(
                warpedImage(handle, frame: frame, projector: p, area: square.map { p.project($0.x, $0.y) }))
        }
        if !out.isEmpty { standInCount += 1 }
        return out
    }

    /// The finest (largest pixel scale) of `images` that draws something, with its handle and frame; `nil` when
    /// none draws.
    static func finestDrawn(_ images: [KeptTileImage]) -> (ImageHandle, TileImageFrame)? {
        var best: (handle: ImageHandle, frame: TileImageFrame, scale: Double)?
        for image in images {
            guard let handle = image.handle, image.key.pixelScale >= best?.scale ?? -.infinity else { continue }
            best = (handle, image.frame, image.key.pixelScale)
        }
        return best.map { ($0.handle, $0.frame) }
    }
}

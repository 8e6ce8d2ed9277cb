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
    /// The image commands that compose a flat frame from cached tile images, rasterising missing ones.
    func composeTileImages(_ tiles: [TileID], camera: CameraTransform, tileZoom: Int, scale: Double) -> [DrawCommand] {
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
        for tile in tiles {
            let image: ImageHandle
            if workQueue != nil {
                switch cachedTileImage(tile, scale: scale) {
                case .image(let cached): image = cached
                case .empty: continue
                case .missing:
                    requestTile(tile.canonical, scale: scale, wantsImage: true)
                    standIns.append(contentsOf: standIn(for: tile, scale: scale, place: place))
                    continue
                }
            } else {
                guard let rendered = tileImage(tile, scale: scale) else { continue }
                image = rendered
            }
            let n = Double(1 << tile.z)
            let nwX = Double(tile.unwrappedX) / n
            let nwY = Double(tile.y) / n
            let origin = RenderPoint(
                x: o.x + (nwX - c.x) * camera.worldSize, y: o.y + (nwY - c.y) * camera.worldSize)
            let k = camera.worldSize / (n * tileSize)
            placements.append(TilePlacement(image: image, origin: origin, scale: k))
        }
        let bearing = camera.state.bearing
        let frame = RenderSize(width: camera.state.size.width, height: camera.state.size.height)
        if bearing == 0 || !bearing.isFinite {
            return standIns + TileCompositor.commands(for: placements, frame: frame, scale: scale)
        }
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
                .image(ImageCommand(image: p.image, rect: RenderRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))))
        }
        out.append(.restore)
        return out
    }

    private func snap(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }

    /// What the tile-image cache knows of a tile.
    enum CachedTileImage {
        case image(ImageHandle)
        /// The tile draws nothing.
        case empty
        case missing
    }

    /// The tile's image from the cache only (asynchronous frames).
    func cachedTileImage(_ tile: TileID, scale: Double) -> CachedTileImage {
        let canonical = tile.canonical
        let key = TileImageKey(revision: revision, z: tile.z, x: canonical.x, y: canonical.y, pixelScale: scale)
        if let hit = tileImages.image(for: key) {
            frameStats.tileImagesReused += 1
            return .image(hit)
        }
        return emptyTileImages.contains(key) ? .empty : .missing
    }

    /// The cached image of a tile's non-symbol layers at the tile's zoom, rendered now when missing; `nil` when the
    /// tile has nothing to draw or the backend fails.
    private func tileImage(_ tile: TileID, scale: Double) -> ImageHandle? {
        let canonical = tile.canonical
        let key = TileImageKey(revision: revision, z: tile.z, x: canonical.x, y: canonical.y, pixelScale: scale)
        switch cachedTileImage(tile, scale: scale) {
        case .image(let hit): return hit
        case .empty: return nil
        case .missing: break
        }
        guard let list = tileImageList(canonical, scale: scale) else {
            if emptyTileImages.count > 4096 { emptyTileImages.removeAll() }
            emptyTileImages.insert(key)
            return nil
        }
        guard let handle = try? backend.renderImage(list) else { return nil }
        frameStats.tileImagesRendered += 1
        for evicted in tileImages.insert(handle, for: key) where evicted != handle { backend.unregister(evicted) }
        return handle
    }

    /// The display list of a canonical tile's image (its non-symbol layers at its own zoom), `nil` when it draws
    /// nothing.
    func tileImageList(_ canonical: TileID, scale: Double) -> DisplayList? {
        let zoom = Double(canonical.z)
        let side = options.tileSize
        var list = DisplayList(size: RenderSize(width: side, height: side), scale: scale)
        var projectors = ProjectorCache(tile: canonical, imageSize: side)
        for layer in layers where layer.type != .background && layer.type != .symbol {
            guard layer.layer.isVisible(atZoom: zoom), let s = layer.layer.source, sources[s] != nil else { continue }
            drawLayer(
                layer, tile: canonical, zoom: zoom, projectors: &projectors, clipsToImage: true, into: &list.commands)
        }
        return list.commands.isEmpty ? nil : list
    }
}

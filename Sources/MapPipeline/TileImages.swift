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
        for tile in tiles {
            guard let image = tileImage(tile, scale: scale) else { continue }
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
            return TileCompositor.commands(for: placements, frame: frame, scale: scale)
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

    /// The cached image of a tile's non-symbol layers at the tile's zoom, rendered now when missing; `nil` when the
    /// tile has nothing to draw or the backend fails.
    private func tileImage(_ tile: TileID, scale: Double) -> ImageHandle? {
        let canonical = tile.canonical
        let key = TileImageKey(revision: revision, z: tile.z, x: canonical.x, y: canonical.y, pixelScale: scale)
        if let hit = tileImages.image(for: key) {
            frameStats.tileImagesReused += 1
            return hit
        }
        if emptyTileImages.contains(key) { return nil }
        let zoom = Double(tile.z)
        let side = options.tileSize
        var list = DisplayList(size: RenderSize(width: side, height: side), scale: scale)
        var projectors = ProjectorCache(tile: canonical, imageSize: side)
        for layer in layers where layer.type != .background && layer.type != .symbol {
            guard layer.layer.isVisible(atZoom: zoom), let s = layer.layer.source, sources[s] != nil else { continue }
            drawLayer(layer, tile: canonical, zoom: zoom, projectors: &projectors, into: &list.commands)
        }
        guard !list.commands.isEmpty else {
            if emptyTileImages.count > 4096 { emptyTileImages.removeAll() }
            emptyTileImages.insert(key)
            return nil
        }
        guard let handle = try? backend.renderImage(list) else { return nil }
        frameStats.tileImagesRendered += 1
        for evicted in tileImages.insert(handle, for: key) where evicted != handle { backend.unregister(evicted) }
        return handle
    }
}

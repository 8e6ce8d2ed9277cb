#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CameraTransform {
    /// The tiles that cover everything the whole view shows, with level of detail by distance.
    ///
    /// Walks the tile pyramid from zoom `minimumTileZoom` (world copies included, so a view across the antimeridian
    /// gets tiles with `wrap` ±1) and splits a tile while it intersects the visible quadrilateral and its zoom is
    /// below both `tileZoom` and the zoom wanted at its nearest point, `floor(zoom + log2(D / depth))`, where
    /// `depth` is the smallest viewing-axis distance of the tile's corners (the ground there is drawn at scale
    /// `D / depth`). Without tilt every ground point has depth `D`, so all tiles come out at `tileZoom` (when
    /// `tileZoom ≤ floor(zoom)`); under pitch, tiles twice as far come out one level coarser (nearer tiles at higher
    /// resolution, as MapLibre's tile cover does). Tiles never overlap and together cover the visible quadrilateral.
    ///
    /// - Parameters:
    ///   - tileZoom: the zoom of the finest tiles, usually `floor(zoom)` clamped to the source's range; 0…30.
    ///   - minimumTileZoom: the coarsest zoom allowed; 0…`tileZoom`. Defaults to 0.
    /// - Returns: the tiles, nearest (finest) first, then by distance from the camera centre; empty when a camera
    ///   field is not finite.
    public func coveringTiles(tileZoom: Int, minimumTileZoom: Int = 0) -> [TileID] {
        let tz = clamp(tileZoom, 0, 30)
        let minZ = clamp(minimumTileZoom, 0, tz)
        guard
            centerWorld.x.isFinite, centerWorld.y.isFinite, worldSize.isFinite, sinBearing.isFinite,
            sinPitch.isFinite
        else { return [] }
        let quad = visibleQuad()
        let box = quad.bounds
        guard box.min.x.isFinite, box.max.x.isFinite, box.min.y.isFinite, box.max.y.isFinite else { return [] }
        // At most a few world copies: a zoom-0 view of a wide window shows about four.
        let firstWrap = Int(max(box.min.x.rounded(.down), -4))
        let lastWrap = Int(min(box.max.x.rounded(.down), 4))
        guard firstWrap <= lastWrap else { return [] }
        var stack: [TileID] = []
        let n0 = 1 << minZ
        for wrap in firstWrap...lastWrap {
            for y in 0..<n0 {
                for x in 0..<n0 { stack.append(TileID(z: minZ, x: x, y: y, wrap: wrap)) }
            }
        }
        var result: [TileID] = []
        while let tile = stack.popLast() {
            let nw = tile.northWest
            let s = tile.worldSize
            guard quad.intersects(minX: nw.x, minY: nw.y, maxX: nw.x + s, maxY: nw.y + s) else { continue }
            if tile.z >= tz {
                result.append(tile)
                continue
            }
            let nearest = min(
                depth(of: nw), depth(of: WorldPoint(x: nw.x + s, y: nw.y)),
                depth(of: WorldPoint(x: nw.x, y: nw.y + s)), depth(of: WorldPoint(x: nw.x + s, y: nw.y + s)))
            let wanted = nearest <= 0 ? Double(tz) : state.zoom + log2(distance / nearest)
            if Double(tile.z) < (wanted + 1e-6).rounded(.down) {
                stack.append(contentsOf: tile.children)
            } else {
                result.append(tile)
            }
        }
        let c = centerWorld
        func key(_ t: TileID) -> Double {
            let nw = t.northWest
            let h = t.worldSize / 2
            let dx = nw.x + h - c.x
            let dy = nw.y + h - c.y
            return dx * dx + dy * dy
        }
        return result.sorted { a, b in a.z != b.z ? a.z > b.z : key(a) < key(b) }
    }
}

extension CameraState {
    /// The tiles covering the view at `tileZoom` (see ``CameraTransform/coveringTiles(tileZoom:minimumTileZoom:)``).
    public func coveringTiles(tileZoom: Int, minimumTileZoom: Int = 0) -> [TileID] {
        transform.coveringTiles(tileZoom: tileZoom, minimumTileZoom: minimumTileZoom)
    }
}
